"""Drop-in for ``nltk.translate.ribes_score`` (NLTK 3.10.4): ``sentence_ribes``, ``corpus_ribes``,
``word_rank_alignment``, ``kendall_tau``, ``spearman_rho``, ``find_increasing_sequences``,
``position_of_ngram`` and ``MAX_ALIGNMENT_LEN``.

Same arguments and values; the word alignment runs in Rust in O(|hyp|·(|hyp|+|ref|)) (NLTK's window
search is super-linear), and sentences longer than ``MAX_ALIGNMENT_LEN`` (read at call time, so it
can be raised as in NLTK) are refused with ValueError as there.

>>> from nlgmetrics.compat.nltk.ribes_score import word_rank_alignment, kendall_tau
>>> word_rank_alignment("John hit Bob yesterday".split(), "Bob hit John yesterday".split())
[2, 1, 0, 3]
>>> kendall_tau([2, 1, 0, 3])
0.5
"""

from __future__ import annotations

import math
from itertools import islice
from typing import Iterator, Sequence

from nlgmetrics import _core
from nlgmetrics.compat.nltk._tokens import interned, token_rows

__all__ = [
    "MAX_ALIGNMENT_LEN", "choose", "corpus_ribes", "find_increasing_sequences", "kendall_tau", "position_of_ngram",
    "sentence_ribes", "spearman_rho", "word_rank_alignment",
]

#: Longest reference or hypothesis aligned (NLTK's limit; raise it for longer sequences).
MAX_ALIGNMENT_LEN = 2000


def _check_length(reference: Sequence, hypothesis: Sequence) -> None:
    if max(len(reference), len(hypothesis)) > MAX_ALIGNMENT_LEN:
        raise ValueError(
            f"word_rank_alignment: sequence length exceeds MAX_ALIGNMENT_LEN ({MAX_ALIGNMENT_LEN}); raise "
            "nlgmetrics.compat.nltk.ribes_score.MAX_ALIGNMENT_LEN for longer sequences."
        )


def choose(n: int, k: int) -> int:
    """The binomial coefficient C(n, k), 0 outside 0 <= k <= n (``nltk.util.choose``, which NLTK's module exposes)."""
    return math.comb(n, k) if 0 <= k <= n else 0


def word_rank_alignment(reference: Sequence, hypothesis: Sequence, character_based: bool = False) -> list:
    """The worder list: for each aligned hypothesis word, its position in the reference (NLTK's rules)."""
    _check_length(reference, hypothesis)
    (hyp_ids,), ((ref_ids,),) = interned([[reference]], [hypothesis])
    worder, _tau = _core.ribes_alignment(ref_ids, hyp_ids)
    return worder


def kendall_tau(worder: Sequence[int], normalize: bool = True) -> float:
    """Kendall's τ of a worder: 2 · (pairs i < j with worder[i] < worder[j]) / C(len, 2) − 1 (0–1 if normalised)."""
    worder_len = len(worder)
    if worder_len < 2:
        tau: float = -1
    else:
        increasing = sum(1 for i in range(worder_len) for j in range(i + 1, worder_len) if worder[i] < worder[j])
        tau = 2 * increasing / choose(worder_len, 2) - 1
    return (tau + 1) / 2 if normalize else tau


def spearman_rho(worder: Sequence[int], normalize: bool = True) -> float:
    """Spearman's ρ of a worder: 1 − Σ (worder[i] − i)² / C(len + 1, 3) (0–1 if normalised)."""
    worder_len = len(worder)
    sum_d_square = sum((wi - i) ** 2 for wi, i in zip(worder, range(worder_len)))
    rho = 1 - sum_d_square / choose(worder_len + 1, 3)
    return (rho + 1) / 2 if normalize else rho


def find_increasing_sequences(worder: Sequence[int]) -> Iterator[tuple]:
    """The runs of consecutive +1 steps of a worder, of length ≥ 2, as tuples."""
    run: list = []
    for value in worder:
        if run and run[-1] + 1 == value:
            run.append(value)
            continue
        if len(run) > 1:
            yield tuple(run)
        run = [value]
    if len(run) > 1:
        yield tuple(run)


def position_of_ngram(ngram: tuple, sentence: Sequence):
    """The index of the first occurrence of ``ngram`` in ``sentence`` (None if absent)."""
    size = len(ngram)
    for index in range(len(sentence) - size + 1):
        if tuple(islice(sentence, index, index + size)) == tuple(ngram):
            return index
    return None


def _scores(list_of_references: Sequence, hypotheses: Sequence, alpha: float, beta: float) -> list:
    options = {"alpha": float(alpha), "beta": float(beta), "max_alignment_len": MAX_ALIGNMENT_LEN}
    return token_rows("ribes", options, list_of_references, hypotheses)[:, 0].tolist()


def sentence_ribes(references: Sequence, hypothesis: Sequence, alpha: float = 0.25, beta: float = 0.10) -> float:
    """The best RIBES over the references: nkt · p1^alpha · bp^beta (0.0 without reference or hypothesis)."""
    return _scores([references], [hypothesis], alpha, beta)[0]


def corpus_ribes(list_of_references: Sequence, hypotheses: Sequence, alpha: float = 0.25, beta: float = 0.10) -> float:
    """The mean of the sentence scores (0.0 for no hypothesis), as ``nltk.translate.ribes_score.corpus_ribes``."""
    if not hypotheses:
        return 0.0
    if len(list_of_references) != len(hypotheses):
        raise ValueError("The number of reference sets must match the number of hypotheses.")
    corpus_best_ribes = 0.0
    for score in _scores(list_of_references, hypotheses, alpha, beta):
        corpus_best_ribes += score
    return corpus_best_ribes / len(hypotheses)
