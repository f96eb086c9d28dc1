"""The ``nlgmetrics`` command end to end: tables, JSON, several systems, stdin, and every input error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from conftest import read_lines

from nlgmetrics.cli.commands import main

PAIR = "en-de"


@pytest.fixture(scope="module")
def wmt22(shared_data):
    folder = shared_data / "mt" / "wmt22" / PAIR
    return {
        "ref_a": folder / f"generaltest2022.{PAIR}.ref.A.de",
        "ref_b": folder / f"generaltest2022.{PAIR}.ref.B.de",
        "online_b": folder / f"generaltest2022.{PAIR}.hyp.Online-B.de",
        "promt": folder / f"generaltest2022.{PAIR}.hyp.PROMT.de",
    }


def run_cli(args, capsys):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_bleu_table_for_two_systems_and_two_references_matches_sacrebleu(wmt22, capsys):
    code, out, err = run_cli(["bleu", "-r", wmt22["ref_a"], wmt22["ref_b"], "-i", wmt22["online_b"], wmt22["promt"]], capsys)
    assert code == 0 and err == ""
    refs = [read_lines(wmt22["ref_a"]), read_lines(wmt22["ref_b"])]
    lines = out.splitlines()
    assert lines[0].split() == ["System", "BLEU", "Details"]
    for line, system in zip(lines[1:3], ["online_b", "promt"]):
        expected = sacrebleu.corpus_bleu(read_lines(wmt22[system]), refs)
        assert line.split()[1] == f"{expected.score:.2f}"
        assert f"hyp_len = {expected.sys_len} ref_len = {expected.ref_len}" in line
    assert lines[3].startswith("Signature: BLEU|preset:sacrebleu|nrefs:2|")


def test_json_output_for_one_system(wmt22, capsys):
    code, out, _ = run_cli(["bleu", "-r", wmt22["ref_a"], "-i", wmt22["promt"], "-f", "json", "-tok", "intl", "-lc"], capsys)
    assert code == 0
    payload = json.loads(out)[0]
    expected = sacrebleu.corpus_bleu(read_lines(wmt22["promt"]), [read_lines(wmt22["ref_a"])], tokenize="intl", lowercase=True)
    assert payload["score"] == expected.score
    assert payload["counts"] == expected.counts
    assert "tok:intl" in payload["signature"] and "case:lc" in payload["signature"]


def test_sentence_level_from_stdin_matches_sacrebleu_sentence_bleu(wmt22, tmp_path):
    hyps = read_lines(wmt22["promt"])[:50]
    refs = read_lines(wmt22["ref_a"])[:50]
    ref_path = tmp_path / "ref.txt"
    ref_path.write_text("\n".join(refs) + "\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "nlgmetrics", "bleu", "-r", str(ref_path), "--sentence-level", "-w", "6"],
        input="\n".join(hyps) + "\n", capture_output=True, text=True, check=True,
    )
    # sacreBLEU's form: "BLEU|…|eff:yes|… = 12.345678 precisions (BP …)"; effective order is switched on
    scores = [float(line.partition(" = ")[2].split()[0]) for line in completed.stdout.splitlines()]
    expected = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    assert scores == pytest.approx(expected, abs=5e-7)
    assert len(scores) == 50


def test_sample_command_prints_every_system(capsys):
    code, out, _ = run_cli(["sample"], capsys)
    assert code == 0
    for system in ["uedin-nmt", "LIUM-NMT", "online-B", "PROMT-Rule-based"]:
        assert system in out
    assert "BLEU|preset:sacrebleu" in out


def test_sample_scores_equal_sacrebleu(capsys):
    from nlgmetrics.sample import sample_paths

    paths = sample_paths()
    code, out, _ = run_cli(["sample", "-f", "json"], capsys)
    payload = json.loads(out)
    ref = read_lines(Path(paths["reference"]))
    for name, path in paths["systems"].items():
        hyps = read_lines(Path(path))
        assert payload[name]["bleu"]["BLEU"] == sacrebleu.corpus_bleu(hyps, [ref]).score


class TestErrors:
    def test_line_count_mismatch_exits_non_zero_without_output(self, tmp_path, capsys):
        ref = tmp_path / "ref.txt"
        hyp = tmp_path / "hyp.txt"
        ref.write_text("a\nb\nc\n", encoding="utf-8")
        hyp.write_text("a\nb\n", encoding="utf-8")
        code, out, err = run_cli(["bleu", "-r", ref, "-i", hyp, hyp], capsys)
        assert code == 1 and out == ""
        assert err.strip() == f"nlgmetrics: error: {hyp} has 2 lines but the references have 3"
        assert len(err.strip().splitlines()) == 1

    def test_undecodable_bytes_name_the_line(self, tmp_path, capsys):
        ref = tmp_path / "ref.txt"
        hyp = tmp_path / "hyp.txt"
        ref.write_text("a\nb\n", encoding="utf-8")
        hyp.write_bytes(b"a\n\xc3\x28 b\n")
        code, out, err = run_cli(["bleu", "-r", ref, "-i", hyp], capsys)
        assert code == 1 and out == ""
        assert f"{hyp}: line 2 is not valid UTF-8" in err

    def test_missing_file(self, tmp_path, capsys):
        code, out, err = run_cli(["bleu", "-r", tmp_path / "missing.txt", "-i", tmp_path / "missing.txt"], capsys)
        assert code == 1 and out == ""
        assert "cannot read" in err and "missing.txt" in err

    def test_invalid_option_value(self, tmp_path, capsys):
        ref = tmp_path / "ref.txt"
        ref.write_text("a\n", encoding="utf-8")
        code, out, err = run_cli(["bleu", "-r", ref, "-i", ref, "-tok", "nonsense"], capsys)
        assert code == 1 and out == ""
        assert "nonsense" in err

    def test_usage_errors_exit_2(self, capsys):
        with pytest.raises(SystemExit) as exit_info:
            main(["bleu"])
        assert exit_info.value.code == 2
        with pytest.raises(SystemExit) as exit_info:
            main([])
        assert exit_info.value.code == 2

    def test_help_lists_the_commands(self):
        completed = subprocess.run([sys.executable, "-m", "nlgmetrics", "--help"], capture_output=True, text=True)
        assert completed.returncode == 0
        assert "bleu" in completed.stdout and "sample" in completed.stdout
        completed = subprocess.run([sys.executable, "-m", "nlgmetrics", "bleu", "--help"], capture_output=True, text=True)
        assert "--tokenize" in completed.stdout and "--smooth-method" in completed.stdout


def test_chrf_and_ter_commands_match_sacrebleu(wmt22, tmp_path, capsys):
    hyps = read_lines(wmt22["promt"])[:150]
    refs = read_lines(wmt22["ref_a"])[:150]
    hyp_path, ref_path = tmp_path / "hyp.de", tmp_path / "ref.de"
    hyp_path.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref_path.write_text("\n".join(refs) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["chrf", "-r", ref_path, "-i", hyp_path, "--word-order", "2", "-f", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["score"] == sacrebleu.corpus_chrf(hyps, [refs], word_order=2).score
    code, out, _ = run_cli(["ter", "-r", ref_path, "-i", hyp_path, "-f", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["score"] == sacrebleu.corpus_ter(hyps, [refs]).score


def test_meteor_command_reproduces_the_jar_on_xray(shared_data, capsys):
    xray = shared_data / "mt" / "meteor_examples" / "xray"
    code, out, _ = run_cli(["meteor", "-r", xray / "reference", "-i", xray / "system1.hyp", "-f", "json"], capsys)
    assert code == 0
    # The jar's final score, recorded in the shared data (and printed in METEOR's own README).
    assert abs(json.loads(out)[0]["score"] - 0.3204832379614146) < 1e-9


class TestStreaming:
    """BLEU files are scored in chunks (bounded memory); the result must equal one call over all lines."""

    def test_chunked_scores_equal_whole_file_scores(self, wmt22, monkeypatch, capsys):
        import nlgmetrics
        import nlgmetrics.cli.commands as cli

        monkeypatch.setattr(cli, "CHUNK_LINES", 97)  # 2037 lines: 21 full chunks and a partial one
        code, out, _ = run_cli(["bleu", "-r", wmt22["ref_a"], wmt22["ref_b"], "-i", wmt22["promt"], "-f", "json"], capsys)
        assert code == 0
        refs = [list(pair) for pair in zip(read_lines(wmt22["ref_a"]), read_lines(wmt22["ref_b"]))]
        expected = nlgmetrics.bleu(read_lines(wmt22["promt"]), refs)
        payload = json.loads(out)[0]
        assert payload["score"] == expected.score and payload["counts"] == list(expected.counts)
        code, out, _ = run_cli(["bleu", "-r", wmt22["ref_a"], "-i", wmt22["promt"], "-sl", "-f", "json", "--effective-order"], capsys)
        sentence = nlgmetrics.bleu(read_lines(wmt22["promt"]), read_lines(wmt22["ref_a"]), effective_order=True)
        assert json.loads(out)[0]["segment_scores"] == sentence.segment_scores.tolist()

    def test_errors_found_in_a_later_chunk(self, tmp_path, monkeypatch, capsys):
        import nlgmetrics.cli.commands as cli

        monkeypatch.setattr(cli, "CHUNK_LINES", 2)
        ref = tmp_path / "ref.txt"
        ref.write_text("a\nb\nc\nd\ne\n", encoding="utf-8")
        bad = tmp_path / "bad.txt"
        bad.write_bytes(b"a\nb\nc\n\xffd\ne\n")
        code, out, err = run_cli(["bleu", "-r", ref, "-i", bad], capsys)
        assert code == 1 and out == "" and f"{bad}: line 4 is not valid UTF-8 (byte 0xff at byte column 1)" in err
        short = tmp_path / "short.txt"
        short.write_text("a\nb\nc\n", encoding="utf-8")
        code, out, err = run_cli(["bleu", "-r", ref, "-i", ref, short], capsys)
        assert code == 1 and out == "" and err.strip() == f"nlgmetrics: error: {short} has 3 lines but the references have 5"
        code, out, err = run_cli(["bleu", "-r", ref, short, "-i", ref], capsys)
        assert code == 1 and out == "" and "reference files differ in length" in err

    @pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "rouge", "meteor"])
    def test_empty_files_are_an_error(self, tmp_path, capsys, metric):
        # sacreBLEU exits 1 ("Test set … contains no sentence") rather than printing a score of 0.
        empty = tmp_path / "empty.txt"
        empty.write_text("", encoding="utf-8")
        code, out, err = run_cli([metric, "-r", empty, "-i", empty, "-f", "json"], capsys)
        assert code == 1 and out == "" and "contains no line: nothing to score" in err
