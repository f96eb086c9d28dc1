"""WER, MER, WIL, WIP and CER exactly as jiwer 4.0 computes them, in Rust.

Each segment's reference and hypothesis are aligned with rapidfuzz's Levenshtein back-trace (the one
jiwer calls), so the substitutions, deletions, insertions and hits are jiwer's even where several
alignments are equally short. As in jiwer, corpus measures come from the counts summed over segments:
``WER = (S + D + I) / (H + S + D)``, ``MER = (S + D + I) / (H + S + D + I)``,
``WIP = H/N_ref · H/N_hyp``, ``WIL = 1 - WIP``; CER is WER over characters.

Text transforms are jiwer's, by name. The words default is jiwer's ``wer_default``
(``RemoveMultipleSpaces, Strip, ReduceToListOfListOfWords``), the characters default ``cer_default``
(``Strip, ReduceToListOfListOfChars``). Options add, in this order, ``ToLowerCase``
(``lowercase``), ``ExpandCommonEnglishContractions`` (``expand_contractions``), ``RemoveKaldiNonWords``
(``remove_kaldi_non_words``), ``RemovePunctuation`` (``remove_punctuation``),
``RemoveWhiteSpace(replace_by_space=True)`` (``whitespace_to_space``) or ``RemoveWhiteSpace()``
(``remove_whitespace``) before the default ones; jiwer's ``wer_standardize`` is
``lowercase=True, expand_contractions=True, remove_kaldi_non_words=True, whitespace_to_space=True``.

Empty references are valid, as in jiwer 4.0 (which does not raise): with no reference words the WER
is the number of inserted words, MER is 0 or 1, WIP 1 or 0 (hypothesis empty or not).

>>> import nlgmetrics
>>> result = nlgmetrics.wer(["a x c"], ["a b c d"])
>>> result.score
0.5
>>> result.scores["substitutions"], result.scores["deletions"], result.scores["hits"]
(1, 1, 2)
>>> [chunk.type for chunk in result.alignment(0)]
['equal', 'substitute', 'equal', 'delete']
>>> round(nlgmetrics.cer(["abd"], ["abc"]).score, 6)
0.333333
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

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

__all__ = ["AlignmentChunk", "ErrorRateResult", "WER", "MER", "WIL", "WIP", "CER", "wer", "mer", "wil", "wip", "cer"]

COUNTS = ("substitutions", "deletions", "insertions", "hits")

# jiwer/transforms.py ExpandCommonEnglishContractions: literal re.sub patterns, i.e. str.replace, in order.
_CONTRACTIONS = (("won't", "will not"), ("can't", "can not"), ("let's", "let us"), ("n't", " not"),
                 ("'re", " are"), ("'s", " is"), ("'d", " would"), ("'ll", " will"), ("'t", " not"),
                 ("'ve", " have"), ("'m", " am"))
# jiwer/transforms.py RemoveKaldiNonWords.
_KALDI_NON_WORD = re.compile(r"[<\[][^>\]]*[>\]]")
# jiwer/transforms.py RemoveWhiteSpace: string.whitespace, replaced one character at a time.
_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"


@functools.lru_cache(maxsize=1)
def _punctuation_table() -> dict:
    """``str.translate`` table deleting what jiwer's RemovePunctuation deletes: every code point whose
    ``unicodedata`` category starts with P (in this Python's Unicode version, as jiwer)."""
    return {code: None for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code))[0] == "P"}


