"""Python lists as metric inputs, and the checks every input type shares (the segment length limit, lone
surrogates): clear errors that say what was wrong and where.

``core.inputs`` takes lists or columns; columns are read by ``core.columns``, which uses the length checks here.
Nothing in this module imports the other two. Lists are checked in one place, Rust's read of them
(``src/python/lists.rs``): ``hypotheses_list`` and ``references_lists`` here are that read
(``_core.hypotheses_list``, ``_core.references_lists``), as are ``_core.check_lists`` (both at once, for the
metrics that preprocess in Python: ``core.inputs.checked_lists``) and ``SegmentScorer.score_lists`` /
``check_lists`` (the metrics that score lists as given: sacreBLEU BLEU, chrF). The rules, their order and their
messages are in that file's module docs.

>>> hypotheses_list(["a", "b"])
['a', 'b']
>>> references_lists(["x", ["y", "z"]], n_hypotheses=2)
[['x'], ['y', 'z']]
"""

from __future__ import annotations

import os
from itertools import chain
from typing import Iterable, Optional, Sequence, Union

from nlgmetrics import _core

Reference = Union[str, Sequence[str]]

# Longest segment (hypothesis or reference) accepted, in characters: far beyond any real text, small
# enough that no metric's per-segment tables take gigabytes. Raise it with NLGMETRICS_MAX_SEGMENT_CHARS.
DEFAULT_MAX_SEGMENT_CHARS = 1_000_000


def _segment_limit(text: Optional[str]) -> int:
    """The limit ``NLGMETRICS_MAX_SEGMENT_CHARS`` sets: a positive integer (``_`` and ``,`` allowed), else the default
    with a RuntimeWarning (an invalid value must not make ``import nlgmetrics`` fail).

    >>> _segment_limit("2_000_000"), _segment_limit(None)
    (2000000, 1000000)
    """
    if text is None:
        return DEFAULT_MAX_SEGMENT_CHARS
    try:
        value = int(text.replace(",", "").replace("_", "").strip())
    except ValueError:
        value = 0
    if value < 1:
        import warnings

        warnings.warn(f"NLGMETRICS_MAX_SEGMENT_CHARS={text!r} is not a positive integer; the default limit of "
                      f"{DEFAULT_MAX_SEGMENT_CHARS:,} characters applies", RuntimeWarning, stacklevel=2)
        return DEFAULT_MAX_SEGMENT_CHARS
    return value


MAX_SEGMENT_CHARS = _segment_limit(os.environ.get("NLGMETRICS_MAX_SEGMENT_CHARS"))


class OneEach(list):
    """References given as one string per hypothesis, kept as those strings (``self[i]`` is hypothesis
    ``i``'s only reference): the one-reference metrics (WER, CharacTER, CharCut) take them so, without
    a list built per segment.

    >>> OneEach(["a cat", "a dog"]).counts()
    [1, 1]
    """

    def counts(self) -> list:
        """The number of references of each row (``core.columns.reference_counts``)."""
        return [1] * len(self)


class PerHypothesis(list):
    """A list of reference lists known to be per hypothesis (built from streams by the library), so
    its shape is never ambiguous (``references_lists`` never reads it as sacreBLEU's streams)."""


def check_reference_lengths(references: Sequence[Sequence[str]], argument: str) -> None:
    """``check_segment_lengths`` for one list of references per hypothesis."""
    if max(map(len, chain.from_iterable(references)), default=0) > MAX_SEGMENT_CHARS:
        for index, refs in enumerate(references):
            check_segment_lengths(refs, f"{argument}[{index}]")


def check_segment_lengths(texts: Sequence[str], argument: str) -> None:
    """Raise ValueError naming the first text longer than ``MAX_SEGMENT_CHARS``."""
    if texts and max(map(len, texts)) > MAX_SEGMENT_CHARS:
        index = next(i for i, text in enumerate(texts) if len(text) > MAX_SEGMENT_CHARS)
        raise segment_too_long(f"{argument}[{index}]", len(texts[index]))


