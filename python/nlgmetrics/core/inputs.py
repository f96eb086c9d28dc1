"""Metric inputs, lists or columns: the checks every metric runs, with clear errors that say what was wrong and where.

Two input types, one module each: Python lists (``core.lists``, which also holds the checks both share: the
segment length limit, lone surrogates) and in-memory columns — pandas/polars Series, PyArrow and NumPy arrays
(``core.columns``). ``hypotheses_list`` and ``references_lists`` here take either. The imports go one way:
``inputs`` → ``columns`` → ``lists``; ``nlgmetrics.io`` (storage: files, tables, partitions) depends on ``core``,
never back.

>>> hypotheses_list(["a", "b"])
['a', 'b']
>>> references_lists(["x", ["y", "z"]], n_hypotheses=2)
[['x'], ['y', 'z']]
"""

from __future__ import annotations

from typing import Any, Iterable, Tuple

from nlgmetrics import _core
from nlgmetrics.core import columns, lists
from nlgmetrics.core.lists import (
    DEFAULT_MAX_SEGMENT_CHARS,
    MAX_SEGMENT_CHARS,
    OneEach,
    PerHypothesis,
    Reference,
    check_reference_lengths,
    check_segment_lengths,
    has_lone_surrogate,
    segment_too_long,
    surrogate_location,
)

__all__ = [
    "DEFAULT_MAX_SEGMENT_CHARS", "MAX_SEGMENT_CHARS", "OneEach", "PerHypothesis", "Reference",
    "checked_lists", "check_reference_lengths", "check_segment_lengths", "has_lone_surrogate", "hypotheses_list", "references_lists", "segment_too_long",
    "surrogate_location",
]


def hypotheses_list(hypotheses: Iterable[str], argument: str = "hypotheses") -> list[str]:
    """Return the hypotheses as a list of str, or raise TypeError naming the first bad item.

    A column (pandas/polars Series, PyArrow or NumPy array) gives its strings (see ``nlgmetrics.core.columns``).
    """
    if columns.is_column(hypotheses):
        return columns.column_strings(hypotheses, argument)
    return lists.hypotheses_list(hypotheses, argument)


def references_lists(references: Iterable[Reference], n_hypotheses: int, argument: str = "references",
                     sacrebleu_metric: bool = False, one_each: bool = False) -> list[list[str]]:
    """Return one non-empty list of reference strings per hypothesis (``core.lists.references_lists``).

    Column-shaped references (a column, a list column, several columns, a DataFrame) are read by
    ``nlgmetrics.core.columns``.
    """
    if columns.is_columnar((), references):
        return columns.reference_lists(references, n_hypotheses, argument)
    return lists.references_lists(references, n_hypotheses, argument, sacrebleu_metric=sacrebleu_metric,
                                  one_each=one_each)


def checked_lists(hypotheses: Any, references: Any, *, refuse_streams: bool = False,
                  one_each: bool = False) -> Tuple[list, list]:
    """``hypotheses_list`` and ``references_lists`` of Python lists in one read by Rust (``_core.check_lists``: the
    same checks and messages, no Python pass over the items), for metrics that preprocess the text in Python
    before their scorer reads it. ``refuse_streams``: sacreBLEU's metrics (their stream layout); ``one_each``:
    references given as one str per hypothesis stay those strs (``OneEach``).

    >>> checked_lists(["a", "b"], ["x", ["y", "z"]])
    (['a', 'b'], [['x'], ['y', 'z']])
    >>> checked_lists(["a"], ["x"], one_each=True)
    (['a'], ['x'])
    """
    hyps, refs, _ = _core.check_lists(hypotheses, references, max_chars=lists.MAX_SEGMENT_CHARS,
                                      refuse_streams=refuse_streams and not isinstance(references, PerHypothesis))
    if refs is None:  # a list of str, one per hypothesis (none: an empty batch, as the Python checks give it)
        return hyps, OneEach(references) if one_each and references else PerHypothesis([[ref] for ref in references])
    return hyps, PerHypothesis(refs)
