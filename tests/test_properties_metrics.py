"""Property tests (hypothesis; synthetic text) over every metric: determinism, the range of every score, identity
(a text against itself scores perfectly where the metric says so), symmetry and reference-order invariance where
the metric has them. BLEU and chrF parity/identity/bounds live in test_bleu_properties.py and
test_chrf_properties.py; this file adds what those do not cover.
"""

from __future__ import annotations

import math
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import _core

PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "runs", "running", "ran", "big", "large", "Straße", "猫",
         "日本", ",", ".", "'s", "1,000", "İ", "café", "e\u0301"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u3000", "\x1c"]


@st.composite
def sentence(draw, min_words=0, max_words=12):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=min_words, max_size=max_words))
    out = ""
    for word in words:
        out += word + draw(st.sampled_from(SEPARATORS))
    return out.rstrip(" ")


line = st.one_of(sentence(), st.text(max_size=20))
words_line = sentence(min_words=4)
refs = st.lists(line, min_size=2, max_size=4)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def meteor_score(hyp, references, **kwargs):
    # Exact, stem and synonym modules: the paraphrase table is optional (a warning when missing).
    return quiet(nlgmetrics.meteor, [hyp], [references], modules=["exact", "stem", "synonym"], **kwargs).score


def rouge_f(hyp, references, variant, **kwargs):
    return nlgmetrics.rouge([hyp], [references], variants=[variant], **kwargs)[variant].fmeasure


def rouge_prf(hyp, references, variants=("rouge1", "rouge2", "rougeL", "rougeLsum")):
    result = nlgmetrics.rouge([hyp], [references], variants=list(variants))
    return [x for v in variants for x in (result[v].precision, result[v].recall, result[v].fmeasure)]


# Determinism and range -------------------------------------------------------------------------------------------

@PROPERTY
@given(hyp=line, references=refs)
def test_every_score_is_deterministic_and_in_range(hyp, references):
    scores = {
        "chrf": (lambda: nlgmetrics.sentence_chrf(hyp, references, word_order=2).score, 0.0, 100.0),
        "ter": (lambda: nlgmetrics.sentence_ter(hyp, references).score, 0.0, math.inf),
        "rouge": (lambda: rouge_prf(hyp, references), 0.0, 1.0),
        "rouge155": (lambda: rouge_f(hyp, references, "rougeL", preset="rouge155"), 0.0, 1.0),
        "meteor": (lambda: meteor_score(hyp, references), 0.0, 1.0),
        "cider": (lambda: nlgmetrics.cider([hyp], [references]).score, 0.0, 10.0),
        "em": (lambda: nlgmetrics.exact_match(hyp, references), 0.0, 1.0),
        "f1": (lambda: nlgmetrics.token_f1(hyp, references), 0.0, 1.0),
    }
    for name, (score, low, high) in scores.items():
        first, again = score(), score()
        assert first == again, name
        for value in first if isinstance(first, list) else [first]:
            assert low <= value <= high, (name, value)


# Identity --------------------------------------------------------------------------------------------------------

@PROPERTY
@given(text=words_line, other=line)
def test_a_text_against_itself_scores_perfectly(text, other):
    assert nlgmetrics.sentence_ter(text, [other, text]).score == 0.0
    n_tokens = len(_core.rouge_tokenize([text], {"tokenizer": "unicode", "stemmer": False})[0])
    for variant, needs in [("rouge1", 1), ("rouge2", 2), ("rougeL", 1), ("rougeLsum", 1)]:
        assert rouge_f(text, [text], variant) == (1.0 if n_tokens >= needs else 0.0), variant
    if re.search("[a-zA-Z0-9]", text):  # ROUGE-1.5.5 keeps only ASCII letters and digits
        assert rouge_f(text, [text], "rougeL", preset="rouge155") == 1.0
    assert nlgmetrics.exact_match(text, [other, text]) == 1.0
    if nlgmetrics.normalize_answer(text):  # SQuAD's F1 of two empty answers is 0 (articles, punctuation dropped)
        assert nlgmetrics.token_f1(text, [text]) == 1.0
    # METEOR 1.5: a perfect match has no fragmentation penalty (MeteorScorer.computeMetrics).
    assert meteor_score(text, [text]) == pytest.approx(1.0, abs=1e-12)
    # Textbook METEOR keeps its penalty: Fmean = 1, Pen = γ (1/m)^β for one chunk of m matches.
    matches = len([token for token in re.split(r"[ \t\n\r\f]", text.lower()) if token])  # Java StringTokenizer
    textbook = meteor_score(text, [text], preset="textbook", norm=False, lower=True)
    assert textbook == pytest.approx(1.0 - 0.5 * (1.0 / matches) ** 3, rel=1e-12)


