"""Input checks shared by every metric: clear errors that say what was wrong and where.

>>> hypotheses_list(["a", "b"])
['a', 'b']
>>> references_lists(["x", ["y", "z"]], n_hypotheses=2)
[['x'], ['y', 'z']]
"""

from __future__ import annotations

from collections import abc
from itertools import chain
from typing import Iterable, Sequence, Union

from nlgmetrics.io import columns

Reference = Union[str, Sequence[str]]


def hypotheses_list(hypotheses: Iterable[str], argument: str = "hypotheses") -> list[str]:
    """Return the hypotheses as a list of str, or raise TypeError naming the first bad item.

    A column (pandas/polars Series, PyArrow or NumPy array) gives its strings (see ``nlgmetrics.io.columns``).
    """
    if columns.is_column(hypotheses):
        return columns.column_strings(hypotheses, argument)
    if isinstance(hypotheses, (str, bytes)):
        raise TypeError(f"{argument} must be a sequence of strings, not a single {type(hypotheses).__name__}")
    try:
        items = list(hypotheses)
    except TypeError:
        raise TypeError(f"{argument} must be a sequence of strings, got {type(hypotheses).__name__}") from None
    if not all(type(item) is str for item in items):
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise TypeError(f"{argument}[{index}] must be str, got {type(item).__name__}")
    return items


def references_lists(references: Iterable[Reference], n_hypotheses: int, argument: str = "references") -> list[list[str]]:
    """Return one non-empty list of reference strings per hypothesis.

    ``references[i]`` is a string or a sequence of strings. Raises ValueError when the number of
    entries differs from ``n_hypotheses`` or an entry has no reference, TypeError on non-strings.
    Column-shaped references (a column, a list column, several columns, a DataFrame) are read by
    ``nlgmetrics.io.columns``.
    """
    if columns.is_columnar((), references):
        return columns.reference_lists(references, n_hypotheses, argument)
    # Fast path for the usual shape (a list of non-empty lists of str): a few C-level passes instead
    # of a Python loop over segments. Anything else gets the full checks and their messages.
    if (type(references) is list and len(references) == n_hypotheses
            and set(map(type, references)) <= {list}
            and set(map(type, chain.from_iterable(references))) <= {str}
            and (not references or min(map(len, references)) > 0)):
        return references
    if isinstance(references, (str, bytes)):
        raise TypeError(f"{argument} must be a sequence (one entry per hypothesis), not a single {type(references).__name__}")
    try:
        entries = list(references)
    except TypeError:
        raise TypeError(f"{argument} must be a sequence, got {type(references).__name__}") from None
    if len(entries) != n_hypotheses:
        raise ValueError(f"{argument} has {len(entries)} entries but there are {n_hypotheses} hypotheses")
    result = []
    for index, entry in enumerate(entries):
        entry_type = type(entry)
        if entry_type is str:
            result.append([entry])
            continue
        if entry_type is list or entry_type is tuple:
            refs = list(entry)
        elif isinstance(entry, str):
            result.append([str(entry)])
            continue
        elif isinstance(entry, bytes) or not isinstance(entry, abc.Iterable):
            raise TypeError(f"{argument}[{index}] must be a str or a sequence of str, got {type(entry).__name__}")
        else:
            refs = list(entry)
        if not refs:
            raise ValueError(f"{argument}[{index}] is empty: every hypothesis needs at least one reference")
        for ref_index, ref in enumerate(refs):
            if type(ref) is not str and not isinstance(ref, str):
                raise TypeError(f"{argument}[{index}][{ref_index}] must be str, got {type(ref).__name__}")
        result.append(refs)
    return result


def surrogate_location(hypotheses: list[str], references: list[list[str]]) -> str:
    """Names the first line holding a lone surrogate (a str that is not valid Unicode text)."""
    def bad(line: str) -> bool:
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    for index, line in enumerate(hypotheses):
        if bad(line):
            return f"hypotheses[{index}] contains a lone surrogate code point and is not valid Unicode text"
    for index, refs in enumerate(references):
        for ref_index, line in enumerate(refs):
            if bad(line):
                return (f"references[{index}][{ref_index}] contains a lone surrogate code point "
                        "and is not valid Unicode text")
    return "the input contains a lone surrogate code point and is not valid Unicode text"

