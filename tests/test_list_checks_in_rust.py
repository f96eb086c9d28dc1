"""Issue 24: Python lists given to the scorer-path metrics are checked by Rust while it reads them
(``_core.SegmentScorer.score_lists``, ``src/python/lists.rs``), with the errors ``core.lists`` gives.

Every bad input below is given to both: the Python checks (``core.lists``, what other metrics still run) and
the Rust reader; the exception type and message must be the same, and good inputs must give the numbers of
the Python path bit for bit.
"""

from __future__ import annotations

import _thread
import threading
import time

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.core import inputs, lists
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.metrics.bleu import sacrebleu

LIMIT = lists.MAX_SEGMENT_CHARS
LONG = "x" * (LIMIT + 1)


class Text(str):
    """A str subclass whose ``str()`` differs from its own text (``core.lists`` reads a reference entry so)."""

    def __str__(self) -> str:
        return "the cat"


class Sequence:
    """Iterable by the old protocol (``__getitem__`` only): not a ``collections.abc.Iterable``."""

    def __getitem__(self, index: int) -> str:
        if index:
            raise IndexError(index)
        return "a"


def python_checks(hypotheses, references, refuse_streams=True):
    """What ``Metric.check_inputs`` and the surrogate check did before, for lists."""
    hyps = lists.hypotheses_list(hypotheses)
    refs = lists.references_lists(references, len(hyps), sacrebleu_metric=refuse_streams)
    try:
        for text in [*hyps, *(ref for entry in refs for ref in entry)]:
            text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(lists.surrogate_location(hyps, refs)) from None
    return hyps, refs


