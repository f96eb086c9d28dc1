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
from typing import Sequence


class InputFileError(ValueError):
    """A file the user named cannot be used as input; the message names the file and, where known, the line."""


def decode_lines(data: bytes, name: str) -> list[str]:
    """Decode UTF-8 bytes into stripped lines; undecodable bytes raise InputFileError with the line number."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputFileError(
            f"{name}: line {line} is not valid UTF-8 (byte 0x{data[error.start]:02x} at byte column {column})"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_lines(path: str) -> list[str]:
    """The stripped lines of a UTF-8 file; ``-`` reads standard input."""
    if path == "-":
        return decode_lines(sys.stdin.buffer.read(), "<stdin>")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise InputFileError(f"cannot read {path}: {error.strerror or error}") from None
    return decode_lines(data, path)


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
    references = [list(refs) for refs in zip(*reference_streams)] if reference_streams else []
    return systems, references
