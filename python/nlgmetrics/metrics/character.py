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
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu.sacrebleu import _check_threads, _surrogate_location
from nlgmetrics.metrics.wer import _single_references
from nlgmetrics.core import inputs as _validate

__all__ = ["CharacTERResult", "character", "AGGREGATES"]

AGGREGATES = ("mean", "sum", "median")


def aggregate_scores(segment_scores: np.ndarray, aggregate: str) -> float:
    """HF evaluate's corpus score: ``statistics.mean`` / ``sum`` / ``statistics.median`` of the list."""
    values = segment_scores.tolist()
    if aggregate == "sum":
        return sum(values)
    if not values:
        raise ValueError("CharacTER of no segments has no mean or median")
    return statistics.mean(values) if aggregate == "mean" else statistics.median(values)


@dataclass(frozen=True, eq=False)
class CharacTERResult:
    """The aggregated CharacTER score and the score of every segment."""

    score: float
    aggregate: str
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        return "CharacTER"

    def __str__(self) -> str:
        return f"CharacTER = {self.score:.4f}"

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "aggregate": self.aggregate,
                "signature": str(self.signature), "segment_scores": self.segment_scores.tolist()}


def character_segment_scores(hypotheses: list[str], references: list[str], threads: Optional[int] = None) -> np.ndarray:
    """CharacTER of every validated pair, in Rust (GIL released, segments in parallel)."""
    try:
        return _core.character_segment_scores(hypotheses, references, threads)
    except UnicodeEncodeError:
        raise ValueError(_surrogate_location(hypotheses, [[ref] for ref in references])) from None


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
    if aggregate not in AGGREGATES:
        raise ValueError(f"aggregate must be one of {', '.join(AGGREGATES)}, got {aggregate!r}")
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _single_references(references, len(hyps), "CharacTER's segments")
    scores = character_segment_scores(hyps, refs, _check_threads(threads))
    signature = Signature("CharacTER", (("aggregate", aggregate), ("tok", "split")))
    return CharacTERResult(aggregate_scores(scores, aggregate), aggregate, signature, scores)
