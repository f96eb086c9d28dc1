"""Issue 24: Python lists are checked in one place, Rust's read of them (``src/python/lists.rs``), by every way
in: ``SegmentScorer.score_lists`` / ``check_lists`` (the metrics that score lists as given), ``_core.check_lists``
(``core.inputs.checked_lists``: the metrics that preprocess in Python) and ``core.lists.hypotheses_list`` /
``references_lists`` (everything else).

Every bad input below goes in by each way; the exception type and message must be the ones ``EXPECTED`` gives —
the messages the Python checks of ``core.lists`` gave before they moved into Rust —, and good inputs must give
the lists ``GOOD_LISTS`` says and, scored, the numbers of those lists bit for bit.
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


_TOO_LONG = ("has 1,000,001 characters, more than the limit of 1,000,000 per segment (the super-linear metrics would "
             "take minutes and gigabytes); split it, or set NLGMETRICS_MAX_SEGMENT_CHARS to raise the limit")
_SURROGATE = "contains a lone surrogate code point and is not valid Unicode text"
_LAYOUT = ("references has 1 entries but there are 2 hypotheses; it looks like sacreBLEU's layout (1 reference streams "
           "of 2 strings): nlgmetrics takes one entry per hypothesis, so pass list(zip(*references))")

#: The error of each bad input: what ``core.lists``' Python checks raised (type, message), kept as the contract.
EXPECTED = {
    "hypotheses a str": (TypeError, "hypotheses must be a sequence of strings, not a single str"),
    "hypotheses bytes": (TypeError, "hypotheses must be a sequence of strings, not a single bytes"),
    "hypotheses not iterable": (TypeError, "hypotheses must be a sequence of strings, got int"),
    "a hypothesis None": (TypeError, "hypotheses[1] must be str, got NoneType"),
    "a hypothesis bytes": (TypeError, "hypotheses[1] must be str, got bytes"),
    "a hypothesis too long": (ValueError, f"hypotheses[1] {_TOO_LONG}"),
    "a hypothesis with a lone surrogate": (ValueError, f"hypotheses[1] {_SURROGATE}"),
    "references a str": (TypeError, "references must be a sequence (one entry per hypothesis), not a single str"),
    "references not iterable": (TypeError, "references must be a sequence, got int"),
    "too few entries": (ValueError, "references has 1 entries but there are 2 hypotheses"),
    "too many entries": (ValueError, "references has 2 entries but there are 1 hypotheses"),
    "sacreBLEU's layout": (ValueError, _LAYOUT),
    "sacreBLEU's layout as a tuple": (ValueError, _LAYOUT),
    "an empty entry": (ValueError, "references[1] is empty: every hypothesis needs at least one reference"),
    "an empty tuple entry": (ValueError, "references[1] is empty: every hypothesis needs at least one reference"),
    "an entry of bytes": (TypeError, "references[1] must be a str or a sequence of str, got bytes"),
    "an entry not iterable": (TypeError, "references[1] must be a str or a sequence of str, got int"),
    "an entry iterable by __getitem__ only": (TypeError, "references[0] must be a str or a sequence of str, got Sequence"),
    "a reference None": (TypeError, "references[1][1] must be str, got NoneType"),
    "a reference in a generator entry not str": (TypeError, "references[0][1] must be str, got int"),
    "a reference too long": (ValueError, f"references[1][1] {_TOO_LONG}"),
    "a one-string reference too long": (ValueError, f"references[1][0] {_TOO_LONG}"),
    "a reference with a lone surrogate": (ValueError, f"references[1][1] {_SURROGATE}"),
    "hypothesis and reference surrogates": (ValueError, f"hypotheses[0] {_SURROGATE}"),
    "streams read two ways": (ValueError, "references is ambiguous: 2 hypotheses and 2 lists of 2 references. nlgmetrics "
                              "reads references[i] as the references of hypothesis i, sacreBLEU reads references[k] as "
                              "reference stream k (one line per hypothesis). For sacreBLEU's streams pass "
                              "list(zip(*streams)); for per-hypothesis references pass each hypothesis's list as a tuple"),
    "a type error before a length error": (TypeError, "hypotheses[1] must be str, got NoneType"),
    "a length error before a reference type error": (ValueError, f"hypotheses[0] {_TOO_LONG}"),
}


def test_every_bad_input_has_its_expected_error():
    assert sorted(EXPECTED) == sorted(BAD)


@pytest.mark.skipif(LIMIT != 1_000_000, reason="the expected messages are written for the default limit")
@pytest.mark.parametrize("case", sorted(BAD))
def test_score_lists_gives_the_error(case):
    error, message = EXPECTED[case]
    scorer = segment_scorer("chrf", nlgmetrics.metric("chrf").options)
    with pytest.raises(error) as raised:
        scorer.score_lists(*BAD[case](), max_chars=LIMIT, refuse_streams=True)
    assert str(raised.value) == message
    with pytest.raises(error) as raised:  # the check of a small update kept for later (core.pending)
        scorer.check_lists(*BAD[case](), max_chars=LIMIT, refuse_streams=True)
    assert str(raised.value) == message


@pytest.mark.skipif(LIMIT != 1_000_000, reason="the expected messages are written for the default limit")
@pytest.mark.parametrize("case", sorted(case for case in BAD if "surrogate" not in case))
def test_the_python_functions_give_the_error(case):
    """``core.lists``' functions (Rust's read, as every metric's default ``check_inputs`` calls them); lone
    surrogates are left to the scoring call there."""
    error, message = EXPECTED[case]
    hypotheses, references = BAD[case]()
    with pytest.raises(error) as raised:
        hyps = lists.hypotheses_list(hypotheses)
        lists.references_lists(references, len(hyps), sacrebleu_metric=True)
    assert str(raised.value) == message


def test_the_errors_name_the_argument():
    with pytest.raises(TypeError, match=r"^predictions\[1\] must be str, got NoneType$"):
        lists.hypotheses_list(["a", None], "predictions")
    with pytest.raises(TypeError, match=r"^outputs must be a sequence of strings, not a single str$"):
        lists.hypotheses_list("a", "outputs")
    with pytest.raises(ValueError, match=r"^targets\[0\] is empty: every hypothesis needs at least one reference$"):
        lists.references_lists([[]], 1, "targets")
    with pytest.raises(ValueError, match=r"pass list\(zip\(\*targets\)\)$"):
        lists.references_lists([["x", "y"]], 2, "targets")
    with pytest.raises(ValueError, match=r"^targets is ambiguous: .* targets\[i\] as the references"):
        lists.references_lists([["a", "b"], ["c", "d"]], 2, "targets", sacrebleu_metric=True)
    with pytest.raises(ValueError, match=r"^captions\[0\] has 1,000,001 characters"):
        lists.hypotheses_list([LONG], "captions")


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


#: What each good input reads as: the hypotheses and one list of references per hypothesis.
GOOD_LISTS = {
    "lists": (["the cat sat", "a dog"], [["the cat sat on it", "a cat"], ["a dog barks"]]),
    "one string each": (["the cat sat", "a dog"], [["the cat sat on it"], ["a dog barks"]]),
    "tuples and generators": (["the cat sat", "a dog"], [["the cat", "a cat"], ["a dog barks"]]),
    "a str subclass entry counts as its str()": (["the cat", "a dog"], [["the cat"], ["a dog"]]),
    "a str subclass hypothesis counts as its text": (["a dog", "a dog"], [["a dog"], ["a dog"]]),
    "streams that read one way": (["a", "b"], [["a", "b"], ["b", "c"]]),
    "streams symmetric": (["a", "b"], [["a", "b"], ["b", "a"]]),
    "streams as tuples": (["a", "b"], [["a", "b"], ["c", "d"]]),
    "empty": ([], []),
}


def test_every_good_input_has_its_lists():
    assert sorted(GOOD_LISTS) == sorted(GOOD)


@pytest.mark.parametrize("case", sorted(GOOD))
def test_the_python_functions_read_the_lists(case):
    hypotheses, references = GOOD[case]()
    hyps = lists.hypotheses_list(hypotheses)
    refs = lists.references_lists(references, len(hyps), sacrebleu_metric=True)
    assert (hyps, refs) == GOOD_LISTS[case]
    assert all(type(text) is str or isinstance(text, Text) for text in hyps)
    assert type(refs) is lists.PerHypothesis


@pytest.mark.parametrize("case", sorted(GOOD))
@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_rust_reads_what_python_read(case, name):
    hyps, refs = GOOD_LISTS[case]
    hypotheses, references = GOOD[case]()
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


@pytest.mark.skipif(LIMIT != 1_000_000, reason="the expected messages are written for the default limit")
@pytest.mark.parametrize("case", sorted(case for case in BAD if "surrogate" not in case))
def test_check_lists_gives_the_error(case):
    error, message = EXPECTED[case]
    with pytest.raises(error) as raised:
        inputs.checked_lists(*BAD[case](), refuse_streams=True)
    assert str(raised.value) == message


@pytest.mark.parametrize("one_each", [False, True])
@pytest.mark.parametrize("case", sorted(GOOD))
def test_check_lists_gives_the_lists(case, one_each):
    got = inputs.checked_lists(*GOOD[case](), refuse_streams=True, one_each=one_each)
    hyps, refs = GOOD_LISTS[case]
    given = GOOD[case]()[1]
    if one_each and given and all(type(entry) is str for entry in given):  # kept as the strs given (OneEach)
        assert got == (hyps, [entry[0] for entry in refs]) and type(got[1]) is lists.OneEach
        assert lists.references_lists(given, len(given), one_each=True) == got[1]
    else:
        assert got == (hyps, refs) and type(got[1]) is lists.PerHypothesis


def test_preprocessing_metrics_check_lists_in_rust():
    for name in ("ter", "wer", "mer", "wil", "wip", "cer", "charcut", "character", "meteor"):
        with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be str, got NoneType$"):
            nlgmetrics.metric(name).update(["a b", None], ["a b", "c d"])
        with pytest.raises(ValueError, match=r"hypotheses\[0\] contains a lone surrogate"):
            nlgmetrics.metric(name).update(["a \ud800"], ["a b"])
    with pytest.raises(TypeError, match=r"^predictions\[1\] must be str, got NoneType$"):  # rouge_score's names
        nlgmetrics.metric("rouge").update(["a b", None], ["a b", "c d"])
    with pytest.raises(ValueError, match="ambiguous"):
        nlgmetrics.ter(["a", "b"], [["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 references: .* take exactly one"):
        nlgmetrics.wer(["a"], [["a", "b"]])
    assert nlgmetrics.wer(["a b", "c"], ["a b", "c d"]).score == nlgmetrics.wer(["a b", "c"], [["a b"], ["c d"]]).score
