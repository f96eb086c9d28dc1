"""Metrics as the resampling engine sees them: a way to compute segment statistics once, and ways to
turn summed statistics back into scores.

Two reductions per metric:
- ``exact_scores``: full precision, for approximate-randomization trials (sacreBLEU sums integer
  statistics there, so this is our ordinary score function);
- ``float32_score``: the score of one float32 sum row with the arithmetic sacreBLEU's bootstrap
  performs on NumPy float32 scalars (``significance.py`` converts statistics to float32, and the
  metric's ``_compute_score_from_stats`` then computes precisions in float32). Mirroring it is what
  makes our bootstrap means, intervals and p-values identical to sacreBLEU's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np

from nlgmetrics import _core

# sacreBLEU's BLEU.SMOOTH_DEFAULTS (an int for add-k, as there).
_BLEU_SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
_LOG_ZERO = -9999999999  # sacreBLEU's my_log(0)
# NumPy ≥ 2 (NEP 50) keeps `python float * float32` in float32, which the vectorised mirror assumes;
# older NumPy widens scalars, and only the row-by-row mirror follows it.
NEP50 = int(np.__version__.split(".")[0]) >= 2


@dataclass(frozen=True)
class ResamplableMetric:
    """One metric with its options bound, ready for resampling.

    ``compute`` returns an object with ``score``, ``segment_stats`` (one row per segment) and
    ``signature``. ``float32_scores`` (scores of float32 sum rows) is only for metrics whose bootstrap
    reproduces sacreBLEU's; the others resample in full precision with ``exact_scores``.
    """

    name: str
    compute: Callable[[Sequence[str], Sequence[Sequence[str]]], Any]
    exact_scores: Callable[[np.ndarray], np.ndarray]
    float32_scores: Optional[Callable[[np.ndarray], np.ndarray]] = None
    # Digits worth showing beyond a 0–100 metric's: 2 for metrics on a 0–1 scale (ROUGE, METEOR).
    extra_decimals: int = 0


@dataclass(frozen=True)
class SegmentRows:
    """A corpus score with the per-segment rows it is computed from (for metrics whose own result
    names them differently)."""

    score: float
    segment_stats: np.ndarray
    signature: Any


def _log_or_floor(value) -> float:
    return _LOG_ZERO if value == 0.0 else math.log(value)


def bleu_float32_score(row: np.ndarray, max_order: int, smooth: str, smooth_value: Optional[float], effective_order: bool) -> float:
    """sacreBLEU's compute_bleu on a float32 statistics row (its bootstrap path), operation by operation."""
    if smooth_value is None:
        smooth_value = _BLEU_SMOOTH_DEFAULTS[smooth]
    correct = row[2:2 + max_order].copy()
    total = row[2 + max_order:2 + 2 * max_order].copy()
    sys_len, ref_len = int(row[0]), int(row[1])
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * max_order
    halvings = 1.0
    order_used = max_order
    for n in range(max_order):
        if smooth == "add-k" and n > 0:
            correct[n] += smooth_value
            total[n] += smooth_value
        if total[n] == 0:
            break
        if effective_order:
            order_used = n + 1
        if correct[n] == 0:
            if smooth == "exp":
                halvings *= 2
                precisions[n] = 100. / (halvings * total[n])
            elif smooth == "floor":
                precisions[n] = 100. * smooth_value / total[n]
        else:
            precisions[n] = 100. * correct[n] / total[n]
    return bp * math.exp(sum([_log_or_floor(p) for p in precisions[:order_used]]) / order_used)


