"""The ``nlgmetrics rouge`` subcommand: argument definitions and the run function the CLI calls.

Hook for ``nlgmetrics/cli.py``::

    from . import _rouge_cli
    parser = subparsers.add_parser("rouge", help="ROUGE (rouge_score or ROUGE-1.5.5)")
    _rouge_cli.add_arguments(parser)
    ...
    sys.stdout.write(_rouge_cli.run(args))      # raises ValueError / OSError with a one-line message

Files hold one summary per line; ``--sentence-sep`` (default ``<n>``) marks sentence breaks inside a
summary (they become newlines: rougeLsum / ROUGE-1.5.5 sentences). Several ``-r`` files are several
references per summary.
"""

from __future__ import annotations

import argparse
import json
from typing import List

from .rouge import DEFAULT_VARIANTS, rouge


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-i", "--input", required=True, help="predictions: one summary per line")
    parser.add_argument("-r", "--refs", required=True, nargs="+", help="reference file(s), line-aligned")
    parser.add_argument("-v", "--variants", nargs="+", default=list(DEFAULT_VARIANTS),
                        help="rouge1…rouge9 rougeL rougeLsum; rouge155 also rougeW-1.2 rougeS4 rougeSU4 rougeS* rougeSU*")
    parser.add_argument("--preset", default="rouge_score", choices=["rouge_score", "rouge155"])
    parser.add_argument("--stem", action="store_true", help="Porter stemming (rouge155: -m)")
    parser.add_argument("--tokenizer", default=None, choices=["unicode", "rouge_score", "jieba", "mecab"],
                        help="rouge_score preset only (default unicode)")
    parser.add_argument("--multi-ref", default=None, choices=["A", "B", "max"], help="rouge155: -f A/B, or max F")
    parser.add_argument("--alpha", type=float, default=None, help="F weight (ROUGE-1.5.5 -p)")
    parser.add_argument("--remove-stopwords", action="store_true", help="rouge155: -s")
    parser.add_argument("--word-limit", type=int, default=None, help="rouge155: -l")
    parser.add_argument("--byte-limit", type=int, default=None, help="rouge155: -b")
    parser.add_argument("--no-wordnet-exceptions", action="store_true", help="rouge155: empty WordNet exception DB")
    parser.add_argument("--bootstrap", type=int, default=None, help="bootstrap samples (rouge155: -r, default 1000)")
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sentence-sep", default="<n>", help="sentence separator inside a line (default <n>)")
    parser.add_argument("--format", default="text", choices=["text", "json", "rouge155"],
                        help="rouge155 = ROUGE-1.5.5.pl's report lines (needs --preset rouge155)")


def read_summaries(path: str, separator: str) -> List[str]:
    """One summary per line (UTF-8); ``separator`` inside a line becomes a newline."""
    with open(path, "rb") as handle:
        raw = handle.read()
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    summaries = []
    for number, line in enumerate(lines, 1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{path}:{number}: not UTF-8 ({error.reason} at byte {error.start})") from None
        summaries.append(text.replace(separator, "\n") if separator else text)
    return summaries


def run(args: argparse.Namespace) -> str:
    """Scores the files named in ``args``; returns the text to print."""
    predictions = read_summaries(args.input, args.sentence_sep)
    streams = [read_summaries(path, args.sentence_sep) for path in args.refs]
    for path, stream in zip(args.refs, streams):
        if len(stream) != len(predictions):
            raise ValueError(f"{path} has {len(stream)} lines but {args.input} has {len(predictions)}")
    references = [list(refs) for refs in zip(*streams)] if streams else []
    options = dict(variants=args.variants, preset=args.preset, stemmer=args.stem, multi_ref=args.multi_ref,
                   alpha=args.alpha, bootstrap=args.bootstrap, confidence=args.confidence)
    if args.preset == "rouge155":
        options.update(remove_stopwords=args.remove_stopwords, word_limit=args.word_limit,
                       byte_limit=args.byte_limit, wordnet_exceptions=not args.no_wordnet_exceptions)
    else:
        options.update(tokenizer=args.tokenizer, seed=args.seed)
    result = rouge(predictions, references, **options)
    if args.format == "json":
        return json.dumps(result.to_dict(), indent=1) + "\n"
    if args.format == "rouge155":
        return result.report() + "\n"
    return str(result) + "\n"
