"""nlgmetrics.dask on Dask's local schedulers: corpus results identical to the single-process call and to
sacreBLEU, per-row scores identical to the segment scores, on WMT22 en-de (two references). Marked ``dask``."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.dask
pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

import dask  # noqa: E402
from _engines import ENGINE_CASES, assert_single_process_result  # noqa: E402

import nlgmetrics  # noqa: E402
import nlgmetrics.dask  # noqa: E402


@pytest.fixture(scope="module")
def frame(wmt22_two_refs, tmp_path_factory):
    """The data as users have it: Parquet files (three, so three partitions) read by ``dd.read_parquet``."""
    import pyarrow.parquet as pq

    hyps, ref_a, ref_b = wmt22_two_refs
    table = pa.table({"id": range(len(hyps)), "hyp": hyps, "ref_a": ref_a, "ref_b": ref_b,
                      "refs": [[a, b] for a, b in zip(ref_a, ref_b)]})
    folder = tmp_path_factory.mktemp("dask")
    bounds = [0, 700, 1400, len(hyps)]
    for part, (start, stop) in enumerate(zip(bounds, bounds[1:])):
        pq.write_table(table.slice(start, stop - start), folder / f"part-{part}.parquet")
    ddf = dd.read_parquet(str(folder))
    assert ddf.npartitions == 3
    return ddf


def per_hypothesis(ref_a, ref_b):
    return [[a, b] for a, b in zip(ref_a, ref_b)]


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_score_is_the_single_process_result(frame, wmt22_two_refs, metric, options):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.dask.score(frame, metric, hyp="hyp", refs=["ref_a", "ref_b"], **options)
    assert_single_process_result(got, metric, options, hyps, per_hypothesis(ref_a, ref_b))


def test_bleu_matches_sacrebleu_from_a_list_column_on_processes(frame, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    with dask.config.set(scheduler="processes", num_workers=2):
        got = nlgmetrics.dask.score(frame, "bleu", hyp="hyp", refs="refs")  # one column of reference lists
    expected = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    assert (got.score, list(got.counts), list(got.totals)) == (expected.score, expected.counts, expected.totals)


def test_with_segment_scores(frame, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    scored = nlgmetrics.dask.with_segment_scores(frame, "bleu", hyp="hyp", refs=["ref_a", "ref_b"], output="bleu",
                                                 effective_order=True).compute()
    expected = nlgmetrics.bleu(hyps, per_hypothesis(ref_a, ref_b), effective_order=True).segment_scores
    assert list(scored["id"]) == list(range(len(hyps)))
    assert np.array_equal(scored["bleu"].to_numpy(), expected)
    assert list(scored.columns) == ["id", "hyp", "ref_a", "ref_b", "refs", "bleu"]


def test_errors(frame):
    with pytest.raises(ValueError, match=r"DataFrame: no column 'reference'"):
        nlgmetrics.dask.score(frame, "bleu", hyp="hyp", refs=["reference"])
    with pytest.raises(ValueError, match=r"already has a column 'hyp'"):
        nlgmetrics.dask.with_segment_scores(frame, "bleu", hyp="hyp", refs="ref_a", output="hyp")
    # A pandas column of Python lists: Dask turns object columns into strings unless they are typed as lists.
    lists = pd.Series([["a b", "x"], ["c d"]], dtype=pd.ArrowDtype(pa.list_(pa.string())))
    typed = dd.from_pandas(pd.DataFrame({"hyp": ["a b", "c d"], "refs": lists}), npartitions=2)
    assert nlgmetrics.dask.score(typed, "bleu", hyp="hyp", refs="refs").score == \
        nlgmetrics.bleu(["a b", "c d"], [["a b", "x"], ["c d"]]).score
    with_null = dd.from_pandas(pd.DataFrame({"hyp": ["a b", None, "c d"], "ref": ["a b", "c d", "c d"]}), npartitions=1)
    with pytest.raises(ValueError, match=r"hypotheses column 'hyp', references \['ref'\]: hypotheses\[1\] is null"):
        nlgmetrics.dask.score(with_null, "bleu", hyp="hyp", refs="ref")
    skipped = nlgmetrics.dask.with_segment_scores(with_null, "chrf", hyp="hyp", refs="ref", nulls="skip").compute()
    assert np.isnan(skipped["score"][1])
    assert skipped["score"][0] == nlgmetrics.chrf(["a b"], ["a b"]).segment_scores[0]
    assert nlgmetrics.dask.score(with_null, "chrf", hyp="hyp", refs="ref", nulls="skip").score == \
        nlgmetrics.chrf(["a b", "c d"], ["a b", "c d"]).score


def test_several_metrics_in_one_pass(frame, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.dask.score(frame, {"bleu": {}, "chrf": {"word_order": 2}}, hyp="hyp", refs=["ref_a", "ref_b"])
    assert sorted(got) == ["bleu", "chrf"]
    assert_single_process_result(got["bleu"], "bleu", {}, hyps, per_hypothesis(ref_a, ref_b))
    assert_single_process_result(got["chrf"], "chrf", {"word_order": 2}, hyps, per_hypothesis(ref_a, ref_b))
    with pytest.raises(ValueError, match=r"with_segment_scores takes one metric, got \['bleu', 'chrf'\]"):
        nlgmetrics.dask.with_segment_scores(frame, ["bleu", "chrf"], hyp="hyp", refs="ref_a")
