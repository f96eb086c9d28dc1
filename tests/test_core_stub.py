"""The hand-kept stub ``python/nlgmetrics/_core.pyi`` matches the compiled extension ``nlgmetrics._core``.

``python -m mypy.stubtest nlgmetrics._core`` imports the built extension and compares every name it
exports, every argument name, kind and default, with the stub. A new ``#[pyfunction]`` or
``#[pyclass]`` without its stub line fails here, naming it (see ``nlgmetrics/core/README.md``).
"""

import importlib.util
import re
import subprocess
import sys

import pytest

# PyO3 fills the module's `__all__` with every name it adds; the stub does not repeat that list
# (one list fewer to keep): stubtest still checks each name of the runtime `__all__` one by one.
ALLOWLIST = "nlgmetrics._core.__all__\n"

ERROR_LINE = re.compile(r"^error: nlgmetrics\._core\.(\S+) (.*)$", re.MULTILINE)


def stubtest_output(tmp_path):
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text(ALLOWLIST)
    # Run in an empty folder so that only the installed package (stub and extension) is compared.
    return subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "nlgmetrics._core", "--allowlist", str(allowlist)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )


def explain(output):
    """A failure message that names what to fix, grouped by kind."""
    missing, stale, inconsistent = [], [], []
    for name, problem in ERROR_LINE.findall(output):
        if problem.startswith("is not present in stub"):
            missing.append(name)
        elif problem.startswith("is not present at runtime"):
            stale.append(name)
        else:
            inconsistent.append(name)
    lines = ["python/nlgmetrics/_core.pyi does not match the compiled extension nlgmetrics._core."]
    if missing:
        lines.append("Missing from the stub (add a stub line for each, see nlgmetrics/core/README.md): "
                     + ", ".join(missing))
    if stale:
        lines.append("In the stub but not in the extension (remove, or rebuild the extension): " + ", ".join(stale))
    if inconsistent:
        lines.append("Signature differs (argument names, order or defaults as in #[pyo3(signature = ...)]): "
                     + ", ".join(inconsistent))
    lines.append("Full output of python -m mypy.stubtest nlgmetrics._core:")
    return "\n".join(lines) + "\n" + output


def test_explain_names_what_is_missing():
    # Synthetic stubtest output (the format of mypy 2.4), to check the message this test prints.
    output = ("error: nlgmetrics._core.wer_segment_stats is not present in stub\nStub: MISSING\n"
              "error: nlgmetrics._core.old_helper is not present at runtime\n"
              'error: nlgmetrics._core.qa_scores is inconsistent, stub parameter "x" differs\n')
    message = explain(output)
    assert "Missing from the stub (add a stub line for each, see nlgmetrics/core/README.md): wer_segment_stats" in message
    assert "In the stub but not in the extension (remove, or rebuild the extension): old_helper" in message
    assert "): qa_scores" in message


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (it is in the `test` extra: pip install '.[test]')")
def test_core_stub_matches_extension(tmp_path):
    result = stubtest_output(tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, explain(output)
    assert "Success" in output, output
