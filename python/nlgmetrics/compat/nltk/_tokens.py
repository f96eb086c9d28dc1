"""Token lists as NLTK takes them, handed to the Rust core: lists of ``str`` as they are, any other
hashable tokens (ints, tuples, a string read as characters, …) interned first, so Python's equality
decides what matches, as in NLTK."""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence

import numpy as np

from nlgmetrics.core.segment import segment_scorer


def interned(list_of_references: Sequence, hypotheses: Sequence) -> tuple[list, list]:
    """Every token replaced by an int id (the same id for equal tokens).

    Unhashable tokens (lists, …) work too, as in NLTK's RIBES: ids are then found by ``==`` alone.
    """
    try:
        ids: dict = {}
        return _apply(lambda token: ids.setdefault(token, len(ids)), list_of_references, hypotheses)
    except TypeError:
        seen: list = []

        def by_equality(token) -> int:
            for index, known in enumerate(seen):
                if known == token:
                    return index
            seen.append(token)
            return len(seen) - 1

        return _apply(by_equality, list_of_references, hypotheses)


def _apply(token_id, list_of_references: Sequence, hypotheses: Sequence) -> tuple[list, list]:
    def ids_of(tokens) -> list[int]:
        return [token_id(token) for token in tokens]

    return [ids_of(h) for h in hypotheses], [[ids_of(r) for r in refs] for refs in list_of_references]


def call_on_tokens(kernel: Callable[..., Any], options: Dict[str, Any], list_of_references: Sequence,
                   hypotheses: Sequence) -> Any:
    """``kernel(hypotheses, references, options)`` with ``options["tokenize"]`` "tokens" (all str) or "ids"
    (interned)."""
    try:
        return kernel(hypotheses, list_of_references, {**options, "tokenize": "tokens"})
    except TypeError:
        hyp_ids, ref_ids = interned(list_of_references, hypotheses)
        return kernel(hyp_ids, ref_ids, {**options, "tokenize": "ids"})


def token_rows(name: str, options: Dict[str, Any], list_of_references: Sequence, hypotheses: Sequence) -> np.ndarray:
    """The statistics rows of Rust segment metric ``name`` (``_core.SegmentScorer``) on NLTK's token lists:
    lists of str as they are (``tokenize="tokens"``), any other tokens interned first (``"ids"``); a segment
    may have no reference, as in NLTK (``allow_no_reference``).

    >>> token_rows("gleu", {"min_len": 1, "max_len": 2}, [[["a", "b"]], []], [["a", "b"], [1]]).tolist()
    [[3, 3], [0, 0]]
    """
    options = {**options, "allow_no_reference": True}
    on_tokens = segment_scorer(name, {**options, "tokenize": "tokens"})
    try:
        return on_tokens.segment_stats(hypotheses, list_of_references)[0]
    except TypeError:
        hyp_ids, ref_ids = interned(list_of_references, hypotheses)
        return segment_scorer(name, {**options, "tokenize": "ids"}).segment_stats(hyp_ids, ref_ids)[0]


def check_lengths(list_of_references: Sequence, hypotheses: Sequence) -> None:
    """NLTK asserts this; the facades raise ValueError instead."""
    if len(list_of_references) != len(hypotheses):
        raise ValueError(
            f"The number of hypotheses and their reference(s) should be the same: "
            f"{len(hypotheses)} hypotheses, {len(list_of_references)} reference sets"
        )
