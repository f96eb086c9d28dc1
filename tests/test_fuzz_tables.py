"""Property test of the table readers (``nlgmetrics score``'s input): any bytes as a Parquet, JSONL, CSV or TSV
file — random ones, and mutations of real WMT22 files — are either read or refused with a one-line
``TableError`` (a ValueError); never another exception, a hang or a crash. ``fuzz/python/fuzz_tables.py`` runs the
same check under atheris for longer campaigns."""

from __future__ import annotations

import io

import pytest

pa = pytest.importorskip("pyarrow")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from nlgmetrics.io.tabular import TableError, check_text_column, read_batches  # noqa: E402

FORMATS = ("jsonl", "csv", "tsv", "parquet")


def read_all(path: str, kind: str) -> int:
    """Rows read with the checks ``score`` applies (columns present, text, no nulls), or TableError."""
    rows = 0
    for batch in read_batches(path, ["hyp", "ref"], format=kind, batch_rows=64):
        for column in ("hyp", "ref"):
            check_text_column(batch, column, path, rows, "error")
        rows += batch.num_rows
    return rows


def seed_file(kind: str) -> bytes:
    """A small real table (WMT22 en-de lines) in ``kind``."""
    hyps = ["Sie können jederzeit wiederkommen.", "3) Tippen Sie auf Einstellungen.", 'Der Hund "bellt", laut.']
    table = pa.table({"hyp": hyps, "ref": hyps[::-1]})
    sink = io.BytesIO()
    if kind == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, sink)
    elif kind == "jsonl":
        import json

        sink.write("".join(json.dumps({"hyp": h, "ref": r}, ensure_ascii=False) + "\n"
                           for h, r in zip(hyps, hyps[::-1])).encode())
    else:
        import pyarrow.csv as pacsv

        pacsv.write_csv(table, sink, pacsv.WriteOptions(delimiter="\t" if kind == "tsv" else ","))
    return sink.getvalue()


def check(tmp_path, kind: str, data: bytes) -> None:
    path = tmp_path / f"t.{kind}"
    path.write_bytes(data)
    try:
        read_all(str(path), kind)
    except TableError as error:
        assert "\n" not in str(error)


@pytest.mark.parametrize("kind", FORMATS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_random_bytes(tmp_path, kind, data):
    check(tmp_path, kind, data)


@pytest.mark.parametrize("kind", FORMATS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6),
       cut=st.integers(0, 10_000))
def test_mutated_real_files(tmp_path, kind, edits, cut):
    data = bytearray(seed_file(kind))
    for position, value in edits:
        data[position % len(data)] = value
    check(tmp_path, kind, bytes(data[: max(1, cut % (len(data) + 1))]))
