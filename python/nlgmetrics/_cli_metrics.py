"""How each metric appears on the command line: its options and how they map to the Python API.

Each entry of ``METRICS`` is a ``CliMetric``: a name, a function adding its options to an argparse
parser, and a function that scores one system (a list of hypotheses) against per-line references.
A metric whose module is not present is simply not offered.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable, Sequence


@dataclass(frozen=True)
class CliMetric:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    score: Callable[[Sequence[str], Sequence[Sequence[str]], argparse.Namespace], Any]


def _bleu_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-tok", "--tokenize", default="13a", help="tokenizer: none, 13a (default), intl, zh, char, ja-mecab, ko-mecab")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before scoring")
    parser.add_argument("-s", "--smooth-method", default="exp", help="smoothing: none, floor, add-k, exp (default)")
    parser.add_argument("--smooth-value", type=float, default=None, help="value for floor / add-k smoothing")
    parser.add_argument("--max-order", type=int, default=4, help="largest n-gram order (default 4)")
    parser.add_argument("--effective-order", action="store_true", help="use effective order (sentence level)")
    parser.add_argument("--preset", default="sacrebleu", help="sacrebleu (default), nltk or coco")


def _bleu_score(hypotheses, references, args):
    from .bleu import bleu

    return bleu(
        hypotheses, references, tokenize=args.tokenize, lowercase=args.lowercase, smooth=args.smooth_method,
        smooth_value=args.smooth_value, max_order=args.max_order, effective_order=args.effective_order, preset=args.preset,
    )


def _chrf_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--char-order", "-cc", type=int, default=6, help="character n-gram order (default 6)")
    parser.add_argument("--word-order", "-cw", type=int, default=0, help="word n-gram order: 0 = chrF (default), 2 = chrF++")
    parser.add_argument("--beta", type=float, default=2, help="recall weight β (default 2)")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before scoring")
    parser.add_argument("--whitespace", action="store_true", help="keep whitespace in character n-grams")
    parser.add_argument("--eps-smoothing", action="store_true", help="epsilon smoothing (chrF++.py / NLTK / Moses)")


def _chrf_score(hypotheses, references, args):
    from .chrf import chrf

    return chrf(
        hypotheses, references, char_order=args.char_order, word_order=args.word_order, beta=args.beta,
        lowercase=args.lowercase, whitespace=args.whitespace, eps_smoothing=args.eps_smoothing,
    )


def _ter_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--case-sensitive", action="store_true", help="do not lowercase")
    parser.add_argument("--normalized", action="store_true", help="tercom normalisation")
    parser.add_argument("--no-punct", action="store_true", help="remove punctuation")
    parser.add_argument("--asian-support", action="store_true", help="split Asian characters")


def _ter_score(hypotheses, references, args):
    from .ter import ter

    return ter(
        hypotheses, references, case_sensitive=args.case_sensitive, normalized=args.normalized,
        no_punct=args.no_punct, asian_support=args.asian_support,
    )


def _module_exists(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"nlgmetrics.{name}") is not None


_ALL = [
    CliMetric("bleu", "BLEU (sacreBLEU by default; presets nltk, coco)", _bleu_arguments, _bleu_score),
    CliMetric("chrf", "chrF / chrF++ (sacreBLEU)", _chrf_arguments, _chrf_score),
    CliMetric("ter", "TER (sacreBLEU's tercom port)", _ter_arguments, _ter_score),
]

METRICS = {metric.name: metric for metric in _ALL if _module_exists(metric.name)}
