"""BERTScore against bert_score 0.3.13 (recorded: tests/_neural.py), segment by segment, and its surfaces."""

from __future__ import annotations

import numpy as np
import pytest
from _neural import ORACLE, TOLERANCE, input_set, minilm_folder, model_folder, oracle, references_of

import nlgmetrics
from nlgmetrics.core.state import MetricState

pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

CALLS = [call for call in oracle("bertscore")["calls"] if not (call["kwargs"].get("rescale_with_baseline")
                                                               and "baseline_path" not in call["kwargs"])]


def _options(call: dict) -> dict:
    kwargs = dict(call["kwargs"])
    if "baseline_path" in kwargs:
        kwargs["baseline_path"] = str(ORACLE / kwargs["baseline_path"])
    return kwargs


@pytest.mark.parametrize("call", CALLS, ids=[call["id"] for call in CALLS])
def test_equals_bert_score_per_segment(call):
    data = input_set(call["set"])
    result = nlgmetrics.bertscore(data["hyps"], references_of(call), model=str(model_folder(call["model"])),
                                  **_options(call))
    expected = np.array([call["P"], call["R"], call["F"]], dtype=np.float64).T
    got = result.segment_scores.astype(np.float64)
    assert got.shape == expected.shape == (len(data["hyps"]), 3)
    assert np.isnan(got).sum() == np.isnan(expected).sum() == 0
    assert np.abs(got - expected).max() <= TOLERANCE
    assert result.score == pytest.approx(float(np.mean(expected[:, 2])), abs=TOLERANCE)
    assert result.scores == {"precision": result.precision, "recall": result.recall, "f1": result.f1}


def test_numpy_backend_equals_bert_score_on_a_tiny_model():
    call = next(c for c in CALLS if c["id"] == "tiny-xlmr/wmt22_en_de/L2/idf")
    data = input_set(call["set"])
    result = nlgmetrics.bertscore(data["hyps"], data["refs"], model=str(model_folder("tiny-xlmr")), num_layers=2,
                                  idf=True, backend="numpy")
    assert np.abs(result.segment_scores[:, 2] - np.array(call["F"])).max() <= TOLERANCE


def test_local_model_rescaling_without_a_baseline_is_an_error_not_silent():
    # bert_score prints a warning and returns unscaled numbers (recorded); we refuse with a clear message.
    call = next(c for c in oracle("bertscore")["calls"] if c["id"] == "all-MiniLM-L6-v2/wmt22_en_de/L6/rescaled")
    assert "Baseline not Found" in call["log"]
    with pytest.raises(ValueError, match="no bert_score baseline"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(minilm_folder()), num_layers=6, rescale_with_baseline=True,
                             lang="de")


def test_shipped_baseline_rescales_like_the_file():
    from nlgmetrics.metrics.bertscore import baseline_from_file, shipped_baseline

    row = shipped_baseline("en", "roberta-large", 17)
    assert row.dtype == np.float32 and row.shape == (3,) and np.all((row > 0) & (row < 1))
    assert shipped_baseline("en", "no-such-model", 3) is None
    assert baseline_from_file(str(ORACLE / "minilm-baseline.csv"), 6).shape == (3,)


def test_hash_is_bert_scores_format_with_the_right_version():
    call = next(c for c in CALLS if c["id"] == "all-MiniLM-L6-v2/wmt22_en_de/L6/idf")
    assert call["hash"].endswith("_L6_idf_version=0.3.12(hug_trans=4.57.6)")  # the anchor's own wrong version
    result = nlgmetrics.bertscore(["a cat"], ["a dog"], model=str(minilm_folder()), num_layers=6, idf=True)
    assert result.bert_score_hash == "model_L6_idf_version=0.3.13"
    signature = str(result.signature)
    for part in ("model:model", "L:6", "idf:yes", "backend:onnx", "dtype:fp32", "hash:"):
        assert part in signature


def test_each_text_is_encoded_once_per_process():
    from nlgmetrics.metrics.bertscore import BERTScore

    data = input_set("wmt22_en_de")
    metric = BERTScore(model=str(model_folder("tiny-roberta")), num_layers=2)
    metric(data["hyps"], data["refs"])
    encoder = metric.scorer().loaded.text_encoder
    before = encoder.encoded_rows
    metric(data["hyps"], data["refs"])            # the same system again: nothing new to encode
    assert encoder.encoded_rows == before
    metric(data["refs_b"], data["refs"])          # a new "system": only its own texts are encoded
    assert encoder.encoded_rows - before <= len(set(data["refs_b"]))


def test_results_do_not_depend_on_the_encoding_batches():
    data = input_set("wmt22_zh_en")
    folder = str(model_folder("tiny-xlmr"))
    nlgmetrics.clear_neural_cache()
    wide = nlgmetrics.bertscore(data["hyps"], data["refs"], model=folder, num_layers=2)
    nlgmetrics.clear_neural_cache()
    narrow = nlgmetrics.bertscore(data["hyps"], data["refs"], model=folder, num_layers=2, max_tokens=40)
    assert np.abs(wide.segment_scores - narrow.segment_scores).max() <= 1e-6


