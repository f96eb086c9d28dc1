"""COMET against unbabel-comet 2.2.7's predict (recorded: tests/_neural.py), segment by segment, and its surfaces."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from _neural import COMET_MODELS, MODELS, TOLERANCE, input_set, oracle

import nlgmetrics
from nlgmetrics.core.state import MetricState

pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

CALLS = [call for call in oracle("comet")["calls"] if (COMET_MODELS / call["checkpoint"]).is_dir()]


@pytest.fixture(autouse=True)
def models_folder(monkeypatch):
    """The checkpoints name their encoder ``tiny-xlmr``: found in the models folder, as a hub name would be."""
    monkeypatch.setenv("NLGMETRICS_MODELS", str(MODELS))


def _inputs(call):
    data = input_set(call["set"])
    return data["hyps"], (None if call["reference_free"] else data["refs"]), data["srcs"]


@pytest.mark.parametrize("call", CALLS, ids=[call["id"] for call in CALLS])
def test_equals_unbabel_comet_per_segment(call):
    hyps, refs, srcs = _inputs(call)
    result = nlgmetrics.comet(hyps, refs, sources=srcs, model=str(COMET_MODELS / call["checkpoint"]))
    assert result.segment_scores.shape == (len(hyps),)
    assert np.abs(result.segment_scores - np.array(call["scores"])).max() <= TOLERANCE
    assert result.score == pytest.approx(call["system_score"], abs=TOLERANCE)


def test_numpy_backend_equals_unbabel_comet():
    call = next(c for c in CALLS if c["id"] == "tiny-da-softmax/wmt22_zh_en")
    hyps, refs, srcs = _inputs(call)
    result = nlgmetrics.comet(hyps, refs, sources=srcs, model=str(COMET_MODELS / "tiny-da-softmax"), backend="numpy")
    assert np.abs(result.segment_scores - np.array(call["scores"])).max() <= TOLERANCE


def test_sources_and_references_of_many_systems_are_encoded_once():
    data = input_set("wmt22_en_de")
    metric = nlgmetrics.metric("comet", model=str(COMET_MODELS / "tiny-da-sparsemax"))
    metric(data["hyps"], data["refs"], sources=data["srcs"])
    encoder = metric.model().loaded.text_encoder
    before = encoder.encoded_rows
    metric(data["refs_b"], data["refs"], sources=data["srcs"])   # a second "system"
    assert encoder.encoded_rows - before <= len(set(data["refs_b"]))


def test_each_text_is_tokenized_once_and_every_call_warns_of_its_own_cut_texts():
    data = input_set("wmt22_en_de")
    folder = str(COMET_MODELS / "tiny-da-sparsemax")
    nlgmetrics.clear_neural_cache()  # what earlier tests kept would hide what this one counts
    metric = nlgmetrics.metric("comet", model=folder)
    first = metric(data["hyps"], data["refs"], sources=data["srcs"])
    assert metric.model().loaded.text_encoder.tokenized_texts == len(set(data["hyps"] + data["refs"] + data["srcs"]))
    encoder = metric.model().loaded.text_encoder
    before = encoder.tokenized_texts
    again = metric(data["hyps"], data["refs"], sources=data["srcs"])  # every text known: nothing tokenized
    assert encoder.tokenized_texts == before
    np.testing.assert_array_equal(again.segment_scores, first.segment_scores)
    metric(data["refs_b"], data["refs"], sources=data["srcs"])  # only the new hypotheses are tokenized
    assert encoder.tokenized_texts - before == len(set(data["refs_b"]) - set(data["hyps"] + data["refs"] + data["srcs"]))
    long_line = " ".join(["Wort"] * 10000)  # synthetic: cut at 510 tokens
    for _ in range(2):  # the second call's ids come from the cache, and it still says what it cut
        with pytest.warns(UserWarning, match="comet: 2 text"):
            metric([long_line, "kurz"], [long_line, "kurz"], sources=["short", "short"])


def test_the_cache_counts_the_text_a_key_holds():
    from nlgmetrics.neural.cache import EncodingCache

    cache = EncodingCache(limit_bytes=10_000)
    cache.put(("ids", "t"), np.zeros(2, dtype=np.int64), extra_bytes=5_000)
    assert cache.info()["bytes"] == 5_016
    cache.put(("ids", "u"), np.zeros(2, dtype=np.int64), extra_bytes=5_000)  # over the limit: "t" is dropped
    assert cache.get(("ids", "t")) is None and cache.info()["entries"] == 1
    cache.put(("ids", "v"), np.zeros(2, dtype=np.int64), extra_bytes=20_000)  # larger than the whole cache
    assert cache.get(("ids", "v")) is None


def test_metric_object_takes_sources_and_merges():
    data = input_set("wmt22_zh_en")
    folder = str(COMET_MODELS / "tiny-da-softmax")
    whole = nlgmetrics.comet(data["hyps"], data["refs"], sources=data["srcs"], model=folder)
    first = nlgmetrics.metric("comet", model=folder).update(data["hyps"][:40], data["refs"][:40],
                                                            sources=data["srcs"][:40])
    second = nlgmetrics.metric("comet", model=folder).update(data["hyps"][40:], data["refs"][40:],
                                                             sources=data["srcs"][40:])
    merged = first.merge(MetricState.from_bytes(second.state().to_bytes())).compute()
    assert np.abs(merged.segment_scores - whole.segment_scores).max() <= 1e-6
    assert merged.score == pytest.approx(whole.score, abs=1e-9)


def test_reference_free_model_needs_no_references():
    call = next(c for c in CALLS if c["id"] == "tiny-kiwi/wmt22_en_de")
    hyps, _, srcs = _inputs(call)
    metric = nlgmetrics.metric("comet", model=str(COMET_MODELS / "tiny-kiwi")).update(hyps, sources=srcs)
    assert np.abs(metric.compute().segment_scores - np.array(call["scores"])).max() <= TOLERANCE


def test_pairwise_is_comet_with_each_candidate_as_the_reference():
    data = input_set("wmt22_en_de")
    candidates, source = data["hyps"][:5], data["srcs"][0]
    folder = str(COMET_MODELS / "tiny-da-softmax")
    matrix = nlgmetrics.comet_pairwise(candidates, source, model=folder)
    assert matrix.shape == (5, 5)
    pairs = [(i, j) for i in range(5) for j in range(5)]
    direct = nlgmetrics.comet([candidates[i] for i, _ in pairs], [candidates[j] for _, j in pairs],
                              sources=[source] * len(pairs), model=folder)
    assert np.abs(matrix.reshape(-1) - direct.segment_scores).max() <= 1e-9
    with pytest.raises(ValueError, match="reference-based"):
        nlgmetrics.comet_pairwise(candidates, source, model=str(COMET_MODELS / "tiny-kiwi"))


def test_head_runs_in_blocks_with_the_same_scores(monkeypatch):
    from nlgmetrics.neural import comet_model

    data = input_set("wmt22_en_de")
    candidates, source = data["hyps"][:7], data["srcs"][1]
    folder = str(COMET_MODELS / "tiny-da-softmax")
    whole = nlgmetrics.comet_pairwise(candidates, source, model=folder)
    monkeypatch.setattr(comet_model, "HEAD_FEATURE_BYTES", 1)  # one pair per head call: 49 calls
    calls = []
    head = comet_model.CometModel.head_scores
    monkeypatch.setattr(comet_model.CometModel, "head_scores", lambda self, *a: calls.append(1) or head(self, *a))
    blocks = nlgmetrics.comet_pairwise(candidates, source, model=folder)
    assert len(calls) == 49 and np.array_equal(blocks, whole)
    monkeypatch.setattr(comet_model.CometModel, "head_scores", head)
    hyps, refs, srcs = data["hyps"][:9], data["refs"][:9], data["srcs"][:9]
    row_by_row = nlgmetrics.comet(hyps, refs, sources=srcs, model=folder).segment_scores
    monkeypatch.setattr(comet_model, "HEAD_FEATURE_BYTES", 64 << 20)
    assert np.array_equal(row_by_row, nlgmetrics.comet(hyps, refs, sources=srcs, model=folder).segment_scores)


def test_pairwise_refuses_more_candidates_than_its_limit():
    from nlgmetrics.neural.pairwise import MAX_CANDIDATES

    too_many = ["a"] * (MAX_CANDIDATES + 1)
    with pytest.raises(ValueError, match="at most 10,000"):
        nlgmetrics.comet_pairwise(too_many, "s", model=str(COMET_MODELS / "tiny-da-softmax"))
    with pytest.raises(ValueError, match="at most 10,000"):
        nlgmetrics.bertscore_pairwise(too_many, model=str(MODELS / "tiny-roberta"), num_layers=2)


def test_head_uses_blas_for_large_layers_with_the_same_scores(monkeypatch):
    """synthetic weights, wmt22-comet-da's layer sizes scaled down: 2,048 → 1,024 (BLAS) → 1 (einsum)"""
    from nlgmetrics.neural import comet_model

    rng = np.random.default_rng(5)
    layers = [(rng.standard_normal((1024, 2048)).astype(np.float32) / 45, rng.standard_normal(1024).astype(np.float32)),
              (rng.standard_normal((1, 1024)).astype(np.float32) / 32, np.zeros(1, np.float32))]
    features = rng.standard_normal((40, 2048)).astype(np.float32)
    blas = comet_model.Head(layers, np.tanh, None)(features)
    monkeypatch.setattr(comet_model, "BLAS_MIN_WEIGHTS", 1 << 40)  # every layer through einsum
    loops = comet_model.Head(layers, np.tanh, None)(features)
    expected = np.tanh(features.astype(np.float64) @ layers[0][0].T.astype(np.float64) + layers[0][1]) \
        @ layers[1][0].T.astype(np.float64)
    assert np.abs(blas - loops).max() <= 1e-12 and np.abs(loops - expected.reshape(-1)).max() <= 1e-12


