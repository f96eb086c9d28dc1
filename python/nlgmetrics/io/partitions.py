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

import copy
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

__all__ = ["PartitionScorer", "StreamScorer", "Metrics", "metric_entries", "reference_columns", "record_batches"]


def reference_columns(refs: Union[str, Sequence[str]]) -> list:
    """``refs`` as a list of column names (one name: one reference column, or a list column)."""
    names = [refs] if isinstance(refs, str) else list(refs)
    if not names or not all(isinstance(name, str) for name in names):
        raise TypeError("refs must be a column name or a list of column names")
    return names


#: What ``metric`` may be in the engines' ``score``: a name, a list of names, or a {name: options} mapping.
Metrics = Union[str, Sequence[str], Mapping[str, Optional[Dict[str, Any]]]]


def metric_entries(metric: Metrics) -> Dict[str, Dict[str, Any]]:
    """``metric`` as {name: its own options}, checked (the shared ``**options`` are added where each is built).

    >>> metric_entries("bleu"), metric_entries(["bleu", "chrf"]), metric_entries({"chrf": {"word_order": 2}})
    ({'bleu': {}}, {'bleu': {}, 'chrf': {}}, {'chrf': {'word_order': 2}})
    """
    if isinstance(metric, str):
        return {metric: {}}
    if isinstance(metric, Mapping):
        names, options = list(metric), [dict(own or {}) for own in metric.values()]
    elif isinstance(metric, (list, tuple)):
        names, options = list(metric), [{} for _ in metric]
    else:
        raise TypeError("metric must be a metric name, a list of names or a {name: options} mapping, "
                        f"got {type(metric).__name__}")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"metric names must be str, got {type(name).__name__}")
    if not names:
        raise ValueError("no metric given")
    if len(set(names)) != len(names):
        raise ValueError(f"a metric is listed twice in {names!r}; give each once "
                         "(to score one metric two ways, call score twice)")
    return dict(zip(names, options))


