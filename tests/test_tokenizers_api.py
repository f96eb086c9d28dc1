"""The tokenizers' Python API: names, helpers for BLEU, MeCab wrappers (parity with sacreBLEU), error paths."""

from __future__ import annotations

import sys

import pytest
import sacrebleu
from conftest import read_lines
from sacrebleu.metrics.bleu import _TOKENIZERS as SACREBLEU_TOKENIZERS

from nlgmetrics import tokenize, tokenizers
from nlgmetrics.tokenizers import TOKENIZERS, is_native, pretokenize, tokenizer_signature


def test_names_cover_sacrebleu_and_zh_fixed():
    ours = set(TOKENIZERS)
    # every sacreBLEU tokenizer except the SentencePiece ones (they download models at run time)
    assert {name for name in SACREBLEU_TOKENIZERS if "spm" not in name and "flores" not in name
            and "spBLEU" not in name} <= ours
    assert ours - set(SACREBLEU_TOKENIZERS) == {"zh-fixed"}
    assert all(isinstance(text, str) and "\n" not in text and text for text in TOKENIZERS.values())
    assert [name for name in TOKENIZERS if is_native(name)] == ["none", "13a", "intl", "zh", "zh-fixed", "char"]
    assert not is_native("ja-mecab") and not is_native("ko-mecab")


def test_signatures_match_sacrebleu():
    for name in ["none", "13a", "intl", "zh", "char"]:
        assert tokenizer_signature(name) == sacrebleu.BLEU(tokenize=name).tokenizer.signature()


def test_pretokenize_native_equals_tokenize():
    lines = ["Hello, world!", "价格是1,000元。"]
    for name in ["13a", "zh", "char"]:
        assert pretokenize(lines, name) == tokenize(lines, name=name)
    assert pretokenize(("1.5", "c"), "13a") == ["1.5", "c"]  # any sequence; returns a list
    assert tokenize(iter(["x,y"])) == ["x , y"]
    assert tokenize([]) == []


# ---------------------------------------------------------------- MeCab (optional extras)

# Japanese and Korean sentences written for this test (NOT real data: the shared data has no ja/ko text).
WRITTEN_FOR_TEST_JA = ["今日は良い天気ですね。", "  東京都に住んでいます！ ", "MeCabで日本語を分かち書きする。", "", "１２３ＡＢＣ"]
WRITTEN_FOR_TEST_KO = ["안녕하세요, 세계!", "  한국어 형태소 분석기입니다. ", "서울에 살아요.", "", "123 ABC"]


def _real_sample(shared_data):
    """Real lines: Chinese (zh-en source, en-zh reference) and English/German (WMT22), 150 evenly spaced each."""
    paths = [
        shared_data / "mt/wmt22/zh-en/generaltest2022.zh-en.src.zh",
        shared_data / "mt/wmt22/en-zh/generaltest2022.en-zh.ref.A.zh",
        shared_data / "mt/wmt22/de-en/generaltest2022.de-en.src.de",
        shared_data / "mt/wmt22/en-de/generaltest2022.en-de.src.en",
    ]
    sample = []
    for path in paths:
        lines = read_lines(path)
        sample += lines[:: max(1, len(lines) // 150)]
    return sample


@pytest.mark.parametrize(
    "name, module, sacrebleu_class, written",
    [
        ("ja-mecab", "MeCab", "sacrebleu.tokenizers.tokenizer_ja_mecab.TokenizerJaMecab", WRITTEN_FOR_TEST_JA),
        ("ko-mecab", "mecab_ko", "sacrebleu.tokenizers.tokenizer_ko_mecab.TokenizerKoMecab", WRITTEN_FOR_TEST_KO),
    ],
)
def test_mecab_parity_with_sacrebleu(shared_data, name, module, sacrebleu_class, written):
    pytest.importorskip(module)
    module_name, class_name = sacrebleu_class.rsplit(".", 1)
    reference = getattr(__import__(module_name, fromlist=[class_name]), class_name)()
    lines = _real_sample(shared_data) + written
    lines += [line.lower() for line in lines]
    assert len(lines) > 1000
    assert tokenize(lines, name=name) == [reference(line) for line in lines]
    assert tokenize(written[0], name=name) == reference(written[0])
    assert tokenizer_signature(name) == reference.signature()


@pytest.mark.parametrize("name, module, extra", [("ja-mecab", "MeCab", "ja"), ("ko-mecab", "mecab_ko", "ko")])
def test_mecab_missing_extra_names_it(monkeypatch, name, module, extra):
    monkeypatch.setattr(tokenizers, "_taggers", {})
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ImportError
    with pytest.raises(ImportError, match=rf"pip install 'nlgmetrics\[{extra}\]'"):
        tokenize("x", name=name)


# ---------------------------------------------------------------- error paths


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match=r"unknown tokenizer '14a'; valid names: none, 13a, intl, zh, zh-fixed, char"):
        tokenize("x", name="14a")
    with pytest.raises(ValueError, match="valid names"):
        pretokenize(["x"], "spm")
    with pytest.raises(ValueError, match="valid names"):
        is_native("ZH")


def test_non_str_inputs_raise_type_error():
    with pytest.raises(TypeError, match=r"lines\[1\] must be str, got int"):
        tokenize(["a", 3])
    with pytest.raises(TypeError, match=r"lines\[0\] must be str, got NoneType"):
        tokenize([None], name="ja-mecab")
    with pytest.raises(TypeError, match="got int"):
        tokenize(5)
    with pytest.raises(TypeError, match="bytes"):
        tokenize(b"abc")
    with pytest.raises(TypeError, match="tokenizer name must be str"):
        tokenize("x", name=None)
    with pytest.raises(TypeError, match="not a single str"):
        pretokenize("abc", "13a")


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
def test_surrogates_raise_clear_value_error(name):
    with pytest.raises(ValueError, match=r"lines\[1\] contains a lone surrogate U\+D800 at position 1"):
        tokenize(["ok", "a\ud800b"], name=name)
    with pytest.raises(ValueError, match=r"lines contains a lone surrogate U\+DFFF at position 0"):
        tokenize("\udfff", name=name)


def test_surrogates_with_mecab_raise_clear_value_error():
    pytest.importorskip("MeCab")
    with pytest.raises(ValueError, match=r"lines\[0\] contains a lone surrogate"):
        tokenize(["\ud83d"], name="ja-mecab")


def test_intl_unicode_tables_are_current():
    """The committed intl category table equals what tools/gen_unicode_tables.py makes from the installed `regex`."""
    import subprocess
    from pathlib import Path

    import regex

    repo = Path(__file__).resolve().parent.parent
    committed = (repo / "src/text/sacrebleu/unicode_tables.rs").read_text(encoding="utf-8")
    if regex.__version__ not in committed:
        pytest.skip(f"installed regex {regex.__version__} differs from the one the table was generated with")
    generated = subprocess.run(
        [sys.executable, str(repo / "tools/gen_unicode_tables.py")], capture_output=True, text=True, check=True
    ).stdout
    assert generated == committed
    from nlgmetrics import _core

    assert _core.INTL_TABLES_REGEX_VERSION == regex.__version__
