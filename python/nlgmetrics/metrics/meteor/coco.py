"""METEOR as pycocoevalcap 1.2 runs the jar: its ``|||`` line protocol (with Java's trimming and
splitting quirks) and ``-l en -norm``, image by image.

>>> score, per_image = coco_meteor({1: ["a dog runs"]}, {1: ["a dog runs"]})
>>> round(score, 4), len(per_image)
(1.0, 1)
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


def coco_meteor(gts: Dict, res: Dict) -> Tuple[float, List[float]]:
    """``(system score, per-image scores)`` as pycocoevalcap's ``Meteor().compute_score(gts, res)``."""
    assert gts.keys() == res.keys()
    hypotheses: List[str] = []
    references: List[List[str]] = []
    for image_id in gts.keys():
        assert len(res[image_id]) == 1
        hypothesis, refs = _jar_parts(res[image_id][0], gts[image_id])
        hypotheses.append(hypothesis)
        references.append(refs if refs else [""])
    scorer = scorer_for(resolve_config(language="en", norm=True))
    stats, scores, _best = scorer.score_batch(hypotheses, references)
    score = scorer.corpus(stats)[1][5]
    return score, [float(s) for s in scores]