# Symmetry --------------------------------------------------------------------------------------------------------

@PROPERTY
@given(a=line, b=line)
def test_symmetric_metrics(a, b):
    for variant in ["rouge1", "rouge2", "rougeL"]:
        assert rouge_f(a, [b], variant) == rouge_f(b, [a], variant), variant
    assert nlgmetrics.sentence_chrf(a, b, beta=1).score == pytest.approx(
        nlgmetrics.sentence_chrf(b, a, beta=1).score, abs=1e-9)
    assert nlgmetrics.sentence_chrf(a, b, beta=1, word_order=2).score == pytest.approx(
        nlgmetrics.sentence_chrf(b, a, beta=1, word_order=2).score, abs=1e-9)
    assert nlgmetrics.token_f1(a, [b]) == nlgmetrics.token_f1(b, [a])
    assert nlgmetrics.exact_match(a, [b]) == nlgmetrics.exact_match(b, [a])


# Reference-order invariance (metrics that take the best reference or pool references) -----------------------------

@PROPERTY
@given(hyp=line, references=refs, data=st.data())
def test_reference_order_does_not_matter(hyp, references, data):
    shuffled = data.draw(st.permutations(references))
    assert nlgmetrics.sentence_bleu(hyp, references).score == nlgmetrics.sentence_bleu(hyp, shuffled).score
    assert nlgmetrics.sentence_chrf(hyp, references).score == nlgmetrics.sentence_chrf(hyp, shuffled).score
    assert nlgmetrics.sentence_ter(hyp, references).score == nlgmetrics.sentence_ter(hyp, shuffled).score
    for variant in ["rouge1", "rougeL", "rougeLsum"]:
        assert rouge_f(hyp, references, variant) == rouge_f(hyp, shuffled, variant), variant
    assert meteor_score(hyp, references) == meteor_score(hyp, shuffled)
    assert nlgmetrics.token_f1(hyp, references) == nlgmetrics.token_f1(hyp, shuffled)
    assert nlgmetrics.exact_match(hyp, references) == nlgmetrics.exact_match(hyp, shuffled)
    # CIDEr-D averages over references: the same up to the float summation order.
    assert nlgmetrics.cider([hyp, "a cat"], [references, ["the cat"]]).score == pytest.approx(
        nlgmetrics.cider([hyp, "a cat"], [shuffled, ["the cat"]]).score, rel=1e-12, abs=1e-12)


# Batch = one at a time --------------------------------------------------------------------------------------------

@PROPERTY
@given(rows=st.lists(st.tuples(line, refs), min_size=1, max_size=5))
def test_segment_scores_do_not_depend_on_the_batch(rows):
    hyps = [hyp for hyp, _ in rows]
    references = [tuple(r) for _, r in rows]  # tuples: per-hypothesis references, never sacreBLEU streams
    batch_meteor = quiet(nlgmetrics.meteor, hyps, references, modules=["exact", "stem", "synonym"]).segment_scores
    for k, (hyp, r) in enumerate(rows):
        assert batch_meteor[k] == meteor_score(hyp, r)
    batch_ter = nlgmetrics.ter(hyps, references).segment_scores
    for k, (hyp, r) in enumerate(rows):
        assert batch_ter[k] == nlgmetrics.sentence_ter(hyp, r).score
