"""The ``coco`` BLEU preset and ``compat.pycocoevalcap.Bleu`` against pycocoevalcap 1.2 itself.

Captions of the real Flickr30k test set (MAGIC, 6 systems) are tokenized once per session with
pycocoevalcap's own PTBTokenizer (Stanford CoreNLP jar, Java), as its COCOEvalCap does.
"""

from __future__ import annotations

import json

import pytest
from conftest import java_missing_reason
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics.compat.pycocoevalcap import Bleu
from nlgmetrics.metrics.bleu.coco import coco_bleu, image_stats, scores_from_stats, totals

pycoco_bleu = pytest.importorskip("pycocoevalcap.bleu.bleu")
ReferenceBleu = pycoco_bleu.Bleu


@pytest.fixture(scope="session")
def flickr_tokenized(shared_data):
    """``(gts, {system: res})`` after PTB tokenization, for every image of every system."""
    if java_missing_reason():
        pytest.skip(f"pycocoevalcap's PTBTokenizer needs Java: {java_missing_reason()}")
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    folder = shared_data / "captioning" / "magic_flickr30k_test"
    annotations = json.loads((folder / "annotations.coco_format.json").read_text(encoding="utf-8"))
    systems = sorted(path.stem for path in (folder / "results").glob("*.json"))
    # One tokenizer run over everything: keys are ("gts", image) and (system, image).
    captions: dict = {}
    for annotation in annotations["annotations"]:
        captions.setdefault(("gts", annotation["image_id"]), []).append({"caption": annotation["caption"]})
    for system in systems:
        for result in json.loads((folder / "results" / f"{system}.json").read_text(encoding="utf-8")):
            captions.setdefault((system, result["image_id"]), []).append({"caption": result["caption"]})
    tokenized = PTBTokenizer().tokenize(captions)
    results = {
        system: {image: caps for (name, image), caps in tokenized.items() if name == system} for system in systems
    }
    gts_all = {image: caps for (name, image), caps in tokenized.items() if name == "gts"}
    expected = json.loads((folder / "expected_pycocoevalcap_1.2.json").read_text(encoding="utf-8"))["scores"]
    return gts_all, results, expected


def test_every_system_matches_pycocoevalcap_exactly(flickr_tokenized):
    gts_all, results, _ = flickr_tokenized
    assert len(results) == 6
    for system, res in results.items():
        gts = {image: gts_all[image] for image in res}
        expected_score, expected_scores = ReferenceBleu(4).compute_score(gts, res, verbose=0)
        score, scores = Bleu(4).compute_score(gts, res, verbose=0)
        assert score == expected_score, system
        assert scores == expected_scores, system  # every per-image score, every order, bit for bit
        assert len(scores[3]) == 1000


def test_expected_file_values(flickr_tokenized):
    gts_all, results, expected = flickr_tokenized
    for system, res in results.items():
        gts = {image: gts_all[image] for image in res}
        score, _ = Bleu(4).compute_score(gts, res, verbose=0)
        for order in range(4):
            assert abs(score[order] - expected[system][f"Bleu_{order + 1}"]) <= 1e-9, (system, order)


def test_totals_match_pycocoevalcap_verbose_output(flickr_tokenized, capsys):
    gts_all, results, _ = flickr_tokenized
    res = results["magic"]
    gts = {image: gts_all[image] for image in res}
    ReferenceBleu(4).compute_score(gts, res, verbose=1)
    expected_out = capsys.readouterr().out
    Bleu(4).compute_score(gts, res, verbose=1)
    assert capsys.readouterr().out == expected_out
    captions = [res[image][0] for image in res]
    summed = totals(image_stats(captions, [gts_all[image] for image in res]))
    assert str(summed) in expected_out


@pytest.mark.parametrize("option", ["closest", "shortest", "average"])
def test_reference_length_options_match_bleu_scorer(flickr_tokenized, option):
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer

    gts_all, results, _ = flickr_tokenized
    res = results["zerocap"]
    images = list(res)[:300]
    scorer = BleuScorer(n=4)
    for image in images:
        scorer += (res[image][0], gts_all[image])
    expected = scorer.compute_score(option=option)
    captions = [res[image][0] for image in images]
    ours = scores_from_stats(image_stats(captions, [gts_all[image] for image in images]), 4, option)
    assert ours == expected


