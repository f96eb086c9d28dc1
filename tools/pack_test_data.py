"""Packs the evaluation data the tests read into ``tests/data/`` (xz-compressed, small files), or checks it.

The tests need real data (WMT, CNN/DM, Flickr30k, SQuAD: see ``tests/data/MANIFEST.md``); a clone must hold
it, compressed. Each file of the source tree becomes ``<path>.xz`` in the store (a ``.gz`` file becomes
``<path without .gz>.xz`` holding its *decompressed* content: xz packs it tighter, and the tests' reader
gzips it again). An xz stream longer than ``PART_BYTES`` is cut into ``<name>.xz.00``, ``.01``, … so that
no committed file passes 1 MB; the parts joined in order are the stream. ``INDEX.tsv`` lists every file:
its path in the unpacked tree, the SHA-256 and size of its content (for a ``.gz`` path: of the gunzipped
content) and its stored parts. ``tests/_test_data.py`` unpacks a store into a cache folder.

Usage (from the repository root)::

    python tools/pack_test_data.py pack ../shared/data tests/data/evaluation    # (re)write the store
    python tools/pack_test_data.py check ../shared/data tests/data/evaluation   # same files, same contents?

>>> stored_name("mt/oracle_outputs/scores.tsv.gz")
'mt/oracle_outputs/scores.tsv.xz'
"""

from __future__ import annotations

import gzip
import hashlib
import lzma
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from _test_data import INDEX_HEADER, INDEX_NAME, NOT_DATA, IndexEntry, read_index  # the format

#: The largest stored part (bytes): under the project's 1 MB limit for one committed file.
PART_BYTES = 900 * 1024
#: xz settings: the strongest preset (the data is packed once, unpacked at each fresh checkout).
XZ_PRESET = 9 | lzma.PRESET_EXTREME


def content_of(path: Path) -> bytes:
    """What the store keeps of a source file: its bytes, or for ``.gz`` its decompressed bytes."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def stored_name(relative: str) -> str:
    """The stored name of a source path (without part suffix): ``x.tsv.gz`` → ``x.tsv.xz``, ``x`` → ``x.xz``."""
    return (relative[:-3] if relative.endswith(".gz") else relative) + ".xz"


def source_files(source: Path) -> Iterator[Tuple[str, Path]]:
    """(posix relative path, path) of every data file under ``source``, in path order."""
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source).as_posix()
        if path.is_file() and relative not in NOT_DATA:
            yield relative, path


def pack(source: Path, store: Path) -> List[IndexEntry]:
    """Writes the store of ``source`` into ``store`` (old ``.xz`` parts there are removed first)."""
    store.mkdir(parents=True, exist_ok=True)
    for old in store.rglob("*.xz*"):
        old.unlink()
    entries = []
    for relative, path in source_files(source):
        content = content_of(path)
        stream = lzma.compress(content, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=XZ_PRESET)
        name = stored_name(relative)
        if len(stream) <= PART_BYTES:
            parts = {name: stream}
        else:
            chunks = [stream[start:start + PART_BYTES] for start in range(0, len(stream), PART_BYTES)]
            parts = {f"{name}.{number:02d}": chunk for number, chunk in enumerate(chunks)}
        for part, chunk in parts.items():
            (store / part).parent.mkdir(parents=True, exist_ok=True)
            (store / part).write_bytes(chunk)
        entries.append(IndexEntry(relative, hashlib.sha256(content).hexdigest(), len(content), tuple(parts)))
    (store / INDEX_NAME).write_text("".join(line + "\n" for line in [INDEX_HEADER] + [e.to_line() for e in entries]),
                                    encoding="utf-8")
    return entries


def check(source: Path, store: Path) -> List[str]:
    """Differences between ``source`` and the index of ``store`` (empty: the store holds ``source``)."""
    indexed: Dict[str, IndexEntry] = {entry.path: entry for entry in read_index(store)}
    problems = []
    for relative, path in source_files(source):
        entry = indexed.pop(relative, None)
        if entry is None:
            problems.append(f"{relative}: not in the store")
        elif hashlib.sha256(content_of(path)).hexdigest() != entry.sha256:
            problems.append(f"{relative}: content differs from the store")
        else:
            missing = [part for part in entry.stored if not (store / part).is_file()]
            problems += [f"{relative}: stored part {part} is missing" for part in missing]
    problems += [f"{relative}: in the store but not in {source}" for relative in sorted(indexed)]
    return problems


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("pack", "check"):
        print(__doc__.split("\n\n>>>")[0], file=sys.stderr)
        return 2
    command, source, store = argv[0], Path(argv[1]), Path(argv[2])
    if not source.is_dir():
        print(f"{source}: not a directory", file=sys.stderr)
        return 2
    if command == "pack":
        entries = pack(source, store)
        stored = sum((store / part).stat().st_size for entry in entries for part in entry.stored)
        print(f"{len(entries)} files, {sum(e.size for e in entries):,} bytes of content, {stored:,} bytes stored")
        return 0
    problems = check(source, store)
    for problem in problems:
        print(problem)
    print("the store holds the source" if not problems else f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
