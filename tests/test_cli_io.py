"""Reading input files for the command line: alignment, decoding, and errors that name file and line."""

from __future__ import annotations

import pytest

from nlgmetrics.io.table import format_table
from nlgmetrics.io.text_files import InputFileError, decode_lines, read_aligned, read_lines


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_lines_split_on_newline_only_and_are_right_stripped():
    # U+2028 and a lone \r are content inside a segment, as in sacreBLEU's reader (newline="\n").
    assert decode_lines("a\u2028b \r\nc\rd\n\n".encode(), "f") == ["a\u2028b", "c\rd", ""]


def test_missing_final_newline_and_bom():
    assert decode_lines("\ufeffx\ny".encode(), "f") == ["x", "y"]
    assert decode_lines(b"", "f") == []


def test_undecodable_byte_names_file_line_and_column(tmp_path):
    path = write(tmp_path, "hyp.txt", b"fine\nalso fine\nbad \xff here\n")
    with pytest.raises(InputFileError, match=r"hyp.txt: line 3 is not valid UTF-8 \(byte 0xff at byte column 5\)"):
        read_lines(path)


def test_missing_file(tmp_path):
    with pytest.raises(InputFileError, match=r"cannot read .*nope.txt: No such file"):
        read_lines(str(tmp_path / "nope.txt"))


def test_hypothesis_and_reference_line_counts_must_agree(tmp_path):
    ref = write(tmp_path, "ref.txt", b"a\nb\nc\n")
    hyp = write(tmp_path, "hyp.txt", b"a\nb\n")
    with pytest.raises(InputFileError, match=r"hyp.txt has 2 lines but the references have 3"):
        read_aligned([hyp], [ref])


def test_reference_files_must_agree(tmp_path):
    ref_a = write(tmp_path, "a.txt", b"a\nb\n")
    ref_b = write(tmp_path, "b.txt", b"a\n")
    with pytest.raises(InputFileError, match=r"reference files differ in length: .*a.txt has 2 lines, .*b.txt has 1"):
        read_aligned([ref_a], [ref_a, ref_b])


def test_references_are_grouped_per_line(tmp_path):
    ref_a = write(tmp_path, "a.txt", b"a1\na2\n")
    ref_b = write(tmp_path, "b.txt", b"b1\nb2\n")
    hyp = write(tmp_path, "h.txt", b"h1\nh2\n")
    systems, references = read_aligned([hyp, hyp], [ref_a, ref_b])
    assert systems == [["h1", "h2"], ["h1", "h2"]]
    assert references == [["a1", "b1"], ["a2", "b2"]]


def test_table_alignment():
    table = format_table(["System", "Score", "Note"], [["x", "1.50", "ok"], ["longer", "10.25", "fine"]])
    assert table.splitlines() == ["System  Score  Note", "x        1.50  ok", "longer  10.25  fine"]
