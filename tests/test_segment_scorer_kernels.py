"""The kernels moved onto ``_core.SegmentScorer`` after the first six (GLEU, RIBES, NLTK chrF, exact match / F1,
ROUGE's rouge_score preset): their option errors, their second input path (token lists and ids) and the
no-reference rule, through the scorer itself. Their numbers are checked against the reference libraries in
their own parity tests (test_nltk_mt.py, test_qa.py, test_squad.py, test_rouge*.py, test_library_suites.py)."""

import numpy as np
import pytest

from nlgmetrics import _core

GLEU = {"tokenize": "none", "min_len": 1, "max_len": 4}
RIBES = {"tokenize": "none", "alpha": 0.25, "beta": 0.10, "max_alignment_len": 2000}
HYPS = ["the cat sat on the mat", "it is raining now"]
REFS = [["the cat ate the mat", "a cat sat on a mat"], ["it rains"]]


def split(texts):
    return [text.split() for text in texts]


@pytest.mark.parametrize("name, options", [("gleu", GLEU), ("ribes", RIBES)])
def test_token_lists_and_ids_give_the_rows_of_text(name, options):
    on_text = _core.SegmentScorer(name, options).segment_stats(HYPS, REFS)
    on_tokens = _core.SegmentScorer(name, {**options, "tokenize": "tokens"}).segment_stats(
        split(HYPS), [split(refs) for refs in REFS])
    vocabulary = {word: index for index, word in enumerate(sorted(set(" ".join(HYPS + sum(REFS, [])).split())))}
    ids = [[vocabulary[word] for word in text.split()] for text in HYPS]
    ref_ids = [[[vocabulary[word] for word in text.split()] for text in refs] for refs in REFS]
    on_ids = _core.SegmentScorer(name, {**options, "tokenize": "ids"}).segment_stats(ids, ref_ids, 1)
    for stats, scores in (on_tokens, on_ids):
        assert stats.tolist() == on_text[0].tolist()
        assert scores.tolist() == on_text[1].tolist()


def test_token_input_refuses_text_and_non_str_tokens():
    on_tokens = _core.SegmentScorer("gleu", {**GLEU, "tokenize": "tokens"})
    with pytest.raises(TypeError, match="expected a sequence of tokens, got a str"):
        on_tokens.segment_stats(HYPS, REFS)
    with pytest.raises(TypeError, match="must be str"):
        on_tokens.segment_stats([[1, 2]], [[[1]]])
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        on_tokens.segment_stats(split(HYPS), [split(REFS[0])])


def test_no_reference_needs_the_option():
    for name, options in (("gleu", GLEU), ("ribes", RIBES)):
        with pytest.raises(ValueError, match=r"references\[1\] is empty"):
            _core.SegmentScorer(name, options).segment_stats(HYPS, [REFS[0], []])
        stats, scores = _core.SegmentScorer(name, {**options, "allow_no_reference": True}).segment_stats(
            HYPS, [REFS[0], []])
        assert scores[1] == 0.0
    with pytest.raises(TypeError):
        _core.SegmentScorer("gleu", {**GLEU, "allow_no_reference": "yes"})


def test_squad_v2_alone_takes_unanswerable_questions():
    options = {"normalizer": "squad", "language": None, "measure": "f1"}
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        _core.SegmentScorer("squad", options).segment_stats([""], [[]])
    stats, scores = _core.SegmentScorer("squad", {**options, "normalizer": "squad_v2"}).segment_stats(
        ["", "x"], [[], []])
    assert stats.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
    exact = _core.SegmentScorer("squad", {**options, "measure": "exact_match"})
    assert exact.score_rows(np.array([[1.0, 0.5, 4.0]])).tolist() == [0.25]
    with pytest.raises(ValueError, match="measure must be 'f1' or 'exact_match'"):
        _core.SegmentScorer("squad", {**options, "measure": "bleu"})
    with pytest.raises(ValueError, match="needs a language"):
        _core.SegmentScorer("squad", {**options, "normalizer": "mlqa"})


def test_nltk_chrf_takes_one_reference_and_valid_orders():
    options = {"min_len": 1, "max_len": 6, "beta": 3.0, "ignore_whitespace": True}
    scorer = _core.SegmentScorer("chrf_nltk", options)
    assert scorer.width == 7
    with pytest.raises(ValueError, match="chrf_nltk takes exactly one reference"):
        scorer.segment_stats(["a b"], [["a", "b"]])
    with pytest.raises(ValueError, match="need 1 <= min_len <= max_len"):
        _core.SegmentScorer("chrf_nltk", {**options, "min_len": 0})


def test_rouge_rows_and_option_errors():
    options = {"variants": ["rouge1", "rougeL"], "tokenizer": "rouge_score", "stemmer": False}
    scorer = _core.SegmentScorer("rouge", options)
    stats, scores = scorer.segment_stats(["the cat sat", "a dog"], [["the cat"], ["a cat"]])
    assert stats.shape == (2, 13)
    assert stats[:, :3].tolist() == [[2.0, 3.0, 2.0], [1.0, 2.0, 2.0]]
    assert scores.tolist() == stats[:, 8].tolist()  # the first variant's F
    assert scorer.score_rows(stats.sum(axis=0, keepdims=True)).tolist() == [(stats[0, 8] + stats[1, 8]) / 2]
    with pytest.raises(ValueError, match="invalid ROUGE variant"):
        _core.SegmentScorer("rouge", {**options, "variants": ["rougeX"]})
    with pytest.raises(ValueError, match="unknown ROUGE tokenizer"):
        _core.SegmentScorer("rouge", {**options, "tokenizer": "nope"})


def test_option_errors_of_the_word_metrics():
    with pytest.raises(ValueError, match="unknown tokenizer"):
        _core.SegmentScorer("gleu", {**GLEU, "tokenize": "nope"})
    with pytest.raises(ValueError, match="max_len must be at most 100"):
        _core.SegmentScorer("gleu", {**GLEU, "max_len": 101})
    with pytest.raises(KeyError):
        _core.SegmentScorer("ribes", {"tokenize": "none"})
    long = " ".join(["w"] * 2001)
    with pytest.raises(ValueError, match="segment 1: reference 0 or the hypothesis has more than 2000 tokens"):
        _core.SegmentScorer("ribes", RIBES).segment_stats(["a", long], [["a"], ["a"]])