def test_paired_bootstrap_with_comet():
    data = input_set("wmt22_en_de")
    result = nlgmetrics.paired_test({"A": data["hyps"], "B": data["refs_b"]}, data["refs"],
                                    metrics={"comet": {"model": str(COMET_MODELS / "tiny-da-sparsemax")}},
                                    n_samples=100, sources=data["srcs"])
    assert "COMET" in str(result) or "comet" in str(result)
    with pytest.raises(TypeError, match="sources"):
        nlgmetrics.paired_test({"A": data["hyps"], "B": data["refs_b"]}, data["refs"],
                               metrics={"comet": {"model": str(COMET_MODELS / "tiny-da-sparsemax")}}, n_samples=10)


def test_command_line(tmp_path):
    data = input_set("wmt22_en_de")
    call = next(c for c in CALLS if c["id"] == "tiny-da-sparsemax/wmt22_en_de")
    for name in ("hyps", "refs", "srcs"):
        (tmp_path / name).write_text("\n".join(data[name]) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "nlgmetrics", "comet", "-s", str(tmp_path / "srcs"), "-r", str(tmp_path / "refs"),
               "-i", str(tmp_path / "hyps"), "--model", str(COMET_MODELS / "tiny-da-sparsemax"), "-f", "json"]
    env = {**__import__("os").environ, "NLGMETRICS_MODELS": str(MODELS)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["score"] == pytest.approx(call["system_score"], abs=TOLERANCE)
    (tmp_path / "short").write_text("one line\n", encoding="utf-8")
    bad = subprocess.run(command[:5] + [str(tmp_path / "short")] + command[6:], capture_output=True, text=True,
                         env=env, timeout=300)
    assert bad.returncode == 1 and "source file" in bad.stderr and "Traceback" not in bad.stderr


def test_checkpoint_errors_name_the_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="checkpoints/model.ckpt"):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=str(tmp_path))
    copy = tmp_path / "copy"
    shutil.copytree(COMET_MODELS / "tiny-da-sparsemax", copy)
    (copy / "hparams.yaml").write_text("class_identifier: ranking_metric\n")
    with pytest.raises(ValueError, match="ranking_metric"):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=str(copy))
    (copy / "hparams.yaml").write_text("nothing: here\n")
    with pytest.raises(ValueError, match="class_identifier"):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=str(copy))


