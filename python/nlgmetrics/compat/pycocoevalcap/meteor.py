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

from typing import Dict, List, Sequence, Tuple

from nlgmetrics.metrics.meteor.meteor15 import resolve_config, scorer_for


def _java_trim(text: str) -> str:
    return text.strip("".join(chr(c) for c in range(33)))


def _jar_parts(hypothesis: str, references: Sequence[str]) -> Tuple[str, List[str]]:
    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    line = " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))
    parts = line.split("|||")
    while parts and parts[-1] == "":  # Java's String.split drops trailing empty strings
        parts.pop()
    return _java_trim(parts[-1]), [_java_trim(part) for part in parts[1:-1]]


class Meteor:
    """``Meteor().compute_score(gts, res)`` → ``(system score, [per-image scores])``."""

    def __init__(self) -> None:
        self._config = resolve_config(language="en", norm=True)

    def compute_score(self, gts: Dict, res: Dict) -> Tuple[float, List[float]]:
        assert gts.keys() == res.keys()
        hypotheses: List[str] = []
        references: List[List[str]] = []
        for image_id in gts.keys():
            assert len(res[image_id]) == 1
            hypothesis, refs = _jar_parts(res[image_id][0], gts[image_id])
            hypotheses.append(hypothesis)
            references.append(refs if refs else [""])
        scorer = scorer_for(self._config)
        stats, scores, _best = scorer.score_batch(hypotheses, references)
        score = scorer.corpus(stats)[1][5]
        return score, [float(s) for s in scores]

    def method(self) -> str:
        return "METEOR"
