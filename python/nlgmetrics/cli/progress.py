"""A progress line on standard error (rows done, rows per second) when it is a terminal; nothing otherwise.

>>> import io
>>> progress = Progress(stream=io.StringIO())   # not a terminal: silent
>>> progress.add(1000); progress.done(); progress.stream.getvalue()
''
"""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

#: Seconds between redraws (a redraw per batch would flood a slow terminal).
REDRAW_SECONDS = 0.2


class Progress:
    """Counts rows; redraws ``\\r<rows> rows  <rate> rows/s`` at most every ``REDRAW_SECONDS``."""

    def __init__(self, label: str = "", stream: Optional[TextIO] = None):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = f"{label}: " if label else ""
        self.rows = 0
        self.start = time.perf_counter()
        self.drawn = 0.0

    def add(self, rows: int) -> None:
        self.rows += rows
        now = time.perf_counter()
        if self.enabled and now - self.drawn >= REDRAW_SECONDS:
            self.drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.rows / max(now - self.start, 1e-9)
        self.stream.write(f"\r{self.label}{self.rows:,} rows  {rate:,.0f} rows/s ")
        self.stream.flush()

    def done(self) -> None:
        """Draw the final count and end the line (only if anything was drawn at all)."""
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()


def counted(chunks, progress: Progress):
    """Yields ``(systems, references)`` chunks of aligned lines, counting their lines on ``progress``."""
    for systems, references in chunks:
        yield systems, references
        progress.add(len(references))
    progress.done()
