"""The command line a sacreBLEU user expects (issue 22, item 6), on WMT22 en-de (Online-B and PROMT, references
A and B) unless a test says its data is synthetic."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from conftest import read_lines

import nlgmetrics
from nlgmetrics.cli.commands import main

PAIR = "en-de"
N_LINES = 400


@pytest.fixture(scope="module")
def files(shared_data, tmp_path_factory):
    """The first lines of WMT22 en-de; the systems' files are named with LaTeX and spreadsheet specials."""
    folder = shared_data / "mt" / "wmt22" / PAIR
    out = tmp_path_factory.mktemp("wmt22-cut")
    names = {"ref_a": f"generaltest2022.{PAIR}.ref.A.de", "ref_b": f"generaltest2022.{PAIR}.ref.B.de",
             "=online_b&50%#$_{x}~^.de": f"generaltest2022.{PAIR}.hyp.Online-B.de",
             "promt.de": f"generaltest2022.{PAIR}.hyp.PROMT.de"}
    paths = {}
    for name, source in names.items():
        paths[name] = out / name
        paths[name].write_text("".join(line + "\n" for line in read_lines(folder / source)[:N_LINES]), encoding="utf-8")
    return paths


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_bleu_presets_at_sentence_level(files, capsys):
    hyps = read_lines(files["promt.de"])
    refs = read_lines(files["ref_a"])
    for preset in ("nltk", "coco"):
        status, out, err = _run(capsys, "bleu", "--preset", preset, "-sl", "-r", files["ref_a"], "-i", files["promt.de"],
                                "-w", "6")
        assert status == 0, err
        shown = [float(line.split("\t")[1]) for line in out.splitlines()]
        expected = nlgmetrics.bleu(hyps, refs, preset=preset).segment_scores
        assert len(shown) == N_LINES
        np.testing.assert_allclose(shown, np.round(expected, 6), atol=1e-12)


def test_latex_escapes_names_and_bolds_only_significant_improvements(files, capsys):
    online_b, promt = files["=online_b&50%#$_{x}~^.de"], files["promt.de"]
    status, latex, err = _run(capsys, "compare", "-m", "bleu,ter", "-r", files["ref_a"], "-i", promt, online_b,
                              "--paired-bs", "--n-samples", "200", "-f", "latex")
    assert status == 0, err
    assert r"\=online\_b\&50\%\#\$\_\{x\}\textasciitilde{}\textasciicircum{}.de".replace("\\=", "=") in latex
    systems = {"promt.de": read_lines(promt), online_b.name: read_lines(online_b)}
    tested = nlgmetrics.paired_test(systems, read_lines(files["ref_a"]), metrics=["bleu", "ter"], n_samples=200)
    row = [line for line in latex.splitlines() if line.startswith("=online")][0]
    bleu_cell, ter_cell = row.split(" & ")[1:]
    for metric, cell in (("BLEU", bleu_cell), ("TER", ter_cell)):
        entry, baseline = tested[metric][1], tested[metric][0]
        assert f"$p = {entry.p_value:.4f}$" in cell
        higher_better = metric == "BLEU"
        better = entry.score > baseline.score if higher_better else entry.score < baseline.score
        assert cell.startswith(r"\textbf{") == (better and entry.p_value < 0.05), (metric, cell)
    # a significantly WORSE system is not bold: swap baseline and system
    status, latex, _ = _run(capsys, "compare", "-m", "bleu,ter", "-r", files["ref_a"], "-i", online_b, promt,
                            "--paired-bs", "--n-samples", "200", "-f", "latex")
    swapped = nlgmetrics.paired_test({online_b.name: systems[online_b.name], "promt.de": systems["promt.de"]},
                                     read_lines(files["ref_a"]), metrics=["bleu", "ter"], n_samples=200)
    row = [line for line in latex.splitlines() if line.startswith("promt")][0]
    for metric, cell in zip(("BLEU", "TER"), row.split(" & ")[1:]):
        assert cell.startswith(r"\textbf{") == swapped.significantly_better(metric, 1)
    assert tested.significantly_better("BLEU", 1) != swapped.significantly_better("BLEU", 1) or \
        not (tested.significantly_better("BLEU", 1) or swapped.significantly_better("BLEU", 1))


def test_csv_keeps_full_precision_and_neutralises_formulas(files, capsys):
    online_b = files["=online_b&50%#$_{x}~^.de"]
    status, out, err = _run(capsys, "compare", "-m", "bleu,chrf", "-r", files["ref_a"], "-i", files["promt.de"],
                            online_b, "-f", "csv")
    assert status == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[2][0] == "'" + online_b.name  # a spreadsheet shows the text instead of running a formula
    expected = nlgmetrics.bleu(read_lines(online_b), read_lines(files["ref_a"])).score
    assert float(rows[2][1]) == expected and rows[2][1] == repr(expected)


