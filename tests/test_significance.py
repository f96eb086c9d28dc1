"""Paired tests and confidence intervals: identical to sacreBLEU 2.6.0's PairedTest on the real WMT17
systems, close to Moses' and MultEval's published p-values, and every error path."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from conftest import read_lines
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

import nlgmetrics
from nlgmetrics.stats.significance import confidence_interval, paired_test

BASELINE = "newstest2017.LIUM-NMT.4900.en-de"


@pytest.fixture(scope="module")
def wmt17(shared_data):
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    names = sorted(p.name[: -len(".hyp.de")] for p in folder.glob("*.hyp.de"))
    names.remove(BASELINE)
    systems = {BASELINE: read_lines(folder / f"{BASELINE}.hyp.de")}
    systems.update({name: read_lines(folder / f"{name}.hyp.de") for name in names})
    expected = json.loads((folder / "significance_expected_pvalues.json").read_text())
    return systems, read_lines(folder / "newstest2017.en-de.ref.de"), expected


def sacrebleu_paired(systems, refs, metrics, test, n_samples, n_ar_confidence=-1):
    os.environ["SACREBLEU_SEED"] = "12345"
    _, scores = PairedTest(list(systems.items()), metrics, [refs], test_type=test, n_samples=n_samples,
                           n_ar_confidence=n_ar_confidence)()
    return scores


def assert_rows_identical(ours, theirs):
    assert len(ours) == len(theirs)
    for row, expected in zip(ours, theirs):
        assert row.score == expected.score
        assert row.p_value == expected.p_value
        assert row.mean == expected.mean
        assert row.ci == expected.ci


def test_paired_bootstrap_identical_to_sacrebleu_on_all_wmt17_systems(wmt17):
    systems, refs, _ = wmt17
    theirs = sacrebleu_paired(systems, refs, {"BLEU": BLEU(tokenize="none")}, "bs", 1000)
    ours = paired_test(systems, refs, metrics={"bleu": {"tokenize": "none"}}, test="bs", n_samples=1000)
    assert ours.systems == tuple(theirs["System"])
    assert_rows_identical(ours["BLEU"], theirs["BLEU"])


def test_paired_bootstrap_chrf_and_ter_identical_to_sacrebleu(wmt17):
    from sacrebleu.metrics import CHRF, TER

    systems, refs, _ = wmt17
    # sacreBLEU's TER takes ~50 s per system on all 3004 segments: take every 12th segment of 4 systems.
    picked = dict(list(systems.items())[:4])
    picked = {name: hyps[::12] for name, hyps in picked.items()}
    sample_refs = refs[::12]
    theirs = sacrebleu_paired(picked, sample_refs, {"chrF2": CHRF(), "chrF2++": CHRF(word_order=2), "TER": TER()}, "bs", 300)
    ours = paired_test(picked, sample_refs, metrics=["chrf", "chrf++", "ter"], test="bs", n_samples=300)
    assert_rows_identical(ours["chrF2"], theirs["chrF2"])
    assert_rows_identical(ours["chrF2++"], theirs["chrF2++"])
    assert_rows_identical(ours["TER"], theirs["TER"])


def test_approximate_randomization_identical_to_sacrebleu(wmt17):
    systems, refs, _ = wmt17
    theirs = sacrebleu_paired(systems, refs, {"BLEU": BLEU(tokenize="none")}, "ar", 1000, n_ar_confidence=200)
    ours = paired_test(systems, refs, metrics={"bleu": {"tokenize": "none"}}, test="ar", n_samples=1000, n_ar_confidence=200)
    assert_rows_identical(ours["BLEU"], theirs["BLEU"])


def test_p_values_agree_with_moses_and_multeval(wmt17):
    # sacreBLEU's own tolerance for these published p-values (test/test_significance.py).
    systems, refs, expected = wmt17
    bootstrap = paired_test(systems, refs, metrics={"bleu": {"tokenize": "none"}}, test="bs", n_samples=2000)
    randomization = paired_test(systems, refs, metrics={"bleu": {"tokenize": "none"}}, test="ar", n_samples=10000)
    for row in bootstrap["BLEU"][1:]:
        assert abs(row.p_value - expected["MOSES_P_VALS"][row.system]) < 1e-2, row.system
    for row in randomization["BLEU"][1:]:
        assert abs(row.p_value - expected["MULTEVAL_P_VALS"][row.system][0]) < 1e-2, row.system


def test_result_shapes_and_table(wmt17):
    systems, refs, _ = wmt17
    picked = dict(list(systems.items())[:3])
    result = paired_test(picked, refs, metrics=["bleu"], n_samples=50)
    assert result["BLEU"][0].p_value is None and result["BLEU"][1].p_value is not None
    table = str(result)
    assert "Baseline: " + BASELINE in table and "BS test, 50 samples, seed 12345" in table
    payload = result.to_dict()
    assert payload["rows"]["BLEU"][1]["system"] == list(picked)[1]
    assert result.signatures["BLEU"].endswith("|bs:50|seed:12345")


def test_confidence_interval_sacrebleu_method_matches_sacrebleu_bootstrap(wmt17):
    from sacrebleu.significance import _bootstrap_resample, estimate_ci

    systems, refs, _ = wmt17
    hyps = systems[BASELINE]
    metric = BLEU()
    stats = metric._extract_corpus_statistics(hyps, [refs])
    os.environ["SACREBLEU_SEED"] = "12345"
    _, scores = _bootstrap_resample(stats, metric, 1000)
    mean, half = estimate_ci(np.array([s.score for s in scores]))
    ours = confidence_interval(hyps, refs, method="sacrebleu")
    assert ours.mean == mean
    assert ours.low == mean - half and ours.high == mean + half


def test_percentile_interval_is_reproducible_and_contains_the_score(wmt17):
    systems, refs, _ = wmt17
    first = confidence_interval(systems[BASELINE], refs, metric="chrf", n_samples=200, seed=7)
    again = confidence_interval(systems[BASELINE], refs, metric="chrf", n_samples=200, seed=7)
    assert first == again
    assert first.low < first.score < first.high
    assert first.score == nlgmetrics.chrf(systems[BASELINE], refs).score


class TestErrors:
    def test_unknown_test(self):
        with pytest.raises(ValueError, match="test must be 'bs'"):
            paired_test({"a": ["x"], "b": ["y"]}, ["x"], test="t")

    def test_needs_two_systems(self):
        with pytest.raises(ValueError, match="at least two"):
            paired_test({"a": ["x"]}, ["x"])

    def test_system_lengths_must_match(self):
        with pytest.raises(ValueError, match=r"systems\['b'\] has 2 hypotheses but the baseline has 1"):
            paired_test({"a": ["x"], "b": ["y", "z"]}, ["x"])

    def test_references_must_match(self):
        with pytest.raises(ValueError, match="references has 2 entries but there are 1 hypotheses"):
            paired_test({"a": ["x"], "b": ["y"]}, ["x", "y"])

    def test_unknown_metric_and_option(self):
        with pytest.raises(ValueError, match="unknown metric 'blue'"):
            paired_test({"a": ["x"], "b": ["y"]}, ["x"], metrics=["blue"])
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            paired_test({"a": ["x"], "b": ["y"]}, ["x"], metrics={"bleu": {"no_such_option": 1}})

    def test_bad_sample_counts(self):
        with pytest.raises(ValueError, match="n_samples must be a positive int"):
            paired_test({"a": ["x"], "b": ["y"]}, ["x"], n_samples=-3)
        with pytest.raises(ValueError, match="n_samples must be a positive int"):
            confidence_interval(["x"], ["x"], n_samples=0)
        # 0 is refused, not silently read as the default (issue 13); 2**40 would exhaust memory.
        for bad in (0, 2**40, True):
            with pytest.raises(ValueError, match="n_samples must be a positive int"):
                paired_test({"a": ["x"], "b": ["y"]}, ["x"], n_samples=bad)

    def test_empty_corpus(self):
        with pytest.raises(ValueError, match="at least one segment"):
            paired_test({"a": [], "b": []}, [])
        with pytest.raises(ValueError, match="at least one segment"):
            confidence_interval([], [])

    def test_interval_options(self):
        with pytest.raises(ValueError, match="method must be"):
            confidence_interval(["x"], ["x"], method="bca")
        with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
            confidence_interval(["x"], ["x"], confidence=95)
        with pytest.raises(ValueError, match="fixed 95% interval"):
            confidence_interval(["x"], ["x"], method="sacrebleu", confidence=0.9)


class TestCompareCommand:
    """`nlgmetrics compare`: the same numbers as the Python API, in every output format."""

    @pytest.fixture(scope="class")
    @staticmethod
    def files(shared_data):
        folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
        return [folder / "newstest2017.en-de.ref.de",
                [folder / f"{name}.hyp.de" for name in (BASELINE, "newstest2017.uedin-nmt.4722.en-de", "newstest2017.KIT.4950.en-de")]]

    def run(self, files, *extra):
        import contextlib
        import io

        from nlgmetrics.cli.commands import main

        ref, hyps = files
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["compare", "-r", str(ref), "-i", *map(str, hyps), *extra])
        return code, out.getvalue(), err.getvalue()

    def test_json_equals_paired_test(self, files, wmt17):
        systems, refs, _ = wmt17
        code, out, _ = self.run(files, "-m", "bleu,chrf", "--paired-bs", "--n-samples", "200", "-f", "json")
        assert code == 0
        payload = json.loads(out)
        picked = {name: systems[name] for name in (BASELINE, "newstest2017.uedin-nmt.4722.en-de", "newstest2017.KIT.4950.en-de")}
        expected = paired_test(picked, refs, metrics=["bleu", "chrf"], n_samples=200)
        for metric in ("BLEU", "chrF2"):
            assert [row["p_value"] for row in payload["rows"][metric]] == [row.p_value for row in expected[metric]]
            assert [row["score"] for row in payload["rows"][metric]] == [row.score for row in expected[metric]]

    def test_text_csv_latex(self, files):
        code, text, _ = self.run(files, "-m", "bleu", "--paired-ar", "--n-samples", "100")
        assert code == 0 and "Baseline: newstest2017.LIUM-NMT.4900.en-de.hyp.de" in text and "AR test, 100 samples" in text
        code, csv_text, _ = self.run(files, "-m", "bleu", "-f", "csv")
        assert csv_text.splitlines()[0] == "system,BLEU,BLEU mean,BLEU ci,BLEU p" and len(csv_text.splitlines()) == 4
        code, latex, _ = self.run(files, "-m", "ter", "--paired-bs", "--n-samples", "50", "-f", "latex")
        assert latex.startswith(r"\begin{tabular}{lr}") and latex.rstrip().endswith(r"\end{tabular}")

    def test_errors(self, files):
        ref, hyps = files
        code, out, err = self.run([ref, hyps[:1]], "--paired-bs")
        assert code == 1 and out == "" and "at least two systems" in err
        code, out, err = self.run(files, "-m", "bleu,nope")
        assert code == 1 and out == "" and "unknown metric 'nope'" in err


class TestEveryMetric:
    """Every metric resamples through the same engine; on the identity resample each gives back its own score."""

    NAMES = ["bleu", "chrf", "chrf++", "ter", "rouge1", "rouge2", "rougeL", "rougeLsum", "meteor", "cider", "exact_match", "f1"]

    @pytest.fixture(scope="class")
    @staticmethod
    def de_en(shared_data):
        folder = shared_data / "mt" / "wmt22" / "de-en"
        take = slice(0, 1984, 8)  # every 8th real segment keeps this quick
        systems = {name: read_lines(folder / f"generaltest2022.de-en.hyp.{name}.en")[take] for name in ("Online-B", "PROMT")}
        return systems, read_lines(folder / "generaltest2022.de-en.ref.A.en")[take]

    @pytest.mark.parametrize("name", NAMES)
    def test_identity_resample_reproduces_the_corpus_score(self, de_en, name):
        from nlgmetrics.stats.resamplable import resamplable

        systems, refs = de_en
        metric = resamplable(name)
        computed = metric.compute(systems["PROMT"], [[r] for r in refs])
        identity = np.arange(len(refs))[None, :]
        from nlgmetrics.stats.resampling import Resample

        again = metric.exact_scores(Resample(identity).sums(computed.segment_stats))[0]
        assert again == pytest.approx(computed.score, rel=1e-12, abs=1e-12)

    def test_paired_tests_run_for_every_metric(self, de_en):
        systems, refs = de_en
        for test in ("bs", "ar"):
            result = paired_test(systems, refs, metrics=self.NAMES, test=test, n_samples=60)
            assert len(result.rows) == len(self.NAMES)
            for rows in result.rows.values():
                assert rows[0].p_value is None and 0 < rows[1].p_value <= 1
        assert "METEOR" in result.format() and "rougeL F" in result.format()


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
@pytest.mark.parametrize("effective_order", [False, True])
def test_vectorised_float32_bleu_equals_the_row_by_row_mirror(wmt17, smooth, effective_order):
    from nlgmetrics.stats.resampling import Resample, bootstrap_indices, make_rng
    from nlgmetrics.stats.sacrebleu_float32 import bleu_float32_score, bleu_float32_scores

    systems, refs, _ = wmt17
    # Short slices give zero-match and zero-total orders, where the branches differ.
    stats = nlgmetrics.bleu(systems[BASELINE][:40], refs[:40], tokenize="none").segment_stats
    rows = Resample(bootstrap_indices(make_rng(3), 40, 300)).sums_float32(stats)
    rows = np.vstack([rows, np.float32(stats[:40])])
    expected = [bleu_float32_score(row, 4, smooth, None, effective_order) for row in rows]
    assert bleu_float32_scores(rows, 4, smooth, None, effective_order).tolist() == expected


@pytest.mark.parametrize("word_order", [0, 2])
def test_vectorised_chrf_equals_the_row_by_row_mirror_and_the_core(wmt17, word_order):
    from nlgmetrics import _core
    from nlgmetrics.stats.resampling import Resample, bootstrap_indices, make_rng
    from nlgmetrics.stats.sacrebleu_float32 import chrf_float32_score, chrf_scores_vectorised

    systems, refs, _ = wmt17
    stats = nlgmetrics.chrf(systems[BASELINE][:60], refs[:60], word_order=word_order).segment_stats
    order = 6 + word_order
    resample = Resample(bootstrap_indices(make_rng(5), 60, 300))
    rows32 = resample.sums_float32(stats)
    assert chrf_scores_vectorised(rows32, order, 2).tolist() == [chrf_float32_score(r, order, 2, False) for r in rows32]
    rows64 = resample.sums(stats)
    core = _core.SegmentScorer("chrf", {"char_order": 6, "word_order": word_order, "beta": 2.0, "whitespace": False,
                                        "eps_smoothing": False})
    assert chrf_scores_vectorised(rows64, order, 2).tolist() == [
        float(core.score_rows(np.ascontiguousarray(r[None, :]))[0]) for r in rows64.astype(np.int64)]
