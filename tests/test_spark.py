"""nlgmetrics.spark on a local[2] Spark session: corpus results identical to the single-process call and to
sacreBLEU, per-row scores identical to the segment scores, on WMT22 en-de (two references). Marked ``spark``."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.spark
pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")
import pyarrow.parquet as pq  # noqa: E402
from _engines import ENGINE_CASES, assert_single_process_result  # noqa: E402

import nlgmetrics  # noqa: E402
import nlgmetrics.spark  # noqa: E402


@pytest.fixture(scope="module")
def frame(spark, wmt22_two_refs, tmp_path_factory):
    hyps, ref_a, ref_b = wmt22_two_refs
    path = tmp_path_factory.mktemp("spark") / "wmt22_two_refs.parquet"
    table = pa.table({"id": range(len(hyps)), "hyp": hyps, "ref_a": ref_a, "ref_b": ref_b,
                      "refs": [[a, b] for a, b in zip(ref_a, ref_b)]})
    pq.write_table(table, path, row_group_size=500)
    df = spark.read.parquet(str(path)).coalesce(1).repartition(3)  # 3 partitions on 2 workers
    return df.sortWithinPartitions("id").cache()


def _inputs(df):
    rows = sorted(df.select("id", "hyp", "ref_a", "ref_b").collect(), key=lambda row: row["id"])
    return [r["hyp"] for r in rows], [[r["ref_a"], r["ref_b"]] for r in rows]


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_score_is_the_single_process_result(frame, metric, options):
    got = nlgmetrics.spark.score(frame, metric, hyp="hyp", refs=["ref_a", "ref_b"], **options)
    # The same rows in the order Spark's partitions hold them: the single-process call on them.
    order = [r["id"] for r in frame.select("id").collect()]
    hyps, refs = _inputs(frame)
    assert_single_process_result(got, metric, options, [hyps[i] for i in order], [refs[i] for i in order])


def test_bleu_matches_sacrebleu(frame, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.spark.score(frame, "bleu", hyp="hyp", refs="refs")  # one array<string> column
    assert got.score == sacrebleu.corpus_bleu(hyps, [ref_a, ref_b]).score


def test_with_segment_scores(frame, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    scored = nlgmetrics.spark.with_segment_scores(frame, "chrf", hyp="hyp", refs=["ref_a", "ref_b"], output="chrf")
    assert scored.columns == frame.columns + ["chrf"]
    rows = sorted(scored.select("id", "chrf").collect(), key=lambda row: row["id"])
    expected = nlgmetrics.chrf(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]).segment_scores
    assert np.array_equal(np.array([row["chrf"] for row in rows]), expected)


def test_errors(spark, frame):
    with pytest.raises(ValueError, match=r"DataFrame: no column 'reference'"):
        nlgmetrics.spark.score(frame, "bleu", hyp="hyp", refs=["reference"])
    with pytest.raises(ValueError, match=r"unknown metric 'blue'"):
        nlgmetrics.spark.score(frame, "blue", hyp="hyp", refs=["ref_a"])
    with_null = spark.createDataFrame([("a b", "a b"), (None, "c d")], "hyp string, ref string").coalesce(1)
    with pytest.raises(Exception, match=r"hypotheses column 'hyp', references \['ref'\]: hypotheses\[1\] is null"):
        nlgmetrics.spark.score(with_null, "bleu", hyp="hyp", refs="ref")
    skipped = nlgmetrics.spark.with_segment_scores(with_null, "chrf", hyp="hyp", refs="ref", nulls="skip").collect()
    assert skipped[1]["score"] is None and skipped[0]["score"] == nlgmetrics.chrf(["a b"], ["a b"]).score


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_score_parquet_is_the_single_process_result(spark, wmt22_parquet_folder, wmt22_two_refs, metric, options):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.spark.score_parquet(wmt22_parquet_folder, metric, hyp="hyp", refs=["ref_a", "ref_b"], spark=spark,
                                         tasks=5, **options)
    assert_single_process_result(got, metric, options, hyps, [[a, b] for a, b in zip(ref_a, ref_b)])


def test_score_parquet_matches_sacrebleu_in_the_active_session(spark, wmt22_parquet_folder, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.spark.score_parquet(str(wmt22_parquet_folder), "bleu", hyp="hyp", refs="refs")  # 2 tasks
    expected = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    assert (got.score, list(got.counts), list(got.totals)) == (expected.score, expected.counts, expected.totals)


def test_score_parquet_errors_are_one_line_on_the_driver(spark, wmt22_parquet_folder, tmp_path, monkeypatch):
    from pyspark.sql import SparkSession

    from nlgmetrics.io.tabular import TableError

    with pytest.raises(TableError, match=r"part-00000\.parquet: no column 'reference'"):
        nlgmetrics.spark.score_parquet(wmt22_parquet_folder, "bleu", hyp="hyp", refs="reference", spark=spark)
    pq.write_table(pa.table({"hyp": ["a b", "c d", None], "ref": ["a b", "c d", "e f"]}), tmp_path / "nulls.parquet")
    with pytest.raises(TableError, match=r"^\S*nulls\.parquet: column 'hyp' is null in row 3$"):
        nlgmetrics.spark.score_parquet(tmp_path, "bleu", hyp="hyp", refs="ref", spark=spark)
    skipped = nlgmetrics.spark.score_parquet(tmp_path, "chrf", hyp="hyp", refs="ref", spark=spark, nulls="skip")
    assert skipped.score == nlgmetrics.chrf(["a b", "c d"], ["a b", "c d"]).score
    with pytest.raises(ValueError, match=r"tasks must be a positive int, got 0"):
        nlgmetrics.spark.score_parquet(tmp_path, "chrf", hyp="hyp", refs="ref", spark=spark, tasks=0)
    monkeypatch.setattr(SparkSession, "getActiveSession", staticmethod(lambda: None))
    with pytest.raises(ValueError, match=r"no active Spark session: pass spark="):
        nlgmetrics.spark.score_parquet(tmp_path, "chrf", hyp="hyp", refs="ref")


def test_score_parquet_reads_a_folder_spark_wrote(spark, frame, tmp_path):
    """Spark's own output (part files, ``_SUCCESS``, ``.crc`` files): the rows of its part files, in order."""
    import pyarrow.dataset as ds

    folder = tmp_path / "written"
    frame.select("hyp", "ref_a", "ref_b").write.parquet(str(folder))
    assert (folder / "_SUCCESS").exists() and any(path.name.endswith(".crc") for path in folder.iterdir())
    table = ds.dataset(str(folder), format="parquet").to_table()  # PyArrow's order: the part files sorted by name
    hyps, refs = table["hyp"].to_pylist(), [list(pair) for pair in zip(table["ref_a"].to_pylist(), table["ref_b"].to_pylist())]
    for metric in ("bleu", "ter"):
        got = nlgmetrics.spark.score_parquet(folder, metric, hyp="hyp", refs=["ref_a", "ref_b"], spark=spark)
        assert_single_process_result(got, metric, {}, hyps, refs)
        assert got.score == pytest.approx(nlgmetrics.spark.score(frame, metric, hyp="hyp", refs=["ref_a", "ref_b"]).score,
                                          rel=1e-12)


def test_several_metrics_in_one_pass(spark, frame, wmt22_parquet_folder, wmt22_two_refs):
    order = [r["id"] for r in frame.select("id").collect()]
    hyps, refs = _inputs(frame)
    got = nlgmetrics.spark.score(frame, ["bleu", "chrf"], hyp="hyp", refs=["ref_a", "ref_b"], lowercase=True)
    for metric in ("bleu", "chrf"):
        assert_single_process_result(got[metric], metric, {"lowercase": True}, [hyps[i] for i in order],
                                     [refs[i] for i in order])
    in_files = nlgmetrics.spark.score_parquet(wmt22_parquet_folder, {"bleu": {}, "chrf": {"word_order": 2}}, hyp="hyp",
                                              refs=["ref_a", "ref_b"], spark=spark)
    hyps, ref_a, ref_b = wmt22_two_refs
    assert_single_process_result(in_files["chrf"], "chrf", {"word_order": 2}, hyps, [[a, b] for a, b in zip(ref_a, ref_b)])
    with pytest.raises(ValueError, match=r"with_segment_scores takes one metric, got \['bleu', 'chrf'\]"):
        nlgmetrics.spark.with_segment_scores(frame, ["bleu", "chrf"], hyp="hyp", refs="ref_a")
