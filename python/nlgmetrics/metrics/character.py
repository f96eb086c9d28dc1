"""CharacTER (Wang et al. 2016) exactly as the ``cer`` package 1.2.0 computes it, in Rust.

HF evaluate's ``character`` metric splits each text on whitespace (``str.split()``) and calls
``cer.calculate_cer_corpus``; its default corpus score is the mean of the segment scores
(``statistics.mean``, which is what we reproduce by default), ``aggregate="sum"`` and ``"median"`` are
its other choices. Lower is better; each segment score lies in [0, 1].

A segment is its word-level shifts (greedy, as long as one lowers the word edit distance), then the
character edit distance plus the shift cost, divided by the shifted hypothesis length in characters.
A reference without words is refused (the reference divides by its length and raises
``ZeroDivisionError``); an empty hypothesis scores 1.

>>> import nlgmetrics
>>> hyps = ["this week the saudis denied information published in the new york times",
...         "this is in fact an estimate"]
>>> refs = ["saudi arabia denied this week information published in the american new york times",
...         "this is actually an estimate"]
>>> result = nlgmetrics.character(hyps, refs)
>>> result.segment_scores.tolist()
[0.36619718309859156, 0.25925925925925924]
>>> nlgmetrics.character(hyps, refs, aggregate="sum").score
0.6254564423578508
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.core.inputs import surrogate_location as _surrogate_location
from nlgmetrics.core.metric import Metric, counted_rows
from nlgmetrics.core.options import CliOption, check_choice
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.one_reference import OneReference, single_references

__all__ = ["CharacTER", "CharacTERResult", "character", "AGGREGATES"]

AGGREGATES = ("mean", "sum", "median")


def exact_mean(values: np.ndarray) -> float:
    """``statistics.mean`` of finite floats, bit for bit: the exact rational sum divided by the count,
    rounded once (Python's int division rounds correctly), with the sum done on integer mantissas per
    binary exponent instead of one Fraction per value.

    >>> exact_mean(np.array([0.1, 0.2, 0.7])) == statistics.mean([0.1, 0.2, 0.7])
    True
    """
    mantissas, exponents = np.frexp(np.asarray(values, dtype=np.float64))
    integers = (mantissas * 2.0 ** 53).astype(np.int64)  # exact: value = integer * 2**(exponent - 53)
    exponents = exponents.astype(np.int64) - 53
    lowest = int(exponents.min())
    total = 0
    for exponent in np.unique(exponents).tolist():
        group = integers[exponents == exponent]
        # int64 sums of at most 512 values of < 2**53 cannot overflow
        group_sum = sum(int(part.sum()) for part in np.array_split(group, len(group) // 512 + 1))
        total += group_sum << (exponent - lowest)
    return total * 2 ** lowest / len(values) if lowest >= 0 else total / (len(values) << -lowest)


def aggregate_scores(segment_scores: np.ndarray, aggregate: str) -> float:
    """HF evaluate's corpus score: ``statistics.mean`` / ``sum`` / ``statistics.median`` of the list."""
    if aggregate == "sum":
        return sum(segment_scores.tolist())
    if not len(segment_scores):
        raise ValueError("CharacTER of no segments has no mean or median")
    return exact_mean(segment_scores) if aggregate == "mean" else statistics.median(segment_scores.tolist())


@dataclass(frozen=True, eq=False)
class CharacTERResult(Result):
    """The aggregated CharacTER score and the score of every segment (``segment_stats`` rows are
    ``[score, 1]``: a resample's sum over its count is its mean)."""

    score: float
    aggregate: str
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)

    name = "CharacTER"

    @property
    def scores(self) -> dict:
        return {"CharacTER": self.score}

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    def __str__(self) -> str:
        return f"CharacTER = {self.score:.4f}"


@register
class CharacTER(OneReference, Metric):
    higher_is_better = False
    """CharacTER as a registered, mergeable metric (options as ``character``). The corpus score is
    an aggregate of segment scores, so the state keeps each segment's score (16 bytes a segment);
    ``ci()`` and paired tests resample the mean (or the sum); the median has no such resampling."""

    name = "character"
    description = "CharacTER (cer 1.2.0, HF evaluate's character)"
    reduction = "mean"
    extra_decimals = 2
    stat_columns = ("character", "count")
    reference_rule = "CharacTER's segments"
    cli_options = (CliOption(("--aggregate",), "aggregate", choices=AGGREGATES, help="corpus score (default mean)"),)

    def __init__(self, *, aggregate: str = "mean", threads: Optional[int] = None, segments: bool = True):
        check_choice(aggregate, "aggregate", AGGREGATES)
        super().__init__({"aggregate": aggregate}, threads=threads, segments=segments)

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "the cer package's corpus CharacTER of no segments has no mean or median"

    def display_name(self) -> str:
        return "CharacTER"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        refs = single_references(references, self.reference_rule)
        try:
            stats, _ = segment_scorer("character", self.options).segment_stats(hypotheses, refs, self.threads)
        except UnicodeEncodeError:
            raise ValueError(_surrogate_location(hypotheses, references)) from None
        return {"segment_stats": stats}

    def result_from_state(self, state) -> CharacTERResult:
        scores = np.ascontiguousarray(self.segment_rows(state)[:, 0])
        aggregate = self.options["aggregate"]
        return CharacTERResult(aggregate_scores(scores, aggregate), aggregate, self.signature(state.ref_counts), scores)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        if self.options["aggregate"] == "median":
            raise ValueError("a median is not a function of summed segment rows: resample CharacTER with "
                             "aggregate='mean' or 'sum'")
        return sums[:, 0] / sums[:, 1] if self.options["aggregate"] == "mean" else sums[:, 0]

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return (("aggregate", self.options["aggregate"]), ("tok", "split"))


def character(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], aggregate: str = "mean",
              *, threads: Optional[int] = None) -> CharacTERResult:
    """CharacTER, identical to HF evaluate's ``character`` (``cer`` 1.2.0 ``calculate_cer_corpus``).

    :param hypotheses: one string per segment, words separated by whitespace.
    :param references: one reference string per segment (a one-element list is accepted).
    :param aggregate: ``"mean"`` (default, as HF evaluate), ``"sum"`` or ``"median"`` of the segment scores.
    :param threads: worker threads (default: all cores).

    >>> character(["a b c"], ["a b c"]).score
    0.0
    """
    return CharacTER(aggregate=aggregate, threads=threads)(hypotheses, references)
