"""METEOR 1.5: parity with the jar's recorded outputs on real data, the API, and error paths."""

from __future__ import annotations

import importlib
import re
import warnings

import numpy as np
import pytest
from conftest import read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics.metrics.meteor import resources as _meteor_resources

meteor_module = importlib.import_module("nlgmetrics.metrics.meteor.meteor15")
HAS_PARAPHRASES = _meteor_resources.find_paraphrase_table("en") is not None
needs_paraphrases = pytest.mark.skipif(not HAS_PARAPHRASES, reason="paraphrase-en.gz not found (install pycocoevalcap)")


def expected_jar_output(path):
    text = path.read_text(encoding="utf-8")
    segments = [float(x) for x in re.findall(r"^Segment \d+ score:\t(\S+)$", text, flags=re.M)]
    final = float(re.search(r"^Final score:\s+(\S+)$", text, flags=re.M).group(1))
    return np.array(segments), final


@needs_paraphrases
@pytest.mark.parametrize("system", ["system1", "system2"])
def test_xray_parity_with_jar_outputs(shared_data, system):
    folder = shared_data / "mt" / "meteor_examples" / "xray"
    hypotheses = read_lines(folder / f"{system}.hyp")
    references = read_lines(folder / "reference")
    expected_segments, expected_final = expected_jar_output(folder / f"expected.meteor-1.5.{system}.l-en-norm.txt")
    result = nlgmetrics.meteor(hypotheses, references)
    assert len(result.segment_scores) == len(expected_segments) == 2489
    differing = np.flatnonzero(np.abs(result.segment_scores - expected_segments) > 1e-9)
    assert differing.size == 0, f"{differing.size} segments differ, first {differing[:5]}"
    assert abs(result.score - expected_final) <= 1e-9
    assert result.statistics.shape == (2489, 23)


@needs_paraphrases
def test_xray_system_statistics_match_the_jar_table(shared_data):
    # The jar prints summed per-stage matches; system1: exact 37110, stem 511, synonym 939, paraphrase 6975 (test side).
    folder = shared_data / "mt" / "meteor_examples" / "xray"
    text = (folder / "expected.meteor-1.5.system1.l-en-norm.txt").read_text()
    rows = re.findall(r"^([1-4])\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", text, flags=re.M)
    result = nlgmetrics.meteor(read_lines(folder / "system1.hyp"), read_lines(folder / "reference"))
    total = result.statistics.sum(axis=0)
    for stage, tc, tf, _tt, rc, rf, _rt in rows:
        base = 4 + 4 * (int(stage) - 1)
        assert [total[base], total[base + 2], total[base + 1], total[base + 3]] == [int(tc), int(tf), int(rc), int(rf)]
    words = re.search(r"Test words:\s+(\d+)", text).group(1)
    chunks = re.search(r"Chunks:\s+(\d+)", text).group(1)
    assert total[0] == int(words)
    summed, _parts = result._scorer.corpus(result.statistics)  # perfect segments' chunks are skipped
    assert summed[20] == int(chunks)


def test_signature_and_result_shapes():
    result = nlgmetrics.meteor(["the cats sat"], [["a dog", "the cat sat down"]], modules=["exact", "stem"])
    signature = str(result.signature)
    for part in ("METEOR", "lang:en", "task:rank", "modules:exact+stem", "params:0.85,0.2,0.6,0.75", "weights:1.0,0.6", "nrefs:2"):
        assert part in signature
    assert result.best_reference.tolist() == [1]
    details = result.segment_details()
    assert details.shape == (1, 6) and details[0, 5] == result.segment_scores[0]
    alignment = result.alignment(0)
    assert alignment.reference_index == 1
    assert ("stem" in {m[4] for m in alignment.matches})
    assert "==" in str(alignment)
    assert set(result.to_dict()) >= {"score", "segment_scores", "signature"}
    with pytest.raises(IndexError):
        result.alignment(5)


def test_corpus_score_is_from_summed_statistics_not_the_mean():
    hyps = ["the cat sat on the mat", "a completely different sentence here", "dogs"]
    refs = ["the cat sat on the mat", "nothing in common", "the dogs barked"]
    result = nlgmetrics.meteor(hyps, refs, modules=["exact", "stem"])
    assert result.score != pytest.approx(float(np.mean(result.segment_scores)))
    merged = meteor_module.corpus_score_from_statistics(result.statistics, modules=["exact", "stem"])
    assert merged == result.score


def test_corpus_score_from_statistics_takes_the_presets_defaults():
    hyps = ["the cats sat on a mat today", "completely unrelated words"]
    refs = ["on the mat the cat sat", "the cat sat"]
    textbook = nlgmetrics.meteor(hyps, refs, preset="textbook")
    assert meteor_module.corpus_score_from_statistics(textbook.statistics, preset="textbook") == textbook.score
    assert meteor_module.corpus_score_from_statistics(textbook.statistics) != textbook.score
    with pytest.raises(ValueError, match="preset 'nltk' does not score with the jar's alignment"):
        meteor_module.corpus_score_from_statistics(textbook.statistics, preset="nltk")
    with pytest.raises(ValueError, match="unknown METEOR preset 'bogus': expected one of meteor15, textbook, nltk"):
        meteor_module.corpus_score_from_statistics(textbook.statistics, preset="bogus")


