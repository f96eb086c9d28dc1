"""The default backend: the encoder as an ONNX graph built with ``onnx.helper``, run by ONNX Runtime on CPU.

The graph is written here from the weights (no export from torch). By default (``fuse=True``) it uses ONNX
Runtime's fused CPU transformer kernels directly — ``Attention``, ``SkipLayerNormalization``, ``BiasGelu``
(domain ``com.microsoft``), the graph its own transformer optimiser makes of a torch export, and where its
speed over torch comes from (measured: the standard-op graph below was ~1.4x torch, the fused one ~2x).
``fuse=False`` builds the same arithmetic from standard ops only (opset 17: Gather, Add, LayerNormalization,
MatMul, Reshape/Transpose to heads, scaled scores plus the additive mask, Softmax, erf GELU). The outputs are
only the requested layers. A session is built from the serialised bytes (no temporary file) with
``intra_op_num_threads`` = ``threads`` or the cores available to the process, ``inter_op_num_threads=1`` and every graph
optimisation on, and cached per set of layers.

Weights larger than protobuf's 2 GB limit (XLM-R large) are not embedded: their initializers are marked as
external data and the session takes the bytes from the NumPy arrays in memory
(``SessionOptions.add_external_initializers``; the arrays stay referenced here).
"""

from __future__ import annotations

import math
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.neural import require