class AlignmentChunk(NamedTuple):
    """jiwer's ``AlignmentChunk``: ``type`` is equal, substitute, insert or delete; indices are into the
    transformed reference and hypothesis tokens (words or characters)."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int


@dataclass(frozen=True)
class TransformOptions:
    """jiwer transforms applied before the unit's default ones (see the module docstring)."""

    lowercase: bool = False
    expand_contractions: bool = False
    remove_kaldi_non_words: bool = False
    remove_punctuation: bool = False
    whitespace_to_space: bool = False
    remove_whitespace: bool = False
    remove_multiple_spaces: Optional[bool] = None   # None: the unit's default (words yes, characters no)
    strip: bool = True

    def apply(self, texts: list[str]) -> list[str]:
        """The Python-side transforms (full-Unicode str methods, exactly jiwer's); the rest run in Rust."""
        if self.lowercase:
            texts = [text.lower() for text in texts]
        if self.expand_contractions:
            for old, new in _CONTRACTIONS:
                texts = [text.replace(old, new) for text in texts]
        if self.remove_kaldi_non_words:
            texts = [_KALDI_NON_WORD.sub("", text) for text in texts]
        if self.remove_punctuation:
            table = _punctuation_table()
            texts = [text.translate(table) for text in texts]
        if self.whitespace_to_space or self.remove_whitespace:
            replacement = " " if self.whitespace_to_space else ""
            table = str.maketrans({char: replacement for char in _ASCII_WHITESPACE})
            texts = [text.translate(table) for text in texts]
        return texts

    def signature_fields(self, unit: str) -> tuple:
        spaces = self.remove_multiple_spaces if self.remove_multiple_spaces is not None else unit == "words"
        chosen = [name for name in ("lowercase", "expand_contractions", "remove_kaldi_non_words",
                                    "remove_punctuation", "whitespace_to_space", "remove_whitespace")
                  if getattr(self, name)]
        return (("unit", unit), ("transforms", "+".join(chosen) or "default"),
                ("multispace", "collapse" if spaces else "keep"), ("strip", "yes" if self.strip else "no"))


@dataclass(frozen=True, eq=False)
class ErrorRateResult(Result):
    """One of jiwer's measures with every other, the counts, and the per-segment values.

    ``segment_stats`` has one int64 row per segment: substitutions, deletions, insertions, hits
    (additive: their column sums give the corpus measures). ``segment_scores`` holds this measure per
    segment, as jiwer gives it for that pair alone. ``alignment(i)`` is available on results of the
    functions (``nlgmetrics.wer`` …) and of ``Metric.__call__``, which keep the batch's texts.
    """

    name: str
    score: float
    scores: dict
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    def alignment(self, index: int) -> list[AlignmentChunk]:
        """jiwer's alignment chunks of segment ``index`` (``process_words(...).alignments[index]``)."""
        texts = getattr(self, "_texts", None)
        if texts is None:
            raise ValueError("this result keeps no texts: alignments come with nlgmetrics.wer(...) / cer(...) "
                             "or metric(...)(hypotheses, references)")
        hypotheses, references, unit_options = texts
        if not -len(hypotheses) <= index < len(hypotheses):
            raise IndexError(f"segment index {index} out of range for {len(hypotheses)} segments")
        chunks = _core.error_rate_alignment(hypotheses[index], references[index], unit_options)
        return [AlignmentChunk(*chunk) for chunk in chunks]

    def __str__(self) -> str:
        return f"{self.name.upper()} = {self.score:.4f}"


def measures_from_counts(counts: np.ndarray) -> dict[str, np.ndarray]:
    """jiwer's measures (``process.py``) from rows of (S, D, I, H), with its empty-reference cases.

    Float operations are jiwer's, elementwise: ``float(S + D + I) / float(H + S + D)`` etc.
    """
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 4)
    substitutions, deletions, insertions, hits = (counts[:, k] for k in range(4))
    errors = (substitutions + deletions + insertions).astype(np.float64)
    ref_words = hits + substitutions + deletions
    hyp_words = hits + substitutions + insertions
    no_ref = ref_words == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        wer = np.where(no_ref, insertions.astype(np.float64), errors / ref_words)
        mer = np.where(no_ref, (hyp_words > 0).astype(np.float64),
                       errors / (ref_words + insertions).astype(np.float64))
        fit = (hits / ref_words) * (hits / hyp_words)
        wip = np.where(no_ref, (hyp_words == 0).astype(np.float64), np.where(hyp_words >= 1, fit, 0.0))
    return {"wer": wer, "mer": mer, "wil": 1 - wip, "wip": wip, "cer": wer}


