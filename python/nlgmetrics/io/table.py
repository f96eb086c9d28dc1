"""Plain-text tables for the command line.

>>> print(format_table(["System", "BLEU"], [["a", "28.31"], ["bb", "9.00"]]))
System   BLEU
a       28.31
bb       9.00
"""

from __future__ import annotations

from typing import Sequence


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell; numeric columns right-aligned, text left-aligned."""
    columns = list(zip(header, *rows))
    widths = [max(len(cell) for cell in column) for column in columns]
    numeric = [all(_is_number(cell) for cell in column[1:]) and len(column) > 1 for column in columns]

    def render(cells: Sequence[str]) -> str:
        parts = [cell.rjust(width) if right else cell.ljust(width) for cell, width, right in zip(cells, widths, numeric)]
        return "  ".join(parts).rstrip()

    return "\n".join([render(header)] + [render(row) for row in rows])
