"""Shared by the Spark, Ray and Dask tests: the metrics each engine scores, and the check that an engine's
corpus result is the single-process one on the same rows in the same order."""

import pytest

import nlgmetrics

#: (metric, options) scored by every engine: integer statistics (BLEU, chrF), float sums (TER), rows (ROUGE).
ENGINE_CASES = [("bleu", {}), ("chrf", {"word_order": 2}), ("ter", {}), ("rouge", {"variants": ["rouge1", "rougeL"]})]


def assert_single_process_result(got, metric, options, hypotheses, references):
    """``got`` equals ``nlgmetrics.metric(metric, **options)(hypotheses, references)``: bit for bit, except
    TER, whose average reference lengths are float sums that partition totals add in another order."""
    expected = nlgmetrics.metric(metric, **options)(hypotheses, references)
    if metric == "ter":
        assert got.score == pytest.approx(expected.score, rel=1e-12)
    else:
        assert got.score == expected.score
    assert str(got.signature) == str(expected.signature)
    if metric == "bleu":
        assert (got.counts, got.totals, got.sys_len, got.ref_len) == \
            (expected.counts, expected.totals, expected.sys_len, expected.ref_len)
