"""The ``nltk`` BLEU preset: NLTK 3.10.4's ``nltk.translate.bleu_score``, reproduced exactly.

The Rust core counts, per segment, the hypothesis length, the closest reference length and the
clipped n-gram matches and ``max(1, ·)`` denominators (``_core.bleu_nltk_*_stats``). This module
turns summed counts into NLTK's score with NLTK's own mix of value types: precisions are
unreduced fractions, smoothing methods return ``Fraction`` or ``float`` exactly where NLTK's do,
and the final step is ``bp * exp(fsum(w * log(p) for p > 0))``. Scale: 0–1, like NLTK.

NLTK quirks reproduced on purpose (see ``bleu_score.py`` in NLTK 3.10.4):

* a corpus with no matching unigram returns the ``int`` 0 (or a list of int 0s);
* an order with no match contributes ``log(sys.float_info.min)`` under ``method0`` (with a warning);
* smoothing methods 4–7 receive the corpus hypothesis length, but methods 5 and 6 look at the
  *last* segment's references and hypothesis (5 adds that segment's 5-gram precision whatever the
  number of orders; 6 counts that hypothesis's n-grams);
* ``auto_reweigh`` only applies to weights equal to the tuple ``(0.25, 0.25, 0.25, 0.25)``.

>>> modified_precision([["the", "cat", "is", "on", "the", "mat"]], ["the"] * 7, 1)
Fraction(2, 7)
"""

from __future__ import annotations

import fractions
import math
import sys
import warnings
from typing import Any, Callable, Optional, Sequence

import numpy as np

from nlgmetrics import _core

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


class Fraction(fractions.Fraction):
    """A fraction that reports the numerator and denominator it was built from, unreduced.

    NLTK sums these raw numerators and denominators across a corpus, so ``Fraction(2, 4)`` must
    answer ``numerator == 2`` and ``denominator == 4``; conversions and arithmetic go by value.
    """

    _keep_raw: bool
    _raw_numerator: int
    _raw_denominator: Optional[int]

    def __new__(cls, numerator: int = 0, denominator: Optional[int] = None, _normalize: bool = False):
        if sys.version_info < (3, 12):
            # Keep the unreduced terms inside too, as NLTK does there: its equality (and so ours)
            # then compares unreduced terms, e.g. Fraction(4, 6) != Fraction(2, 3).
            self = super().__new__(cls, numerator, denominator, _normalize=_normalize)  # type: ignore[call-overload]
        else:
            self = super().__new__(cls, numerator, denominator)
        self._keep_raw = not _normalize
        self._raw_numerator = numerator
        self._raw_denominator = denominator
        return self

    @property
    def numerator(self):  # type: ignore[override]
        return self._raw_numerator if self._keep_raw else super().numerator

    @property
    def denominator(self):  # type: ignore[override]
        return self._raw_denominator if self._keep_raw else super().denominator


# ---------------------------------------------------------------------------------------------
# Counting (Rust)
# ---------------------------------------------------------------------------------------------

def _interned(list_of_references: Sequence, hypotheses: Sequence) -> tuple[list, list]:
    """Token sequences of any hashable items as int ids (Python equality decides identity)."""
    ids: dict = {}

    def intern(tokens) -> list[int]:
        return [ids.setdefault(token, len(ids)) for token in tokens]

    return [intern(h) for h in hypotheses], [[intern(r) for r in refs] for refs in list_of_references]


def segment_rows(list_of_references: Sequence, hypotheses: Sequence, max_order: int) -> np.ndarray:
    """Per-segment rows ``[hyp_len, closest_ref_len, matches_1..N, denominators_1..N]`` (uint64).

    Lists of ``str`` tokens go to Rust as they are; other token types (ints, tuples, a string
    read as characters, …) are interned first so Python's equality decides what matches.
    """
    if len(list_of_references) != len(hypotheses):
        raise ValueError(
            f"list_of_references has {len(list_of_references)} entries but there are {len(hypotheses)} hypotheses"
        )
    for index, refs in enumerate(list_of_references):
        if len(refs) == 0:
            raise ValueError(f"list_of_references[{index}] is empty: every hypothesis needs at least one reference")
    try:
        return _core.bleu_nltk_token_stats(hypotheses, list_of_references, max_order)
    except (TypeError, ValueError):
        hyp_ids, ref_ids = _interned(list_of_references, hypotheses)
        return _core.bleu_nltk_id_stats(hyp_ids, ref_ids, max_order)