_FLAGS = ("lowercase", "expand_contractions", "remove_kaldi_non_words", "remove_punctuation",
          "whitespace_to_space", "remove_whitespace")


class _ErrorRate(OneReference, Metric):
    """jiwer's measures as registered, mergeable metrics. Statistics per segment (int64, additive):
    substitutions, deletions, insertions, hits; every measure is a function of their sums."""

    reduction = "sum"
    extra_decimals = 2
    stat_columns = COUNTS
    reference_rule = "jiwer's measures"
    unit = "words"
    cli_options = tuple(CliOption((f"--{flag.replace('_', '-')}",), flag, "flag", help=f"jiwer transform: {flag}")
                        for flag in _FLAGS) + (
        CliOption(("--remove-multiple-spaces",), "remove_multiple_spaces", "flag",
                  help="jiwer RemoveMultipleSpaces (on by default for words)"),)

    def __init__(self, *, lowercase: bool = False, expand_contractions: bool = False,
                 remove_kaldi_non_words: bool = False, remove_punctuation: bool = False,
                 whitespace_to_space: bool = False, remove_whitespace: bool = False,
                 remove_multiple_spaces: Optional[bool] = None, strip: bool = True,
                 threads: Optional[int] = None, segments: bool = True):
        flags = {"lowercase": lowercase, "expand_contractions": expand_contractions,
                 "remove_kaldi_non_words": remove_kaldi_non_words, "remove_punctuation": remove_punctuation,
                 "whitespace_to_space": whitespace_to_space, "remove_whitespace": remove_whitespace, "strip": strip}
        for option, value in flags.items():
            check_bool(value, option)
        if remove_multiple_spaces is not None:
            check_bool(remove_multiple_spaces, "remove_multiple_spaces")
        if whitespace_to_space and remove_whitespace:
            raise ValueError("whitespace_to_space and remove_whitespace are exclusive")
        super().__init__({**flags, "remove_multiple_spaces": remove_multiple_spaces}, threads=threads,
                         segments=segments)

    @property
    def transforms(self) -> TransformOptions:
        return TransformOptions(**self.options)

    def unit_options(self) -> Dict[str, Any]:
        """The alignment's options (``_core.error_rate_alignment``): the unit and jiwer's text options."""
        return {"unit": self.unit, "remove_multiple_spaces": self.options["remove_multiple_spaces"],
                "strip": self.options["strip"]}

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        transforms = self.transforms
        hyps = transforms.apply(hypotheses)
        refs = transforms.apply(single_references(references, self.reference_rule))
        try:
            stats, _ = segment_scorer(self.name, self.options).segment_stats(hyps, refs, self.threads)
        except UnicodeEncodeError:
            raise ValueError(_surrogate_location(hypotheses, references)) from None
        self.keep_texts((hyps, refs, self.unit_options()))
        return {"segment_stats": stats}

    def no_texts(self) -> tuple:
        return ([], [], self.unit_options())

    def result_from_state(self, state) -> ErrorRateResult:
        totals = np.asarray(self.totals(state), dtype=np.int64)
        rows = self.segment_rows(state)
        corpus = {name: float(values[0]) for name, values in measures_from_counts(totals).items()}
        names = ("cer",) if self.unit == "characters" else ("wer", "mer", "wil", "wip")
        scores = {name: corpus[name] for name in names}
        scores.update({name: int(value) for name, value in zip(COUNTS, totals.tolist())})
        segment = measures_from_counts(rows)[self.name] if len(rows) else np.zeros(0)
        return ErrorRateResult(self.display_name(), corpus[self.name], scores, self.signature(state.ref_counts), segment, rows)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        return measures_from_counts(sums)[self.name]

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "jiwer 4.0 scores no sentences as 0 (wip as 1)"

    def display_name(self) -> str:
        return self.name.upper()

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return self.transforms.signature_fields(self.unit)


