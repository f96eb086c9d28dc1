"""jiwer 4.0's own test cases against ``nlgmetrics.compat.jiwer`` (and, as a check of the port, against jiwer).

jiwer's suite is not in its installed package, so its cases are ported here from github.com/jitsi/jiwer at the
4.0.0 release commit 19e88ea: tests/test_measures.py, tests/test_cer.py, tests/test_empty_ref.py,
tests/test_transforms.py, tests/test_alignment.py and tests/test_count_errors.py (expected values as there;
test_large_vocab.py and test_speed.py are timing and size checks, covered by the WMT22 comparisons). Every case runs on the facade and on the installed jiwer;
then the facade equals jiwer on real data (WMT22 en-de, one reference) with its default and standardising
transforms.
"""

from __future__ import annotations

import pytest

import nlgmetrics.compat.jiwer as facade

real_jiwer = pytest.importorskip("jiwer")


@pytest.fixture(params=["facade", "jiwer"])
def jiwer(request):
    return facade if request.param == "facade" else real_jiwer


def _all(wer, mer, wil):
    return {"wer": wer, "mer": mer, "wip": 1 - wil, "wil": wil}


def _measures(output):
    return {"wer": output.wer, "mer": output.mer, "wip": output.wip, "wil": output.wil}


# tests/test_measures.py (TestMeasuresDefaultTransform / TestMeasuresContiguousSentencesTransform)
INPUT_FORMS = [
    ("This is a test", "This is a test", _all(0, 0, 0)),
    ("This is a test", "", _all(1, 1, 1)),
    ("This is a test", "This test", _all(0.5, 0.5, 0.5)),
    ("This is a test", ["This is a test"], _all(0, 0, 0)),
    ("This is a test", [""], _all(1, 1, 1)),
    ("This is a test", ["This test"], _all(0.5, 0.5, 0.5)),
    (["This is a test"], "This is a test", _all(0, 0, 0)),
    (["This is a test"], "", _all(1, 1, 1)),
    (["This is a test"], "This test", _all(0.5, 0.5, 0.5)),
    (["This is a test"], ["This is a test"], _all(0, 0, 0)),
    (["This is a test"], [""], _all(1, 1, 1)),
    (["This is a test"], ["This test"], _all(0.5, 0.5, 0.5)),
]
KNOWN_VALUES = [  # "From WER and RIL to MER and WIL" (Morris et al.), as cited there
    ("X", "X", _all(0, 0, 0)),
    ("X", "X X Y Y", _all(3, 0.75, 0.75)),
    ("X Y X", "X Z", _all(2 / 3, 2 / 3, 5 / 6)),
    ("X", "Y", _all(1, 1, 1)),
    ("X", "Y Z", _all(2, 1, 1)),
]
DEFAULT_ONLY = [
    (["i", "am i good"], ["i am", "i good"], _all(0.5, 0.4, 7 / 16)),
    (["am i good", "i"], ["i good", "i am"], _all(0.5, 0.4, 7 / 16)),
]
CONTIGUOUS_ONLY = [
    (["i", "am i good"], ["i am", "i good"], _all(0.0, 0.0, 0)),
    (["am i good", "i"], ["i good", "i am"], _all(0.5, 0.4, 7 / 16)),
    (["hello", "this", "sentence", "is fractured"], ["this sentence"], _all(0.6, 0.6, 0.6)),
    ("i am a short ground truth", "i am a considerably longer and very much incorrect hypothesis",
     _all(7 / 6, 0.7, 0.85)),
]


@pytest.mark.parametrize("ref,hyp,expected", INPUT_FORMS + KNOWN_VALUES + DEFAULT_ONLY)
def test_measures_default_transform(jiwer, ref, hyp, expected):
    got = _measures(jiwer.process_words(reference=ref, hypothesis=hyp))
    assert got == pytest.approx(expected, abs=1e-15)
    for name in ("wer", "mer", "wil", "wip"):
        assert getattr(jiwer, name)(ref, hyp) == pytest.approx(expected[name], abs=1e-15)


@pytest.mark.parametrize("ref,hyp,expected", INPUT_FORMS + KNOWN_VALUES + CONTIGUOUS_ONLY)
def test_measures_contiguous_transform(jiwer, ref, hyp, expected):
    contiguous = jiwer.transformations.wer_contiguous
    got = _measures(jiwer.process_words(reference=ref, hypothesis=hyp, reference_transform=contiguous,
                                        hypothesis_transform=contiguous))
    assert got == pytest.approx(expected, abs=1e-15)