def test_missing_encoder_is_one_clear_error(monkeypatch):
    monkeypatch.delenv("NLGMETRICS_MODELS")
    nlgmetrics.clear_neural_cache()   # a model an earlier test loaded in this worker would be found in memory
    with pytest.raises(FileNotFoundError, match="tiny-xlmr"):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=str(COMET_MODELS / "tiny-da-softmax"))


def test_bad_inputs_are_clear_errors():
    folder = str(COMET_MODELS / "tiny-da-softmax")
    with pytest.raises(TypeError, match="sources"):
        nlgmetrics.metric("comet", model=folder).update(["a"], ["b"])
    with pytest.raises(ValueError, match="sources has 2"):
        nlgmetrics.comet(["a"], ["b"], sources=["c", "d"], model=folder)
    with pytest.raises(TypeError, match="needs references"):
        nlgmetrics.comet(["a"], None, sources=["c"], model=folder)
    with pytest.raises(ValueError, match="one reference"):
        nlgmetrics.comet(["a"], [["b", "c"]], sources=["c"], model=folder)
    with pytest.raises(ValueError, match="model="):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=None)
    with pytest.raises(ValueError, match="max_tokens must be between 1 and"):
        nlgmetrics.comet(["a"], ["b"], sources=["c"], model=folder, max_tokens=0)
    with pytest.raises(ValueError, match="threads must be between 1 and 1024"):
        nlgmetrics.comet_pairwise(["a"], "c", model=folder, threads=10**9)
    metric = nlgmetrics.metric("comet", model=folder).update(["a"], ["b"], sources=["c"])
    with pytest.raises(ValueError, match="comet: a text contains a lone surrogate code point"):
        metric.update(["a"], ["b"], sources=["\ud800 source"])
    with pytest.raises(ValueError, match="lone surrogate"):
        nlgmetrics.comet_pairwise(["a", "b"], "\udfff", model=folder)
    assert metric.compute().segment_scores.shape == (1,)  # the refused update lost nothing


