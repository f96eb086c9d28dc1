"""pycocoevalcap's ``Cider`` (CIDEr-D): same constructor, ``compute_score`` and results.

>>> score, scores = Cider().compute_score({1: ["a dog runs"], 2: ["a cat"]}, {1: ["a dog runs"], 2: ["a cat"]})
>>> round(float(score), 3)
6.25
"""

from __future__ import annotations

import numpy as np

from nlgmetrics import _core
from nlgmetrics.tasks.captioning import _aligned


class Cider:
    """CIDEr-D with document frequencies from the evaluated references; ``n`` orders, Gaussian σ."""

    def __init__(self, test=None, refs=None, n=4, sigma=6.0):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
            raise ValueError(f"n must be an int between 1 and 4, got {n!r}")
        self._n = n
        self._sigma = float(sigma)

    def compute_score(self, gts, res):
        """``gts``: ``{image: [tokenized ref, …]}``, ``res``: ``{image: [tokenized hypothesis]}``.
        Returns ``(mean score, per-image numpy array)`` in ``gts`` key order."""
        _, hypotheses, references = _aligned(gts, res)
        options = {"n": self._n, "sigma": self._sigma, "variant": "cider-d"}
        scores = _core.cider_image_scores(hypotheses, references, options)
        return np.mean(np.array(scores)), np.array(scores)

    def method(self):
        return "CIDEr"