@pytest.mark.parametrize("idf", [False, True])
def test_metric_object_updates_merges_and_travels(idf):
    data = input_set("wmt22_en_de")
    options = {"model": str(model_folder("tiny-roberta")), "num_layers": 1, "idf": idf}
    whole = nlgmetrics.bertscore(data["hyps"], data["refs"], **options)
    first = nlgmetrics.metric("bertscore", **options).update(data["hyps"][:64], data["refs"][:64])
    second = nlgmetrics.metric("bertscore", **options).update(data["hyps"][64:], data["refs"][64:])
    first.merge(MetricState.from_bytes(second.state().to_bytes()))
    merged = first.compute()
    # idf=False: rows of the same pairs; batches of 64 pairs as in one call, so bit-identical
    assert np.abs(merged.segment_scores - whole.segment_scores).max() <= 1e-6
    assert merged.score == pytest.approx(whole.score, abs=1e-7)
    assert merged.ci(n_samples=50, seed=1).low <= merged.score


def test_pairwise_matrix_is_each_pair_alone():
    data = input_set("wmt22_en_de")
    candidates = data["hyps"][:6]
    folder = str(model_folder("tiny-xlmr"))
    matrix = nlgmetrics.bertscore_pairwise(candidates, model=folder, num_layers=2)
    assert matrix.shape == (6, 6)
    for i in range(6):
        for j in range(6):
            single = nlgmetrics.bertscore([candidates[i]], [candidates[j]], model=folder, num_layers=2)
            assert matrix[i, j] == pytest.approx(single.f1, abs=1e-7)


def test_default_model_comes_from_lang_and_the_layer_table():
    from nlgmetrics.metrics.bertscore import BERTScore, tables

    assert tables()["lang2model"]["en"] == "roberta-large"
    assert tables()["model2layers"]["roberta-large"] == 17
    with pytest.raises(FileNotFoundError, match="roberta-large"):  # not installed here: found, never fetched
        BERTScore(lang="en").update(["a"], ["b"])


@pytest.mark.parametrize("options, error, message", [
    ({}, ValueError, "model="),
    ({"model": 3}, TypeError, "model must be"),
    ({"model": "x", "num_layers": -1}, ValueError, "num_layers"),
    ({"model": "x", "idf": "yes"}, TypeError, "idf"),
    ({"model": "x", "rescale_with_baseline": True}, ValueError, "lang"),
    ({"model": "x", "backend": "tensorflow"}, ValueError, "backend"),
    ({"model": "x", "batch_size": 0}, ValueError, "batch_size"),
    ({"model": "x", "batch_size": 10**15}, ValueError, "batch_size must be between 1 and"),
    ({"model": "x", "num_layers": 10**18}, ValueError, "num_layers must be between 0 and 1000"),
    ({"model": "x", "max_tokens": 0}, ValueError, "max_tokens must be between 1 and"),
    ({"model": "x", "max_tokens": 10**12}, ValueError, "max_tokens must be between 1 and"),
    ({"model": "x", "max_tokens": 1.5}, TypeError, "max_tokens must be an int"),
    ({"model": "x", "threads": 0}, ValueError, "threads must be between 1 and 1024"),
    ({"model": "x", "threads": 10**9}, ValueError, "threads must be between 1 and 1024"),
    ({"model": "x", "threads": "2"}, TypeError, "threads must be an int or None"),
])
def test_bad_options_are_clear_errors(options, error, message):
    with pytest.raises(error, match=message):
        nlgmetrics.bertscore(["a"], ["b"], **options)


def test_model_folder_errors_name_what_is_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found: looked in"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(tmp_path / "nothing"), num_layers=1)
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="config.json"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(tmp_path / "empty"), num_layers=1)
    broken = tmp_path / "no-weights"
    broken.mkdir()
    (broken / "config.json").write_text((model_folder("tiny-xlmr") / "config.json").read_text())
    with pytest.raises(FileNotFoundError, match="no weights"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(broken), num_layers=1)
    with pytest.raises(ValueError, match="num_layers must be between 0 and 2"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(model_folder("tiny-xlmr")), num_layers=3)
    with pytest.raises(ValueError, match="no default num_layers"):
        nlgmetrics.bertscore(["a"], ["b"], model=str(model_folder("tiny-xlmr")))


def test_bad_baseline_files_are_clear_errors(tmp_path):
    folder = str(model_folder("tiny-roberta"))
    with pytest.raises(FileNotFoundError, match="baseline_path .*No such file"):
        nlgmetrics.bertscore(["a"], ["b"], model=folder, num_layers=2, rescale_with_baseline=True,
                             baseline_path=str(tmp_path / "missing.tsv"))
    garbage = tmp_path / "garbage.tsv"
    garbage.write_text("not a baseline\n1 2 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a CSV with a header LAYER,P,R,F"):
        nlgmetrics.bertscore(["a"], ["b"], model=folder, num_layers=2, rescale_with_baseline=True,
                             baseline_path=str(garbage))