def test_verbose_output_matches(capsys):
    gts = {"a": ["a man rides a horse", "a person on a horse"], "b": ["two dogs play in the snow"]}
    res = {"a": ["a man on a horse"], "b": ["a dog  in the\tsnow"]}
    expected = ReferenceBleu(4).compute_score(gts, res)
    expected_out = capsys.readouterr().out
    assert Bleu(4).compute_score(gts, res) == expected
    assert capsys.readouterr().out == expected_out
    assert Bleu().method() == "Bleu"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_lower_orders(n):
    gts = {1: ["a b c d e", "a b x"], 2: ["q r s"], 3: ["z"]}
    res = {1: ["a b c"], 2: ["q r s t u"], 3: [""]}
    assert Bleu(n).compute_score(gts, res, verbose=0) == ReferenceBleu(n).compute_score(gts, res, verbose=0)


def test_bad_input_fails_like_pycocoevalcap():
    with pytest.raises(AssertionError):
        Bleu().compute_score({1: ["a"]}, {2: ["a"]}, verbose=0)
    with pytest.raises(AssertionError):
        Bleu().compute_score({1: ["a"]}, {1: ["a", "b"]}, verbose=0)
    with pytest.raises(AssertionError):
        Bleu().compute_score({1: []}, {1: ["a"]}, verbose=0)
    with pytest.raises(AssertionError):
        Bleu().compute_score({1: "a"}, {1: ["a"]}, verbose=0)
    with pytest.raises(IndexError):
        Bleu(5).compute_score({1: ["a"]}, {1: ["a"]}, verbose=0)


def test_native_errors_are_clear():
    with pytest.raises(ValueError, match="ref_length"):
        coco_bleu(["a"], [["a"]], ref_length="longest")
    with pytest.raises(ValueError, match="max_order"):
        coco_bleu(["a"], [["a"]], n=5)
    with pytest.raises(ValueError, match=r"references\[1\] is empty"):
        coco_bleu(["a", "b"], [["a"], []])
    with pytest.raises(ValueError):
        coco_bleu(["a", "b"], [["a"]])
    with pytest.raises(TypeError):
        coco_bleu([1], [["a"]])


words = st.sampled_from(["a", "b", "c", "the", "dog", "\u00e9t\u00e9", "\u72d7"])
separators = st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", "\x1f", "\u2028"])
caption = st.lists(st.tuples(words, separators), max_size=12).map(lambda parts: "".join(w + s for w, s in parts))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(caption, st.lists(caption, min_size=1, max_size=4)), min_size=1, max_size=6))
def test_random_captions_match_pycocoevalcap(images):
    gts = {index: refs for index, (_, refs) in enumerate(images)}
    res = {index: [hyp] for index, (hyp, _) in enumerate(images)}
    assert Bleu(4).compute_score(gts, res, verbose=0) == ReferenceBleu(4).compute_score(gts, res, verbose=0)


@pytest.mark.parametrize("option", ["closest", "shortest", "average"])
def test_native_api_matches_bleu_scorer(flickr_tokenized, option):
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer

    import nlgmetrics

    gts_all, results, _ = flickr_tokenized
    res = results["magic"]
    scorer = BleuScorer(n=4)
    for image in res:
        scorer += (res[image][0], gts_all[image])
    expected, expected_per_image = scorer.compute_score(option=option)
    hyps = [res[image][0] for image in res]
    refs = [gts_all[image] for image in res]
    for order in range(1, 5):
        result = nlgmetrics.bleu(hyps, refs, preset="coco", max_order=order, ref_length=option)
        assert result.score == expected[order - 1]
        assert result.segment_scores.tolist() == expected_per_image[order - 1]
        assert result.signature.get("scale") == "0-1"


def test_native_api_errors():
    import nlgmetrics

    with pytest.raises(ValueError, match="tokenize"):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", tokenize="13a")
    with pytest.raises(ValueError, match="smooth"):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", smooth="exp")
    with pytest.raises(ValueError, match="weights"):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", weights=[1, 0, 0, 0])
    with pytest.raises(ValueError, match="max_order"):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", max_order=5)
    with pytest.raises(ValueError, match="ref_length"):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", ref_length="longest")
    with pytest.raises(TypeError):
        nlgmetrics.bleu(["a"], [["a"]], preset="coco", ref_length=3)
