"""The task commands (caption, squad, qa/exact-match, report) on the real data, sentence-level BLEU as
sacreBLEU's command line prints it, and a quiet end on a closed pipe."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from conftest import read_lines

import nlgmetrics
from nlgmetrics.cli.commands import main


def run_cli(args, capsys):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def coco(shared_data):
    return shared_data / "captioning" / "magic_flickr30k_test"


@pytest.fixture(scope="module")
def squad_dir(shared_data):
    return shared_data / "qa" / "squad"


def test_caption_json_keys_and_values_are_pycocoevalcaps(coco, capsys):
    expected = json.loads((coco / "expected_pycocoevalcap_1.2.json").read_text())["scores"]
    code, out, err = run_cli(["caption", coco / "annotations.coco_format.json", coco / "results" / "magic.json",
                              "-f", "json"], capsys)
    assert code == 0 and err == ""
    payload = next(iter(json.loads(out).values()))  # {system: scores}, one shape
    assert list(payload) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]
    for key, value in payload.items():
        assert math.isclose(value, expected["magic"][key], rel_tol=1e-12), key


def test_caption_table_for_two_systems(coco, capsys):
    code, out, _ = run_cli(["caption", coco / "annotations.coco_format.json", coco / "results" / "magic.json",
                            coco / "results" / "zerocap.json"], capsys)
    expected = json.loads((coco / "expected_pycocoevalcap_1.2.json").read_text())["scores"]
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["System", "Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]
    assert lines[2].split()[0] == "zerocap.json" and lines[2].split()[-1] == f"{expected['zerocap']['CIDEr']:.4f}"
    assert lines[3].startswith("Signature: COCO|")


def test_caption_bad_inputs(coco, tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text('[{"image_id": 1, ', encoding="utf-8")
    code, out, err = run_cli(["caption", coco / "annotations.coco_format.json", broken], capsys)
    assert code == 1 and out == "" and f"{broken}: not valid JSON (line 1" in err
    stray = tmp_path / "stray.json"
    stray.write_text(json.dumps([{"image_id": 987654321, "caption": "a dog"}]), encoding="utf-8")
    code, out, err = run_cli(["caption", coco / "annotations.coco_format.json", stray], capsys)
    assert code == 1 and out == "" and "image_id 987654321 is not in" in err
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text(json.dumps([{"image_id": 1}]), encoding="utf-8")
    code, _, err = run_cli(["caption", coco / "annotations.coco_format.json", shapeless], capsys)
    assert code == 1 and "the results[0] needs an 'image_id' and a string 'caption'" in err
    code, _, err = run_cli(["caption", stray, stray], capsys)
    assert code == 1 and "not a COCO ground-truth file" in err


@pytest.mark.parametrize("name", ["BERT_ensemble_Google_AI_Language.json", "Match-LSTM_with_Ans-Ptr_Boundary+Ensemble_Singapore_Management_University.json"])
def test_squad_json_is_the_official_scripts(squad_dir, name, capsys):
    expected = json.loads((squad_dir / "expected_evaluate-v1.1_dev.json").read_text())["scores"][name]
    code, out, err = run_cli(["squad", squad_dir / "dev-v1.1.json", squad_dir / "predictions_v1.1" / name, "-f", "json"], capsys)
    assert code == 0 and err == ""
    assert json.loads(out) == {"exact_match": expected["exact_match"], "f1": expected["f1"]}


def test_squad_version_2_keys(squad_dir, capsys):
    name = "BERT_ensemble_Google_AI_Language.json"
    code, out, _ = run_cli(["squad", squad_dir / "dev-v1.1.json", squad_dir / "predictions_v1.1" / name,
                            "--version", "2.0", "-f", "json"], capsys)
    dataset = json.loads((squad_dir / "dev-v1.1.json").read_text())
    predictions = json.loads((squad_dir / "predictions_v1.1" / name).read_text())
    assert code == 0
    payload = json.loads(out)
    assert list(payload)[:3] == ["exact", "f1", "total"]  # evaluate-v2.0.py's out_eval
    assert payload == nlgmetrics.squad(predictions, dataset, version="2.0").scores


def test_squad_bad_inputs(squad_dir, tmp_path, capsys):
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    code, out, err = run_cli(["squad", squad_dir / "dev-v1.1.json", listed], capsys)
    assert code == 1 and out == "" and "predictions must be a JSON object" in err
    code, _, err = run_cli(["squad", squad_dir / "dev-v1.1.json", tmp_path / "missing.json"], capsys)
    assert code == 1 and "cannot read" in err and "missing.json" in err
    code, _, err = run_cli(["squad", squad_dir / "dev-v1.1.json", listed, "--na-prob-file", listed], capsys)
    assert code == 1 and "predictions must be a JSON object" in err


def test_qa_on_text_files_equals_the_squad_script(squad_dir, tmp_path, capsys):
    # SQuAD dev as text files: one question a line, gold answers spread over as many files as the most answers of
    # a question (a question with fewer repeats its first, which cannot change a maximum over answers)
    dataset = json.loads((squad_dir / "dev-v1.1.json").read_text())
    name = "Match-LSTM_with_Ans-Ptr_Boundary+Ensemble_Singapore_Management_University.json"
    predictions = json.loads((squad_dir / "predictions_v1.1" / name).read_text())
    questions = [qa for article in dataset["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
    width = max(len(qa["answers"]) for qa in questions)
    golds, answers = [[] for _ in range(width)], []
    for qa in questions:
        texts = [a["text"] for a in qa["answers"]]
        for column in range(width):
            golds[column].append(texts[column] if column < len(texts) else texts[0])
        answers.append(predictions[qa["id"]])
    if any("\n" in text for text in answers + [t for column in golds for t in column]):
        pytest.skip("an answer holds a newline and cannot be one line")
    paths = []
    for index, column in enumerate(golds):
        paths.append(tmp_path / f"gold{index}.txt")
        paths[-1].write_text("\n".join(column) + "\n", encoding="utf-8")
    prediction_path = tmp_path / "pred.txt"
    prediction_path.write_text("\n".join(answers) + "\n", encoding="utf-8")
    expected = nlgmetrics.squad(predictions, dataset)
    for command in ("qa", "exact-match"):
        code, out, err = run_cli([command, "-r", *paths, "-i", prediction_path, "-f", "json"], capsys)
        assert code == 0 and err == ""
        payload = next(iter(json.loads(out).values()))  # {system: scores}, one shape
        assert list(payload) == ["exact_match", "f1"]
        assert math.isclose(payload["exact_match"], expected.exact_match, rel_tol=1e-12)
        # the official script strips nothing; our text reader strips trailing whitespace, which the
        # normalizer removes anyway
        assert math.isclose(payload["f1"], expected.f1, rel_tol=1e-12)


def test_sentence_level_bleu_is_sacrebleus_command_line(shared_data, tmp_path):
    folder = shared_data / "mt" / "wmt22" / "de-en"
    hypotheses = read_lines(folder / "generaltest2022.de-en.hyp.LT22.en")[:200]
    references = read_lines(folder / "generaltest2022.de-en.ref.A.en")[:200]
    hyp_path, ref_path = tmp_path / "hyp.en", tmp_path / "ref.en"
    hyp_path.write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    ref_path.write_text("\n".join(references) + "\n", encoding="utf-8")
    ours = subprocess.run([sys.executable, "-m", "nlgmetrics", "bleu", "-r", ref_path, "-i", hyp_path, "-sl", "-w", "1"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", ref_path, "-i", hyp_path, "-m", "bleu", "-sl"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(ours) == len(theirs) == 200
    for mine, sacre in zip(ours, theirs):
        signature, _, numbers = mine.partition(" = ")
        assert numbers == sacre.partition(" = ")[2]
        assert "eff:yes" in signature and signature.startswith("BLEU|preset:sacrebleu|nrefs:1|")


def test_a_closed_pipe_ends_quietly(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n" * 50, encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "nlgmetrics", "bleu", "-r", ref, "-i", ref, "-sl"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before anything is written, as after `| head` has finished
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait() == 141  # what a shell reports for SIGPIPE, as for sacreBLEU
    assert stderr == b""


def test_report_command_writes_the_page(shared_data, tmp_path, capsys):
    folder = shared_data / "mt" / "wmt22" / "de-en"
    files = [folder / f"generaltest2022.de-en.hyp.{name}.en" for name in ("LT22", "PROMT")]
    cut = []
    for path in [folder / "generaltest2022.de-en.ref.A.en", *files]:
        cut.append(tmp_path / path.name)
        cut[-1].write_text("\n".join(read_lines(path)[:150]) + "\n", encoding="utf-8")
    output = tmp_path / "report.html"
    code, out, err = run_cli(["report", "-r", cut[0], "-i", *cut[1:], "-m", "bleu,chrf", "-o", output,
                              "--n-samples", "50"], capsys)
    assert code == 0 and err == "" and out.strip() == f"wrote {output} (2 systems, 150 segments)"
    page = output.read_text(encoding="utf-8")
    expected = nlgmetrics.bleu(read_lines(cut[1]), read_lines(cut[0])).score
    assert f'data-system="{cut[1].name}" data-value="{expected!r}"' in page
    code, out, err = run_cli(["report", "-r", cut[0], "-i", cut[1]], capsys)
    assert code == 1 and out == "" and "at least two systems" in err
