"""sacreBLEU's bootstrap arithmetic, mirrored: the score of float32 rows of summed statistics.

sacreBLEU's ``significance.py`` converts statistics to float32, and each metric's
``_compute_score_from_stats`` then computes precisions on NumPy float32 scalars. Mirroring that
operation by operation is what makes our bootstrap means, intervals and p-values identical to
sacreBLEU's for BLEU, chrF and TER (the metrics' ``float32_score_rows``). Every other resampling
uses the metric's full-precision ``score_rows``.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

# sacreBLEU's BLEU.SMOOTH_DEFAULTS (an int for add-k, as there).
#: sacreBLEU's default smooth_value of the methods that take one ("none" and "exp" take none: 0 is never read).
_BLEU_SMOOTH_DEFAULTS: dict = {"floor": 0.1, "add-k": 1}
_LOG_ZERO = -9999999999  # sacreBLEU's my_log(0)
# NumPy ≥ 2 (NEP 50) keeps `python float * float32` in float32, which the vectorised mirror assumes;
# older NumPy widens scalars, and only the row-by-row mirror follows it.
NEP50 = int(np.__version__.split(".")[0]) >= 2


def _log_or_floor(value) -> float:
    return _LOG_ZERO if value == 0.0 else math.log(value)


def bleu_float32_score(row: np.ndarray, max_order: int, smooth: str, smooth_value: Optional[float], effective_order: bool) -> float:
    """sacreBLEU's compute_bleu on a float32 statistics row (its bootstrap path), operation by operation."""
    value: float = _BLEU_SMOOTH_DEFAULTS.get(smooth, 0) if smooth_value is None else smooth_value
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
            correct[n] += value
            total[n] += value
        if total[n] == 0:
            break
        if effective_order:
            order_used = n + 1
        if correct[n] == 0:
            if smooth == "exp":
                halvings *= 2
                precisions[n] = 100. / (halvings * total[n])
            elif smooth == "floor":
                precisions[n] = 100. * value / total[n]
        else:
            precisions[n] = 100. * correct[n] / total[n]
    return bp * math.exp(sum([_log_or_floor(p) for p in precisions[:order_used]]) / order_used)


def bleu_float32_scores(rows: np.ndarray, max_order: int, smooth: str, smooth_value: Optional[float],
                        effective_order: bool) -> np.ndarray:
    """``bleu_float32_score`` for many rows at once: the same float32 operations, elementwise.

    The per-order loop's ``break`` at the first zero total becomes an "alive" mask; the k-th zero-match
    order's ``100 / (2**k * total)`` is exact scaling by a power of two, as in the loop.
    """
    value: float = _BLEU_SMOOTH_DEFAULTS.get(smooth, 0) if smooth_value is None else smooth_value
    rows = np.asarray(rows, dtype=np.float32)
    correct = rows[:, 2:2 + max_order].copy()
    total = rows[:, 2 + max_order:2 + 2 * max_order].copy()
    if smooth == "add-k" and max_order > 1:
        correct[:, 1:] += value
        total[:, 1:] += value
    alive = np.cumprod(total != 0, axis=1).astype(bool)
    zero_match = alive & (correct == 0)
    halvings = np.cumsum(zero_match, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        matched = np.float32(100.) * correct / total
        if smooth == "exp":
            unmatched = np.float32(100.) / (np.float32(2.0) ** halvings.astype(np.float32) * total)
        elif smooth == "floor":
            unmatched = np.float32(100. * value) / total
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


def bleu_scores(rows: np.ndarray, max_order: int, smooth: str, smooth_value: Optional[float],
                effective_order: bool) -> np.ndarray:
    """sacreBLEU's bootstrap BLEU of float32 statistics rows (vectorised where NumPy follows NEP 50)."""
    if NEP50:
        return bleu_float32_scores(rows, max_order, smooth, smooth_value, effective_order)
    return np.array([bleu_float32_score(row, max_order, smooth, smooth_value, effective_order) for row in rows])


def chrf_scores(rows: np.ndarray, order: int, beta: float, eps_smoothing: bool) -> np.ndarray:
    """sacreBLEU's bootstrap chrF of float32 statistics rows."""
    if NEP50 and not eps_smoothing:
        scores = chrf_scores_vectorised(np.asarray(rows, dtype=np.float32), order, beta)
        if scores is not None:
            return scores
    return np.array([chrf_float32_score(row, order, beta, eps_smoothing) for row in rows])


_CHRF_MAX_ORDER = 100  # _core.CHRF_MAX_ORDER (each of char_order and word_order)


def chrf_exact_scores(sums: np.ndarray, order: int, beta: float, eps_smoothing: bool) -> np.ndarray:
    """chrF of rows of summed integer statistics, in full precision (as sacreBLEU's corpus score)."""
    from nlgmetrics.core.segment import segment_scorer

    if not eps_smoothing:
        scores = chrf_scores_vectorised(np.asarray(sums, dtype=np.float64), order, beta)
        if scores is not None:
            return scores
    rows = np.ascontiguousarray(np.asarray(sums, dtype=np.int64).reshape(-1, 3 * order))
    # Only the number of orders matters to the score of a row, not how many are characters.
    char_order = min(order, _CHRF_MAX_ORDER)
    scorer = segment_scorer("chrf", {"char_order": char_order, "word_order": order - char_order, "beta": float(beta),
                                     "whitespace": False, "eps_smoothing": eps_smoothing})
    return scorer.score_rows(rows)


def ter_scores(rows: np.ndarray) -> np.ndarray:
    """sacreBLEU's bootstrap TER of float32 ``[edits, ref_length]`` rows."""
    return np.array([ter_float32_score(row) for row in rows])
