"""`nlgmetrics score` on real WMT22 en-de tables (two references): the same numbers as the Python API and
sacreBLEU, per-row score columns, JSONL on stdin, and one-line errors with no partial output."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

import nlgmetrics  # noqa: E402
from nlgmetrics.cli.commands import main  # noqa: E402


@pytest.fixture()
def parquet(tmp_path, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    path = tmp_path / "wmt22_two_refs.parquet"
    pq.write_table(pa.table({"id": range(len(hyps)), "hyp": hyps, "ref_a": ref_a, "ref_b": ref_b}), path,
                   row_group_size=700)
    return str(path)


def _run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_corpus_scores_match_the_api_and_sacrebleu(capsys, parquet, wmt22_two_refs):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, ref_a, ref_b = wmt22_two_refs
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    status, out, err = _run(capsys, "score", parquet, "-m", "bleu,chrf,ter,rouge", "--hyp", "hyp", "--ref", "ref_a",
                            "--ref", "ref_b", "--option", "chrf.word_order=2", "--batch-rows", "500", "-f", "json")
    assert status == 0 and err == ""
    scores = json.loads(out)
    assert scores["bleu"]["score"] == sacrebleu.corpus_bleu(hyps, [ref_a, ref_b]).score
    assert scores["chrf"]["score"] == sacrebleu.corpus_chrf(hyps, [ref_a, ref_b], word_order=2).score
    assert scores["chrf"]["signature"] == str(nlgmetrics.chrf(hyps, refs, word_order=2).signature)
    assert scores["ter"]["score"] == pytest.approx(nlgmetrics.ter(hyps, refs).score, rel=1e-12)
    assert scores["rouge"]["score"] == nlgmetrics.rouge(hyps, refs).score


@pytest.mark.parametrize("extension", [".parquet", ".jsonl", ".csv"])
def test_output_rows_with_score_columns(capsys, tmp_path, parquet, wmt22_two_refs, extension):
    hyps, ref_a, ref_b = wmt22_two_refs
    out = tmp_path / f"scored{extension}"
    status, text, _ = _run(capsys, "score", parquet, "-m", "bleu,chrf", "--hyp", "hyp", "--ref", "ref_a", "--ref",
                           "ref_b", "--option", "bleu.effective_order=true", "--output", str(out), "--batch-rows", "600")
    assert status == 0 and "Signatures:" in text
    from nlgmetrics.io.tabular import read_batches

    table = pa.Table.from_batches(list(read_batches(str(out), ["id", "hyp", "bleu", "chrf"])))
    assert table.num_rows == len(hyps) and table.column("hyp").to_pylist() == hyps
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    bleu = nlgmetrics.bleu(hyps, refs, effective_order=True).segment_scores
    chrf = nlgmetrics.chrf(hyps, refs).segment_scores
    assert np.array_equal(np.array(table.column("bleu").to_pylist(), dtype=float), bleu)
    assert np.array_equal(np.array(table.column("chrf").to_pylist(), dtype=float), chrf)


def test_jsonl_on_stdin_with_a_list_column(capsys, monkeypatch, wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs
    lines = "".join(json.dumps({"hyp": h, "refs": [a, b]}, ensure_ascii=False) + "\n"
                    for h, a, b in zip(hyps[:300], ref_a, ref_b))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode("utf-8"))))
    status, out, _ = _run(capsys, "score", "-", "-m", "bleu", "--hyp", "hyp", "--ref", "refs", "-f", "json")
    assert status == 0
    expected = nlgmetrics.bleu(hyps[:300], [[a, b] for a, b in zip(ref_a[:300], ref_b)])
    assert json.loads(out)["bleu"]["score"] == expected.score


def test_nulls_options(capsys, tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"hyp": "the cat sat on the mat", "ref": "the cat sat on the mat"}\n'
                    '{"hyp": null, "ref": "a dog"}\n')
    status, _, err = _run(capsys, "score", str(path), "--hyp", "hyp", "--ref", "ref")
    assert status == 1 and err.strip() == f"nlgmetrics: error: {path}: column 'hyp' is null in row 2"
    out = tmp_path / "out.jsonl"
    status, _, _ = _run(capsys, "score", str(path), "-m", "chrf", "--hyp", "hyp", "--ref", "ref", "--nulls", "skip",
                        "--output", str(out))
    assert status == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["chrf"] == 100.0 and rows[1]["chrf"] is None


def test_errors_are_one_line_and_leave_no_output(capsys, tmp_path, parquet):
    out = tmp_path / "scored.parquet"
    status, _, err = _run(capsys, "score", parquet, "--hyp", "hyp", "--ref", "reference", "--output", str(out))
    assert status == 1 and err.count("\n") == 1
    assert err.startswith(f"nlgmetrics: error: {parquet}: no column 'reference' (columns: id, hyp, ref_a, ref_b)")
    assert not out.exists()
    # A null far into the file: batches before it were written to the temporary file, which must vanish.
    table = pq.read_table(parquet)
    hyps = table.column("hyp").to_pylist()
    hyps[1500] = None
    broken = tmp_path / "broken.parquet"
    pq.write_table(table.set_column(1, "hyp", pa.array(hyps)), broken)
    status, _, err = _run(capsys, "score", str(broken), "--hyp", "hyp", "--ref", "ref_a", "--output", str(out),
                          "--batch-rows", "500")
    assert status == 1 and err.strip() == f"nlgmetrics: error: {broken}: column 'hyp' is null in row 1501"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.parquet", "wmt22_two_refs.parquet"]
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(open(parquet, "rb").read()[:5000])
    status, _, err = _run(capsys, "score", str(truncated), "--hyp", "hyp", "--ref", "ref_a")
    assert status == 1 and "truncated.parquet: not a readable Parquet file" in err
    status, _, err = _run(capsys, "score", parquet, "--hyp", "id", "--ref", "ref_a")
    assert status == 1 and err.strip() == f"nlgmetrics: error: {parquet}: column 'id' holds int64, not strings"
    status, _, err = _run(capsys, "score", parquet, "-m", "bleu", "--hyp", "hyp", "--ref", "ref_a", "--option", "chrf.x=1")
    assert status == 1 and "is for 'chrf', which is not among the metrics (bleu)" in err



def test_score_runs_with_steady_allocator_settings(parquet, wmt22_two_refs):
    """The command switches Arrow to the system allocator and fixes glibc's mmap threshold (io.memory), and
    scores the same; run in a child process, since the settings are process-wide."""
    import subprocess

    code = ("import sys, pyarrow as pa; from nlgmetrics.cli.commands import main; "
            "status = main(['score', sys.argv[1], '-m', 'bleu', '--hyp', 'hyp', '--ref', 'ref_a', '--ref', 'ref_b', "
            "'-f', 'json']); print(pa.default_memory_pool().backend_name, file=sys.stderr); sys.exit(status)")
    child = subprocess.run([sys.executable, "-c", code, parquet], capture_output=True, text=True, check=True)
    assert child.stderr.split()[-1] == "system"
    hyps, ref_a, ref_b = wmt22_two_refs
    assert json.loads(child.stdout)["bleu"]["score"] == nlgmetrics.bleu(hyps, [[a, b] for a, b in zip(ref_a, ref_b)]).score
    if sys.platform.startswith("linux") and __import__("platform").libc_ver()[0] == "glibc":  # mallopt took it
        check = subprocess.run([sys.executable, "-c", "from nlgmetrics.io.memory import steady_peak_memory as s; "
                                "print(s())"], capture_output=True, text=True, check=True)
        assert check.stdout.strip() == "True"


def test_a_folder_of_part_files(capsys, tmp_path, wmt22_parquet_folder, wmt22_two_refs):
    """What Spark, Dask and Ray write (part files, ``_SUCCESS``, ``.crc``): the files' rows in path order."""
    hyps, ref_a, ref_b = wmt22_two_refs
    refs = [[a, b] for a, b in zip(ref_a, ref_b)]
    out = tmp_path / "scored.jsonl"
    status, text, err = _run(capsys, "score", str(wmt22_parquet_folder), "-m", "bleu,chrf", "--hyp", "hyp", "--ref",
                             "refs", "-f", "json", "--output", str(out), "--batch-rows", "300")
    assert status == 0 and err == ""
    scores = json.loads(text)
    assert scores["bleu"]["score"] == nlgmetrics.bleu(hyps, refs).score
    assert scores["chrf"]["score"] == nlgmetrics.chrf(hyps, refs).score
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == list(range(len(hyps)))
    assert np.array_equal(np.array([row["chrf"] for row in rows]), nlgmetrics.chrf(hyps, refs).segment_scores)


def test_a_folder_errors_name_the_part_file_and_its_row(capsys, tmp_path):
    folder = tmp_path / "parts"
    folder.mkdir()
    pq.write_table(pa.table({"hyp": ["a b", "c d"], "ref": ["a b", "c d"]}), folder / "part-0.parquet")
    pq.write_table(pa.table({"hyp": ["e f", None], "ref": ["e f", "g h"]}), folder / "part-1.parquet")
    out = tmp_path / "scored.parquet"
    status, _, err = _run(capsys, "score", str(folder), "--hyp", "hyp", "--ref", "ref", "--output", str(out))
    assert status == 1 and err.strip() == f"nlgmetrics: error: {folder / 'part-1.parquet'}: column 'hyp' is null in row 2"
    assert not out.exists()
    (folder / "notes.txt").write_text("not a table\n")
    status, _, err = _run(capsys, "score", str(folder), "--hyp", "hyp", "--ref", "ref")
    assert status == 1 and "notes.txt: cannot tell the format from the extension '.txt'" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "_SUCCESS").write_text("")
    status, _, err = _run(capsys, "score", str(empty), "--hyp", "hyp", "--ref", "ref")
    assert status == 1 and err.strip() == f"nlgmetrics: error: {empty}: a directory without data files"
