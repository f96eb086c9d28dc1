"""METEOR resources: shipped function words, nonbreaking prefixes and WordNet synonyms, and the
paraphrase tables found at run time (never downloaded, never bundled: they are LGPL).

Each resource is loaded once per process and shared by every scorer.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import warnings
from pathlib import Path
from typing import Optional

from . import _core

DATA = Path(__file__).resolve().parent / "data" / "meteor"
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
    return _core.MeteorSynonyms.load(str(synsets), str(exceptions))


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


def find_paraphrase_table(short_name: str, path: Optional[os.PathLike] = None) -> Optional[Path]:
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


@functools.lru_cache(maxsize=None)
def _load_paraphrases(path: str, size: int, mtime_ns: int) -> "_core.MeteorParaphrases":
    key = hashlib.sha1(f"{path}|{size}|{mtime_ns}".encode()).hexdigest()[:16]
    cache: Optional[Path] = _cache_dir() / f"{Path(path).name}.{key}.bin"
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        cache = None
    return _core.MeteorParaphrases.load(path, None if cache is None else str(cache))


def paraphrases(table: Path) -> "_core.MeteorParaphrases":
    """Load a paraphrase table once per process (a binary cache in the user cache dir makes later
    processes fast: ``$NLGMETRICS_CACHE_DIR`` or ``~/.cache/nlgmetrics``)."""
    stat = table.stat()
    return _load_paraphrases(str(table.resolve()), stat.st_size, stat.st_mtime_ns)


def warn_missing_paraphrases(short_name: str) -> None:
    warnings.warn(
        f"METEOR paraphrase table paraphrase-{short_name}.gz not found, so the paraphrase module is "
        "dropped and scores are LOWER than the official METEOR 1.5 numbers. Install pycocoevalcap "
        "(`pip install pycocoevalcap`, which ships paraphrase-en.gz), or pass paraphrase_path=... or set "
        f"{PARAPHRASE_ENV} to the file (from cmu-mtlab/meteor's data/ directory).",
        RuntimeWarning,
        stacklevel=4,
    )
