"""Parquet files cut into slices of row groups (what ``score_parquet`` of Spark and Ray runs): the slices
cover every row group once, in order and about evenly; their states merged are the single-process result on
WMT22 en-de (two references); errors in the files are one line naming the file, column and row. The engines
themselves are tested in test_spark.py and test_ray.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402
from _engines import ENGINE_CASES, assert_single_process_result  # noqa: E402

import nlgmetrics  # noqa: E402
from nlgmetrics.io.parquet_slices import list_files, plan_slices, raise_failure, slice_state, task_threads  # noqa: E402
from nlgmetrics.io.partitions import PartitionScorer  # noqa: E402
from nlgmetrics.io.tabular import TableError  # noqa: E402


def _score(folder, metric, options, tasks, **scorer_options):
    scorer = PartitionScorer(metric, options, hyp="hyp", refs=["ref_a", "ref_b"], **scorer_options)
    plan = plan_slices(folder, scorer.columns, tasks=tasks)
    return scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices)


def test_data_files_are_listed_in_order_without_hidden_ones(wmt22_parquet_folder):
    _, files = list_files(wmt22_parquet_folder)
    assert [path.rsplit("/", 1)[1] for path in files] == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    _, one = list_files([str(wmt22_parquet_folder / "part-00001.parquet"), wmt22_parquet_folder / "part-00000.parquet"])
    assert [path.rsplit("/", 1)[1] for path in one] == ["part-00001.parquet", "part-00000.parquet"]  # as given


@pytest.mark.parametrize("tasks", [1, 2, 3, 7, 40])
def test_slices_cover_every_row_group_once_in_order_and_evenly(wmt22_parquet_folder, wmt22_two_refs, tasks):
    plan = plan_slices(wmt22_parquet_folder, ["hyp"], tasks=tasks)
    groups = [(piece.path, group) for part in plan.slices for piece in part.pieces for group in piece.row_groups]
    expected = [(path, group) for path in list_files(wmt22_parquet_folder)[1]
                for group in range(pq.ParquetFile(path).num_row_groups)]
    assert groups == expected
    assert plan.rows == sum(part.rows for part in plan.slices) == len(wmt22_two_refs[0])
    assert len(plan.slices) == len(expected) if tasks >= len(expected) else len(plan.slices) <= tasks
    largest_group = 400
    assert max(part.rows for part in plan.slices) - plan.rows / tasks <= largest_group


@pytest.mark.parametrize("metric, options", ENGINE_CASES)
def test_merged_slices_are_the_single_process_result(wmt22_parquet_folder, wmt22_two_refs, metric, options):
    hyps, ref_a, ref_b = wmt22_two_refs
    got = _score(wmt22_parquet_folder, metric, options, tasks=5)
    assert_single_process_result(got, metric, options, hyps, [[a, b] for a, b in zip(ref_a, ref_b)])


def test_bleu_of_slices_matches_sacrebleu(wmt22_parquet_folder, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    scorer = PartitionScorer("bleu", {}, hyp="hyp", refs="refs")  # the list<string> column
    plan = plan_slices(wmt22_parquet_folder, scorer.columns, tasks=4)
    got = scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices)
    expected = sacrebleu.corpus_bleu(hyps, [ref_a, ref_b])
    assert (got.score, list(got.counts), list(got.totals)) == (expected.score, expected.counts, expected.totals)


def test_a_task_error_is_raised_with_its_kind():
    with pytest.raises(TypeError, match="^bad type$"):
        raise_failure(("error", ("TypeError", "bad type")))
    with pytest.raises(TableError, match="^bad value$"):
        raise_failure(("error", ("ValueError", "bad value")))


def test_threads_per_task():
    assert [task_threads(cpus, slices) for cpus, slices in [(2, 2), (2, 1), (16, 4), (4, 0), (1, 9)]] == [1, 2, 4, 4, 1]


# --- errors: one line naming the file, the column and the row -------------------------------------------------

def _write(path, **columns):
    pq.write_table(pa.table(columns), path)
    return path


def test_a_path_that_does_not_exist(tmp_path):
    with pytest.raises(TableError, match=r"^cannot read .*missing\.parquet: no such file or directory$"):
        plan_slices(tmp_path / "missing.parquet", ["hyp"], tasks=2)
    with pytest.raises(TableError, match="no Parquet paths given"):
        plan_slices([], ["hyp"], tasks=2)
    with pytest.raises(TypeError, match="paths must be strings or path-like"):
        list_files([b"bytes.parquet"])
    with pytest.raises(TypeError, match=r"paths must be a path or a list of paths, got Table \(a DataFrame or Dataset "
                                        r"is scored by score\(\), not score_parquet\(\)\)"):
        list_files(pa.table({"hyp": ["a"]}))


def test_a_folder_without_data_files(tmp_path):
    (tmp_path / "_SUCCESS").write_bytes(b"")
    with pytest.raises(TableError, match=r"a directory without data files$"):
        plan_slices(tmp_path, ["hyp"], tasks=2)


def test_a_file_that_is_not_parquet_or_is_truncated(tmp_path, wmt22_parquet_folder):
    (tmp_path / "notes.txt").write_text("hello\n")
    with pytest.raises(TableError, match=r"notes\.txt: not a readable Parquet file \(truncated or not Parquet\)"):
        plan_slices(tmp_path, ["hyp"], tasks=2)
    whole = (wmt22_parquet_folder / "part-00000.parquet").read_bytes()
    truncated = tmp_path / "cut.parquet"
    truncated.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(TableError, match=r"cut\.parquet: not a readable Parquet file"):
        plan_slices(truncated, ["hyp"], tasks=2)


def test_data_damaged_after_the_footer_was_read(tmp_path, wmt22_parquet_folder):
    """A file whose footer is whole but whose pages are not: the task reports the file."""
    source = wmt22_parquet_folder / "part-00000.parquet"
    damaged = tmp_path / "damaged.parquet"
    shutil.copy(source, damaged)
    scorer = PartitionScorer("bleu", {}, hyp="hyp", refs="ref_a")
    plan = plan_slices(damaged, scorer.columns, tasks=1)
    data = bytearray(damaged.read_bytes())
    data[4:4000] = b"\xff" * 3996  # the first pages, after the magic bytes
    damaged.write_bytes(bytes(data))
    with pytest.raises(TableError, match=r"damaged\.parquet: the Parquet data is damaged or truncated"):
        raise_failure(slice_state(scorer, plan.slices[0], plan.filesystem))


def test_a_missing_column_names_the_file_and_its_columns(wmt22_parquet_folder):
    with pytest.raises(TableError, match=r"part-00000\.parquet: no column 'reference' \(columns: id, hyp, ref_a, ref_b, refs\)"):
        plan_slices(wmt22_parquet_folder, ["hyp", "reference"], tasks=2)


def test_a_column_that_is_not_text(tmp_path):
    path = _write(tmp_path / "ints.parquet", hyp=["a b", "c d"], ref=[1, 2])
    scorer = PartitionScorer("bleu", {}, hyp="hyp", refs="ref")
    plan = plan_slices(path, scorer.columns, tasks=1)
    with pytest.raises(TableError, match=r"ints\.parquet: column 'ref' holds int64, not strings$"):
        raise_failure(slice_state(scorer, plan.slices[0], plan.filesystem))


def test_a_null_names_the_file_and_row_unless_nulls_says_otherwise(tmp_path):
    path = _write(tmp_path / "nulls.parquet", hyp=["a b c", "d e f", None, "g h"], ref=["a b c", "d e", "x", "g h"])
    plan = plan_slices(path, ["hyp", "ref"], tasks=1)

    def state(nulls):
        scorer = PartitionScorer("chrf", {}, hyp="hyp", refs="ref", nulls=nulls)
        return scorer.merge([raise_failure(slice_state(scorer, plan.slices[0], plan.filesystem))])

    with pytest.raises(TableError, match=r"nulls\.parquet: column 'hyp' is null in row 3$"):
        state("error")
    assert state("skip").score == nlgmetrics.chrf(["a b c", "d e f", "g h"], ["a b c", "d e", "g h"]).score
    assert state("empty").score == nlgmetrics.chrf(["a b c", "d e f", "", "g h"], ["a b c", "d e", "x", "g h"]).score


def test_too_many_references_for_a_metric_name_the_file_and_rows(tmp_path):
    path = _write(tmp_path / "lists.parquet", hyp=["a b", "c d"], refs=[["c d"], ["c d", "a b"]])
    scorer = PartitionScorer("wer", {}, hyp="hyp", refs="refs")  # one reference per hypothesis, as jiwer
    plan = plan_slices(path, scorer.columns, tasks=1)
    with pytest.raises(TableError, match=r"lists\.parquet: rows 1–2: hypotheses column 'hyp', references \['refs'\]: "
                                         r"references\[1\] has 2 references: jiwer's measures take exactly one"):
        raise_failure(slice_state(scorer, plan.slices[0], plan.filesystem))


def test_absurd_task_counts(wmt22_parquet_folder):
    for tasks in (0, -3, 2.5, True, "2", None):
        with pytest.raises(ValueError, match="tasks must be a positive int"):
            plan_slices(wmt22_parquet_folder, ["hyp"], tasks=tasks)
    assert len(plan_slices(wmt22_parquet_folder, ["hyp"], tasks=10**9).slices) == 14  # one a row group


def test_uris_and_a_filesystem_object(wmt22_parquet_folder, wmt22_two_refs):
    from pyarrow import fs

    hyps, ref_a, ref_b = wmt22_two_refs
    expected = nlgmetrics.bleu(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]).score
    scorer = PartitionScorer("bleu", {}, hyp="hyp", refs=["ref_a", "ref_b"])
    for paths, filesystem in [(f"file://{wmt22_parquet_folder}", None), (str(wmt22_parquet_folder), fs.LocalFileSystem())]:
        plan = plan_slices(paths, scorer.columns, tasks=3, filesystem=filesystem)
        assert scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices).score == expected
    with pytest.raises(TableError, match=r"nosuchscheme://x: "):
        plan_slices("nosuchscheme://x", ["hyp"], tasks=1)
    with pytest.raises(TableError, match=r"mock:///data: on another filesystem \(mock\) than the first path \(local\); "
                                         r"score them separately"):
        plan_slices([wmt22_parquet_folder, "mock:///data"], ["hyp"], tasks=1)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_hostile_lines_in_parquet_are_scored_in_bounded_memory(tmp_path, metric):
    """Synthetic rows (labelled: no real text is like them): a 500 kB line and 3,000 repeated tokens, read and
    scored through a slice in a child limited to 3 GiB of address space: a result, as the same call on lists."""
    from test_hostile_inputs import run_limited

    long_line = ("x" * 9 + " ") * 50_000
    hyps, refs = [long_line, "a " * 3000, "the cat sat"], [long_line[::-1], "a " * 2999, "the cat sat down"]
    path = _write(tmp_path / "hostile.parquet", hyp=hyps, ref=refs)
    script = tmp_path / "score_slices.py"
    script.write_text(f"""
