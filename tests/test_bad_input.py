"""docs/bad-input.md, row by row, for every metric (DESIGN.md §5). Inputs are synthetic by nature
(wrong types, control characters); where a score is produced it is checked against the reference
library on the same text."""

from __future__ import annotations

import warnings

import pytest

import nlgmetrics

METRICS = {
    "bleu": nlgmetrics.bleu,
    "chrf": nlgmetrics.chrf,
    "ter": nlgmetrics.ter,
    "rouge": nlgmetrics.rouge,
    "meteor": lambda h, r: nlgmetrics.meteor(h, r, modules=["exact", "stem"]),
    "cider": lambda h, r: nlgmetrics.cider(h, [x if isinstance(x, (list, tuple)) else [x] for x in r]),
}
ALL = pytest.mark.parametrize("metric", list(METRICS))


def call(metric, hyps, refs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return METRICS[metric](hyps, refs)


@ALL
def test_mismatched_lengths(metric):
    with pytest.raises(ValueError, match="1 entries but there are 2 hypotheses"):
        call(metric, ["a b", "c d"], ["a b"])


@ALL
@pytest.mark.parametrize("bad, where", [
    ((None, "x"), r"(hypotheses|predictions)\[0\] must be str, got NoneType"),
    ((b"x", "x"), r"(hypotheses|predictions)\[0\] must be str, got bytes"),
    (("x", None), r"references\[0\]"),
    (("x", b"x"), r"references\[0\]"),
])
def test_wrong_types_name_the_index(metric, bad, where):
    hyp, ref = bad
    with pytest.raises(TypeError, match=where):
        call(metric, [hyp], [ref])


@ALL
def test_a_single_string_is_not_a_list_of_hypotheses(metric):
    with pytest.raises(TypeError, match="not a single str"):
        call(metric, "abc", ["a", "b", "c"])


@ALL
def test_a_hypothesis_without_references(metric):
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        call(metric, ["a b"], [[]])


@ALL
@pytest.mark.parametrize("text", ["", "a\x00b c", "a b\r\n", "\x07\x1b[31m red"])
def test_empty_and_control_characters_are_scored_deterministically(metric, text):
    first = call(metric, [text, "the cat"], [text, "the cat"])
    again = call(metric, [text, "the cat"], [text, "the cat"])
    assert first.to_dict() == again.to_dict()


@pytest.mark.parametrize("text", ["a\x00b c d e f", "a b\r\nc d e f", "\x07\x1b[31m red a b c"])
def test_control_characters_score_as_sacrebleu(text):
    import sacrebleu

    hyps, refs = [text, "the cat sat on the mat"], ["a b c d e f", "the cat sat on a mat"]
    assert nlgmetrics.bleu(hyps, refs).score == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, rel=1e-12)
    assert nlgmetrics.chrf(hyps, refs).score == pytest.approx(sacrebleu.corpus_chrf(hyps, [refs]).score, rel=1e-12)
    assert nlgmetrics.ter(hyps, refs).score == pytest.approx(sacrebleu.corpus_ter(hyps, [refs]).score, rel=1e-12)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "meteor"])
def test_lone_surrogates_name_the_segment(metric):
    with pytest.raises(ValueError, match=r"hypotheses\[1\] contains a lone surrogate"):
        call(metric, ["a", "a \ud800 b"], ["a", "a b"])


def test_lone_surrogates_cider_and_rouge():
    with pytest.raises(ValueError):  # UnicodeEncodeError is a ValueError
        call("cider", ["a", "a \ud800 b"], ["a", "a b"])
    # rouge_score's tokenizer drops every non-alphanumeric character, the surrogate too.
    assert call("rouge", ["a \ud800 b"], ["a b"])["rouge1"].fmeasure == 1.0


@ALL
def test_segment_size_limit(metric):
    from nlgmetrics.core.inputs import MAX_SEGMENT_CHARS

    with pytest.raises(ValueError, match="more than the limit of 1,000,000 per segment"):
        call(metric, ["a"], ["x" * (MAX_SEGMENT_CHARS + 1)])


