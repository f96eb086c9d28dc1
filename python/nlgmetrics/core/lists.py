"""Python lists as metric inputs, and the checks every input type shares (the segment length limit, lone
surrogates): clear errors that say what was wrong and where.

``core.inputs`` takes lists or columns; columns are read by ``core.columns``, which uses the checks here.
Nothing in this module imports the other two. Metrics that score lists as given (``Metric.list_scorer``:
sacreBLEU BLEU, chrF) have these same checks made in Rust while it reads the strs (``src/python/lists.rs``,
``SegmentScorer.score_lists``), and metrics that preprocess in Python before scoring in Rust
(``Metric.checks_lists_in_rust``: TER, the WER family, CharCut, CharacTER) get their lists from
``_core.check_lists`` (``core.inputs.checked_lists``); ``tests/test_list_checks_in_rust.py`` keeps them giving
the same errors as this module.

>>> hypotheses_list(["a", "b"])
['a', 'b']
>>> references_lists(["x", ["y", "z"]], n_hypotheses=2)
[['x'], ['y', 'z']]
"""

from __future__ import annotations

import os
from collections import abc
from itertools import chain
from typing import Iterable, Optional, Sequence, Union

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
    its shape is never ambiguous (see ``check_not_streams``)."""


def check_not_streams(references: Sequence[list], argument: str, n_entries: int = -1) -> None:
    """Refuse the one layout that reads two ways: as many lists of references as hypotheses, each as
    long as there are hypotheses (``bleu(["a", "b"], [stream_1, stream_2])``).

    nlgmetrics reads ``references[i]`` as the references of hypothesis ``i``; sacreBLEU's
    ``corpus_score(hypotheses, [stream_1, stream_2])`` reads ``references[k]`` as reference stream
    ``k``. When both readings give the same sets (a symmetric layout, or one hypothesis) it is fine;
    otherwise ValueError. Tuples mark per-hypothesis references (``list(zip(*streams))`` makes them).
    """
    n = len(references)
    if n < 2 or (n_entries != -1 and n_entries != n):
        return
    if min(map(len, references)) == max(map(len, references)) == n and list(map(list, zip(*references))) != references:
        raise ValueError(
            f"{argument} is ambiguous: {n} hypotheses and {n} lists of {n} references. nlgmetrics reads "
            f"{argument}[i] as the references of hypothesis i, sacreBLEU reads {argument}[k] as reference stream k "
            f"(one line per hypothesis). For sacreBLEU's streams pass list(zip(*streams)); for per-hypothesis "
            f"references pass each hypothesis's list as a tuple"
        )


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
    """The error for a segment over ``MAX_SEGMENT_CHARS`` characters (``where``: e.g. ``hypotheses[3]``)."""
    return ValueError(
        f"{where} has {length:,} characters, more than the limit of {MAX_SEGMENT_CHARS:,} "
        "per segment (the super-linear metrics would take minutes and gigabytes); split it, or set "
        "NLGMETRICS_MAX_SEGMENT_CHARS to raise the limit"
    )


def hypotheses_list(hypotheses: Iterable[str], argument: str = "hypotheses") -> list[str]:
    """Return the hypotheses as a list of str, or raise TypeError naming the first bad item.

    Lists only: ``core.inputs.hypotheses_list`` also reads columns.
    """
    if isinstance(hypotheses, (str, bytes)):
        raise TypeError(f"{argument} must be a sequence of strings, not a single {type(hypotheses).__name__}")
    try:
        items = list(hypotheses)
    except TypeError:
        raise TypeError(f"{argument} must be a sequence of strings, got {type(hypotheses).__name__}") from None
    if not set(map(type, items)) <= {str}:  # one C-level pass (the loop below names a bad item)
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise TypeError(f"{argument}[{index}] must be str, got {type(item).__name__}")
    check_segment_lengths(items, argument)
    return items


def references_lists(references: Iterable[Reference], n_hypotheses: int, argument: str = "references",  # noqa: C901
                     sacrebleu_metric: bool = False, one_each: bool = False) -> list[list[str]]:
    """Return one non-empty list of reference strings per hypothesis.

    ``references[i]`` is a string or a sequence of strings. Raises ValueError when the number of
    entries differs from ``n_hypotheses`` or an entry has no reference, TypeError on non-strings.
    ``sacrebleu_metric``: the metric is one of sacreBLEU's (BLEU, chrF, TER), whose users may pass
    sacreBLEU's stream layout; the shape that reads both ways is refused (``check_not_streams``).
    Lists only: ``core.inputs.references_lists`` also reads column-shaped references. ``one_each``: the metric hands the references to Rust as they are, so one string
    per hypothesis is kept as those strings (``OneEach``), without a list built per segment.
    """
    # Fast path for the usual shape (a list of non-empty lists of str): a few C-level passes instead
    # of a Python loop over segments. Anything else gets the full checks and their messages.
    if (isinstance(references, list) and type(references) in (list, PerHypothesis) and len(references) == n_hypotheses
            and set(map(type, references)) <= {list}
            and set(map(type, chain.from_iterable(references))) <= {str}
            and (not references or min(map(len, references)) > 0)):
        check_reference_lengths(references, argument)
        if type(references) is PerHypothesis:
            return references
        if sacrebleu_metric:
            check_not_streams(references, argument)
        return PerHypothesis(references)
    # Fast path for one reference string per hypothesis (the one-reference metrics' usual input).
    if type(references) is list and len(references) == n_hypotheses and set(map(type, references)) <= {str}:
        if one_each and max(map(len, references), default=0) <= MAX_SEGMENT_CHARS:
            return OneEach(references)
        wrapped = [[reference] for reference in references]
        check_reference_lengths(wrapped, argument)
        return PerHypothesis(wrapped)
    if isinstance(references, (str, bytes)):
        raise TypeError(f"{argument} must be a sequence (one entry per hypothesis), not a single {type(references).__name__}")
    try:
        entries = list(references)
    except TypeError:
        raise TypeError(f"{argument} must be a sequence, got {type(references).__name__}") from None
    if len(entries) != n_hypotheses:
        if entries and all(type(e) in (list, tuple) and len(e) == n_hypotheses for e in entries):
            raise ValueError(
                f"{argument} has {len(entries)} entries but there are {n_hypotheses} hypotheses; it looks like "
                f"sacreBLEU's layout ({len(entries)} reference streams of {n_hypotheses} strings): nlgmetrics takes one "
                f"entry per hypothesis, so pass list(zip(*{argument}))"
            )
        raise ValueError(f"{argument} has {len(entries)} entries but there are {n_hypotheses} hypotheses")
    result: list[list[str]] = []
    for index, entry in enumerate(entries):
        if type(entry) is str:
            result.append([entry])
            continue
        if type(entry) is list or type(entry) is tuple:
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
    check_reference_lengths(result, argument)
    if sacrebleu_metric and not isinstance(references, PerHypothesis):
        check_not_streams([e for e in entries if type(e) is list], argument, len(entries))
    return PerHypothesis(result)


def surrogate_location(hypotheses: list[str], references: list[list[str]], hypotheses_name: str = "hypotheses") -> str:
    """Names the first line holding a lone surrogate (a str that is not valid Unicode text).

    >>> surrogate_location(["ok", "bad \\ud800"], [], "outputs")
    'outputs[1] contains a lone surrogate code point and is not valid Unicode text'
    """
    if isinstance(references, OneEach):
        references = [[reference] for reference in references]
    def bad(line: str) -> bool:
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    for index, line in enumerate(hypotheses):
        if bad(line):
            return f"{hypotheses_name}[{index}] contains a lone surrogate code point and is not valid Unicode text"
    for index, refs in enumerate(references):
        for ref_index, line in enumerate(refs):
            if bad(line):
                return (f"references[{index}][{ref_index}] contains a lone surrogate code point "
                        "and is not valid Unicode text")
    return "the input contains a lone surrogate code point and is not valid Unicode text"

