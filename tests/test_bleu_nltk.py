"""The ``nltk`` BLEU preset and ``compat.nltk`` against NLTK 3.10.4 itself, value and type.

Real data: every system of WMT22 (zh-en, en-zh, de-en, en-de; one or two references) and WMT17
en-de, whitespace-split. Corpus BLEU on every system (each smoothing method on a share of the
systems, all weight shapes at once); sentence BLEU on an even sample of segments of every system
with every method and auto_reweigh on and off.
"""

from __future__ import annotations

import warnings

import pytest
from conftest import read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics.compat import nltk as ours

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (1,), (0.5, 0.5), (0.5, 0.25, 0.125), (0.2, 0.2, 0.2, 0.2, 0.2)]
METHODS = [f"method{index}" for index in range(8)]
SEGMENTS_PER_SYSTEM = 12


def _systems(shared_data):
    """``(name, hypotheses, list_of_references)`` for every system, tokens by whitespace split."""
    found = []
    for pair in ("zh-en", "en-zh", "de-en", "en-de"):
        folder = shared_data / "mt" / "wmt22" / pair
        target = pair.split("-")[1]
        ref_a = [line.split() for line in read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")]
        ref_b = [line.split() for line in read_lines(folder / f"generaltest2022.{pair}.ref.B.{target}")]
        for index, path in enumerate(sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))):
            refs = [[a, b] for a, b in zip(ref_a, ref_b)] if index % 2 else [[a] for a in ref_a]
            found.append((path.name, [line.split() for line in read_lines(path)], refs))
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    ref = [[line.split()] for line in read_lines(folder / "newstest2017.en-de.ref.de")]
    for path in sorted(folder.glob("newstest2017.*.hyp.de")):
        found.append((path.name, [line.split() for line in read_lines(path)], ref))
    return found


@pytest.fixture(scope="session")
def systems(shared_data):
    found = _systems(shared_data)
    assert len(found) == 43 + 16
    return found


def _same(ours_value, their_value):
    """Equal values of the same types (int 0 stays int 0, lists element by element)."""
    assert type(ours_value) is type(their_value), (ours_value, their_value)
    if isinstance(their_value, list):
        assert len(ours_value) == len(their_value)
        for mine, theirs in zip(ours_value, their_value):
            _same(mine, theirs)
    else:
        assert ours_value == their_value


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_seed_weights_halving_per_order():
    hyp, ref = "The cat sat on the mat".split(), "The cat is on the mat".split()
    expected = nltk_bleu.sentence_bleu([ref], hyp, weights=(0.5, 0.25, 0.125))
    assert expected == 0.6756000774035172  # the worked example, confirmed by NLTK itself
    _same(ours.sentence_bleu([ref], hyp, weights=(0.5, 0.25, 0.125)), expected)


@pytest.mark.parametrize("dataset", ["generaltest2022.zh-en.", "generaltest2022.en-zh.", "generaltest2022.de-en.",
                                     "generaltest2022.en-de.", "newstest2017."])
def test_corpus_bleu_every_system(systems, dataset):
    for index, (name, hyps, refs) in enumerate(systems):
        if not name.startswith(dataset):
            continue
        method = METHODS[index % len(METHODS)]
        auto_reweigh = bool(index % 3 == 0)
        expected = _quiet(nltk_bleu.corpus_bleu, refs, hyps, WEIGHTS,
                          getattr(nltk_bleu.SmoothingFunction(), method), auto_reweigh)
        got = _quiet(ours.corpus_bleu, refs, hyps, WEIGHTS, getattr(ours.SmoothingFunction(), method), auto_reweigh)
        _same(got, expected)
        if index % 16 == 0:  # the default call (single weight tuple, no smoothing) too
            _same(_quiet(ours.corpus_bleu, refs, hyps), _quiet(nltk_bleu.corpus_bleu, refs, hyps))


