"""How each metric appears on the command line: its options and how they map to the Python API.

Each entry of ``METRICS`` is a ``CliMetric``: a name, a function adding its options to an argparse
parser, and a function that scores one system (a list of hypotheses) against per-line references.
A metric whose module is not present is simply not offered.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple


@dataclass(frozen=True)
class CliMetric:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    score: Callable[[Sequence[str], Sequence[Sequence[str]], argparse.Namespace], Any]
    # Extra decimals in text output: 2 for metrics on a 0–1 scale, so they show as many digits as 0–100 ones.
    extra_decimals: int = 0
    # Table columns for one result; by default the one corpus score under the metric's name.
    columns: Optional[Callable[[Any], List[Tuple[str, float]]]] = None
    # Text output replacing the table (e.g. ROUGE-1.5.5's report lines), or None to use the table.
    report: Optional[Callable[[Any, argparse.Namespace], Optional[str]]] = None
    # Joins the results of consecutive chunks of one file into the result of the whole file; metrics
    # that have it are scored as streams, in bounded memory.
    merge: Optional[Callable[[List[Any], argparse.Namespace], Any]] = None
    # Whether ``merge`` applies under these options (e.g. BLEU's sacrebleu preset only).
    can_merge: Callable[[argparse.Namespace], bool] = lambda args: True

    def streams(self, args: argparse.Namespace) -> bool:
        return self.merge is not None and self.can_merge(args)

    def table_columns(self, result: Any) -> List[Tuple[str, float]]:
        if self.columns is not None:
            return self.columns(result)
        return [(getattr(result, "name", None) or result.signature.metric, result.score)]


def _bleu_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-tok", "--tokenize", default="13a", help="tokenizer: none, 13a (default), intl, zh, char, ja-mecab, ko-mecab")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before scoring")
    parser.add_argument("-s", "--smooth-method", default="exp", help="smoothing: none, floor, add-k, exp (default)")
    parser.add_argument("--smooth-value", type=float, default=None, help="value for floor / add-k smoothing")
    parser.add_argument("--max-order", type=int, default=4, help="largest n-gram order (default 4)")
    parser.add_argument("--effective-order", action="store_true", help="use effective order (sentence level)")
    parser.add_argument("--preset", default="sacrebleu", help="sacrebleu (default), nltk or coco")


def _bleu_score(hypotheses, references, args):
    from nlgmetrics.metrics.bleu.sacrebleu import bleu

    return bleu(
        hypotheses, references, tokenize=args.tokenize, lowercase=args.lowercase, smooth=args.smooth_method,
        smooth_value=args.smooth_value, max_order=args.max_order, effective_order=args.effective_order, preset=args.preset,
    )


def _bleu_merge(results, args):
    """One BLEUResult from chunk results: statistics rows concatenated, the corpus score recomputed
    from their column sums exactly as for one call over all lines."""
    import dataclasses

    import numpy as np

    from nlgmetrics import _core
    from nlgmetrics.metrics.bleu.sacrebleu import _NEUMAIER_SUM

    if len(results) == 1:
        return results[0]
    stats = np.concatenate([r.segment_stats for r in results])
    totals = stats.sum(axis=0, dtype=np.int64).tolist()
    score, precisions, bp = _core.bleu_score_from_stats(
        totals, args.max_order, args.smooth_method, args.smooth_value, args.effective_order, None, _NEUMAIER_SUM)
    order = args.max_order
    return dataclasses.replace(
        results[0], score=score, counts=tuple(totals[2:2 + order]), totals=tuple(totals[2 + order:]),
        precisions=tuple(precisions), bp=bp, sys_len=totals[0], ref_len=totals[1], segment_stats=stats,
        segment_scores=np.concatenate([r.segment_scores for r in results]))


def _chrf_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--char-order", "-cc", type=int, default=6, help="character n-gram order (default 6)")
    parser.add_argument("--word-order", "-cw", type=int, default=0, help="word n-gram order: 0 = chrF (default), 2 = chrF++")
    parser.add_argument("--beta", type=float, default=2, help="recall weight β (default 2)")
    parser.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before scoring")
    parser.add_argument("--whitespace", action="store_true", help="keep whitespace in character n-grams")
    parser.add_argument("--eps-smoothing", action="store_true", help="epsilon smoothing (chrF++.py / NLTK / Moses)")


def _chrf_score(hypotheses, references, args):
    from nlgmetrics.metrics.chrf import chrf

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
    from nlgmetrics.metrics.ter import ter

    return ter(
        hypotheses, references, case_sensitive=args.case_sensitive, normalized=args.normalized,
        no_punct=args.no_punct, asian_support=args.asian_support,
    )


def _meteor_arguments(parser: argparse.ArgumentParser) -> None:
    from nlgmetrics.metrics.meteor.meteor15 import cli_arguments

    cli_arguments(parser)


def _meteor_score(hypotheses, references, args):
    from nlgmetrics.metrics.meteor.meteor15 import cli_score

    return cli_score(hypotheses, references, args)


def _rouge_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-v", "--variants", nargs="+", default=None,
                        help="rouge1…rouge9 rougeL rougeLsum (default rouge1 rouge2 rougeL rougeLsum); "
                             "rouge155 also rougeW-1.2 rougeS4 rougeSU4 rougeS* rougeSU*")
    parser.add_argument("--preset", default="rouge_score", choices=["rouge_score", "rouge155"],
                        help="rouge_score (default) or rouge155 (ROUGE-1.5.5.pl, printed as its report)")
    parser.add_argument("--stem", action="store_true", help="Porter stemming (rouge155: -m)")
    parser.add_argument("--tokenizer", default=None, choices=["unicode", "rouge_score", "jieba", "mecab"],
                        help="rouge_score preset only (default unicode: every script kept, CJK per character)")
    parser.add_argument("--multi-ref", default=None, choices=["A", "B", "max"], help="rouge155: -f A/B, or max F")
    parser.add_argument("--alpha", type=float, default=None, help="F weight (ROUGE-1.5.5 -p)")
    parser.add_argument("--remove-stopwords", action="store_true", help="rouge155: -s")
    parser.add_argument("--word-limit", type=int, default=None, help="rouge155: -l")
    parser.add_argument("--byte-limit", type=int, default=None, help="rouge155: -b")
    parser.add_argument("--bootstrap", type=int, default=None, help="bootstrap samples (rouge155: -r, default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (rouge_score preset)")
    parser.add_argument("--sentence-sep", default="<n>", help="sentence separator inside a line (default <n>)")


def _rouge_score(hypotheses, references, args):
    from nlgmetrics.metrics.rouge.rouge_score import DEFAULT_VARIANTS, rouge

    separator = args.sentence_sep

    def split(line: str) -> str:
        return line.replace(separator, "\n") if separator else line

    options = dict(variants=args.variants or list(DEFAULT_VARIANTS), preset=args.preset, stemmer=args.stem,
                   multi_ref=args.multi_ref, alpha=args.alpha, bootstrap=args.bootstrap)
    if args.preset == "rouge155":
        options.update(remove_stopwords=args.remove_stopwords, word_limit=args.word_limit, byte_limit=args.byte_limit)
    else:
        options.update(tokenizer=args.tokenizer, seed=args.seed)
    return rouge([split(h) for h in hypotheses], [[split(r) for r in refs] for refs in references], **options)


def _rouge_columns(result) -> List[Tuple[str, float]]:
    return [(f"{variant} F", result[variant].fmeasure) for variant in result.variants]


def _rouge_report(result, args) -> Optional[str]:
    return result.report() if args.preset == "rouge155" else None


_ALL = [
    CliMetric("bleu", "BLEU (sacreBLEU by default; presets nltk, coco)", _bleu_arguments, _bleu_score,
              merge=_bleu_merge, can_merge=lambda args: args.preset == "sacrebleu"),
    CliMetric("chrf", "chrF / chrF++ (sacreBLEU)", _chrf_arguments, _chrf_score),
    CliMetric("ter", "TER (sacreBLEU's tercom port)", _ter_arguments, _ter_score),
    CliMetric("rouge", "ROUGE N/L/Lsum/W/S/SU (rouge_score by default; preset rouge155 = ROUGE-1.5.5.pl)",
              _rouge_arguments, _rouge_score, 2, _rouge_columns, _rouge_report),
    CliMetric("meteor", "METEOR 1.5 (the official jar's numbers; presets nltk, textbook)", _meteor_arguments, _meteor_score, 2),
]

# Options the `sample` command adds per metric: the bundled sample is German.
SAMPLE_OPTIONS = {"meteor": ["-l", "de", "-m", "exact", "stem"]}

METRICS = {metric.name: metric for metric in _ALL}
