"""Drop-in for ``nltk.translate.nist_score`` (NLTK 3.10.4): ``sentence_nist``, ``corpus_nist``,
``nist_length_penalty``.

Same arguments, values and quirks: information weights from the n-gram counts of all references,
the best reference chosen per order, ``ZeroDivisionError`` when an order has no hypothesis n-gram in
the whole corpus (e.g. a sentence shorter than ``n`` words). Counting and information sums in Rust
(with Python's own ``sum()`` arithmetic: compensated from CPython 3.12 on, as there).

>>> from nlgmetrics.compat.nltk.nist_score import sentence_nist
>>> hyp = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
>>> ref = "It is a guide to action that ensures that the military will forever heed Party commands".split()
>>> round(sentence_nist([ref], hyp), 4)
2.4477
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from nlgmetrics import _core
from nlgmetrics.compat.nltk._tokens import call_on_tokens, check_lengths

__all__ = ["corpus_nist", "nist_length_penalty", "sentence_nist"]

def nist_length_penalty(ref_len: int, hyp_len: int) -> float:
    """Doddington (2002) eq. 3: exp(β · log²(min(hyp_len / ref_len, 1))), β making it 0.5 at a ratio of 2/3."""
    ratio = hyp_len / ref_len
    if 0 < ratio < 1:
        ratio_x, score_x = 1.5, 0.5
        beta = math.log(score_x) / math.log(ratio_x) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


def score_from_rows(rows: np.ndarray, n: int) -> float:
    """NLTK's corpus arithmetic on statistics rows ``[info_1..n, ngrams_1..n, ref_len_1..n, hyp_len]``.

    Information is summed segment after segment (``np.add.accumulate`` is sequential, as NLTK's ``+=``);
    raises ZeroDivisionError where NLTK does.
    """
    if len(rows) == 0:
        raise ZeroDivisionError("division by zero (no segment)")
    nist_precision: float = 0
    for order in range(n):
        information = float(np.add.accumulate(rows[:, order])[-1])
        ngrams = int(rows[:, n + order].sum())
        nist_precision += information / ngrams
    ref_len = int(rows[:, 2 * n:3 * n].sum())
    hyp_len = int(rows[:, 3 * n].sum()) * n
    return nist_precision * nist_length_penalty(ref_len, hyp_len)


def corpus_nist(list_of_references: Sequence, hypotheses: Sequence, n: int = 5) -> float:
    """Corpus NIST as ``nltk.translate.nist_score.corpus_nist`` (ValueError where NLTK asserts)."""
    check_lengths(list_of_references, hypotheses)
    for index, references in enumerate(list_of_references):
        if len(references) == 0:
            raise ValueError(f"list_of_references[{index}] is empty (nltk: max() arg is an empty sequence)")
    if n < 1:
        raise ZeroDivisionError("division by zero (n < 1: no n-gram order)")
    rows = call_on_tokens(_core.nist_stats, {"n": n}, list_of_references, hypotheses)
    return score_from_rows(rows, n)


def sentence_nist(references: Sequence, hypothesis: Sequence, n: int = 5) -> float:
    """Sentence NIST as ``nltk.translate.nist_score.sentence_nist`` (a one-segment corpus)."""
    return corpus_nist([references], [hypothesis], n)