def test_sentence_bleu_sampled_segments_every_system(systems):
    compared = 0
    for name, hyps, refs in systems:
        step = max(1, len(hyps) // SEGMENTS_PER_SYSTEM)
        for line in range(0, len(hyps), step):
            for method in METHODS:
                for auto_reweigh in (False, True):
                    theirs_smoothing = getattr(nltk_bleu.SmoothingFunction(), method)
                    ours_smoothing = getattr(ours.SmoothingFunction(), method)
                    try:
                        expected = _quiet(nltk_bleu.sentence_bleu, refs[line], hyps[line], WEIGHTS,
                                          theirs_smoothing, auto_reweigh)
                    except (AssertionError, ZeroDivisionError) as error:  # method6 on short segments
                        with pytest.raises(type(error)):
                            _quiet(ours.sentence_bleu, refs[line], hyps[line], WEIGHTS, ours_smoothing, auto_reweigh)
                        continue
                    got = _quiet(ours.sentence_bleu, refs[line], hyps[line], WEIGHTS, ours_smoothing, auto_reweigh)
                    _same(got, expected)
                    compared += 1
    assert compared > 59 * SEGMENTS_PER_SYSTEM * 8


def test_helpers_match(systems):
    name, hyps, refs = systems[0]
    for line in range(0, len(hyps), 97):
        for n in (1, 2, 3, 4, 5):
            theirs = nltk_bleu.modified_precision(refs[line], hyps[line], n)
            mine = ours.modified_precision(refs[line], hyps[line], n)
            assert (mine.numerator, mine.denominator) == (theirs.numerator, theirs.denominator)
            assert mine == theirs
        hyp_len = len(hyps[line])
        assert ours.closest_ref_length(refs[line], hyp_len) == nltk_bleu.closest_ref_length(refs[line], hyp_len)
    for ref_len, hyp_len in [(12, 12), (28, 12), (13, 12), (5, 0), (0, 0), (3, 7)]:
        _same(ours.brevity_penalty(ref_len, hyp_len), nltk_bleu.brevity_penalty(ref_len, hyp_len))
    assert ours.closest_ref_length(reversed([["a"] * 13, ["a"] * 11]), 12) == 11


def test_method0_warns_like_nltk():
    refs, hyp = [["a", "b", "c", "d"]], ["a", "x", "c", "y"]
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        expected = nltk_bleu.sentence_bleu(refs, hyp)
    with warnings.catch_warnings(record=True) as mine:
        warnings.simplefilter("always")
        got = ours.sentence_bleu(refs, hyp)
    _same(got, expected)
    assert [w.category for w in mine] == [w.category for w in theirs]
    assert len(mine) == 3


def test_non_string_tokens_and_string_hypotheses():
    cases = [
        ([[1, 2, 3, 4, 5]], [1, 2, 3, 9, 5]),
        ([("a", "b"), ("c",)], ("a", "b", "c")),
        (["the cat sat"], "the cat sat on"),  # nltk reads plain strings as characters
    ]
    for refs, hyp in cases:
        for method in ("method1", "method5"):
            expected = _quiet(nltk_bleu.sentence_bleu, refs, hyp, WEIGHTS, getattr(nltk_bleu.SmoothingFunction(), method))
            _same(_quiet(ours.sentence_bleu, refs, hyp, WEIGHTS, getattr(ours.SmoothingFunction(), method)), expected)


def test_custom_smoothing_parameters_and_callables():
    refs, hyp = [["a", "b", "c", "d", "e"], ["a", "c"]], ["a", "b", "x", "d", "e", "f"]
    for params in ({"epsilon": 0.5}, {"k": 2}, {"alpha": 3}, {"epsilon": 1, "alpha": 1.5, "k": 0.5}):
        for method in METHODS:
            theirs = getattr(nltk_bleu.SmoothingFunction(**params), method)
            mine = getattr(ours.SmoothingFunction(**params), method)
            try:
                expected = _quiet(nltk_bleu.sentence_bleu, refs, hyp, WEIGHTS, theirs)
            except AssertionError:
                with pytest.raises(AssertionError):
                    _quiet(ours.sentence_bleu, refs, hyp, WEIGHTS, mine)
                continue
            _same(_quiet(ours.sentence_bleu, refs, hyp, WEIGHTS, mine), expected)
    # NLTK's own smoothing method (or any callable) works with our facade.
    theirs = nltk_bleu.SmoothingFunction().method3
    _same(ours.sentence_bleu(refs, hyp, smoothing_function=theirs), nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=theirs))


def test_empty_hypothesis_and_empty_corpus():
    for weights in [WEIGHTS, (0.25,) * 4, ()]:
        _same(ours.sentence_bleu([["a", "b"]], [], weights), nltk_bleu.sentence_bleu([["a", "b"]], [], weights))
        _same(ours.sentence_bleu([[]], [], weights), nltk_bleu.sentence_bleu([[]], [], weights))
    _same(ours.corpus_bleu([], [], ()), nltk_bleu.corpus_bleu([], [], ()))
    for weights in [WEIGHTS, (0.25,) * 4]:  # NLTK divides 0 by 0 on an empty corpus
        with pytest.raises(ZeroDivisionError):
            nltk_bleu.corpus_bleu([], [], weights)
        with pytest.raises(ZeroDivisionError):
            ours.corpus_bleu([], [], weights)


def test_invalid_input_raises_clear_errors():
    with pytest.raises(ValueError, match="2 hypotheses"):
        ours.corpus_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match=r"list_of_references\[1\] is empty"):
        ours.corpus_bleu([[["a"]], []], [["a"], ["b"]])
    with pytest.raises(ValueError, match="non-negative"):
        ours.modified_precision([["a"]], ["a"], -1)
    with pytest.raises(IndexError):  # method6 needs three orders, as in NLTK
        ours.sentence_bleu([["a", "b"]], ["a", "b"], (0.5, 0.5), ours.SmoothingFunction().method6)


tokens = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "\u00e9", "\u72d7", ""]), max_size=10)
weight_vectors = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=6).map(tuple)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3)), min_size=1, max_size=4),
    st.one_of(weight_vectors, st.lists(weight_vectors, min_size=2, max_size=3), st.just((0.25,) * 4)),
    st.sampled_from([None] + METHODS),
    st.booleans(),
)
def test_random_corpora_match_nltk(segments, weights, method, auto_reweigh):
    hyps = [hyp for hyp, _ in segments]
    refs = [segment_refs for _, segment_refs in segments]
    theirs = getattr(nltk_bleu.SmoothingFunction(), method) if method else None
    mine = getattr(ours.SmoothingFunction(), method) if method else None
    try:
        expected = _quiet(nltk_bleu.corpus_bleu, refs, hyps, weights, theirs, auto_reweigh)
    except (AssertionError, IndexError, ZeroDivisionError, ValueError) as error:
        with pytest.raises(type(error)):
            _quiet(ours.corpus_bleu, refs, hyps, weights, mine, auto_reweigh)
        return
    _same(_quiet(ours.corpus_bleu, refs, hyps, weights, mine, auto_reweigh), expected)
