"""chrF/chrF++ vs sacreBLEU on random text (any Unicode, Python-only whitespace, punctuation,
empty lines), and every error path of the native and compat APIs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF

import nlgmetrics
from nlgmetrics.compat import sacrebleu as compat

PIECES = ["a", "b", "ab", "the", "cat", "Ünïcode", "İ", "Σσς", "ß", "猫", "が", "🙂", "e\u0301", "(", ")", ".", ",",
          "!", "'", "-", '"', " ", "  ", "\t", "\n", "\x0b", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000",
          "\u200b", "\x00"]
text = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=25).map("".join),
    st.text(max_size=40),
)
options = st.fixed_dictionaries({
    "char_order": st.integers(0, 7),
    "word_order": st.integers(0, 3),
    "beta": st.sampled_from([1, 2, 3, 0.5]),
    "lowercase": st.booleans(),
    "whitespace": st.booleans(),
    "eps_smoothing": st.booleans(),
}).filter(lambda o: o["char_order"] + o["word_order"] > 0)


@settings(max_examples=250, deadline=None)
@given(hyp=text, refs=st.lists(text, min_size=1, max_size=3), opts=options)
def test_sentence_matches_sacrebleu(hyp, refs, opts):
    expected = CHRF(**opts).sentence_score(hyp, refs).score
    assert nlgmetrics.sentence_chrf(hyp, refs, **opts).score == expected


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(text, text, text), min_size=1, max_size=6), opts=options)
def test_corpus_matches_sacrebleu(rows, opts):
    hyps = [row[0] for row in rows]
    streams = [[row[1] for row in rows], [row[2] for row in rows]]
    metric = CHRF(**opts)
    expected_stats = metric._extract_corpus_statistics(hyps, streams)
    # Tuples: per-hypothesis references (a square list of lists would read both ways, issue 13).
    result = nlgmetrics.chrf(hyps, [(row[1], row[2]) for row in rows], **opts)
    assert result.stats.tolist() == expected_stats
    assert result.score == metric.corpus_score(hyps, streams).score
    assert compat.CHRF(**opts).corpus_score(hyps, streams).score == result.score


@settings(max_examples=60, deadline=None)
@given(hyp=text, ref=text)
def test_bounds_and_identity(hyp, ref):
    score = nlgmetrics.sentence_chrf(hyp, ref, word_order=2).score
    assert 0.0 <= score <= 100.0 and not math.isnan(score)
    if "".join(hyp.split()):
        assert nlgmetrics.sentence_chrf(hyp, hyp).score == 100.0


def test_huge_line():
    line = "word, " * 20000
    assert nlgmetrics.sentence_chrf(line, line[:-7], word_order=2).score == \
        CHRF(word_order=2).sentence_score(line, [line[:-7]]).score


@pytest.mark.parametrize("kwargs, error, fragment", [
    (dict(char_order=-1), ValueError, "char_order"),
    (dict(char_order=2.5), TypeError, "char_order"),
    (dict(char_order=True), TypeError, "char_order"),
    (dict(word_order="2"), TypeError, "word_order"),
    (dict(char_order=0, word_order=0), ValueError, "at least 1"),
    (dict(beta=0), ValueError, "beta"),
    (dict(beta=-2), ValueError, "beta"),
    (dict(beta=float("nan")), ValueError, "beta"),
    (dict(beta=float("inf")), ValueError, "beta"),
    (dict(beta="2"), TypeError, "beta"),
])
def test_bad_options(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        nlgmetrics.chrf(["a"], ["a"], **kwargs)
    with pytest.raises(error, match=fragment):
        compat.CHRF(**kwargs)


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: nlgmetrics.chrf(["a", "b"], ["a"]), ValueError, "1 entries but there are 2"),
    (lambda: nlgmetrics.chrf("ab", ["a"]), TypeError, "hypotheses"),
    (lambda: nlgmetrics.chrf([b"a"], ["a"]), TypeError, r"hypotheses\[0\]"),
    (lambda: nlgmetrics.chrf(["a"], [[]]), ValueError, r"references\[0\] is empty"),
    (lambda: nlgmetrics.chrf(["a"], [["a", 1]]), TypeError, r"references\[0\]\[1\]"),
    (lambda: nlgmetrics.chrf(["a"], "a"), TypeError, "references"),
    (lambda: nlgmetrics.sentence_chrf(None, "a"), TypeError, "hypothesis"),
    (lambda: nlgmetrics.sentence_chrf("a", []), ValueError, "empty"),
    (lambda: compat.corpus_chrf(["a", "b"], [["a"]]), ValueError, "refs"),
    (lambda: compat.corpus_chrf(["a"], [["a"], ["b", "c"]]), ValueError, "refs"),
    (lambda: compat.corpus_chrf(["a"], [[None]]), ValueError, "no reference"),
    (lambda: compat.corpus_chrf(["a"], ["a"]), TypeError, "refs"),
    (lambda: compat.sentence_chrf(3, ["a"]), TypeError, "hyp"),
    (lambda: compat.sentence_chrf("a", "a"), TypeError, "refs"),
    (lambda: compat.CHRF().corpus_score(["a"]), RuntimeError, "cache"),
    (lambda: compat.CHRF().get_signature(), ValueError, "Number of references"),
    (lambda: nlgmetrics.chrf(["a", "\ud800"], ["a", "b"]), ValueError, r"hypotheses\[1\].*surrogate"),
])
def test_bad_inputs(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_empty_corpus_and_empty_lines():
    assert nlgmetrics.chrf([], []).score == 0.0
    assert nlgmetrics.chrf(["", " "], ["", "x"]).score == CHRF().corpus_score(["", " "], [["", "x"]]).score


def test_whitespace_is_pythons_for_any_code_point():
    """Character n-grams drop exactly the characters Python's str.split() splits on."""
    # every BMP code point (all whitespace lives there) and every 101st one above it
    code_points = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000] + list(range(0x10000, 0x110000, 101))
    hyps = ["a" + chr(c) + "b" for c in code_points]
    stats = nlgmetrics.chrf(hyps, ["x"] * len(hyps)).stats
    expected = [len("".join(hyp.split())) for hyp in hyps]
    assert stats[:, 0].tolist() == expected
