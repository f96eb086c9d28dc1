"""The native PTB tokenizer facade: pycocoevalcap's input/output shapes, quirks, errors.

Token-level parity with the real jar is in test_coco_parity.py (every caption of the shared data,
tricky lines, seeded random caption-like text)."""

from __future__ import annotations

import pytest

import nlgmetrics
from nlgmetrics.compat.pycocoevalcap import PTBTokenizer


def test_shapes_as_pycocoevalcap():
    out = PTBTokenizer().tokenize({"b": [{"caption": "A Dog."}, {"caption": "Two\ncats!"}], "a": [], 3: [{"caption": ""}]})
    # Keys keep their order, images without captions disappear, newlines inside captions are spaces.
    assert out == {"b": ["a dog", "two cats"], 3: [""]}
    assert list(out) == ["b", 3]


def test_quirks_reproduced():
    # pycocoevalcap's punctuation list is upper case, so lower-cased brackets survive.
    assert nlgmetrics.ptb_tokenize(["a (big) {dog}"]) == ["a -lrb- big -rrb- -lcb- dog -rcb-"]
    # A one-letter acronym loses its period before a sentence-starting word, even on the next caption.
    assert nlgmetrics.ptb_tokenize(["plan b.", "A man"]) == ["plan b", "a man"]
    assert nlgmetrics.ptb_tokenize(["plan b.", "a man"]) == ["plan b.", "a man"]


def test_errors():
    with pytest.raises(TypeError, match="captions_for_image must be a dict"):
        PTBTokenizer().tokenize([["a"]])
    with pytest.raises(TypeError, match=r"captions_for_image\[1\]\[0\] must be a str or a dict"):
        PTBTokenizer().tokenize({1: [3]})
    with pytest.raises(TypeError, match=r"\['caption'\] must be str"):
        PTBTokenizer().tokenize({1: [{"caption": None}]})
    with pytest.raises(TypeError, match=r"captions_for_image\[1\] must be a list"):
        PTBTokenizer().tokenize({1: "a dog"})
    with pytest.raises(TypeError, match=r"captions\[0\] must be str"):
        nlgmetrics.ptb_tokenize([None])


def test_odd_input_is_valid():
    lines = ["", "\x00\x01\x7f", "x" * 200000, "🙂 é ß ﬁ", "\u2028\u0085", "&amp;" * 1000, "'" * 50]
    out = nlgmetrics.ptb_tokenize(lines)
    assert len(out) == len(lines)
    assert out[2] == "x" * 200000
