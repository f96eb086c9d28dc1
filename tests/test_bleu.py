"""nlgmetrics.bleu / sentence_bleu: the seed examples, the result object, signatures, every error path."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics import BLEUResult, _core, bleu, sentence_bleu

sacrebleu = pytest.importorskip("sacrebleu")


# ---------------------------------------------------------------------------------------------
# Seed examples (issue 3)

def test_seed_weights_halving_per_order():
    result = sentence_bleu("The cat sat on the mat", ["The cat is on the mat"], tokenize="none", max_order=3,
                           weights=[0.5, 0.25, 0.125], smooth="none", effective_order=False)
    # Precisions 5/6 (The cat on the mat), 3/5 (The cat, on the, the mat), 1/4 (on the mat); BP = 1.
    assert result.counts == (5, 3, 1) and result.totals == (6, 5, 4) and result.bp == 1.0
    by_hand = math.exp(0.5 * math.log(5 / 6) + 0.25 * math.log(3 / 5) + 0.125 * math.log(1 / 4))
    assert result.score == 100 * (1.0 * by_hand)  # the weights are used as given: Σw = 0.875, no renormalising
    assert math.isclose(result.score / 100, 0.6756000774035172, rel_tol=2e-16)


def test_seed_floor_zero_smoothing():
    result = bleu(["the cat the cat is on the mat"], ["the cat sat on the mat"], smooth="floor", smooth_value=0)
    assert result.counts == (5, 3, 1, 0)
    assert result.totals == (8, 7, 6, 5)
    assert result.score == 0.0
    reference = sacrebleu.corpus_bleu(["the cat the cat is on the mat"], [["the cat sat on the mat"]],
                                      smooth_method="floor", smooth_value=0)
    assert (reference.counts, reference.totals, reference.score) == ([5, 3, 1, 0], [8, 7, 6, 5], 0.0)
    assert result.signature.get("smooth") == "floor[0.00]"


# ---------------------------------------------------------------------------------------------
# Behaviour

HYPS = ["the cat is sitting on the mat", "a dog ran in the park", "", "hello world again"]
REFS = [["the cat is on the mat", "there is a cat sitting on the mat"], "the dog ran in a park",
        ["something"], ["hello world", "hello there world again"]]


def test_corpus_matches_sacrebleu_with_variable_references():
    result = bleu(HYPS, REFS, tokenize="none")
    streams = [[refs[0] if isinstance(refs, list) else refs for refs in REFS],
               [refs[1] if isinstance(refs, list) and len(refs) > 1 else None for refs in REFS]]
    reference = sacrebleu.corpus_bleu(HYPS, streams, tokenize="none")
    assert result.score == reference.score
    assert list(result.counts) == reference.counts and list(result.totals) == reference.totals
    assert list(result.precisions) == reference.precisions and result.bp == reference.bp
    assert (result.sys_len, result.ref_len) == (reference.sys_len, reference.ref_len)
    assert result.signature.get("nrefs") == "var"


def test_segment_scores_are_sentence_scores():
    result = bleu(HYPS, REFS, tokenize="none", effective_order=True)
    for index, (hyp, refs) in enumerate(zip(HYPS, REFS)):
        single = sentence_bleu(hyp, refs, tokenize="none")
        assert single.score == result.segment_scores[index]
        assert np.array_equal(single.segment_stats[0], result.segment_stats[index])
    assert result.segment_stats.dtype == np.int64 and result.segment_stats.shape == (4, 10)
    assert result.segment_scores.dtype == np.float64 and result.segment_scores.shape == (4,)
    assert np.array_equal(result.segment_stats.sum(axis=0)[2:6], result.counts)


def test_sentence_bleu_defaults_to_effective_order_like_sacrebleu():
    ours = sentence_bleu("the cat", ["the cat"], tokenize="none")
    assert ours.score == sacrebleu.sentence_bleu("the cat", ["the cat"], tokenize="none").score
    assert ours.signature.get("eff") == "yes"
    assert bleu(["the cat"], ["the cat"], tokenize="none").signature.get("eff") == "no"


def test_identity_and_empty():
    assert bleu(["a b c d e"], ["a b c d e"]).score == sacrebleu.corpus_bleu(["a b c d e"], [["a b c d e"]]).score
    empty = bleu(["", "  "], ["", ""])
    assert empty.score == 0.0 and empty.sys_len == 0 and empty.ref_len == 0 and empty.ratio == 0.0
    nothing = bleu([], [])
    assert nothing.score == 0.0 and nothing.segment_stats.shape == (0, 10) and nothing.signature.get("nrefs") == "0"


def test_lowercase_and_max_order():
    result = bleu(["The CAT sat"], ["the cat SAT"], lowercase=True, tokenize="none", max_order=2)
    assert result.counts == (3, 2) and result.score == sacrebleu.metrics.BLEU(
        lowercase=True, tokenize="none", max_ngram_order=2).corpus_score(["The CAT sat"], [["the cat SAT"]]).score
    assert result.signature.get("case") == "lc" and result.signature.get("order") == "2"


def test_threads_give_the_same_numbers():
    hyps = [f"w{i % 7} the cat w{i % 3} sat" for i in range(500)]
    refs = [f"the w{i % 5} cat sat w{i % 3}" for i in range(500)]
    one = bleu(hyps, refs, threads=1, tokenize="none")
    two = bleu(hyps, refs, threads=2, tokenize="none")
    default = bleu(hyps, refs, tokenize="none")
    assert one.score == two.score == default.score
    assert np.array_equal(one.segment_scores, two.segment_scores)
    assert np.array_equal(one.segment_stats, default.segment_stats)


# ---------------------------------------------------------------------------------------------
# Result object and signature

def test_result_string_dict_json_and_immutability():
    result = bleu(["the cat is sitting on the mat"], [["the cat is on the mat"]], tokenize="none")
    reference = sacrebleu.corpus_bleu(["the cat is sitting on the mat"], [["the cat is on the mat"]], tokenize="none")
    assert str(result) == str(reference)
    assert result.format(width=4) == reference.format(width=4)
    assert result.format(score_only=True) == reference.format(score_only=True)
    assert result.format(signature=True).startswith("BLEU|preset:sacrebleu|nrefs:1|case:mixed|")
    record = result.to_dict()
    assert record["score"] == result.score and record["counts"] == list(result.counts)
    assert record["signature"] == str(result.signature)
    assert json.loads(result.to_json(segments=True))["segment_scores"] == [result.score]
    with pytest.raises(AttributeError):
        result.score = 1.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.segment_scores[0] = 1.0
    assert isinstance(result, BLEUResult) and result.name == "BLEU"


def test_signature_mirrors_sacrebleu_fields():
    result = bleu(["a b"], [["a b", "a c"]], tokenize="13a", smooth="add-k", lowercase=True, effective_order=True)
    metric = sacrebleu.metrics.BLEU(tokenize="13a", smooth_method="add-k", lowercase=True, effective_order=True)
    metric.corpus_score(["a b"], [["a b"], ["a c"]])
    expected = str(metric.get_signature()).rsplit("|version:", 1)[0]
    assert str(result.signature) == f"BLEU|preset:sacrebleu|{expected}|version:nlgmetrics-{nlgmetrics.__version__}"
    weighted = bleu(["a b"], ["a b"], weights=[0.5, 0.5, 0, 0])
    assert weighted.signature.get("weights") == "0.5,0.5,0.0,0.0"


# ---------------------------------------------------------------------------------------------
# Errors

@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"tokenize": "moses"}, ValueError, "unknown tokenizer 'moses'"),
        ({"tokenize": "spm"}, ValueError, "not supported"),
        ({"tokenize": 13}, TypeError, "tokenize must be str"),
        ({"smooth": "laplace"}, ValueError, "unknown smoothing method 'laplace'"),
        ({"smooth": None, "smooth_value": 0.1}, ValueError, "applies to 'floor' and 'add-k' only"),
        ({"smooth": 1}, TypeError, "smooth must be str"),
        ({"smooth": "floor", "smooth_value": -0.1}, ValueError, "smooth_value must be a finite number >= 0"),
        ({"smooth": "add-k", "smooth_value": float("nan")}, ValueError, "smooth_value must be a finite"),
        ({"smooth": "floor", "smooth_value": "0.1"}, TypeError, "smooth_value must be a number"),
        ({"max_order": 0}, ValueError, "max_order must be between 1 and 100"),
        ({"max_order": 101}, ValueError, "max_order must be between 1 and 100"),
        ({"max_order": 2.0}, TypeError, "max_order must be an int"),
        ({"max_order": True}, TypeError, "max_order must be an int"),
        ({"weights": [0.5, 0.5]}, ValueError, "weights has 2 entries but max_order is 4"),
        ({"weights": [0.5, -0.5, 0, 0]}, ValueError, r"weights\[1\] must be a finite number >= 0"),
        ({"weights": [0.5, "a", 0, 0]}, TypeError, r"weights\[1\] must be a number"),
        ({"weights": "0.25"}, TypeError, "weights must be a sequence"),
        ({"lowercase": "yes"}, TypeError, "lowercase must be a bool"),
        ({"effective_order": 1}, TypeError, "effective_order must be a bool"),
        ({"threads": 0}, ValueError, "threads must be between 1 and 1024"),
        ({"threads": 1.5}, TypeError, "threads must be an int"),
        ({"preset": "moses"}, ValueError, "unknown preset 'moses'"),
        ({"preset": None}, TypeError, "preset must be str"),
        ({"auto_reweigh": True}, TypeError, "unexpected keyword argument"),
    ],
)
def test_bad_options(options, error, message):
    with pytest.raises(error, match=message):
        bleu(["a b"], ["a b"], **options)
    with pytest.raises(error, match=message):
        sentence_bleu("a b", ["a b"], **options)


def test_bad_inputs():
    with pytest.raises(TypeError, match="hypotheses must be a sequence"):
        bleu("a b", ["a b"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str"):
        bleu(["a", None], ["a", "b"])
    with pytest.raises(ValueError, match="1 entries but there are 2 hypotheses"):
        bleu(["a", "b"], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        bleu(["a"], [[]])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be str"):
        bleu(["a"], [["a", 3]])
    with pytest.raises(TypeError, match="hypothesis must be str"):
        sentence_bleu(["a"], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        sentence_bleu("a", [])
    with pytest.raises(TypeError, match="must be str"):
        sentence_bleu("a", [None])


def test_lone_surrogates_are_refused_with_their_location():
    with pytest.raises(ValueError, match=r"hypotheses\[1\] contains a lone surrogate"):
        bleu(["a", "b\udcff"], ["a", "b"])
    with pytest.raises(ValueError, match=r"references\[0\]\[1\] contains a lone surrogate"):
        bleu(["a"], [["a", "\ud800"]])


def test_mecab_tokenizers_go_through_python_pretokenization():
    """ja-mecab / ko-mecab: MeCab in Python (nlgmetrics.tokenizers.pretokenize), then the Rust core."""
    lines = ["猫が座っています。", "今日は良い天気です", "", "고양이가 매트 위에 앉았다", "A Cat sat.  "]
    refs = ["猫が座った。", "今日は天気が良い", "何か", "고양이가 앉았다", "a cat sat ."]
    for name in ("ja-mecab", "ko-mecab"):
        try:
            from sacrebleu.metrics.bleu import _get_tokenizer

            signature = _get_tokenizer(name)().signature()
        except (ImportError, RuntimeError) as error:
            pytest.skip(f"MeCab for {name} is not installed: {error}")
        for lowercase in (False, True):
            ours = bleu(lines, refs, tokenize=name, lowercase=lowercase)
            theirs = sacrebleu.corpus_bleu(lines, [refs], tokenize=name, lowercase=lowercase)
            assert (ours.score, list(ours.counts), list(ours.totals)) == (theirs.score, theirs.counts, theirs.totals)
            assert ours.signature.get("tok") == signature


def _neumaier_sum(values):
    """CPython 3.12's compensated ``sum()`` of floats (``builtin_sum_impl``)."""
    total = compensation = 0.0
    for value in values:
        following = total + value
        compensation += (total - following) + value if abs(total) >= abs(value) else (value - following) + total
        total = following
    return total + compensation if compensation and math.isfinite(compensation) else total


def _sequential_sum(values):
    """CPython 3.11's ``sum()`` of floats: one by one."""
    total = 0.0
    for value in values:
        total += value
    return total


def test_log_sum_follows_this_interpreters_sum():
    """sacreBLEU adds log precisions with sum(), Neumaier-compensated from CPython 3.12 on; the core asks the
    interpreter which, so on rows where the two sums give different scores, its score is sacreBLEU's here."""
    totals = [31, 29, 23, 19]

    def score(correct, add):
        return math.exp(add([math.log(100.0 * c / t) for c, t in zip(correct, totals)]) / 4)  # sacreBLEU, bp = 1

    rows = [(a, b, c, d) for a in range(1, 32) for b in range(1, 30) for c in (1, 2, 5) for d in (1, 3)]
    differing = [row for row in rows if score(row, _neumaier_sum) != score(row, _sequential_sum)]
    assert len(differing) >= 10, "no row tells the two sums apart"
    options = {"max_order": 4, "smooth": "none", "smooth_value": None, "effective_order": False, "weights": None}
    for correct in differing:
        theirs = sacrebleu.BLEU.compute_bleu(list(correct), totals, 40, 40).score
        assert _core.bleu_score_from_stats([40, 40, *correct, *totals], options)[0] == theirs, correct