def test_overrides_change_the_score_and_signature():
    base = nlgmetrics.meteor(["a b c d"], ["a c b d e"], modules=["exact"])
    tuned = nlgmetrics.meteor(["a b c d"], ["a c b d e"], modules=["exact"], alpha=0.5, beta=3.0, gamma=0.5, delta=1.0)
    assert base.score != tuned.score
    assert "params:0.5,3.0,0.5,1.0" in str(tuned.signature)


def test_textbook_form_follows_its_formula():
    hyps = ["the cats sat on a mat today", "completely unrelated words"]
    refs = ["on the mat the cat sat", "the cat sat"]
    result = nlgmetrics.meteor(hyps, refs, preset="textbook", alpha=0.8, beta=2.0, gamma=0.4)
    assert result.signature.get("preset") == "textbook"
    assert result.signature.get("modules") == "exact+stem+synonym"
    assert result.signature.get("params") == "0.8,2.0,0.4"
    totals = result.statistics.sum(axis=0)
    for row, score in ((result.statistics[0], result.segment_scores[0]), (totals, result.score)):
        test_matches = sum(row[4 + 4 * i] + row[6 + 4 * i] for i in range(3))
        ref_matches = sum(row[5 + 4 * i] + row[7 + 4 * i] for i in range(3))
        precision, recall = test_matches / row[0], ref_matches / row[1]
        fmean = precision * recall / (0.8 * precision + 0.2 * recall)
        penalty = 0.4 * (row[20] / ((row[21] + row[22]) / 2)) ** 2.0
        assert score == pytest.approx(max(fmean * (1 - penalty), 0.0), rel=1e-12)
    perfect = nlgmetrics.meteor(["a b c"], ["a b c"], preset="textbook")
    assert perfect.score == pytest.approx(1 - 0.5 * (1 / 3) ** 3, rel=1e-12)


def test_missing_paraphrase_table_warns_and_drops_the_module(monkeypatch):
    monkeypatch.setattr(_meteor_resources, "find_paraphrase_table", lambda short, path=None: None)
    monkeypatch.setattr(_meteor_resources, "_WARNED_PARAPHRASES", set())
    with pytest.warns(RuntimeWarning, match="paraphrase"):
        result = nlgmetrics.meteor(["a cat"], ["the cat"])
    assert result.signature.get("modules") == "exact+stem+synonym"


def test_the_paraphrase_warning_appears_once_without_source_lines_with_advice_for_the_language(tmp_path):
    """A fresh interpreter with no paraphrase table anywhere: one warning per language, no Python source line,
    pycocoevalcap advised for English only (it ships no other language's table)."""
    import subprocess
    import sys

    script = ("import nlgmetrics.metrics.meteor.resources as r\n"
              "r.find_paraphrase_table = lambda short, path=None: None\n"
              "import nlgmetrics\n"
              "for _ in range(3):\n"
              "    nlgmetrics.meteor(['a cat'], ['the cat'])\n"
              "    nlgmetrics.meteor(['eine Katze'], ['die Katze'], language='de')\n")
    err = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stderr
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 2, err  # once per language, one line each: no source line under the message
    english, german = lines
    assert "paraphrase-en.gz" in english and "pip install pycocoevalcap" in english
    assert "paraphrase-de.gz" in german and "cmu-mtlab/meteor" in german and "pip install" not in german


def test_explicit_paraphrase_path_must_exist(tmp_path):
    with pytest.raises(FileNotFoundError):
        nlgmetrics.meteor(["a"], ["a"], paraphrase_path=str(tmp_path / "missing.gz"))


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"language": "klingon"}, ValueError, "unknown METEOR language"),
        ({"task": "fluency"}, ValueError, "unknown METEOR task"),
        ({"modules": ["exact", "lemma"]}, ValueError, "unknown METEOR module"),
        ({"modules": []}, ValueError, "at least one module"),
        ({"modules": ["exact", "exact"]}, ValueError, "listed twice"),
        ({"modules": ["exact"], "weights": [1.0, 0.5]}, ValueError, "weights has 2 values"),
        ({"modules": ["exact"], "weights": ["x"]}, TypeError, "weights\\[0\\]"),
        ({"alpha": 1.5}, ValueError, "alpha"),
        ({"beta": -1}, ValueError, "beta"),
        ({"gamma": float("nan")}, ValueError, "gamma"),
        ({"delta": "0.5"}, TypeError, "delta"),
        ({"preset": "bleu"}, ValueError, "unknown METEOR preset"),
        ({"language": "da"}, ValueError, "no normalizer"),
        ({"language": "cz", "modules": ["stem"]}, ValueError, "no METEOR stemmer"),
        ({"language": "de", "modules": ["synonym"]}, ValueError, "synonym data for English only"),
        ({"norm": False, "no_punct": True}, ValueError, "no_punct"),
        ({"norm": True, "lower": False}, ValueError, "lowercases"),
        ({"norm": "yes"}, TypeError, "norm"),
        ({"beam_size": 0}, ValueError, "beam_size"),
    ],
)
def test_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        nlgmetrics.meteor(["a b"], ["a b"], **kwargs)


