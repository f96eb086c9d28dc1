"""pycocoevalcap's ``Rouge`` (ROUGE-L, β = 1.2): same ``compute_score`` and results.

>>> score, scores = Rouge().compute_score({1: ["a b c d", "a b"]}, {1: ["a b"]})
>>> float(score)
1.0
"""

from __future__ import annotations

import numpy as np

from nlgmetrics import _core
from nlgmetrics.tasks.captioning import _aligned


class Rouge:
    """ROUGE-L over single-space-split tokens; max precision and max recall over the references."""

    def __init__(self):
        self.beta = 1.2

    def calc_score(self, candidate, refs):
        """ROUGE-L of ``candidate`` (a one-item list) against ``refs`` (a non-empty list)."""
        if len(candidate) != 1 or len(refs) == 0:
            raise ValueError("candidate must hold exactly one caption and refs at least one")
        return float(_core.rouge_l_coco_image_scores([candidate[0]], [list(refs)], self.beta)[0])

    def compute_score(self, gts, res):
        _, hypotheses, references = _aligned(gts, res)
        scores = _core.rouge_l_coco_image_scores(hypotheses, references, self.beta)
        return np.mean(np.array(scores)), np.array(scores)

    def method(self):
        return "Rouge"
