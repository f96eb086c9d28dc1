"""nlgmetrics.ray on a local Ray instance with 2 CPUs: corpus results identical to the single-process call and
to sacreBLEU, per-row scores identical to the segment scores, on WMT22 en-de (two references). Marked ``ray``."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.ray
pa = pytest.importorskip("pyarrow")
pytest.importorskip("ray.data")

from _engines import ENGINE_CASES, assert_single_process_result  # noqa: E402

import nlgmetrics  # noqa: E402
import nlgmetrics.ray  # noqa: E402


@pytest.fixture(scope="module")
def dataset(ray_cluster, wmt22_two_refs):
    import ray.data

    hyps, ref_a, ref_b = wmt22_two_refs
    table = pa.table({"id": range(len(hyps)), "hyp": hyps, "ref_a": ref_a, "ref_b": ref_b,
                      "refs": [[a, b] for a, b in zip(ref_a, ref_b)]})
    return ray.data.from_arrow(table).repartition(3).materialize()


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_score_is_the_single_process_result(dataset, wmt22_two_refs, metric, options):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.ray.score(dataset, metric, hyp="hyp", refs=["ref_a", "ref_b"], batch_size=700, **options)
    assert_single_process_result(got, metric, options, hyps, [[a, b] for a, b in zip(ref_a, ref_b)])


def test_bleu_matches_sacrebleu(dataset, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.ray.score(dataset, "bleu", hyp="hyp", refs="refs")  # one list<string> column
    expected = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    assert (got.score, list(got.counts), list(got.totals)) == (expected.score, expected.counts, expected.totals)


def test_with_segment_scores(dataset, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    scored = nlgmetrics.ray.with_segment_scores(dataset, "bleu", hyp="hyp", refs=["ref_a", "ref_b"], output="bleu",
                                                effective_order=True)
    rows = sorted(scored.select_columns(["id", "bleu"]).take_all(), key=lambda row: row["id"])
    expected = nlgmetrics.bleu(hyps, [[a, b] for a, b in zip(ref_a, ref_b)], effective_order=True).segment_scores
    assert np.array_equal(np.array([row["bleu"] for row in rows]), expected)


def test_errors(ray_cluster, dataset):
    import ray.data

    with pytest.raises(ValueError, match=r"Dataset: no column 'reference'"):
        nlgmetrics.ray.score(dataset, "bleu", hyp="hyp", refs=["reference"])
    with_null = ray.data.from_arrow(pa.table({"hyp": ["a b", None], "ref": ["a b", "c d"]}))
    with pytest.raises(Exception, match=r"hypotheses column 'hyp', references \['ref'\]: hypotheses\[1\] is null"):
        nlgmetrics.ray.score(with_null, "bleu", hyp="hyp", refs="ref")
    skipped = nlgmetrics.ray.with_segment_scores(with_null, "chrf", hyp="hyp", refs="ref", nulls="skip").take_all()
    assert skipped[1]["score"] is None and skipped[0]["score"] == nlgmetrics.chrf(["a b"], ["a b"]).score


def test_tasks_score_on_the_cpus_ray_gives_them(ray_cluster, dataset, wmt22_two_refs):
    import ray

    from nlgmetrics.ray import _task_threads

    assert ray.get(ray.remote(num_cpus=1)(_task_threads).remote()) == 1  # one CPU per task: one Rust thread
    hyps, ref_a, ref_b = wmt22_two_refs
    expected = nlgmetrics.chrf(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]).score
    assert nlgmetrics.ray.score(dataset, "chrf", hyp="hyp", refs=["ref_a", "ref_b"], threads=2).score == expected


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_score_parquet_is_the_single_process_result(ray_cluster, wmt22_parquet_folder, wmt22_two_refs, metric, options):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.ray.score_parquet(wmt22_parquet_folder, metric, hyp="hyp", refs=["ref_a", "ref_b"], tasks=5,
                                       **options)
    assert_single_process_result(got, metric, options, hyps, [[a, b] for a, b in zip(ref_a, ref_b)])


def test_score_parquet_matches_sacrebleu_with_one_task_a_cpu(ray_cluster, wmt22_parquet_folder, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    got = nlgmetrics.ray.score_parquet(str(wmt22_parquet_folder), "bleu", hyp="hyp", refs="refs")  # 2 tasks, 1 thread
    expected = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    assert (got.score, list(got.counts), list(got.totals)) == (expected.score, expected.counts, expected.totals)


def test_one_slice_asks_for_no_more_cpus_than_a_node_has(ray_cluster, wmt22_parquet_folder, wmt22_two_refs,
                                                          monkeypatch):
    """On a cluster of several nodes, one slice (one file, one row group) takes as many threads as the largest
    node has CPUs, not the cluster's: asking Ray for more CPUs than a node has could never be scheduled."""
    import pyarrow.parquet as pq
    import ray

    hyps, ref_a, _ = wmt22_two_refs
    folder = wmt22_parquet_folder.parent / "one-row-group"
    folder.mkdir(exist_ok=True)
    pq.write_table(pa.table({"hyp": hyps, "ref": ref_a}), folder / "all.parquet", row_group_size=len(hyps))
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 64.0})  # as if 32 nodes of 2 CPUs
    got = nlgmetrics.ray.score_parquet(folder, "chrf", hyp="hyp", refs="ref")
    assert got.score == nlgmetrics.chrf(hyps, ref_a).score
    assert nlgmetrics.ray._largest_node_cpus() == 2


def test_score_parquet_errors_are_one_line_on_the_caller(ray_cluster, wmt22_parquet_folder, tmp_path):
    import pyarrow.parquet as pq

    from nlgmetrics.io.tabular import TableError

    with pytest.raises(TableError, match=r"part-00000\.parquet: no column 'reference'"):
        nlgmetrics.ray.score_parquet(wmt22_parquet_folder, "bleu", hyp="hyp", refs="reference")
    pq.write_table(pa.table({"hyp": ["a b", "c d", None], "ref": ["a b", "c d", "e f"]}), tmp_path / "nulls.parquet")
    with pytest.raises(TableError, match=r"^\S*nulls\.parquet: column 'hyp' is null in row 3$"):
        nlgmetrics.ray.score_parquet(tmp_path, "bleu", hyp="hyp", refs="ref")
    skipped = nlgmetrics.ray.score_parquet(tmp_path, "chrf", hyp="hyp", refs="ref", nulls="skip")
    assert skipped.score == nlgmetrics.chrf(["a b", "c d"], ["a b", "c d"]).score


def test_several_metrics_in_one_pass(ray_cluster, dataset, wmt22_parquet_folder, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    for got in (nlgmetrics.ray.score(dataset, ["bleu", "ter"], hyp="hyp", refs=["ref_a", "ref_b"]),
                nlgmetrics.ray.score_parquet(wmt22_parquet_folder, ["bleu", "ter"], hyp="hyp", refs=["ref_a", "ref_b"])):
        assert sorted(got) == ["bleu", "ter"]
        assert_single_process_result(got["bleu"], "bleu", {}, hyps, refs)
        assert_single_process_result(got["ter"], "ter", {}, hyps, refs)
    with pytest.raises(ValueError, match=r"with_segment_scores takes one metric, got \['bleu', 'ter'\]"):
        nlgmetrics.ray.with_segment_scores(dataset, ["bleu", "ter"], hyp="hyp", refs="ref_a")
