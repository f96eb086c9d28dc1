"""TER vs sacreBLEU on random text (shifts, punctuation, XML entities, CJK, newlines, case), and
every error path of the native and compat APIs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER

import nlgmetrics
from nlgmetrics.compat import sacrebleu as compat

WORDS = ["a", "b", "c", "the", "The", "cat", "'s", "he's", "3.5", "1,000", "5-6", "x.", ",y", "&quot;", "&amp;lt;",
         "(z)", "!", "?", ":", "我们", "好。", "「", "」", "，", "ｶﾀ", "カタカナ", "ひらがな", "İ", "ΣΑΣ", "\n-", "\n",
         "\t", "\xa0", "\u3000", "\x1c", "🙂", "e\u0301"]
sentence = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=18).map(" ".join),
    st.lists(st.sampled_from(WORDS), max_size=10).map("".join),
    st.text(max_size=25),
)
flags = st.fixed_dictionaries({name: st.booleans() for name in
                               ("normalized", "no_punct", "asian_support", "case_sensitive")})


@settings(max_examples=300, deadline=None)
@given(hyp=sentence, refs=st.lists(sentence, min_size=1, max_size=3), opts=flags)
def test_sentence_matches_sacrebleu(hyp, refs, opts):
    expected = TER(**opts).sentence_score(hyp, refs)
    got = nlgmetrics.sentence_ter(hyp, refs, **opts)
    assert (got.score, got.num_edits, got.ref_length) == (expected.score, expected.num_edits, expected.ref_length)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(sentence, sentence), min_size=1, max_size=5), opts=flags)
def test_corpus_matches_sacrebleu(rows, opts):
    hyps, refs = [row[0] for row in rows], [row[1] for row in rows]
    expected = TER(**opts).corpus_score(hyps, [refs])
    got = compat.corpus_ter(hyps, [refs], **opts)
    assert (got.score, got.num_edits, got.ref_length) == (expected.score, expected.num_edits, expected.ref_length)


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=40), seed=st.randoms())
def test_permutations_match_sacrebleu(words, seed):
    """Shuffled sentences exercise the shift search hardest."""
    shuffled = list(words)
    seed.shuffle(shuffled)
    hyp, ref = " ".join(shuffled), " ".join(words)
    expected = TER().sentence_score(hyp, [ref])
    got = nlgmetrics.sentence_ter(hyp, ref)
    assert (got.score, got.num_edits) == (expected.score, expected.num_edits)
    assert got.num_edits <= len(words)


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: nlgmetrics.ter(["a", "b"], ["a"]), ValueError, "1 entries but there are 2"),
    (lambda: nlgmetrics.ter("ab", ["a"]), TypeError, "hypotheses"),
    (lambda: nlgmetrics.ter([None], ["a"]), TypeError, r"hypotheses\[0\]"),
    (lambda: nlgmetrics.ter(["a"], [[]]), ValueError, "empty"),
    (lambda: nlgmetrics.ter(["a"], [["a", 2]]), TypeError, r"references\[0\]\[1\]"),
    (lambda: nlgmetrics.ter(["a"], ["a"], normalized="yes"), TypeError, "normalized"),
    (lambda: nlgmetrics.ter(["a"], ["a"], case_sensitive=1), TypeError, "case_sensitive"),
    (lambda: nlgmetrics.sentence_ter(1, "a"), TypeError, "hypothesis"),
    (lambda: compat.corpus_ter(["a", "b"], [["a"]]), ValueError, "refs"),
    (lambda: compat.corpus_ter(["a"], "a"), TypeError, "refs"),
    (lambda: compat.sentence_ter("a", "a"), TypeError, "refs"),
    (lambda: compat.TER().corpus_score(["a"]), RuntimeError, "cache"),
    (lambda: nlgmetrics.ter(["a"], [["b", "\udfff"]]), ValueError, r"references\[0\]\[1\].*surrogate"),
])
def test_bad_inputs(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_result_objects():
    result = nlgmetrics.ter(["a b c", "x"], [["a b c d", "a"], ["y z"]])
    assert str(result) == f"TER = {result.score:.2f}"
    assert result.segment_num_edits.tolist() == [1, 2] and result.segment_ref_lengths.tolist() == [2.5, 2.0]
    assert result.num_edits == 3 and result.ref_length == 4.5
    assert str(result.signature).startswith("TER|nrefs:var|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:")
    assert result.to_dict()["num_edits"] == 3
    assert nlgmetrics.ter([], []).score == 0.0


def test_tokens_split_on_pythons_whitespace_for_any_code_point():
    # every BMP code point (all whitespace lives there) and every 101st one above it
    code_points = [c for c in range(0x10000) if not 0xD800 <= c < 0xE000] + list(range(0x10000, 0x110000, 101))
    hyps = ["a" + chr(c) + "b" for c in code_points]
    edits = nlgmetrics.ter(hyps, ["x"] * len(hyps), case_sensitive=True).segment_num_edits
    assert edits.tolist() == [len(hyp.split()) for hyp in hyps]