def test_hostile_texts_get_a_result():
    folder = str(COMET_MODELS / "tiny-da-softmax")
    long_line = " ".join(["Wort"] * 10000)    # synthetic: 10,000 words, cut at 510 tokens as unbabel-comet cuts
    texts = [long_line, "\x00\x07\u202e", "", "   ", "日本語の文章です。"]
    with pytest.warns(UserWarning, match="truncated"):
        result = nlgmetrics.comet(texts, texts[::-1], sources=texts, model=folder)
    assert np.isfinite(result.segment_scores).all() and result.segment_scores.shape == (5,)


@pytest.mark.dask
def test_dask_scores_comet_with_a_source_column():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import nlgmetrics.dask

    call = next(c for c in CALLS if c["id"] == "tiny-da-sparsemax/wmt22_en_de")
    hyps, refs, srcs = _inputs(call)
    frame = dd.from_pandas(pd.DataFrame({"mt": hyps, "ref": refs, "src": srcs}), npartitions=3)
    folder = str(COMET_MODELS / "tiny-da-sparsemax")
    result = nlgmetrics.dask.score(frame, "comet", hyp="mt", refs="ref", src="src", model=folder)
    assert result.score == pytest.approx(call["system_score"], abs=TOLERANCE)
    with pytest.raises(TypeError, match="src="):
        nlgmetrics.dask.score(frame, "comet", hyp="mt", refs="ref", model=folder)


