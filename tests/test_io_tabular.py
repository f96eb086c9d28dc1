"""Tables in batches (Parquet, JSONL, CSV, TSV, JSONL on stdin) from real WMT17 data, and their errors:
one line naming the file, column and row; output files written whole or not at all."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest
from conftest import read_lines

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from nlgmetrics.io.tabular import TableError, TableWriter, check_text_column, read_batches  # noqa: E402

WMT17 = "mt/wmt17_en_de_sacrebleu_testset"


@pytest.fixture(scope="module")
def table(shared_data):
    folder = shared_data / WMT17
    hyp = read_lines(folder / "newstest2017.online-B.0.en-de.hyp.de")
    ref = read_lines(folder / "newstest2017.en-de.ref.de")
    return pa.table({"id": list(range(len(hyp))), "hyp": hyp, "ref": ref})


def _write(table, path):
    kind = os.path.splitext(str(path))[1]
    if kind == ".parquet":
        pq.write_table(table, path, row_group_size=1000)
    elif kind == ".jsonl":
        with open(path, "w", encoding="utf-8") as handle:
            for row in table.to_pylist():
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    elif kind == ".tsv":
        lines = ["\t".join(table.column_names)]
        lines += ["\t".join(map(str, row.values())) for row in table.to_pylist()]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        import pyarrow.csv as pc

        pc.write_csv(table, path)
    return str(path)


@pytest.mark.parametrize("extension", [".parquet", ".jsonl", ".csv", ".tsv"])
def test_reads_every_row_in_batches(tmp_path, table, extension):
    path = _write(table, tmp_path / f"wmt17{extension}")
    batches = list(read_batches(path, ["hyp", "ref"], batch_rows=1000))
    assert len(batches) >= 3  # streamed, not one batch
    got = pa.Table.from_batches(batches)
    assert got.column("hyp").to_pylist() == table.column("hyp").to_pylist()
    assert got.column("ref").to_pylist() == table.column("ref").to_pylist()


def test_reads_jsonl_on_stdin(monkeypatch, tmp_path, table):
    path = _write(table.slice(0, 50), tmp_path / "in.jsonl")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(open(path, "rb").read())))
    got = pa.Table.from_batches(list(read_batches("-", ["hyp"])))
    assert got.column("hyp").to_pylist() == table.column("hyp").to_pylist()[:50]


@pytest.mark.parametrize("extension", [".parquet", ".jsonl", ".csv", ".tsv"])
def test_writer_round_trip(tmp_path, table, extension):
    source = _write(table, tmp_path / "in.parquet")
    out = tmp_path / f"out{extension}"
    with TableWriter(str(out)) as writer:
        for batch in read_batches(source, ["hyp"], batch_rows=1000, all_columns=True):
            writer.write(batch.append_column("score", pa.array([len(t) + 1 / 3 for t in batch.column("hyp").to_pylist()])))
    got = pa.Table.from_batches(list(read_batches(str(out), ["hyp", "score"])))
    assert got.column("hyp").to_pylist() == table.column("hyp").to_pylist()
    scores = [float(value) for value in got.column("score").to_pylist()]  # CSV/TSV columns we name are read as text
    assert scores == [len(t) + 1 / 3 for t in table.column("hyp").to_pylist()]
    assert sorted(os.listdir(tmp_path)) == sorted(["in.parquet", out.name])  # no temporary left


def test_writer_leaves_nothing_on_error(tmp_path, table):
    out = tmp_path / "out.parquet"
    with pytest.raises(RuntimeError):
        with TableWriter(str(out)) as writer:
            writer.write(table.to_batches()[0])
            raise RuntimeError("scoring failed half-way")
    assert os.listdir(tmp_path) == []


def test_missing_column_and_file(tmp_path, table):
    path = _write(table, tmp_path / "in.csv")
    with pytest.raises(TableError, match=r"in\.csv: no column 'reference' \(columns: id, hyp, ref\)$"):
        next(read_batches(path, ["hyp", "reference"]))
    with pytest.raises(TableError, match=r"cannot read .*nothere\.parquet: no such file"):
        next(read_batches(str(tmp_path / "nothere.parquet"), ["hyp"]))
    with pytest.raises(TableError, match=r"cannot tell the format from the extension '\.txt'"):
        next(read_batches(str(tmp_path / "in.txt"), ["hyp"]))


def test_truncated_parquet(tmp_path, table):
    path = _write(table, tmp_path / "in.parquet")
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 2])
    with pytest.raises(TableError, match=r"in\.parquet: not a readable Parquet file"):
        list(read_batches(path, ["hyp"]))


def test_wrong_type_and_null_name_the_row(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"hyp": "a", "ref": 1}\n{"hyp": null, "ref": 2}\n')
    batch = next(read_batches(str(path), ["hyp", "ref"]))
    with pytest.raises(TableError, match=r"in\.jsonl: column 'ref' holds int64, not strings"):
        check_text_column(batch, "ref", str(path), 0)
    with pytest.raises(TableError, match=r"in\.jsonl: column 'hyp' is null in row 12$"):
        check_text_column(batch, "hyp", str(path), 10)
    # CSV text columns are read as strings whatever they look like, and empty fields are "" (not null).
    csv = tmp_path / "in.csv"
    csv.write_text("hyp,ref\n12,\n")
    batch = next(read_batches(str(csv), ["hyp", "ref"]))
    assert batch.column("hyp").to_pylist() == ["12"] and batch.column("ref").to_pylist() == [""]


def test_broken_jsonl_names_the_file(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"hyp": "a"}\n{"hyp": \n')
    with pytest.raises(TableError, match=r"in\.jsonl: cannot read it as jsonl \(line 2 of the file\): "):
        list(read_batches(str(path), ["hyp"]))
