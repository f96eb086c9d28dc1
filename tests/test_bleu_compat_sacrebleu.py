"""nlgmetrics.compat.sacrebleu (BLEU part): same calls, same attributes and numbers as sacreBLEU 2.6.0."""

from __future__ import annotations

import logging

import pytest

from nlgmetrics.compat import sacrebleu as compat

sacrebleu = pytest.importorskip("sacrebleu")

HYPS = ["the cat is sitting on the mat", "a dog ran in the park today", "", "hello world again", "x y z w"]
STREAM_A = ["the cat is on the mat", "the dog ran in a park", "something", "hello world", "x y z w"]
STREAM_B = ["there is a cat sitting on the mat", None, "", "hello there world again", None]


def same_bleu_score(ours, theirs):
    assert type(ours).__name__ == "BLEUScore"
    for attribute in ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio", "prec_str",
                      "name", "_verbose"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
        assert type(getattr(ours, attribute)) is type(getattr(theirs, attribute)), attribute
    assert [type(c) for c in ours.counts] == [type(c) for c in theirs.counts]
    assert str(ours) == str(theirs) and repr(ours) == repr(theirs)
    for width in (0, 2, 4):
        assert ours.format(width=width) == theirs.format(width=width)
        assert ours.format(width=width, score_only=True) == theirs.format(width=width, score_only=True)
    signature = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert ours.format(signature=signature, is_json=True) == theirs.format(signature=signature, is_json=True)


def same_signature(ours, theirs):
    for short in (False, True):
        mine, reference = ours.format(short=short), theirs.format(short=short)
        assert mine.rsplit(":", 1)[0] == reference.rsplit(":", 1)[0]
        assert mine.rsplit(":", 1)[1] == f"{reference.rsplit(':', 1)[1]}+nlgmetrics-{_version()}"


def _version():
    import nlgmetrics

    return nlgmetrics.__version__


@pytest.mark.parametrize("smooth_method, smooth_value", [("exp", None), ("floor", None), ("floor", 0), ("add-k", None),
                                                         ("add-k", 2), ("add-k", 0.5), ("add-k", 0.0), ("none", None)])
@pytest.mark.parametrize("use_effective_order", [False, True])
@pytest.mark.parametrize("lowercase", [False, True])
def test_corpus_bleu(smooth_method, smooth_value, use_effective_order, lowercase):
    options = dict(smooth_method=smooth_method, smooth_value=smooth_value, lowercase=lowercase, tokenize="none",
                   use_effective_order=use_effective_order)
    for streams in ([STREAM_A], [STREAM_A, STREAM_B]):
        same_bleu_score(compat.corpus_bleu(HYPS, streams, **options), sacrebleu.corpus_bleu(HYPS, streams, **options))
    for hyp, ref_a, ref_b in zip(HYPS, STREAM_A, STREAM_B):
        same_bleu_score(compat.sentence_bleu(hyp, [ref_a, ref_b], **options),
                        sacrebleu.sentence_bleu(hyp, [ref_a, ref_b], **options))


def test_raw_corpus_bleu_and_compute_bleu():
    same_bleu_score(compat.raw_corpus_bleu(HYPS, [STREAM_A]), sacrebleu.raw_corpus_bleu(HYPS, [STREAM_A]))
    for smooth in ("exp", "floor", "add-k", "none"):
        args = ([5, 3, 0, 0], [8, 7, 6, 5], 8, 9)
        same_bleu_score(compat.BLEU.compute_bleu(list(args[0]), list(args[1]), *args[2:], smooth_method=smooth),
                        sacrebleu.BLEU.compute_bleu(list(args[0]), list(args[1]), *args[2:], smooth_method=smooth))


def test_metric_object_signature_and_reference_cache():
    for options in ({}, {"lowercase": True, "smooth_method": "floor", "effective_order": True, "tokenize": "none"},
                    {"smooth_method": "add-k", "smooth_value": 3, "max_ngram_order": 2}):
        ours, theirs = compat.BLEU(**options), sacrebleu.BLEU(**options)
        same_bleu_score(ours.corpus_score(HYPS, [STREAM_A, STREAM_B]), theirs.corpus_score(HYPS, [STREAM_A, STREAM_B]))
        same_signature(ours.get_signature(), theirs.get_signature())
        same_bleu_score(ours.sentence_score(HYPS[0], [STREAM_A[0]]), theirs.sentence_score(HYPS[0], [STREAM_A[0]]))
        same_signature(ours.get_signature(), theirs.get_signature())
    cached, reference = compat.BLEU(references=[STREAM_A, STREAM_B]), sacrebleu.BLEU(references=[STREAM_A, STREAM_B])
    same_bleu_score(cached.corpus_score(HYPS, None), reference.corpus_score(HYPS, None))
    same_signature(cached.get_signature(), reference.get_signature())
    assert cached.get_signature().format().startswith("nrefs:var|")


def test_empty_string_is_a_reference_and_none_is_not():
    # sacreBLEU 2.6.0 drops only None; "" counts as an (empty) reference, changing nrefs and ref_len.
    for stream_b in (["", "", "", "", ""], [None] * 5, ["a", None, "", "b", None]):
        ours, theirs = compat.BLEU(), sacrebleu.BLEU()
        same_bleu_score(ours.corpus_score(HYPS, [STREAM_A, stream_b]), theirs.corpus_score(HYPS, [STREAM_A, stream_b]))
        same_signature(ours.get_signature(), theirs.get_signature())