def modified_precision(references: Sequence, hypothesis: Sequence, n: int) -> Fraction:
    """NLTK's clipped n-gram precision as an unreduced ``Fraction(matches, max(1, n-grams))``."""
    if n == 0:
        # Zero-grams: every sequence has len + 1 empty n-grams (what nltk.util.ngrams yields).
        hyp_count = len(hypothesis) + 1
        best = max((len(reference) + 1 for reference in references), default=0)
        return Fraction(min(hyp_count, best), max(1, hyp_count), _normalize=False)
    if n < 0:
        raise ValueError(f"n must be a non-negative n-gram order, got {n}")
    row = segment_rows([list(references)], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), int(row[1 + 2 * n]), _normalize=False)


def closest_ref_length(references, hyp_len: int) -> int:
    """The reference length nearest to ``hyp_len``; the shorter one when two are equally near."""
    return min((len(reference) for reference in references), key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len: int, hyp_len: int):
    """NLTK's brevity penalty: int 1 when the hypothesis is longer, int 0 when it is empty."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


# ---------------------------------------------------------------------------------------------
# Smoothing (Chen & Cherry 2014), with NLTK's value types and in-place list updates
# ---------------------------------------------------------------------------------------------

class SmoothingFunction:
    """NLTK's ``SmoothingFunction``: ``method0`` … ``method7`` take and return a list of precisions.

    Each method may update the list it is given (NLTK's do) and returns it or a new list.
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5):
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n, *args, **kwargs):
        """No smoothing: an order without matches becomes the smallest positive float (and warns)."""
        smoothed = []
        for order, precision in enumerate(p_n, start=1):
            if precision.numerator != 0:
                smoothed.append(precision)
                continue
            warnings.warn(
                f"\nNo {order}-gram of the hypothesis matches a reference, so BLEU is (close to) 0 whatever "
                "the lower orders match.\nUse fewer n-gram orders or a SmoothingFunction method."
            )
            smoothed.append(sys.float_info.min)
        return smoothed

    def method1(self, p_n, *args, **kwargs):
        """Add ``epsilon`` to the numerator of orders without matches (gives a float)."""
        return [(p.numerator + self.epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]

    def method2(self, p_n, *args, **kwargs):
        """Add one to numerator and denominator of every order but unigrams (Lin & Och 2004)."""
        return [
            p if order == 0 else Fraction(p.numerator + 1, p.denominator + 1, _normalize=False)
            for order, p in enumerate(p_n)
        ]

    def method3(self, p_n, *args, **kwargs):
        """NIST geometric smoothing: the k-th order without matches gets ``1 / (2**k * denominator)``."""
        exponent = 1
        for order, p in enumerate(p_n):
            if p.numerator == 0:
                p_n[order] = 1 / (2**exponent * p.denominator)
                exponent += 1
        return p_n

    def method4(self, p_n, references=None, hypothesis=None, hyp_len=None, *args, **kwargs):
        """Like method3 but scaled by ``k / ln(hyp_len)``, so shorter outputs get smaller counts."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        exponent = 1
        for order, p in enumerate(p_n):
            if p.numerator == 0 and hyp_len > 1:
                smoothed_count = 1 / (2**exponent * self.k / math.log(hyp_len))
                p_n[order] = smoothed_count / p.denominator
                exponent += 1
        return p_n

    def method5(self, p_n, references=None, hypothesis=None, hyp_len=None, *args, **kwargs):
        """Average each order with its neighbours: ``(smoothed[n-1] + p[n] + p[n+1]) / 3``.

        The order after the last one is the 5-gram precision of ``references``/``hypothesis``
        (in a corpus call: the last segment), whatever the number of orders — as in NLTK.
        ``next_precision`` may supply that value directly.
        """
        following = kwargs.get("next_precision")
        if following is None:
            following = modified_precision(references, hypothesis, 5)
        originals = list(p_n) + [following]
        previous = p_n[0] + 1
        for order, p in enumerate(originals[:-1]):
            p_n[order] = (previous + p + originals[order + 1]) / 3
            previous = p_n[order]
        return p_n

    def method6(self, p_n, references=None, hypothesis=None, hyp_len=None, *args, **kwargs):
        """Interpolate orders >= 3 with the prior ``p[n-1]**2 / p[n-2]`` (Gao & He 2013).

        Needs a non-zero trigram precision (AssertionError otherwise, as NLTK) and the hypothesis,
        whose n-grams it counts.
        """
        assert p_n[2], "smoothing method6 needs a non-zero precision for trigrams."
        hyp_length = len(hypothesis)
        for order in range(2, len(p_n)):
            p = p_n[order]
            prior = 0 if p_n[order - 2] == 0 else p_n[order - 1] ** 2 / p_n[order - 2]
            ngrams_in_hyp = max(0, hyp_length - order)
            p_n[order] = (p.numerator + self.alpha * prior) / (ngrams_in_hyp + self.alpha)
        return p_n

    def method7(self, p_n, references=None, hypothesis=None, hyp_len=None, *args, **kwargs):
        """method4, then method5."""
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, hyp_len, **kwargs)
        return self.method5(p_n, references, hypothesis, hyp_len, **kwargs)


# ---------------------------------------------------------------------------------------------
# Score from summed counts
# ---------------------------------------------------------------------------------------------

def weights_list(weights) -> list:
    """NLTK's rule: ``weights`` is one weight vector unless ``weights[0][0]`` exists."""
    try:
        weights[0][0]
    except (TypeError, IndexError):
        return [weights]
    return list(weights)


def score_from_counts(
    numerators: Sequence[int],
    denominators: Sequence[int],
    hyp_len: int,
    ref_len: int,
    weights: list,
    smoothing_function: Optional[Callable] = None,
    auto_reweigh: bool = False,
    references: Any = None,
    hypothesis: Any = None,
    **smoothing_kwargs,
):
    """NLTK's BLEU for summed counts (orders 1..N); ``weights`` is a list of weight vectors.

    Returns a float (or int 0) per weight vector, as a list.
    """
    # Built before the zero check, as NLTK does: an empty corpus (0/0) raises ZeroDivisionError.
    p_n = [Fraction(int(num), int(den), _normalize=False) for num, den in zip(numerators, denominators)]
    if not numerators or numerators[0] == 0:
        return [0] * len(weights)
    bp = brevity_penalty(ref_len, hyp_len)
    if not smoothing_function:
        smoothing_function = SmoothingFunction().method0
    p_n = smoothing_function(p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_len, **smoothing_kwargs)
    scores = []
    for weight in weights:
        if auto_reweigh and hyp_len < 4 and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_len,) * hyp_len
        log_sum = math.fsum(w * math.log(p) for w, p in zip(weight, p_n) if p > 0)
        scores.append(bp * math.exp(log_sum))
    return scores