OPSET = 17
# Weights up to this size travel inside the serialised graph; larger ones (over protobuf's 2 GiB limit, or
# big enough that the serialised copy would cost much memory: XLM-R base and large) as external initializers.
_EMBED_LIMIT_BYTES = 512 * 1024 * 1024


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it, else the core count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _GraphBuilder:
    def __init__(self, onnx, config, params, num_blocks: int, embed: bool, derived=None):
        self.onnx, self.helper = onnx, onnx.helper
        self.config, self.params, self.num_blocks, self.embed = config, params, num_blocks, embed
        self.derived = {} if derived is None else derived  # transposed / stacked weights, shared by sessions
        self.nodes: List[Any] = []
        self.initializers: List[Any] = []
        self.external: Dict[str, np.ndarray] = {}
        self.counter = 0

    def name(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}_{self.counter}"

    def node(self, op: str, inputs, stem: Optional[str] = None, **attributes) -> str:
        out = self.name(stem or op.lower())
        self.nodes.append(self.helper.make_node(op, list(inputs), [out], **attributes))
        return out

    def constant(self, name: str, value: np.ndarray) -> str:
        """A weight or constant: an initializer with its bytes in the graph, or (for models over protobuf's
        limit) one marked as external data whose bytes the session takes from memory
        (``SessionOptions.add_external_initializers``)."""
        value = np.ascontiguousarray(value)
        if self.embed or value.size < 1024:
            self.initializers.append(self.onnx.numpy_helper.from_array(value, name))
        else:
            tensor = self.onnx.TensorProto()
            tensor.name = name
            tensor.data_type = self.helper.np_dtype_to_tensor_dtype(value.dtype)
            tensor.dims.extend(value.shape)
            tensor.data_location = self.onnx.TensorProto.EXTERNAL
            for key, text in (("location", f"in-memory/{name}"), ("offset", "0"), ("length", str(value.nbytes))):
                entry = tensor.external_data.add()
                entry.key, entry.value = key, text
            self.initializers.append(tensor)
            self.external[name] = value
        return name

    def weight(self, name: str, make) -> str:
        """A derived weight (``make()`` builds it once per backend, so sessions for other layer sets reuse
        the same arrays)."""
        if name not in self.derived:
            self.derived[name] = np.ascontiguousarray(make())
        return self.constant(name, self.derived[name])

    def layer_norm(self, x: str, prefix: str) -> str:
        return self.node("LayerNormalization", [x, self.constant(f"{prefix}_w", self.params[f"{prefix}_w"]),
                                                self.constant(f"{prefix}_b", self.params[f"{prefix}_b"])],
                         epsilon=float(self.config.layer_norm_eps), axis=-1)

    def linear(self, x: str, block: int, key: str) -> str:
        weight = self.weight(f"{block}.{key}_wT", lambda: self.params[f"{block}.{key}_w"].T)
        bias = self.constant(f"{block}.{key}_b", self.params[f"{block}.{key}_b"])
        return self.node("Add", [self.node("MatMul", [x, weight]), bias])

    def build(self, layers: Sequence[int]):
        helper, onnx, c = self.helper, self.onnx, self.config
        int64 = onnx.TensorProto.INT64
        float32 = onnx.TensorProto.FLOAT
        names = ("input_ids", "attention_mask", "token_type_ids", "position_ids")
        inputs = [helper.make_tensor_value_info(n, int64, ["batch", "length"]) for n in names]
        heads, size, hidden = c.num_attention_heads, c.head_size, c.hidden_size

        word = self.node("Gather", [self.constant("word", self.params["word"]), "input_ids"], axis=0)
        types = self.node("Gather", [self.constant("token_type", self.params["token_type"]), "token_type_ids"],
                          axis=0)
        positions = self.node("Gather", [self.constant("position", self.params["position"]), "position_ids"],
                              axis=0)
        x = self.node("Add", [self.node("Add", [word, types]), positions])
        x = self.layer_norm(x, "ln")

        # additive mask (1 - mask) * finfo(float32).min as [B, 1, 1, L] (in a torch export's node order)
        mask = self.node("Unsqueeze", ["attention_mask", self.constant("axis1", np.array([1], np.int64))])
        mask = self.node("Unsqueeze", [mask, self.constant("axis2", np.array([2], np.int64))])
        mask = self.node("Cast", [mask], to=float32)
        one = self.constant("one", np.array(1.0, np.float32))
        lowest = self.constant("lowest", np.array(np.finfo(np.float32).min, np.float32))
        additive = self.node("Mul", [self.node("Sub", [one, mask]), lowest])

        heads_shape = self.constant("heads_shape", np.array([0, 0, heads, size], np.int64))
        merged_shape = self.constant("merged_shape", np.array([0, 0, hidden], np.int64))
        scale = self.constant("scale", np.array(math.sqrt(size), np.float32))
        sqrt2 = self.constant("sqrt2", np.array(math.sqrt(2.0), np.float32))
        half = self.constant("half", np.array(0.5, np.float32))

        states = {0: x}
        for block in range(max(layers)):
            q = self.node("Transpose", [self.node("Reshape", [self.linear(x, block, "q"), heads_shape])],
                          perm=[0, 2, 1, 3])
            k = self.node("Transpose", [self.node("Reshape", [self.linear(x, block, "k"), heads_shape])],
                          perm=[0, 2, 3, 1])
            v = self.node("Transpose", [self.node("Reshape", [self.linear(x, block, "v"), heads_shape])],
                          perm=[0, 2, 1, 3])
            scores = self.node("Add", [self.node("Div", [self.node("MatMul", [q, k]), scale]), additive])
            probs = self.node("Softmax", [scores], axis=-1)
            context = self.node("Transpose", [self.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
            context = self.node("Reshape", [context, merged_shape])
            attended = self.linear(context, block, "o")
            x = self.layer_norm(self.node("Add", [attended, x]), f"{block}.ln1")
            inner = self.linear(x, block, "i")
            erf = self.node("Erf", [self.node("Div", [inner, sqrt2])])
            gelu = self.node("Mul", [self.node("Mul", [inner, self.node("Add", [erf, one])]), half])
            out = self.linear(gelu, block, "f")
            x = self.layer_norm(self.node("Add", [out, x]), f"{block}.ln2")
            states[block + 1] = x
        return self.finish(inputs, states, layers)


    def build_fused(self, layers: Sequence[int]):
        """The same encoder with ONNX Runtime's CPU transformer kernels (domain ``com.microsoft``), which is
        what its own optimiser makes of a torch export: one ``Attention`` per block (Q, K and V weights
        side by side in one [H, 3H] matrix; the 0/1 mask as a 2-D ``mask_index``, masked scores set to
        finfo(float32).min), ``SkipLayerNormalization`` for each residual + LayerNorm (its bias input is the
        preceding projection's bias) and ``BiasGelu`` (exact erf GELU). Built directly, so it works for
        weights of any size (external initializers) without the optimiser."""
        helper, onnx, c = self.helper, self.onnx, self.config
        int64, int32 = onnx.TensorProto.INT64, onnx.TensorProto.INT32
        names = ("input_ids", "attention_mask", "token_type_ids", "position_ids")
        inputs = [helper.make_tensor_value_info(n, int64, ["batch", "length"]) for n in names]
        p, eps = self.params, float(c.layer_norm_eps)

        def skip_layer_norm(x, skip, prefix, bias=None):
            operands = [x, skip, self.constant(f"{prefix}_w", p[f"{prefix}_w"]),
                        self.constant(f"{prefix}_b", p[f"{prefix}_b"])]
            if bias is not None:
                operands.append(bias)
            return self.node("SkipLayerNormalization", operands, domain="com.microsoft", epsilon=eps)

        def weight_t(block, key):
            return self.weight(f"{block}.{key}_wT", lambda: p[f"{block}.{key}_w"].T)

        def bias(block, key):
            return self.constant(f"{block}.{key}_b", p[f"{block}.{key}_b"])

        word = self.node("Gather", [self.constant("word", p["word"]), "input_ids"], axis=0)
        types = self.node("Gather", [self.constant("token_type", p["token_type"]), "token_type_ids"], axis=0)
        positions = self.node("Gather", [self.constant("position", p["position"]), "position_ids"], axis=0)
        x = skip_layer_norm(self.node("Add", [word, types]), positions, "ln")
        mask_index = self.node("Cast", ["attention_mask"], to=int32)
        states = {0: x}
        for block in range(max(layers)):
            qkv_w = self.weight(f"{block}.qkv_wT",
                                lambda: np.concatenate([p[f"{block}.{k}_w"].T for k in ("q", "k", "v")], axis=1))
            qkv_b = self.weight(f"{block}.qkv_b", lambda: np.concatenate([p[f"{block}.{k}_b"] for k in "qkv"]))
            attended = self.node("Attention", [x, qkv_w, qkv_b, mask_index],
                                 domain="com.microsoft", num_heads=c.num_attention_heads,
                                 mask_filter_value=float(np.finfo(np.float32).min))
            projected = self.node("MatMul", [attended, weight_t(block, "o")])
            x = skip_layer_norm(projected, x, f"{block}.ln1", bias(block, "o"))
            inner = self.node("BiasGelu", [self.node("MatMul", [x, weight_t(block, "i")]), bias(block, "i")],
                              domain="com.microsoft")
            x = skip_layer_norm(self.node("MatMul", [inner, weight_t(block, "f")]), x, f"{block}.ln2",
                                bias(block, "f"))
            states[block + 1] = x
        return self.finish(inputs, states, layers, extra_opsets=[helper.make_opsetid("com.microsoft", 1)])

    def finish(self, inputs, states, layers, extra_opsets=()):
        helper, float32 = self.helper, self.onnx.TensorProto.FLOAT
        outputs = []
        for layer in sorted(set(layers)):
            name = f"hidden_{layer}"
            self.nodes.append(helper.make_node("Identity", [states[layer]], [name]))
            outputs.append(helper.make_tensor_value_info(name, float32, ["batch", "length", self.config.hidden_size]))
        graph = helper.make_graph(self.nodes, "nlgmetrics_encoder", inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET), *extra_opsets],
                                  producer_name="nlgmetrics")
        model.ir_version = 8
        return model


