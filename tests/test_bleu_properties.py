"""Property tests: nlgmetrics BLEU agrees with sacreBLEU on random text (any Unicode, Python-only
whitespace, empty and whitespace-only lines, very long lines) and behaves as BLEU must."""

from __future__ import annotations

import math

import pytest
from _bleu_wmt import TOKENIZERS_READY, TOKENIZERS_REASON
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nlgmetrics import bleu, sentence_bleu

sacrebleu = pytest.importorskip("sacrebleu")

WORDS = ["the", "The", "cat", "sat", "on", "mat", "a", "ÄRGER", "straße", "猫", "в", "dog", ".", ",", "İ", "ǅ"]
# Separators include characters Python's str.split() treats as whitespace but Rust's char::is_whitespace
# does not (U+001C..U+001F), and Unicode spaces.
SEPARATORS = [" ", "  ", "\t", "\x1c", "\x1f", "\u3000", "\u00a0", "\u2028", "\x85", "\n"]

words = st.lists(st.sampled_from(WORDS), max_size=12)
separator = st.sampled_from(SEPARATORS)


@st.composite
def sentences(draw):
    tokens = draw(words)
    line = ""
    for token in tokens:
        line += token + draw(separator)
    if draw(st.booleans()):
        line = draw(separator) + line
    return line if draw(st.booleans()) else line.rstrip(" ")


any_text = st.text(max_size=40)
line = st.one_of(sentences(), sentences(), any_text)
SMOOTHING = st.sampled_from([("exp", None), ("floor", None), ("floor", 0.0), ("add-k", None), ("add-k", 0.5),
                             ("none", None)])
RELAXED = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compare(hyps, streams, tokenize, smooth, smooth_value, eff, lowercase, max_order=4):
    # Tuples: per-hypothesis references (a square list of lists would read both ways, issue 13).
    refs = [tuple(ref for ref in refs if ref is not None) for refs in zip(*streams)]
    ours = bleu(hyps, refs, tokenize=tokenize, smooth=smooth, smooth_value=smooth_value, effective_order=eff,
                lowercase=lowercase, max_order=max_order)
    metric = sacrebleu.BLEU(tokenize=tokenize, smooth_method=smooth, smooth_value=smooth_value,
                            effective_order=eff, lowercase=lowercase, max_ngram_order=max_order)
    theirs = metric.corpus_score(hyps, streams)
    assert ours.score == theirs.score
    assert list(ours.precisions) == theirs.precisions and ours.bp == theirs.bp
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    if smooth != "add-k":
        assert list(ours.counts) == theirs.counts and list(ours.totals) == theirs.totals
    rows = metric._extract_corpus_statistics(hyps, streams)
    assert ours.segment_stats.tolist() == rows
    # per segment: sentence_bleu's semantics, effective order on whatever the corpus option (issue 22)
    sentence = sacrebleu.BLEU(tokenize=tokenize, smooth_method=smooth, smooth_value=smooth_value,
                              effective_order=True, lowercase=lowercase, max_ngram_order=max_order)
    for index, row in enumerate(rows):
        expected = sentence._compute_score_from_stats(list(row)).score
        assert ours.segment_scores[index] == expected


@RELAXED
@given(data=st.data(), n=st.integers(1, 6), smoothing=SMOOTHING, eff=st.booleans(), lowercase=st.booleans(),
       max_order=st.sampled_from([1, 2, 4, 5]))
def test_random_text_tokenize_none(data, n, smoothing, eff, lowercase, max_order):
    hyps = data.draw(st.lists(line, min_size=n, max_size=n))
    stream_a = data.draw(st.lists(line, min_size=n, max_size=n))
    stream_b = data.draw(st.lists(st.one_of(st.none(), line), min_size=n, max_size=n))
    compare(hyps, [stream_a], "none", *smoothing, eff, lowercase, max_order)
    compare(hyps, [stream_a, stream_b], "none", *smoothing, eff, lowercase, max_order)


@pytest.mark.skipif(not TOKENIZERS_READY, reason=TOKENIZERS_REASON)
@RELAXED
@given(data=st.data(), n=st.integers(1, 5), smoothing=SMOOTHING, eff=st.booleans(), lowercase=st.booleans(),
       tokenize=st.sampled_from(["13a", "intl", "zh", "char"]))
def test_random_text_sacrebleu_tokenizers(data, n, smoothing, eff, lowercase, tokenize):
    hyps = data.draw(st.lists(line, min_size=n, max_size=n))
    stream = data.draw(st.lists(line, min_size=n, max_size=n))
    compare(hyps, [stream], tokenize, *smoothing, eff, lowercase)


@RELAXED
@given(tokens=st.lists(st.sampled_from(WORDS), min_size=1, max_size=30), smoothing=SMOOTHING)
def test_identity_scores_100(tokens, smoothing):
    text = " ".join(tokens)
    result = sentence_bleu(text, [text, "unrelated words"], tokenize="none", smooth=smoothing[0],
                           smooth_value=smoothing[1])
    # sacreBLEU's "100" is exp(log 100) = 100.00000000000004 (also with fewer than 4 tokens, with effective order).
    assert result.score == math.exp(math.log(100.0))
    assert result.bp == 1.0 and all(c == t for c, t in zip(result.counts, result.totals))


@RELAXED
@given(hyp=line, refs=st.lists(line, min_size=1, max_size=3))
def test_scores_are_bounded_and_deterministic(hyp, refs):
    first = sentence_bleu(hyp, refs, tokenize="none")
    again = sentence_bleu(hyp, refs, tokenize="none")
    assert first.score == again.score and 0.0 <= first.score <= 100.00000000000004
    assert 0.0 <= first.bp <= 1.0
    assert all(0 <= c <= t for c, t in zip(first.counts, first.totals))


@pytest.mark.parametrize("hyp, ref", [("", ""), ("", "a b"), ("a b", ""), ("   ", "\t\n"), ("\x1c\x1d", "a\x1c"),
                                      ("\u3000a\u3000", "a"), ("a\x00b", "a\x00b"), ("\ud7ff\U0010ffff", "\U0010ffff")])
def test_edge_lines_match_sacrebleu(hyp, ref):
    for smooth in ("exp", "floor", "add-k", "none"):
        for eff in (False, True):
            compare([hyp], [[ref]], "none", smooth, None, eff, False)


def test_very_long_lines():
    hyp = " ".join(f"w{i % 997}" for i in range(60_000))
    ref = " ".join(f"w{(i * 7) % 991}" for i in range(50_000))
    compare([hyp, ref], [[ref, hyp]], "none", "exp", None, False, False)
