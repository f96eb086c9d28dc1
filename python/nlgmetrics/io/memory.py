"""Peak memory that stays flat however long a stream is (the ``score`` command over millions of rows).

Each batch allocates and frees the same few large buffers (Arrow columns, statistics arrays). Two allocator
habits make the peak drift upwards with the number of batches: PyArrow's default pool (mimalloc) keeps freed
pages, and glibc raises its mmap threshold after the first large frees, so later large buffers come from heaps
(one per thread) whose free space fragments. ``steady_peak_memory`` turns both off for this process: Arrow
allocates from the system allocator, and every block from ``MMAP_THRESHOLD_BYTES`` up is its own mapping,
returned to the system when freed. Measured on 10M rows of corpus BLEU from Parquet: the peak of every
500,000-row stretch within 145–151 MB instead of 174–217 MB, for ~10 % more CPU time (benches/RESULTS.md, Scale).

It changes process-wide settings, so the command line calls it; a library caller may call it in its own process.

>>> MMAP_THRESHOLD_BYTES // 1024   # KiB; the command's test checks the settings in a child process
1024
"""

from __future__ import annotations

import ctypes
import sys

__all__ = ["MMAP_THRESHOLD_BYTES", "steady_peak_memory"]

#: Blocks of this size and up get their own mapping (glibc's default is 128 KiB, raised as large blocks are freed).
MMAP_THRESHOLD_BYTES = 1 << 20
#: glibc's ``mallopt`` parameter number for the mmap threshold (``M_MMAP_THRESHOLD`` in malloc.h).
_M_MMAP_THRESHOLD = -3


def steady_peak_memory() -> bool:
    """Use the system allocator for Arrow and a fixed glibc mmap threshold; True when glibc took the setting
    (False elsewhere: macOS, Windows, musl — their allocators are left as they are)."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - the score command needs pyarrow anyway
        pa = None
    if pa is not None:
        pa.set_memory_pool(pa.system_memory_pool())
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))
