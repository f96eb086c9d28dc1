"""The ``nlgmetrics`` command.

    nlgmetrics bleu -r REF [REF ...] [-i HYP [HYP ...] | < HYP] [options]
    nlgmetrics chrf|ter|rouge|meteor|…        (every registered metric; same shape, metric options differ)
    nlgmetrics sample                          score the bundled sample with every metric

Every file is read and every score computed before anything is printed, so an error never leaves a
partial table behind; errors are one line on standard error and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional, Sequence

import numpy as np

from nlgmetrics import __version__
from nlgmetrics.cli import metrics as cli_metrics
from nlgmetrics.cli.output import decimals, print_output
from nlgmetrics.cli.progress import Progress, counted
from nlgmetrics.cli.score import add_score_command, run_score
from nlgmetrics.cli.tasks import TASKS, add_task_commands, run_task
from nlgmetrics.io.table import format_table
from nlgmetrics.io.text_files import InputFileError, iter_aligned_chunks, read_aligned

EXIT_INPUT_ERROR = 1


def _system_name(path: str) -> str:
    return "<stdin>" if path == "-" else os.path.basename(path)


def _add_common_arguments(parser: argparse.ArgumentParser, needs_references: bool = True,
                          needs_sources: bool = False) -> None:
    parser.add_argument("-r", "--references", nargs="+", required=needs_references and not needs_sources, default=[],
                        metavar="REF",
                        help="reference file(s), one segment per line; several files give several references per segment")
    if needs_sources:
        parser.add_argument("-s", "--sources", required=True, metavar="SRC",
                            help="source file, one segment per line (COMET reads the source of every segment)")
    parser.add_argument("-i", "--input", nargs="+", default=["-"], metavar="HYP",
                        help="hypothesis file(s); several files give one table row each (default: standard input)")
    parser.add_argument("-f", "--format", choices=["text", "json"], default="text", help="output format (default text)")
    parser.add_argument("-w", "--width", type=decimals, default=2, help="decimals shown in text output (default 2)")
    parser.add_argument("--sentence-level", "-sl", action="store_true", help="print a score for every segment")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nlgmetrics", description="Score generated text against references, exactly and fast.")
    parser.add_argument("--version", action="version", version=f"nlgmetrics {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for name, cls in cli_metrics.commands().items():
        if name in TASKS:  # a task command of that name (squad: the SQuAD JSON files) takes its place
            continue
        sub = commands.add_parser(name, help=cls.description, description=cls.description)
        _add_common_arguments(sub, cls.needs_references, getattr(cls, "needs_sources", False))
        cls.add_cli_arguments(sub)
    _add_compare_command(commands)
    add_score_command(commands)
    add_task_commands(commands)
    sample = commands.add_parser("sample", help="score the bundled WMT17 sample with every metric")
    sample.add_argument("-f", "--format", choices=["text", "json"], default="text")
    sample.add_argument("-w", "--width", type=decimals, default=2)
    return parser


class _CompareHelpFormatter(argparse.HelpFormatter):
    """Fills in the list of comparable metrics only when help is shown, so building the parser does
    not import the resampling code (and NumPy) for commands that never use it."""

    def _expand_help(self, action):
        text = super()._expand_help(action)
        if "{metrics}" in text:
            from nlgmetrics.core.registry import list_metrics

            text = text.replace("{metrics}", ", ".join(list_metrics()))
        return text


def _add_compare_command(commands) -> None:
    compare = commands.add_parser(
        "compare", help="several systems x several metrics in one table, with paired significance tests",
        formatter_class=_CompareHelpFormatter,
        description="Scores every system with every metric; with --paired-bs or --paired-ar, tests each system "
                    "against the first (the baseline) exactly as sacreBLEU's PairedTest does.")
    compare.add_argument("-r", "--references", nargs="+", required=True, metavar="REF", help="reference file(s)")
    compare.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system files; the first is the baseline")
    compare.add_argument("-m", "--metrics", default="bleu,chrf", help="comma-separated metrics (default bleu,chrf): {metrics}")
    test = compare.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", action="store_true", help="paired bootstrap resampling (1000 samples by default)")
    test.add_argument("--paired-ar", action="store_true", help="paired approximate randomization (10000 trials by default)")
    compare.add_argument("--n-samples", type=int, default=None, help="resamples / trials")
    compare.add_argument("--seed", type=int, default=12345, help="random seed (default 12345, sacreBLEU's)")
    compare.add_argument("-tok", "--tokenize", default="13a", help="BLEU tokenizer (default 13a)")
    compare.add_argument("-lc", "--lowercase", action="store_true", help="lowercase for BLEU and chrF")
    compare.add_argument("-f", "--format", choices=["text", "json", "latex", "csv"], default="text")
    compare.add_argument("-w", "--width", type=decimals, default=1, help="decimals (default 1)")


class _TerminalProgress:
    """``progress(done, total, label)`` for ``paired_test``: a tqdm bar (done of total, elapsed, ETA)."""

    def __init__(self):
        self.bar = None

    def __call__(self, done: int, total: int, label: str) -> None:
        from nlgmetrics.cli.progress import progress_bar

        if self.bar is None:
            self.bar = progress_bar(total, "compare", enabled=True)
        self.bar.set_postfix_str(label[:40], refresh=False)
        self.bar.update(done - self.bar.n)
        if done == total:
            self.bar.close()


def run_compare(args) -> str:
    """The compare command: every system x metric, optionally with a paired test against the first system."""
    from nlgmetrics.stats.significance import (  # imported here: scoring one metric does not need them
        paired_test,
        score_table,
    )

    systems, references = read_aligned(args.input, args.references)
    names = [_system_name(path) for path in args.input]
    if len(set(names)) != len(names):
        names = list(args.input)
    metrics = {}
    for name in (m.strip().lower() for m in args.metrics.split(",") if m.strip()):
        options = cli_metrics.file_options(name)  # the rule every command follows for text from files
        if name == "bleu":
            options.update({"tokenize": args.tokenize, "lowercase": args.lowercase})
        elif name.startswith("chrf"):
            options.update({"lowercase": args.lowercase})
        metrics[name] = options
    named = dict(zip(names, systems))
    progress = _TerminalProgress() if sys.stderr.isatty() else None
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
        return result.to_csv().rstrip("\n")  # full precision: -w applies to text and LaTeX
    if args.format == "latex":
        return result.to_latex(width=args.width).rstrip("\n")
    return result.format(width=args.width) + "\n\nSignatures:\n" + "\n".join(f"  {sig}" for sig in result.signatures.values())


# Lines scored per chunk: every metric reads files as streams, in bounded memory.
CHUNK_LINES = 100_000

# Empty input files: an error, as sacreBLEU's "Test set … contains no sentence" (exit 1), not a score of 0.
_NOTHING_TO_SCORE = "{} contains no line: nothing to score"


def _non_empty(chunks, name: str):
    """The chunks, raising InputFileError at the end when there was none (empty input files)."""
    seen = False
    for chunk in chunks:
        seen = True
        yield chunk
    if not seen:
        raise InputFileError(_NOTHING_TO_SCORE.format(name))


def _score_systems(cls, args) -> list:
    options = cls.options_from_cli(args)
    name = args.references[0] if args.references else args.input[0]
    chunks = counted(_non_empty(iter_aligned_chunks(args.input, args.references, CHUNK_LINES), name), Progress(args.command))
    sources = cli_metrics.read_sources(args) if getattr(cls, "needs_sources", False) else None
    return cli_metrics.score_chunks(cls, options, chunks, len(args.input), keep_segments=args.sentence_level,
                                    sources=sources)


def _render_corpus(names: Sequence[str], results: Sequence, cls, args) -> str:
    if args.format == "json":
        entries = [{"system": name, **result.to_dict(), "signature": str(result.signature)} for name, result in zip(names, results)]
        return json.dumps(entries, indent=1, ensure_ascii=False)  # one shape: a list, one entry per -i file
    report = getattr(results[0], "cli_report", None)
    if report is not None and report() is not None:
        return "\n\n".join(f"{name}\n{result.cli_report()}" for name, result in zip(names, results))
    decimals = args.width + cli_metrics.extra_decimals(results[0])
    columns = [cli_metrics.table_columns(result) for result in results]
    header = ["System"] + [title for title, _ in columns[0]]
    rows = [[name] + [f"{value:.{decimals}f}" for _, value in cells] for name, cells in zip(names, columns)]
    if len(columns[0]) == 1:
        header.append("Details")
        for row, result in zip(rows, results):
            row.append(str(result))
    return format_table(header, rows) + f"\nSignature: {results[0].signature}"


def _render_sentences(names: Sequence[str], results: Sequence, cls, args) -> str:
    if args.format == "json":
        rows = [{"system": name, "segment_scores": np.asarray(result.segment_scores).tolist(),
                 "signature": str(result.signature)} for name, result in zip(names, results)]
        return json.dumps(rows, indent=1, ensure_ascii=False)  # one shape: a list, one entry per -i file
    lines: List[str] = []
    decimals = args.width + cli_metrics.extra_decimals(results[0])
    for name, result in zip(names, results):
        prefix = f"{name}\t" if len(results) > 1 else ""
        options = cls.options_from_cli(args)
        own_lines = cls.options_class(options).sentence_lines(result, options, args.width)
        if own_lines is not None:  # the reference's own form (sacreBLEU's: every line carries the signature)
            lines.extend(prefix + line for line in own_lines)
            continue
        for index, values in enumerate(cli_metrics.segment_rows(result), 1):
            lines.append(f"{prefix}{index}\t" + "\t".join(f"{value:.{decimals}f}" for value in values))
    return "\n".join(lines)


def run_sample(args) -> str:
    """The MT metrics, default options, on the bundled sample: one row per system."""
    from nlgmetrics.sample import sample_paths

    paths = sample_paths()
    names = list(paths["systems"])
    systems, references = read_aligned([paths["systems"][name] for name in names], [paths["reference"]])
    columns = {}
    classes = cli_metrics.sample_classes()
    for metric_name, cls in classes.items():
        metric = cls(**cli_metrics.SAMPLE_OPTIONS.get(metric_name, {}))
        columns[metric_name] = [metric._score_batch(hypotheses, references) for hypotheses in systems]
    if args.format == "json":
        return json.dumps(
            {name: {metric: {**{title: value for title, value in cli_metrics.table_columns(results[i])},
                             "signature": str(results[i].signature)} for metric, results in columns.items()}
             for i, name in enumerate(names)}, indent=1, ensure_ascii=False)
    header, rows = ["System"], [[name] for name in names]
    for metric_name, results in columns.items():
        decimals = args.width + cli_metrics.extra_decimals(results[0])
        header += [title for title, _ in cli_metrics.table_columns(results[0])]
        for row, result in zip(rows, results):
            row += [f"{value:.{decimals}f}" for _, value in cli_metrics.table_columns(result)]
    signatures = "\n".join(f"  {columns[m][0].signature}" for m in columns)
    return (f"WMT17 newstest2017 en→de, first {len(references)} segments, {len(names)} systems\n\n"
            + format_table(header, rows) + f"\n\nSignatures:\n{signatures}")


def _parse(parser: argparse.ArgumentParser, argv: Optional[Sequence[str]]):
    """Parsed arguments; an unknown flag is reported with its subcommand's usage (argparse alone would show
    the top-level usage, which does not say what the subcommand takes)."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        subparsers = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        subparsers.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = _parse(parser, argv)
    try:
        if args.command == "sample":
            output = run_sample(args)
        elif args.command == "compare":
            output = run_compare(args)
        elif args.command == "score":
            output = run_score(args)
        elif args.command in TASKS:
            output = run_task(args)
        else:
            cls = cli_metrics.commands()[args.command]
            if args.sentence_level:
                cls.options_class(cls.options_from_cli(args)).cli_sentence_level(args)
            results = _score_systems(cls, args)
            names = [_system_name(path) for path in args.input]
            render = _render_sentences if args.sentence_level else _render_corpus
            output = render(names, results, cls, args)
    except (InputFileError, ValueError, TypeError, ImportError, FileNotFoundError) as error:
        print(f"nlgmetrics: error: {error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    except RecursionError:  # e.g. a JSON file nested 100,000 deep (caption, squad)
        print("nlgmetrics: error: an input is nested too deeply to read (JSON deeper than Python's recursion limit)",
              file=sys.stderr)
        return EXIT_INPUT_ERROR
    except OSError as error:  # e.g. report -o into a folder that does not exist
        where = f"{error.filename}: " if getattr(error, "filename", None) else ""
        print(f"nlgmetrics: error: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    return print_output(output)


if __name__ == "__main__":
    sys.exit(main())
