"""Columns in: pandas/polars/PyArrow/NumPy columns give exactly the list input's statistics (WMT22 en-de, two
references), Arrow data is read in place, and bad columns get errors naming the column and row."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")

from nlgmetrics import _core  # noqa: E402
from nlgmetrics.io.columns import text_batch  # noqa: E402

_BLEU = {"tokenize": "13a", "max_order": 4, "smooth": "exp", "smooth_value": None, "effective_order": False,
         "weights": None}
_CHRF_PLUS_PLUS = {"char_order": 6, "word_order": 2, "beta": 2, "whitespace": False, "eps_smoothing": False}
_TER = {"normalized": False, "no_punct": False, "asian_support": False}
_ROUGE = {"variants": ["rouge1", "rougeL"], "tokenizer": "unicode_words", "stemmer": False}
_METEOR = {"language": "en", "modules": ["exact"], "weights": [1.0], "parameters": [0.85, 0.2, 0.6, 0.75],
           "normalization": "norm", "char_based": False, "beam_size": 40,
           "max_candidates": _core.METEOR_MAX_CANDIDATES, "formula": "meteor15"}


def _bleu_stats(hypotheses, references):
    return _core.SegmentScorer("bleu", _BLEU).segment_stats(hypotheses, references)[0]


def _kernels(batch):
    """Every batch kernel on one text batch: BLEU, chrF++, TER, ROUGE (rouge_score) and METEOR statistics."""
    h, r = batch.hypotheses, batch.references
    meteor = _core.MeteorScorer(_METEOR, function_words=[], nonbreaking_prefixes=[])
    return {
        "bleu": _bleu_stats(h, r),
        "chrf": _core.SegmentScorer("chrf", _CHRF_PLUS_PLUS).segment_stats(h, r)[0],
        "ter": _core.SegmentScorer("ter", _TER).segment_stats(h, r)[0][:, 0],
        "rouge": _core.SegmentScorer("rouge", _ROUGE).segment_stats(h, r)[0],
        "meteor": meteor.score_batch(h, r)[0],
    }


def _columns(kind, hyps, ref_a, ref_b):
    """The same texts as columns of one kind; references as two columns or one list column."""
    pairs = [[a, b] for a, b in zip(ref_a, ref_b)]
    if kind == "pyarrow":
        return pa.array(hyps), [pa.array(ref_a), pa.array(ref_b)]
    if kind == "pyarrow-chunked-large-list":
        return (pa.chunked_array([pa.array(hyps[:500], pa.large_string()), pa.array(hyps[500:], pa.large_string())]),
                pa.array(pairs, pa.large_list(pa.string())))
    if kind == "pyarrow-view-sliced":
        padded = pa.array(["x"] + hyps, pa.string_view()).slice(1)
        return padded, pa.array([["x"]] + pairs).slice(1)
    if kind == "pandas":
        return pd.Series(hyps), pd.DataFrame({"A": ref_a, "B": ref_b})
    if kind == "pandas-object":
        return pd.Series(hyps, dtype=object), [pd.Series(ref_a, dtype=object), pd.Series(ref_b, dtype=object)]
    if kind == "polars":
        return pl.Series("hyp", hyps), pl.Series("refs", pairs)
    if kind == "numpy":
        return np.array(hyps), [np.array(ref_a), np.array(ref_b, dtype=object)]
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["pyarrow", "pyarrow-chunked-large-list", "pyarrow-view-sliced", "pandas",
                                  "pandas-object", "polars", "numpy"])
def test_columns_give_the_list_statistics(wmt22_two_refs, kind):
    hyps, ref_a, ref_b = wmt22_two_refs
    expected = _kernels(text_batch(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]))
    batch = text_batch(*_columns(kind, hyps, ref_a, ref_b))
    assert len(batch) == len(hyps) and batch.reference_counts() == [2] * len(hyps)
    assert batch.hypotheses_list() == hyps
    if kind not in ("pandas-object",):
        assert batch.arrow  # read from Arrow buffers, no str per row
    for name, stats in _kernels(batch).items():
        assert np.array_equal(stats, expected[name]), name


def test_arrow_input_matches_sacrebleu(wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    import nlgmetrics

    hyps, ref_a, ref_b = wmt22_two_refs
    batch = text_batch(pa.array(hyps), pa.table({"a": ref_a, "b": ref_b}))
    stats = _bleu_stats(batch.hypotheses, batch.references)
    expected = sacrebleu.BLEU()
    for index in range(0, len(hyps), 97):  # sampled evenly: sacreBLEU's own statistics per segment
        assert stats[index].tolist() == expected._extract_corpus_statistics([hyps[index]], [[ref_a[index]], [ref_b[index]]])[0]
    totals = stats.sum(axis=0).tolist()
    assert nlgmetrics.bleu(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]).score == \
        sacrebleu.corpus_bleu(hyps, [ref_a, ref_b]).score
    corpus_scoring = {"max_order": 4, "smooth": "exp", "smooth_value": None, "effective_order": False, "weights": None}
    assert _core.bleu_score_from_stats(totals, corpus_scoring)[0] == \
        pytest.approx(sacrebleu.corpus_bleu(hyps, [ref_a, ref_b]).score, rel=1e-12)


def test_nulls_error_names_the_column_and_row():
    with pytest.raises(ValueError, match=r"hypotheses \('hyp'\)\[1\] is null"):
        text_batch(pl.Series("hyp", ["a", None]), pl.Series(["a", "b"]))
    with pytest.raises(ValueError, match=r"references column 1 \('B'\)\[0\] is null"):
        text_batch(["a", "b"], pd.DataFrame({"A": ["a", "b"], "B": [None, "b"]}))
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] is null"):
        text_batch(pa.array(["a", "b"]), pa.array([["a"], [None]]))
    with pytest.raises(ValueError, match=r"hypotheses\[2\] is null"):
        text_batch(np.array(["a", "b", None], dtype=object), np.array(["a", "b", "c"], dtype=object))


def test_nulls_empty_and_skip():
    hyps = pa.array(["a b", None, "c d", "e"])
    refs = pa.table({"A": ["a b", "x", None, None], "B": ["a", "y", "c d", None]})
    empty = text_batch(hyps, refs, nulls="empty")
    assert empty.hypotheses_list() == ["a b", "", "c d", "e"]
    assert empty.references_lists() == [["a b", "a"], ["x", "y"], ["", "c d"], ["", ""]]
    assert empty.rows is None
    skip = text_batch(hyps, refs, nulls="skip")  # row 1: null hypothesis; row 3: no reference
    assert skip.rows.tolist() == [0, 2]
    assert skip.hypotheses_list() == ["a b", "c d"]
    assert skip.references_lists() == [["a b", "a"], ["c d"]]
    listed = text_batch(pa.array(["a", "b"]), pa.array([None, ["b", None]]), nulls="skip")
    assert listed.rows.tolist() == [1] and listed.references_lists() == [["b"]]


def test_bad_columns():
    with pytest.raises(TypeError, match=r"hypotheses must hold strings, got Arrow type int64"):
        text_batch(pa.array([1, 2]), pa.array(["a", "b"]))
    with pytest.raises(TypeError, match=r"references \('r'\) must hold strings, got Arrow type double"):
        text_batch(["a"], pd.Series([1.5], name="r"))
    with pytest.raises(TypeError, match=r"NumPy array of dtype int64"):
        text_batch(np.array([1, 2]), ["a", "b"])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be str, got int"):
        text_batch(pd.Series(["a", 3], dtype=object), ["a", "b"])
    with pytest.raises(ValueError, match=r"references column 1 has 1 rows but there are 2 hypotheses"):
        text_batch(pa.array(["a", "b"]), [pa.array(["a", "b"]), pa.array(["a"])])
    with pytest.raises(ValueError, match=r"nulls must be one of"):
        text_batch(["a"], ["a"], nulls="drop")


def test_core_checks_arrow_buffers():
    data = np.frombuffer(b"ab\xffcd", np.uint8)
    with pytest.raises(ValueError, match=r"column\[1\] is not valid UTF-8"):
        _core.ArrowStrings(np.array([0, 2, 5], np.int32), data)
    with pytest.raises(ValueError, match=r"offsets decrease"):
        _core.ArrowStrings(np.array([0, 3, 2], np.int32), data)
    with pytest.raises(ValueError, match=r"outside the data buffer of 5 bytes"):
        _core.ArrowStrings(np.array([0, 9], np.int64), data)
    with pytest.raises(ValueError, match=r"splits a UTF-8 character"):
        _core.ArrowStrings(np.array([0, 2, 3], np.int32), np.frombuffer("aé".encode(), np.uint8))
    with pytest.raises(TypeError, match=r"int32 or int64"):
        _core.ArrowStrings(np.array([0, 1], np.float64), data)
    good = _core.ArrowStrings(np.array([0, 2], np.int32), data)
    with pytest.raises(ValueError, match=r"list offset 1 is 5, outside the 1 values"):
        _core.ArrowReferences.from_lists(np.array([0, 5], np.int64), good)
    with pytest.raises(ValueError, match=r"column 1 has 2 rows but column 0 has 1"):
        _core.ArrowReferences.from_columns([good, _core.ArrowStrings(np.array([0, 1, 2], np.int32), data)])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):  # a list column row without references
        _bleu_stats(good, _core.ArrowReferences.from_lists(np.array([0, 0], np.int64), good))