@pytest.mark.parametrize("call_, message", [
    (lambda: nlgmetrics.bleu(["a"], ["a"], tokenize="xx"), "unknown tokenizer 'xx'"),
    (lambda: nlgmetrics.chrf(["a"], ["a"], beta=-1), "beta must be a positive finite number"),
    (lambda: nlgmetrics.meteor(["a"], ["a"], language="xx"), "METEOR 1.5 has no normalizer"),
    (lambda: nlgmetrics.rouge(["a"], ["a"], tokenizer="xx"), "unknown tokenizer 'xx'"),
    (lambda: nlgmetrics.rouge(["a"], ["a"], preset="xx"), "preset"),
    (lambda: nlgmetrics.meteor(["a"], ["a"], modules=["exact", "xx"]), "xx"),
])
def test_unknown_names_raise_with_the_accepted_values(call_, message):
    with pytest.raises(ValueError, match=message):
        call_()


def _run_cli(args, capsys):
    from nlgmetrics.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "rouge", "meteor"])
@pytest.mark.parametrize("content, message", [
    (b"a \xff b\n", "line 1 is not valid UTF-8 (byte 0xff at byte column 3)"),
    (b"a b\nc d\n", "has 2 lines but the references have 1"),
    (b"", "has 0 lines but the references have 1"),
])
def test_cli_bad_files_exit_1(tmp_path, capsys, metric, content, message):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_bytes(b"a b\n")
    hyp.write_bytes(content)
    code, out, err = _run_cli([metric, "-r", ref, "-i", hyp], capsys)
    assert code == 1 and out == "" and message in err


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_cli_crlf_and_nul_are_text(tmp_path, capsys, metric):
    ref, crlf, unix = tmp_path / "ref.txt", tmp_path / "crlf.txt", tmp_path / "unix.txt"
    ref.write_bytes(b"the cat sat on the mat\x00 today\n")
    crlf.write_bytes(b"the cat sat on a mat\x00 today\r\n")
    unix.write_bytes(b"the cat sat on a mat\x00 today\n")
    outputs = []
    for hyp in (crlf, unix):
        code, out, _ = _run_cli([metric, "-r", ref, "-i", hyp, "-f", "json"], capsys)
        assert code == 0
        outputs.append(out.replace(hyp.stem, "X"))
    assert outputs[0] == outputs[1]


# The other metrics (docs/bad-input.md, "Other metrics"): the shared input rules. Their own rules (empty
# references, no segments, options) are tested in tests/test_wer.py, test_character.py, test_charcut.py,
# test_nltk_mt.py and test_diversity.py.
ONE_REFERENCE = ["wer", "cer", "mer", "wil", "wip", "character", "charcut"]
REFERENCE_METRICS = ONE_REFERENCE + ["gleu", "nist", "ribes"]
OUTPUT_METRICS = ["distinct", "self_bleu"]


def score_other(metric, hyps, refs=None):
    function = getattr(nlgmetrics, metric)
    return function(hyps) if refs is None else function(hyps, refs)


@pytest.mark.parametrize("metric", REFERENCE_METRICS)
def test_other_metrics_share_the_input_rules(metric):
    with pytest.raises(ValueError, match="1 entries but there are 2 hypotheses"):
        score_other(metric, ["a b", "c d"], ["a b"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str, got NoneType"):
        score_other(metric, ["a", None], ["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\]"):
        score_other(metric, ["a"], [b"a"])
    with pytest.raises(TypeError, match="not a single str"):
        score_other(metric, "abc", ["a", "b", "c"])
    with pytest.raises(ValueError, match="more than the limit of 1,000,000 per segment"):
        score_other(metric, ["a"], ["x" * 1_000_001])
    with pytest.raises(ValueError, match=r"hypotheses\[1\] contains a lone surrogate"):
        score_other(metric, ["a", "a \ud800 b"], ["a", "a b"])
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] contains a lone surrogate"):
        score_other(metric, ["a", "a b"], ["a", "a \ud800 b"])


@pytest.mark.parametrize("metric", ONE_REFERENCE)
def test_one_reference_metrics_refuse_several(metric):
    with pytest.raises(ValueError, match=r"references\[1\] has 2 references"):
        score_other(metric, ["a", "b"], [["a"], ["b", "c"]])


@pytest.mark.parametrize("metric", OUTPUT_METRICS)
def test_output_metrics_share_the_input_rules(metric):
    with pytest.raises(TypeError, match=r"outputs\[1\] must be str, got NoneType"):
        score_other(metric, ["a", None])
    with pytest.raises(TypeError, match="not a single str"):
        score_other(metric, "abc")
    with pytest.raises(ValueError, match="more than the limit of 1,000,000 per segment"):
        score_other(metric, ["x" * 1_000_001, "a"])
    with pytest.raises(ValueError, match=r"outputs\[0\] contains a lone surrogate"):
        score_other(metric, ["a \ud800 b", "a"])