@register
class WER(_ErrorRate):
    name = "wer"
    higher_is_better = False
    description = "word error rate (jiwer 4.0)"


@register
class MER(_ErrorRate):
    name = "mer"
    higher_is_better = False
    description = "match error rate (jiwer 4.0)"


@register
class WIL(_ErrorRate):
    name = "wil"
    higher_is_better = False
    description = "word information lost (jiwer 4.0)"


@register
class WIP(_ErrorRate):
    name = "wip"
    description = "word information preserved (jiwer 4.0)"


@register
class CER(_ErrorRate):
    name = "cer"
    higher_is_better = False
    description = "character error rate (jiwer 4.0)"
    unit = "characters"


_CLASSES = {"wer": WER, "mer": MER, "wil": WIL, "wip": WIP, "cer": CER}


def _measure(name: str):
    def compute(hypotheses: Iterable[str], references: Iterable[Union[str, Sequence[str]]], *,
                lowercase: bool = False, expand_contractions: bool = False, remove_kaldi_non_words: bool = False,
                remove_punctuation: bool = False, whitespace_to_space: bool = False, remove_whitespace: bool = False,
                remove_multiple_spaces: Optional[bool] = None, strip: bool = True,
                threads: Optional[int] = None) -> ErrorRateResult:
        return _CLASSES[name](lowercase=lowercase, expand_contractions=expand_contractions,
                              remove_kaldi_non_words=remove_kaldi_non_words, remove_punctuation=remove_punctuation,
                              whitespace_to_space=whitespace_to_space, remove_whitespace=remove_whitespace,
                              remove_multiple_spaces=remove_multiple_spaces, strip=strip,
                              threads=threads)._score_batch(hypotheses, references)

    compute.__name__ = compute.__qualname__ = name
    return compute


wer = _measure("wer")
wer.__doc__ = """Word error rate, identical to ``jiwer.wer(references, hypotheses)`` (note the order).

:param hypotheses: one string per segment.
:param references: one reference string per segment (a one-element list is accepted).
:param lowercase: jiwer's ``ToLowerCase``, applied before ``wer_default`` as the next five.
:param expand_contractions: jiwer's ``ExpandCommonEnglishContractions``.
:param remove_kaldi_non_words: jiwer's ``RemoveKaldiNonWords``.
:param remove_punctuation: jiwer's ``RemovePunctuation``.
:param whitespace_to_space: jiwer's ``RemoveWhiteSpace(replace_by_space=True)``.
:param remove_whitespace: jiwer's ``RemoveWhiteSpace()`` (exclusive with ``whitespace_to_space``).
:param remove_multiple_spaces: jiwer's ``RemoveMultipleSpaces`` (default: on for words, off for CER).
:param strip: jiwer's ``Strip`` (on in both defaults).
:param threads: worker threads (default: all cores).

``result.scores`` holds wer, mer, wil, wip and the substitutions, deletions, insertions and hits.

>>> wer(["the cat sat"], ["the cat sat down"]).score
0.25
"""
mer = _measure("mer")
mer.__doc__ = """Match error rate, identical to ``jiwer.mer``; options as ``wer``.

>>> mer(["the cat sat"], ["the cat sat down"]).score
0.25
"""
wil = _measure("wil")
wil.__doc__ = """Word information lost, identical to ``jiwer.wil``; options as ``wer``.

>>> wil(["the cat sat"], ["the cat sat down"]).score
0.25
"""
wip = _measure("wip")
wip.__doc__ = """Word information preserved, identical to ``jiwer.wip``; options as ``wer``.

>>> wip(["the cat sat"], ["the cat sat down"]).score
0.75
"""
cer = _measure("cer")
cer.__doc__ = """Character error rate, identical to ``jiwer.cer`` (``cer_default``: strip, then characters,
spaces included); options as ``wer``.

>>> cer(["the cat"], ["the hat"]).score
0.14285714285714285
"""
