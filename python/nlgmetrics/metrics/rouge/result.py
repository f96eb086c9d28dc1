"""The result of a ROUGE computation (both presets): corpus P/R/F per variant, per-document scores.

>>> score = RougeScore(0.5, 0.25, 1 / 3)
>>> score.fmeasure
0.3333333333333333
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, NamedTuple, Optional, Tuple

import numpy as np

from nlgmetrics.core.metric import counted_rows
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature


class RougeScore(NamedTuple):
    """Precision, recall and F-measure of one variant (same fields as rouge_score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


class RougeInterval(NamedTuple):
    """Bootstrap percentiles (same fields as rouge_score's ``AggregateScore``)."""

    low: RougeScore
    mid: RougeScore
    high: RougeScore


@dataclass(frozen=True, eq=False)
class RougeResult(Result):
    """Corpus and per-document ROUGE scores.

    - ``result.rouge1`` / ``result["rouge1"]`` / ``result.variant_scores["rouge1"]``: corpus ``RougeScore``
      (mean over documents);
    - ``scores``: plain numbers, like every result's: ``{"rouge1_precision": …, "rouge1_recall": …,
      "rouge1_fmeasure": …, …}`` (the column names of ``to_pandas()``);
    - ``segment_scores``: float64 array ``(documents, variants, 3)`` of (P, R, F);
    - ``statistics``: float64 array ``(documents, variants, 3)`` of (hits, prediction total,
      reference total) of the chosen reference (preset ``rouge155``: ROUGE-1.5.5's per-document
      (R, P, F), the values its bootstrap resamples);
    - ``segment(i)``: ``{variant: RougeScore}`` for document ``i``;
    - ``intervals``: ``{variant: RougeInterval}`` when ``bootstrap`` was requested, else None;
    - ``score``: the F-measure of the first variant (what intervals and paired tests resample);
    - ``segment_stats``: additive rows ``[P, R, F of each variant…, 1]`` (their column sums divided by
      the last column are the corpus P/R/F).
    """

    variants: Tuple[str, ...]
    variant_scores: Dict[str, RougeScore]
    segment_scores: np.ndarray
    statistics: np.ndarray
    signature: Signature
    intervals: Optional[Dict[str, RougeInterval]] = field(default=None)

    name = "ROUGE"

    @property
    def score(self) -> float:
        return float(self.variant_scores[self.variants[0]].fmeasure)

    @property
    def scores(self) -> Dict[str, float]:
        """Every named number as a plain float: ``rouge1_precision``, ``rouge1_recall``, ``rouge1_fmeasure`` …"""
        return {f"{variant}_{part}": float(value) for variant, score in self.variant_scores.items()
                for part, value in score._asdict().items()}

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    def _segment_score_columns(self, width: int) -> list:
        return [f"{variant}_{part}" for variant in self.variants for part in ("precision", "recall", "fmeasure")]

    def __getitem__(self, variant: str) -> RougeScore:
        return self.variant_scores[variant]

    def __getattr__(self, name: str) -> RougeScore:
        scores = self.__dict__.get("variant_scores")
        if scores is not None and name in scores:
            return scores[name]
        raise AttributeError(f"{type(self).__name__} has no attribute or variant {name!r}")

    def __len__(self) -> int:
        return int(self.segment_scores.shape[0])

    def segment(self, index: int) -> Dict[str, RougeScore]:
        """Per-variant scores of document ``index`` (negative indices count from the end)."""
        row = self.segment_scores[index]
        return {variant: RougeScore(*map(float, row[k])) for k, variant in enumerate(self.variants)}

    def per_segment(self, variant: str) -> np.ndarray:
        """``(documents, 3)`` array of (P, R, F) of one variant."""
        if variant not in self.variant_scores:
            raise KeyError(f"variant {variant!r} was not computed (have {list(self.variants)})")
        return self.segment_scores[:, self.variants.index(variant), :]

    def report(self, system: str = "X") -> str:
        """ROUGE-1.5.5.pl's report lines (preset ``rouge155`` only)."""
        from nlgmetrics.metrics.rouge import rouge155

        return rouge155.report(self, system)

    def table_columns(self) -> list:
        """The command line's columns: each variant's F."""
        return [(f"{variant} F", score.fmeasure) for variant, score in self.variant_scores.items()]

    def cli_report(self) -> Optional[str]:
        """ROUGE-1.5.5's report for the command line (preset ``rouge155``), else None (a table)."""
        return self.report() if self.signature.get("preset") == "rouge155" else None

    def to_hf(self) -> Dict[str, float]:
        """Hugging Face ``evaluate`` ``rouge`` shape: ``{variant: F}`` (mean F over documents)."""
        return {variant: score.fmeasure for variant, score in self.variant_scores.items()}

    def to_dict(self, segments: bool = False) -> dict:
        out: dict = {"name": self.name, "score": self.score, "scores": self.scores}
        out.update({variant: score._asdict() for variant, score in self.variant_scores.items()})
        if segments:
            out["segment_scores"] = np.asarray(self.segment_scores).tolist()
        if self.intervals is not None:
            out["intervals"] = {
                variant: {bound: getattr(interval, bound)._asdict() for bound in ("low", "mid", "high")}
                for variant, interval in self.intervals.items()
            }
        out["signature"] = str(self.signature)
        return out

    def __str__(self) -> str:
        lines = [
            f"{variant}: P {score.precision:.4f} R {score.recall:.4f} F {score.fmeasure:.4f}"
            for variant, score in self.variant_scores.items()
        ]
        lines.append(str(self.signature))
        return "\n".join(lines)
