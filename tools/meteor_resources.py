"""Convert the resources shipped inside meteor-1.5.jar into nlgmetrics' compact form.

Usage: python tools/meteor_resources.py [path/to/meteor-1.5.jar]
(default: the jar inside the installed pycocoevalcap). Writes python/nlgmetrics/data/meteor/:

- ``wordnet-english.synsets.gz``, ``wordnet-english.exceptions.gz``: the WordNet 3.0 derived synonym
  files, byte for byte, gzip-compressed (WordNet licence: ``COPYING.WORDNET``, copied alongside).
- ``function-words.json``: {language: [line, ...]} from ``function/<language>.words``.
- ``nonbreaking-prefixes.json``: {language: [line, ...]} from ``nonbreaking/<language>.prefixes``
  (raw lines: the Rust normalizer parses them as the jar does).

The paraphrase tables (LGPL) are not converted or shipped: they are read at run time from the
installed pycocoevalcap or a user-given path.
"""

from __future__ import annotations

import gzip
import json
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "python" / "nlgmetrics" / "data" / "meteor"


def default_jar() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pycocoevalcap is not installed: pass the path of meteor-1.5.jar")
    return Path(list(spec.submodule_search_locations)[0]) / "meteor" / "meteor-1.5.jar"


def lines_of(data: bytes) -> list[str]:
    # Java's BufferedReader.readLine: \n, \r or \r\n end a line; a final line without one still counts.
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else ([] if not text else lines)


def main(jar: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(jar) as archive:
        names = archive.namelist()
        for kind in ("synsets", "exceptions"):
            data = archive.read(f"synonym/english.{kind}")
            with gzip.GzipFile(OUT / f"wordnet-english.{kind}.gz", "wb", mtime=0, compresslevel=9) as handle:
                handle.write(data)
        (OUT / "COPYING.WORDNET").write_bytes(archive.read("synonym/COPYING.WORDNET"))
        function_words = {
            Path(name).stem: lines_of(archive.read(name))
            for name in sorted(names)
            if name.startswith("function/") and name.endswith(".words")
        }
        prefixes = {
            Path(name).stem: lines_of(archive.read(name))
            for name in sorted(names)
            if name.startswith("nonbreaking/") and name.endswith(".prefixes")
        }
    (OUT / "function-words.json").write_text(json.dumps(function_words, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    (OUT / "nonbreaking-prefixes.json").write_text(json.dumps(prefixes, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else default_jar())
