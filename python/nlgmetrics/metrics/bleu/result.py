"""The result of a BLEU computation, shared by every BLEU preset (sacrebleu, nltk, coco).

>>> import numpy as np
>>> from nlgmetrics.core.signature import Signature
>>> result = BLEUResult(score=27.5, counts=(59, 33), totals=(100, 99), precisions=(59.0, 33.33),
...                     bp=1.0, sys_len=100, ref_len=98,
...                     segment_stats=np.zeros((0, 6), dtype=np.int64), segment_scores=np.zeros(0),
...                     signature=Signature("BLEU", (("preset", "sacrebleu"),)))
>>> str(result)
'BLEU = 27.50 59.0/33.3 (BP = 1.000 ratio = 1.020 hyp_len = 100 ref_len = 98)'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, Tuple

import numpy as np

from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature


@dataclass(frozen=True)
class BLEUResult(Result):
    """A corpus BLEU score, its parts, and the per-segment statistics and scores.

    ``score``, ``precisions`` and ``segment_scores`` are on the preset's own scale, so they are the
    reference implementation's numbers: 0–100 for ``sacrebleu`` (the default), 0–1 for ``nltk`` and
    ``coco``. ``segment_stats`` holds one int64 row per segment, for sacrebleu
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` (sacreBLEU's layout; the corpus score is a
    function of their column sums), and ``segment_scores`` each segment's own sentence score: for
    sacrebleu, ``sentence_bleu``'s (effective order on, the same smoothing), for nltk and coco their
    sentence scores under the same options. ``signature`` names the preset and every option that changes the number.
    """

    score: float
    counts: Tuple[int, ...]
    totals: Tuple[int, ...]
    precisions: Tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    segment_stats: np.ndarray = field(repr=False, compare=False)
    segment_scores: np.ndarray = field(repr=False, compare=False)
    signature: Signature = field(compare=False)

    def __post_init__(self) -> None:
        # Frozen all the way down: the arrays are read-only views.
        for name in ("segment_stats", "segment_scores"):
            array = getattr(self, name)
            if isinstance(array, np.ndarray) and array.flags.writeable:
                view = array.view()
                view.setflags(write=False)
                object.__setattr__(self, name, view)

    @property
    def name(self) -> str:
        return "BLEU"

    @property
    def scores(self) -> Dict[str, Any]:
        """The score, each order's precision, BP, the length ratio and the lengths."""
        named: Dict[str, Any] = {"BLEU": float(self.score)}
        named.update({f"precision_{order}": float(p) for order, p in enumerate(self.precisions, 1)})
        named.update({"bp": float(self.bp), "ratio": float(self.ratio), "hyp_len": self.sys_len, "ref_len": self.ref_len})
        return named

    @property
    def ratio(self) -> float:
        """Hypothesis length / reference length (0 when the references are empty), as sacreBLEU."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    def format(self, width: int = 2, score_only: bool = False, signature: bool = False) -> str:
        """sacreBLEU's one-line form, e.g. ``BLEU = 27.52 59.0/33.4/20.8/13.4 (BP = 1.000 ...)``.

        ``width`` is the number of decimals of the score; ``signature=True`` puts the signature
        after the name (``BLEU|preset:sacrebleu|nrefs:1|… = 27.52 …``).
        """
        score = f"{self.score:.{width}f}"
        if score_only:
            return score
        name = f"BLEU|{str(self.signature).partition('|')[2]}" if signature else "BLEU"
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{name} = {score} {precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def __str__(self) -> str:
        return self.format()

    def to_dict(self, segments: bool = False) -> Dict[str, Any]:
        """Plain Python values (JSON-ready); ``segments=True`` adds the per-segment scores."""
        result: Dict[str, Any] = {
            **super().to_dict(),
            "counts": [int(c) if float(c).is_integer() else float(c) for c in self.counts],
            "totals": [int(t) if float(t).is_integer() else float(t) for t in self.totals],
            "precisions": [float(p) for p in self.precisions],
            "bp": float(self.bp),
            "ratio": float(self.ratio),
            "sys_len": int(self.sys_len),
            "ref_len": int(self.ref_len),
        }
        if segments:
            result["segment_scores"] = [float(s) for s in self.segment_scores]
        return result

    def to_json(self, segments: bool = False, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(segments=segments), indent=indent, ensure_ascii=False)