def corpus_score_from_rows(rows: np.ndarray, max_order: int, weights: list, smoothing_function=None,
                           auto_reweigh: bool = False, references=None, hypothesis=None, **smoothing_kwargs) -> list:
    """Sum the per-segment rows (as Python ints) and score them."""
    totals = [int(value) for value in rows.sum(axis=0, dtype=np.uint64)] if len(rows) else [0] * (2 + 2 * max_order)
    return score_from_counts(
        totals[2 : 2 + max_order], totals[2 + max_order :], totals[0], totals[1], weights,
        smoothing_function, auto_reweigh, references, hypothesis, **smoothing_kwargs,
    )


def max_weight_length(weights: list) -> int:
    return max(len(weight) for weight in weights)


# ---------------------------------------------------------------------------------------------
# Native API: nlgmetrics.bleu(..., preset="nltk")
# ---------------------------------------------------------------------------------------------

SMOOTHING_METHODS = ("none",) + tuple(f"method{index}" for index in range(8))
_NO_SMOOTHING = SmoothingFunction().method0


_FLOAT_METHODS = ("none", "method0", "method1", "method2", "method3", "method4")


def _exact_float(value) -> bool:
    """Whether ``value`` becomes an f64 without changing NLTK's arithmetic (floats, ints below 2**53)."""
    return isinstance(value, float) or (isinstance(value, int) and abs(value) < 2**53)


def _check_number(value, name: str):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    return value


def _native_weights(weights, max_order: int) -> tuple:
    if weights is None:
        return DEFAULT_WEIGHTS if max_order == 4 else (1 / max_order,) * max_order
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray)):
        raise TypeError(f"weights must be a sequence of numbers or None, got {type(weights).__name__}")
    if len(weights) and isinstance(weights[0], (Sequence, np.ndarray)):
        raise TypeError("weights must be one weight vector; for several at once use nlgmetrics.compat.nltk.corpus_bleu")
    values = tuple(_check_number(weight, f"weights[{index}]") for index, weight in enumerate(weights))
    if len(values) != max_order:
        raise ValueError(f"weights has {len(values)} entries but max_order is {max_order}")
    return values


