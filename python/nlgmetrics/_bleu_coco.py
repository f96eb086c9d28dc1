"""The ``coco`` BLEU preset: pycocoevalcap 1.2's ``Bleu(4)`` (``bleu/bleu_scorer.py``), reproduced exactly.

Captions are split on whitespace (``str.split()``; pycocoevalcap expects PTB-tokenized,
lower-cased captions). Per image the Rust core records the caption length, its reference
lengths and the clipped n-gram matches; scores use pycocoevalcap's epsilons (``1e-15`` added to
matches, ``1e-9`` to n-gram totals and the reference length) and its brevity penalty. Scale: 0–1.

``ref_length`` picks each image's reference length: ``"closest"`` (what ``Bleu.compute_score``
uses; the shorter reference on ties), ``"shortest"`` or ``"average"`` (the other
``BleuScorer.compute_score`` options).

>>> corpus, per_image = coco_bleu(["a man rides a horse"], [["a man rides a horse", "a person on a horse"]])
>>> [round(score, 6) for score in corpus]
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import _core

REF_LENGTH_OPTIONS = ("closest", "shortest", "average")
MAX_ORDER = 4  # pycocoevalcap counts n-grams up to 4 only


def image_stats(captions: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
    """Per-image rows ``[testlen, closest_reflen, shortest_reflen, sum_reflen, n_refs, guess_1..4,
    correct_1..4]`` (uint64); inputs must already be validated lists of str."""
    return _core.bleu_coco_stats(captions, references)


def scores_from_stats(stats: np.ndarray, n: int = 4, ref_length: str = "closest") -> tuple[list, list]:
    """``(corpus[k], per_image[k][i])`` for BLEU-1..n, as ``BleuScorer.compute_score`` returns them."""
    if ref_length not in REF_LENGTH_OPTIONS:
        raise ValueError(f"ref_length must be one of {REF_LENGTH_OPTIONS}, got {ref_length!r}")
    if not 1 <= n <= MAX_ORDER:
        raise ValueError(f"max_order must be between 1 and {MAX_ORDER} for the coco preset, got {n}")
    return _core.bleu_coco_scores(stats, n, ref_length)


def coco_bleu(captions: Sequence[str], references: Sequence[Sequence[str]], n: int = 4,
              ref_length: str = "closest") -> tuple[list, list]:
    """BLEU-1..n of whitespace-tokenized captions, corpus and per image (lists of floats)."""
    return scores_from_stats(image_stats(list(captions), [list(refs) for refs in references]), n, ref_length)


def totals(stats: np.ndarray, ref_length: str = "closest") -> dict:
    """pycocoevalcap's ``totalcomps``: summed test/ref lengths, guesses and matches."""
    summed = stats.sum(axis=0, dtype=np.uint64) if len(stats) else np.zeros(5 + 2 * MAX_ORDER, dtype=np.uint64)
    if ref_length == "average":
        reflen = 0
        for row in stats:  # pycocoevalcap adds float means one image at a time
            reflen += float(int(row[3])) / int(row[4])
    elif ref_length == "shortest":
        reflen = int(summed[2])
    else:
        reflen = int(summed[1])
    return {
        "testlen": int(summed[0]),
        "reflen": reflen,
        "guess": [int(v) for v in summed[5 : 5 + MAX_ORDER]],
        "correct": [int(v) for v in summed[5 + MAX_ORDER :]],
    }
