"""WER, MER, WIL, WIP and CER against jiwer 4.0, segment by segment, with its alignments.

The data are MT outputs (WMT17 en→de systems, WMT22 zh→en systems) used as ASR-like transcripts:
jiwer's measures only compare token sequences, so any real text exercises them; the systems are
sampled evenly to keep the test fast. The Levenshtein fuzz below is synthetic (labelled).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from conftest import read_lines

import nlgmetrics
from nlgmetrics import _core

jiwer = pytest.importorskip("jiwer")
from rapidfuzz.distance import Levenshtein  # noqa: E402  (installed with jiwer)


def _systems(shared_data, pair_dir, ref_name, pattern, every):
    folder = shared_data / "mt" / pair_dir
    ref = read_lines(folder / ref_name)
    systems = sorted(folder.glob(pattern))
    return ref, [read_lines(path) for path in systems[::every]]


@pytest.fixture(scope="module")
def wmt17(shared_data):
    return _systems(shared_data, "wmt17_en_de_sacrebleu_testset", "newstest2017.en-de.ref.de",
                    "newstest2017.*.hyp.de", 4)


@pytest.fixture(scope="module")
def wmt22_zh_en(shared_data):
    return _systems(shared_data, "wmt22/zh-en", "generaltest2022.zh-en.ref.A.en", "generaltest2022.zh-en.hyp.*", 4)


def _chunks(output):
    return [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in sentence]
            for sentence in output.alignments]


@pytest.mark.parametrize("corpus", ["wmt17", "wmt22_zh_en"])
def test_corpus_measures_and_counts_equal_jiwer(corpus, request):
    ref, systems = request.getfixturevalue(corpus)
    for hyp in systems:
        words = jiwer.process_words(ref, hyp)
        result = nlgmetrics.wer(hyp, ref)
        assert result.score == words.wer
        for name in ("mer", "wil", "wip"):
            assert result.scores[name] == getattr(words, name)
            assert getattr(nlgmetrics, name)(hyp, ref).score == getattr(words, name)
        counts = tuple(result.scores[k] for k in ("substitutions", "deletions", "insertions", "hits"))
        assert counts == (words.substitutions, words.deletions, words.insertions, words.hits)
        chars = jiwer.process_characters(ref, hyp)
        cer = nlgmetrics.cer(hyp, ref)
        assert cer.score == chars.cer
        assert tuple(cer.segment_stats.sum(axis=0)) == (chars.substitutions, chars.deletions, chars.insertions,
                                                        chars.hits)


@pytest.mark.parametrize("corpus", ["wmt17", "wmt22_zh_en"])
def test_segments_and_alignments_equal_jiwer(corpus, request):
    ref, systems = request.getfixturevalue(corpus)
    for hyp in systems:
        result, cer = nlgmetrics.wer(hyp, ref), nlgmetrics.cer(hyp, ref)
        sample = range(0, len(hyp), 9)
        words = jiwer.process_words([ref[i] for i in sample], [hyp[i] for i in sample])
        chars = jiwer.process_characters([ref[i] for i in sample], [hyp[i] for i in sample])
        assert [[tuple(c) for c in result.alignment(i)] for i in sample] == _chunks(words)
        assert [[tuple(c) for c in cer.alignment(i)] for i in sample] == _chunks(chars)
        for i in sample:
            assert result.segment_scores[i] == jiwer.wer(ref[i], hyp[i])
            assert cer.segment_scores[i] == jiwer.cer(ref[i], hyp[i])


TRANSFORMS = {
    "lowercase": jiwer.ToLowerCase(),
    "expand_contractions": jiwer.ExpandCommonEnglishContractions(),
    "remove_kaldi_non_words": jiwer.RemoveKaldiNonWords(),
    "remove_punctuation": jiwer.RemovePunctuation(),
    "whitespace_to_space": jiwer.RemoveWhiteSpace(replace_by_space=True),
}


@pytest.mark.parametrize("options", [
    {"lowercase": True, "remove_punctuation": True},
    {"lowercase": True, "expand_contractions": True, "remove_kaldi_non_words": True, "whitespace_to_space": True},
    {"remove_punctuation": True},
])
def test_named_transforms_equal_jiwer_compose(options, wmt22_zh_en):
    ref, systems = wmt22_zh_en
    hyp = systems[0]
    chosen = [TRANSFORMS[name] for name in TRANSFORMS if options.get(name)]
    words = jiwer.Compose(chosen + [jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])
    chars = jiwer.Compose(chosen + [jiwer.Strip(), jiwer.ReduceToListOfListOfChars()])
    result = nlgmetrics.wer(hyp, ref, **options)
    expected = jiwer.process_words(ref, hyp, reference_transform=words, hypothesis_transform=words)
    assert (result.score, result.scores["hits"]) == (expected.wer, expected.hits)
    assert nlgmetrics.cer(hyp, ref, **options).score == jiwer.cer(ref, hyp, reference_transform=chars,
                                                                  hypothesis_transform=chars)
    # wer_standardize is the second option set
    if options.get("expand_contractions"):
        assert result.score == jiwer.wer(ref, hyp, reference_transform=jiwer.wer_standardize,
                                         hypothesis_transform=jiwer.wer_standardize)


def test_unicode_whitespace_and_tabs_split_like_jiwer():
    # labelled synthetic edge cases: Python's \s, a lone tab inside a word, strip of U+3000
    hyps = ["a\tb  c\u3000\u3000d ", "\u00a0x y", " ", "e\u2028f", "word"]
    refs = ["a b c d", "x  y", "z", "e f", "\u3000 "]
    for hyp, ref in zip(hyps, refs):
        assert nlgmetrics.wer([hyp], [ref]).score == jiwer.wer(ref, hyp)
        assert nlgmetrics.cer([hyp], [ref]).score == jiwer.cer(ref, hyp)
        assert nlgmetrics.cer([hyp], [ref], remove_multiple_spaces=True).score == jiwer.cer(
            ref, hyp, reference_transform=jiwer.Compose([jiwer.RemoveMultipleSpaces(), jiwer.Strip(),
                                                          jiwer.ReduceToListOfListOfChars()]),
            hypothesis_transform=jiwer.Compose([jiwer.RemoveMultipleSpaces(), jiwer.Strip(),
                                                jiwer.ReduceToListOfListOfChars()]))


def test_empty_references_and_hypotheses_follow_jiwer():
    # jiwer 4.0 does not raise on an empty reference: WER is then the number of inserted words
    for hyp, ref in (("a b", ""), ("", ""), ("", "a"), ("a", " ")):
        result = nlgmetrics.wer([hyp], [ref])
        for name in ("wer", "mer", "wil", "wip"):
            assert result.scores[name] == getattr(jiwer, name)(ref, hyp)
        assert nlgmetrics.cer([hyp], [ref]).score == jiwer.cer(ref, hyp)
    assert nlgmetrics.wer(["a", "b c"], ["", ""]).score == jiwer.wer(["", ""], ["a", "b c"]) == 3
    empty = nlgmetrics.wer([], [])
    assert (empty.score, empty.scores["wip"]) == (jiwer.wer([], []), jiwer.wip([], []))


def test_bad_input_is_refused_with_clear_errors():
    with pytest.raises(ValueError, match="references has 1 entries but there are 2 hypotheses"):
        nlgmetrics.wer(["a", "b"], ["a"])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 references"):
        nlgmetrics.wer(["a"], [["a", "b"]])
    assert nlgmetrics.wer(["a"], [["a"]]).score == 0.0
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str"):
        nlgmetrics.cer(["a", 3], ["a", "b"])
    with pytest.raises(TypeError, match="lowercase must be a bool"):
        nlgmetrics.wer(["a"], ["a"], lowercase="yes")
    with pytest.raises(ValueError, match="exclusive"):
        nlgmetrics.wer(["a"], ["a"], whitespace_to_space=True, remove_whitespace=True)
    with pytest.raises(ValueError, match=r"hypotheses\[0\] contains a lone surrogate"):
        nlgmetrics.wer(["\ud800"], ["a"])
    with pytest.raises(IndexError):
        nlgmetrics.wer(["a"], ["a"]).alignment(1)


def test_levenshtein_opcodes_equal_rapidfuzz_on_synthetic_sequences():
    # synthetic: random integer sequences, including ones long enough for rapidfuzz's Hirschberg split
    rng = random.Random(5)
    for trial in range(400):
        alphabet = rng.choice([2, 3, 30])
        length = rng.choice([0, 3, 63, 64, 65, 200]) if trial % 20 else rng.choice([2100, 2600])
        a = [rng.randrange(alphabet) for _ in range(length)]
        b = list(a)
        for _ in range(rng.choice([1, 5, 40])):
            at = rng.randrange(len(b) + 1)
            if at < len(b) and rng.random() < 0.5:
                b[at] = rng.randrange(alphabet)
            elif at < len(b):
                del b[at]
            else:
                b.append(rng.randrange(alphabet))
        if trial % 2:
            a, b = b, a
        expected = [("substitute" if op.tag == "replace" else op.tag, op.src_start, op.src_end, op.dest_start,
                     op.dest_end) for op in Levenshtein.opcodes(a, b)]
        assert _core.levenshtein_opcodes(a, b) == expected


def test_segment_stats_are_additive(wmt17):
    ref, systems = wmt17
    hyp = systems[0]
    whole = nlgmetrics.wer(hyp, ref)
    halves = [nlgmetrics.wer(hyp[:1000], ref[:1000]), nlgmetrics.wer(hyp[1000:], ref[1000:])]
    assert np.array_equal(np.vstack([h.segment_stats for h in halves]), whole.segment_stats)


def test_command_line_and_paired_test_run_through_the_registry(wmt17, tmp_path, capsys):
    from nlgmetrics.cli.commands import main

    ref, systems = wmt17
    (tmp_path / "ref").write_text("\n".join(ref[:300]) + "\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("\n".join(systems[0][:300]) + "\n", encoding="utf-8")
    assert main(["wer", "-r", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "--lowercase", "-f", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)[0]  # a list, one entry per -i file
    lower = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemoveMultipleSpaces(), jiwer.Strip(),
                           jiwer.ReduceToListOfListOfWords()])
    assert printed["score"] == jiwer.wer(ref[:300], systems[0][:300], reference_transform=lower,
                                         hypothesis_transform=lower)
    paired = nlgmetrics.paired_test({"a": systems[0][:200], "b": systems[1][:200]}, ref[:200],
                                    metrics=["wer", "cer"], test="bs", n_samples=100, seed=1)
    assert "wer" in str(paired).lower()
    assert nlgmetrics.wer(systems[0][:200], ref[:200]).ci(n_samples=50, seed=1).low <= jiwer.wer(ref[:200],
                                                                                                   systems[0][:200])
