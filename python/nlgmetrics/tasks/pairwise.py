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

from typing import Iterable, Optional, Sequence

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core import inputs as _validate
from nlgmetrics.metrics.bleu.sacrebleu import (
    _check_bool,
    _check_max_order,
    _check_smooth,
    _check_threads,
    _check_tokenize,
    _check_weights,
    _preprocess,
)
from nlgmetrics.metrics.chrf import check_chrf_options

__all__ = ["chrf_pairwise", "bleu_pairwise"]


def _surrogate_where(candidates: list[str], references: Optional[list[str]]) -> str:
    """Names the first string holding a lone surrogate (not valid Unicode text)."""
    for argument, lines in (("candidates", candidates), ("references", references or [])):
        for index, line in enumerate(lines):
            if _validate.has_lone_surrogate(line):
                return f"{argument}[{index}] contains a lone surrogate code point and is not valid Unicode text"
    return "the input contains a lone surrogate code point and is not valid Unicode text"


def chrf_pairwise(candidates: Iterable[str], references: Optional[Iterable[str]] = None, char_order: int = 6,
                  word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
                  eps_smoothing: bool = False, *, threads: Optional[int] = None) -> np.ndarray:
    """``matrix[i, j]`` = sentence chrF of ``candidates[i]`` against ``references[j]`` (float64).

    ``references`` defaults to the candidates themselves (the MBR case); ``threads`` defaults to
    all cores.

    >>> chrf_pairwise(["abc d"], ["x", "abc e"]).round(4).tolist()
    [[0.0, 47.9167]]
    """
    check_chrf_options(char_order, word_order, beta)
    cands = _validate.hypotheses_list(candidates, "candidates")
    refs = None if references is None else _validate.hypotheses_list(references, "references")
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be a bool, got {type(lowercase).__name__}")
    if lowercase:
        cands = [text.lower() for text in cands]
        refs = None if refs is None else [text.lower() for text in refs]
    try:
        options = {"char_order": char_order, "word_order": word_order, "beta": float(beta),
                   "whitespace": bool(whitespace), "eps_smoothing": bool(eps_smoothing)}
        return _core.chrf_pairwise(cands, refs, options, _check_threads(threads))
    except UnicodeEncodeError:
        raise ValueError(_surrogate_where(cands, refs)) from None


def bleu_pairwise(candidates: Iterable[str], references: Optional[Iterable[str]] = None, *, tokenize: str = "13a",
                  lowercase: bool = False, smooth: str = "exp", smooth_value: Optional[float] = None,
                  max_order: int = 4, effective_order: bool = True,
                  weights: Optional[Sequence[float]] = None, threads: Optional[int] = None) -> np.ndarray:
    """``matrix[i, j]`` = sacreBLEU ``sentence_bleu(candidates[i], [references[j]])`` (float64).

    Defaults are ``sacrebleu.sentence_bleu``'s: 13a tokenizer, exp smoothing, effective order.
    ``references`` defaults to the candidates themselves (the MBR case).

    >>> bleu_pairwise(["the cat sat on the mat"], ["the cat is on the mat"]).round(4).tolist()
    [[37.9918]]
    """
    cands = _validate.hypotheses_list(candidates, "candidates")
    refs = None if references is None else _validate.hypotheses_list(references, "references")
    tokenize = _check_tokenize(tokenize)
    lowercase = _check_bool(lowercase, "lowercase")
    smooth, smooth_value = _check_smooth(smooth, smooth_value)
    max_order = _check_max_order(max_order)
    weights = _check_weights(weights, max_order)
    effective_order = _check_bool(effective_order, "effective_order")
    cand_lines, core_tokenizer = _preprocess(cands, lowercase, tokenize)
    ref_lines = None if refs is None else _preprocess(refs, lowercase, tokenize)[0]
    options = {"tokenize": core_tokenizer, "max_order": max_order, "smooth": smooth,
               "smooth_value": None if smooth_value is None else float(smooth_value),
               "effective_order": effective_order, "weights": weights}
    try:
        return _core.bleu_pairwise(cand_lines, ref_lines, options, _check_threads(threads))
    except UnicodeEncodeError:
        raise ValueError(_surrogate_where(cands, refs)) from None
