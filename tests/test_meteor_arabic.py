"""METEOR 1.5 Arabic (``ar-bw-red``: reduced Buckwalter transliteration, the jar's lookup-table
stemmer) against the real meteor-1.5.jar.

SYNTHETIC DATA: no Arabic MT output is available here, so the segments are generated (seeded) from
real Arabic word forms — the vocabulary of the jar's own stem table — by sampling reference
sentences and deriving hypotheses with same-stem substitutions, deletions, insertions and swaps.
The sentences are not real Arabic text; they exercise the exact and stem modules, chunking and the
scorer exactly as real text would.
"""

from __future__ import annotations

import gzip
import random
import zipfile

import numpy as np
import pytest
from _meteor_jar import jar_path, require_jar, run_jar

import nlgmetrics
from nlgmetrics import _core
from nlgmetrics.metrics.meteor import meteor15
from nlgmetrics.metrics.meteor import resources as _meteor_resources


@pytest.fixture(scope="module")
def jar_cache(request):
    require_jar()
    return request.config.cache.mkdir("meteor_jar") if request.config.cache else pytest.skip("no pytest cache")


@pytest.fixture(scope="module")
def synthetic_segments():
    """(hypotheses, references): SYNTHETIC, generated from the jar's Arabic stem-table vocabulary."""
    jar = jar_path()
    if jar is None:
        pytest.skip("pycocoevalcap's meteor-1.5.jar is not installed")
    with zipfile.ZipFile(jar) as archive:
        text = gzip.decompress(archive.read(_meteor_resources.ARABIC_STEMS_MEMBER)).decode("utf-8")
    forms_of_stem: dict = {}
    stem_of: dict = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].isalpha():
            forms_of_stem.setdefault(parts[2], []).append(parts[0])
            stem_of[parts[0]] = parts[2]
    rng = random.Random(20101)
    stems = sorted(stem for stem, forms in forms_of_stem.items() if len(forms) >= 3)
    random_word = lambda: rng.choice(forms_of_stem[rng.choice(stems)])  # noqa: E731
    hypotheses, references = [], []
    for _ in range(400):
        words = [random_word() for _ in range(rng.randint(3, 18))]
        hyp = []
        for word in words:
            roll = rng.random()
            if roll < 0.25:  # another form of the same stem: a stem match, not an exact one
                hyp.append(rng.choice(forms_of_stem[stem_of[word]]))
            elif roll < 0.35:  # dropped
                continue
            elif roll < 0.42:  # an extra word
                hyp.extend([word, random_word()])
            else:
                hyp.append(word)
        if len(hyp) > 3 and rng.random() < 0.3:
            k = rng.randrange(len(hyp) - 1)
            hyp[k], hyp[k + 1] = hyp[k + 1], hyp[k]
        hypotheses.append(" ".join(hyp))
        references.append(" ".join(words))
    hypotheses[0] = references[0]  # an identical pair (the jar's exact-only shortcut)
    hypotheses[1] = ""  # an empty hypothesis
    return hypotheses, references


@pytest.mark.parametrize("jar_args, options", [
    ([], {}),
    (["-lower"], {"lower": True}),
    (["-m", "exact"], {"modules": ["exact"]}),
])
def test_arabic_matches_the_jar_segment_by_segment(synthetic_segments, jar_cache, jar_args, options):
    hypotheses, references = synthetic_segments
    segments, final = run_jar(jar_cache, hypotheses, references, ["-l", "ar-bw-red", *jar_args])
    ours = nlgmetrics.meteor(hypotheses, references, language="ar-bw-red", norm=False, **options)
    assert ours.signature.get("task") == "li"
    expected = np.array(segments)
    assert len(ours.segment_scores) == len(expected) == 400
    differing = np.flatnonzero(np.abs(ours.segment_scores - expected) > 1e-9)
    assert differing.size == 0, f"{differing.size}/400 segments differ, first {differing[:5].tolist()}"
    assert abs(ours.score - final) <= 1e-9
    stem_matches = ours.statistics[:, 8].sum() + ours.statistics[:, 10].sum()
    assert stem_matches > 0 or options.get("modules") == ["exact"]


def test_arabic_stems_come_from_the_jar_table():
    require_jar()
    table = _meteor_resources.arabic_stem_table()
    assert len(table) > 500_000
    stems = _core.meteor_stem("ar-bw-red", ["ktAb", "AlktAb", "zzzunknownzzz"], table)
    assert stems[0] == stems[1] and stems[2] == "zzzunknownzzz"


def test_arabic_needs_norm_false_and_the_table(monkeypatch):
    with pytest.raises(ValueError, match="normalizer"):
        nlgmetrics.meteor(["ktAb"], ["ktAb"], language="ar-bw-red")
    monkeypatch.setattr(_meteor_resources, "find_jar", lambda: None)
    _meteor_resources.arabic_stem_table.cache_clear()
    meteor15._SCORERS.clear()
    try:
        with pytest.raises(ValueError, match="meteor-1.5.jar"):
            nlgmetrics.meteor(["ktAb"], ["ktAb"], language="ar-bw-red", norm=False)
        # Exact matching alone needs no table.
        assert nlgmetrics.meteor(["ktAb"], ["ktAb"], language="ar-bw-red", norm=False, modules=["exact"]).score > 0
    finally:
        _meteor_resources.arabic_stem_table.cache_clear()
        meteor15._SCORERS.clear()
