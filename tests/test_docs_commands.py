"""What the documentation tells a user to run exists and agrees: one test command everywhere (the README
Quickstart's), and the package's data READMEs name only functions that exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: Pages that tell a user how to run the tests (docs/zh-CN.md is generated from README.zh-CN.md).
PAGES = [REPO / "README.md", REPO / "README.zh-CN.md", REPO / ".ci" / "run",
         *sorted(path for path in (REPO / "docs").rglob("*.md") if path.name != "zh-CN.md")]
DATA_READMES = sorted((REPO / "python" / "nlgmetrics" / "data").rglob("README.md"))


def quickstart_test_command() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quickstart", 1)[1].split("```", 2)[1]
    commands = [line for line in block.strip().splitlines() if "pytest" in line]
    assert len(commands) == 1, commands
    return commands[0].strip()


def test_every_page_names_the_quickstart_test_command():
    command = quickstart_test_command()
    assert command.startswith("sh tools/install_chromium.sh && ") and command.endswith("python -m pytest -n 2 --dist loadfile")
    named_in = []
    for page in PAGES:
        for line in page.read_text(encoding="utf-8").splitlines():
            if "python -m pytest" in line:
                assert line.split("  #")[0].strip() == command, f"{page.relative_to(REPO)}: {line.strip()}"
                named_in.append(page.relative_to(REPO).as_posix())
    assert {"README.md", "README.zh-CN.md", ".ci/run", "docs/index.md"} <= set(named_in)


def dotted_names(text: str):
    """``nlgmetrics.a.b`` names written in backticks (calls' parentheses dropped)."""
    return sorted(set(re.findall(r"`(nlgmetrics(?:\.\w+)+)(?:\([^`]*\))?`", text)))


def resolve(name: str):
    """The object a dotted name names: the longest importable module prefix, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return obj
    raise ImportError(name)


@pytest.mark.parametrize("readme", DATA_READMES, ids=[str(p.relative_to(REPO / "python")) for p in DATA_READMES])
def test_data_readmes_name_functions_that_exist(readme):
    names = dotted_names(readme.read_text(encoding="utf-8"))
    for name in names:
        try:
            resolve(name)
        except (ImportError, AttributeError) as error:
            pytest.fail(f"{readme.relative_to(REPO)} names {name}, which does not exist ({error})")


def test_the_sample_readme_names_its_function():
    text = (REPO / "python" / "nlgmetrics" / "data" / "sample" / "README.md").read_text(encoding="utf-8")
    assert "nlgmetrics.sample.sample_paths" in dotted_names(text)
    assert callable(resolve("nlgmetrics.sample.sample_paths"))


def test_dotted_names_and_resolve():
    assert dotted_names("use `nlgmetrics.bleu(h, r)` or `nlgmetrics.sample.sample_paths()`; not `x.y`") == [
        "nlgmetrics.bleu", "nlgmetrics.sample.sample_paths"]
    with pytest.raises(AttributeError):
        resolve("nlgmetrics.sample_paths")


def test_ci_gates_use_the_test_extras_versions():
    """.ci/run installs ruff and mypy before the build, at the versions the test extra pins (one place to bump)."""
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    ci_run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    for tool in ("ruff", "mypy"):
        pinned = re.search(rf'"{tool}==([\w.]+)', pyproject)
        installed = re.search(rf'"{tool}==([\w.]+)"', ci_run)
        assert pinned and installed, f"{tool} is not pinned in pyproject.toml's test extra and installed by .ci/run"
        assert installed.group(1) == pinned.group(1), f".ci/run installs {tool} {installed.group(1)}, the test extra pins {pinned.group(1)}"
    for gate in ("ruff check .", "python -m mypy", "cargo fmt --check", "cargo clippy --all-targets -- -D warnings",
                 "cargo clippy --all-targets --features python -- -D warnings", "bash tools/wheel_smoke.sh"):
        assert gate in ci_run.split(quickstart_test_command())[0], f".ci/run does not run {gate!r} before the test command"


def test_the_wheel_smoke_builds_with_pip_s_maturin():
    """tools/wheel_smoke.sh installs maturin as pyproject.toml's build-system asks, so that the README's
    `pip install .` reuses its release build (same maturin, same interpreter, same cargo fingerprints)."""
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    requires = re.search(r'^requires = \["(maturin[^"]*)"\]', pyproject, re.M)
    assert requires, "pyproject.toml's build-system requires one maturin"
    assert f'pip install --quiet "{requires.group(1)}"' in (REPO / "tools" / "wheel_smoke.sh").read_text(encoding="utf-8")
