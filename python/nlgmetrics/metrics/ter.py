"""TER (translation edit rate) exactly as sacreBLEU 2.6.0 computes it, in Rust and in parallel.

TER counts the word edits (insertions, deletions, substitutions and block shifts) that turn a
hypothesis into its closest reference, divided by the average reference length (Snover et al.
2006). sacreBLEU's version is a port of tercom with its normalizer options, shift-search limits
and beam; this module reproduces its numbers. Corpus TER = total edits / total average reference
length.

>>> import nlgmetrics
>>> print(nlgmetrics.ter(["the cat sat on mat"], [["the cat sat on the mat"]]))
TER = 16.67
>>> nlgmetrics.sentence_ter("mat the on sat cat the", "the cat sat on the mat").num_edits
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.core.inputs import surrogate_location as _surrogate_location
from nlgmetrics.core.metric import Metric
from nlgmetrics.core.options import CliOption
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature, nrefs_field
from nlgmetrics.stats import sacrebleu_float32

__all__ = ["TER", "TERResult", "ter", "sentence_ter", "ter_signature", "ter_from_lists"]


def ter_signature(n_refs: Union[int, str], normalized: bool, no_punct: bool, asian_support: bool,
                  case_sensitive: bool) -> Signature:
    """sacreBLEU's TER signature fields, in its order."""
    yes_no = lambda flag: "yes" if flag else "no"  # noqa: E731
    return Signature("TER", (
        ("nrefs", str(n_refs)),
        ("case", "mixed" if case_sensitive else "lc"),
        ("tok", "tercom"),
        ("norm", yes_no(normalized)),
        ("punct", yes_no(not no_punct)),
        ("asian", yes_no(asian_support)),
    ))


@dataclass(frozen=True, eq=False)
class TERResult(Result):
    """A TER score (0–100, can exceed 100) with per-segment edits and average reference lengths."""

    score: float
    num_edits: int
    ref_length: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_num_edits: np.ndarray = field(repr=False)
    segment_ref_lengths: np.ndarray = field(repr=False)

    name = "TER"

    @property
    def segment_stats(self) -> np.ndarray:
        """One float64 row ``[num_edits, ref_length]`` per segment (sacreBLEU's layout); summed
        rows give the corpus score (``_core.SegmentScorer.score_rows``)."""
        return np.column_stack([self.segment_num_edits.astype(np.float64), self.segment_ref_lengths])

    @property
    def scores(self) -> dict:
        return {"TER": float(self.score), "num_edits": int(self.num_edits), "ref_length": float(self.ref_length)}

    def __str__(self) -> str:
        return f"TER = {self.score:.2f}"

    def to_dict(self, segments: bool = True) -> dict:
        return {**super().to_dict(segments=segments), "num_edits": self.num_edits, "ref_length": self.ref_length}


def _check_flags(**flags: bool) -> None:
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, got {type(value).__name__}")


