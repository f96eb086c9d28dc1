"""``MetricState``: what a metric has accumulated, as plain NumPy arrays and a JSON header.

A state is the unit that travels between batches, processes and machines: ``to_bytes`` and
``MetricState.from_bytes`` are its wire format, and ``merge`` joins two states of the same metric
and options. Nothing is ever pickled.

Each array has a *kind* that says how two states join:

- ``rows``: one row per segment (first axis), concatenated in merge order;
- ``sum``: element-wise sums (corpus totals kept instead of rows, for bounded memory);
- ``text``: one string per segment, stored as UTF-8 bytes (``<name>.data``, uint8) and end offsets
  (``<name>.offsets``, int64), concatenated in merge order.

Wire format (version 1), all integers little-endian:

    b"NLGMSTAT"  magic (8 bytes)
    u32          format version (1)
    u32          header length H
    H bytes      header: UTF-8 JSON {"metric", "options", "library_version", "n_segments",
                 "ref_counts", "arrays": [{"name", "kind", "dtype", "shape", "offset", "nbytes"}, …],
                 "checksum": Adler-32 of the payload}
    payload      each array's C-ordered bytes at its offset (8-byte aligned)

A truncated, corrupted or foreign payload raises ``ValueError`` (and nothing else, whatever the bytes);
arrays are read without copying. ``validate`` checks what a checksum cannot (a forged state has a valid
one): row counts, text offsets, finite numbers; ``Metric.merge`` adds each metric's own rules
(non-negative counts, matches within their totals).

>>> import numpy as np
>>> state = MetricState("bleu", {"tokenize": "13a"}, {"segment_stats": np.array([[3, 4], [1, 2]])},
...                     kinds={"segment_stats": "rows"}, n_segments=2)
>>> again = MetricState.from_bytes(state.to_bytes())
>>> again.arrays["segment_stats"].tolist(), again.options, again.n_segments
([[3, 4], [1, 2]], {'tokenize': '13a'}, 2)
>>> again.merge(state).arrays["segment_stats"].shape
(4, 2)
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from nlgmetrics._core import __version__, encode_utf8

MAGIC = b"NLGMSTAT"
FORMAT_VERSION = 1
KINDS = ("rows", "sum", "text")
# dtypes a state may hold (never object arrays: nothing in a payload can run code).
DTYPES = ("<i8", "<i4", "<u8", "<u4", "<f8", "<f4", "|u1", "|b1")
_PREFIX = struct.Struct("<8sII")
_ALIGN = 8


def encode_texts(texts: Sequence[str]) -> Tuple[np.ndarray, np.ndarray]:
    """Strings as (UTF-8 bytes, end offsets).

    >>> data, ends = encode_texts(["ab", "", "é"])
    >>> bytes(data), ends.tolist()
    (b'ab\\xc3\\xa9', [2, 2, 4])
    """
    if type(texts) is list:
        fast = encode_utf8(texts)  # one copy in Rust; None for a lone surrogate (kept by "surrogatepass" below)
        if fast is not None:
            return fast
    encoded = [text.encode("utf-8", "surrogatepass") for text in texts]
    ends = np.cumsum([len(item) for item in encoded], dtype=np.int64) if encoded else np.zeros(0, np.int64)
    return np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), ends


def decode_texts(data: np.ndarray, ends: np.ndarray) -> list:
    """The strings of ``encode_texts``.

    >>> decode_texts(*encode_texts(["ab", "", "é"]))
    ['ab', '', 'é']
    """
    raw = data.tobytes()
    starts = [0] + ends[:-1].tolist()
    return [raw[start:end].decode("utf-8", "surrogatepass") for start, end in zip(starts, ends.tolist())]


def join_texts(pairs: Sequence[Tuple[np.ndarray, np.ndarray]]) -> Tuple[np.ndarray, np.ndarray]:
    """One ``(UTF-8 bytes, end offsets)`` pair from several, in order (each pair's offsets shifted by the bytes before it).

    >>> decode_texts(*join_texts([encode_texts(["ab"]), encode_texts(["", "é"])]))
    ['ab', '', 'é']
    """
    if len(pairs) == 1:
        return pairs[0]
    shifts = np.cumsum([0] + [len(data) for data, _ in pairs[:-1]])
    return (np.concatenate([data for data, _ in pairs]),
            np.concatenate([ends + shift for (_, ends), shift in zip(pairs, shifts)]))


def join_states(states: Sequence["MetricState"]) -> "MetricState":
    """One state holding the segments of ``states`` in order, each array joined once (joining them pairwise would
    copy the rows kept so far at every step); ValueError when two cannot be merged, naming what differs."""
    if not states:
        raise ValueError("no states to merge")
    first = states[0]
    for other in states[1:]:
        first.check_compatible(other)
    arrays: Dict[str, np.ndarray] = {}
    for name, kind in first.kinds.items():
        if kind == "sum":
            total = first.arrays[name]
            for other in states[1:]:
                total = total + other.arrays[name]
            arrays[name] = total
        elif kind == "rows":
            arrays[name] = np.concatenate([state.arrays[name] for state in states])
        else:
            data, ends = f"{name}.data", f"{name}.offsets"
            arrays[data], arrays[ends] = join_texts([(state.arrays[data], state.arrays[ends]) for state in states])
    return MetricState(first.metric, dict(first.options), arrays, dict(first.kinds),
                       sum(state.n_segments for state in states),
                       tuple(sorted(set().union(*(state.ref_counts for state in states)))))


@dataclass(frozen=True, eq=False)
class MetricState:
    """The accumulated statistics of one metric under one set of options.

    ``options`` holds every option that changes the number (JSON values); ``arrays`` the named
    arrays (text arrays appear as ``<name>.data`` and ``<name>.offsets``); ``kinds`` each array's
    kind; ``ref_counts`` the distinct numbers of references per segment seen (for signatures).
    """

    metric: str
    options: Dict[str, Any]
    arrays: Dict[str, np.ndarray]
    kinds: Dict[str, str]
    n_segments: int = 0
    ref_counts: Tuple[int, ...] = ()
    library_version: str = field(default=__version__)

    # ------------------------------------------------------------------ joining

    def check_compatible(self, other: "MetricState") -> None:
        """Raise ValueError naming what differs when ``other`` cannot be merged into this state."""
        if not isinstance(other, MetricState):
            raise TypeError(f"can only merge a MetricState or a Metric, got {type(other).__name__}")
        if other.metric != self.metric:
            raise ValueError(f"cannot merge a {other.metric!r} state into a {self.metric!r} state")
        for key in sorted(set(self.options) | set(other.options)):
            mine, theirs = self.options.get(key, "<unset>"), other.options.get(key, "<unset>")
            if mine != theirs:
                raise ValueError(f"cannot merge {self.metric} states made with different options: "
                                 f"{key}={mine!r} here, {key}={theirs!r} in the other state")
        if set(self.kinds.items()) != set(other.kinds.items()):
            raise ValueError(f"cannot merge {self.metric} states holding different arrays: "
                             f"{sorted(self.kinds)} here, {sorted(other.kinds)} in the other state")
        for name, array in self.arrays.items():
            theirs = other.arrays[name]
            if array.dtype != theirs.dtype or array.shape[1:] != theirs.shape[1:]:
                raise ValueError(f"cannot merge {self.metric} states: array {name!r} is {array.dtype}{array.shape} "
                                 f"here and {theirs.dtype}{theirs.shape} in the other state")

    def merge(self, other: "MetricState") -> "MetricState":
        """A new state holding this state's segments followed by ``other``'s."""
        return join_states([self, other])

    def validate(self) -> "MetricState":
        """Raise ValueError when the content is impossible for any metric: a negative segment count, a ``rows`` array
        whose length is not ``n_segments``, a NaN or infinity, text offsets that are not non-decreasing ends
        within the data (on UTF-8 character boundaries), text that is not UTF-8.

        >>> MetricState("x", {}, {"s": np.ones((3, 2))}, {"s": "rows"}, n_segments=2).validate()
        Traceback (most recent call last):
        ValueError: MetricState is inconsistent: array 's' has 3 rows for 2 segments
        """
        def bad(message: str) -> ValueError:
            return ValueError(f"MetricState is inconsistent: {message}")

        if self.n_segments < 0 or any(count < 0 for count in self.ref_counts):
            raise bad(f"{self.n_segments} segments, reference counts {list(self.ref_counts)}")
        for name, array in self.arrays.items():
            if array.dtype.kind == "f" and not np.isfinite(array).all():
                raise bad(f"array {name!r} holds NaN or infinity")
        for name, kind in self.kinds.items():
            if kind == "rows":
                array = self.arrays[name]
                if array.ndim == 0 or len(array) != self.n_segments:
                    raise bad(f"array {name!r} has {len(array) if array.ndim else 0} rows for {self.n_segments} segments")
            elif kind == "text":
                # one string per segment; CIDEr's and NIST's references: ref_counts[i] strings for segment i
                per_reference = name == "references" and self.kinds.get("ref_counts") == "rows"
                count = int(np.asarray(self.arrays["ref_counts"]).sum()) if per_reference else self.n_segments
                _check_text(self.arrays[f"{name}.data"], self.arrays[f"{name}.offsets"], name, count, bad)
        return self

    def texts(self, name: str) -> list:
        """The strings of the text array ``name``."""
        return decode_texts(self.arrays[f"{name}.data"], self.arrays[f"{name}.offsets"])

    # ------------------------------------------------------------------ wire format

    def header(self) -> Dict[str, Any]:
        return {"metric": self.metric, "options": self.options, "library_version": self.library_version,
                "n_segments": self.n_segments, "ref_counts": list(self.ref_counts), "kinds": self.kinds}

    def to_bytes(self) -> bytes:
        """The state as bytes (see the module docstring for the format); arrays are copied once."""
        entries: List[Dict[str, Any]] = []
        views: List[Any] = []  # memoryviews of the arrays and padding bytes, joined once
        checksum, offset = zlib.adler32(b""), 0
        for name in sorted(self.arrays):
            array = np.ascontiguousarray(self.arrays[name])
            if array.dtype.byteorder == ">":
                array = array.astype(array.dtype.newbyteorder("<"))
            if array.dtype.str not in DTYPES:
                raise ValueError(f"array {name!r} has dtype {array.dtype}, which a state cannot hold")
            data = array.data.cast("B") if array.size else memoryview(b"")
            padding = b"\0" * (-len(data) % _ALIGN)
            checksum = zlib.adler32(padding, zlib.adler32(data, checksum))
            entries.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "offset": offset,
                            "nbytes": len(data)})
            views += [data, padding]
            offset += len(data) + len(padding)
        header = dict(self.header(), arrays=entries, checksum=checksum)
        header_bytes = json.dumps(header, sort_keys=True).encode("utf-8")
        header_bytes += b" " * (-(len(header_bytes) + _PREFIX.size) % _ALIGN)
        return b"".join([_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header_bytes)), header_bytes, *views])

    @classmethod
    def from_bytes(cls, data: Any) -> "MetricState":
        """A state from ``to_bytes`` output; ValueError for anything else (truncated, corrupted, foreign)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"MetricState.from_bytes takes bytes, got {type(data).__name__}")
        view = memoryview(data).cast("B")
        if len(view) < _PREFIX.size:
            raise ValueError(f"not a MetricState: {len(view)} bytes is shorter than the {_PREFIX.size}-byte prefix")
        magic, version, header_length = _PREFIX.unpack_from(view)
        if magic != MAGIC:
            raise ValueError("not a MetricState: the payload does not start with the nlgmetrics state magic bytes")
        if version != FORMAT_VERSION:
            raise ValueError(f"MetricState format version {version} is not supported (this nlgmetrics reads version "
                             f"{FORMAT_VERSION}); produce the state with the same nlgmetrics version")
        start = _PREFIX.size + header_length
        if start > len(view):
            raise ValueError("MetricState is truncated: the header runs past the end of the payload")
        try:
            header = json.loads(bytes(view[_PREFIX.size:start]).decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ValueError("MetricState header is corrupted (not valid JSON, or nested too deeply)") from None
        payload = view[start:]
        try:
            state = cls._from_header(header, payload)
        except (KeyError, TypeError, OverflowError, RecursionError, AttributeError, IndexError):
            # a header of the wrong shape (a list where a number belongs, a nesting too deep): never more than ValueError
            raise ValueError("MetricState header is corrupted (a field has the wrong type)") from None
        return state.validate()

    @classmethod
    def _from_header(cls, header: Any, payload: memoryview) -> "MetricState":
        try:
            entries = header["arrays"]
            checksum = int(header["checksum"])
            metric, options, kinds = header["metric"], header["options"], header["kinds"]
            n_segments, ref_counts = int(header["n_segments"]), tuple(int(c) for c in header["ref_counts"])
            library_version = str(header["library_version"])
            exact = [header["checksum"], header["n_segments"], *header["ref_counts"]]
            if not all(type(value) is int for value in exact) or not all(isinstance(key, str) for key in kinds):
                raise TypeError("not an int")
        except (KeyError, TypeError, ValueError):
            raise ValueError("MetricState header is corrupted (a field is missing or has the wrong type)") from None
        if not (isinstance(metric, str) and isinstance(options, dict) and isinstance(kinds, dict)
                and isinstance(entries, list) and all(kind in KINDS for kind in kinds.values())):
            raise ValueError("MetricState header is corrupted (a field has the wrong type)")
        expected = sum(int(entry.get("nbytes", 0)) + (-int(entry.get("nbytes", 0)) % _ALIGN)
                       for entry in entries if isinstance(entry, dict))
        if len(payload) != expected:
            raise ValueError(f"MetricState is truncated or padded: {len(payload)} payload bytes, header says {expected}")
        if zlib.adler32(payload) != checksum:
            raise ValueError("MetricState is corrupted: the payload checksum does not match")
        arrays: Dict[str, np.ndarray] = {}
        for entry in entries:
            arrays[str(entry["name"])] = _array_from_entry(entry, payload)
        for name, kind in kinds.items():
            needed = [f"{name}.data", f"{name}.offsets"] if kind == "text" else [name]
            if any(item not in arrays for item in needed):
                raise ValueError(f"MetricState is corrupted: array {name!r} is declared but missing")
        return cls(metric, options, arrays, dict(kinds), n_segments, ref_counts, library_version)


def _check_text(data: np.ndarray, ends: np.ndarray, name: str, n_segments: int, bad) -> None:
    """Text offsets: one end per string (``n_segments`` of them), non-decreasing, the last at the end of the data, each on a UTF-8 character
    boundary; the data UTF-8 (lone surrogates allowed, as ``encode_texts`` keeps them)."""
    if data.ndim != 1 or data.dtype != np.uint8 or ends.ndim != 1 or ends.dtype.kind not in "iu":
        raise bad(f"text array {name!r} is not bytes with integer offsets")
    if len(ends) != n_segments:
        raise bad(f"text array {name!r} has {len(ends)} offsets for {n_segments} strings")
    if len(ends) == 0:
        if len(data):
            raise bad(f"text array {name!r} has {len(data)} bytes and no segment")
        return
    ends = ends.astype(np.int64)
    if ends[0] < 0 or (np.diff(ends) < 0).any() or ends[-1] != len(data):
        raise bad(f"text array {name!r} has offsets that are not non-decreasing ends of its {len(data)} bytes")
    inner = ends[:-1][ends[:-1] < len(data)]
    if ((data[inner] & 0xC0) == 0x80).any():
        raise bad(f"text array {name!r} has an offset inside a UTF-8 character")
    try:
        data.tobytes().decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        raise bad(f"text array {name!r} is not UTF-8") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid value in a state")


def _array_from_entry(entry: Any, payload: memoryview) -> np.ndarray:
    try:
        dtype, shape = str(entry["dtype"]), tuple(int(n) for n in entry["shape"])
        offset, nbytes = int(entry["offset"]), int(entry["nbytes"])
        if not all(type(n) is int for n in [*entry["shape"], entry["offset"], entry["nbytes"]]):
            raise TypeError("not an int")
    except (KeyError, TypeError, ValueError, OverflowError):
        raise ValueError("MetricState header is corrupted (an array entry is malformed)") from None
    if dtype not in DTYPES:
        raise ValueError(f"MetricState holds an array of dtype {dtype!r}, which is not allowed")
    if any(n < 0 for n in shape) or offset < 0 or offset + nbytes > len(payload):
        raise ValueError("MetricState header is corrupted (an array lies outside the payload)")
    item = np.dtype(dtype).itemsize
    if int(np.prod(shape, dtype=np.int64)) * item != nbytes:
        raise ValueError("MetricState header is corrupted (an array's shape does not match its size)")
    array = np.frombuffer(payload, dtype=dtype, count=nbytes // item, offset=offset).reshape(shape)
    array.setflags(write=False)
    return array