def check_options(*, tokenize=None, lowercase=False, smooth=None, smooth_value=None, max_order=4, weights=None,
                  effective_order=None, auto_reweigh=False, epsilon=0.1, alpha=5, k=5) -> dict:
    """The preset's options, validated (``nlgmetrics.bleu(..., preset="nltk")``).

    Lines are tokenized by ``tokenize`` (default ``"none"``: Python's ``str.split()``, i.e. the
    token lists NLTK users usually pass; any sacreBLEU tokenizer name works too). ``smooth`` is
    ``"none"``/``"method0"`` … ``"method7"`` with ``epsilon``, ``alpha``, ``k`` as in
    ``SmoothingFunction``; ``auto_reweigh`` as NLTK.
    """
    from nlgmetrics.core.options import check_bool
    from nlgmetrics.metrics.bleu import sacrebleu as _bleu

    tokenize = _bleu._check_tokenize("none" if tokenize is None else tokenize)
    smooth = "none" if smooth is None else smooth
    if not isinstance(smooth, str):
        raise TypeError(f"smooth must be str, got {type(smooth).__name__}")
    if smooth not in SMOOTHING_METHODS:
        raise ValueError(f"unknown smoothing method {smooth!r} for preset 'nltk'; expected one of {', '.join(SMOOTHING_METHODS)}")
    if smooth_value is not None:
        raise ValueError("smooth_value does not apply to preset 'nltk'; use epsilon=, alpha= or k= (SmoothingFunction's parameters)")
    if effective_order:
        raise ValueError("effective_order does not apply to preset 'nltk' (NLTK has no effective order)")
    max_order = _bleu._check_max_order(max_order)
    if smooth == "method6" and max_order < 3:
        raise ValueError("smooth='method6' needs max_order >= 3 (it interpolates from the trigram precision on)")
    weights = _native_weights(weights, max_order)
    for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
        _check_number(value, name)
    return {"preset": "nltk", "tokenize": tokenize, "lowercase": check_bool(lowercase, "lowercase"), "smooth": smooth,
            "max_order": max_order, "weights": list(weights), "auto_reweigh": check_bool(auto_reweigh, "auto_reweigh"),
            "epsilon": epsilon, "alpha": alpha, "k": k}


class _Scoring:
    """NLTK's arithmetic under one set of options (rows: ``[hyp_len, ref_len, matches.., totals..]``)."""

    def __init__(self, options: dict):
        self.options = options
        self.max_order = options["max_order"]
        self.weights = tuple(options["weights"])
        if self.weights == tuple(DEFAULT_WEIGHTS):
            self.weights = DEFAULT_WEIGHTS
        smooth = self.smooth = options["smooth"]
        # method5/7 look one order past the last (always the 5-gram precision): count it too.
        self.wants_next = smooth in ("method5", "method7")
        self.counted_order = max(self.max_order, 5) if self.wants_next else self.max_order
        smoothing = SmoothingFunction(options["epsilon"], options["alpha"], options["k"])
        self.method = _NO_SMOOTHING if smooth == "none" else getattr(smoothing, smooth)

    def score(self, summed: np.ndarray, last: Optional[np.ndarray]) -> float:
        order, counted = self.max_order, self.counted_order
        totals = [int(value) for value in summed]
        extra = {}
        if self.wants_next:
            assert last is not None  # the last segment's row is kept whenever wants_next
            extra["next_precision"] = Fraction(int(last[6]), int(last[6 + counted]), _normalize=False)
        hypothesis = range(int(last[0])) if last is not None else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score = score_from_counts(totals[2:2 + order], totals[2 + counted:2 + counted + order], totals[0],
                                      totals[1], [self.weights], self.method, self.options["auto_reweigh"], None,
                                      hypothesis, **extra)[0]
        return float(score)

    def segment_score(self, row: np.ndarray) -> float:
        try:
            return self.score(row, row)
        except (AssertionError, IndexError, ZeroDivisionError):  # where NLTK's sentence_bleu raises
            return math.nan

    def segment_scores(self, rows: np.ndarray, threads: Optional[int] = None) -> np.ndarray:
        options = self.options
        if self.smooth in _FLOAT_METHODS and all(_exact_float(v) for v in (*self.weights, options["epsilon"], options["k"])):
            # Plain f64 arithmetic in NLTK: the Rust core scores every segment in parallel, bit for bit.
            float_options = {"max_order": self.max_order, "weights": [float(w) for w in self.weights],
                             "smooth": self.smooth, "epsilon": float(options["epsilon"]), "k": float(options["k"]),
                             "auto_reweigh": options["auto_reweigh"], "weights_are_default": self.weights == DEFAULT_WEIGHTS}
            return _core.bleu_nltk_float_scores(rows, float_options, threads)
        return np.array([self.segment_score(row) for row in rows], dtype=np.float64)


