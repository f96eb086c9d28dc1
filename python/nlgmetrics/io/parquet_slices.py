"""Parquet files cut into slices of row groups, one slice a task, for scoring on Spark, Ray or Dask without
passing the text through the engine.

Where the job starts, the files are listed and their footers read (no data); their row groups, in file
order, are cut into contiguous runs of about equal rows. Each task reads its run with PyArrow, checks and
scores it batch by batch, and returns the ``MetricState`` as bytes (a few hundred bytes for BLEU, chrF, TER
and METEOR); the states merged in slice order give the single-process result on the files' rows in order.

A task's expected errors (a null, a damaged file, a column that is not text) come back as data and are raised
on the caller as one-line ``TableError`` naming the file and row, instead of an engine's wrapped traceback
(and without the engine retrying a task that can only fail again).

>>> import os, tempfile
>>> import pyarrow as pa, pyarrow.parquet as pq
>>> import nlgmetrics
>>> from nlgmetrics.io.partitions import PartitionScorer
>>> folder = tempfile.mkdtemp()
>>> hyps, refs = ["the cat sat", "a dog ran", "it rains"], ["the cat sat down", "a dog ran off", "it pours"]
>>> pq.write_table(pa.table({"hyp": hyps, "ref": refs}), os.path.join(folder, "part-0.parquet"), row_group_size=1)
>>> plan = plan_slices(folder, ["hyp", "ref"], tasks=2)
>>> [[(os.path.basename(piece.path), piece.row_groups) for piece in part.pieces] for part in plan.slices]
[[('part-0.parquet', (0,))], [('part-0.parquet', (1, 2))]]
>>> scorer = PartitionScorer("chrf", {}, hyp="hyp", refs="ref")
>>> states = [raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices]
>>> scorer.merge(states).score == nlgmetrics.chrf(hyps, refs).score
True
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from nlgmetrics.io.tabular import (
    BATCH_ROWS,
    PARQUET_BUFFER_BYTES,
    TableError,
    check_columns,
    check_text_column,
    list_files,
    one_line,
)

__all__ = ["RowGroups", "ParquetSlice", "ParquetPlan", "plan_slices", "slice_state", "raise_failure", "task_threads",
           "score_files"]

#: Footers read at once when listing (they are small; on object stores each read is a round trip).
FOOTER_READERS = 16


@dataclass(frozen=True)
class RowGroups:
    """Consecutive row groups of one file; ``first_row`` is the file's row (0-based) the first one starts at."""

    path: str
    row_groups: Tuple[int, ...]
    first_row: int


@dataclass(frozen=True)
class ParquetSlice:
    """The row groups one task reads and scores, in the order of the files' rows."""

    pieces: Tuple[RowGroups, ...]
    rows: int


@dataclass(frozen=True)
class ParquetPlan:
    """The files' filesystem (a picklable ``pyarrow.fs.FileSystem``) and their slices, in order."""

    filesystem: Any
    slices: Tuple[ParquetSlice, ...]
    rows: int


def plan_slices(paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]], columns: Sequence[str],
                *, tasks: int, filesystem: Any = None) -> ParquetPlan:
    """Up to ``tasks`` slices of about equal rows over the Parquet files ``paths`` names (files or
    directories, read recursively, skipping names that start with ``.`` or ``_`` as Spark and PyArrow do;
    URIs such as ``s3://`` or ``gs://`` through ``pyarrow.fs``). Every file must have ``columns``."""
    if isinstance(tasks, bool) or not isinstance(tasks, int) or tasks < 1:
        raise ValueError(f"tasks must be a positive int, got {tasks!r}")
    filesystem, files = list_files(paths, filesystem)
    with ThreadPoolExecutor(min(FOOTER_READERS, len(files))) as pool:
        row_counts = list(pool.map(lambda path: _row_group_rows(filesystem, path, columns), files))
    groups = [(path, index, first, rows) for path, counts in zip(files, row_counts)
              for index, (first, rows) in enumerate(_starts(counts))]
    total = sum(rows for *_, rows in groups)
    return ParquetPlan(filesystem, tuple(_cut(groups, total, tasks)), total)


