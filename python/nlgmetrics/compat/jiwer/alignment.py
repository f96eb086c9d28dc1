"""jiwer 4.0's text views of an alignment (``jiwer.alignment``): ``visualize_alignment``, ``collect_error_counts``,
``visualize_error_counts``; the same text, character for character.

>>> from nlgmetrics.compat.jiwer import process_words
>>> print(visualize_alignment(process_words("the cat sat", "the bat sat down"), show_measures=False))
=== SENTENCE 1 ===
<BLANKLINE>
REF: the cat sat ****
HYP: the bat sat down
           S        I
<BLANKLINE>
"""

from __future__ import annotations

from collections import defaultdict
from typing import Dict, List, Optional, Tuple, Union

from nlgmetrics.compat.jiwer.process import AlignmentChunk, CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts"]

_MARKS = {"equal": " ", "substitute": "s", "delete": "d", "insert": "i"}


def visualize_alignment(output: Union[WordOutput, CharacterOutput], show_measures: bool = True,
                        skip_correct: bool = True, line_width: Optional[int] = None) -> str:
    """REF/HYP/marks lines for every sentence with an error (or all, ``skip_correct=False``), then a summary."""
    characters = isinstance(output, CharacterOutput)
    text = ""
    for index, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (not chunks or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {index + 1} ===\n\n"
        text += _three_lines(ref, hyp, chunks, spaced=not characters, line_width=line_width) + "\n"
    if not show_measures:
        return text[:-1]
    text += (f"=== SUMMARY ===\nnumber of sentences: {len(output.alignments)}\n"
             f"substitutions={output.substitutions} deletions={output.deletions} insertions={output.insertions} "
             f"hits={output.hits}\n")
    if isinstance(output, CharacterOutput):
        return text + f"\ncer={output.cer * 100:.2f}%\n"
    return text + (f"\nmer={output.mer * 100:.2f}%\nwil={output.wil * 100:.2f}%\nwip={output.wip * 100:.2f}%"
                   f"\nwer={output.wer * 100:.2f}%\n")


def _aligned_pairs(ref: List[str], hyp: List[str], chunk: AlignmentChunk) -> List[Tuple[str, str, str]]:
    """(reference token, hypothesis token, mark) of each position of one chunk; ``*`` fills the missing side."""
    if chunk.type not in _MARKS:
        raise ValueError(f"unparseable op name={chunk.type}")
    mark = _MARKS[chunk.type]
    if chunk.type == "insert":
        inserted = hyp[chunk.hyp_start_idx:chunk.hyp_end_idx]
        return [("*", token, mark) for token in inserted]
    reference = ref[chunk.ref_start_idx:chunk.ref_end_idx]
    if chunk.type == "delete":
        return [(token, "*", mark) for token in reference]
    return list(zip(reference, hyp[chunk.hyp_start_idx:chunk.hyp_end_idx], [mark] * len(reference)))


def _three_lines(ref: List[str], hyp: List[str], chunks: List[AlignmentChunk], spaced: bool,
                 line_width: Optional[int]) -> str:
    gap = " " if spaced else ""
    lines = ["REF: ", "HYP: ", "     "]
    done = ""

    def flush(rows: List[str]) -> str:
        return "\n".join(row[:-1] if spaced else row for row in rows) + "\n"

    for chunk in chunks:
        for ref_token, hyp_token, mark in _aligned_pairs(ref, hyp, chunk):
            width = max(len(ref_token), len(hyp_token), len(mark))
            if line_width is not None and len(lines[0]) + width > line_width:
                done += flush(lines) + "\n"
                lines = ["REF: ", "HYP: ", "     "]
            if ref_token == "*":
                ref_token = "*" * width
            elif hyp_token == "*":
                hyp_token = "*" * width
            lines[0] += f"{ref_token:>{width}}{gap}"
            lines[1] += f"{hyp_token:>{width}}{gap}"
            lines[2] += f"{mark.upper():>{width}}{gap}"
    return done + flush(lines)


def collect_error_counts(output: Union[WordOutput, CharacterOutput]) -> Tuple[Dict, Dict, Dict]:
    """How often each substitution ``(reference, hypothesis)``, insertion and deletion occurs (as defaultdicts)."""
    substitutions: Dict = defaultdict(lambda: 0)
    insertions: Dict = defaultdict(lambda: 0)
    deletions: Dict = defaultdict(lambda: 0)
    joiner = " " if isinstance(output, WordOutput) else ""
    for ref, hyp, chunks in zip(output.references, output.hypotheses, output.alignments):
        for chunk in chunks:
            ref_part = joiner.join(ref[chunk.ref_start_idx:chunk.ref_end_idx])
            hyp_part = joiner.join(hyp[chunk.hyp_start_idx:chunk.hyp_end_idx])
            if chunk.type == "insert":
                insertions[hyp_part] += 1
            elif chunk.type == "delete":
                deletions[ref_part] += 1
            elif chunk.type == "substitute":
                substitutions[(ref_part, hyp_part)] += 1
    return substitutions, insertions, deletions


def visualize_error_counts(output: Union[WordOutput, CharacterOutput], show_substitutions: bool = True,
                           show_insertions: bool = True, show_deletions: bool = True,
                           top_k: Optional[int] = None) -> str:
    """The error counts as text, most frequent first (``top_k`` of each kind)."""
    substitutions, insertions, deletions = collect_error_counts(output)

    def listing(errors: Dict) -> str:
        if not errors:
            return "none"
        ranked = sorted(errors.items(), key=lambda item: item[1], reverse=True)
        if top_k is not None:
            ranked = ranked[:top_k]
        pad = max(len(key) if isinstance(key, str) else max(len(part) for part in key) for key, _ in ranked)
        return "".join(f"{key[0]: <{pad}} --> {key[1]:<{pad}} = {count}x\n" if isinstance(key, tuple)
                       else f"{key:<{pad}} = {count}x\n" for key, count in ranked)

    sections = [(show_substitutions, "SUBSTITUTIONS", substitutions), (show_insertions, "INSERTIONS", insertions),
                (show_deletions, "DELETIONS", deletions)]
    text = ""
    for shown, title, errors in sections:
        if shown:
            text += ("\n" if text else "") + f"=== {title} ===\n" + listing(errors)
    return text[:-1] if text.endswith("\n") else text