class OnnxBackend:
    name = "onnx"

    def __init__(self, config, params, num_blocks: int, *, threads=None, fuse: bool = True, **_ignored):
        self.onnx = require("onnx")
        self.ort = require("onnxruntime")
        self.config, self.params, self.num_blocks = config, params, num_blocks
        self.threads = int(threads) if threads else available_cores()
        total = sum(value.nbytes for value in params.values())
        self.embed = total < _EMBED_LIMIT_BYTES
        self.fuse = bool(fuse)  # ONNX Runtime's fused transformer kernels (build_fused) or standard ops only
        self._sessions: Dict[Tuple[int, ...], object] = {}
        self._derived: Dict[str, np.ndarray] = {}
        self._keep_alive: List[Any] = []

    def session(self, layers: Tuple[int, ...]):
        """The InferenceSession whose outputs are ``hidden_{layer}`` for ``layers`` (cached)."""
        key = tuple(sorted(set(layers)))
        if key not in self._sessions:
            builder = _GraphBuilder(self.onnx, self.config, self.params, self.num_blocks, self.embed,
                                    self._derived)
            model = builder.build_fused(key) if self.fuse else builder.build(key)
            options = self.ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            # ORT's pool threads otherwise spin after every run, taking the cores from the matching (NumPy) and
            # from the caller's own work between batches
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            if builder.external:
                names = list(builder.external)
                values = [self.ort.OrtValue.ortvalue_from_numpy(builder.external[n]) for n in names]
                self._keep_alive.append(values)  # the arrays live in self.params / self._derived
                options.add_external_initializers(names, values)
            self._sessions[key] = self.ort.InferenceSession(model.SerializeToString(), options,
                                                            providers=["CPUExecutionProvider"])
        return self._sessions[key]

    def hidden_states(self, ids, mask, types, positions, layers: Sequence[int]) -> np.ndarray:
        session = self.session(tuple(layers))
        key = tuple(sorted(set(layers)))
        feeds = {"input_ids": np.ascontiguousarray(ids, np.int64),
                 "attention_mask": np.ascontiguousarray(mask, np.int64),
                 "token_type_ids": np.ascontiguousarray(types, np.int64),
                 "position_ids": np.ascontiguousarray(positions, np.int64)}
        results = dict(zip(key, session.run([f"hidden_{layer}" for layer in key], feeds)))
        return np.stack([results[layer] for layer in layers]).astype(np.float32, copy=False)
