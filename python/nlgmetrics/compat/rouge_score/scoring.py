"""Drop-in for ``rouge_score.scoring`` (0.1.2): ``Score``, ``AggregateScore``, ``BaseScorer``,
``BootstrapAggregator``, ``fmeasure`` — same names, fields and numbers.

>>> agg = BootstrapAggregator(seed=0)
>>> agg.add_scores({"rouge1": Score(0.5, 1.0, 0.6666666666666666)})
>>> float(agg.aggregate()["rouge1"].mid.recall)
1.0
"""

from __future__ import annotations

import abc
import collections
from typing import Dict, Optional

import numpy as np

from nlgmetrics.metrics.rouge.bootstrap import bootstrap_percentiles, check_bootstrap_options


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores."""


class BaseScorer(metaclass=abc.ABCMeta):
    """Base class for Scorer objects."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """A dict mapping each score type to a Score."""


class BootstrapAggregator:
    """rouge_score's bootstrap aggregator: low/mid/high percentiles of resampled means.

    ``seed=None`` (rouge_score's behaviour) draws from NumPy's global random state, so after
    ``np.random.seed(s)`` the results equal rouge_score's bit for bit; an integer ``seed`` uses a
    private ``np.random.RandomState(seed)`` (the same draws, without touching global state).
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000, seed: Optional[int] = None):
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        check_bootstrap_options(confidence_interval, n_samples)
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._random_state = np.random if seed is None else np.random.RandomState(seed)
        self._scores: Dict[str, list] = collections.defaultdict(list)

    def add_scores(self, scores) -> None:
        """Adds one document's ``{score_type: Score}``."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> Dict[str, AggregateScore]:
        """``{score_type: AggregateScore(low, mid, high)}``."""
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            percentiles = bootstrap_percentiles(matrix, self._n_samples, self._confidence_interval, self._random_state)
            intervals = tuple(scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=intervals[0], mid=intervals[1], high=intervals[2])
        return result


def fmeasure(precision, recall):
    """F-measure as rouge_score computes it (2PR/(P+R), 0 when both are 0)."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
