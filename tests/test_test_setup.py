"""What the test setup does where a tool is missing.

tools/install_chromium.sh runs with stand-ins (synthetic one-line scripts) for id, apt-get, chromium and
fc-list on a PATH of their own: it installs as root, and everywhere else says in one line that Chromium is
optional and exits 0, so the README's test command goes on. Without Java, the tests that start a JVM (Spark,
meteor-1.5.jar, pycocoevalcap's PTBTokenizer) skip with ``conftest.java_missing_reason``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import java_missing_reason

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "install_chromium.sh"
SH = shutil.which("sh")
OPTIONAL = "it is optional: the HTML report's browser tests will skip"

needs_sh = pytest.mark.skipif(SH is None or shutil.which("grep") is None, reason="needs sh and grep")


def run(tmp_path: Path, **stand_ins: str) -> subprocess.CompletedProcess:
    """The script with a PATH holding only ``grep`` and the given stand-ins (name → shell body)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "grep").symlink_to(shutil.which("grep"))
    for name, body in stand_ins.items():
        (bin_dir / name).write_text(f"#!{SH}\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return subprocess.run([SH, str(SCRIPT)], env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=60)


@needs_sh
@pytest.mark.parametrize("stand_ins,why", [
    ({"id": "echo 1000"}, "needs root for apt-get"),
    ({"id": "echo 0"}, "no apt-get on this system"),
    ({"id": "echo 0", "apt-get": "echo 'E: Could not get lock' >&2; exit 100"}, "apt-get update failed: apt locked or no network"),
    ({"id": "echo 0", "apt-get": '[ "$1" = update ] || exit 100'}, "apt-get install chromium fonts-noto-cjk failed"),
])
def test_where_it_cannot_install_it_says_so_and_exits_0(tmp_path, stand_ins, why):
    done = run(tmp_path, **stand_ins)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"install_chromium.sh: Chromium not installed ({why}); {OPTIONAL}\n"
    assert done.stderr == ""


@needs_sh
def test_as_root_it_installs_and_prints_the_version(tmp_path):
    done = run(tmp_path, id="echo 0", **{"apt-get": "exit 0"}, chromium="echo 'Chromium 140.0'")
    assert (done.returncode, done.stdout) == (0, "Chromium 140.0\n")


@needs_sh
def test_already_installed(tmp_path):
    done = run(tmp_path, chromium="exit 0", **{"fc-list": "echo 'Noto Sans CJK SC:style=Regular'"})
    assert (done.returncode, done.stdout) == (0, "chromium and fonts-noto-cjk already installed\n")


@needs_sh
def test_a_failed_install_is_not_installed(tmp_path):
    # apt-get "succeeds" but leaves no chromium behind: the version check fails the script, as it should.
    done = run(tmp_path, id="echo 0", **{"apt-get": "exit 0"})
    assert done.returncode != 0


def test_java_missing_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    advice = "install a JDK 17, e.g. apt-get install openjdk-17-jre-headless"
    assert java_missing_reason() == f"Java is not installed (no java on PATH): {advice}"
    assert java_missing_reason(java_home=True) == f"Java is not installed (no java on PATH or in JAVA_HOME): {advice}"
    (tmp_path / "jdk" / "bin").mkdir(parents=True)
    (tmp_path / "jdk" / "bin" / "java").write_text("")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    assert java_missing_reason(java_home=True) is None  # PySpark finds it there
    assert java_missing_reason() is not None  # the jars' runners call `java` by name: PATH only
    monkeypatch.setenv("PATH", str(tmp_path / "jdk" / "bin"))
    (tmp_path / "jdk" / "bin" / "java").chmod(0o755)
    assert java_missing_reason() is None