from nlgmetrics.io.parquet_slices import plan_slices, raise_failure, slice_state
from nlgmetrics.io.partitions import PartitionScorer
scorer = PartitionScorer({metric!r}, {{}}, hyp="hyp", refs="ref")
plan = plan_slices({str(path)!r}, scorer.columns, tasks=2)
score = scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices).score
""")
    assert run_limited(f"__import__('runpy').run_path({str(script)!r})['score']") == \
        {"value": nlgmetrics.metric(metric)(hyps, refs).score}


# The model-based metrics need a model (tiny ones here: tests/data/neural); COMET reads its sources from a column,
# which the lexical metrics' folder lacks, so it is covered on engines in tests/test_neural_engines.py.
MODEL_OPTIONS = {"bertscore": {"model": str(Path(__file__).parent / "data" / "neural" / "models" / "tiny-roberta"),
                               "num_layers": 1}}


@pytest.mark.parametrize("metric", [name for name in nlgmetrics.list_metrics() if name != "comet"])
def test_every_metric_through_slices_is_the_single_process_result(wmt22_parquet_folder, wmt22_two_refs, metric):
    """Every registered metric, one reference (reference A) per row, 4 slices over 3 files: the score of the
    one-process call on the same rows (sums merged exactly; per-segment rows joined in order)."""
    hyps, ref_a, _ = wmt22_two_refs
    options = MODEL_OPTIONS.get(metric, {})
    scorer = PartitionScorer(metric, options, hyp="hyp", refs="ref_a")
    plan = plan_slices(wmt22_parquet_folder, scorer.columns, tasks=4)
    got = scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices)
    expected = nlgmetrics.metric(metric, **options)._score_batch(hyps, ref_a)
    # a float32 encoder's numbers move with what shares a batch, by float noise only (DESIGN.md §7)
    tolerance = {"rel": 0, "abs": 1e-6} if metric in MODEL_OPTIONS else {"rel": 1e-12, "abs": 0}
    assert got.score == pytest.approx(expected.score, **tolerance)
    assert str(got.signature) == str(expected.signature)


# --- several metrics in one pass --------------------------------------------------------------------------------

def test_several_metrics_in_one_pass_are_each_the_single_process_result(wmt22_parquet_folder, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    scorer = PartitionScorer({"bleu": {}, "chrf": {"word_order": 2}, "ter": None, "rouge": {"variants": ["rougeL"]}},
                             {}, hyp="hyp", refs=["ref_a", "ref_b"])
    plan = plan_slices(wmt22_parquet_folder, scorer.columns, tasks=3)
    got = scorer.merge(raise_failure(slice_state(scorer, part, plan.filesystem)) for part in plan.slices)
    assert list(got) == ["bleu", "chrf", "ter", "rouge"]
    for (metric, options) in [("bleu", {}), ("chrf", {"word_order": 2}), ("ter", {}), ("rouge", {"variants": ["rougeL"]})]:
        assert_single_process_result(got[metric], metric, options, hyps, refs)


def test_shared_options_reach_every_metric_and_a_metric_own_options_win():
    scorer = PartitionScorer({"bleu": {"lowercase": False}, "chrf": {}}, {"lowercase": True}, hyp="hyp", refs="ref")
    table = pa.table({"hyp": ["The Cat sat on the mat"], "ref": ["the cat sat on the mat"]})
    got = scorer.merge([scorer.state_bytes([table])])
    assert got["chrf"].score == nlgmetrics.chrf(["The Cat sat on the mat"], ["the cat sat on the mat"], lowercase=True).score
    assert got["bleu"].score == nlgmetrics.bleu(["The Cat sat on the mat"], ["the cat sat on the mat"]).score < 100


@pytest.mark.parametrize("metric, error, message", [
    (["bleu", "bleu"], ValueError, r"a metric is listed twice in \['bleu', 'bleu'\]"),
    ([], ValueError, "no metric given"),
    ({}, ValueError, "no metric given"),
    ([3], TypeError, "metric names must be str, got int"),
    (7, TypeError, r"metric must be a metric name, a list of names or a \{name: options\} mapping, got int"),
    (["bleu", "blue"], ValueError, "unknown metric 'blue'"),
    ({"chrf": {"word_order": -1}}, ValueError, "word_order"),
])
def test_bad_metric_lists_fail_where_the_job_starts(metric, error, message):
    with pytest.raises(error, match=message):
        PartitionScorer(metric, {}, hyp="hyp", refs="ref")


def test_states_of_other_metrics_are_refused():
    one, two = (PartitionScorer(metric, {}, hyp="hyp", refs="ref") for metric in ("bleu", ["bleu", "chrf"]))
    table = pa.table({"hyp": ["a b"], "ref": ["a b"]})
    with pytest.raises(ValueError, match=r"a partition's states do not match the metrics \['bleu', 'chrf'\]"):
        two.merge([one.state_bytes([table])])
    with pytest.raises(ValueError, match=r"with_segment_scores takes one metric, got \['bleu', 'chrf'\]"):
        two.one_metric("with_segment_scores")
