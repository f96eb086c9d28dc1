"""exact_match / token_f1 helpers and their normalisers (SQuAD, MLQA, CMRC 2018)."""

from __future__ import annotations

import re
import string
import sys
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nlgmetrics


def squad_normalize_by_definition(s: str) -> str:
    """SQuAD's normalize_answer, stated with Python's own re/str (the tables our Rust must match)."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


MLQA_PUNCT = {chr(i) for i in range(sys.maxunicode) if unicodedata.category(chr(i)).startswith("P")} | set(string.punctuation)
MLQA_ARTICLES = {"en": r"\b(a|an|the)\b", "es": r"\b(un|una|unos|unas|el|la|los|las)\b",
                 "vi": r"\b(của|là|cái|chiếc|những)\b",
                 "de": r"\b(ein|eine|einen|einem|eines|einer|der|die|das|den|dem|des)\b"}


def mlqa_normalize_by_definition(s: str, lang: str) -> str:
    s = "".join(ch for ch in s.lower() if ch not in MLQA_PUNCT)
    if lang in MLQA_ARTICLES:
        s = re.sub(MLQA_ARTICLES[lang], " ", s)
    elif lang == "ar":
        s = s.replace("ال", " ")
    if lang == "zh":
        tokens, run = [], ""
        for ch in s:
            if "\u4e00" <= ch <= "\u9fa5" or ch in MLQA_PUNCT:
                tokens += run.split()
                run = ""
                tokens.append(ch)
            else:
                run += ch
        tokens += run.split()
        return " ".join(t for t in tokens if t.strip())
    return " ".join(s.split())


ANSWERISH = st.lists(
    st.sampled_from(list("aAnNtThHeE _-.,'\"!é1\u00a0\u1680\x1c\u3000\u0301ßİΣ北京") + ["the ", " a ", "An "]),
    max_size=15,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(ANSWERISH, st.text(max_size=20)), min_size=1, max_size=8))
def test_squad_normalizer_matches_python_definition(texts):
    assert nlgmetrics.normalize_answer(texts) == [squad_normalize_by_definition(t) for t in texts]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(ANSWERISH, st.text(max_size=20), st.text(alphabet="unaslosdiecượcủaàlchiếcđال ", max_size=20)), min_size=1, max_size=5),
       st.sampled_from(["en", "es", "hi", "vi", "de", "ar", "zh"]))
def test_mlqa_normalizer_matches_python_definition(texts, lang):
    assert nlgmetrics.normalize_answer(texts, "mlqa", language=lang) == [mlqa_normalize_by_definition(t, lang) for t in texts]


def test_squad_f1_and_em_values():
    assert nlgmetrics.exact_match("The Broncos!", ["Denver Broncos", "broncos"]) == 1.0
    assert nlgmetrics.token_f1("Denver", "Denver Broncos") == (2 * 1.0 * 0.5) / 1.5
    # v1.1: both normalise to nothing → EM 1 but F1 0; v2.0: F1 1.
    assert nlgmetrics.exact_match("the", ["a"]) == 1.0
    assert nlgmetrics.token_f1("the", ["a"]) == 0.0
    assert nlgmetrics.token_f1("the", ["a"], normalizer="squad_v2") == 1.0
    # Counter intersection: repeated tokens count up to the smaller multiplicity.
    assert nlgmetrics.token_f1("cat cat cat", "cat cat dog") == (2 * (2 / 3) * (2 / 3)) / (4 / 3)
    batch = nlgmetrics.token_f1(["a b", "c"], [["b"], ["c", "d"]])
    assert isinstance(batch, np.ndarray) and batch.tolist() == [1.0, 1.0]


def test_cmrc_semantics():
    # Chinese characters one by one, Latin words and numbers whole, punctuation (both kinds) removed.
    assert nlgmetrics.exact_match("「北京」", ["北京"], normalizer="cmrc") == 1.0
    assert nlgmetrics.exact_match("北京 ", ["北京市"], normalizer="cmrc") == 0.0
    # Longest common substring: "北京" (2) of prediction 北京大学 (4) vs answer 北京 (2).
    p, r = 2 / 4, 2 / 2
    assert nlgmetrics.token_f1("北京大学", ["北京", "上海"], normalizer="cmrc") == (2 * p * r) / (p + r)
    # "iPhone 6s" → [iphone, 6s]; vs 苹果iPhone 6s → [苹, 果, iphone, 6s]: LCS 2.
    p, r = 2 / 2, 2 / 4
    assert nlgmetrics.token_f1("iPhone 6s", ["苹果iPhone 6s"], normalizer="cmrc") == (2 * p * r) / (p + r)
    result = nlgmetrics.qa_scores(["北京", "x"], [["北京"], ["y"]], normalizer="cmrc")
    assert (result.exact_match, result.f1) == (50.0, 50.0)


CMRC_SP_CHAR = ["-", ":", "_", "*", "^", "/", "\\", "~", "`", "+", "=", "，", "。", "：", "？", "！", "“", "”", "；",
                "’", "《", "》", "……", "·", "、", "「", "」", "（", "）", "－", "～", "『", "』"]


def cmrc_segments_by_definition(text: str) -> list:
    """cmrc2018_evaluate.py's mixed_segmentation(rm_punc=True), with nltk.word_tokenize's word step
    (NLTKWordTokenizer; punkt sentence splitting needs data that is not installed here)."""
    tokenize = pytest.importorskip("nltk.tokenize").NLTKWordTokenizer().tokenize
    text = text.lower().strip()
    out, run = [], ""
    for ch in text:
        if ch in CMRC_SP_CHAR:
            continue
        if re.search(r"[\u4e00-\u9fa5]", ch):
            if run:
                out.extend(tokenize(run))
                run = ""
            out.append(ch)
        else:
            run += ch
    if run:
        out.extend(tokenize(run))
    return out


CMRC_TEXT = st.lists(
    st.sampled_from(list("abc XYZ 019.,;!?'\"()[]{}<>$%&@#") + ["北", "京", "大学", "can't", "gonna", "it's", "...", "--",
                                                              "《", "》", "，", "。", "-", ":", " 'em ", "’s", "“", "U.S."]),
    max_size=20,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(CMRC_TEXT)
def test_cmrc_segmentation_matches_the_script_definition(text):
    from nlgmetrics import _core
    assert _core.qa_tokens([text], {"normalizer": "cmrc", "language": None})[0] == cmrc_segments_by_definition(text)


def test_mlqa_needs_a_known_language():
    with pytest.raises(ValueError, match="needs a language"):
        nlgmetrics.exact_match("a", ["a"], normalizer="mlqa")
    with pytest.raises(ValueError, match="unknown MLQA language"):
        nlgmetrics.exact_match("a", ["a"], normalizer="mlqa", language="fr")
    assert nlgmetrics.exact_match("Die Katze", ["katze"], normalizer="mlqa", language="de") == 1.0


def test_errors():
    with pytest.raises(ValueError, match="normalizer must be one of"):
        nlgmetrics.exact_match("a", ["a"], normalizer="bogus")
    with pytest.raises(ValueError, match="takes no language"):
        nlgmetrics.exact_match("a", ["a"], language="en")
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        nlgmetrics.exact_match("a", [])
    with pytest.raises(ValueError, match="2 entries but there are 1"):
        nlgmetrics.token_f1(["a"], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"predictions\[1\] must be str"):
        nlgmetrics.token_f1(["a", 1], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be str"):
        nlgmetrics.token_f1(["a"], [[None]])
    with pytest.raises(ValueError, match="predictions is empty"):
        nlgmetrics.qa_scores([], [])
    with pytest.raises(TypeError, match="not a single str"):
        nlgmetrics.qa_scores("a", ["a"])
    # Empty gold list is valid for v2.0 (unanswerable): only "" matches.
    assert nlgmetrics.exact_match(["", "x"], [[], []], normalizer="squad_v2").tolist() == [1.0, 0.0]


def test_odd_inputs_are_valid():
    texts = ["", "   ", "\x00\x1f", "a" * 100000, "🙂 the 🙂", "\u2028"]
    exact = nlgmetrics.exact_match(texts, [[t] for t in texts])
    assert exact.tolist() == [1.0] * len(texts)