def batch_arrays(hypotheses: list, references: list, options: dict, threads: Optional[int] = None) -> dict:
    """NLTK's counts per segment (``counted_order`` orders) and ``sentence_bleu`` of each segment."""
    from nlgmetrics.metrics.bleu import sacrebleu as _bleu

    scoring = _Scoring(options)
    hyp_lines, core_tokenizer = _bleu._preprocess(hypotheses, options["lowercase"], options["tokenize"])
    flat, _ = _bleu._preprocess([ref for refs in references for ref in refs], options["lowercase"], options["tokenize"])
    ref_lines, start = [], 0
    for refs in references:
        ref_lines.append(flat[start:start + len(refs)])
        start += len(refs)
    rows = _core.bleu_nltk_text_stats(hyp_lines, ref_lines, {"max_order": scoring.counted_order, "tokenize": core_tokenizer},
                                      threads)
    return {"segment_stats": rows, "segment_scores": scoring.segment_scores(rows, threads)}


def result(rows: np.ndarray, segment_scores: np.ndarray, nrefs: str, options: dict):
    """NLTK's ``corpus_bleu`` on 0–1 scale, as a BLEUResult.

    Field mapping: ``score`` = NLTK's value (0–1; float 0.0 where NLTK returns int 0), ``counts`` =
    clipped matches, ``totals`` = NLTK's denominators (per segment ``max(1, n-grams)``),
    ``precisions`` = counts/totals (0–1, unsmoothed), ``bp`` = NLTK's brevity penalty,
    ``sys_len``/``ref_len`` = hypothesis / closest reference length sums, ``segment_scores`` =
    NLTK's ``sentence_bleu`` of each segment (NaN where NLTK raises: ``method6`` on a segment without
    trigram matches). Warnings of ``method0`` are not emitted. method5/method6 read the last segment,
    as NLTK's corpus_bleu does: after a merge, the last segment of the last state merged.
    """
    from nlgmetrics.core.signature import Signature
    from nlgmetrics.metrics.bleu import sacrebleu as _bleu
    from nlgmetrics.metrics.bleu.result import BLEUResult

    scoring = _Scoring(options)
    max_order, counted_order = scoring.max_order, scoring.counted_order
    if len(rows) == 0:
        raise ValueError("hypotheses is empty: NLTK's corpus BLEU of no segments is undefined (0/0)")
    summed = rows.sum(axis=0, dtype=np.uint64)
    try:
        score = scoring.score(summed, rows[-1])
    except AssertionError:
        raise ValueError("smooth='method6' needs at least one matching trigram in the corpus "
                         "(NLTK raises AssertionError here)") from None
    stats = np.ascontiguousarray(
        np.hstack([rows[:, :2 + max_order], rows[:, 2 + counted_order:2 + counted_order + max_order]]), dtype=np.int64
    )
    counts = tuple(int(v) for v in summed[2:2 + max_order])
    totals = tuple(int(v) for v in summed[2 + counted_order:2 + counted_order + max_order])
    smooth, tokenize = options["smooth"], options["tokenize"]
    fields = [
        ("preset", "nltk"),
        ("nrefs", nrefs),
        ("case", "lc" if options["lowercase"] else "mixed"),
        ("tok", "split" if tokenize == "none" else _bleu._tokenizer_signature(tokenize)),
        ("smooth", smooth),
        ("weights", ",".join(repr(float(w)) for w in scoring.weights)),
        ("scale", "0-1"),
    ]
    if smooth in ("method1", "method4", "method6", "method7"):
        fields.append(("smooth_params", f"epsilon={options['epsilon']},alpha={options['alpha']},k={options['k']}"))
    if options["auto_reweigh"]:
        fields.append(("auto_reweigh", "yes"))
    return BLEUResult(
        score=score,
        counts=counts,
        totals=totals,
        precisions=tuple(c / t for c, t in zip(counts, totals)),
        bp=float(brevity_penalty(int(summed[1]), int(summed[0]))),
        sys_len=int(summed[0]),
        ref_len=int(summed[1]),
        segment_stats=stats,
        segment_scores=segment_scores,
        signature=Signature("BLEU", tuple(fields)),
    )
