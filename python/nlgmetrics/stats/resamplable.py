"""A registered metric as the resampling engine sees it: compute once, then score rows of summed statistics.

Two reductions per metric: ``exact_scores`` (full precision: approximate-randomization trials and
percentile intervals) and, for BLEU, chrF and TER, ``float32_scores`` (sacreBLEU's bootstrap
arithmetic, ``nlgmetrics.stats.sacrebleu_float32``). Every metric of the registry can be resampled;
nothing here names a metric.

>>> bound = resamplable("chrf++")
>>> bound.name, bound.float32_scores is not None
('chrF2++', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np

from nlgmetrics.core.registry import metric as make_metric


@dataclass(frozen=True)
class ResamplableMetric:
    """One metric with its options bound, ready for resampling.

    ``compute`` returns a result (``score``, ``segment_stats``: one additive row per segment,
    ``signature``); ``exact_scores`` scores rows of summed statistics in full precision;
    ``float32_scores`` mirrors sacreBLEU's bootstrap where the metric has it.
    """

    name: str
    compute: Callable[[Sequence[str], Sequence[Sequence[str]]], Any]
    exact_scores: Callable[[np.ndarray], np.ndarray]
    float32_scores: Optional[Callable[[np.ndarray], np.ndarray]] = None
    # Digits worth showing beyond a 0–100 metric's: 2 for metrics on a 0–1 scale (ROUGE, METEOR).
    extra_decimals: int = 0
    # False for error rates (TER …): a lower score is better.
    higher_is_better: bool = True


def from_metric(metric: Any) -> ResamplableMetric:
    """The resampling view of a ``Metric`` object."""
    float32 = metric.float32_score_rows if metric.sacrebleu_bootstrap else None
    return ResamplableMetric(metric.label(), metric._score_batch, metric.score_rows, float32, metric.extra_decimals,
                             metric.higher_is_better)


def resamplable(name: str, options: Optional[Mapping[str, Any]] = None) -> ResamplableMetric:
    """The metric registered as ``name`` (``bleu``, ``chrf``, ``ter``, ``rougeL``, …) with ``options`` bound."""
    return from_metric(make_metric(name, **dict(options or {})))
