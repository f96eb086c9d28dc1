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
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from nlgmetrics.core import inputs as _validate
from nlgmetrics import _core
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu.sacrebleu import _check_threads, _surrogate_location

__all__ = ["TERResult", "ter", "sentence_ter", "ter_signature", "ter_from_lists"]


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
class TERResult:
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
        rows give the corpus score (``_core.ter_score``)."""
        return np.column_stack([self.segment_num_edits.astype(np.float64), self.segment_ref_lengths])

    def __str__(self) -> str:
        return f"TER = {self.score:.2f}"

    def to_dict(self) -> dict:
        return {
            "name": "TER",
            "score": self.score,
            "num_edits": self.num_edits,
            "ref_length": self.ref_length,
            "signature": str(self.signature),
            "segment_scores": self.segment_scores.tolist(),
        }


def _check_flags(**flags: bool) -> None:
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool, got {type(value).__name__}")


def ter_from_lists(hypotheses: list[str], references: list[list[str]], normalized: bool, no_punct: bool,
                   asian_support: bool, case_sensitive: bool, threads: Optional[int] = None) -> TERResult:
    """TER of already validated inputs (every hypothesis with at least one reference)."""
    # sacreBLEU `_preprocess_segment` + `TercomTokenizer`: rstrip, then Python's lowercasing.
    if case_sensitive:
        hyps = [hyp.rstrip() for hyp in hypotheses]
        refs = [[ref.rstrip() for ref in entry] for entry in references]
    else:
        hyps = [hyp.rstrip().lower() for hyp in hypotheses]
        refs = [[ref.rstrip().lower() for ref in entry] for entry in references]
    try:
        edits, lengths, scores, total_edits, total_length = _core.ter_segment_stats(
            hyps, refs, bool(normalized), bool(no_punct), bool(asian_support), threads)
    except UnicodeEncodeError:
        raise ValueError(_surrogate_location(hypotheses, references)) from None
    counts = {len(entry) for entry in references}
    n_refs = (counts.pop() if len(counts) == 1 else "var") if counts else 0
    signature = ter_signature(n_refs, normalized, no_punct, asian_support, case_sensitive)
    score = _core.ter_score(total_edits, total_length)
    return TERResult(score, int(total_edits), float(total_length), signature, scores, edits, lengths)


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
    _check_flags(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    return ter_from_lists(hyps, refs, normalized, no_punct, asian_support, case_sensitive, _check_threads(threads))


def sentence_ter(hypothesis: str, references: Union[str, Sequence[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> TERResult:
    """TER of one hypothesis against one reference or a list of them.

    >>> print(sentence_ter("a b c", "a b c d"))
    TER = 25.00
    """
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be str, got {type(hypothesis).__name__}")
    return ter([hypothesis], [references], normalized, no_punct, asian_support, case_sensitive)
