"""jiwer 4.0's ``process_words`` / ``process_characters``: alignment and counts, with nlgmetrics' Rust
Levenshtein back-trace (the one rapidfuzz gives jiwer: ``_core.levenshtein_opcodes``).

Arguments come in jiwer's order, ``(reference, hypothesis)``; references and hypotheses may be a string or a
list of strings, transformed by ``reference_transform`` / ``hypothesis_transform`` into lists of tokens.

>>> out = process_words("the cat sat", "the cat sat down")
>>> out.wer, out.hits, out.insertions, [chunk.type for chunk in out.alignments[0]]
(0.3333333333333333, 3, 1, ['equal', 'insert'])
>>> process_characters("abc", "abd").cer
0.3333333333333333
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Union

from nlgmetrics import _core
from nlgmetrics.compat.jiwer import transforms as tr
from nlgmetrics.compat.jiwer.transformations import cer_default, wer_default

__all__ = ["AlignmentChunk", "WordOutput", "CharacterOutput", "process_words", "process_characters"]

_TYPES = ("replace", "insert", "delete", "equal", "substitute")


@dataclass
class AlignmentChunk:
    """One run of the alignment: ``type`` (equal, substitute, insert, delete) and its half-open ranges."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self):
        if self.type not in _TYPES:
            raise ValueError("")
        if self.type == "replace":  # rapidfuzz's name; jiwer reports "substitute"
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


@dataclass
class WordOutput:
    """The transformed sentences, their alignments, the measures and the summed counts (jiwer's fields)."""

    references: List[List[str]]
    hypotheses: List[List[str]]
    alignments: List[List[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """As ``WordOutput`` over characters, with ``cer``."""

    references: List[List[str]]
    hypotheses: List[List[str]]
    alignments: List[List[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


def _tokens(sentences: Any, transform: Any, side: str) -> List[List[str]]:
    out = transform(sentences)
    if not (isinstance(out, list) and all(isinstance(row, list) and all(isinstance(t, str) for t in row) for row in out)):
        raise ValueError(f"After applying the transformation, each {side} should be a list of strings, with each "
                         "string being a single word or character.Please ensure the given transformation reduces "
                         "the input to a list of list strings.")
    return out


def _measures(hits: int, subs: int, dels: int, ins: int, ref_words: int, hyp_words: int) -> tuple:
    """(wer, mer, wip) with jiwer 4.0's edge cases: no reference words gives WER = insertions."""
    if ref_words == 0:
        return ins, (0 if hyp_words == 0 else 1), (1 if hyp_words == 0 else 0)
    wer = (subs + dels + ins) / (hits + subs + dels)
    mer = (subs + dels + ins) / (hits + subs + dels + ins)
    wip = (hits / ref_words) * (hits / hyp_words) if hyp_words else 0
    return wer, mer, wip


def process_words(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                  reference_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default,
                  hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default) -> WordOutput:
    """Word alignment and measures of the sentences, as ``jiwer.process_words``."""
    references = _tokens([reference] if isinstance(reference, str) else reference, reference_transform, "reference")
    hypotheses = _tokens([hypothesis] if isinstance(hypothesis, str) else hypothesis, hypothesis_transform,
                         "hypothesis")
    if len(references) != len(hypotheses):
        raise ValueError("After applying the transforms on the reference and hypothesis sentences, their lengths "
                         f"must match. Instead got {len(references)} reference and {len(hypotheses)} hypothesis "
                         "sentences.")
    ids: dict = {}  # one integer per distinct token, shared by both sides
    counts = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
    alignments, ref_words, hyp_words = [], 0, 0
    for ref, hyp in zip(references, hypotheses):
        ref_ids = [ids.setdefault(token, len(ids)) for token in ref]
        hyp_ids = [ids.setdefault(token, len(ids)) for token in hyp]
        chunks = []
        for tag, i1, i2, j1, j2 in _core.levenshtein_opcodes(ref_ids, hyp_ids):
            chunk = AlignmentChunk(tag, i1, i2, j1, j2)  # rapidfuzz's "replace" becomes "substitute"
            chunks.append(chunk)
            counts[chunk.type] += (j2 - j1) if chunk.type == "insert" else (i2 - i1)
        alignments.append(chunks)
        ref_words += len(ref)
        hyp_words += len(hyp)
    hits, subs, dels, ins = counts["equal"], counts["substitute"], counts["delete"], counts["insert"]
    wer, mer, wip = _measures(hits, subs, dels, ins, ref_words, hyp_words)
    return WordOutput(references, hypotheses, alignments, wer, mer, 1 - wip, wip, hits, subs, ins, dels)


def process_characters(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                       reference_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default,
                       hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default) -> CharacterOutput:
    """Character alignment and CER, as ``jiwer.process_characters`` (words of one character)."""
    out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(out.references, out.hypotheses, out.alignments, out.wer, out.hits, out.substitutions,
                           out.insertions, out.deletions)