class PartitionScorer:
    """What an executor needs to score its partition: the metrics' names and options and the column names.

    Plain data, so it pickles small; the metric objects are built where they run. Several metrics read each
    batch once; their states travel together as one bytes value, and ``merge`` gives {name: result}.

    >>> import pyarrow as pa
    >>> both = PartitionScorer(["bleu", "chrf"], {}, hyp="hyp", refs="ref")
    >>> table = pa.table({"hyp": ["the cat sat", "a dog"], "ref": ["the cat sat down", "a dog ran"]})
    >>> results = both.merge([both.state_bytes(table.to_batches())])
    >>> sorted(results), results["chrf"].score == PartitionScorer("chrf", {}, hyp="hyp", refs="ref").merge(
    ...     [PartitionScorer("chrf", {}, hyp="hyp", refs="ref").state_bytes(table.to_batches())]).score
    (['bleu', 'chrf'], True)
    """

    def __init__(self, metric: Metrics, options: Dict[str, Any], *, hyp: str, refs: Union[str, Sequence[str]],
                 nulls: str = "error"):
        if not isinstance(hyp, str):
            raise TypeError(f"hyp must be a column name (str), got {type(hyp).__name__}")
        self.metrics = metric_entries(metric)
        self.several = not isinstance(metric, str)
        self.options = dict(options)  # shared by every metric (e.g. ``threads``)
        # src="column": the sources of metrics that read them (COMET), given like an option to every engine
        self.src = self.options.pop("src", None)
        if self.src is not None and not isinstance(self.src, str):
            raise TypeError(f"src must be a column name (str), got {type(self.src).__name__}")
        self.hyp = hyp
        self.refs = reference_columns(refs)
        self.nulls = nulls
        self.new_metrics(totals_only=True)  # bad metric names and options fail here, on the driver

    def with_options(self, **options: Any) -> "PartitionScorer":
        """A copy with ``options`` added for every metric (e.g. ``threads`` chosen where the partition is scored)."""
        scorer = copy.copy(self)
        scorer.options = {**self.options, **options}
        return scorer

    @property
    def columns(self) -> list:
        return list(dict.fromkeys([self.hyp, *self.refs] + ([self.src] if self.src is not None else [])))

    def new_metrics(self, totals_only: bool) -> list:
        """Fresh metrics, in order; with ``totals_only`` a ``sum`` metric keeps its column totals only."""
        import nlgmetrics

        fresh = []
        for name, own in self.metrics.items():
            options = {**self.options, **own}
            metric = nlgmetrics.metric(name, **options)
            if totals_only and type(metric).supports_totals(metric.options):
                metric = nlgmetrics.metric(name, **options, segments=False)
            fresh.append(metric)
        return fresh

    def _columns_of(self, batch) -> tuple:
        refs = [batch.column(name) for name in self.refs]
        return batch.column(self.hyp), refs[0] if len(refs) == 1 else refs

    def update(self, metrics: list, batch) -> None:
        """``update`` of every metric on one batch; errors name the columns (row numbers count within the batch)."""
        hyps, refs = self._columns_of(batch)
        for metric in metrics:
            extra = {}
            if getattr(metric, "needs_sources", False):
                if self.src is None:
                    raise TypeError(f"{metric.name} needs the source of every row: pass src=<column name>")
                extra["sources"] = batch.column(self.src)
            try:
                metric.update(hyps, refs, nulls=self.nulls, **extra)
            except (TypeError, ValueError) as error:
                raise type(error)(f"hypotheses column {self.hyp!r}, references {self.refs!r}: {error}") from None

    def check_schema(self, names: Sequence[str], where: str) -> None:
        """TableError (a ValueError) naming the first missing column."""
        from nlgmetrics.io.tabular import check_columns

        check_columns(names, self.columns, where)

    def state_bytes(self, batches: Iterable[Any]) -> bytes:
        """The ``MetricState`` of some Arrow record batches (or tables), as bytes (every metric's, together)."""
        metrics = self.new_metrics(totals_only=True)
        for batch in batches:
            for piece in record_batches(batch):
                self.update(metrics, piece)
        return self.pack(metrics)

    @staticmethod
    def pack(metrics: list) -> bytes:
        """The metrics' states as one bytes value: each state's length (8 bytes, little-endian), then the state."""
        return b"".join(len(blob).to_bytes(8, "little") + blob for blob in (m.state().to_bytes() for m in metrics))

    def _unpack(self, packed: bytes) -> list:
        blobs, at = [], 0
        while at < len(packed):
            size = int.from_bytes(packed[at:at + 8], "little")
            blobs.append(packed[at + 8:at + 8 + size])
            at += 8 + size
        if len(blobs) != len(self.metrics) or at != len(packed):
            raise ValueError(f"a partition's states do not match the metrics {list(self.metrics)}")
        return blobs

    def merge(self, states: Iterable[bytes]):
        """The result of the states (in the order given), as the single-process call would give it: one result,
        or {name: result} when several metrics were asked for."""
        from nlgmetrics.core.state import MetricState

        metrics = self.new_metrics(totals_only=True)
        for packed in states:  # Metric.merge keeps parts and joins them once, at compute()
            for metric, blob in zip(metrics, self._unpack(packed)):
                metric.merge(MetricState.from_bytes(blob))
        results = {name: metric._saw_empty_input().compute() for name, metric in zip(self.metrics, metrics)}
        return results if self.several else next(iter(results.values()))

    def one_metric(self, what: str) -> None:
        """ValueError unless one metric was asked for (``what`` names the function that needs one)."""
        if self.several:
            raise ValueError(f"{what} takes one metric, got {list(self.metrics)}; call it once per metric")

    def segment_scores(self, batch):
        """One score per row of an Arrow batch, as a float64 Arrow array (null for rows ``nulls="skip"`` left out)."""
        import pyarrow as pa

        metric, = self.new_metrics(totals_only=False)
        self.update([metric], batch)
        scores = headline_segment_scores(metric.compute())
        kept = metric.last_kept_rows
        if kept is None:
            return pa.array(scores, pa.float64())
        full = np.zeros(batch.num_rows)
        full[kept] = scores
        missing = np.ones(batch.num_rows, bool)
        missing[kept] = False
        return pa.array(full, pa.float64(), mask=missing)


