"""Every registered metric is documented, on the command line and in the contract tests (python/nlgmetrics/core/
README.md, "Adding a metric"): a new metric that forgets one of them fails here, naming what is missing.

- its function ``nlgmetrics.<name>`` exists and a reference page of the site's nav (mkdocs.yml's, plus every
  ``docs/reference/*.md`` that tools/mkdocs_hooks.py adds) documents it with a ``::: …`` directive (naming the
  function, its module, or a module whose ``members`` list it);
- docs/cli.md's command table as the site shows it has its row (the hook adds a missing metric's row), and the
  command line has the subcommand;
- the contract cases (tests/test_metric_interface.py's ``CASES`` and any test file's ``CONTRACT_CASES``) score it
  (split, merge, bytes, pickles, result shape).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import nlgmetrics
from nlgmetrics.core.registry import metric_classes, resolve

REPO = Path(__file__).resolve().parent.parent
#: Registered metrics that the contract tests cannot run as they are, and where their contract is tested instead.
CONTRACT_ELSEWHERE = {
    "comet": "update() also takes sources=: tests/test_comet.py merges its states through bytes",
}
METRICS = sorted(metric_classes())


def _hooks():
    """tools/mkdocs_hooks.py, which the docs build runs (mkdocs.yml ``hooks:``)."""
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", REPO / "tools" / "mkdocs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nav_pages() -> list[str]:
    """The Markdown pages of the site's nav (paths under docs/): mkdocs.yml's, and the reference pages the hook
    adds."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:", 1)[1]
    listed = re.findall(r"^\s+- (?:[^:\n]+: )?([\w./-]+\.md)\s*$", nav, re.M)
    return listed + [path for page in _hooks().reference_pages_missing(listed) for path in page.values()]


def documented_objects(page: Path) -> list:
    """What a page's mkdocstrings directives document: ``::: target`` (a module: its ``members:`` if listed, else all
    of its public functions; or a function or class)."""
    objects = []
    for match in re.finditer(r"^::: ([\w.]+)\n((?:[ \t]+.*\n)*)", page.read_text(encoding="utf-8"), re.M):
        target, options = match.group(1), match.group(2)
        module_name, _, attribute = target.rpartition(".")
        try:
            obj = importlib.import_module(target)
        except ImportError:
            obj = getattr(importlib.import_module(module_name), attribute)
        if not inspect.ismodule(obj):
            objects.append(obj)
            continue
        members = re.search(r"members:\s*\[([^\]]*)\]", options)
        names = ([name.strip() for name in members.group(1).split(",")] if members
                 else [name for name in vars(obj) if not name.startswith("_")])
        objects += [getattr(obj, name) for name in names if hasattr(obj, name)]
    return objects


@pytest.fixture(scope="module")
def documented():
    pages = [REPO / "docs" / page for page in nav_pages()]
    return {id(obj): page for page in pages if page.exists() for obj in documented_objects(page)}


def test_the_nav_parser_reads_mkdocs_yml():
    pages = nav_pages()
    assert "reference/bleu.md" in pages and "index.md" in pages


@pytest.mark.parametrize("name", METRICS)
def test_a_reference_page_documents_the_metric(name, documented):
    function = getattr(nlgmetrics, name, None)
    assert callable(function), f"registered metric {name!r} has no function nlgmetrics.{name} (define {name}() in the module of its class)"
    assert id(function) in documented, (
        f"no page in mkdocs.yml's nav documents nlgmetrics.{name}: add `::: {function.__module__}.{name}` to its "
        "reference page (docs/reference/<family>.md)")


def _cli_rows() -> list[str]:
    """The first cells of docs/cli.md's command table as the site shows it (the hook adds the metrics it lacks)."""
    descriptions = {name: cls.description for name, cls in metric_classes().items()}
    text = _hooks().with_metric_rows((REPO / "docs" / "cli.md").read_text(encoding="utf-8"), descriptions)
    return [line.split("|")[1] for line in text.splitlines() if line.startswith("| `")]


@pytest.mark.parametrize("name", METRICS)
def test_the_command_line_page_has_the_metric_s_row(name):
    from nlgmetrics.cli.commands import build_parser

    assert any(f"`{name}`" in first_cell for first_cell in _cli_rows()), (
        f"docs/cli.md's command table has no row naming `{name}`")
    subcommands = next(action.choices for action in build_parser()._actions if getattr(action, "choices", None))
    assert name in subcommands, f"`nlgmetrics {name}` is not a subcommand"


def _contract_classes() -> set:
    import test_metric_interface

    return {resolve(case[0])[0] for case in test_metric_interface.CASES}


@pytest.mark.parametrize("name", METRICS)
def test_the_contract_tests_score_the_metric(name):
    if name in CONTRACT_ELSEWHERE:
        pytest.skip(CONTRACT_ELSEWHERE[name])
    assert metric_classes()[name] in _contract_classes(), (
        f"the contract tests have no case for {name!r}: declare CONTRACT_CASES = [(name, options, data, order_free)] "
        "in its test file (or add one to tests/test_metric_interface.py's CASES)")


def test_the_docs_build_adds_a_new_metric_s_page_and_command_row(tmp_path):
    """A new metric edits no shared list: mkdocs.yml runs tools/mkdocs_hooks.py, which puts every reference page
    into the nav and gives cli.md's table a row for each registered metric it does not name."""
    assert "\nhooks:\n  - tools/mkdocs_hooks.py\n" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    hooks = _hooks()
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "bleu.md").write_text("# BLEU\n", encoding="utf-8")
    (tmp_path / "reference" / "newmetric.md").write_text("intro\n# A new metric\n", encoding="utf-8")
    assert hooks.reference_pages_missing(["reference/bleu.md"], tmp_path) == [{"A new metric": "reference/newmetric.md"}]
    cli = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    with_row = hooks.with_metric_rows(cli, {"bleu": "x", "newmetric": "a new metric"})
    assert "| `newmetric` | a new metric |" in with_row
    assert with_row.replace("| `newmetric` | a new metric |\n", "") == cli  # only the new row, inside the table
