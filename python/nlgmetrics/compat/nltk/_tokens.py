"""Token lists as NLTK takes them, handed to the Rust core: lists of ``str`` as they are, any other
hashable tokens (ints, tuples, a string read as characters, …) interned first, so Python's equality
decides what matches, as in NLTK."""

from __future__ import annotations

from typing import Any, Callable, Sequence


def interned(list_of_references: Sequence, hypotheses: Sequence) -> tuple[list, list]:
    """Every token replaced by an int id (the same id for equal tokens)."""
    ids: dict = {}

    def intern(tokens) -> list[int]:
        return [ids.setdefault(token, len(ids)) for token in tokens]

    return [intern(h) for h in hypotheses], [[intern(r) for r in refs] for refs in list_of_references]


def call_on_tokens(kernel: Callable[..., Any], list_of_references: Sequence, hypotheses: Sequence, *args: Any) -> Any:
    """``kernel(hypotheses, references, mode, *args)`` with ``mode`` "tokens" (all str) or "ids" (interned)."""
    try:
        return kernel(hypotheses, list_of_references, "tokens", *args)
    except TypeError:
        hyp_ids, ref_ids = interned(list_of_references, hypotheses)
        return kernel(hyp_ids, ref_ids, "ids", *args)


def check_lengths(list_of_references: Sequence, hypotheses: Sequence) -> None:
    """NLTK asserts this; the facades raise ValueError instead."""
    if len(list_of_references) != len(hypotheses):
        raise ValueError(
            f"The number of hypotheses and their reference(s) should be the same: "
            f"{len(hypotheses)} hypotheses, {len(list_of_references)} reference sets"
        )