def test_score_command_reads_a_source_column(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    call = next(c for c in CALLS if c["id"] == "tiny-da-sparsemax/wmt22_en_de")
    hyps, refs, srcs = _inputs(call)
    pq.write_table(pa.table({"mt": hyps, "ref": refs, "src": srcs}), tmp_path / "data.parquet")
    folder = str(COMET_MODELS / "tiny-da-sparsemax")
    env = {**__import__("os").environ, "NLGMETRICS_MODELS": str(MODELS)}
    command = [sys.executable, "-m", "nlgmetrics", "score", str(tmp_path / "data.parquet"), "-m", "comet", "--hyp", "mt",
               "--ref", "ref", "--option", f"comet.model={folder}", "-f", "json"]
    done = subprocess.run(command + ["--src", "src"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["comet"]["score"] == pytest.approx(call["system_score"], abs=TOLERANCE)
    missing = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert missing.returncode == 1 and "--src" in missing.stderr


def test_chunked_scoring_equals_one_pass(monkeypatch):
    import nlgmetrics.neural.comet_model as module

    call = next(c for c in CALLS if c["id"] == "tiny-da-softmax/wmt22_zh_en")
    hyps, refs, srcs = _inputs(call)
    folder = str(COMET_MODELS / "tiny-da-softmax")
    monkeypatch.setattr(module, "CHUNK_SEGMENTS", 10)
    result = nlgmetrics.comet(hyps, refs, sources=srcs, model=folder)
    assert np.abs(result.segment_scores - np.array(call["scores"])).max() <= TOLERANCE


def test_report_with_comet_and_bertscore(tmp_path):
    call = next(c for c in CALLS if c["id"] == "tiny-da-sparsemax/wmt22_en_de")
    hyps, refs, srcs = _inputs(call)
    metrics = {"bleu": {}, "comet": {"model": str(COMET_MODELS / "tiny-da-sparsemax")},
               "bertscore": {"model": str(MODELS / "tiny-roberta"), "num_layers": 2}}
    systems = {"A": hyps, "B": input_set("wmt22_en_de")["refs_b"]}
    page = nlgmetrics.report(systems, refs, metrics=metrics, sources=srcs, n_samples=50, progress=False)
    assert "COMET" in page and "BERTScore F1" in page
    built = __import__("nlgmetrics.report.build", fromlist=["build"]).build(
        systems, refs, metrics, n_samples=50, sources=srcs, progress=False)
    comet_row = next(m for m in built["table"]["metrics"] if m["key"] == "comet")["rows"][0]
    assert comet_row["score"] == pytest.approx(call["system_score"], abs=TOLERANCE)
    with pytest.raises(TypeError, match="sources"):
        nlgmetrics.report(systems, refs, metrics={"comet": {"model": str(COMET_MODELS / "tiny-da-sparsemax")}},
                          n_samples=10, progress=False)


@pytest.mark.parametrize("pool", ["avg", "cls", "max"])
@pytest.mark.parametrize("layer_norm", [True, False])
def test_pooling_and_layer_mix_equal_comets_formulas(monkeypatch, pool, layer_norm):
    """Every pooling × layer-norm combination against unbabel-comet's formulas written out here
    (LayerwiseAttention.forward, then average_pooling / max_pooling / the CLS row), each text encoded alone:
    the in-graph summaries (avg, cls) and the full mix (max) take other routes to the same vectors. The
    checkpoint's own hyper-parameters decide (as in load_from_checkpoint), so they are changed as read."""
    from nlgmetrics.neural import comet_model, loaded, weights

    read = weights.read_checkpoint

    def variant(path):
        state, hparams = read(path)
        return state, dict(hparams, pool=pool, layer_norm=layer_norm)

    monkeypatch.setattr(weights, "read_checkpoint", variant)
    loaded.forget_models()
    nlgmetrics.clear_neural_cache()  # the variants share the checkpoint's fingerprint
    try:
        folder = str(COMET_MODELS / "tiny-da-softmax")
        texts = input_set("wmt22_en_de")["hyps"][:12] + ["", "x"]
        model = comet_model.load_comet(folder)
        assert (model.pool, model.layer_norm) == (pool, layer_norm)
        got = model.sentence_vectors(texts)
        encoder = comet_model.load_comet(folder, backend="numpy").loaded.text_encoder.encoder
        for row, ids in enumerate(model.token_ids(texts)):
            hidden = encoder.hidden_states(np.array([ids]), np.ones((1, len(ids)), np.int64), model.layers)[:, 0]
            hidden = hidden.astype(np.float64)  # [K, L, H]
            if layer_norm:
                mean = hidden.mean(axis=(1, 2), keepdims=True)
                hidden = (hidden - mean) / np.sqrt(((hidden - mean) ** 2).mean(axis=(1, 2), keepdims=True) + 1e-12)
            mixed = float(model.gamma) * np.tensordot(model.layer_weights.astype(np.float64), hidden, axes=1)
            want = {"avg": mixed.mean(axis=0), "cls": mixed[0], "max": mixed.max(axis=0)}[pool]
            np.testing.assert_allclose(got[row], want, atol=2e-6)
    finally:
        loaded.forget_models()
        nlgmetrics.clear_neural_cache()
