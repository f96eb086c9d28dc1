"""METEOR parity against the real meteor-1.5.jar run in the tests (Java), on real data.

Jar runs are cached on disk (pytest cache), so only a first run pays the JVM start-up. Segments are
sampled evenly across every system of a language pair to keep the suite fast.
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from _meteor_jar import require_jar, run_jar, run_jar_normalizer
from conftest import read_lines

import nlgmetrics
from nlgmetrics import _core
from nlgmetrics.compat.pycocoevalcap import Meteor as FacadeMeteor
from nlgmetrics.metrics.meteor import resources as _meteor_resources

meteor_module = importlib.import_module("nlgmetrics.metrics.meteor.meteor15")
HAS_PARAPHRASES = _meteor_resources.find_paraphrase_table("en") is not None
needs_paraphrases = pytest.mark.skipif(not HAS_PARAPHRASES, reason="paraphrase-en.gz not found (install pycocoevalcap)")


@pytest.fixture(scope="session")
def jar_cache(request):
    require_jar()
    return request.config.cache.mkdir("meteor_jar") if request.config.cache else pytest.skip("no pytest cache")


def wmt22_sample(shared_data, pair, target, step):
    """(hypotheses, refs A, refs B, system of each segment): every `step`-th segment of every system."""
    folder = shared_data / "mt" / "wmt22" / pair
    ref_a = read_lines(folder / f"generaltest2022.{pair}.ref.A.{target}")
    ref_b = read_lines(folder / f"generaltest2022.{pair}.ref.B.{target}")
    hyps, refs_a, refs_b, systems = [], [], [], []
    for path in sorted(folder.glob(f"generaltest2022.{pair}.hyp.*.{target}")):
        lines = read_lines(path)
        assert len(lines) == len(ref_a)
        for i in range(0, len(lines), step):
            hyps.append(lines[i])
            refs_a.append(ref_a[i])
            refs_b.append(ref_b[i])
            systems.append(path.name)
    assert len(set(systems)) >= 9
    return hyps, refs_a, refs_b, systems


def assert_same(ours, segments, final, label):
    expected = np.array(segments)
    assert len(ours.segment_scores) == len(expected), label
    differing = np.flatnonzero(np.abs(ours.segment_scores - expected) > 1e-9)
    assert differing.size == 0, f"{label}: {differing.size}/{len(expected)} segments differ, first {differing[:5].tolist()}"
    assert abs(ours.score - final) <= 1e-9, label


def test_english_two_references(shared_data, jar_cache):
    # Multiple references (-r 2). Paraphrases with many references are covered by the captioning
    # test (5 references, all four modules); here the jar skips its slow paraphrase load.
    hyps = []
    refs = []
    for pair, step in (("de-en", 31), ("zh-en", 37)):
        h, a, b, _ = wmt22_sample(shared_data, pair, "en", step)
        hyps += h
        refs += list(zip(a, b))
    interleaved = [line for pair_refs in refs for line in pair_refs]
    modules = ["exact", "stem", "synonym"]
    segments, final = run_jar(jar_cache, hyps, interleaved, ["-l", "en", "-norm", "-r", "2", "-m", " ".join(modules)])
    ours = nlgmetrics.meteor(hyps, [list(r) for r in refs], modules=modules)
    assert_same(ours, segments, final, "en -norm -r 2")


@pytest.mark.parametrize(
    "jar_args, options",
    [
        (["-norm", "-noPunct"], {"norm": True, "no_punct": True}),
        (["-lower"], {"norm": False, "lower": True}),
        ([], {"norm": False}),
        (["-norm", "-t", "adq"], {"task": "adq"}),
        (["-norm", "-t", "util"], {"task": "util"}),
        (["-norm", "-t", "li"], {"task": "li"}),
        (["-norm", "-ch"], {"char_based": True}),
        (["-norm", "-p", "0.5 3.0 0.5 0.9", "-w", "1.0 0.9 0.7"], {"alpha": 0.5, "beta": 3.0, "gamma": 0.5, "delta": 0.9, "weights": [1.0, 0.9, 0.7]}),
    ],
)
def test_english_options_without_paraphrases(shared_data, jar_cache, jar_args, options):
    hyps, refs_a, _refs_b, _ = wmt22_sample(shared_data, "zh-en", "en", 53)
    modules = ["exact", "stem", "synonym"]
    segments, final = run_jar(jar_cache, hyps, refs_a, ["-l", "en", "-m", " ".join(modules), *jar_args])
    ours = nlgmetrics.meteor(hyps, refs_a, modules=modules, **options)
    assert_same(ours, segments, final, " ".join(jar_args))


def test_german_exact_stem(shared_data, jar_cache):
    # pycocoevalcap ships only the English paraphrase table, so the jar runs -l de without it.
    hyps, refs_a, _refs_b, _ = wmt22_sample(shared_data, "en-de", "de", 23)
    segments, final = run_jar(jar_cache, hyps, refs_a, ["-l", "de", "-norm", "-m", "exact stem"])
    ours = nlgmetrics.meteor(hyps, refs_a, language="de", modules=["exact", "stem"])
    assert_same(ours, segments, final, "-l de -norm")


@pytest.mark.parametrize("language", ["fr", "cz"])
def test_other_western_languages_on_wmt17_german(shared_data, jar_cache, language):
    # No French/Spanish/Russian/Czech outputs here: score German text with those languages' rules
    # (normalizer, parameters, Snowball stemmer where the jar has one) to compare the code paths.
    folder = shared_data / "mt" / "wmt17_en_de_sacrebleu_testset"
    refs = read_lines(folder / "newstest2017.en-de.ref.de")[::97]
    hyps = []
    for path in sorted(folder.glob("newstest2017.*.en-de.hyp.de"))[:4]:
        hyps.append(read_lines(path)[::97])
    hyps = [line for system in hyps for line in system]
    refs = refs * 4
    modules = ["exact"] if language == "cz" else ["exact", "stem"]
    segments, final = run_jar(jar_cache, hyps, refs, ["-l", language, "-norm", "-m", " ".join(modules)])
    ours = nlgmetrics.meteor(hyps, refs, language=language, modules=modules)
    assert_same(ours, segments, final, f"-l {language}")


@pytest.mark.parametrize(
    "language, folder, suffix, keep_punctuation",
    [("en", "de-en", "en", True), ("en", "zh-en", "en", False), ("de", "en-de", "de", True), ("fr", "en-de", "de", False)],
)
def test_normalizer_matches_the_jar(shared_data, jar_cache, language, folder, suffix, keep_punctuation):
    lines = []
    for path in sorted((shared_data / "mt" / "wmt22" / folder).glob(f"*.{suffix}")):
        lines += read_lines(path)[::5]
    expected = run_jar_normalizer(jar_cache, lines, language, keep_punctuation)
    options = {"language": language, "modules": ["exact"], "no_punct": not keep_punctuation}
    scorer = meteor_module.scorer_for(meteor_module.resolve_config(**options))
    differing = [i for i, line in enumerate(lines) if scorer.tokenize(line) != expected[i].lower().split(" ") * bool(expected[i])]
    assert not differing, f"{len(differing)}/{len(lines)} lines differ, e.g. {lines[differing[0]]!r}"


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "ru", "it"])
def test_stemmers_match_the_jar_on_real_vocabulary(shared_data, jar_cache, language):
    # Real words from English and German system outputs; the other languages' Snowball stemmers are
    # checked on the same vocabulary (their rules still fire on it). Known differences of the
    # rust-stemmers versions from the jar's 2010 Snowball, not covered here: Finnish "-iden",
    # Dutch/Danish R1 after multi-byte letters, Danish/Finnish undoubling of repeated emoji.
    english, german = set(), set()
    for path in (shared_data / "mt" / "meteor_examples" / "xray").glob("*.hyp"):
        english.update(" ".join(read_lines(path)).lower().split())
    for path in sorted((shared_data / "mt" / "wmt22" / "en-de").glob("*.de"))[:4]:
        german.update(" ".join(read_lines(path)).lower().split())
    words = sorted(english if language == "en" else german if language == "de" else english | german)
    words = [w for w in words if not any(c.isdigit() or c in ",.-" for c in w)][::2][:6000]
    # The jar's Stemmer main stems each whitespace token; one word per line keeps the mapping.
    expected = run_jar_stemmer(jar_cache, words, language)
    assert _core.meteor_stem(language, words) == expected


def run_jar_stemmer(cache_dir, words, language):
    import hashlib
    import subprocess

    jar = require_jar()
    key = hashlib.sha1(json.dumps([words, language]).encode()).hexdigest()[:20]
    cached = cache_dir / f"meteor-stem-{key}.json"
    if cached.is_file():
        return json.loads(cached.read_text())
    completed = subprocess.run(
        ["java", "-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-cp", str(jar), "Stemmer", language],
        input="".join(w + "\n" for w in words).encode("utf-8"),
        capture_output=True,
        check=True,
    )
    output = completed.stdout.decode("utf-8").split("\n")[:-1]
    cached.write_text(json.dumps(output))
    return output


@pytest.fixture(scope="session")
def ptb_tokenized_captions(shared_data, request):
    """Every reference and system caption through pycocoevalcap's PTBTokenizer (Java), once, cached."""
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    require_jar()
    folder = shared_data / "captioning" / "magic_flickr30k_test"
    cache = request.config.cache
    cached = cache.get("meteor/ptb_captions_v1", None) if cache else None
    if cached is not None:
        return cached
    annotations = json.loads((folder / "annotations.coco_format.json").read_text())
    captions = {}
    for annotation in annotations["annotations"]:
        captions.setdefault(f"ref/{annotation['image_id']}", []).append({"caption": annotation["caption"]})
    systems = {}
    for path in sorted((folder / "results").glob("*.json")):
        results = json.loads(path.read_text())
        systems[path.stem] = [str(r["image_id"]) for r in results]
        for r in results:
            captions.setdefault(f"{path.stem}/{r['image_id']}", []).append({"caption": r["caption"]})
    tokenized = PTBTokenizer().tokenize(captions)
    data = {"tokens": tokenized, "systems": systems}
    if cache:
        cache.set("meteor/ptb_captions_v1", data)
    return data


@needs_paraphrases
def test_pycocoevalcap_facade_on_captioning_systems(shared_data, ptb_tokenized_captions):
    expected = json.loads((shared_data / "captioning" / "magic_flickr30k_test" / "expected_pycocoevalcap_1.2.json").read_text())
    tokens = ptb_tokenized_captions["tokens"]
    scorer = FacadeMeteor()
    for system, image_ids in ptb_tokenized_captions["systems"].items():
        gts = {image_id: tokens[f"ref/{image_id}"] for image_id in image_ids}
        res = {image_id: tokens[f"{system}/{image_id}"] for image_id in image_ids}
        score, scores = scorer.compute_score(gts, res)
        assert len(scores) == len(image_ids)
        assert abs(score - expected["scores"][system]["METEOR"]) <= 1e-9, system
