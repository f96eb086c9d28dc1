"""``Result``: the one shape every metric's result has.

Every result has ``name``, ``score`` (the headline number, on the reference's scale), ``scores``
(every named number), ``segment_scores`` (NumPy, one value per segment), ``segment_stats`` (NumPy,
one additive row per segment; the metric's ``stat_columns`` name the columns), ``signature``,
``to_dict()``, ``to_json()``, ``to_pandas()``, ``ci()`` and ``_repr_html_()``. The per-metric
result classes (``BLEUResult``, ``RougeResult``, …) are thin views over it that add their familiar
fields, so older attribute names keep working.

>>> import nlgmetrics
>>> result = nlgmetrics.chrf(["the cat sat on the mat"], ["the cat is on the mat"])
>>> result.name, round(result.score, 2), list(result.scores)
('chrF2', 64.58, ['chrF2'])
>>> result.segment_stats.shape
(1, 18)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np


class Result:
    """Mixin giving a metric result the common shape.

    A subclass provides ``name``, ``score``, ``scores``, ``segment_scores``, ``segment_stats`` and
    ``signature`` (dataclass fields or properties). The metric that made the result is kept in
    ``_metric`` (set by ``Metric.compute``) for ``ci()``.
    """

    _metric: Any = None
    #: The pandas index of the inputs' rows (set by ``Metric.compute`` when the inputs were pandas objects).
    _index: Any = None

    if TYPE_CHECKING:  # what every result class provides (fields or properties), declared for type checkers
        @property
        def name(self) -> str: ...
        @property
        def score(self) -> float: ...
        @property
        def scores(self) -> Dict[str, Any]: ...
        @property
        def segment_scores(self) -> Any: ...
        @property
        def signature(self) -> Any: ...

    def to_dict(self, segments: bool = False) -> Dict[str, Any]:
        """Plain Python values, JSON-ready: name, score, scores, signature (and segment scores if asked)."""
        result: Dict[str, Any] = {"name": self.name, "score": _plain(self.score),
                                  "scores": {key: _plain(value) for key, value in self.scores.items()},
                                  "signature": str(self.signature)}
        if segments:
            result["segment_scores"] = np.asarray(self.segment_scores).tolist()
        return result

    def to_json(self, segments: bool = False, indent: Optional[int] = None) -> str:
        return json.dumps(self.to_dict(segments=segments), indent=indent, ensure_ascii=False)

    def to_pandas(self):
        """Per-segment scores as a DataFrame (one row per segment; one column per score where the
        metric has several); pandas is imported only here.

        When the inputs were pandas objects the frame has their index (the rows kept, under
        ``nulls="skip"``), so ``df["bleu"] = result.to_pandas()["BLEU"]`` lines up on a filtered frame.
        """
        import pandas as pd

        values = np.asarray(self.segment_scores)
        index = self._index if self._index is not None and len(self._index) == len(values) else None
        if values.ndim == 1:
            return pd.DataFrame({self.name: values}, index=index)
        flat = values.reshape(len(values), -1)
        return pd.DataFrame(flat, columns=self._segment_score_columns(flat.shape[1]), index=index)

    def _segment_score_columns(self, width: int) -> list:
        return [f"{self.name}[{index}]" for index in range(width)]

    def ci(self, n_samples: int = 1000, seed: Optional[int] = None, confidence: float = 0.95):
        """A bootstrap confidence interval of ``score``: segments resampled with replacement
        ``n_samples`` times, each resample scored from its summed statistics.

        Returns a ``nlgmetrics.stats.ConfidenceInterval`` (``score``, ``low``, ``high``, ``mean``).
        """
        from nlgmetrics.stats.significance import interval_from_result

        if self._metric is None:
            raise ValueError(f"this {type(self).__name__} was not made by a registered metric; "
                             "use nlgmetrics.confidence_interval(hypotheses, references, metric=…)")
        return interval_from_result(self, self._metric, n_samples=n_samples, seed=seed, confidence=confidence)

    def _repr_html_(self) -> str:
        """A compact table for notebooks: every named score and the signature."""
        from nlgmetrics.report.notebook import result_table_html

        segments = len(np.asarray(self.segment_scores))
        caption = f"{self.name} · {segments} segment{'s' if segments != 1 else ''}"
        return result_table_html(caption, _flat_scores(self.scores), self.signature)


class SummaryResult:
    """The shared result shape for results that are not one metric's corpus number (COCO's caption scores,
    the SQuAD script's output, a paired test, a confidence interval): ``name``, ``score`` (the headline),
    ``scores`` (plain named numbers), ``to_dict()``, ``to_json()``, ``to_pandas()``, ``_repr_html_()``.

    A subclass provides ``name``, ``score``, ``scores``, ``signature`` (or None), ``_frame()`` (the rows of
    ``to_pandas``: ``(columns dict, index)``) and may add keys to ``to_dict`` with ``_dict_extras()``.
    """

    if TYPE_CHECKING:  # what every subclass provides (fields or properties), declared for type checkers
        @property
        def name(self) -> str: ...
        @property
        def score(self) -> float: ...
        @property
        def scores(self) -> Dict[str, Any]: ...

    def to_dict(self) -> Dict[str, Any]:
        """Plain values: ``name``, ``score``, ``scores``, ``signature`` and the result's own fields."""
        signature = getattr(self, "signature", None)
        return {"name": self.name, "score": _plain(self.score),
                "scores": {key: _plain(value) for key, value in self.scores.items()},
                "signature": None if signature is None else str(signature), **self._dict_extras()}

    def _dict_extras(self) -> Dict[str, Any]:
        return {}

    def to_json(self, indent: Optional[int] = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_pandas(self):
        """The result's rows as a DataFrame (pandas is imported only here)."""
        import pandas as pd

        columns, index = self._frame()
        return pd.DataFrame(columns, index=index)

    def _frame(self):
        return {key: [value] for key, value in self.scores.items()}, None

    def _repr_html_(self) -> str:
        from nlgmetrics.report.notebook import result_table_html

        return result_table_html(self.name, self.scores, getattr(self, "signature", None))


def _flat_scores(scores: Dict[str, Any]) -> Dict[str, Any]:
    """Named numbers one level deep (``{"rouge1": Score(p, r, f)}`` → ``rouge1 precision`` …)."""
    flat: Dict[str, Any] = {}
    for key, value in scores.items():
        if hasattr(value, "_asdict"):
            flat.update({f"{key} {part}": number for part, number in value._asdict().items()})
        else:
            flat[key] = value
    return flat


def _plain(value: Any) -> Any:
    if hasattr(value, "_asdict"):
        return {key: _plain(number) for key, number in value._asdict().items()}
    if isinstance(value, (np.floating, float)):
        return float(value)
    if isinstance(value, (np.integer, int)) and not isinstance(value, bool):
        return int(value)
    return value
