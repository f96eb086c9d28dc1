"""atheris target: the table readers on arbitrary bytes (``pip install atheris``; ``python fuzz_tables.py FORMAT``).

The same property as tests/test_fuzz_tables.py, for long campaigns: every input is read or refused with a
one-line TableError; anything else is a finding.
"""

import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from nlgmetrics.io.tabular import TableError, check_text_column, read_batches

KIND = sys.argv.pop(1) if len(sys.argv) > 1 and sys.argv[1] in ("jsonl", "csv", "tsv", "parquet") else "jsonl"
PATH = os.path.join(tempfile.mkdtemp(), f"input.{KIND}")


def one_input(data: bytes) -> None:
    with open(PATH, "wb") as handle:
        handle.write(data)
    try:
        rows = 0
        for batch in read_batches(PATH, ["hyp", "ref"], format=KIND, batch_rows=64):
            for column in ("hyp", "ref"):
                check_text_column(batch, column, PATH, rows, "error")
            rows += batch.num_rows
    except TableError as error:
        assert "\n" not in str(error)


atheris.Setup(sys.argv, one_input)
atheris.Fuzz()
