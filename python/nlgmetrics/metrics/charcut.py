"""CharCut (Lardilleux & Lepage 2017) exactly as the ``charcut`` package 1.1.1 computes it, in Rust.

HF evaluate's ``charcut_mt`` returns ``calculate_charcut(predictions, references)[0]``: the summed
character cost of all segments over their summed lengths (``len(cand) + len(ref)``, or
``2 * len(cand)`` with ``alt_norm``). Lower is better. Each segment's (cost, length) pair is additive.
Like the reference, which writes the texts to files and reads them back line by line, each text is
stripped (``str.strip()``); unlike it, a text may contain a newline (the reference would misalign lines).

The difference highlighting is the reference's too: ``result.highlight(i)`` gives charcut's
``compare_segments`` operations, ``result.html(i)`` the ``<span>`` markup of its HTML report.

>>> import nlgmetrics
>>> hyps = ["this week the saudis denied information published in the new york times",
...         "this is in fact an estimate"]
>>> refs = ["saudi arabia denied this week information published in the american new york times",
...         "this is actually an estimate"]
>>> nlgmetrics.charcut(hyps, refs).score
0.1971153846153846
>>> [op[4] for op in nlgmetrics.charcut(hyps, refs).highlight(1)[0]]
['match', 'del', 'match', 'match']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import surrogate_location as _surrogate_location
from nlgmetrics.core.metric import Metric
from nlgmetrics.core.options import CliOption, check_bool
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.one_reference import OneReference, single_references

__all__ = ["CharCut", "CharCutResult", "charcut", "ops_to_html"]


def ops_to_html(styled_ops: list, cand_id: str) -> str:
    """charcut's ``html.ops2html`` joined: one ``<span>`` per operation, ids for mouse-over pairing."""
    spans = []
    for _, _, text, dist, css, css_id in styled_ops:
        substr_id = f"seg{cand_id}_{css_id}"
        dist_str = f"({dist:+d})" if dist else ""
        spans.append(f'<span title="{css}{dist_str}: {len(text)}" class="{css} {substr_id}" '
                     f"onmouseenter=\"enter('{substr_id}')\" onmouseleave=\"leave('{substr_id}')\">"
                     f"{escape(text)}</span>")
    return "".join(spans)


@dataclass(frozen=True, eq=False)
class CharCutResult(Result):
    """The CharCut score, every segment's (cost, length) row and score, and the highlighting
    (``highlight(i)``, ``html(i)``: on results of ``nlgmetrics.charcut`` and ``Metric.__call__``, which
    keep the batch's texts)."""

    score: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)
    match_size: int = 3

    name = "CharCut"

    @property
    def scores(self) -> dict:
        cost, length = (int(v) for v in self.segment_stats.sum(axis=0)) if len(self.segment_stats) else (0, 0)
        return {"CharCut": self.score, "cost": cost, "length": length}

    def highlight(self, index: int) -> tuple[list[tuple], list[tuple]]:
        """charcut's ``compare_segments`` of segment ``index``: the candidate's and the reference's
        operations ``(cand position, ref position, substring, shift distance, css class, css id)``."""
        hypotheses, references = self._segment_texts()
        if not -len(hypotheses) <= index < len(hypotheses):
            raise IndexError(f"segment index {index} out of range for {len(hypotheses)} segments")
        return _core.charcut_highlight(hypotheses[index], references[index], self.match_size)

    def html(self, index: int) -> tuple[str, str]:
        """The candidate's and the reference's ``<span>`` markup of segment ``index`` as charcut's HTML
        report writes it (segment ids count from 1, as its lines do)."""
        cand_ops, ref_ops = self.highlight(index)
        cand_id = f"{index % len(self._segment_texts()[0]) + 1}.0"
        return ops_to_html(cand_ops, cand_id), ops_to_html(ref_ops, cand_id)

    def _segment_texts(self) -> tuple[list, list]:
        texts = getattr(self, "_texts", None)
        if texts is None:
            raise ValueError("this result keeps no texts: highlighting comes with nlgmetrics.charcut(...) "
                             "or metric('charcut')(hypotheses, references)")
        return texts

    def __str__(self) -> str:
        return f"CharCut = {self.score:.4f}"


