"""The ``nlgmetrics`` command.

    nlgmetrics bleu -r REF [REF ...] [-i HYP [HYP ...] | < HYP] [options]
    nlgmetrics chrf|ter|rouge|meteor ...      (same shape, metric options differ)
    nlgmetrics sample                          score the bundled sample with every metric

Every file is read and every score computed before anything is printed, so an error never leaves a
partial table behind; errors are one line on standard error and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Optional, Sequence

from . import __version__
from ._cli_metrics import METRICS
from ._io import InputFileError, read_aligned
from ._table import format_table
from .sample import sample_paths

EXIT_INPUT_ERROR = 1


def _system_name(path: str) -> str:
    return "<stdin>" if path == "-" else os.path.basename(path)


def _add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-r", "--references", nargs="+", required=True, metavar="REF",
                        help="reference file(s), one segment per line; several files give several references per segment")
    parser.add_argument("-i", "--input", nargs="+", default=["-"], metavar="HYP",
                        help="hypothesis file(s); several files give one table row each (default: standard input)")
    parser.add_argument("-f", "--format", choices=["text", "json"], default="text", help="output format (default text)")
    parser.add_argument("-w", "--width", type=int, default=2, help="decimals shown in text output (default 2)")
    parser.add_argument("--sentence-level", "-sl", action="store_true", help="print a score for every segment")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nlgmetrics", description="Score generated text against references, exactly and fast.")
    parser.add_argument("--version", action="version", version=f"nlgmetrics {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for metric in METRICS.values():
        sub = commands.add_parser(metric.name, help=metric.help, description=metric.help)
        _add_common_arguments(sub)
        metric.add_arguments(sub)
    sample = commands.add_parser("sample", help="score the bundled WMT17 sample with every metric")
    sample.add_argument("-f", "--format", choices=["text", "json"], default="text")
    sample.add_argument("-w", "--width", type=int, default=2)
    return parser


def _score_systems(metric, args) -> list:
    systems, references = read_aligned(args.input, args.references)
    return [metric.score(hypotheses, references, args) for hypotheses in systems]


def _render_corpus(names: Sequence[str], results: Sequence, metric_name: str, args) -> str:
    if args.format == "json":
        rows = [{"system": name, **result.to_dict(), "signature": str(result.signature)} for name, result in zip(names, results)]
        return json.dumps(rows[0] if len(rows) == 1 else rows, indent=1, ensure_ascii=False)
    header = ["System", metric_name.upper(), "Details"]
    rows = [[name, f"{result.score:.{args.width}f}", str(result)] for name, result in zip(names, results)]
    return format_table(header, rows) + f"\nSignature: {results[0].signature}"


def _render_sentences(names: Sequence[str], results: Sequence, args) -> str:
    if args.format == "json":
        rows = [{"system": name, "segment_scores": [float(s) for s in result.segment_scores]} for name, result in zip(names, results)]
        return json.dumps(rows[0] if len(rows) == 1 else rows, indent=1, ensure_ascii=False)
    lines = []
    for name, result in zip(names, results):
        prefix = f"{name}\t" if len(results) > 1 else ""
        lines.extend(f"{prefix}{index}\t{score:.{args.width}f}" for index, score in enumerate(result.segment_scores, 1))
    return "\n".join(lines)


def run_sample(args) -> str:
    """Every available metric, default options, on the bundled sample: one row per system."""
    paths = sample_paths()
    names = list(paths["systems"])
    systems, references = read_aligned([paths["systems"][name] for name in names], [paths["reference"]])
    columns = {}
    for metric in METRICS.values():
        defaults = build_parser().parse_args([metric.name, "-r", paths["reference"]])
        columns[metric.name] = [metric.score(hypotheses, references, defaults) for hypotheses in systems]
    if args.format == "json":
        return json.dumps(
            {name: {metric: {"score": results[i].score, "signature": str(results[i].signature)} for metric, results in columns.items()}
             for i, name in enumerate(names)}, indent=1, ensure_ascii=False)
    header = ["System"] + [columns[m][0].signature.metric for m in columns]
    rows = [[name] + [f"{columns[m][i].score:.{args.width}f}" for m in columns] for i, name in enumerate(names)]
    signatures = "\n".join(f"  {columns[m][0].signature}" for m in columns)
    return (f"WMT17 newstest2017 en→de, first {len(references)} segments, {len(names)} systems\n\n"
            + format_table(header, rows) + f"\n\nSignatures:\n{signatures}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "sample":
            output = run_sample(args)
        else:
            metric = METRICS[args.command]
            results = _score_systems(metric, args)
            names = [_system_name(path) for path in args.input]
            output = _render_sentences(names, results, args) if args.sentence_level else _render_corpus(names, results, metric.name, args)
    except (InputFileError, ValueError, TypeError, ImportError) as error:
        print(f"nlgmetrics: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    print(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