def test_contiguous_sentences_equal_one_sentence(jiwer):
    contiguous = jiwer.transformations.wer_contiguous
    split = jiwer.process_words(["i like monthy python", "what do you mean african or european swallow"],
                                ["i like", "python", "what you mean", "or swallow"], contiguous, contiguous)
    joined = jiwer.process_words("i like monthy python what do you mean african or european swallow",
                                 "i like python what you mean or swallow", contiguous, contiguous)
    assert _measures(split) == pytest.approx(_measures(joined), abs=1e-9)


def test_fail_on_different_sentence_length(jiwer):
    for method in (jiwer.process_words, jiwer.wer, jiwer.wil, jiwer.wip, jiwer.mer, jiwer.cer):
        with pytest.raises(ValueError):
            method(["hello", "this", "sentence", "is fractured"], ["this sentence"])


# tests/test_cer.py
CER_CASES = [
    ("This is a test", "This is a test", 0 / 14), ("This is a test", "", 14 / 14),
    ("This is a test", "This test", 5 / 14), ("This is a test", ["This test"], 5 / 14),
    (["This is a test"], "This test", 5 / 14), (["This is a test"], [""], 14 / 14),
    ("X", "X", 0), ("X", "X X Y Y", 6), ("X Y X", "X Z", 3 / 5), ("X", "Y", 1), ("X", "Y Z", 3),
    (["i", "am i good"], ["i am", "i good"], 0.6), (["am i good", "i"], ["i good", "i am"], 0.6),
]


@pytest.mark.parametrize("ref,hyp,expected", CER_CASES)
def test_cer(jiwer, ref, hyp, expected):
    value = jiwer.cer(reference=ref, hypothesis=hyp)
    assert isinstance(value, float) and value == pytest.approx(expected, abs=1e-15)
    assert jiwer.process_characters(ref, hyp).cer == pytest.approx(expected, abs=1e-15)


# tests/test_empty_ref.py
def test_empty_references(jiwer):
    for count in range(10):
        out = jiwer.process_words(*(("", "") if count == 0 else ([""] * count, [""] * count)))
        assert (out.hits, out.deletions, out.insertions, out.substitutions) == (0, 0, 0, 0)
        assert (out.wer, out.mer, out.wip, out.wil) == (0, 0, 1, 0)
    out = jiwer.process_words(reference="", hypothesis="hello")
    assert (out.insertions, out.wer, out.mer, out.wip, out.wil) == (1, 1, 1, 0, 1)
    for count in range(2, 11):
        out = jiwer.process_words(reference="", hypothesis=" ".join(str(j) for j in range(count)))
        assert (out.insertions, out.wer, out.mer, out.wip, out.wil) == (count, count, 1, 0, 1)
    out = jiwer.process_words(reference="hello", hypothesis="")
    assert (out.deletions, out.wer, out.mer, out.wip, out.wil) == (1, 1, 1, 0, 1)
    out = jiwer.process_words(reference=["hello world", ""], hypothesis=["hello world", "done"])
    assert out.insertions == 1 and out.wer == pytest.approx(1 / 2) and out.mer == pytest.approx(1 / 3)
    assert out.wil == pytest.approx(1 / 3) and out.wip == pytest.approx(2 / 3)
    alone = jiwer.process_words(["hello world"], ["hello world"])
    padded = jiwer.process_words(["hello world", ""], ["hello world", ""])
    assert _measures(alone) == _measures(padded) and alone.hits == padded.hits
    for ref, hyp, expected in (("", "", 0), ("", "a", 1), ("", "abd", 3), ("a", "", 1), ("abc", "", 1)):
        assert jiwer.process_characters(ref, hyp).cer == expected