def charcut_scores(stats: np.ndarray) -> tuple[float, np.ndarray]:
    """Corpus score (summed cost / summed length, 0 when empty) and per-segment scores, as charcut."""
    stats = np.asarray(stats, dtype=np.int64).reshape(-1, 2)
    cost, div = (int(v) for v in stats.sum(axis=0))
    segment = np.where(stats[:, 1] > 0, stats[:, 0] / np.maximum(stats[:, 1], 1), 0.0)
    return (1.0 * cost / div) if div else 0.0, segment


@register
class CharCut(OneReference, Metric):
    higher_is_better = False
    """CharCut as a registered, mergeable metric (options as ``charcut``). Statistics per segment
    (int64, additive): the character cost and the normalising length."""

    name = "charcut"
    description = "CharCut (charcut 1.1.1, HF evaluate's charcut_mt)"
    aliases = {"charcut_mt": {}}
    reduction = "sum"
    extra_decimals = 2
    stat_columns = ("cost", "length")
    reference_rule = "CharCut's segments"
    cli_options = (
        CliOption(("--match-size",), "match_size", "int", help="minimal match length in characters (default 3)"),
        CliOption(("--alt-norm",), "alt_norm", "flag", help="normalise by twice the candidate length"),
    )

    def __init__(self, *, match_size: int = 3, alt_norm: bool = False, threads: Optional[int] = None,
                 segments: bool = True):
        if isinstance(match_size, bool) or not isinstance(match_size, (int, np.integer)):
            raise TypeError(f"match_size must be an int, got {type(match_size).__name__}")
        if match_size < 1:
            raise ValueError(f"match_size must be at least 1, got {match_size}")
        check_bool(alt_norm, "alt_norm")
        super().__init__({"match_size": int(match_size), "alt_norm": alt_norm}, threads=threads, segments=segments)

    def display_name(self) -> str:
        return "CharCut"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        refs = single_references(references, self.reference_rule)
        try:
            stats, _ = segment_scorer("charcut", self.options).segment_stats(hypotheses, refs, self.threads)
        except UnicodeEncodeError:
            raise ValueError(_surrogate_location(hypotheses, references)) from None
        self.keep_texts((hypotheses, refs))
        return {"segment_stats": stats}

    def result_from_state(self, state) -> CharCutResult:
        rows = self.segment_rows(state)
        score, _ = charcut_scores(self.totals(state))
        _, segment_scores = charcut_scores(rows)
        return CharCutResult(score, self.signature(state.ref_counts), segment_scores, rows, self.options["match_size"])

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64).reshape(-1, 2)
        return np.where(sums[:, 1] > 0, sums[:, 0] / np.maximum(sums[:, 1], 1), 0.0)

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return (("match_size", str(self.options["match_size"])),
                ("norm", "alt" if self.options["alt_norm"] else "cand+ref"))


def charcut(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], match_size: int = 3,
            alt_norm: bool = False, *, threads: Optional[int] = None) -> CharCutResult:
    """CharCut, identical to HF evaluate's ``charcut_mt`` (``charcut.calculate_charcut``).

    :param hypotheses: one string per segment.
    :param references: one reference string per segment (a one-element list is accepted).
    :param match_size: minimal match length in characters (charcut's ``match_size``).
    :param alt_norm: normalise by twice the candidate's length (charcut's ``alt_norm``).
    :param threads: worker threads (default: all cores).

    >>> charcut(["a cat"], ["a cat"]).score
    0.0
    """
    return CharCut(match_size=match_size, alt_norm=alt_norm, threads=threads)(hypotheses, references)
