"""chrF and chrF++ exactly as sacreBLEU 2.6.0 computes them, in Rust.

chrF is the F-beta score of character n-gram precision and recall averaged over orders 1..6
(Popović 2015); chrF++ adds word unigrams and bigrams (``word_order=2``, Popović 2017). The corpus
score comes from statistics summed over segments; a segment with several references keeps the
statistics of its best reference (highest sentence chrF, the first on ties), like sacreBLEU.

>>> import nlgmetrics
>>> result = nlgmetrics.chrf(["The cat sat on the mat."], [["The cat is on the mat."]])
>>> print(result)
chrF2 = 67.17
>>> round(nlgmetrics.sentence_chrf("The cat sat on the mat.", "The cat is on the mat.", word_order=2).score, 3)
69.437
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Real
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import surrogate_location as _surrogate_location
from nlgmetrics.core.metric import Metric
from nlgmetrics.core.options import CliOption, check_bool
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature, nrefs_field
from nlgmetrics.stats import sacrebleu_float32

__all__ = ["CHRF", "CHRFResult", "chrf", "sentence_chrf", "check_chrf_options", "chrf_signature"]


def check_chrf_options(char_order: int, word_order: int, beta: float) -> None:
    """Raise TypeError/ValueError naming the first bad chrF option."""
    for name, value in (("char_order", char_order), ("word_order", word_order)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if not 0 <= value <= _core.CHRF_MAX_ORDER:
            raise ValueError(f"{name} must be between 0 and {_core.CHRF_MAX_ORDER}, got {value}")
    if char_order + word_order == 0:
        raise ValueError("char_order + word_order must be at least 1")
    if isinstance(beta, bool) or not isinstance(beta, Real):
        raise TypeError(f"beta must be a number, got {type(beta).__name__}")
    if not beta > 0 or beta != beta or beta == float("inf"):
        raise ValueError(f"beta must be a positive finite number, got {beta}")


def chrf_signature(n_refs: Union[int, str], char_order: int, word_order: int, lowercase: bool,
                   whitespace: bool, eps_smoothing: bool) -> Signature:
    """sacreBLEU's chrF signature fields, in its order."""
    return Signature("chrF", (
        ("nrefs", str(n_refs)),
        ("case", "lc" if lowercase else "mixed"),
        ("eff", "no" if eps_smoothing else "yes"),
        ("nc", str(char_order)),
        ("nw", str(word_order)),
        ("space", "yes" if whitespace else "no"),
    ))


