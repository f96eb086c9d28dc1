"""``nlgmetrics score``: several metrics over the columns of a table, streamed in batches.

    nlgmetrics score FILE -m bleu,chrf,rouge --hyp COL --ref COL [--ref COL2] [--output FILE] [-f json]
                     [--nulls error|empty|skip] [-o METRIC.OPTION=VALUE ...]

FILE is Parquet, JSONL, CSV or TSV (by extension; ``-`` reads JSONL from standard input), or a folder of such
part files as Spark, Dask and Ray write them (read in path order; ``_SUCCESS``, ``.crc`` and other names that
start with ``_`` or ``.`` skipped). ``--ref`` names one column per reference (given several times for several
references) or one list column. Memory stays bounded:
metrics whose corpus score is a sum of statistics (BLEU, chrF, TER, METEOR) keep only the sums; with
``--output`` the input rows are written with one score column per metric, through a temporary file renamed
only when every row is scored.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List

from nlgmetrics.cli import metrics as cli_metrics
from nlgmetrics.cli.output import decimals
from nlgmetrics.cli.progress import Progress
from nlgmetrics.io.table import format_table


def add_score_command(commands) -> None:
    score = commands.add_parser(
        "score", help="score the columns of a Parquet/JSONL/CSV/TSV table with several metrics",
        description=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    score.add_argument("file", metavar="FILE", help="Parquet, JSONL, CSV or TSV table, or a folder of them; - reads JSONL from standard input")
    score.add_argument("-m", "--metrics", default="bleu", help="comma-separated metrics (default bleu), e.g. bleu,chrf,rouge")
    score.add_argument("--hyp", required=True, metavar="COL", help="the hypotheses' column")
    score.add_argument("--ref", required=True, action="append", metavar="COL",
                       help="a references' column (repeat for several references per row), or one list column")
    score.add_argument("--src", metavar="COL", help="the sources' column (metrics that read sources: comet)")
    score.add_argument("-o", "--output", metavar="FILE", help="write the input rows plus one score column per metric "
                                                        "(.parquet, .jsonl, .csv or .tsv)")
    score.add_argument("--input-format", choices=["parquet", "jsonl", "csv", "tsv"], help="FILE's format, if its "
                                                                                         "extension does not say")
    score.add_argument("--nulls", choices=["error", "empty", "skip"], default="error",
                       help="null texts: stop with an error (default), score them as empty, or skip their rows")
    score.add_argument("--option", action="append", default=[], metavar="METRIC.OPTION=VALUE",
                       help="a metric option, e.g. bleu.tokenize=intl or chrf.word_order=2 (JSON values)")
    score.add_argument("--batch-rows", type=int, default=65_536, help="rows per batch (default 65536)")
    score.add_argument("-f", "--format", choices=["text", "json"], default="text", help="output format (default text)")
    score.add_argument("-w", "--width", type=decimals, default=2, help="decimals shown in text output (default 2)")


def metric_options(names: List[str], settings: List[str]) -> Dict[str, Dict[str, Any]]:
    """``{metric: {option: value}}`` from ``METRIC.OPTION=VALUE`` settings (values read as JSON, else as text).

    >>> metric_options(["bleu", "chrf"], ["bleu.tokenize=intl", "chrf.word_order=2"])
    {'bleu': {'tokenize': 'intl'}, 'chrf': {'word_order': 2}}
    """
    options: Dict[str, Dict[str, Any]] = {name: {} for name in names}
    for setting in settings:
        key, equals, text = setting.partition("=")
        metric, dot, option = key.partition(".")
        if not equals or not dot or not option:
            raise ValueError(f"option {setting!r} is not METRIC.OPTION=VALUE")
        if metric not in options:
            raise ValueError(f"option {setting!r} is for {metric!r}, which is not among the metrics ({', '.join(names)})")
        try:
            value = json.loads(text)
        except ValueError:
            value = text
        options[metric][option.replace("-", "_")] = value
    return options


def run_score(args) -> str:
    """Reads the table in batches, scores every metric, writes ``--output``; returns the summary to print."""
    from nlgmetrics.io.memory import steady_peak_memory
    from nlgmetrics.io.partitions import StreamScorer
    from nlgmetrics.io.tabular import TableError, TableWriter, check_text_column, table_files

    names = [name.strip().lower() for name in args.metrics.split(",") if name.strip()]
    if not names:
        raise ValueError("--metrics names no metric")
    if args.batch_rows < 1:
        raise ValueError("--batch-rows must be at least 1")
    options = {name: {**cli_metrics.file_options(name), **given}  # the rule every command follows for files
               for name, given in metric_options(names, args.option).items()}
    steady_peak_memory()  # this process streams the whole table: its peak memory must not grow with it
    per_row = args.output is not None
    scorers = {name: StreamScorer(name, options[name], per_row=per_row) for name in names}
    columns = [args.hyp, *args.ref] + ([args.src] if args.src else [])
    files = table_files(args.file, args.input_format)
    progress = Progress("score")
    rows = 0
    with _maybe_writer(args.output, TableWriter) as writer:
        for source, first_row, batch in _batches_of(files, columns, args, per_row):
            rows += batch.num_rows
            for column in dict.fromkeys(columns):
                check_text_column(batch, column, source, first_row, args.nulls)
            hyps = batch.column(args.hyp)
            refs = [batch.column(column) for column in args.ref]
            scores = {}
            for name, scorer in scorers.items():
                extra = {"sources": batch.column(args.src)} if args.src and scorer.needs_sources else {}
                if scorer.needs_sources and not args.src:
                    raise ValueError(f"{name} needs the source of every row: --src COL")
                try:
                    scores[name] = scorer.add(hyps, refs[0] if len(refs) == 1 else refs, nulls=args.nulls, **extra)
                except ValueError as error:  # row numbers in the message count from this batch's start
                    raise TableError(f"{source}: rows {first_row + 1}–{first_row + batch.num_rows}: {error}") from None
            if writer is not None:
                writer.write(_with_scores(batch, scores, source))
            progress.add(batch.num_rows)
        if rows == 0:  # a header and no row: as an empty text file, an error (no output file is left)
            raise TableError(f"{args.file}: no rows, nothing to score")
    progress.done()
    results = {name: scorer.result() for name, scorer in scorers.items()}
    return _render(results, args)


def _batches_of(files: list, columns: list, args, per_row: bool):
    """(file name, the batch's first row in that file, batch) for every batch of every file, in order."""
    from nlgmetrics.io.tabular import read_batches

    for path in files:
        first_row = 0
        for batch in read_batches(path, columns, format=args.input_format, batch_rows=args.batch_rows,
                                  all_columns=per_row):
            yield "<stdin>" if path == "-" else path, first_row, batch
            first_row += batch.num_rows


class _NoWriter:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _maybe_writer(path, writer_class):
    return writer_class(path) if path is not None else _NoWriter()


def _with_scores(batch, scores: Dict[str, Any], source: str):
    import numpy as np
    import pyarrow as pa

    for name, values in scores.items():
        if name in batch.schema.names:
            raise ValueError(f"{source} already has a column {name!r}; the score columns are named after the metrics")
        batch = batch.append_column(name, pa.array(values, pa.float64(), mask=np.isnan(values)))
    return batch


def _render(results: Dict[str, Any], args) -> str:
    if args.format == "json":
        return json.dumps({name: {"score": result.score, "signature": str(result.signature), **_named(result)}
                           for name, result in results.items()}, indent=1, ensure_ascii=False)
    rows = []
    for name, result in results.items():
        digits = args.width + cli_metrics.extra_decimals(result)
        columns = cli_metrics.table_columns(result)
        if len(columns) > 1:  # ROUGE: every variant's F, labelled
            rows += [[f"{name} {title}", f"{value:.{digits}f}", ""] for title, value in columns]
        else:
            rows.append([name, f"{result.score:.{digits}f}", (str(result).splitlines() or [""])[0]])
    signatures = "\n".join(f"  {result.signature}" for result in results.values())
    return format_table(["Metric", "Score", "Details"], rows) + f"\n\nSignatures:\n{signatures}"


def _named(result) -> Dict[str, Any]:
    scores = getattr(result, "scores", None)
    return {"scores": dict(scores)} if isinstance(scores, dict) and len(scores) > 1 else {}
