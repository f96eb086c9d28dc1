"""Columns as users hold them (issue 22, item 3): a pandas ``object`` column whose cells are lists, tuples or NumPy
arrays of references — what ``pd.read_json``, ``pd.read_parquet`` and ``datasets``' ``to_pandas()`` give — scores
exactly like the list of lists, for every registered metric; and ``result.to_pandas()`` keeps the pandas index.

Real data: WMT22 en-de, Online-B with references A and B (the ``wmt22_two_refs`` fixture), checked against
sacreBLEU itself.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

from test_metric_interface import CASES, IDS  # noqa: E402

import nlgmetrics  # noqa: E402

N_ROWS = 150


@pytest.fixture(scope="module")
def frame(wmt22_two_refs):
    """The first rows of WMT22 en-de as a DataFrame read back from JSON lines: ``refs`` holds Python lists."""
    hyps, ref_a, ref_b = (column[:N_ROWS] for column in wmt22_two_refs)
    lines = "\n".join(json.dumps({"hyp": h, "refs": [a, b]}, ensure_ascii=False) for h, a, b in zip(hyps, ref_a, ref_b))
    return pd.read_json(io.StringIO(lines), lines=True)


def _cells(frame, kind):
    """The ``refs`` column with each cell a list, a tuple or a NumPy array (``pd.read_parquet`` gives arrays)."""
    if kind == "list":
        return frame["refs"]
    if kind == "tuple":
        return frame["refs"].map(tuple)
    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    buffer.seek(0)
    refs = pd.read_parquet(buffer)["refs"]
    assert isinstance(refs.iloc[0], np.ndarray)  # what a user holds after read_parquet
    return refs


@pytest.mark.parametrize("kind", ["list", "tuple", "ndarray"])
def test_cells_of_references_match_sacrebleu(frame, kind):
    import sacrebleu

    refs = _cells(frame, kind)
    got = nlgmetrics.bleu(frame["hyp"], refs)
    streams = [list(column) for column in zip(*frame["refs"])]
    expected = sacrebleu.corpus_bleu(frame["hyp"].tolist(), streams)
    assert got.score == pytest.approx(expected.score, abs=1e-12)
    assert list(got.counts) == list(expected.counts)
    chrf = nlgmetrics.chrf(frame["hyp"], refs)
    assert chrf.score == pytest.approx(sacrebleu.corpus_chrf(frame["hyp"].tolist(), streams).score, abs=1e-12)


@pytest.mark.parametrize("name,options,data,order_free", CASES, ids=IDS)
def test_every_metric_reads_cells_like_the_list_of_lists(frame, name, options, data, order_free):
    hyps = frame["hyp"]
    if data == "mt1":  # the contract cases of metrics that take one reference (jiwer, cer, charcut)
        refs = frame["refs"].map(lambda cell: cell[:1])  # one reference per cell
    else:
        refs = _cells(frame, "ndarray")
    expected = nlgmetrics.metric(name, **options)(hyps.tolist(), [list(cell) for cell in refs])
    got = nlgmetrics.metric(name, **options)(hyps, refs)
    assert got.score == expected.score
    np.testing.assert_array_equal(np.asarray(got.segment_scores), np.asarray(expected.segment_scores))


def test_update_reads_cells_too(frame):
    metric = nlgmetrics.metric("ter")
    for start in range(0, N_ROWS, 40):
        metric.update(frame["hyp"][start:start + 40], frame["refs"][start:start + 40])
    assert metric.compute().score == nlgmetrics.ter(frame["hyp"].tolist(), frame["refs"].tolist()).score


def test_bad_cells_name_the_row():
    hyps = pd.Series(["a b", "c d"])
    with pytest.raises(TypeError, match=r"references \('refs'\)\[1\]\[0\] must be str, got int"):
        nlgmetrics.bleu(hyps, pd.Series([["a b"], [3]], name="refs"))
    with pytest.raises(ValueError, match=r"references\[1\] is empty"):
        nlgmetrics.bleu(hyps, pd.Series([["a b"], []]))
    with pytest.raises(TypeError, match=r"references\[1\] must be a str or a list of str, got dict"):
        nlgmetrics.bleu(hyps, pd.Series([["a b"], {"x": 1}]))
    with pytest.raises(ValueError, match=r"references\[1\]\[1\] is null"):
        nlgmetrics.bleu(hyps, pd.Series([["a b"], ["c d", None]]))
    with pytest.raises(ValueError, match=r"references has 2 rows but there are 3 hypotheses"):
        nlgmetrics.bleu(pd.Series(["a", "b", "c"]), pd.Series([["a"], ["b"]]))


def test_null_cells_follow_the_nulls_option():
    hyps = pd.Series(["the cat sat", "a dog ran", "a bird"], index=[10, 11, 12])
    refs = pd.Series([["the cat sat", None], None, ["a bird flew"]], index=[10, 11, 12])
    metric = nlgmetrics.metric("bleu").update(hyps, refs, nulls="skip")
    assert metric.last_kept_rows.tolist() == [0, 2]
    expected = nlgmetrics.bleu(["the cat sat", "a bird"], [["the cat sat"], ["a bird flew"]])
    result = metric.compute()
    assert result.score == expected.score
    assert result.to_pandas().index.tolist() == [10, 12]
    empty = nlgmetrics.metric("bleu").update(hyps, refs, nulls="empty").compute()
    assert empty.score == nlgmetrics.bleu(hyps.tolist(), [["the cat sat", ""], [""], ["a bird flew"]]).score


def test_to_pandas_keeps_the_index_of_a_filtered_frame(frame):
    long_rows = frame[frame["hyp"].str.len() > 80]
    assert 0 < len(long_rows) < len(frame) and not long_rows.index.equals(pd.RangeIndex(len(long_rows)))
    scores = long_rows.copy()
    scores["bleu"] = nlgmetrics.bleu(long_rows["hyp"], long_rows["refs"]).to_pandas()["BLEU"]
    assert not scores["bleu"].isna().any()
    expected = nlgmetrics.bleu(long_rows["hyp"].tolist(), long_rows["refs"].tolist()).segment_scores
    np.testing.assert_array_equal(scores["bleu"].to_numpy(), expected)
    rouge = nlgmetrics.rouge(long_rows["hyp"], long_rows["refs"]).to_pandas()
    assert rouge.index.equals(long_rows.index)


def test_to_pandas_index_over_several_updates_and_none_after_a_merge(frame):
    metric = nlgmetrics.metric("chrf")
    metric.update(frame["hyp"][5:9], frame["refs"][5:9]).update(frame["hyp"][20:22], frame["refs"][20:22])
    assert metric.compute().to_pandas().index.tolist() == [5, 6, 7, 8, 20, 21]
    metric.update(frame["hyp"].tolist()[:1], frame["refs"].tolist()[:1])  # a batch without an index
    assert metric.compute().to_pandas().index.tolist() == list(range(7))
    merged = nlgmetrics.metric("chrf").update(frame["hyp"][5:9], frame["refs"][5:9]).merge(metric.state())
    assert merged.compute().to_pandas().index.tolist() == list(range(11))