def segment_too_long(where: str, length: int) -> ValueError:
    """The error for a segment over ``MAX_SEGMENT_CHARS`` characters (``where``: e.g. ``hypotheses[3]``), the one
    Rust's read of lists raises (``src/python/lists.rs``).

    >>> str(segment_too_long("hypotheses[3]", 2_000_000)).split(";")[0]  # doctest: +ELLIPSIS
    'hypotheses[3] has 2,000,000 characters, more than the limit of ... per segment (the super-linear metrics ...'
    """
    return _core.segment_too_long_error(where, length, MAX_SEGMENT_CHARS)


def hypotheses_list(hypotheses: Iterable[str], argument: str = "hypotheses") -> list[str]:
    """Return the hypotheses as a new list of str, or raise TypeError naming the first bad item (ValueError for
    one over ``MAX_SEGMENT_CHARS``); ``argument`` is the name the errors use.

    Lists only: ``core.inputs.hypotheses_list`` also reads columns.

    >>> hypotheses_list(("a", "b"))
    ['a', 'b']
    >>> hypotheses_list(["a", None], "predictions")
    Traceback (most recent call last):
    TypeError: predictions[1] must be str, got NoneType
    """
    return _core.hypotheses_list(hypotheses, max_chars=MAX_SEGMENT_CHARS, argument=argument)


def references_lists(references: Iterable[Reference], n_hypotheses: int, argument: str = "references",
                     sacrebleu_metric: bool = False, one_each: bool = False) -> list[list[str]]:
    """Return one non-empty list of reference strings per hypothesis.

    ``references[i]`` is a string or a sequence of strings. Raises ValueError when the number of entries differs
    from ``n_hypotheses`` or an entry has no reference, TypeError on non-strings. ``sacrebleu_metric``: the metric
    is one of sacreBLEU's (BLEU, chrF, TER), whose users may pass sacreBLEU's stream layout; the shape that reads
    both ways (as many lists of references as hypotheses, each as long, whose transpose differs) is refused
    unless the references are ``PerHypothesis``. ``one_each``: the metric hands the references to Rust as they
    are, so one string per hypothesis is kept as those strings (``OneEach``), without a list built per segment.
    Lists only: ``core.inputs.references_lists`` also reads column-shaped references.

    >>> references_lists(["x", "y"], 2, one_each=True)
    ['x', 'y']
    >>> references_lists([["x"], []], 2)
    Traceback (most recent call last):
    ValueError: references[1] is empty: every hypothesis needs at least one reference
    """
    refs = _core.references_lists(references, n_hypotheses, max_chars=MAX_SEGMENT_CHARS, argument=argument,
                                  refuse_streams=sacrebleu_metric and not isinstance(references, PerHypothesis))
    if refs is not None:
        return PerHypothesis(refs)
    if one_each and references:  # a list of str, one per hypothesis
        return OneEach(references)
    return PerHypothesis([[reference] for reference in references])


def has_lone_surrogate(line: str) -> bool:
    """Whether ``line`` holds a lone surrogate code point, so that it is not valid Unicode text (no UTF-8).

    >>> has_lone_surrogate("ok"), has_lone_surrogate("bad \\ud800")
    (False, True)
    """
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def surrogate_location(hypotheses: list[str], references: list[list[str]], hypotheses_name: str = "hypotheses") -> str:
    """Names the first line holding a lone surrogate (a str that is not valid Unicode text).

    >>> surrogate_location(["ok", "bad \\ud800"], [], "outputs")
    'outputs[1] contains a lone surrogate code point and is not valid Unicode text'
    """
    if isinstance(references, OneEach):
        references = [[reference] for reference in references]
    for index, line in enumerate(hypotheses):
        if has_lone_surrogate(line):
            return f"{hypotheses_name}[{index}] contains a lone surrogate code point and is not valid Unicode text"
    for index, refs in enumerate(references):
        for ref_index, line in enumerate(refs):
            if has_lone_surrogate(line):
                return (f"references[{index}][{ref_index}] contains a lone surrogate code point "
                        "and is not valid Unicode text")
    return "the input contains a lone surrogate code point and is not valid Unicode text"