def test_json_has_one_shape_whatever_the_number_of_files(files, capsys):
    one = json.loads(_run(capsys, "bleu", "-r", files["ref_a"], "-i", files["promt.de"], "-f", "json")[1])
    two = json.loads(_run(capsys, "bleu", "-r", files["ref_a"], "-i", files["promt.de"], files["promt.de"],
                          "-f", "json")[1])
    assert isinstance(one, list) and isinstance(two, list) and len(one) == 1 and len(two) == 2
    assert one[0].keys() == two[0].keys() and one[0]["score"] == two[1]["score"]
    sentence = json.loads(_run(capsys, "chrf", "-r", files["ref_a"], "-i", files["promt.de"], "-sl", "-f", "json")[1])
    assert isinstance(sentence, list) and len(sentence[0]["segment_scores"]) == N_LINES


def test_unknown_flags_print_the_subcommands_usage(files, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["bleu", "-r", str(files["ref_a"]), "--no-such-flag"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("usage: nlgmetrics bleu") and "--no-such-flag" in err
    with pytest.raises(SystemExit):
        main(["compare", "-r", str(files["ref_a"]), "-i", str(files["promt.de"]), "--paired-xx"])
    assert capsys.readouterr().err.startswith("usage: nlgmetrics compare")


def test_negative_width_is_a_clean_error(files):
    for command in (["bleu", "-r", files["ref_a"], "-i", files["promt.de"]], ["compare", "-r", files["ref_a"], "-i",
                                                                                 files["promt.de"]]):
        process = subprocess.run([sys.executable, "-m", "nlgmetrics", *map(str, command), "-w", "-3"],
                                 capture_output=True, text=True)
        assert process.returncode == 2 and process.stdout == ""
        assert "argument -w/--width: must be a whole number of decimals from 0 to 17, got '-3'" in process.stderr
        assert "Traceback" not in process.stderr


def test_o_is_the_output_file_for_score_and_report(files, tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"hyp": read_lines(files["promt.de"]), "ref": read_lines(files["ref_a"])}), table)
    scored = tmp_path / "scored.parquet"
    status, _, err = _run(capsys, "score", table, "--hyp", "hyp", "--ref", "ref", "-o", scored,
                          "--option", "bleu.tokenize=intl")
    assert status == 0, err
    np.testing.assert_array_equal(pq.read_table(scored).column("bleu").to_numpy(),
                                  nlgmetrics.bleu(read_lines(files["promt.de"]), read_lines(files["ref_a"]),
                                                  tokenize="intl").segment_scores)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_score_output_follows_the_umask(files, tmp_path, capsys, umask):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"hyp": read_lines(files["promt.de"])[:20], "ref": read_lines(files["ref_a"])[:20]}), table)
    previous = os.umask(umask)
    try:
        assert _run(capsys, "score", table, "--hyp", "hyp", "--ref", "ref", "-o", tmp_path / "out.jsonl")[0] == 0
    finally:
        os.umask(previous)
    assert (tmp_path / "out.jsonl").stat().st_mode & 0o777 == 0o666 & ~umask


def test_report_shows_a_bar_with_total_and_eta(files, capsys):
    systems = {"promt": read_lines(files["promt.de"])[:60], "online": read_lines(files["=online_b&50%#$_{x}~^.de"])[:60]}
    nlgmetrics.report(systems, read_lines(files["ref_a"])[:60], metrics=["bleu", "chrf"], n_samples=20, progress=True)
    err = capsys.readouterr().err
    final = err.replace("\r", "\n").strip().splitlines()[-1]
    assert re.search(r"report: 100%.*\b7/7 \[\d\d:\d\d<\d\d:\d\d", final), final  # 2 metrics × 2 systems + 3 steps
    nlgmetrics.report(systems, read_lines(files["ref_a"])[:60], metrics=["bleu"], n_samples=20)
    assert capsys.readouterr().err == ""  # not a terminal: no bar


def test_file_read_progress_follows_the_read_offset(tmp_path):
    """The METEOR cache's first build reads the gzip table in Rust; the bar polls the descriptor's offset.
    Here a plain read stands in for it (synthetic file of 1 MB)."""
    import time

    from nlgmetrics.cli.progress import FileReadProgress

    path = tmp_path / "table.gz"
    path.write_bytes(os.urandom(1 << 20))
    stream = io.StringIO()
    with FileReadProgress(str(path), "METEOR", enabled=True, stream=stream) as progress, open(path, "rb") as handle:
        handle.read(1 << 19)
        time.sleep(3 * FileReadProgress.POLL_SECONDS)
        midway = progress.bar.n
    assert midway == 1 << 19 and progress.bar.n == 1 << 20
    assert "METEOR" in stream.getvalue() and "1.05M/1.05M" in stream.getvalue()
