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
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core import inputs as _validate
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu.sacrebleu import _check_threads, _surrogate_location
from nlgmetrics.metrics.wer import _single_references

__all__ = ["CharCutResult", "charcut", "ops_to_html"]


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
class CharCutResult:
    """The CharCut score, every segment's (cost, length) row and score, and the highlighting."""

    score: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)
    match_size: int = 3
    _hypotheses: list = field(repr=False, default_factory=list)
    _references: list = field(repr=False, default_factory=list)

    @property
    def name(self) -> str:
        return "CharCut"

    def highlight(self, index: int) -> tuple[list[tuple], list[tuple]]:
        """charcut's ``compare_segments`` of segment ``index``: the candidate's and the reference's
        operations ``(cand position, ref position, substring, shift distance, css class, css id)``."""
        if not -len(self._hypotheses) <= index < len(self._hypotheses):
            raise IndexError(f"segment index {index} out of range for {len(self._hypotheses)} segments")
        return _core.charcut_highlight(self._hypotheses[index], self._references[index], self.match_size)

    def html(self, index: int) -> tuple[str, str]:
        """The candidate's and the reference's ``<span>`` markup of segment ``index`` as charcut's HTML
        report writes it (segment ids count from 1, as its lines do)."""
        cand_ops, ref_ops = self.highlight(index)
        cand_id = f"{index % len(self._hypotheses) + 1}.0"
        return ops_to_html(cand_ops, cand_id), ops_to_html(ref_ops, cand_id)

    def __str__(self) -> str:
        return f"CharCut = {self.score:.4f}"

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "signature": str(self.signature),
                "segment_scores": self.segment_scores.tolist()}


def charcut_scores(stats: np.ndarray) -> tuple[float, np.ndarray]:
    """Corpus score (summed cost / summed length, 0 when empty) and per-segment scores, as charcut."""
    cost, div = (int(v) for v in stats.sum(axis=0, dtype=np.int64)) if len(stats) else (0, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        segment = np.where(stats[:, 1] > 0, stats[:, 0] / np.maximum(stats[:, 1], 1), 0.0)
    return (1.0 * cost / div) if div else 0.0, segment


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
    if isinstance(match_size, bool) or not isinstance(match_size, (int, np.integer)):
        raise TypeError(f"match_size must be an int, got {type(match_size).__name__}")
    if match_size < 1:
        raise ValueError(f"match_size must be at least 1, got {match_size}")
    if not isinstance(alt_norm, bool):
        raise TypeError(f"alt_norm must be a bool, got {type(alt_norm).__name__}")
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _single_references(references, len(hyps), "CharCut's segments")
    try:
        stats = _core.charcut_segment_stats(hyps, refs, int(match_size), alt_norm, _check_threads(threads))
    except UnicodeEncodeError:
        raise ValueError(_surrogate_location(hyps, [[ref] for ref in refs])) from None
    score, segment_scores = charcut_scores(stats)
    signature = Signature("CharCut", (("match_size", str(match_size)), ("norm", "alt" if alt_norm else "cand+ref")))
    return CharCutResult(score, signature, segment_scores, stats, int(match_size), hyps, refs)
