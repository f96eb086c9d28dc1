"""chrF and chrF++ exactly as sacreBLEU 2.6.0 computes them, in Rust.

chrF is the F-beta score of character n-gram precision and recall averaged over orders 1..6
(Popović 2015); chrF++ adds word unigrams and bigrams (``word_order=2``, Popović 2017). The corpus
score comes from statistics summed over segments; a segment with several references keeps the
statistics of its best reference (highest sentence chrF, the first on ties), like sacreBLEU.

>>> import nlgmetrics
>>> result = nlgmetrics.chrf(["The cat sat on the mat."], [["The cat is on the mat."]])
>>> print(result)
chrF2 = 67.17
>>> round(nlgmetrics.sentence_chrf("The cat sat on the mat.", "The cat is on the mat.", word_order=2).score, 3)
69.437
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Real
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from nlgmetrics.core import inputs as _validate
from nlgmetrics import _core
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu.sacrebleu import _check_threads, _surrogate_location

__all__ = ["CHRFResult", "chrf", "sentence_chrf", "check_chrf_options", "chrf_signature"]


def check_chrf_options(char_order: int, word_order: int, beta: float) -> None:
    """Raise TypeError/ValueError naming the first bad chrF option."""
    for name, value in (("char_order", char_order), ("word_order", word_order)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
    if char_order + word_order == 0:
        raise ValueError("char_order + word_order must be at least 1")
    if isinstance(beta, bool) or not isinstance(beta, Real):
        raise TypeError(f"beta must be a number, got {type(beta).__name__}")
    if not beta > 0 or beta != beta or beta == float("inf"):
        raise ValueError(f"beta must be a positive finite number, got {beta}")


def chrf_signature(n_refs: Union[int, str], char_order: int, word_order: int, lowercase: bool,
                   whitespace: bool, eps_smoothing: bool) -> Signature:
    """sacreBLEU's chrF signature fields, in its order."""
    return Signature("chrF", (
        ("nrefs", str(n_refs)),
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "no" if eps_smoothing else "yes"),
        ("nc", str(char_order)),
        ("nw", str(word_order)),
        ("space", "yes" if whitespace else "no"),
    ))


def _n_refs_field(references: list[list[str]]) -> Union[int, str]:
    counts = {len(refs) for refs in references}
    return counts.pop() if len(counts) == 1 else "var"


@dataclass(frozen=True, eq=False)
class CHRFResult:
    """A chrF/chrF++ score with its per-segment statistics.

    ``segment_stats`` has one row per segment and ``3 * (char_order + word_order)`` int64 columns:
    for each order (characters first, then words) the hypothesis n-grams, reference n-grams and
    matches (sacreBLEU's layout). Summed rows give the corpus score (``_core.chrf_score``).
    """

    score: float
    char_order: int
    word_order: int
    beta: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    @property
    def stats(self) -> np.ndarray:
        """Alias of ``segment_stats``."""
        return self.segment_stats

    @property
    def name(self) -> str:
        """sacreBLEU's name: ``chrF2`` for chrF, ``chrF2++`` for chrF++."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.2f}"

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "score": self.score,
            "char_order": self.char_order,
            "word_order": self.word_order,
            "beta": self.beta,
            "signature": str(self.signature),
            "segment_scores": self.segment_scores.tolist(),
        }


def chrf_from_lists(hypotheses: list[str], references: list[list[str]], char_order: int, word_order: int,
                    beta: float, lowercase: bool, whitespace: bool, eps_smoothing: bool,
                    threads: Optional[int] = None) -> CHRFResult:
    """chrF of already validated inputs (one non-empty reference list per hypothesis)."""
    if lowercase:
        # Python's own lowercasing is the reference's rule (full Unicode case mapping).
        hypotheses = [hyp.lower() for hyp in hypotheses]
        references = [[ref.lower() for ref in refs] for refs in references]
    try:
        stats, segment_scores = _core.chrf_segment_stats(
            hypotheses, references, char_order, word_order, float(beta), bool(whitespace), bool(eps_smoothing),
            threads)
    except UnicodeEncodeError:
        raise ValueError(_surrogate_location(hypotheses, references)) from None
    totals = stats.sum(axis=0, dtype=np.int64).tolist() if len(stats) else [0] * (3 * (char_order + word_order))
    score = _core.chrf_score(totals, float(beta), eps_smoothing)
    signature = chrf_signature(_n_refs_field(references) if references else 0, char_order, word_order,
                               lowercase, whitespace, eps_smoothing)
    return CHRFResult(score, char_order, word_order, beta, signature, segment_scores, stats)


def chrf(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], char_order: int = 6,
         word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
         eps_smoothing: bool = False, *, threads: Optional[int] = None) -> CHRFResult:
    """Corpus chrF (``word_order=0``) or chrF++ (``word_order=2``), identical to sacreBLEU 2.6.0.

    :param hypotheses: one string per segment.
    :param references: per segment, a reference string or a list of reference strings.
    :param whitespace: keep whitespace inside character n-grams.
    :param eps_smoothing: sacreBLEU's ``eps_smoothing`` (chrF++.py-style); off = effective order.
    :param threads: worker threads (default: all cores).

    >>> round(chrf(["abc d"], ["abc e"]).score, 6)
    47.916667
    """
    check_chrf_options(char_order, word_order, beta)
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    return chrf_from_lists(hyps, refs, char_order, word_order, beta, lowercase, whitespace, eps_smoothing,
                           _check_threads(threads))


def sentence_chrf(hypothesis: str, references: Union[str, Sequence[str]], char_order: int = 6,
                  word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
                  eps_smoothing: bool = False) -> CHRFResult:
    """Sentence chrF of one hypothesis against one reference or a list of them.

    >>> print(sentence_chrf("abc d", ["x", "abc e"]))
    chrF2 = 47.92
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be str, got {type(hypothesis).__name__}")
    return chrf([hypothesis], [references], char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