# tests/test_transforms.py: (transform, [(input, output), …])
def _transform_cases(t):
    return [
        (t.ReduceToSingleSentence(), [(["this is one", "is two"], ["this is one is two"]),
                                      (["one", "two", "three", "", "five six"], ["one two three five six"]),
                                      ([""], [])]),
        (t.ReduceToSingleSentence("_"), [(["this_is_one", "is_two"], ["this_is_one_is_two"]), ([""], [])]),
        (t.ReduceToListOfListOfWords(), [("this is a test", [["this", "is", "a", "test"]]), ("", [[]]),
                                         (["one", "two", "three", "", "five six"],
                                          [["one"], ["two"], ["three"], [], ["five", "six"]]),
                                         ([], [[]]), ([""], [[]]), (["", "", ""], [[], [], []])]),
        (t.ReduceToListOfListOfWords("_"), [("this_is_a_test", [["this", "is", "a", "test"]])]),
        (t.ReduceToListOfListOfChars(), [("", [[]]), (["one", "", "a b"], [["o", "n", "e"], [], ["a", " ", "b"]]),
                                         ([], [[]]), ([""], [[]]), (["", "", ""], [[], [], []])]),
        (t.RemoveSpecificWords(["yhe", "yeah", "a", "he", "the"]),
         [(["yhe about that bug"], ["  about that bug"]), (["yhe", "about", "bug"], [" ", "about", "bug"]),
          (["about bug yhe"], ["about bug  "]), (["he asked a helpful question"], ["  asked   helpful question"]),
          ("yhe awesome", "  awesome"), ("the apple is not a pear", "  apple is not   pear"), ("yhe", " ")]),
        (t.RemoveWhiteSpace(), [("this is an example", "thisisanexample"), ("hello\tworld\n\r", "helloworld")]),
        (t.RemoveWhiteSpace(replace_by_space=True), [("hello\tworld\n\r", "hello world  ")]),
        (t.RemovePunctuation(), [("this is an example!", "this is an example"), ("hello. goodbye", "hello goodbye"),
                                 ("word༆’'", "word"), ("‘no’", "no"), ("“yes”", "yes")]),
        (t.RemoveMultipleSpaces(), [(["this is   an   example "], ["this is an example "]),
                                    (["  hello goodbye  "], [" hello goodbye "]), (["  "], [" "])]),
        (t.SubstituteWords({"pretty": "awesome", "you": "i", "'re": " am", "foo": "bar"}),
         [(["you're pretty"], ["i am awesome"]), (["your book"], ["your book"]), (["foobar"], ["foobar"])]),
        (t.SubstituteRegexes({r"doom": r"sacr", r"\b(\w+)ed\b": r"\1"}),
         [(["is the world doomed or loved?"], ["is the world sacr or lov?"]),
          (["edibles are allegedly cultivated"], ["edibles are allegedly cultivat"])]),
        (t.Strip(), [([" this is an example "], ["this is an example"]), (["  "], [""])]),
        (t.RemoveEmptyStrings(), [([""], []), (["this is an example"], ["this is an example"]), ([" "], [])]),
        (t.ExpandCommonEnglishContractions(), [(["she'll make sure you can't make it"],
                                                ["she will make sure you can not make it"]),
                                               (["let's party!"], ["let us party!"])]),
        (t.ToLowerCase(), [(["You're PRETTY"], ["you're pretty"])]),
        (t.ToUpperCase(), [(["You're amazing"], ["YOU'RE AMAZING"])]),
        (t.RemoveKaldiNonWords(), [(["you <unk> like [laugh]"], ["you  like "])]),
    ]


def test_transforms(jiwer):
    for transform, cases in _transform_cases(jiwer.transforms):
        for given, expected in cases:
            assert transform(given) == expected, (type(transform).__name__, given)
    with pytest.raises(ValueError, match="expected to be a string or list of strings"):
        jiwer.transforms.Strip()(3)


