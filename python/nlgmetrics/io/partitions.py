"""Scoring a table split into partitions (Spark, Ray, or batches of one file): each partition's Arrow
batches go through ``Metric.update`` into a ``MetricState``, the states travel as bytes, and merging them
in partition order gives the single-process result.

``sum`` metrics (BLEU, chrF, TER, METEOR) keep only their summed statistics per partition
(``segments=False``), so what travels is a few hundred bytes whatever the partition's size; the others
keep their per-segment rows, as their corpus number needs them.

>>> import pyarrow as pa
>>> scorer = PartitionScorer("chrf", {}, hyp="hyp", refs=["ref"])
>>> table = pa.table({"hyp": ["the cat sat", "a dog"], "ref": ["the cat sat down", "a dog ran"]})
>>> halves = [scorer.state_bytes(table.slice(0, 1).to_batches()), scorer.state_bytes(table.slice(1).to_batches())]
>>> import nlgmetrics
>>> scorer.merge(halves).score == nlgmetrics.chrf(["the cat sat", "a dog"], ["the cat sat down", "a dog ran"]).score
True
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Sequence, Union

import numpy as np

__all__ = ["PartitionScorer", "reference_columns"]


def reference_columns(refs: Union[str, Sequence[str]]) -> list:
    """``refs`` as a list of column names (one name: one reference column, or a list column)."""
    names = [refs] if isinstance(refs, str) else list(refs)
    if not names or not all(isinstance(name, str) for name in names):
        raise TypeError("refs must be a column name or a list of column names")
    return names


class PartitionScorer:
    """What an executor needs to score its partition: the metric's name and options and the column names.

    Plain data, so it pickles small; the metric object is built where it runs.
    """

    def __init__(self, metric: str, options: Dict[str, Any], *, hyp: str, refs: Union[str, Sequence[str]],
                 nulls: str = "error"):
        if not isinstance(metric, str):
            raise TypeError(f"metric must be a metric name (str), got {type(metric).__name__}")
        if not isinstance(hyp, str):
            raise TypeError(f"hyp must be a column name (str), got {type(hyp).__name__}")
        self.metric_name = metric
        self.options = dict(options)
        self.hyp = hyp
        self.refs = reference_columns(refs)
        self.nulls = nulls
        self.new_metric(totals_only=True)  # bad metric names and options fail here, on the driver

    @property
    def columns(self) -> list:
        return list(dict.fromkeys([self.hyp, *self.refs]))

    def new_metric(self, totals_only: bool):
        """A fresh metric; with ``totals_only`` a ``sum`` metric keeps its column totals only."""
        import nlgmetrics

        metric = nlgmetrics.metric(self.metric_name, **self.options)
        if totals_only and type(metric).supports_totals(metric.options):
            return nlgmetrics.metric(self.metric_name, **self.options, segments=False)
        return metric

    def _columns_of(self, batch) -> tuple:
        refs = [batch.column(name) for name in self.refs]
        return batch.column(self.hyp), refs[0] if len(refs) == 1 else refs

    def _update(self, metric, batch) -> None:
        """``metric.update`` on one batch; errors name the columns (row numbers count within the batch)."""
        hyps, refs = self._columns_of(batch)
        try:
            metric.update(hyps, refs, nulls=self.nulls)
        except (TypeError, ValueError) as error:
            raise type(error)(f"hypotheses column {self.hyp!r}, references {self.refs!r}: {error}") from None

    def check_schema(self, names: Sequence[str], where: str) -> None:
        """ValueError naming the first missing column."""
        for column in self.columns:
            if column not in names:
                raise ValueError(f"{where}: no column {column!r} (columns: {', '.join(names)})")

    def state_bytes(self, batches: Iterable[Any]) -> bytes:
        """The ``MetricState`` of some Arrow record batches (or tables), as bytes."""
        metric = self.new_metric(totals_only=True)
        for batch in batches:
            if batch.num_rows:
                self._update(metric, batch)
        return metric.state().to_bytes()

    def merge(self, states: Iterable[bytes]):
        """The result of the states (in the order given), as the single-process call would give it."""
        from nlgmetrics.core.state import MetricState

        metric = self.new_metric(totals_only=True)
        for state in states:
            metric.merge(MetricState.from_bytes(state))
        return metric.compute()

    def segment_scores(self, batch):
        """One score per row of an Arrow batch, as a float64 Arrow array (null for rows ``nulls="skip"`` left out)."""
        import pyarrow as pa

        metric = self.new_metric(totals_only=False)
        self._update(metric, batch)
        scores = headline_segment_scores(metric.compute())
        kept = metric.last_kept_rows
        if kept is None:
            return pa.array(scores, pa.float64())
        full = np.zeros(batch.num_rows)
        full[kept] = scores
        missing = np.ones(batch.num_rows, bool)
        missing[kept] = False
        return pa.array(full, pa.float64(), mask=missing)


def headline_segment_scores(result) -> np.ndarray:
    """One float per segment: the result's segment scores, or their first column when there are several
    (e.g. a ROUGE result's first variant's F-measure)."""
    scores = np.asarray(result.segment_scores, dtype=np.float64)
    return scores if scores.ndim == 1 else scores.reshape(len(scores), -1)[:, 0]
