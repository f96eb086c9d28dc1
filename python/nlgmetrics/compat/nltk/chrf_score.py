"""Drop-in for ``nltk.translate.chrf_score`` (NLTK 3.10.4): ``sentence_chrf``, ``corpus_chrf`` and
``chrf_precision_recall_fscore_support``.

NLTK's chrF, not sacreBLEU's: one reference per hypothesis, β = 3, whitespace removed by default, an
F-score per order and sentence (``1e-16`` where a division fails) averaged over orders and sentences.
Character n-grams are counted in Rust; the sums use Python's ``sum()`` as NLTK does.

>>> from nlgmetrics.compat.nltk.chrf_score import sentence_chrf
>>> round(sentence_chrf("the cat is on the mat", "the the the the the the the"), 4)
0.1468
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence, Union

from nlgmetrics.core.segment import segment_scorer

__all__ = ["chrf_precision_recall_fscore_support", "corpus_chrf", "sentence_chrf"]

Sentence = Union[str, Sequence[str]]


def _joined(sentence: Sentence) -> str:
    """NLTK's ``_preprocess`` first step: a list of tokens becomes one space-separated string."""
    if type(sentence) != str:  # noqa: E721 — NLTK tests the exact type
        return " ".join(sentence)
    return sentence


def chrf_precision_recall_fscore_support(reference, hypothesis, n, beta=3.0, epsilon=1e-16):
    """Precision, recall, F-score and true positives of the order-``n`` n-grams of two sequences."""
    ref_ngrams = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    hyp_ngrams = Counter(tuple(hypothesis[i:i + n]) for i in range(len(hypothesis) - n + 1))
    tp = sum((ref_ngrams & hyp_ngrams).values())
    tpfp, tpfn = sum(hyp_ngrams.values()), sum(ref_ngrams.values())
    try:
        prec, rec = tp / tpfp, tp / tpfn
        factor = beta ** 2
        fscore = (1 + factor) * (prec * rec) / (factor * prec + rec)
    except ZeroDivisionError:
        prec = rec = fscore = epsilon
    return prec, rec, fscore, tp


def corpus_chrf(references: Sequence[Sentence], hypotheses: Sequence[Sentence], min_len: int = 1, max_len: int = 6,
                beta: float = 3.0, ignore_whitespace: bool = True) -> float:
    """Macro-averaged chrF over orders ``min_len..max_len`` and sentences (ValueError where NLTK asserts)."""
    if len(references) != len(hypotheses):
        raise ValueError("The number of hypotheses and their references should be the same")
    if min_len > max_len or not hypotheses:
        raise ZeroDivisionError("division by zero (no n-gram order or no sentence)")
    if min_len < 1:
        raise ValueError(f"min_len must be at least 1, got {min_len}")
    hyps = [_joined(h) for h in hypotheses]
    refs = [_joined(r) for r in references]
    options = {"min_len": min_len, "max_len": max_len, "beta": float(beta), "ignore_whitespace": bool(ignore_whitespace)}
    rows, _ = segment_scorer("chrf_nltk", options).segment_stats(hyps, refs)
    # NLTK: per order the sum over sentences, then the sum over orders, with built-in sum() (rows end in a count).
    total_scores = [sum(column) for column in rows[:, :-1].T.tolist()]
    return (sum(total_scores) / len(total_scores)) / len(hypotheses)


def sentence_chrf(reference: Sentence, hypothesis: Sentence, min_len: int = 1, max_len: int = 6, beta: float = 3.0,
                  ignore_whitespace: bool = True) -> float:
    """Sentence chrF as ``nltk.translate.chrf_score.sentence_chrf`` (a one-sentence corpus)."""
    return corpus_chrf([reference], [hypothesis], min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace)

