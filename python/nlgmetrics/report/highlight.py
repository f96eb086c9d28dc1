"""What to highlight in an example: matched n-grams (BLEU words, chrF characters) and ROUGE-L's subsequence.

>>> matched_orders("the cat sat".split(), ["the cat is here".split()])
[2, 2, 0]
>>> sorted(lcs_positions("a b c d".split(), "a c d".split()))
[0, 2, 3]
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import List, Sequence, Set


def matched_orders(hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int = 4) -> List[int]:
    """Per hypothesis item, the longest order of a matched n-gram covering it (0: unmatched).

    An n-gram matches as often as the reference that holds it most often (BLEU's clipping); occurrences are
    assigned left to right, longest orders first.
    """
    levels = [0] * len(hypothesis)
    for order in range(max_order, 0, -1):
        budget: Counter = Counter()
        for reference in references:
            counts = Counter(tuple(reference[i:i + order]) for i in range(len(reference) - order + 1))
            for gram, count in counts.items():
                budget[gram] = max(budget[gram], count)
        for start in range(len(hypothesis) - order + 1):
            gram = tuple(hypothesis[start:start + order])
            if budget[gram] > 0:
                budget[gram] -= 1
                for position in range(start, start + order):
                    levels[position] = max(levels[position], order)
    return levels


def lcs_positions(hypothesis: Sequence[str], reference: Sequence[str]) -> Set[int]:
    """Positions of the hypothesis in one longest common subsequence with the reference (ROUGE-L)."""
    n, m = len(hypothesis), len(reference)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if hypothesis[i] == reference[j] else max(below[j], row[j + 1])
    positions, i, j = set(), 0, 0
    while i < n and j < m:
        if hypothesis[i] == reference[j]:
            positions.add(i)
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return positions


def best_lcs_positions(hypothesis: Sequence[str], references: Sequence[Sequence[str]]) -> Set[int]:
    """The LCS positions against the reference with the longest LCS."""
    return max((lcs_positions(hypothesis, reference) for reference in references), key=len, default=set())


def is_wide(token: str) -> bool:
    """A single East Asian wide character (Chinese, Japanese kana…): shown without spaces around it."""
    return len(token) == 1 and unicodedata.east_asian_width(token) in ("W", "F")