def bleu_float32_scores(rows: np.ndarray, max_order: int, smooth: str, smooth_value: Optional[float],
                        effective_order: bool) -> np.ndarray:
    """``bleu_float32_score`` for many rows at once: the same float32 operations, elementwise.

    The per-order loop's ``break`` at the first zero total becomes an "alive" mask; the k-th zero-match
    order's ``100 / (2**k * total)`` is exact scaling by a power of two, as in the loop.
    """
    if smooth_value is None:
        smooth_value = _BLEU_SMOOTH_DEFAULTS[smooth]
    rows = np.asarray(rows, dtype=np.float32)
    correct = rows[:, 2:2 + max_order].copy()
    total = rows[:, 2 + max_order:2 + 2 * max_order].copy()
    if smooth == "add-k" and max_order > 1:
        correct[:, 1:] += smooth_value
        total[:, 1:] += smooth_value
    alive = np.cumprod(total != 0, axis=1).astype(bool)
    zero_match = alive & (correct == 0)
    halvings = np.cumsum(zero_match, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        matched = np.float32(100.) * correct / total
        if smooth == "exp":
            unmatched = np.float32(100.) / (np.float32(2.0) ** halvings.astype(np.float32) * total)
        elif smooth == "floor":
            unmatched = np.float32(100. * smooth_value) / total
        else:
            unmatched = np.zeros_like(total)
    precisions = np.where(alive, np.where(correct == 0, unmatched, matched), np.float32(0.0))
    orders_used = alive.sum(axis=1) if effective_order else np.full(len(rows), max_order)
    sys_lens, ref_lens = rows[:, 0].astype(np.int64).tolist(), rows[:, 1].astype(np.int64).tolist()
    any_match = (rows[:, 2:2 + max_order] != 0).any(axis=1).tolist()  # checked before add-k, as in the loop
    scores = []
    for precision_row, used, sys_len, ref_len, matched_any in zip(precisions.tolist(), orders_used.tolist(), sys_lens, ref_lens, any_match):
        if not matched_any:
            scores.append(0.0)
            continue
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        used = int(used) or max_order  # the loop's eff_order starts at max_order
        scores.append(bp * math.exp(sum([_log_or_floor(p) for p in precision_row[:used]]) / used))
    return np.array(scores)


def chrf_float32_score(row: np.ndarray, order: int, beta: float, eps_smoothing: bool):
    """sacreBLEU's CHRF._compute_f_score on a float32 statistics row (its bootstrap path)."""
    eps = 1e-16
    factor = beta ** 2
    score = 0.0
    averaged_orders = 0
    precision_sum = recall_sum = 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = row[3 * i:3 * i + 3]
        precision = n_match / n_hyp if n_hyp > 0 else eps
        recall = n_match / n_ref if n_ref > 0 else eps
        denominator = factor * precision + recall
        score += ((1 + factor) * precision * recall / denominator) if denominator > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            precision_sum += precision
            recall_sum += recall
            averaged_orders += 1
    if eps_smoothing:
        return 100 * score / order
    if averaged_orders == 0:
        precision_sum = recall_sum = 0.0
    else:
        precision_sum /= averaged_orders
        recall_sum /= averaged_orders
    if precision_sum + recall_sum:
        score = (1 + factor) * precision_sum * recall_sum
        score /= (factor * precision_sum) + recall_sum
        return 100 * score
    return 0.0


def chrf_scores_vectorised(rows: np.ndarray, order: int, beta: float) -> Optional[np.ndarray]:
    """``CHRF._compute_f_score`` (eps_smoothing off) for many rows at once, in the rows' dtype.

    float32 rows give sacreBLEU's bootstrap arithmetic, float64 rows its integer-statistics arithmetic.
    Orders are summed one after another, as the loop does (adding 0.0 to skip an order is exact).
    Returns None where a row scores exactly 0: sacreBLEU then returns a Python float, which changes the
    dtype of its score array, so the caller replays the row-by-row mirror instead.
    """
    rows = np.asarray(rows)
    dtype = rows.dtype.type
    factor = dtype(beta ** 2)
    precision_sum = np.zeros(len(rows), dtype=dtype)
    recall_sum = np.zeros(len(rows), dtype=dtype)
    averaged_orders = np.zeros(len(rows), dtype=np.int64)
    for i in range(order):
        n_hyp, n_ref, n_match = rows[:, 3 * i], rows[:, 3 * i + 1], rows[:, 3 * i + 2]
        counted = (n_hyp > 0) & (n_ref > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision_sum = precision_sum + np.where(counted, n_match / n_hyp, dtype(0))
            recall_sum = recall_sum + np.where(counted, n_match / n_ref, dtype(0))
        averaged_orders += counted
    if np.any(averaged_orders == 0):
        return None
    divisor = averaged_orders.astype(dtype)
    precision_mean, recall_mean = precision_sum / divisor, recall_sum / divisor
    if np.any(precision_mean + recall_mean == 0):
        return None
    score = (dtype(1) + factor) * precision_mean * recall_mean
    score = score / ((factor * precision_mean) + recall_mean)
    return dtype(100) * score


def ter_float32_score(row: np.ndarray):
    """sacreBLEU's TER._compute_score_from_stats on a float32 row ``[edits, average ref length]``."""
    edits, ref_length = row[0], row[1]
    if ref_length > 0:
        score = edits / ref_length
    elif edits > 0:
        score = 1.0
    else:
        score = 0.0
    return 100 * score


def _bleu(options: Mapping[str, Any]) -> ResamplableMetric:
    from nlgmetrics.metrics.bleu.sacrebleu import _NEUMAIER_SUM, bleu

    unknown = set(options) - {"tokenize", "lowercase", "smooth", "smooth_value", "max_order", "effective_order"}
    if unknown:
        raise ValueError(f"paired tests take these BLEU options: tokenize, lowercase, smooth, smooth_value, max_order, "
                         f"effective_order; got {sorted(unknown)}")
    max_order = options.get("max_order", 4)
    smooth = options.get("smooth", "exp")
    smooth_value = options.get("smooth_value")
    effective_order = options.get("effective_order", False)

    def exact(sums: np.ndarray) -> np.ndarray:
        return _core.bleu_row_scores(np.ascontiguousarray(sums, dtype=np.int64), max_order, smooth,
                                     None if smooth_value is None else float(smooth_value), effective_order, None, _NEUMAIER_SUM)

    def float32_scores(rows: np.ndarray) -> np.ndarray:
        if NEP50:
            return bleu_float32_scores(rows, max_order, smooth, smooth_value, effective_order)
        return np.array([bleu_float32_score(row, max_order, smooth, smooth_value, effective_order) for row in rows])

    return ResamplableMetric("BLEU", lambda hyps, refs: bleu(hyps, refs, **options), exact, float32_scores)


def _chrf(options: Mapping[str, Any]) -> ResamplableMetric:
    from nlgmetrics.metrics.chrf import chrf

    char_order = options.get("char_order", 6)
    word_order = options.get("word_order", 0)
    beta = options.get("beta", 2)
    eps_smoothing = options.get("eps_smoothing", False)

    def exact(sums: np.ndarray) -> np.ndarray:
        if not eps_smoothing:
            scores = chrf_scores_vectorised(np.asarray(sums, dtype=np.float64), char_order + word_order, beta)
            if scores is not None:
                return scores
        rows = np.asarray(sums, dtype=np.int64).tolist()
        return np.array([_core.chrf_score(row, float(beta), eps_smoothing) for row in rows])

    def float32_scores(rows: np.ndarray) -> np.ndarray:
        if NEP50 and not eps_smoothing:
            scores = chrf_scores_vectorised(np.asarray(rows, dtype=np.float32), char_order + word_order, beta)
            if scores is not None:
                return scores
        return np.array([chrf_float32_score(row, char_order + word_order, beta, eps_smoothing) for row in rows])

    return ResamplableMetric(
        f"chrF{beta}" + "+" * word_order, lambda hyps, refs: chrf(hyps, refs, **options), exact, float32_scores)


def _ter(options: Mapping[str, Any]) -> ResamplableMetric:
    from nlgmetrics.metrics.ter import ter

    def exact(sums: np.ndarray) -> np.ndarray:
        return np.array([_core.ter_score(int(edits), float(length)) for edits, length in np.asarray(sums, dtype=np.float64)])

    return ResamplableMetric("TER", lambda hyps, refs: ter(hyps, refs, **options), exact,
                             lambda rows: np.array([ter_float32_score(row) for row in rows]))


def _segment_mean(name: str, score_and_values: Callable[[Sequence[str], Sequence[Sequence[str]]], tuple],
                  extra_decimals: int = 0) -> ResamplableMetric:
    """A metric whose corpus score is the mean of per-segment values (ROUGE, CIDEr, EM, F1).

    Rows are ``[value, 1]``, so a resample's score is its value sum over its row count.
    """

    def compute(hyps, refs) -> SegmentRows:
        score, values, signature = score_and_values(hyps, refs)
        values = np.asarray(values, dtype=np.float64)
        return SegmentRows(score, np.column_stack([values, np.ones_like(values)]), signature)

    return ResamplableMetric(name, compute, lambda sums: sums[:, 0] / sums[:, 1], extra_decimals=extra_decimals)


def _rouge(variant: str) -> Callable[[Mapping[str, Any]], ResamplableMetric]:
    def build(options: Mapping[str, Any]) -> ResamplableMetric:
        from nlgmetrics.metrics.rouge.rouge_score import rouge

        def score_and_values(hyps, refs):
            result = rouge(hyps, refs, variants=[variant], **options)
            return result[variant].fmeasure, result.segment_scores[:, 0, 2], result.signature

        return _segment_mean(f"{variant} F", score_and_values, extra_decimals=2)

    return build


def _meteor(options: Mapping[str, Any]) -> ResamplableMetric:
    from nlgmetrics.metrics.meteor.meteor15 import corpus_score_from_statistics, meteor

    def compute(hyps, refs) -> SegmentRows:
        result = meteor(hyps, refs, **options)
        return SegmentRows(result.score, result.additive_statistics(), result.signature)

    def exact(sums: np.ndarray) -> np.ndarray:
        # METEOR's system score comes from summed statistics (not a mean of segment scores).
        return np.array([corpus_score_from_statistics(row[None, :], **options) for row in sums])

    return ResamplableMetric("METEOR", compute, exact, extra_decimals=2)


def _cider(options: Mapping[str, Any]) -> ResamplableMetric:
    from nlgmetrics.tasks.captioning import cider

    def score_and_values(hyps, refs):
        result = cider(hyps, refs, **options)
        return result.score, result.image_scores, result.signature

    return _segment_mean("CIDEr-D" if options.get("variant", "cider-d") == "cider-d" else "CIDEr", score_and_values)


def _qa(field: str) -> Callable[[Mapping[str, Any]], ResamplableMetric]:
    def build(options: Mapping[str, Any]) -> ResamplableMetric:
        from nlgmetrics.metrics.qa import qa_scores

        def score_and_values(hyps, refs):
            result = qa_scores(hyps, refs, **options)
            per_question = result.exact_scores if field == "exact_match" else result.f1_scores
            return getattr(result, field), np.asarray(per_question, dtype=np.float64) * 100.0, result.signature

        return _segment_mean("EM" if field == "exact_match" else "F1", score_and_values)

    return build


BUILDERS: dict[str, Callable[[Mapping[str, Any]], ResamplableMetric]] = {
    "bleu": _bleu,
    "chrf": _chrf,
    "chrf++": lambda options: _chrf({"word_order": 2, **options}),
    "ter": _ter,
    **{variant.lower(): _rouge(variant) for variant in ("rouge1", "rouge2", "rougeL", "rougeLsum")},
    "meteor": _meteor,
    "cider": _cider,
    "exact_match": _qa("exact_match"),
    "f1": _qa("f1"),
}


def resamplable(name: str, options: Optional[Mapping[str, Any]] = None) -> ResamplableMetric:
    """The metric called ``name`` (``bleu``, ``chrf``, ``ter``, …) with ``options`` bound."""
    key = name.lower()
    if key not in BUILDERS:
        raise ValueError(f"unknown metric {name!r} for resampling; expected one of {', '.join(sorted(BUILDERS))}")
    return BUILDERS[key](dict(options or {}))
