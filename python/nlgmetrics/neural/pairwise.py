"""What the model-based pairwise matrices (``comet_pairwise``, ``bertscore_pairwise``) check of their candidates.

Their result is an ``(N, N)`` float64 matrix and their work grows with N² pairs, so N is bounded: 10,000
candidates give 100 million pairs and an 800 MB matrix. More is refused with a clear error rather than left
to exhaust memory or run for days.
"""

from __future__ import annotations

from typing import Any, List

__all__ = ["MAX_CANDIDATES", "pairwise_candidates"]

#: The most candidates one pairwise call takes.
MAX_CANDIDATES = 10_000


def pairwise_candidates(candidates: Any) -> List[str]:
    """The candidates as a list of str, checked as hypotheses are, and at most ``MAX_CANDIDATES`` of them.

    >>> pairwise_candidates(["a", "b"])
    ['a', 'b']
    >>> pairwise_candidates(["a"] * 10_001)
    Traceback (most recent call last):
    ...
    ValueError: 10,001 candidates: a pairwise call takes at most 10,000 (N² pairs, an N × N matrix); split them
    """
    from nlgmetrics.core.inputs import hypotheses_list

    lines = hypotheses_list(candidates, "candidates")
    if len(lines) > MAX_CANDIDATES:
        raise ValueError(f"{len(lines):,} candidates: a pairwise call takes at most {MAX_CANDIDATES:,} "
                         "(N² pairs, an N × N matrix); split them")
    return lines
