"""Scoring Spark DataFrames (``pip install "nlgmetrics[spark]"``).

``score`` gives the corpus result of a DataFrame's columns: every partition's Arrow batches
(``mapInArrow``, no row ever becomes a Python object on the JVM side) go through ``Metric.update`` into a
``MetricState``; the states, a few hundred bytes each for BLEU/chrF/TER/METEOR, are merged on the driver in
partition order. The result is the single-process one: bit for bit where the statistics are integers (BLEU,
chrF), to the last bits of a float sum otherwise (TER's average reference lengths).

``with_segment_scores`` adds a column with each row's score, computed over whole Arrow batches.

Example (``refs`` names one column per reference, or one ``array<string>`` column):

    from pyspark.sql import SparkSession
    import nlgmetrics.spark

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    df = spark.read.parquet("outputs.parquet")                       # columns: id, hyp, ref_a, ref_b
    result = nlgmetrics.spark.score(df, "bleu", hyp="hyp", refs=["ref_a", "ref_b"])
    print(result.score, result.signature)
    scored = nlgmetrics.spark.with_segment_scores(df, "chrf", hyp="hyp", refs=["ref_a", "ref_b"], output="chrf")
    scored.write.parquet("scored.parquet")

For Parquet files, ``score_parquet`` is faster: Spark's Python workers read the files' row groups with
PyArrow themselves, so no text goes through the JVM (its Parquet reader, rows, Arrow conversion; cold in a
new session):

    result = nlgmetrics.spark.score_parquet("outputs.parquet", "bleu", hyp="hyp", refs=["ref_a", "ref_b"])

``metric`` may also be several metrics — a list of names, or a {name: options} mapping — scored in one pass
over the data, giving {name: result}; ``**options`` then apply to every one of them.

>>> import nlgmetrics.spark   # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

from nlgmetrics.io.partitions import Metrics, PartitionScorer

__all__ = ["score", "score_parquet", "with_segment_scores"]


def _scorer(df: Any, metric: Metrics, hyp: str, refs: Union[str, Sequence[str]], nulls: str, options: dict) -> PartitionScorer:
    scorer = PartitionScorer(metric, options, hyp=hyp, refs=refs, nulls=nulls)
    scorer.check_schema(df.columns, "DataFrame")
    return scorer


def score(df: Any, metric: Metrics, *, hyp: str, refs: Union[str, Sequence[str]], nulls: str = "error", **options: Any):
    """The corpus result of ``metric`` (a registered name, e.g. ``"bleu"``, with its ``options``) over the
    DataFrame ``df``: hypotheses in column ``hyp``, references in ``refs``. Nulls as ``nlgmetrics.core.columns``."""
    scorer = _scorer(df, metric, hyp, refs, nulls, options)

    def partition_state(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        state = scorer.state_bytes(batches)
        context = TaskContext.get()
        assert context is not None  # mapInArrow runs this inside a Spark task
        yield pa.RecordBatch.from_pydict({"partition": [context.partitionId()], "state": [state]})

    rows = df.select(*scorer.columns).mapInArrow(partition_state, "partition long, state binary").collect()
    return scorer.merge(row["state"] for row in sorted(rows, key=lambda row: row["partition"]))


def with_segment_scores(df: Any, metric: str, *, hyp: str, refs: Union[str, Sequence[str]], output: str = "score",
                        nulls: str = "error", **options: Any):
    """``df`` with a float column ``output``: each row's ``metric`` score (e.g. sentence BLEU, sentence chrF).
    With ``nulls="skip"`` rows that cannot be scored get a null."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    scorer = _scorer(df, metric, hyp, refs, nulls, options)
    scorer.one_metric("with_segment_scores")
    if output in df.columns:
        raise ValueError(f"DataFrame already has a column {output!r}; choose another output name")
    schema = StructType(df.schema.fields + [StructField(output, DoubleType(), True)])

    def add_scores(batches):
        for batch in batches:
            yield batch.append_column(output, scorer.segment_scores(batch))

    return df.mapInArrow(add_scores, schema)


def score_parquet(paths: Any, metric: Metrics, *, hyp: str, refs: Union[str, Sequence[str]], spark: Any = None,
                  nulls: str = "error", tasks: Optional[int] = None, filesystem: Any = None, **options: Any):
    """The corpus result of ``metric`` over Parquet files, read and scored by Spark's Python workers:
    ``paths`` is a file, a directory or a list of them (local paths, or URIs that ``pyarrow.fs`` reads:
    ``s3://``, ``gs://``, ``hdfs://``; not Hadoop-only schemes such as ``s3a://``, for which read the files
    with ``spark.read.parquet`` and call ``score``), or paths on ``filesystem``. The files' row groups, in
    order, are cut into ``tasks`` slices of about equal rows (default: ``defaultParallelism``), one Spark task
    each; the states are merged in order: the single-process result on the files' rows. ``spark`` is the
    session (default: the active one); a classic one, since the tasks run through its SparkContext (under Spark
    Connect, read the files with ``spark.read.parquet`` and call ``score``).

    Errors in the data (a null, a damaged file, a column that is not text) are raised here as one-line
    ``TableError`` (a ``ValueError``) naming the file and row."""
    from pyspark.sql import SparkSession

    from nlgmetrics.io.parquet_slices import score_files, slice_state

    scorer = PartitionScorer(metric, options, hyp=hyp, refs=refs, nulls=nulls)
    session = spark or SparkSession.getActiveSession()
    if session is None:
        raise ValueError("no active Spark session: pass spark=SparkSession.builder...getOrCreate()")
    context = session.sparkContext

    def run_tasks(task, plan, threads):
        filesystem = plan.filesystem
        return context.parallelize(plan.slices, len(plan.slices)).map(
            lambda part: slice_state(task, part, filesystem)).collect()  # in the slices' order

    # Spark does not say how many cores an executor's machine has: this machine's count stands in for it.
    return score_files(scorer, paths, cpus=max(1, context.defaultParallelism), node_cpus=os.cpu_count() or 1,
                       tasks=tasks, filesystem=filesystem, run_tasks=run_tasks)