@register
class TER(Metric):
    """TER as a registered, mergeable metric (options as ``ter``). Statistics per segment:
    ``[num_edits, ref_length]`` (float64; the reference length is the average over references)."""

    name = "ter"
    higher_is_better = False
    rows_per_call = 2048  # rows are independent: Ctrl-C is handled between calls (Metric.rows_per_call)
    description = "TER (sacreBLEU 2.6.0's tercom port)"
    #: sacreBLEU's metric: its float32 bootstrap arithmetic, and its users' reference streams refused when ambiguous.
    sacrebleu_bootstrap = True
    refuses_stream_layout = True
    stat_columns = ("num_edits", "ref_length")
    cli_options = (
        CliOption(("--case-sensitive",), "case_sensitive", "flag", help="do not lowercase"),
        CliOption(("--normalized",), "normalized", "flag", help="tercom normalisation"),
        CliOption(("--no-punct",), "no_punct", "flag", help="remove punctuation"),
        CliOption(("--asian-support",), "asian_support", "flag", help="split Asian characters"),
    )

    def __init__(self, *, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, threads: Optional[int] = None, segments: bool = True):
        _check_flags(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                     case_sensitive=case_sensitive)
        options = {"normalized": normalized, "no_punct": no_punct, "asian_support": asian_support,
                   "case_sensitive": case_sensitive}
        super().__init__(options, threads=threads, segments=segments)

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "sacreBLEU's corpus_score raises IndexError on no segments"

    def display_name(self) -> str:
        return "TER"

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        options = self.options
        # sacreBLEU `_preprocess_segment` + `TercomTokenizer`: rstrip, then Python's lowercasing.
        if options["case_sensitive"]:
            hyps = [hyp.rstrip() for hyp in hypotheses]
            refs = [[ref.rstrip() for ref in entry] for entry in references]
        else:
            hyps = [hyp.rstrip().lower() for hyp in hypotheses]
            refs = [[ref.rstrip().lower() for ref in entry] for entry in references]
        try:
            stats, scores = segment_scorer("ter", options).segment_stats(hyps, refs, self.threads)
        except UnicodeEncodeError:
            raise ValueError(_surrogate_location(hypotheses, references)) from None
        return {"segment_stats": stats, "segment_scores": scores}

    def totals(self, state) -> np.ndarray:
        if "totals" in state.arrays:
            return np.asarray(state.arrays["totals"])
        rows = state.arrays["segment_stats"]
        # Summed one segment after another, as sacreBLEU adds the float reference lengths (cumsum is sequential).
        return np.cumsum(rows, axis=0)[-1] if len(rows) else np.zeros(2)

    def result_from_state(self, state) -> TERResult:
        totals = self.totals(state)
        rows = self.segment_rows(state)
        total_edits, total_length = int(totals[0]), float(totals[1])
        score = float(self.score_rows(np.array([[total_edits, total_length]], dtype=np.float64))[0])
        return TERResult(score, total_edits, total_length,
                         self.signature(state.ref_counts), state.arrays.get("segment_scores", np.zeros(0)),
                         rows[:, 0].astype(np.int64), np.ascontiguousarray(rows[:, 1]))

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        return ter_signature(nrefs_field(ref_counts), options["normalized"], options["no_punct"],
                             options["asian_support"], options["case_sensitive"]).fields

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.ascontiguousarray(np.asarray(sums, dtype=np.float64).reshape(-1, 2))
        return segment_scorer("ter", self.options).score_rows(sums)

    def float32_score_rows(self, rows: np.ndarray) -> np.ndarray:
        return sacrebleu_float32.ter_scores(rows)


def ter_from_lists(hypotheses: list[str], references: list[list[str]], normalized: bool, no_punct: bool,
                   asian_support: bool, case_sensitive: bool, threads: Optional[int] = None) -> TERResult:
    """TER of already validated inputs (every hypothesis with at least one reference)."""
    return TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive,
               threads=threads)._score_batch(hypotheses, references)


def ter(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], normalized: bool = False,
        no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False, *,
        threads: Optional[int] = None) -> TERResult:
    """Corpus TER identical to sacreBLEU 2.6.0 ``TER(...).corpus_score``.

    :param references: per segment, a reference string or a list of reference strings.
    :param normalized: tercom normalization (punctuation tokenization, XML entities, …).
    :param no_punct: remove punctuation.
    :param asian_support: CJK handling for ``normalized``/``no_punct``.
    :param case_sensitive: do not lowercase.
    :param threads: worker threads (default: all cores).

    >>> ter(["a b c"], [["a b c d", "x"]]).segment_ref_lengths.tolist()
    [2.5]
    """
    return TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive,
               threads=threads)._score_batch(hypotheses, references)


def sentence_ter(hypothesis: str, references: Union[str, Sequence[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> TERResult:
    """TER of one hypothesis against one reference or a list of them.

    >>> print(sentence_ter("a b c", "a b c d"))
    TER = 25.00
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be str, got {type(hypothesis).__name__}")
    return ter([hypothesis], [references], normalized, no_punct, asian_support, case_sensitive)
