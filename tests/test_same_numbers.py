"""Same files, same numbers, everywhere (issue 22, item 5).

- Every command reads text files by one rule (``cli.metrics.file_options``): ROUGE's ``<n>`` inside a line is a
  sentence break, so ``rouge``, ``compare``, ``report`` and ``score`` give the same ROUGE on the same CNN/DM files
  (See et al. 2017's pointer-generator outputs, the shared data, written one summary per line with `` <n> ``
  between sentences as CNN/DM files are).
- Per-segment BLEU is sacreBLEU's ``sentence_bleu`` at every entry point (``segment_scores``, ``to_pandas()``,
  ``score --output``, ``bleu -sl``), on WMT22 en-de.
- ROUGE's ``scores`` are plain numbers; ``score``, ``compare`` and ``paired_test`` show every ROUGE variant's F.
- ``CaptionScores``, ``SquadResult``, ``PairedTestResult`` and ``ConfidenceInterval`` have the shared result shape.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics.cli.commands import main

N_DOCS = 60
VARIANTS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


@pytest.fixture(scope="module")
def cnndm_files(shared_data, tmp_path_factory):
    path = shared_data / "summarization" / "cnndm_see2017_pointer_generator" / "cnndm_test_see2017.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:N_DOCS]]
    folder = tmp_path_factory.mktemp("cnndm")
    files = {}
    for column in ("reference", "pointer-gen", "baseline"):
        files[column] = folder / f"{column}.txt"
        files[column].write_text("".join(row[column].replace("\n", " <n> ") + "\n" for row in rows), encoding="utf-8")
    table = folder / "summaries.jsonl"
    table.write_text("".join(json.dumps({"hyp": row["pointer-gen"].replace("\n", " <n> "),
                                         "ref": row["reference"].replace("\n", " <n> ")}) + "\n" for row in rows),
                     encoding="utf-8")
    files["table"] = table
    files["texts"] = {column: [row[column] for row in rows] for column in ("reference", "pointer-gen", "baseline")}
    return files


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_every_command_reads_the_sentence_separator_alike(cnndm_files, capsys, monkeypatch):
    texts = cnndm_files["texts"]
    expected = nlgmetrics.rouge(texts["pointer-gen"], texts["reference"])  # real newlines between sentences
    assert expected.rougeLsum.fmeasure != expected.rougeL.fmeasure  # the sentence breaks matter
    rouge_json = json.loads(_run(capsys, "rouge", "-r", cnndm_files["reference"], "-i", cnndm_files["pointer-gen"],
                                 "-f", "json"))
    compare_json = json.loads(_run(capsys, "compare", "-m", "rouge", "-r", cnndm_files["reference"],
                                   "-i", cnndm_files["pointer-gen"], cnndm_files["baseline"], "-f", "json"))
    score_json = json.loads(_run(capsys, "score", cnndm_files["table"], "-m", "rouge", "--hyp", "hyp", "--ref", "ref",
                                 "-f", "json"))
    for variant in VARIANTS:
        value = getattr(expected, variant).fmeasure
        assert rouge_json[0][variant]["fmeasure"] == pytest.approx(value, abs=1e-12)
        assert compare_json["rows"][f"{variant} F"][0]["score"] == pytest.approx(value, abs=1e-12)
        assert score_json["rouge"]["scores"][f"{variant}_fmeasure"] == pytest.approx(value, abs=1e-12)

    import nlgmetrics.report as report_package

    captured = {}
    monkeypatch.setattr(report_package, "render", lambda data: captured.setdefault("data", data) and "<html>")
    _run(capsys, "report", "-m", "rouge", "-r", cnndm_files["reference"], "-i", cnndm_files["pointer-gen"],
         cnndm_files["baseline"], "--n-samples", "20")
    table = {entry["label"]: entry["rows"] for entry in captured["data"]["table"]["metrics"]}
    for variant, label in (("rouge1", "ROUGE-1 F"), ("rougeL", "ROUGE-L F")):
        assert table[label][0]["score"] == pytest.approx(getattr(expected, variant).fmeasure, abs=1e-12)


@pytest.fixture(scope="module")
def wmt22_slice(wmt22_two_refs):
    hyps, ref_a, ref_b = wmt22_two_refs  # all 2037 segments: a few are shorter than 4 tokens
    return hyps, [[a, b] for a, b in zip(ref_a, ref_b)]


def test_per_segment_bleu_is_sentence_bleu_everywhere(wmt22_slice, tmp_path, capsys):
    sacrebleu = pytest.importorskip("sacrebleu")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    hyps, refs = wmt22_slice
    expected = np.array([sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs)])
    import logging

    quiet = logging.getLogger("sacrebleu")
    level, quiet.level = quiet.level, logging.ERROR  # its advice to enable effective_order, once per segment
    try:
        without = np.array([sacrebleu.BLEU().sentence_score(h, r).score for h, r in zip(hyps, refs)])
    finally:
        quiet.setLevel(level)
    assert (without != expected).sum() > 0  # the old rule (no effective order) gives other numbers
    result = nlgmetrics.bleu(hyps, refs)
    np.testing.assert_allclose(result.segment_scores, expected, rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.to_pandas()["BLEU"].to_numpy(), expected, rtol=0, atol=1e-9)
    assert result.score == pytest.approx(sacrebleu.corpus_bleu(hyps, [list(c) for c in zip(*refs)]).score, abs=1e-12)
    # score --output
    table, scored = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"hyp": hyps, "ref_a": [r[0] for r in refs], "ref_b": [r[1] for r in refs]}), table)
    _run(capsys, "score", table, "-m", "bleu", "--hyp", "hyp", "--ref", "ref_a", "--ref", "ref_b", "--output", scored)
    np.testing.assert_allclose(pq.read_table(scored).column("bleu").to_numpy(), expected, rtol=0, atol=1e-9)
    # bleu -sl
    hyp_file, ref_a_file, ref_b_file = tmp_path / "hyp.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    hyp_file.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    ref_a_file.write_text("".join(r[0] + "\n" for r in refs), encoding="utf-8")
    ref_b_file.write_text("".join(r[1] + "\n" for r in refs), encoding="utf-8")
    out = _run(capsys, "bleu", "-r", ref_a_file, ref_b_file, "-i", hyp_file, "-sl", "-w", "4")
    shown = [float(line.split(" = ")[1].split()[0]) for line in out.splitlines()]
    np.testing.assert_allclose(shown, expected.round(4), rtol=0, atol=1e-9)


def test_score_compare_and_paired_test_show_every_rouge_variant(cnndm_files, capsys):
    texts = cnndm_files["texts"]
    systems = {"pointer-gen": texts["pointer-gen"], "baseline": texts["baseline"]}
    expected = {name: nlgmetrics.rouge(hyps, texts["reference"]) for name, hyps in systems.items()}
    tested = nlgmetrics.paired_test(systems, texts["reference"], metrics=["rouge"], n_samples=30)
    assert list(tested.rows) == [f"{variant} F" for variant in VARIANTS]
    for variant in VARIANTS:
        for row in tested[f"{variant} F"]:
            assert row.score == pytest.approx(getattr(expected[row.system], variant).fmeasure, abs=1e-12)
    out = _run(capsys, "compare", "-m", "rouge", "-r", cnndm_files["reference"], "-i", cnndm_files["pointer-gen"],
               cnndm_files["baseline"])
    assert all(f"{variant} F" in out.splitlines()[0] for variant in VARIANTS)
    out = _run(capsys, "score", cnndm_files["table"], "-m", "rouge", "--hyp", "hyp", "--ref", "ref")
    for variant in VARIANTS:
        assert f"rouge {variant} F" in out


def test_rouge_scores_are_plain_numbers(cnndm_files):
    texts = cnndm_files["texts"]
    result = nlgmetrics.rouge(texts["pointer-gen"], texts["reference"], variants=["rouge1", "rougeL"])
    assert result.scores == {f"{v}_{part}": getattr(getattr(result, v), part)
                             for v in ("rouge1", "rougeL") for part in ("precision", "recall", "fmeasure")}
    assert all(type(value) is float for value in result.scores.values())
    assert result.to_dict()["scores"] == result.scores


def _shared_shape(result, name):
    assert result.name == name and isinstance(result.score, float)
    assert result.scores and all(isinstance(value, (int, float)) for value in result.scores.values())
    payload = json.loads(result.to_json())
    assert payload["name"] == name and payload["score"] == pytest.approx(result.score)
    assert payload["scores"] == pytest.approx(result.scores)
    assert "<table" in result._repr_html_()
    return result.to_pandas()


def test_summary_results_have_the_shared_shape(shared_data, cnndm_files):
    texts = cnndm_files["texts"]
    systems = {"pointer-gen": texts["pointer-gen"], "baseline": texts["baseline"]}
    tested = nlgmetrics.paired_test(systems, texts["reference"], metrics=["bleu", "chrf"], n_samples=30)
    frame = _shared_shape(tested, "paired bs")
    assert list(frame.index) == list(systems) and frame.loc["baseline", "BLEU p_value"] == tested["BLEU"][1].p_value
    assert tested.score == tested["BLEU"][0].score and tested.scores["chrF2 baseline p"] == tested["chrF2"][1].p_value

    interval = nlgmetrics.confidence_interval(texts["pointer-gen"], texts["reference"], metric="chrf", n_samples=50)
    frame = _shared_shape(interval, "chrF2")
    assert frame["low"].iloc[0] == interval.low <= interval.score <= interval.high
    assert interval.to_dict()["method"] == "percentile"

    folder = shared_data / "qa" / "squad"
    dataset = json.loads((folder / "dev-v1.1.json").read_text(encoding="utf-8"))["data"][:3]
    questions = [qa for article in dataset for paragraph in article["paragraphs"] for qa in paragraph["qas"]]
    predictions = {qa["id"]: qa["answers"][0]["text"] if i % 3 else "wrong" for i, qa in enumerate(questions)}
    squad = nlgmetrics.squad(predictions, dataset)
    frame = _shared_shape(squad, "SQuAD")
    assert squad.score == squad.f1 and set(squad.scores) == {"exact_match", "f1"}
    assert list(frame.index) == [qa["id"] for qa in questions] and frame["exact"].mean() * 100 == pytest.approx(squad.exact_match)

    from nlgmetrics.tasks.captioning import caption_scores

    captions = json.loads((shared_data / "captioning" / "magic_flickr30k_test" / "results" / "magic.json")
                          .read_text(encoding="utf-8"))[:20]
    annotations = json.loads((shared_data / "captioning" / "magic_flickr30k_test" / "annotations.coco_format.json")
                             .read_text(encoding="utf-8"))["annotations"]
    wanted = {item["image_id"] for item in captions}
    gts: dict = {}
    for item in annotations:
        if item["image_id"] in wanted:
            gts.setdefault(item["image_id"], []).append(item["caption"])
    res = {item["image_id"]: [item["caption"]] for item in captions}
    coco = caption_scores(gts, {key: res[key] for key in gts}, metrics=["Bleu_4", "CIDEr"], tokenize=False)
    frame = _shared_shape(coco, "COCO")
    assert coco.score == coco.scores["CIDEr"] and list(frame.index) == list(gts)