BAD = {
    "hypotheses a str": lambda: ("a cat", ["a cat"]),
    "hypotheses bytes": lambda: (b"a cat", ["a cat"]),
    "hypotheses not iterable": lambda: (5, ["a"]),
    "a hypothesis None": lambda: (["a", None], ["a", "b"]),
    "a hypothesis bytes": lambda: (["a", b"b"], ["a", "b"]),
    "a hypothesis too long": lambda: (["a", LONG], ["a", "b"]),
    "a hypothesis with a lone surrogate": lambda: (["a", "b \ud800"], ["a", "b"]),
    "references a str": lambda: (["a"], "a"),
    "references not iterable": lambda: (["a"], 3),
    "too few entries": lambda: (["a", "b"], [["a"]]),
    "too many entries": lambda: (["a"], ["a", "b"]),
    "sacreBLEU's layout": lambda: (["a", "b"], [["x", "y"]]),
    "sacreBLEU's layout as a tuple": lambda: (["a", "b"], [("x", "y")]),
    "an empty entry": lambda: (["a", "b"], [["a"], []]),
    "an empty tuple entry": lambda: (["a", "b"], [["a"], ()]),
    "an entry of bytes": lambda: (["a", "b"], [["a"], b"b"]),
    "an entry not iterable": lambda: (["a", "b"], [["a"], 7]),
    "an entry iterable by __getitem__ only": lambda: (["a"], [Sequence()]),
    "a reference None": lambda: (["a", "b"], [["a"], ["b", None]]),
    "a reference in a generator entry not str": lambda: (["a"], [(x for x in ["a", 1])]),
    "a reference too long": lambda: (["a", "b"], [["a"], ["b", LONG]]),
    "a one-string reference too long": lambda: (["a", "b"], ["a", LONG]),
    "a reference with a lone surrogate": lambda: (["a", "b"], [["a"], ["b", "c \udfff"]]),
    "hypothesis and reference surrogates": lambda: (["a \ud800"], [["b \ud800"]]),
    "streams read two ways": lambda: (["a", "b"], [["a", "b"], ["c", "d"]]),
    "a type error before a length error": lambda: ([LONG, None], ["a", "b"]),
    "a length error before a reference type error": lambda: ([LONG], [[None]]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_rust_gives_the_python_error(case):
    hypotheses, references = BAD[case]()
    with pytest.raises((TypeError, ValueError)) as python:
        python_checks(hypotheses, references)
    hypotheses, references = BAD[case]()  # generators are used up
    scorer = segment_scorer("chrf", nlgmetrics.metric("chrf").options)
    with pytest.raises(python.type) as rust:
        scorer.score_lists(hypotheses, references, max_chars=LIMIT, refuse_streams=True)
    assert str(rust.value) == str(python.value)


GOOD = {
    "lists": lambda: (["the cat sat", "a dog"], [["the cat sat on it", "a cat"], ["a dog barks"]]),
    "one string each": lambda: (["the cat sat", "a dog"], ["the cat sat on it", "a dog barks"]),
    "tuples and generators": lambda: (("the cat sat", "a dog"), [("the cat", "a cat"), (r for r in ["a dog barks"])]),
    "a str subclass entry counts as its str()": lambda: (["the cat", "a dog"], [Text("no"), "a dog"]),
    "a str subclass hypothesis counts as its text": lambda: ([Text("a dog"), "a dog"], ["a dog", "a dog"]),
    "streams that read one way": lambda: (["a", "b"], [["a", "b"], ["b", "c"]]),
    "streams symmetric": lambda: (["a", "b"], [["a", "b"], ["b", "a"]]),
    "streams as tuples": lambda: (["a", "b"], [("a", "b"), ("c", "d")]),
    "empty": lambda: ([], []),
}


@pytest.mark.parametrize("case", sorted(GOOD))
@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_rust_reads_what_python_read(case, name):
    hyps, refs = python_checks(*GOOD[case]())
    hypotheses, references = GOOD[case]()  # generators are used up
    scorer = segment_scorer(name, {**nlgmetrics.metric(name).options, "tokenize": "13a"})
    stats, scores, counts = scorer.score_lists(hypotheses, references, max_chars=LIMIT, refuse_streams=True)
    expected_stats, expected_scores = scorer.segment_stats(hyps, refs)
    np.testing.assert_array_equal(stats, expected_stats)
    np.testing.assert_array_equal(scores, expected_scores)
    assert counts == sorted({len(entry) for entry in refs})


def test_per_hypothesis_references_are_never_read_as_streams():
    refs = lists.PerHypothesis([["a", "b"], ["c", "d"]])
    result = nlgmetrics.metric("bleu").update(["a", "b"], refs).compute()
    assert result.signature.get("nrefs") == "2"
    with pytest.raises(ValueError, match="ambiguous"):
        nlgmetrics.metric("bleu").update(["a", "b"], [list(r) for r in refs])


def test_the_limit_is_read_at_each_call(monkeypatch):
    monkeypatch.setattr(lists, "MAX_SEGMENT_CHARS", 5)
    with pytest.raises(ValueError, match=r"references\[0\]\[0\] has 6 characters, more than the limit of 5 "):
        nlgmetrics.bleu(["a"], ["abcdef"])
    with pytest.raises(ValueError, match=r"hypotheses\[0\] has 1,000,001 characters, more than the limit of 5 "):
        nlgmetrics.chrf([LONG], ["a"])


def test_rows_per_call_pieces_give_one_call_numbers_and_name_the_whole_batch_index():
    hyps = [f"the cat number {k} sat on the mat" for k in range(100)]
    refs = [[f"a cat number {k % 7} is on the mat", "the cat sat"] for k in range(100)]
    scorer = sacrebleu.scorer(nlgmetrics.metric("bleu").options)
    whole = scorer.score_lists(hyps, refs, max_chars=LIMIT)
    for step in (1, 7, 99, 100, 1000):
        pieces = scorer.score_lists(hyps, refs, max_chars=LIMIT, rows_per_call=step)
        np.testing.assert_array_equal(pieces[0], whole[0])
        np.testing.assert_array_equal(pieces[1], whole[1])
        assert pieces[2] == whole[2] == [2]
    with pytest.raises(ValueError, match=r"hypotheses\[71\] contains a lone surrogate"):
        scorer.score_lists([*hyps[:71], "\ud800", *hyps[72:]], refs, max_chars=LIMIT, rows_per_call=7)


def test_threads_and_bad_threads_reach_the_pool():
    scorer = segment_scorer("chrf", nlgmetrics.metric("chrf").options)
    one = scorer.score_lists(["a cat"] * 50, ["a cat sat"] * 50, 1, max_chars=LIMIT)
    np.testing.assert_array_equal(one[0], scorer.score_lists(["a cat"] * 50, ["a cat sat"] * 50, 2,
                                                             max_chars=LIMIT)[0])
    with pytest.raises(ValueError, match="threads must be between 1 and"):
        scorer.score_lists(["a"], ["a"], 0, max_chars=LIMIT)


def test_metrics_take_the_rust_path_only_for_text_they_score_as_given():
    assert nlgmetrics.metric("bleu").list_scorer() is not None
    assert nlgmetrics.metric("chrf").list_scorer() is not None
    assert nlgmetrics.metric("bleu", lowercase=True).list_scorer() is None  # Python's str.lower first
    assert nlgmetrics.metric("chrf", lowercase=True).list_scorer() is None
    assert nlgmetrics.metric("bleu", preset="nltk").list_scorer() is None
    assert nlgmetrics.metric("rouge").list_scorer() is None
    with pytest.raises(TypeError, match="bleu needs references"):
        nlgmetrics.metric("bleu").update(["a"])


def test_a_failed_update_changes_nothing():
    metric = nlgmetrics.metric("bleu").update(["a cat"], ["a cat"])
    before = metric.state().arrays["segment_stats"].copy()
    with pytest.raises(TypeError):
        metric.update(["a", None], ["a", "b"])
    np.testing.assert_array_equal(metric.state().arrays["segment_stats"], before)
    assert metric.compute().score == nlgmetrics.bleu(["a cat"], ["a cat"]).score


def test_ctrl_c_between_pieces_raises_keyboard_interrupt():
    hyps = [f"the quick brown fox {k} jumps over the lazy dog again and again" for k in range(200_000)]
    scorer = segment_scorer("chrf", nlgmetrics.metric("chrf").options)
    started = threading.Event()

    def interrupt() -> None:
        started.wait()
        time.sleep(0.05)  # the call (several seconds of work) is under way
        _thread.interrupt_main()

    helper = threading.Thread(target=interrupt)
    helper.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            started.set()
            scorer.score_lists(hyps, hyps, max_chars=LIMIT, rows_per_call=64)
    finally:
        helper.join()


# ---------------------------------------------------------------------------------------------
# Metrics that preprocess in Python (TER, the WER family, CharCut, CharacTER): the lists come back from
# ``_core.check_lists`` (``core.inputs.checked_lists``), checked in the same read; surrogates are left to scoring.


def python_lists(hypotheses, references, one_each=False):
    hyps = lists.hypotheses_list(hypotheses)
    return hyps, lists.references_lists(references, len(hyps), sacrebleu_metric=True, one_each=one_each)


@pytest.mark.parametrize("case", sorted(case for case in BAD if "surrogate" not in case))
def test_check_lists_gives_the_python_error(case):
    with pytest.raises((TypeError, ValueError)) as python:
        python_lists(*BAD[case]())
    with pytest.raises(python.type) as rust:
        inputs.checked_lists(*BAD[case](), refuse_streams=True)
    assert str(rust.value) == str(python.value)


@pytest.mark.parametrize("one_each", [False, True])
@pytest.mark.parametrize("case", sorted(GOOD))
def test_check_lists_gives_the_python_lists(case, one_each):
    expected = python_lists(*GOOD[case](), one_each=one_each)
    got = inputs.checked_lists(*GOOD[case](), refuse_streams=True, one_each=one_each)
    assert got == expected
    assert type(got[1]) is type(expected[1])  # OneEach or PerHypothesis, as the Python checks give


def test_preprocessing_metrics_check_lists_in_rust():
    for name in ("ter", "wer", "mer", "wil", "wip", "cer", "charcut", "character"):
        assert nlgmetrics.metric(name).checks_lists_in_rust, name
        with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be str, got NoneType$"):
            nlgmetrics.metric(name).update(["a b", None], ["a b", "c d"])
        with pytest.raises(ValueError, match=r"hypotheses\[0\] contains a lone surrogate"):
            nlgmetrics.metric(name).update(["a \ud800"], ["a b"])
    assert not nlgmetrics.metric("rouge").checks_lists_in_rust
    with pytest.raises(ValueError, match="ambiguous"):
        nlgmetrics.ter(["a", "b"], [["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 references: .* take exactly one"):
        nlgmetrics.wer(["a"], [["a", "b"]])
    assert nlgmetrics.wer(["a b", "c"], ["a b", "c d"]).score == nlgmetrics.wer(["a b", "c"], [["a b"], ["c d"]]).score
