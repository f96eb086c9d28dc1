"""The per-process cache of encodings: a text is encoded once per model and purpose.

Scoring eight systems on one test set encodes the references (and COMET's sources) once: every encoding is
kept under ``(model fingerprint, purpose, text)``, where the purpose names what was kept (BERTScore: the
normalised token vectors of one layer; COMET: one pooled sentence vector). The cache is bounded in bytes —
``NLGMETRICS_NEURAL_CACHE_MB`` (default 1024; 0 turns it off) — and forgets the least recently used
entries first. ``clear()`` (``nlgmetrics.clear_neural_cache()``) empties it; ``info()`` says what it holds.

>>> import numpy as np
>>> cache = EncodingCache(limit_bytes=64)
>>> cache.put(("m", "p", "a"), np.zeros(4, dtype=np.float32))
>>> cache.get(("m", "p", "a")).shape
(4,)
>>> cache.put(("m", "p", "b"), np.zeros(16, dtype=np.float32))   # 64 bytes: "a" is forgotten
>>> cache.get(("m", "p", "a")) is None, cache.info()["entries"]
(True, 1)
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any, Dict, Hashable, Optional, Tuple

import numpy as np

__all__ = ["EncodingCache", "shared_cache", "clear", "clear_neural_cache", "info"]


def _default_limit() -> int:
    value = os.environ.get("NLGMETRICS_NEURAL_CACHE_MB", "1024")
    try:
        megabytes = float(value)
    except ValueError:
        raise ValueError(f"NLGMETRICS_NEURAL_CACHE_MB must be a number of megabytes, got {value!r}") from None
    if not 0 <= megabytes < 1 << 30:
        raise ValueError(f"NLGMETRICS_NEURAL_CACHE_MB must be between 0 and 2**30, got {value!r}")
    return int(megabytes * (1 << 20))


class EncodingCache:
    """A byte-bounded LRU map from keys to NumPy arrays (thread-safe)."""

    def __init__(self, limit_bytes: Optional[int] = None):
        self.limit_bytes = _default_limit() if limit_bytes is None else int(limit_bytes)
        self._entries: "OrderedDict[Hashable, Tuple[np.ndarray, int]]" = OrderedDict()  # key -> (value, bytes)
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Optional[np.ndarray]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def put(self, key: Hashable, value: np.ndarray, *, extra_bytes: int = 0) -> None:
        """Keep ``value`` under ``key``; it counts ``value.nbytes`` + ``extra_bytes`` (what the key holds, when
        that is large: a text) against the limit."""
        size = int(value.nbytes) + int(extra_bytes)
        if size > self.limit_bytes:
            return
        value.setflags(write=False)  # entries are shared between calls: nobody may change one
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > self.limit_bytes and self._entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def info(self) -> Dict[str, Any]:
        with self._lock:
            return {"entries": len(self._entries), "bytes": self._bytes, "limit_bytes": self.limit_bytes,
                    "hits": self.hits, "misses": self.misses}


_SHARED: Optional[EncodingCache] = None
_SHARED_LOCK = threading.Lock()


def shared_cache() -> EncodingCache:
    """The process's cache (made on first use, so the limit is read from the environment then)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = EncodingCache()
        return _SHARED


def clear() -> None:
    """Forget every cached encoding and every loaded model of this process."""
    shared_cache().clear()
    from nlgmetrics.neural import loaded

    loaded.forget_models()


clear_neural_cache = clear  # the name nlgmetrics exports


def info() -> Dict[str, Any]:
    """Entries, bytes, limit, hits and misses of the process's cache."""
    return shared_cache().info()
