"""Run the real meteor-1.5.jar (from the installed pycocoevalcap) as an oracle, with an on-disk cache.

The jar needs Java and ~10 s to start with its paraphrase table, so each distinct run is cached
under pytest's cache directory keyed by the inputs and arguments.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import pytest
from conftest import java_missing_reason


def jar_path() -> Optional[Path]:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        jar = Path(location) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    return None


def require_jar() -> Path:
    jar = jar_path()
    if jar is None:
        pytest.skip("pycocoevalcap's meteor-1.5.jar is not installed")
    reason = java_missing_reason()
    if reason:
        pytest.skip(f"meteor-1.5.jar needs Java: {reason}")
    return jar


def _cache_file(cache_dir: Path, payload: dict) -> Path:
    key = hashlib.sha1(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]
    return cache_dir / f"meteor-jar-{key}.json"


def run_jar(
    cache_dir: Path, hypotheses: Sequence[str], reference_lines: Sequence[str], args: Sequence[str]
) -> Tuple[List[float], float]:
    """Segment scores and the final score of ``java -jar meteor-1.5.jar HYP REF ARGS``."""
    jar = require_jar()
    payload = {"hyp": list(hypotheses), "ref": list(reference_lines), "args": list(args)}
    cached = _cache_file(cache_dir, payload)
    if cached.is_file():
        data = json.loads(cached.read_text())
        return data["segments"], data["final"]
    with tempfile.TemporaryDirectory() as tmp:
        hyp_file, ref_file = Path(tmp) / "hyp", Path(tmp) / "ref"
        hyp_file.write_text("".join(line + "\n" for line in hypotheses), encoding="utf-8")
        ref_file.write_text("".join(line + "\n" for line in reference_lines), encoding="utf-8")
        completed = subprocess.run(
            ["java", "-Xmx2G", "-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-jar", str(jar), str(hyp_file), str(ref_file), *args],
            capture_output=True,
            check=True,
            cwd=jar.parent,
        )
    output = completed.stdout.decode("utf-8")
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\t(\S+)$", output, flags=re.M)]
    final = float(re.search(r"^Final score:\s+(\S+)$", output, flags=re.M).group(1))
    cache_dir.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"segments": segments, "final": final}))
    return segments, final


def run_jar_normalizer(cache_dir: Path, lines: Sequence[str], language: str, keep_punctuation: bool) -> List[str]:
    """The jar's own ``Normalizer`` main (no lowercasing) over lines."""
    jar = require_jar()
    payload = {"normalize": list(lines), "lang": language, "punct": keep_punctuation}
    cached = _cache_file(cache_dir, payload)
    if cached.is_file():
        return json.loads(cached.read_text())
    completed = subprocess.run(
        ["java", "-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-cp", str(jar), "edu.cmu.meteor.util.Normalizer", language, str(keep_punctuation).lower()],
        input="".join(line + "\n" for line in lines).encode("utf-8"),
        capture_output=True,
        check=True,
    )
    output = completed.stdout.decode("utf-8").split("\n")[:-1]
    cache_dir.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(output))
    return output
