"""Reading line-aligned text files for the command line, with errors that name the file and line.

Lines are split on ``\\n`` only and trailing whitespace is stripped from each, as sacreBLEU's command
line does (``smart_open(..., newline="\\n")`` then ``line.rstrip()``), so a U+2028 or a stray ``\\r``
inside a segment never shifts the alignment.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
>>> _ = open(path, "wb").write("Hallo Welt \\nzweite Zeile\\n".encode())
>>> read_lines(path)
['Hallo Welt', 'zweite Zeile']
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from typing import BinaryIO, Iterator, List, Sequence, Tuple

from nlgmetrics.core.inputs import PerHypothesis


class InputFileError(ValueError):
    """A file the user named cannot be used as input; the message names the file and, where known, the line."""


def decode_lines(data: bytes, name: str) -> list[str]:
    """Decode UTF-8 bytes into stripped lines; undecodable bytes raise InputFileError with the line number.

    The bytes and the decoded text are released as soon as they are no longer needed, so reading a
    file costs little more than the lines themselves.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_number = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputFileError(
            f"{name}: line {line_number} is not valid UTF-8 (byte 0x{data[error.start]:02x} at byte column {column})"
        ) from None
    del data
    lines = text[1:].split("\n") if text.startswith("\ufeff") else text.split("\n")
    del text
    if lines and lines[-1] == "":
        lines.pop()
    for index, line in enumerate(lines):
        stripped = line.rstrip()
        if stripped is not line:
            lines[index] = stripped
    return lines


def read_lines(path: str) -> list[str]:
    """The stripped lines of a UTF-8 file; ``-`` reads standard input."""
    if path == "-":
        return decode_lines(sys.stdin.buffer.read(), "<stdin>")
    try:
        with open(path, "rb") as handle:
            return decode_lines(handle.read(), path)
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None


def read_aligned(hypothesis_paths: Sequence[str], reference_paths: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    """Read hypothesis files and reference files that must all have the same number of lines.

    Returns ``(systems, references)``: one list of lines per hypothesis file, and for each line the
    list of its references (one per reference file).
    """
    reference_streams = [read_lines(path) for path in reference_paths]
    systems = [read_lines(path) for path in hypothesis_paths]
    expected = len(reference_streams[0]) if reference_streams else None
    for path, stream in zip(reference_paths, reference_streams):
        if len(stream) != expected:
            raise InputFileError(
                f"reference files differ in length: {reference_paths[0]} has {expected} lines, {path} has {len(stream)}"
            )
    for path, lines in zip(hypothesis_paths, systems):
        if expected is not None and len(lines) != expected:
            shown = "<stdin>" if path == "-" else path
            raise InputFileError(f"{shown} has {len(lines)} lines but the references have {expected}")
    references = PerHypothesis([list(refs) for refs in zip(*reference_streams)] if reference_streams else [])
    return systems, references


def _decode_line(raw: bytes, name: str, number: int) -> str:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputFileError(
            f"{name}: line {number} is not valid UTF-8 (byte 0x{raw[error.start]:02x} at byte column {error.start + 1})"
        ) from None
    if number == 1 and line.startswith("\ufeff"):
        line = line[1:]
    return line.rstrip()


def _open_binary(path: str, stack: ExitStack) -> BinaryIO:
    if path == "-":
        return sys.stdin.buffer
    try:
        return stack.enter_context(open(path, "rb"))
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None


def iter_aligned_chunks(hypothesis_paths: Sequence[str], reference_paths: Sequence[str],
                        chunk_lines: int) -> Iterator[Tuple[List[List[str]], List[List[str]]]]:
    """Like ``read_aligned``, but yields ``(systems, references)`` for ``chunk_lines`` lines at a time,
    so memory stays bounded whatever the file size. Lines split on ``\\n`` only, as ``read_lines``.

    A length mismatch or an undecodable line raises InputFileError when it is reached, with the same
    messages as ``read_aligned``; callers print nothing until the last chunk has been scored.
    """
    with ExitStack() as stack:
        references = [_open_binary(path, stack) for path in reference_paths]
        systems = [_open_binary(path, stack) for path in hypothesis_paths]
        names = list(reference_paths) + ["<stdin>" if p == "-" else p for p in hypothesis_paths]
        handles = references + systems
        number = 0
        while True:
            chunk: List[List[str]] = [[] for _ in handles]
            ended = [False] * len(handles)
            for _ in range(chunk_lines):
                raws = [handle.readline() for handle in handles]
                ended = [raw == b"" for raw in raws]
                if any(ended):
                    break
                number += 1
                for lines, raw, name in zip(chunk, raws, names):
                    lines.append(_decode_line(raw[:-1] if raw.endswith(b"\n") else raw, name, number))
            if any(ended) and not all(ended):
                counts = [number + (0 if gone else 1 + sum(1 for _ in handle)) for handle, gone in zip(handles, ended)]
                _raise_length_mismatch(list(reference_paths), names[len(references):], counts[:len(references)],
                                       counts[len(references):])
            if chunk[0]:
                yield chunk[len(references):], PerHypothesis([list(refs) for refs in zip(*chunk[:len(references)])])
            if all(ended):
                return


def _raise_length_mismatch(reference_paths, hypothesis_names, reference_counts, hypothesis_counts) -> None:
    expected = reference_counts[0]
    for path, count in zip(reference_paths, reference_counts):
        if count != expected:
            raise InputFileError(
                f"reference files differ in length: {reference_paths[0]} has {expected} lines, {path} has {count}")
    for name, count in zip(hypothesis_names, hypothesis_counts):
        if count != expected:
            raise InputFileError(f"{name} has {count} lines but the references have {expected}")