def test_tokenizer_object():
    for name in ("13a", "intl", "zh", "char", "none"):
        ours, theirs = compat.BLEU(tokenize=name).tokenizer, sacrebleu.BLEU(tokenize=name).tokenizer
        line = "Hello, &quot;world&quot;! 价格是1,000元。 It's 3.5$"
        assert ours(line) == theirs(line) and ours.signature() == theirs.signature()


def test_tokenizer_from_target_language():
    assert compat.BLEU(trg_lang="zh").tokenizer_signature == sacrebleu.BLEU(trg_lang="zh").tokenizer_signature == "zh"
    assert compat.BLEU(trg_lang="de").tokenizer_signature == "13a"


def test_warnings_like_sacrebleu(caplog):
    with caplog.at_level(logging.WARNING, logger="nlgmetrics.compat.sacrebleu"):
        compat.BLEU().sentence_score("a .", ["a ."])
        assert "effective_order" in caplog.text
        caplog.clear()
        compat.corpus_bleu(["tokenized ."] * 100, [["tokenized ."] * 100])
        assert "tokenized period" in caplog.text
        caplog.clear()
        compat.corpus_bleu(["tokenized ."] * 100, [["tokenized ."] * 100], force=True)
        assert caplog.text == ""
        compat.BLEU(trg_lang="zh", tokenize="13a")
        assert "Consider using the 'zh'" in caplog.text


def test_errors():
    with pytest.raises(ValueError, match=r"refs\[1\] has 4 lines but there are 5 hypotheses.*truncate"):
        compat.corpus_bleu(HYPS, [STREAM_A, STREAM_B[:4]])
    with pytest.raises(ValueError, match="refs\\[0\\] has 5 lines but there are 4 hypotheses"):
        compat.corpus_bleu(HYPS[:4], [STREAM_A])
    with pytest.raises(ValueError, match="segment 2 has no reference"):
        compat.corpus_bleu(HYPS[:2], [["a", None]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        compat.sentence_bleu("a", [None])
    with pytest.raises(RuntimeError, match="No references provided"):  # as sacreBLEU: [] means "use the cache"
        compat.corpus_bleu(HYPS, [])
    with pytest.raises(ValueError, match="at least one reference stream"):
        compat.sentence_bleu("a", [])
    with pytest.raises(TypeError, match="BLEU: `hyps` should be a sequence of strings"):
        compat.corpus_bleu("abc", [STREAM_A])
    with pytest.raises(TypeError, match="Undefined line in hypotheses stream"):
        compat.corpus_bleu(["a", None], [["a", "b"]])
    with pytest.raises(TypeError, match="Each element of `hyps` should be a string"):
        compat.corpus_bleu([1, "b"], [["a", "b"]])
    with pytest.raises(TypeError, match="`refs` should be a sequence of sequence of strings"):
        compat.corpus_bleu(["a"], "a")
    with pytest.raises(TypeError, match="Each element of `refs` should be a sequence of strings"):
        compat.corpus_bleu(["a"], ["a"])
    with pytest.raises(TypeError, match=r"sequence of sequence of strings \(refs\[0\]\[0\]\)"):
        compat.corpus_bleu(["a"], [[3]])
    with pytest.raises(TypeError, match="The argument `hyp` should be a string"):
        compat.sentence_bleu(["a"], ["a"])
    with pytest.raises(TypeError, match="The argument `refs` should be a sequence of strings"):
        compat.sentence_bleu("a", "a")
    with pytest.raises(TypeError, match="Each element of `refs` should be a string"):
        compat.sentence_bleu("a", [1])
    with pytest.raises(ValueError, match="unknown tokenizer 'moses'"):
        compat.BLEU(tokenize="moses")
    with pytest.raises(ValueError, match="unknown smoothing method 'laplace'"):
        compat.BLEU(smooth_method="laplace")
    with pytest.raises(ValueError, match="smooth_value must be a finite number >= 0"):
        compat.BLEU(smooth_method="floor", smooth_value=-1)
    with pytest.raises(ValueError, match="max_order must be between 1 and 100"):
        compat.BLEU(max_ngram_order=0)
    with pytest.raises(NotImplementedError, match="n_bootstrap"):
        compat.BLEU().corpus_score(HYPS, [STREAM_A], n_bootstrap=1000)
    with pytest.raises(RuntimeError, match="No references provided and the cache is empty"):
        compat.BLEU().corpus_score(HYPS, None)
    with pytest.raises(ValueError, match="cached references have 5 lines but there are 1 hypotheses"):
        compat.BLEU(references=[STREAM_A]).corpus_score(["a"], None)
    with pytest.raises(ValueError, match="Number of references unknown"):
        compat.BLEU().get_signature()


def test_smooth_value_is_ignored_where_sacrebleu_ignores_it():
    same_bleu_score(compat.corpus_bleu(HYPS, [STREAM_A], smooth_method="exp", smooth_value=0.3),
                    sacrebleu.corpus_bleu(HYPS, [STREAM_A], smooth_method="exp", smooth_value=0.3))
