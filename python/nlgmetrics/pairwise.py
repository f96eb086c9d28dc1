"""Sentence scores of every candidate against every reference, as a NumPy matrix.

Minimum-Bayes-risk decoding and reranking score each of N candidates against the others (or
against M pseudo-references). Each string is analysed once, then all pairs are scored in
parallel; every entry equals sacreBLEU's sentence score of that pair.

>>> import nlgmetrics
>>> matrix = nlgmetrics.chrf_pairwise(["the cat sat", "a cat sat", "the dog"])
>>> matrix.shape, float(matrix[0, 0])
((3, 3), 100.0)
"""

from __future__ import annotations

from typing import Iterable, Optional

import numpy as np

from . import _core, _validate
from .chrf import check_chrf_options

__all__ = ["chrf_pairwise"]


def chrf_pairwise(candidates: Iterable[str], references: Optional[Iterable[str]] = None, char_order: int = 6,
                  word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
                  eps_smoothing: bool = False) -> np.ndarray:
    """``matrix[i, j]`` = sentence chrF of ``candidates[i]`` against ``references[j]`` (float64).

    ``references`` defaults to the candidates themselves (the MBR case).

    >>> chrf_pairwise(["abc d"], ["x", "abc e"]).round(4).tolist()
    [[0.0, 47.9167]]
    """
    check_chrf_options(char_order, word_order, beta)
    cands = _validate.hypotheses_list(candidates, "candidates")
    refs = None if references is None else _validate.hypotheses_list(references, "references")
    if lowercase:
        cands = [text.lower() for text in cands]
        refs = None if refs is None else [text.lower() for text in refs]
    return _core.chrf_pairwise(cands, refs, char_order, word_order, float(beta), whitespace, eps_smoothing)
