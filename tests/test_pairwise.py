"""chrf_pairwise / bleu_pairwise against loops of sacreBLEU sentence scores on a real MBR set:
the outputs of every WMT22 zh-en system for 20 segments, each scored against every other."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from test_chrf_parity import wmt22

import nlgmetrics


@pytest.fixture(scope="module")
def mbr_sets(shared_data):
    _, _, systems = wmt22(shared_data, "zh-en")
    outputs = list(systems.values())
    n = len(outputs[0])
    return [[output[index] for output in outputs] for index in range(0, n, n // 20)][:20]


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_pairwise_equals_sentence_chrf(mbr_sets, word_order):
    for candidates in mbr_sets:
        matrix = nlgmetrics.chrf_pairwise(candidates, word_order=word_order)
        assert matrix.shape == (len(candidates), len(candidates)) and matrix.dtype == np.float64
        expected = [[sacrebleu.sentence_chrf(hyp, [ref], word_order=word_order).score for ref in candidates]
                    for hyp in candidates]
        assert matrix.tolist() == expected


def test_bleu_pairwise_equals_sentence_bleu(mbr_sets):
    for candidates in mbr_sets:
        matrix = nlgmetrics.bleu_pairwise(candidates)
        expected = [[sacrebleu.sentence_bleu(hyp, [ref]).score for ref in candidates] for hyp in candidates]
        assert matrix.tolist() == expected


def test_rectangular_and_options(mbr_sets):
    candidates, pseudo_refs = mbr_sets[3][:5], mbr_sets[3][5:] + ["", "   "]
    matrix = nlgmetrics.chrf_pairwise(candidates, pseudo_refs, lowercase=True, eps_smoothing=True, beta=1)
    assert matrix.shape == (5, len(pseudo_refs))
    metric = sacrebleu.metrics.CHRF(lowercase=True, eps_smoothing=True, beta=1)
    assert matrix.tolist() == [[metric.sentence_score(c, [r]).score for r in pseudo_refs] for c in candidates]
    bleu = nlgmetrics.bleu_pairwise(candidates, pseudo_refs, tokenize="intl", lowercase=True, smooth="floor",
                                    effective_order=False)
    metric = sacrebleu.metrics.BLEU(tokenize="intl", lowercase=True, smooth_method="floor")
    assert bleu.tolist() == [[metric.sentence_score(c, [r]).score for r in pseudo_refs] for c in candidates]


def test_empty_inputs():
    assert nlgmetrics.chrf_pairwise([]).shape == (0, 0)
    assert nlgmetrics.chrf_pairwise(["a"], []).shape == (1, 0)
    assert nlgmetrics.bleu_pairwise([], ["a"]).shape == (0, 1)
    assert nlgmetrics.chrf_pairwise(["", " "]).tolist() == [[sacrebleu.sentence_chrf(h, [r]).score for r in ["", " "]]
                                                             for h in ["", " "]]


@pytest.mark.parametrize("call, error", [
    (lambda: nlgmetrics.chrf_pairwise("abc"), TypeError),
    (lambda: nlgmetrics.chrf_pairwise(["a", 3]), TypeError),
    (lambda: nlgmetrics.chrf_pairwise(["a"], "b"), TypeError),
    (lambda: nlgmetrics.chrf_pairwise(["a"], [None]), TypeError),
    (lambda: nlgmetrics.chrf_pairwise(["a"], char_order=-1), ValueError),
    (lambda: nlgmetrics.chrf_pairwise(["a"], char_order=0, word_order=0), ValueError),
    (lambda: nlgmetrics.chrf_pairwise(["a"], beta=0), ValueError),
    (lambda: nlgmetrics.bleu_pairwise(["a"], tokenize="nope"), ValueError),
    (lambda: nlgmetrics.bleu_pairwise(["a"], max_order=0), ValueError),
    (lambda: nlgmetrics.bleu_pairwise(["a"], smooth="magic"), ValueError),
    (lambda: nlgmetrics.bleu_pairwise(["a"], lowercase="yes"), TypeError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_lone_surrogates_are_located():
    with pytest.raises(ValueError, match=r"candidates\[1\]"):
        nlgmetrics.chrf_pairwise(["a", "\ud800"])
    with pytest.raises(ValueError, match=r"references\[1\]"):
        nlgmetrics.bleu_pairwise(["a"], ["b", "\udfff"])


def test_threads_option(mbr_sets):
    candidates = mbr_sets[0]
    assert nlgmetrics.chrf_pairwise(candidates, threads=1).tolist() == nlgmetrics.chrf_pairwise(candidates).tolist()
    assert nlgmetrics.bleu_pairwise(candidates, threads=2).tolist() == nlgmetrics.bleu_pairwise(candidates).tolist()
    hyps, refs = candidates, candidates[::-1]
    assert nlgmetrics.chrf(hyps, refs, threads=1).stats.tolist() == nlgmetrics.chrf(hyps, refs).stats.tolist()
    assert nlgmetrics.ter(hyps, refs, threads=1).score == nlgmetrics.ter(hyps, refs).score
    for call in (lambda: nlgmetrics.chrf(hyps, refs, threads=0), lambda: nlgmetrics.ter(hyps, refs, threads=-1),
                 lambda: nlgmetrics.chrf_pairwise(hyps, threads=0)):
        with pytest.raises(ValueError, match="threads"):
            call()
    with pytest.raises(TypeError, match="threads"):
        nlgmetrics.bleu_pairwise(hyps, threads="2")
