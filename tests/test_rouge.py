"""nlgmetrics.rouge: seed examples from the issue, result API, errors, properties, every language."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import read_lines
from hypothesis import example, given, settings
from hypothesis import strategies as st

import nlgmetrics
from nlgmetrics import _core
from nlgmetrics.compat.rouge_score import rouge_scorer as compat_scorer
from nlgmetrics.compat.rouge_score import scoring as compat_scoring
from nlgmetrics.compat.rouge_score import tokenize as compat_tokenize

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
from rouge_score import tokenize as rs_tokenize  # noqa: E402

# ---- seed examples (issue 4) -------------------------------------------------------------------

def test_seed_found_under_the_bed():
    r = nlgmetrics.rouge(["the cat was found under the bed"], ["the cat was under the bed"])
    assert r.rouge1.recall == 1.0
    assert r.rouge2.recall == 0.8


def test_seed_police_kill_the_gunman():
    r = nlgmetrics.rouge(["police kill the gunman"], ["police killed the gunman"], variants=["rougeL"])
    assert r.rougeL.fmeasure == 0.75 and r.rougeL.recall == 0.75


def test_seed_cat_on_the_mat():
    r = nlgmetrics.rouge(["the cat the cat is on the mat"], ["the cat sat on the mat"])
    assert r.rouge1.precision == 0.625
    assert r.rouge1.recall == pytest.approx(0.8333, abs=5e-5)
    assert r.rouge1.fmeasure == pytest.approx(0.7142857, abs=5e-8)
    assert r.rouge2.fmeasure == 0.5
    assert r.rougeL.fmeasure == pytest.approx(0.7142857, abs=5e-8)


# ---- result API ----------------------------------------------------------------------------------

def test_result_shapes_and_access():
    preds = ["a b c", "d e f\ng h", ""]
    refs = ["a b", ["d e", "g h i"], "x"]
    r = nlgmetrics.rouge(preds, refs)
    assert r.variants == ("rouge1", "rouge2", "rougeL", "rougeLsum")
    assert r.segment_scores.shape == (3, 4, 3) and r.statistics.shape == (3, 4, 3)
    assert len(r) == 3
    assert r["rouge1"] == r.rouge1 == r.variant_scores["rouge1"]
    # scores: plain numbers like every result's, named as to_pandas()'s columns (issue 22)
    assert r.scores["rouge1_precision"] == r.rouge1.precision and r.scores["rougeLsum_fmeasure"] == r.rougeLsum.fmeasure
    assert all(type(value) is float for value in r.scores.values()) and len(r.scores) == 12
    assert list(r.scores) == list(r.to_pandas().columns)
    assert r.segment(2)["rouge1"] == (0.0, 0.0, 0.0)
    assert np.array_equal(r.per_segment("rougeL")[:, 2], r.segment_scores[:, 2, 2])
    assert r.to_hf()["rouge2"] == r.rouge2.fmeasure
    d = r.to_dict()
    assert set(d) == {"name", "score", "scores", "rouge1", "rouge2", "rougeL", "rougeLsum", "signature"}
    assert d["name"] == "ROUGE" and d["score"] == d["rouge1"]["fmeasure"]
    assert "tok:unicode" in str(r.signature) and "nrefs:var" in str(r.signature)
    assert "rougeLsum: P" in str(r)
    with pytest.raises(AttributeError):
        r.rouge3
    with pytest.raises(KeyError):
        r.per_segment("rouge3")


def test_signature_names_options():
    r = nlgmetrics.rouge(["a"], ["a"], variants="rouge1", tokenizer="rouge_score", stemmer=True, bootstrap=10, seed=3)
    sig = str(r.signature)
    for part in ["preset:rouge_score", "variants:rouge1", "tok:rouge_score", "stem:porter-nltk", "nrefs:1", "seed=3"]:
        assert part in sig


def test_empty_corpus_and_edge_inputs():
    r = nlgmetrics.rouge([], [])
    assert r.rouge1 == (0.0, 0.0, 0.0) and r.segment_scores.shape == (0, 4, 3)
    weird = ["", "   ", "\n\n", "\x00\x07 ctrl", "a" * 100000, "🙂 emoji ok"]
    r = nlgmetrics.rouge(weird, weird, variants=["rouge1", "rougeLsum"])
    assert np.isfinite(r.segment_scores).all()


def test_bootstrap_is_seeded_and_reproducible():
    preds = ["a b c d", "e f g", "a c e", "b d f h"]
    refs = ["a b d", "e g", "c e a", "h"]
    r1 = nlgmetrics.rouge(preds, refs, bootstrap=200, seed=7)
    r2 = nlgmetrics.rouge(preds, refs, bootstrap=200, seed=7)
    assert r1.intervals == r2.intervals
    low, mid, high = r1.intervals["rouge1"]
    assert low.fmeasure <= mid.fmeasure <= high.fmeasure
    assert "intervals" in r1.to_dict()


def test_alpha_as_rouge155():
    # ROUGE-1.5.5 -p: F = PR / ((1 - alpha) P + alpha R); alpha → 1 favours precision, → 0 recall.
    r = nlgmetrics.rouge(["a b"], ["a b c d"], variants=["rouge1"], alpha=1.0)
    assert r.rouge1.fmeasure == r.rouge1.precision == 1.0
    r = nlgmetrics.rouge(["a b"], ["a b c d"], variants=["rouge1"], alpha=0.0)
    assert r.rouge1.fmeasure == r.rouge1.recall == 0.5


# ---- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["rougeX", "rouge0", "rouge10", "rougel", "ROUGE1", ""])
def test_invalid_variant(variant):
    with pytest.raises(ValueError, match="variant"):
        nlgmetrics.rouge(["a"], ["a"], variants=[variant])


@pytest.mark.parametrize("alpha", [-0.1, 1.5, "0.5", True])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        nlgmetrics.rouge(["a"], ["a"], alpha=alpha)


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="references has 1 entries but there are 2"):
        nlgmetrics.rouge(["a", "b"], ["a"])


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(preset="nope"), ValueError, "preset"),
        (dict(tokenizer="nope"), ValueError, "tokenizer"),
        (dict(stemmer="snowball"), ValueError, "stemmer"),
        (dict(multi_ref="B"), ValueError, "multi_ref"),
        (dict(variants=[]), ValueError, "empty"),
        (dict(variants=["rouge1", "rouge1"]), ValueError, "duplicates"),
        (dict(variants=[1]), TypeError, "variants\\[0\\]"),
        (dict(bootstrap=-1), ValueError, "n_samples"),
        (dict(bootstrap=10, confidence=2), ValueError, "confidence"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        nlgmetrics.rouge(["a"], ["a"], **kwargs)


def test_bad_types():
    with pytest.raises(TypeError, match="predictions"):
        nlgmetrics.rouge("abc", ["a"])
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        nlgmetrics.rouge(["a", 3], ["a", "b"])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        nlgmetrics.rouge(["a"], [[]])


def test_compat_errors_like_rouge_score():
    for bad, message in [("rouge0", "rougen requires positive n"), ("rougeX", "Invalid rouge type")]:
        with pytest.raises(ValueError, match=message):
            compat_scorer.RougeScorer([bad]).score("a", "a")
        with pytest.raises(ValueError, match=message):
            rouge_scorer.RougeScorer([bad]).score("a", "a")
    with pytest.raises(ValueError):
        compat_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    with pytest.raises(ValueError):
        compat_scoring.BootstrapAggregator(confidence_interval=1.5)
    with pytest.raises(ValueError):
        compat_scoring.BootstrapAggregator(n_samples=0)


# ---- properties against rouge_score --------------------------------------------------------------

ascii_text = st.lists(
    st.sampled_from(list("abcdeABC xyz0189.,'\n-\t") + ["the ", "cats ", "running ", "ies ", "happy ", "\n\n"]),
    max_size=40,
).map("".join)
any_text = st.text(max_size=40)


@settings(max_examples=150, deadline=None)
@given(target=ascii_text, prediction=ascii_text, stem=st.booleans())
def test_compat_equals_rouge_score_on_random_text(target, prediction, stem):
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    expected = rouge_scorer.RougeScorer(types, use_stemmer=stem).score(target, prediction)
    got = compat_scorer.RougeScorer(types, use_stemmer=stem).score(target, prediction)
    assert got == expected
    assert [type(v) for s in got.values() for v in s] == [type(v) for s in expected.values() for v in s]


@settings(max_examples=150, deadline=None)
@given(text=any_text)
@example(text="İstanbul \u212aelvin ǅ ﬁne Ⅻ ΣΑΣ")  # characters whose Python lower() is special
@example(text="a\ud800b \udfffcat")  # lone surrogates: not Unicode text, but Python strings can hold them
def test_rouge_score_tokenizer_on_any_unicode(text):
    assert compat_tokenize.tokenize(text, None) == rs_tokenize.tokenize(text, None)


@settings(max_examples=150, deadline=None)
@given(text=ascii_text, stem=st.booleans())
def test_unicode_tokenizer_equals_rouge_score_on_ascii(text, stem):
    assert _core.rouge_tokenize([text], {"tokenizer": "unicode", "stemmer": stem}) == _core.rouge_tokenize([text], {"tokenizer": "rouge_score", "stemmer": stem})


def test_lone_surrogates_are_separators():
    text, target = "\ud800abc de\udfff", "abc de"
    expected = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"]).score(target, text)
    assert compat_scorer.RougeScorer(["rouge1", "rougeLsum"]).score(target, text) == expected
    r = nlgmetrics.rouge([text], [target], variants=["rouge1"])
    assert r.rouge1 == (1.0, 1.0, 1.0)
    r = nlgmetrics.rouge([text], [target], variants=["rouge1"], preset="rouge155", bootstrap=5)
    assert r.rouge1 == (1.0, 1.0, 1.0)


def test_custom_tokenizer_is_called():
    class Whitespace:
        def tokenize(self, text):
            return text.split()

    a = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], tokenizer=Whitespace()).score("Ab c\nd", "Ab d")
    b = compat_scorer.RougeScorer(["rouge1", "rougeLsum"], tokenizer=Whitespace()).score("Ab c\nd", "Ab d")
    assert a == b


# ---- every language (WMT22, references/hypotheses treated as summaries) --------------------------

@pytest.mark.parametrize("pair, lang, system", [("en-zh", "zh", "HuaweiTSC"), ("en-de", "de", "Online-B")])
def test_unicode_tokenizer_on_wmt22(shared_data, pair, lang, system):
    folder = shared_data / "mt" / "wmt22" / pair
    refs = read_lines(folder / f"generaltest2022.{pair}.ref.A.{lang}")
    hyps = read_lines(folder / f"generaltest2022.{pair}.hyp.{system}.{lang}")
    assert len(refs) == len(hyps) > 1000
    ours = nlgmetrics.rouge(hyps, refs)
    ascii_only = nlgmetrics.rouge(hyps, refs, tokenizer="rouge_score")
    for variant in ours.variants:
        assert 0.2 < ours[variant].fmeasure < 0.9, variant
    if lang == "zh":
        # rouge_score drops every Han character: most Chinese segments score 0 there, not here.
        assert (ascii_only.per_segment("rouge1")[:, 2] == 0).mean() > 0.3
        assert (ours.per_segment("rouge1")[:, 2] == 0).mean() < 0.02
        tokens = _core.rouge_tokenize(refs[:50], {"tokenizer": "unicode", "stemmer": False})
        assert all(len(t) == 1 for seg in tokens for t in seg if "\u4e00" <= t <= "\u9fff")
    else:
        # German keeps umlauts and ß inside words; rouge_score splits them apart.
        assert "straße" in _core.rouge_tokenize(["Die Straße"], {"tokenizer": "unicode", "stemmer": False})[0]
        assert ours.rouge1.fmeasure != ascii_only.rouge1.fmeasure
    # Same results on the ASCII-only segments, whichever tokenizer.
    ascii_rows = [i for i, (h, r) in enumerate(zip(hyps, refs)) if h.isascii() and r.isascii()]
    assert np.array_equal(ours.segment_scores[ascii_rows], ascii_only.segment_scores[ascii_rows])


def test_jieba_word_segmentation_on_wmt22_chinese(shared_data):
    pytest.importorskip("jieba")
    folder = shared_data / "mt" / "wmt22" / "en-zh"
    refs = read_lines(folder / "generaltest2022.en-zh.ref.A.zh")[::4]
    hyps = read_lines(folder / "generaltest2022.en-zh.hyp.Online-B.zh")[::4]
    words = nlgmetrics.rouge(hyps, refs, tokenizer="jieba")
    chars = nlgmetrics.rouge(hyps, refs)
    assert "tok:jieba" in str(words.signature)
    for variant in words.variants:
        # Word matches are rarer than character matches, but far from zero.
        assert 0.2 < words[variant].fmeasure < chars[variant].fmeasure < 0.95, variant
    # ASCII-only segments: jieba changes nothing.
    ascii_rows = [i for i, (h, r) in enumerate(zip(hyps, refs)) if h.isascii() and r.isascii()]
    assert np.array_equal(words.segment_scores[ascii_rows], chars.segment_scores[ascii_rows])


# jieba keeps ASCII words whole when letters and digits don't touch punctuation ("a.0a" becomes
# "a.0" + "a", a real segmentation difference), so the property is stated for word-and-space text.
ascii_words = st.lists(st.sampled_from(["the", "cats", "running", "happy", "ies", "abc", "xyz", "\n", "0189"]),
                       max_size=20).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(text=ascii_words)
def test_jieba_equals_unicode_on_ascii(text):
    pytest.importorskip("jieba")
    a = nlgmetrics.rouge([text], [text + " x"], tokenizer="jieba", stemmer=True)
    b = nlgmetrics.rouge([text], [text + " x"], tokenizer="unicode", stemmer=True)
    assert np.array_equal(a.segment_scores, b.segment_scores)


def test_split_summaries_behaves_like_rouge_score():
    # rouge_score's split_summaries uses nltk.sent_tokenize (needs NLTK's punkt data): same result or same error.
    target, prediction = "One cat sat. Then it left.", "A cat sat. It left then."
    try:
        expected = rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
    except LookupError:
        with pytest.raises(LookupError):
            compat_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction)
        return
    assert compat_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(target, prediction) == expected


def test_cli_rouge_command(tmp_path, capsys):
    import json

    from nlgmetrics.cli.commands import main

    (tmp_path / "hyp.txt").write_text("the cat was found under the bed<n>it slept\npolice kill the gunman\n")
    (tmp_path / "ref.txt").write_text("the cat was under the bed\npolice killed the gunman\n")
    hyp, ref = str(tmp_path / "hyp.txt"), str(tmp_path / "ref.txt")
    assert main(["rouge", "-i", hyp, "-r", ref, "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)[0]  # one entry per -i file
    expected = nlgmetrics.rouge(["the cat was found under the bed\nit slept", "police kill the gunman"],
                                ["the cat was under the bed", "police killed the gunman"])
    assert out["rouge1"] == expected.rouge1._asdict()
    assert main(["rouge", "-i", hyp, "-r", ref]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["System", "rouge1", "F", "rouge2", "F", "rougeL", "F", "rougeLsum", "F"]
    assert table[1].split()[1] == f"{expected.rouge1.fmeasure:.4f}"
    assert main(["rouge", "-i", hyp, "-r", ref, "--preset", "rouge155", "-v", "rouge1", "rougeSU4"]) == 0
    assert "X ROUGE-SU4 Average_F:" in capsys.readouterr().out
    (tmp_path / "short.txt").write_text("one line\n")
    assert main(["rouge", "-i", hyp, "-r", str(tmp_path / "short.txt")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "hyp.txt has 2 lines but the references have 1" in captured.err
    (tmp_path / "bad.txt").write_bytes(b"ok\n\xff\xfe\n")
    assert main(["rouge", "-i", str(tmp_path / "bad.txt"), "-r", ref]) == 1
    assert "bad.txt: line 2 is not valid UTF-8" in capsys.readouterr().err
    assert main(["rouge", "-i", hyp, "-r", ref, "-v", "rougeX"]) == 1
    assert "rougeX" in capsys.readouterr().err


def test_docstring_examples_run():
    import doctest
    import importlib

    for name in ["nlgmetrics.metrics.rouge.metric", "nlgmetrics.compat.rouge_score.rouge_scorer",
                 "nlgmetrics.compat.rouge_score.scoring", "nlgmetrics.compat.rouge_score.tokenize"]:
        module = importlib.import_module(name)
        failures, attempted = doctest.testmod(module)
        assert attempted > 0 and failures == 0, name


def test_mecab_word_segmentation_for_japanese():
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    prediction = "私は東京大学の学生です。\n毎日本を読みます。"
    reference = "彼は東京大学の先生です。\n毎日新聞を読みます。"
    words = nlgmetrics.rouge([prediction], [reference], tokenizer="mecab")
    chars = nlgmetrics.rouge([prediction], [reference])
    assert "tok:mecab" in str(words.signature)
    # Expected counts straight from MeCab's own segmentation (punctuation dropped).
    import collections

    import ipadic
    import MeCab

    tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")

    def words_of(text):
        return [w for line in text.split("\n") for w in tagger.parse(line).split() if w != "。"]

    p, r = collections.Counter(words_of(prediction)), collections.Counter(words_of(reference))
    hits = sum(min(count, r[w]) for w, count in p.items())
    assert tuple(words.statistics[0, 0]) == (hits, sum(p.values()), sum(r.values()))
    assert 0 < words.rouge1.fmeasure < chars.rouge1.fmeasure
    text = "The cats are running, 42 times!"
    same = nlgmetrics.rouge([text], [text + " yes"], tokenizer="mecab", stemmer=True)
    assert np.array_equal(same.segment_scores, nlgmetrics.rouge([text], [text + " yes"], stemmer=True).segment_scores)