def record_batches(data: Any) -> list:
    """The non-empty record batches of a RecordBatch or a Table, without copying: a Table's chunks are scored
    one by one rather than combined (combining copies every string of a whole Ray block or Spark partition).

    >>> import pyarrow as pa
    >>> table = pa.concat_tables([pa.table({"hyp": ["a", "b"]}), pa.table({"hyp": ["c"]})])
    >>> [batch.num_rows for batch in record_batches(table)]
    [2, 1]
    """
    import pyarrow as pa

    pieces = data.to_batches() if isinstance(data, pa.Table) else [data]
    return [piece for piece in pieces if piece.num_rows]


def headline_segment_scores(result) -> np.ndarray:
    """One float per segment: the result's segment scores, or for ROUGE (segments × variants × P/R/F) the
    first variant's F-measure."""
    scores = np.asarray(result.segment_scores, dtype=np.float64)
    if scores.ndim == 3:
        return np.ascontiguousarray(scores[:, 0, 2])
    return scores if scores.ndim == 1 else np.ascontiguousarray(scores.reshape(len(scores), -1)[:, 0])


def totals_state(metric: Any, state: Any):
    """The column totals of a ``sum`` metric's state with rows, as a totals-only state (what ``segments=False`` keeps)."""
    from nlgmetrics.core.state import MetricState

    return MetricState(state.metric, dict(state.options), {"totals": np.asarray(metric.totals(state))}, {"totals": "sum"},
                       state.n_segments, state.ref_counts)


class StreamScorer:
    """One metric over a stream of batches in bounded memory: only each batch's summed statistics are kept
    where the metric allows it; with ``per_row`` each ``add`` also returns the batch's per-row scores.

    >>> stream = StreamScorer("bleu", {}, per_row=True)
    >>> stream.add(["the cat sat on the mat"], ["the cat sat on the mat"]).tolist()
    [100.00000000000004]
    >>> stream.add(["a dog"], ["the dog"]).tolist()  # sacreBLEU's sentence_bleu: 50 (effective order)
    [49.99999999999999]
    >>> import nlgmetrics
    >>> stream.result().score == nlgmetrics.bleu(["the cat sat on the mat", "a dog"],
    ...                                          ["the cat sat on the mat", "the dog"]).score
    True
    """

    def __init__(self, metric: str, options: Dict[str, Any], *, per_row: bool = False):
        import nlgmetrics

        self.metric = nlgmetrics.metric(metric, **options)
        self.totals_only = type(self.metric).supports_totals(self.metric.options)
        self.per_row = per_row
        if self.totals_only and not per_row:  # one running metric that keeps column totals only
            self.metric = nlgmetrics.metric(metric, **options, segments=False)
        self.states: list = []

    @property
    def needs_sources(self) -> bool:
        """Whether the metric reads the source of every row (COMET): ``add(..., sources=column)``."""
        return bool(getattr(self.metric, "needs_sources", False))

    def add(self, hypotheses: Any, references: Any, *, nulls: str = "error", **sources: Any):
        """Score one batch; with ``per_row`` return its per-row scores (float64 NumPy array, NaN where
        ``nulls="skip"`` left a row out). ``sources=``: the batch's sources, for metrics that read them."""
        if self.totals_only and not self.per_row:
            self.metric.update(hypotheses, references, nulls=nulls, **sources)
            return None
        batch = copy.copy(self.metric).reset()
        batch.update(hypotheses, references, nulls=nulls, **sources)
        state = batch.state()
        self.states.append(totals_state(batch, state) if self.totals_only else state)
        if not self.per_row:
            return None
        scores = headline_segment_scores(batch.result_from_state(state))
        if batch.last_kept_rows is None:
            return scores
        full = np.full(len(hypotheses), np.nan)
        full[batch.last_kept_rows] = scores
        return full

    def result(self):
        """The result of every batch added."""
        if self.totals_only and not self.per_row:
            return self.metric._saw_empty_input().compute()
        final = type(self.metric).from_options(self.metric.options, segments=not self.totals_only)
        for state in self.states:
            final.merge(state)
        return final._saw_empty_input().compute()