def test_alignment_chunks(jiwer):
    out = jiwer.process_words("the quick brown fox", "the quick red fox jumps")
    assert [(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in out.alignments[0]] == [
        ("equal", 0, 2, 0, 2), ("substitute", 2, 3, 2, 3), ("equal", 3, 4, 3, 4), ("insert", 4, 4, 4, 5)]
    with pytest.raises(ValueError):
        jiwer.AlignmentChunk("equal", 3, 2, 0, 0)
    with pytest.raises(ValueError, match="should be a list of strings"):
        jiwer.process_words("a b", "a b", reference_transform=jiwer.transforms.Strip())


# --------------------------------------------------------------------------- real data: facade == jiwer

@pytest.fixture(scope="module")
def wmt22(wmt22_two_refs):
    hyps, ref_a, _ = wmt22_two_refs
    return ref_a[:500], hyps[:500]


@pytest.mark.parametrize("transform", ["wer_default", "wer_standardize", "wer_contiguous"])
def test_facade_equals_jiwer_on_wmt22(wmt22, transform):
    refs, hyps = wmt22
    ours = facade.process_words(refs, hyps, getattr(facade, transform), getattr(facade, transform))
    theirs = real_jiwer.process_words(refs, hyps, getattr(real_jiwer, transform), getattr(real_jiwer, transform))
    assert (ours.hits, ours.substitutions, ours.deletions, ours.insertions) == \
        (theirs.hits, theirs.substitutions, theirs.deletions, theirs.insertions)
    assert (ours.wer, ours.mer, ours.wil, ours.wip) == (theirs.wer, theirs.mer, theirs.wil, theirs.wip)
    assert ours.references == theirs.references and ours.hypotheses == theirs.hypotheses
    assert [[vars(c) for c in row] for row in ours.alignments] == [[vars(c) for c in row] for row in theirs.alignments]
    for name in ("wer", "mer", "wil", "wip"):
        assert getattr(facade, name)(refs, hyps) == pytest.approx(getattr(real_jiwer, name)(refs, hyps), abs=1e-12)
    assert facade.cer(refs, hyps) == pytest.approx(real_jiwer.cer(refs, hyps), abs=1e-12)
    chars = facade.process_characters(refs[:50], hyps[:50])
    assert chars.cer == real_jiwer.process_characters(refs[:50], hyps[:50]).cer


# tests/test_alignment.py and tests/test_count_errors.py (jiwer 4.0.0, 19e88ea)
ALIGNMENTS = [
    ("this is a", "this is a test", "=== SENTENCE 1 ===\n\nREF: this is a ****\nHYP: this is a test\n                  I\n"),
    ("this is a test", "this is a", "=== SENTENCE 1 ===\n\nREF: this is a test\nHYP: this is a ****\n                  D\n"),
    ("this is a test", "this was a test",
     "=== SENTENCE 1 ===\n\nREF: this  is a test\nHYP: this was a test\n            S       \n"),
    ("this is a test of skill", "this was a messy test",
     "=== SENTENCE 1 ===\n\nREF: this  is a ***** test of skill\nHYP: this was a messy test ** *****\n"
     "            S       I       D     D\n"),
]


@pytest.mark.parametrize("ref,hyp,expected", ALIGNMENTS)
def test_visualize_alignment(jiwer, ref, hyp, expected):
    assert jiwer.visualize_alignment(jiwer.process_words(ref, hyp), show_measures=False) == expected


def test_visualize_alignment_with_measures(jiwer):
    expected = ("=== SENTENCE 1 ===\n\nREF: this test will have a high word error rate\n"
                "HYP:   no   it will  not * **** **** ***** ****\n        S    S         S D    D    D     D    D\n\n"
                "=== SUMMARY ===\nnumber of sentences: 1\nsubstitutions=3 deletions=5 insertions=0 hits=1\n\n"
                "mer=88.89%\nwil=97.22%\nwip=2.78%\nwer=88.89%\n")
    out = jiwer.process_words("this test will  have a high word error rate", "no it will not")
    assert jiwer.visualize_alignment(out, show_measures=True) == expected


COUNT_REFS = ["sub", "sub", "sub", "sub", "sub", "this was", "del", "hit"]
COUNT_HYPS = ["bus", "bus", "bus", "usb", "bsu", "this was ins", "", "hit"]


def test_error_counts(jiwer):
    words = jiwer.process_words(COUNT_REFS, COUNT_HYPS)
    assert jiwer.visualize_error_counts(words) == (
        "=== SUBSTITUTIONS ===\nsub --> bus = 3x\nsub --> usb = 1x\nsub --> bsu = 1x\n\n"
        "=== INSERTIONS ===\nins = 1x\n\n=== DELETIONS ===\ndel = 1x")
    assert jiwer.visualize_error_counts(jiwer.process_characters(COUNT_REFS, COUNT_HYPS)) == (
        "=== SUBSTITUTIONS ===\ns --> b = 3x\nb --> s = 3x\n\n=== INSERTIONS ===\nu    = 1x\nb    = 1x\n ins = 1x\n\n"
        "=== DELETIONS ===\nu   = 1x\nb   = 1x\ndel = 1x")
    assert jiwer.visualize_error_counts(words, top_k=1) == (
        "=== SUBSTITUTIONS ===\nsub --> bus = 3x\n\n=== INSERTIONS ===\nins = 1x\n\n=== DELETIONS ===\ndel = 1x")
    for flag, title in (("show_substitutions", "SUBSTITUTIONS"), ("show_insertions", "INSERTIONS"),
                        ("show_deletions", "DELETIONS")):
        assert f"=== {title} ===" not in jiwer.visualize_error_counts(words, **{flag: False})


@pytest.mark.parametrize("line_width", [None, 40])
def test_alignment_views_equal_jiwers_on_wmt22(wmt22, line_width):
    refs, hyps = wmt22
    for process in ("process_words", "process_characters"):
        n = 500 if process == "process_words" else 40
        ours = getattr(facade, process)(refs[:n], hyps[:n])
        theirs = getattr(real_jiwer, process)(refs[:n], hyps[:n])
        for show_measures in (True, False):
            for skip_correct in (True, False):
                assert facade.visualize_alignment(ours, show_measures, skip_correct, line_width) == \
                    real_jiwer.visualize_alignment(theirs, show_measures, skip_correct, line_width)
        assert facade.visualize_error_counts(ours, top_k=7) == real_jiwer.visualize_error_counts(theirs, top_k=7)
        assert [dict(counts) for counts in facade.collect_error_counts(ours)] == \
            [dict(counts) for counts in real_jiwer.collect_error_counts(theirs)]
