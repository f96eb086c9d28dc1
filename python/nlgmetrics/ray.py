"""Scoring Ray Data datasets (``pip install "nlgmetrics[ray]"``).

``score`` runs ``map_batches`` over Arrow batches: each batch's ``MetricState`` (a few hundred bytes
for BLEU/chrF/TER/METEOR) comes back to the caller, and the states are merged in the dataset's order
into the single-process result (bit for bit where the statistics are integers: BLEU, chrF).
``with_segment_scores`` returns the dataset with a column of per-row scores.

Example:

    import ray, ray.data
    import nlgmetrics.ray

    ray.init(num_cpus=2)
    ds = ray.data.read_parquet("outputs.parquet")                     # columns: hyp, ref_a, ref_b
    result = nlgmetrics.ray.score(ds, "chrf", hyp="hyp", refs=["ref_a", "ref_b"])
    print(result.score)
    scored = nlgmetrics.ray.with_segment_scores(ds, "bleu", hyp="hyp", refs=["ref_a", "ref_b"], output="bleu")

>>> import nlgmetrics.ray   # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from nlgmetrics.io.partitions import PartitionScorer

__all__ = ["score", "with_segment_scores"]

#: Rows per ``map_batches`` call: large enough that the per-call cost vanishes, small enough for memory.
BATCH_ROWS = 65_536


def _scorer(ds: Any, metric: str, hyp: str, refs: Union[str, Sequence[str]], nulls: str, options: dict) -> PartitionScorer:
    scorer = PartitionScorer(metric, options, hyp=hyp, refs=refs, nulls=nulls)
    schema = ds.schema()
    if schema is not None:
        scorer.check_schema(list(schema.names), "Dataset")
    return scorer


def score(ds: Any, metric: str, *, hyp: str, refs: Union[str, Sequence[str]], nulls: str = "error",
          batch_size: Optional[int] = BATCH_ROWS, **options: Any):
    """The corpus result of ``metric`` (a registered name, with its ``options``) over the Dataset ``ds``:
    hypotheses in column ``hyp``, references in ``refs`` (column names, or one list column)."""
    import pyarrow as pa
    import ray.data

    scorer = _scorer(ds, metric, hyp, refs, nulls, options)

    def batch_state(table):
        return pa.table({"state": pa.array([scorer.state_bytes([table])], pa.binary())})

    context = ray.data.DataContext.get_current()
    preserve = context.execution_options.preserve_order
    context.execution_options.preserve_order = True  # states merged in the dataset's row order
    try:
        states = ds.select_columns(scorer.columns).map_batches(
            batch_state, batch_format="pyarrow", batch_size=batch_size, zero_copy_batch=True).take_all()
    finally:
        context.execution_options.preserve_order = preserve
    return scorer.merge(row["state"] for row in states)


def with_segment_scores(ds: Any, metric: str, *, hyp: str, refs: Union[str, Sequence[str]], output: str = "score",
                        nulls: str = "error", batch_size: Optional[int] = BATCH_ROWS, **options: Any):
    """``ds`` with a float column ``output`` holding each row's ``metric`` score (null for rows
    ``nulls="skip"`` leaves out)."""
    scorer = _scorer(ds, metric, hyp, refs, nulls, options)

    def add_scores(table):
        if output in table.column_names:
            raise ValueError(f"Dataset already has a column {output!r}; choose another output name")
        return table.append_column(output, scorer.segment_scores(table))

    return ds.map_batches(add_scores, batch_format="pyarrow", batch_size=batch_size, zero_copy_batch=True)