@dataclass(frozen=True, eq=False)
class CHRFResult(Result):
    """A chrF/chrF++ score with its per-segment statistics.

    ``segment_stats`` has one row per segment and ``3 * (char_order + word_order)`` int64 columns:
    for each order (characters first, then words) the hypothesis n-grams, reference n-grams and
    matches (sacreBLEU's layout). Summed rows give the corpus score (``_core.SegmentScorer.score_rows``).
    """

    score: float
    char_order: int
    word_order: int
    beta: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    @property
    def stats(self) -> np.ndarray:
        """Alias of ``segment_stats``."""
        return self.segment_stats

    @property
    def name(self) -> str:
        """sacreBLEU's name: ``chrF2`` for chrF, ``chrF2++`` for chrF++."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @property
    def scores(self) -> dict:
        return {self.name: float(self.score)}

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.2f}"

    def to_dict(self, segments: bool = True) -> dict:
        return {
            **super().to_dict(segments=segments),
            "char_order": self.char_order,
            "word_order": self.word_order,
            "beta": self.beta,
        }


@register
class CHRF(Metric):
    """chrF / chrF++ as a registered, mergeable metric (options as ``chrf``)."""

    name = "chrf"
    rows_per_call = 4096  # rows are independent: Ctrl-C is handled between calls (Metric.rows_per_call)
    description = "chrF / chrF++ (sacreBLEU 2.6.0)"
    #: sacreBLEU's metric: its float32 bootstrap arithmetic, and its users' reference streams refused when ambiguous.
    sacrebleu_bootstrap = True
    refuses_stream_layout = True
    aliases = {"chrf++": {"word_order": 2}}
    cli_options = (
        CliOption(("--char-order", "-cc"), "char_order", "int", help="character n-gram order (default 6)"),
        CliOption(("--word-order", "-cw"), "word_order", "int", help="word n-gram order: 0 = chrF (default), 2 = chrF++"),
        CliOption(("--beta",), "beta", "float", help="recall weight β (default 2)"),
        CliOption(("-lc", "--lowercase"), "lowercase", "flag", help="lowercase before scoring"),
        CliOption(("--whitespace",), "whitespace", "flag", help="keep whitespace in character n-grams"),
        CliOption(("--eps-smoothing",), "eps_smoothing", "flag", help="epsilon smoothing (chrF++.py / NLTK / Moses)"),
    )

    def __init__(self, *, char_order: int = 6, word_order: int = 0, beta: float = 2, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False, threads: Optional[int] = None,
                 segments: bool = True):
        check_chrf_options(char_order, word_order, beta)
        options = {"char_order": char_order, "word_order": word_order, "beta": beta,
                   "lowercase": check_bool(lowercase, "lowercase"), "whitespace": check_bool(whitespace, "whitespace"),
                   "eps_smoothing": check_bool(eps_smoothing, "eps_smoothing")}
        super().__init__(options, threads=threads, segments=segments)

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        orders = [f"char{n}" for n in range(1, self.options["char_order"] + 1)]
        orders += [f"word{n}" for n in range(1, self.options["word_order"] + 1)]
        return tuple(f"{order}_{part}" for order in orders for part in ("hyp", "ref", "match"))

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "sacreBLEU's corpus_score raises IndexError on no segments"

    def display_name(self) -> str:
        return f"chrF{self.options['beta']}" + "+" * self.options["word_order"]

    def signature_name(self) -> str:
        return "chrF"

    def reads_arrow(self) -> bool:
        return not self.options["lowercase"]  # lowercasing is Python's str.lower, on lists

    def reads_one_each(self) -> bool:
        return self.reads_arrow()

    def list_scorer(self) -> Optional[Any]:
        # batch_arrays is the scorer's segment_stats unless Python lowercases the text first.
        return None if self.options["lowercase"] else segment_scorer("chrf", self.options)

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        if self.options["lowercase"]:
            # Python's own lowercasing is the reference's rule (full Unicode case mapping).
            hypotheses = [hyp.lower() for hyp in hypotheses]
            references = [[ref.lower() for ref in refs] for refs in references]
        try:
            stats, segment_scores = segment_scorer("chrf", self.options).segment_stats(hypotheses, references,
                                                                                       self.threads)
        except UnicodeEncodeError:
            raise ValueError(_surrogate_location(hypotheses, references)) from None
        return {"segment_stats": stats, "segment_scores": segment_scores}

    def result_from_state(self, state) -> CHRFResult:
        options = self.options
        totals = np.asarray(self.totals(state), dtype=np.int64).reshape(1, -1)
        score = float(segment_scorer("chrf", options).score_rows(totals)[0])
        scores = state.arrays.get("segment_scores", np.zeros(0))
        return CHRFResult(score, options["char_order"], options["word_order"], options["beta"],
                          self.signature(state.ref_counts), scores, self.segment_rows(state))

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        return chrf_signature(nrefs_field(ref_counts), options["char_order"], options["word_order"],
                              options["lowercase"], options["whitespace"], options["eps_smoothing"]).fields

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        options = self.options
        return sacrebleu_float32.chrf_exact_scores(sums, options["char_order"] + options["word_order"],
                                                   options["beta"], options["eps_smoothing"])

    def float32_score_rows(self, rows: np.ndarray) -> np.ndarray:
        options = self.options
        return sacrebleu_float32.chrf_scores(rows, options["char_order"] + options["word_order"], options["beta"],
                                             options["eps_smoothing"])


def chrf_from_lists(hypotheses: list[str], references: list[list[str]], char_order: int, word_order: int,
                    beta: float, lowercase: bool, whitespace: bool, eps_smoothing: bool,
                    threads: Optional[int] = None) -> CHRFResult:
    """chrF of already validated inputs (one non-empty reference list per hypothesis)."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase, whitespace=whitespace,
                eps_smoothing=eps_smoothing, threads=threads)._score_batch(hypotheses, references)


def chrf(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], char_order: int = 6,
         word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
         eps_smoothing: bool = False, *, threads: Optional[int] = None) -> CHRFResult:
    """Corpus chrF (``word_order=0``) or chrF++ (``word_order=2``), identical to sacreBLEU 2.6.0.

    :param hypotheses: one string per segment.
    :param references: per segment, a reference string or a list of reference strings.
    :param whitespace: keep whitespace inside character n-grams.
    :param eps_smoothing: sacreBLEU's ``eps_smoothing`` (chrF++.py-style); off = effective order.
    :param threads: worker threads (default: all cores).

    >>> round(chrf(["abc d"], ["abc e"]).score, 6)
    47.916667
    """
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase, whitespace=whitespace,
                eps_smoothing=eps_smoothing, threads=threads)._score_batch(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Union[str, Sequence[str]], char_order: int = 6,
                  word_order: int = 0, beta: float = 2, lowercase: bool = False, whitespace: bool = False,
                  eps_smoothing: bool = False) -> CHRFResult:
    """Sentence chrF of one hypothesis against one reference or a list of them.

    >>> print(sentence_chrf("abc d", ["x", "abc e"]))
    chrF2 = 47.92
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be str, got {type(hypothesis).__name__}")
    return chrf([hypothesis], [references], char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
