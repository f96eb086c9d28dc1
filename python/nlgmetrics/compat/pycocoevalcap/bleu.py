"""Drop-in for ``pycocoevalcap.bleu.bleu.Bleu`` (pycocoevalcap 1.2).

>>> gts = {1: ["a man rides a horse", "a person on a horse"], 2: ["two dogs play in the snow"]}
>>> res = {1: ["a man on a horse"], 2: ["a dog in the snow"]}
>>> score, scores = Bleu(4).compute_score(gts, res, verbose=0)
>>> len(score), len(scores), len(scores[0])
(4, 4, 2)
"""

from __future__ import annotations

from nlgmetrics.metrics.bleu.coco import image_stats, scores_from_stats, totals


class Bleu:
    """BLEU-1..n over images, as pycocoevalcap's ``Bleu(n)``: captions are whitespace-split."""

    def __init__(self, n: int = 4):
        self._n = n

    def compute_score(self, gts: dict, res: dict, verbose: int = 1):
        """``(corpus_scores, per_order_per_image_scores)`` for ``gts``/``res`` dicts of caption lists.

        ``res[id]`` must be a list with exactly one caption, ``gts[id]`` a non-empty list of
        captions, and both dicts must have the same keys (pycocoevalcap asserts the same). With
        ``verbose`` > 0 it prints the summed counts and the length ratio, as pycocoevalcap does.
        """
        assert gts.keys() == res.keys()
        image_ids = list(gts.keys())
        captions, references = [], []
        for image_id in image_ids:
            hypo, refs = res[image_id], gts[image_id]
            assert type(hypo) is list
            assert len(hypo) == 1
            assert type(refs) is list
            assert len(refs) >= 1
            captions.append(hypo[0])
            references.append(refs)
        stats = image_stats(captions, references)
        if self._n > 4:
            raise IndexError("list index out of range")  # pycocoevalcap counts only up to 4-grams
        if self._n <= 0:
            score: list = []
            scores: list = []
        else:
            score, scores = scores_from_stats(stats, self._n, "closest")
        if verbose > 0:
            summed = totals(stats, "closest")
            print({"testlen": summed["testlen"], "reflen": summed["reflen"], "guess": summed["guess"],
                   "correct": summed["correct"]})
            print("ratio:", (summed["testlen"] + 1e-15) / (summed["reflen"] + 1e-9))
        return score, scores

    def method(self) -> str:
        return "Bleu"
