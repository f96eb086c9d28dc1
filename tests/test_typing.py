"""The package type-checks: ``python -m mypy`` (configured in pyproject.toml's ``[tool.mypy]``) finds no
error in ``python/nlgmetrics``. The package ships ``py.typed``, so its annotations are what users' type
checkers read; a wrong one misleads them (e.g. a facade's ``corpus_score`` typed as the base ``Score``)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (it is in the `test` extra: pip install '.[test]')")
def test_package_type_checks(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert run.returncode == 0, f"mypy found {len(errors)} error(s):\n" + "\n".join(errors or [run.stdout, run.stderr])
