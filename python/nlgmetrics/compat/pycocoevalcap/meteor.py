"""Drop-in for ``pycocoevalcap.meteor.meteor.Meteor``: same call, same numbers, no Java.

pycocoevalcap sends each image to ``meteor-1.5.jar -stdio -l en -norm`` as
``SCORE ||| ref_1 ||| … ||| ref_n ||| hypothesis`` (the hypothesis with ``|||`` removed and double
spaces collapsed); the jar splits that line on ``|||`` and trims each part, scores the hypothesis
against its best reference, and the aggregate is the jar's system score from summed statistics.
We rebuild and split the same line, so references containing ``|||`` behave as there.
Unlike the jar, newlines inside captions do not break the protocol: they are whitespace.

>>> from nlgmetrics.compat.pycocoevalcap.meteor import Meteor
>>> score, scores = Meteor().compute_score({1: ["a man rides a horse"]}, {1: ["a man riding a horse"]})
>>> len(scores)
1
"""

from __future__ import annotations

from typing import Dict, List, Tuple

from nlgmetrics.metrics.meteor.coco import coco_meteor


class Meteor:
    """``Meteor().compute_score(gts, res)`` → ``(system score, [per-image scores])``."""

    def compute_score(self, gts: Dict, res: Dict) -> Tuple[float, List[float]]:
        return coco_meteor(gts, res)

    def method(self) -> str:
        return "METEOR"
