"""CharacTER against the ``cer`` package 1.2.0 (what HF evaluate's ``character`` calls), segment by segment.

Real MT outputs: WMT17 en→de and WMT22 zh→en systems, sampled evenly (every k-th system and segment) to keep
the pure-Python reference fast.
"""

from __future__ import annotations

import statistics

import pytest
from conftest import read_lines

import nlgmetrics

cer = pytest.importorskip("cer")


#: the contract tests' cases for this metric (tests/test_metric_interface.py reads this literal): (name, options,
#: data, corpus number independent of segment order)
CONTRACT_CASES = [("character", {}, "mt1", True)]


def _sample(shared_data, pair_dir, ref_name, pattern, every_system, every_segment):
    folder = shared_data / "mt" / pair_dir
    ref = read_lines(folder / ref_name)
    for path in sorted(folder.glob(pattern))[::every_system]:
        hyp = read_lines(path)
        keep = range(0, len(hyp), every_segment)
        yield [hyp[i] for i in keep], [ref[i] for i in keep]


def _hf_character(hyps, refs):
    """HF evaluate's `character._compute`: whitespace split, then cer.calculate_cer_corpus."""
    return cer.calculate_cer_corpus([h.split() for h in hyps], [r.split() for r in refs])


@pytest.mark.parametrize("pair_dir,ref_name,pattern", [
    ("wmt17_en_de_sacrebleu_testset", "newstest2017.en-de.ref.de", "newstest2017.*.hyp.de"),
    ("wmt22/zh-en", "generaltest2022.zh-en.ref.A.en", "generaltest2022.zh-en.hyp.*"),
])
def test_segments_and_aggregates_equal_cer_package(shared_data, pair_dir, ref_name, pattern):
    checked = 0
    for hyps, refs in _sample(shared_data, pair_dir, ref_name, pattern, 3, 11):
        expected = _hf_character(hyps, refs)
        result = nlgmetrics.character(hyps, refs)
        assert result.segment_scores.tolist() == expected["cer_scores"]
        assert result.score == expected["mean"]
        assert nlgmetrics.character(hyps, refs, aggregate="median").score == expected["median"]
        assert nlgmetrics.character(hyps, refs, aggregate="sum").score == sum(expected["cer_scores"])
        checked += len(hyps)
    assert checked > 500


def test_edge_cases_follow_the_reference():
    # labelled synthetic: empty hypothesis, identical after whitespace split, repeated words (shift ties)
    pairs = [("", "a b"), (" a  b ", "a b"), ("a a b b a", "b a a b a b"), ("x y z", "z y x"),
             ("der die das die der", "das der die der die")]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    assert nlgmetrics.character(hyps, refs).segment_scores.tolist() == _hf_character(hyps, refs)["cer_scores"]


def test_bad_input_is_refused_with_clear_errors():
    with pytest.raises(ValueError, match=r"references\[1\] has no words"):
        nlgmetrics.character(["a", "b"], ["a", "  "])
    with pytest.raises(ZeroDivisionError):  # what the reference does there
        cer.calculate_cer([], [])
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        nlgmetrics.character(["a", "b"], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 references"):
        nlgmetrics.character(["a"], [["a", "b"]])
    with pytest.raises(ValueError, match="unknown aggregate .max.; expected one of"):
        nlgmetrics.character(["a"], ["a"], aggregate="max")
    with pytest.raises(ValueError, match="no mean"):
        nlgmetrics.character([], [])
    assert nlgmetrics.character([], [], aggregate="sum").score == 0
    assert nlgmetrics.character(["a b"], ["a c"]).score == statistics.mean([cer.calculate_cer(["a", "b"], ["a", "c"])])


def test_exact_mean_is_statistics_mean_on_synthetic_floats():
    # synthetic: random floats in [0, 1] of many magnitudes, as CharacTER's segment scores are
    import random

    import numpy as np

    from nlgmetrics.metrics.character import exact_mean

    rng = random.Random(7)
    for _ in range(500):
        values = [rng.random() ** rng.choice([1, 3, 30]) if rng.random() < 0.8 else rng.choice([0.0, 1.0, 0.25])
                  for _ in range(rng.choice([1, 2, 5, 300, 2000]))]
        assert exact_mean(np.array(values)) == statistics.mean(values)
