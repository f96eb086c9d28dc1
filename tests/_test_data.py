"""The real evaluation data of the tests: held in the repository (``tests/data/evaluation``, xz-compressed)
and unpacked once into a cache folder, where the tests read plain files.

The store's format (written by ``tools/pack_test_data.py``): ``INDEX.tsv`` lists each file of the unpacked
tree — its path, the SHA-256 and size of its content, the stored parts (``<name>.xz``, or ``<name>.xz.00``,
``.01``, … whose bytes joined in order make one xz stream). A path ending in ``.gz`` is stored gunzipped and
gzipped again when unpacked (the tests open it with ``gzip``; its content, not its gzip bytes, is checked).

``data_root()`` is the folder the tests read: ``NLGMETRICS_SHARED_DATA`` when it names a folder (an uncompressed
copy of the same files, set by whoever has one), else the unpacked store, in ``<repo>/.cache/test-data/<key>``
(``key``: the index's hash, so a changed store unpacks afresh). Unpacking goes to a temporary folder renamed
into place, so parallel pytest workers starting together never see half a tree.

>>> entry = IndexEntry("mt/a.txt", "0" * 64, 3, ("mt/a.txt.xz",))
>>> IndexEntry.from_line(entry.to_line()) == entry
True
"""

from __future__ import annotations

import gzip
import hashlib
import lzma
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Sequence, Tuple

REPO = Path(__file__).resolve().parent.parent
STORE = REPO / "tests" / "data" / "evaluation"
CACHE = REPO / ".cache" / "test-data"
ENV_OVERRIDE = "NLGMETRICS_SHARED_DATA"

INDEX_NAME = "INDEX.tsv"
INDEX_HEADER = "path\tsha256\tsize\tstored"
#: Files of the store that are not data (kept beside it, never unpacked).
NOT_DATA = {INDEX_NAME, "MANIFEST.md"}


class StoreError(RuntimeError):
    """The store is missing or damaged (a part absent, a checksum that does not match)."""


@dataclass(frozen=True)
class IndexEntry:
    """One file of the unpacked tree: where it goes, what its content is, which stored parts hold it."""

    path: str
    sha256: str
    size: int
    stored: Tuple[str, ...]

    def to_line(self) -> str:
        return "\t".join([self.path, self.sha256, str(self.size), ",".join(self.stored)])

    @classmethod
    def from_line(cls, line: str) -> "IndexEntry":
        path, sha256, size, stored = line.split("\t")
        return cls(path, sha256, int(size), tuple(stored.split(",")))


def read_index(store: Path) -> List[IndexEntry]:
    """The entries of ``store/INDEX.tsv`` (a ``StoreError`` naming the line when one is malformed)."""
    index = store / INDEX_NAME
    if not index.is_file():
        raise StoreError(f"{index} is missing: the tests' evaluation data is not in this checkout "
                            f"(restore tests/data/evaluation, or set {ENV_OVERRIDE} to a copy of it unpacked)")
    lines = index.read_text(encoding="utf-8").split("\n")
    if lines[0] != INDEX_HEADER:
        raise StoreError(f"{index}: the first line is {lines[0]!r}, expected {INDEX_HEADER!r}")
    entries = []
    for number, line in enumerate(lines[1:], 2):
        if not line:
            continue
        try:
            entries.append(IndexEntry.from_line(line))
        except ValueError as error:
            raise StoreError(f"{index}, line {number}: {error}: {line[:120]!r}") from None
    return entries


def content(store: Path, entry: IndexEntry) -> bytes:
    """The checked content of one entry: its parts joined, decompressed, compared with the index."""
    missing = [part for part in entry.stored if not (store / part).is_file()]
    if missing:
        raise StoreError(f"{entry.path}: stored part(s) missing from {store}: {', '.join(missing)}")
    stream = b"".join((store / part).read_bytes() for part in entry.stored)
    try:
        data = lzma.decompress(stream, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as error:
        raise StoreError(f"{entry.path}: {', '.join(entry.stored)} is not a valid xz stream ({error})") from None
    if len(data) != entry.size or hashlib.sha256(data).hexdigest() != entry.sha256:
        raise StoreError(f"{entry.path}: the unpacked content does not match {INDEX_NAME} "
                            f"({len(data):,} bytes, expected {entry.size:,}; or a different SHA-256)")
    return data


def unpack(store: Path, target: Path) -> int:
    """Writes every file of ``store`` under ``target`` (which must not exist yet); returns the file count."""
    entries = read_index(store)
    for entry in entries:
        data = content(store, entry)
        path = target / entry.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(data, mtime=0) if entry.path.endswith(".gz") else data)
    return len(entries)


def store_key(store: Path) -> str:
    """Names an unpacked copy: the index's hash (a new store, a new folder)."""
    if not (store / INDEX_NAME).is_file():
        read_index(store)  # raises, saying what is missing
    return hashlib.sha256((store / INDEX_NAME).read_bytes()).hexdigest()[:16]


def default_caches() -> Tuple[Path, ...]:
    """Where unpacked copies go: ``<repo>/.cache/test-data``, else (a read-only checkout) the user's temp folder."""
    return CACHE, Path(tempfile.gettempdir()) / f"nlgmetrics-test-data-{os.getuid()}"


def materialize(store: Path = STORE, caches: Sequence[Path] = ()) -> Path:
    """The unpacked tree of ``store`` in the first usable folder of ``caches`` (unpacked now unless there)."""
    key = store_key(store)
    caches = tuple(caches) or default_caches()
    for cache in caches:
        if (cache / key).is_dir():
            return cache / key
    errors = []
    for cache in caches:
        try:
            cache.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache))
        except OSError as error:
            errors.append(f"{cache}: {error}")
            continue
        try:
            unpack(store, staging)
            install(staging, cache / key)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        if cache == caches[0]:  # this checkout's own cache: earlier versions of the store go (not staging folders)
            for stale in cache.iterdir():
                if stale.is_dir() and stale.name != key and not stale.name.startswith("."):
                    shutil.rmtree(stale, ignore_errors=True)
        return cache / key
    raise StoreError(f"no folder to unpack the evaluation data into: {'; '.join(errors)}")


def install(staging: Path, final: Path) -> None:
    """Renames the unpacked ``staging`` folder to ``final``; if another process got there first, keeps its copy."""
    try:
        os.rename(staging, final)
    except OSError:
        if not final.is_dir():
            raise


def data_root(environ=os.environ) -> Path:
    """The folder the tests read their evaluation data from (see the module docstring)."""
    override = environ.get(ENV_OVERRIDE)
    if override and Path(override).is_dir():
        return Path(override)
    return materialize()


def describe(root: Path, environ=os.environ) -> str:
    """One line for pytest's header: which evaluation data this run reads."""
    override = environ.get(ENV_OVERRIDE)
    if override and Path(override).is_dir():
        return f"evaluation data: {root} ({ENV_OVERRIDE})"
    ignored = f"; {ENV_OVERRIDE}={override} is not a folder, ignored" if override else ""
    return f"evaluation data: {root} (unpacked from {STORE.relative_to(REPO)}{ignored})"
