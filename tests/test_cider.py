"""CIDEr(-D) and coco ROUGE-L: property parity with pycocoevalcap on generated corpora, the original
CIDEr variant by hand, error paths."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics.compat.pycocoevalcap import Cider as OurCider
from nlgmetrics.compat.pycocoevalcap import Rouge as OurRouge

pytest.importorskip("pycocoevalcap")
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

WORDS = st.sampled_from(["a", "dog", "cat", "runs", "the", "red", "ball", "on", "grass", "x"])
CAPTION = st.lists(WORDS, max_size=12).map(" ".join)
# Captions as pycocoevalcap may receive them untokenized: double spaces, leading/trailing spaces.
RAW_CAPTION = st.lists(st.sampled_from(["a", "dog", "cat", " ", "", "runs", "the"]), max_size=10).map(" ".join)


@st.composite
def corpora(draw, caption=CAPTION):
    n_images = draw(st.integers(1, 6))
    gts, res = {}, {}
    for image in range(n_images):
        gts[image] = draw(st.lists(caption, min_size=1, max_size=5))
        res[image] = [draw(caption)]
    return gts, res


@settings(max_examples=150, deadline=None)
@given(corpora())
def test_cider_matches_pycocoevalcap_on_generated_corpora(corpus):
    gts, res = corpus
    # pycocoevalcap raises (max() of an empty sequence) when no reference has a word; we score 0.
    assume(any(ref.split() for refs in gts.values() for ref in refs))
    expected, expected_images = Cider().compute_score(gts, res)
    ours, ours_images = OurCider().compute_score(gts, res)
    assert np.array_equal(ours_images, expected_images)
    assert ours == expected


@settings(max_examples=150, deadline=None)
@given(corpora(RAW_CAPTION))
def test_rouge_matches_pycocoevalcap_on_generated_corpora(corpus):
    gts, res = corpus
    expected, expected_images = Rouge().compute_score(gts, res)
    ours, ours_images = OurRouge().compute_score(gts, res)
    assert np.array_equal(ours_images, expected_images)


@settings(max_examples=60, deadline=None)
@given(corpora(), st.floats(0.5, 20))
def test_cider_sigma_matches_pycocoevalcap(corpus, sigma):
    # Only n=4 works in pycocoevalcap (its n-gram counting ignores n and then indexes out of range);
    # our n<4 counts orders 1..n.
    gts, res = corpus
    assume(any(ref.split() for refs in gts.values() for ref in refs))
    expected = Cider(sigma=sigma).compute_score(gts, res)[1]
    assert np.array_equal(OurCider(sigma=sigma).compute_score(gts, res)[1], expected)


def test_original_cider_drops_clipping_and_penalty():
    # Image 0: hyp "a a" vs ref "a b"; image 1 ("c") only makes idf(a) = idf(b) = ln 2.
    # Order 1: hyp (a: 2·ln2), ref (a: ln2, b: ln2). Clipped dot = ln2·ln2, plain dot = 2·ln2·ln2;
    # norms 2·ln2 and √2·ln2. Order 2: "a a" vs "a b" = 0. Bigram counts equal → penalty 1.
    hyps, refs = ["a a", "c"], [["a b"], ["c"]]
    d = nlgmetrics.cider(hyps, refs, tokenize=False)
    original = nlgmetrics.cider(hyps, refs, tokenize=False, variant="cider")
    assert d.image_scores[0] == pytest.approx(10 * (1 / (2 * math.sqrt(2))) / 4, rel=1e-15)
    assert original.image_scores[0] == pytest.approx(10 * (1 / math.sqrt(2)) / 4, rel=1e-15)
    # Length penalty: "a b c d" vs "a b": bigram counts 3 vs 1 → exp(-4/72) on every order.
    d = nlgmetrics.cider(["a b c d", "z"], [["a b"], ["z"]], tokenize=False)
    original = nlgmetrics.cider(["a b c d", "z"], [["a b"], ["z"]], tokenize=False, variant="cider")
    assert d.image_scores[0] == pytest.approx(original.image_scores[0] * math.exp(-4 / 72), rel=1e-14)
    assert "variant:cider" in str(original.signature)


def test_references_without_words_score_zero():
    # pycocoevalcap raises ValueError here (documented deviation): every image scores 0.
    assert OurCider().compute_score({1: [""]}, {1: ["a"]})[1].tolist() == [0.0]


def test_errors():
    with pytest.raises(ValueError, match="same image ids"):
        OurCider().compute_score({1: ["a"]}, {2: ["a"]})
    with pytest.raises(ValueError, match="exactly one caption"):
        OurCider().compute_score({1: ["a"]}, {1: ["a", "b"]})
    with pytest.raises(ValueError, match="non-empty list"):
        OurRouge().compute_score({1: []}, {1: ["a"]})
    with pytest.raises(TypeError, match=r"res\[1\]\[0\] must be a str"):
        OurRouge().compute_score({1: ["a"]}, {1: [3]})
    with pytest.raises(ValueError, match="n must be"):
        OurCider(n=5)
    with pytest.raises(ValueError, match="sigma"):
        OurCider(sigma=0).compute_score({1: ["a"]}, {1: ["a"]})
    with pytest.raises(ValueError, match="variant"):
        nlgmetrics.cider(["a"], [["a"]], variant="x")
    with pytest.raises(ValueError, match="hypotheses is empty"):
        nlgmetrics.cider([], [])
    with pytest.raises(ValueError, match="unknown caption metric"):
        nlgmetrics.caption_scores({1: ["a"]}, {1: ["a"]}, metrics=["SPICE"])
    with pytest.raises(TypeError, match="gts and res must be dicts"):
        nlgmetrics.caption_scores([["a"]], [["a"]])
    with pytest.raises(ValueError, match="empty"):
        nlgmetrics.caption_scores({}, {})


def test_caption_scores_result():
    result = nlgmetrics.caption_scores({1: ["A dog runs.", "A dog is running."]}, {1: [{"caption": "A dog runs!"}]},
                                       metrics=["ROUGE_L", "CIDEr"])
    assert list(result.scores) == ["ROUGE_L", "CIDEr"]
    assert result["ROUGE_L"] == 1.0
    assert result.image_ids == (1,)
    assert "tok:ptb-3.4.1" in str(result.signature)


def test_odd_captions_are_valid():
    odd = ["", "   ", "\x00\x1f", "word " * 5000, "🙂🙂", "a\nb"]
    result = nlgmetrics.caption_scores({i: [c, "a b"] for i, c in enumerate(odd)}, {i: [c] for i, c in enumerate(odd)},
                                       metrics=["ROUGE_L", "CIDEr"])
    assert np.all(np.isfinite(result.image_scores["CIDEr"]))
    assert len(result.image_scores["ROUGE_L"]) == len(odd)
