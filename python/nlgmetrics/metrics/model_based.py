"""What the model-based metrics (BERTScore, COMET) share beyond ``Metric``: the settings that say where a model
may come from and how big the encoder's batches are (not options: they change no number), kept through pickles,
and the check of a state whose scores may be negative.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from nlgmetrics.core.metric import Metric
from nlgmetrics.core.options import check_bool, check_int

__all__ = ["ModelBasedMetric"]


class ModelBasedMetric(Metric):
    """A ``Metric`` whose segments are scored by a model: ``segment_stats`` rows are ``[scores…, 1]``."""

    def _settings(self, allow_download: Any, max_tokens: Any) -> None:
        self.allow_download = check_bool(allow_download, "allow_download")
        self.max_tokens = check_int(max_tokens, "max_tokens", 1, 1 << 24)

    def restore_hints(self) -> Dict[str, Any]:
        return {"allow_download": self.allow_download, "max_tokens": self.max_tokens}

    def check_state(self, state) -> None:
        """A state's scores may be negative (a regression head, a rescaled score): what can be checked is that
        every row is ``[scores…, 1]`` and that ``segment_scores`` holds the same numbers."""
        state.validate()
        stats, scores = state.arrays.get("segment_stats"), state.arrays.get("segment_scores")
        if stats is None or scores is None:
            return
        if stats.ndim != 2 or stats.shape[1] != len(self.stat_columns) or not np.all(stats[:, -1] == 1):
            raise ValueError(f"{self.name} state is inconsistent: segment_stats rows are not [score…, 1]")
        if not np.array_equal(np.asarray(scores, dtype=np.float64).reshape(len(stats), -1), stats[:, :-1],
                              equal_nan=True):
            raise ValueError(f"{self.name} state is inconsistent: segment_scores differ from segment_stats")
