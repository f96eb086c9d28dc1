"""A progress line on standard error (rows done, rows per second) when it is a terminal; nothing otherwise.

>>> import io
>>> progress = Progress(stream=io.StringIO())   # not a terminal: silent
>>> progress.add(1000); progress.done(); progress.stream.getvalue()
''
"""

from __future__ import annotations

import sys
import time
from typing import Any, Optional, TextIO

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


def progress_bar(total: int, label: str, unit: str = "step", enabled: Optional[bool] = None,
                 stream: Optional[TextIO] = None, unit_scale: bool = False):
    """A tqdm bar on standard error for work of a known size: done of ``total``, elapsed time, rate and ETA.

    ``enabled=None`` shows it only when the stream is a terminal (a log file gets nothing). tqdm is
    imported here, so commands that show no bar do not load it.

    >>> import io
    >>> bar = progress_bar(3, "report", stream=io.StringIO())   # not a terminal: disabled
    >>> bar.update(3); bar.close(); bar.disable
    True
    """
    from tqdm import tqdm

    stream = sys.stderr if stream is None else stream
    if enabled is None:
        enabled = bool(getattr(stream, "isatty", lambda: False)())
    return tqdm(total=total, desc=label, unit=unit, unit_scale=unit_scale, disable=not enabled, file=stream,
                dynamic_ncols=True, leave=True)


class FileReadProgress:
    """A bar of the bytes a native call has read from ``path`` so far (Linux: the read offset of the file
    descriptor that points at ``path``, from ``/proc/self/fdinfo``, polled by a thread while the call runs
    with the GIL released). Elsewhere, or if no descriptor is found, the bar shows the elapsed time only.

    >>> import io, tempfile
    >>> with tempfile.NamedTemporaryFile() as handle, FileReadProgress(handle.name, "x", stream=io.StringIO()):
    ...     pass
    """

    POLL_SECONDS = 0.25

    def __init__(self, path: str, label: str, enabled: Optional[bool] = None, stream: Optional[TextIO] = None):
        import os

        self.path = os.path.realpath(path)
        self.total = os.path.getsize(self.path)
        self.bar = progress_bar(self.total, label, unit="B", enabled=enabled, stream=stream, unit_scale=True)
        self._stop: Any = None  # threading.Event while polling
        self._thread: Any = None

    def __enter__(self) -> "FileReadProgress":
        import threading

        if not self.bar.disable:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        return self

    def _offset(self) -> Optional[int]:
        import os

        try:
            for fd in os.listdir("/proc/self/fd"):
                try:
                    if os.readlink(f"/proc/self/fd/{fd}") == self.path:
                        with open(f"/proc/self/fdinfo/{fd}") as info:
                            return int(info.readline().split()[1])  # "pos:\t<offset>"
                except (OSError, ValueError, IndexError):
                    continue
        except OSError:
            return None
        return None

    def _poll(self) -> None:
        assert self._stop is not None
        while not self._stop.wait(self.POLL_SECONDS):
            offset = self._offset()
            if offset is not None and offset > self.bar.n:
                self.bar.update(min(offset, self.total) - self.bar.n)

    def __exit__(self, *exc) -> None:
        if self._stop is not None and self._thread is not None:
            self._stop.set()
            self._thread.join()
            if exc[0] is None:
                self.bar.update(self.total - self.bar.n)
        self.bar.close()