def _row_group_rows(filesystem: Any, path: str, columns: Sequence[str]) -> List[int]:
    """The rows of each row group of ``path`` (its footer only), after checking it has ``columns``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        with filesystem.open_input_file(path) as handle:
            metadata = pq.ParquetFile(handle).metadata
    except (pa.ArrowInvalid, OSError) as error:
        raise TableError(f"{path}: not a readable Parquet file (truncated or not Parquet): {one_line(error)}") from None
    check_columns(metadata.schema.to_arrow_schema().names, columns, path)
    return [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]


def _starts(counts: Sequence[int]) -> Iterator[Tuple[int, int]]:
    """(first row, rows) of each row group."""
    first = 0
    for rows in counts:
        yield first, rows
        first += rows


def _cut(groups: list, total: int, parts: int) -> Iterator[ParquetSlice]:
    """Contiguous runs of ``groups`` (path, index, first row, rows), each group going to the slice its middle
    row falls in when the rows are shared out equally (so uneven groups can leave fewer, fuller slices);
    empty slices are left out."""
    if parts >= len(groups):  # a row group is the smallest slice
        for group in groups:
            yield ParquetSlice(tuple(_pieces([group])), group[3])
        return
    runs: List[list] = [[] for _ in range(parts)]
    before = 0
    for group in groups:
        rows = group[3]
        runs[min(parts - 1, (2 * before + rows) * parts // (2 * max(total, 1)))].append(group)
        before += rows
    for run in runs:
        if run:
            yield ParquetSlice(tuple(_pieces(run)), sum(group[3] for group in run))


def _pieces(run: list) -> Iterator[RowGroups]:
    """A run's groups as one ``RowGroups`` per file."""
    start = 0
    for end in range(1, len(run) + 1):
        if end == len(run) or run[end][0] != run[start][0]:
            yield RowGroups(run[start][0], tuple(group[1] for group in run[start:end]), run[start][2])
            start = end


def slice_state(scorer: Any, part: ParquetSlice, filesystem: Any) -> Tuple[str, Any]:
    """Read and score one slice (in the task): ``("state", bytes)``, or ``("error", (kind, message))`` for
    an error in the data, which ``raise_failure`` raises where the job was started."""
    try:
        metrics = scorer.new_metrics(totals_only=True)
        for path, first_row, batch in _batches(part, scorer.columns, filesystem):
            for column in scorer.columns:
                check_text_column(batch, column, path, first_row, scorer.nulls)
            try:
                scorer.update(metrics, batch)
            except (TypeError, ValueError) as error:
                raise TableError(f"{path}: rows {first_row + 1}–{first_row + batch.num_rows}: {error}") from None
        return "state", scorer.pack(metrics)
    except (TypeError, ValueError) as error:  # TableError is a ValueError
        return "error", (type(error).__name__, str(error))


def _batches(part: ParquetSlice, columns: Sequence[str], filesystem: Any) -> Iterator[Tuple[str, int, Any]]:
    """(file, first row of the batch in the file, record batch) for the slice's rows, in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for piece in part.pieces:
        first_row = piece.first_row
        try:
            with filesystem.open_input_file(piece.path) as handle:
                # Memory bounded per task: no pre-buffering of whole column chunks (see io.tabular).
                parquet = pq.ParquetFile(handle, pre_buffer=False, buffer_size=PARQUET_BUFFER_BYTES)
                batches = parquet.iter_batches(batch_size=BATCH_ROWS, row_groups=list(piece.row_groups),
                                               columns=list(dict.fromkeys(columns)), use_threads=False)
                for batch in batches:
                    yield piece.path, first_row, batch
                    first_row += batch.num_rows
        except (pa.ArrowInvalid, OSError) as error:
            raise TableError(f"{piece.path}: the Parquet data is damaged or truncated: {one_line(error)}") from None


def raise_failure(outcome: Tuple[str, Any]) -> bytes:
    """The state bytes of a ``slice_state`` outcome, or its error raised here (TypeError or TableError)."""
    kind, value = outcome
    if kind == "state":
        return value
    name, message = value
    raise (TypeError if name == "TypeError" else TableError)(message)


def task_threads(cpus: int, slices: int) -> int:
    """Rust threads for each task when ``slices`` tasks share ``cpus`` CPUs: one each when there are enough
    tasks to keep every CPU busy, the CPUs shared out when there are fewer.

    >>> task_threads(2, 2), task_threads(8, 2), task_threads(2, 5)
    (1, 4, 1)
    """
    return max(1, cpus // max(1, slices))


def score_files(scorer: Any, paths: Any, *, cpus: int, node_cpus: int, tasks: Optional[int], filesystem: Any,
                run_tasks: Callable[[Any, ParquetPlan, int], Iterable[Tuple[str, Any]]]):
    """The result of ``scorer`` over the Parquet files ``paths``: planned here in ``tasks`` slices (default: one
    per CPU of ``cpus``, the cluster's), scored by ``run_tasks(scorer, plan, threads)`` — an engine's way of
    running ``slice_state`` on every slice, giving the outcomes in the slices' order — and merged in that order.
    A task's threads share out the cluster's CPUs when there are fewer slices, up to ``node_cpus``."""
    plan = plan_slices(paths, scorer.columns, tasks=cpus if tasks is None else tasks, filesystem=filesystem)
    threads = min(task_threads(cpus, len(plan.slices)), max(1, node_cpus))
    task = scorer if "threads" in scorer.options else scorer.with_options(threads=threads)
    return scorer.merge(raise_failure(outcome) for outcome in run_tasks(task, plan, threads))
