"""The METEOR binary caches (issue 13): a header with format version and checksum over the tables;
a corrupted, truncated, foreign or old-format cache is rebuilt with a RuntimeWarning (never a
PanicException), the rebuilt resource scores exactly as a freshly parsed one, writes are atomic
(two builders at once both succeed), and older-format files are removed.

Data: the WordNet synonyms shipped with the package and pycocoevalcap's paraphrase-en.gz (the
jar's), scored on the real METEOR xray examples.
"""

from __future__ import annotations

import shutil
import threading
import warnings
from pathlib import Path

import pytest
from conftest import read_lines

from nlgmetrics import _core
from nlgmetrics.metrics.meteor import resources

SYNSETS = resources.DATA / "wordnet-english.synsets.gz"
EXCEPTIONS = resources.DATA / "wordnet-english.exceptions.gz"


@pytest.fixture(scope="module")
def segments(shared_data):
    folder = shared_data / "mt" / "meteor_examples" / "xray"
    return read_lines(folder / "system1.hyp")[:300], [[r] for r in read_lines(folder / "reference")[:300]]


def scores(segments, synonyms=None, paraphrases=None) -> list[float]:
    """Per-segment METEOR (English, rank) with the given resources."""
    modules = ["exact", "synonym"] if paraphrases is None else ["exact", "paraphrase"]
    options = {"language": "en", "modules": modules, "weights": [1.0, 0.8], "parameters": [0.85, 0.2, 0.6, 0.75],
               "normalization": "norm", "char_based": False, "beam_size": 40,
               "max_candidates": _core.METEOR_MAX_CANDIDATES, "formula": "meteor15"}
    scorer = _core.MeteorScorer(options, function_words=resources.function_words("english"),
                                nonbreaking_prefixes=resources.nonbreaking_prefixes("english"), synonyms=synonyms,
                                paraphrases=paraphrases)
    return list(scorer.score_corpus(*segments)[0])


def load_synonyms(cache: Path):
    return _core.MeteorSynonyms.load(str(SYNSETS), str(EXCEPTIONS), str(cache))


def damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "tables":
        # Bytes well inside the tables, past the header: only the checksum can tell.
        for at in range(len(data) // 2, len(data) // 2 + 64):
            data[at] ^= 0x5A
    elif how == "truncated":
        del data[len(data) * 2 // 3:]
    elif how == "foreign":
        data = bytearray(b"not a METEOR cache at all" * 100)
    elif how == "old-version":
        data[12:16] = b"SY01"
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def fresh_synonym_scores(segments):
    return scores(segments, synonyms=_core.MeteorSynonyms.load(str(SYNSETS), str(EXCEPTIONS), None))


def test_cache_round_trip_is_silent_and_exact(tmp_path, segments, fresh_synonym_scores):
    cache = tmp_path / "synonyms.bin"
    load_synonyms(cache)
    assert cache.is_file()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert scores(segments, synonyms=load_synonyms(cache)) == fresh_synonym_scores


@pytest.mark.parametrize("how", ["tables", "truncated", "foreign", "old-version"])
def test_damaged_synonym_cache_is_rebuilt_with_a_warning(tmp_path, segments, fresh_synonym_scores, how):
    cache = tmp_path / "synonyms.bin"
    load_synonyms(cache)
    damage(cache, how)
    with pytest.warns(RuntimeWarning, match="METEOR synonym cache .*rebuilt"):
        rebuilt = load_synonyms(cache)
    assert scores(segments, synonyms=rebuilt) == fresh_synonym_scores
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rewritten cache is valid again
        assert scores(segments, synonyms=load_synonyms(cache)) == fresh_synonym_scores


def test_corrupted_paraphrase_tables_are_rebuilt(tmp_path, segments):
    meteor_dir = resources._pycocoevalcap_meteor_dir()
    table = meteor_dir / "data" / "paraphrase-en.gz" if meteor_dir else None
    if table is None or not table.is_file():
        pytest.skip("pycocoevalcap's paraphrase-en.gz is not installed")
    cache = tmp_path / "paraphrases.bin"
    fresh = scores(segments, paraphrases=_core.MeteorParaphrases.load(str(table), str(cache)))
    damage(cache, "tables")
    with pytest.warns(RuntimeWarning, match="METEOR paraphrase cache .*rebuilt"):
        rebuilt = _core.MeteorParaphrases.load(str(table), str(cache))
    assert scores(segments, paraphrases=rebuilt) == fresh


def test_two_builders_at_once_both_succeed(tmp_path, segments, fresh_synonym_scores):
    cache = tmp_path / "synonyms.bin"
    results, errors = [], []

    def build():
        try:
            results.append(scores(segments, synonyms=load_synonyms(cache)))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=build) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors and results == [fresh_synonym_scores] * 4
    assert [p.name for p in tmp_path.iterdir()] == ["synonyms.bin"]  # no temporary file left
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_synonyms(cache)


def test_old_format_files_are_removed(tmp_path, monkeypatch):
    monkeypatch.setenv(resources.CACHE_ENV, str(tmp_path))
    source = tmp_path / "wordnet-english.synsets.gz"
    shutil.copy(SYNSETS, source)
    current = Path(resources._cache_path(source, "sy02"))
    old = current.with_name(current.name.replace(".sy02.", ".sy01."))
    old.write_bytes(b"an old layout")
    other_source = current.with_name("paraphrase-en.gz.0123456789abcdef.pt04.bin")
    other_source.write_bytes(b"another resource's cache")
    assert Path(resources._cache_path(source, "sy02")) == current
    assert not old.exists() and other_source.exists()