def test_bad_inputs_are_clear_errors():
    folder = str(model_folder("tiny-xlmr"))
    with pytest.raises(ValueError):
        nlgmetrics.bertscore(["a", "b"], ["c"], model=folder, num_layers=1)
    with pytest.raises(TypeError):
        nlgmetrics.bertscore([1], ["c"], model=folder, num_layers=1)
    with pytest.raises(ValueError, match="no segments"):
        nlgmetrics.bertscore([], [], model=folder, num_layers=1)
    # a lone surrogate: the lexical metrics' words, not the tokenizer's "TextEncodeInput must be Union[...]"
    metric = nlgmetrics.metric("bertscore", model=folder, num_layers=1).update(["a"], ["b"])
    with pytest.raises(ValueError, match="lone surrogate code point.*'x\\\\ud800'"):
        metric.update(["x\ud800"], ["b"])
    with pytest.raises(ValueError, match="lone surrogate"):
        nlgmetrics.bertscore_pairwise(["a", "\udfff"], model=folder, num_layers=1)
    assert metric.compute().segment_scores.shape == (1, 3)  # the refused update lost nothing


def test_hostile_texts_get_a_result():
    folder = str(model_folder("tiny-roberta"))
    long_line = " ".join(["Wort"] * 10000)             # synthetic: 10,000 tokens, truncated as bert_score does
    texts = [long_line, "\x00\x07\u202e", "", "   ", "日本語の文章です。"]
    with pytest.warns(UserWarning, match="truncated"):
        result = nlgmetrics.bertscore(texts, texts[::-1], model=folder, num_layers=2)
    assert result.segment_scores.shape == (5, 3) and np.isfinite(result.segment_scores).all()


def test_command_line(tmp_path):
    import json
    import os
    import subprocess
    import sys

    call = next(c for c in CALLS if c["id"] == "tiny-roberta/wmt22_en_de/L2")
    data = input_set(call["set"])
    (tmp_path / "hyp").write_text("\n".join(data["hyps"]) + "\n", encoding="utf-8")
    (tmp_path / "ref").write_text("\n".join(data["refs"]) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "nlgmetrics", "bertscore", "-r", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"),
               "--model", str(model_folder("tiny-roberta")), "--num-layers", "2", "-f", "json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["score"] == pytest.approx(float(np.mean(call["F"])), abs=TOLERANCE)
    missing = subprocess.run(command[:-6] + ["--model", str(tmp_path / "nowhere"), "-f", "json"], capture_output=True,
                             text=True, timeout=300)
    assert missing.returncode == 1 and "not found" in missing.stderr and "Traceback" not in missing.stderr


@pytest.mark.dask
def test_dask_scores_bertscore():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import nlgmetrics.dask

    call = next(c for c in CALLS if c["id"] == "tiny-xlmr/wmt22_en_de/L1")
    data = input_set(call["set"])
    frame = dd.from_pandas(pd.DataFrame({"hyp": data["hyps"], "ref": data["refs"]}), npartitions=3)
    result = nlgmetrics.dask.score(frame, "bertscore", hyp="hyp", refs="ref", model=str(model_folder("tiny-xlmr")),
                                   num_layers=1)
    assert result.score == pytest.approx(float(np.mean(call["F"])), abs=TOLERANCE)


def test_chunked_matching_equals_one_pass(monkeypatch):
    import nlgmetrics.metrics.bertscore as module

    data = input_set("wmt22_en_de")
    refs = [[a, b] for a, b in zip(data["refs"], data["refs_b"])][:41]
    options = {"model": str(model_folder("tiny-xlmr")), "num_layers": 2, "batch_size": 4, "idf": True}
    whole = nlgmetrics.bertscore(data["hyps"][:41], refs, **options)
    monkeypatch.setattr(module, "CHUNK_BATCHES", 3)   # chunks of 12 pairs: 7 chunks, the last one short
    chunked = nlgmetrics.bertscore(data["hyps"][:41], refs, **options)
    assert np.array_equal(whole.segment_scores, chunked.segment_scores)


def _pool_work(index: int) -> float:
    folder = str(model_folder("tiny-xlmr"))
    return nlgmetrics.bertscore([f"hello world {index}", "a b"], ["hello there", "a c"], model=folder, num_layers=2).f1


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_processes_after_the_parent_loaded_the_model(method):
    import multiprocessing

    expected = [_pool_work(index) for index in range(3)]   # the parent has loaded the model and its session
    with multiprocessing.get_context(method).Pool(2) as pool:
        assert pool.map(_pool_work, range(3), chunksize=1) == expected