def test_bad_inputs():
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        nlgmetrics.meteor(["a", "b"], ["a"], modules=["exact"])
    with pytest.raises(TypeError, match="hypotheses\\[1\\]"):
        nlgmetrics.meteor(["a", 3], ["a", "b"], modules=["exact"])
    with pytest.raises(ValueError, match="references\\[0\\] is empty"):
        nlgmetrics.meteor(["a"], [[]], modules=["exact"])
    with pytest.raises(ValueError, match="shape"):
        meteor_module.corpus_score_from_statistics(np.zeros((2, 5)), modules=["exact"])


def test_other_language_defaults_without_normalizer():
    result = nlgmetrics.meteor(["Die Katzen saßen"], ["die Katze saß"], language="da", norm=False, lower=True)
    assert result.signature.get("task") == "li"
    assert result.signature.get("modules") == "exact+stem"
    assert 0.0 < result.score < 1.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=4), st.text(max_size=40))
def test_any_unicode_is_scored_deterministically(references, hypothesis):
    first = nlgmetrics.meteor([hypothesis], [references], modules=["exact", "stem", "synonym"])
    again = nlgmetrics.meteor([hypothesis], [references], modules=["exact", "stem", "synonym"])
    assert 0.0 <= first.score <= 1.0
    assert np.array_equal(first.statistics, again.statistics)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=60))
def test_identical_text_scores_one(text):
    result = nlgmetrics.meteor([text], [text], modules=["exact", "stem"])
    if result.statistics[0, 0] > 0:
        assert result.score == 1.0
    else:
        assert result.score == 0.0


def test_empty_and_whitespace_segments():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = nlgmetrics.meteor(["", "   ", "a"], ["a", "", "\t"], modules=["exact"])
    assert result.segment_scores.tolist() == [0.0, 0.0, 0.0]
    assert result.score == 0.0
    empty = nlgmetrics.meteor([], [], modules=["exact"])
    assert empty.score == 0.0 and empty.statistics.shape == (0, 23)


def test_cli_hooks_map_options_to_the_api():
    import argparse

    from nlgmetrics.metrics.meteor.metric import METEOR

    def cli_score(hypotheses, references, args):
        return METEOR(**METEOR.options_from_cli(args))(hypotheses, references)

    parser = argparse.ArgumentParser()
    METEOR.add_cli_arguments(parser)
    args = parser.parse_args(["-l", "en", "-m", "exact", "stem", "-p", "0.5", "1.0", "0.5", "0.5", "--weights", "1", "0.5"])
    result = cli_score(["the cats sat"], [["the cat sat"]], args)
    direct = nlgmetrics.meteor(["the cats sat"], [["the cat sat"]], modules=["exact", "stem"], alpha=0.5, beta=1.0, gamma=0.5, delta=0.5, weights=[1, 0.5])
    assert result.score == direct.score and str(result.signature) == str(direct.signature)
    lower = cli_score(["A B"], [["a b"]], parser.parse_args(["--no-norm", "--lower", "-m", "exact"]))
    assert lower.signature.get("norm") == "lower" and lower.score == 1.0


def test_paraphrase_table_from_environment(monkeypatch, tmp_path):
    table = tmp_path / "paraphrase-en.gz"
    table.write_bytes(b"")
    monkeypatch.setenv(_meteor_resources.PARAPHRASE_ENV, str(tmp_path))
    assert _meteor_resources.find_paraphrase_table("en") == table
    monkeypatch.setenv(_meteor_resources.PARAPHRASE_ENV, str(table))
    assert _meteor_resources.find_paraphrase_table("en") == table


def test_tiny_paraphrase_table_is_loaded_and_cached(monkeypatch, tmp_path):
    import gzip

    table = tmp_path / "paraphrase-en.gz"
    with gzip.open(table, "wt", encoding="utf-8") as handle:
        handle.write("0.5\nbig house\nmansion\n0.2\nautomobile\ncar\n")
    monkeypatch.setenv(_meteor_resources.CACHE_ENV, str(tmp_path / "cache"))
    result = nlgmetrics.meteor(["a mansion"], ["a big house"], modules=["exact", "paraphrase"], paraphrase_path=str(table))
    assert result.alignment(0).matches[-1] == (1, 1, 1, 2, "paraphrase")
    assert list((tmp_path / "cache" / "meteor").glob("*.bin"))
    again = _meteor_resources._core.MeteorParaphrases.load(str(table), str(next((tmp_path / "cache" / "meteor").glob("*.bin"))))
    assert len(again) == 2
