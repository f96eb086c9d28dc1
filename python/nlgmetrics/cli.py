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
from ._paired_metrics import BUILDERS
from .sample import sample_paths
from .stats import paired_test, score_table

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
    _add_compare_command(commands)
    sample = commands.add_parser("sample", help="score the bundled WMT17 sample with every metric")
    sample.add_argument("-f", "--format", choices=["text", "json"], default="text")
    sample.add_argument("-w", "--width", type=int, default=2)
    return parser


def _add_compare_command(commands) -> None:
    compare = commands.add_parser(
        "compare", help="several systems x several metrics in one table, with paired significance tests",
        description="Scores every system with every metric; with --paired-bs or --paired-ar, tests each system "
                    "against the first (the baseline) exactly as sacreBLEU's PairedTest does.")
    compare.add_argument("-r", "--references", nargs="+", required=True, metavar="REF", help="reference file(s)")
    compare.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system files; the first is the baseline")
    compare.add_argument("-m", "--metrics", default="bleu,chrf", help="comma-separated metrics (default bleu,chrf): " + ", ".join(sorted(BUILDERS)))
    test = compare.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", action="store_true", help="paired bootstrap resampling (1000 samples by default)")
    test.add_argument("--paired-ar", action="store_true", help="paired approximate randomization (10000 trials by default)")
    compare.add_argument("--n-samples", type=int, default=None, help="resamples / trials")
    compare.add_argument("--seed", type=int, default=12345, help="random seed (default 12345, sacreBLEU's)")
    compare.add_argument("-tok", "--tokenize", default="13a", help="BLEU tokenizer (default 13a)")
    compare.add_argument("-lc", "--lowercase", action="store_true", help="lowercase for BLEU and chrF")
    compare.add_argument("-f", "--format", choices=["text", "json", "latex", "csv"], default="text")
    compare.add_argument("-w", "--width", type=int, default=1, help="decimals (default 1)")


def _terminal_progress(done: int, total: int, label: str) -> None:
    filled = int(30 * done / total)
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {label[:40]:<40}", end=end, file=sys.stderr, flush=True)


def run_compare(args) -> str:
    """The compare command: every system x metric, optionally with a paired test against the first system."""
    systems, references = read_aligned(args.input, args.references)
    names = [_system_name(path) for path in args.input]
    if len(set(names)) != len(names):
        names = list(args.input)
    metrics = {}
    for name in (m.strip().lower() for m in args.metrics.split(",") if m.strip()):
        options = {}
        if name == "bleu":
            options = {"tokenize": args.tokenize, "lowercase": args.lowercase}
        elif name.startswith("chrf"):
            options = {"lowercase": args.lowercase}
        metrics[name] = options
    named = dict(zip(names, systems))
    progress = _terminal_progress if sys.stderr.isatty() else None
    if args.paired_bs or args.paired_ar:
        if len(named) < 2:
            raise ValueError("a paired test needs at least two systems (-i BASELINE SYSTEM …)")
        result = paired_test(named, references, metrics=metrics, test="bs" if args.paired_bs else "ar",
                             n_samples=args.n_samples, seed=args.seed, progress=progress)
    else:
        result = score_table(named, references, metrics=metrics)
    if args.format == "json":
        return json.dumps(result.to_dict(), indent=1, ensure_ascii=False)
    if args.format == "csv":
        return result.to_csv(width=args.width).rstrip("\n")
    if args.format == "latex":
        return result.to_latex(width=args.width).rstrip("\n")
    return result.format(width=args.width) + "\n\nSignatures:\n" + "\n".join(f"  {sig}" for sig in result.signatures.values())


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
        elif args.command == "compare":
            output = run_compare(args)
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
