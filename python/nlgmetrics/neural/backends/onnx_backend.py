"""The default backend: the encoder as an ONNX graph written here, run by ONNX Runtime on CPU.

The graph is written from the weights (no export from torch, no ``onnx`` package: ``nlgmetrics.neural.onnx_proto``
writes the protobuf bytes). By default (``fuse=True``) it uses ONNX Runtime's fused CPU transformer kernels
directly — ``Attention``, ``BiasGelu`` and ``FusedMatMul`` (domain ``com.microsoft``), most of the graph its own
transformer optimiser makes of a torch export, and where its speed over torch comes from (measured: the
standard-op graph below was ~1.4x torch, the fused one ~2x). The residual adds stay ``Add`` + the standard
``LayerNormalization``, and the session is told not to fuse them into ``SkipLayerNormalization``, whose CPU kernel
took 5 ns per element against 1.1 ns for the two (10 % of COMET's encoder time, 2026-12-02). ``fuse=False`` builds the same arithmetic from
standard ops only (opset 17: Gather, Add, LayerNormalization, MatMul, Reshape/Transpose to heads, scaled scores
plus the additive mask, Softmax, erf GELU).

Two kinds of graph end the encoder: ``hidden_states`` returns the requested layers ``[K, B, L, H]`` (BERTScore's
token vectors); ``summaries`` returns, per requested layer and in float64, what COMET's layer mix and pooling
need of it — the sum of the unpadded token vectors, the first token's vector and, for the masked layer norm,
each sentence's mean and variance over its unpadded tokens × dimensions — so seven ``[B, L, H]`` tensors
never leave the graph (see ``nlgmetrics.neural.layer_summaries``). A session has ``intra_op_num_threads`` =
``threads`` or the cores available to the process, ``inter_op_num_threads=1`` and every graph optimisation
on, and is cached per graph. Weights travel as external initializers: the session reads them from the NumPy
arrays in memory (``SessionOptions.add_external_initializers``), so nothing is copied into a protobuf and
there is no 2 GB limit (XLM-R large).
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import Future
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.neural import onnx_proto as proto
from nlgmetrics.neural import require

OPSET = 17
#: graph optimisers the sessions skip: ``SkipLayerNormalization``'s CPU kernel is ~4x slower than the
#: ``Add`` + ``LayerNormalization`` it would replace (see the module docstring)
UNFUSED = ["SkipLayerNormFusion"]


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it, else the core count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _GraphBuilder:
    """Nodes and weights of one encoder graph (``build`` / ``build_fused``), ended by ``finish_hidden`` or
    ``finish_summaries``; ``model_bytes()`` is what ``InferenceSession`` takes."""

    def __init__(self, config, params, num_blocks: int, derived=None):
        self.config, self.params, self.num_blocks = config, params, num_blocks
        self.derived = {} if derived is None else derived  # transposed / stacked weights, shared by sessions
        self.nodes: List[proto.Node] = []
        self.initializers: List[bytes] = []
        self.external: Dict[str, np.ndarray] = {}
        self.inputs: List[bytes] = []
        self.outputs: List[bytes] = []
        self.opsets: Dict[str, int] = {"": OPSET}
        self.counter = 0

    def name(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}_{self.counter}"

    def node(self, op: str, inputs, stem: Optional[str] = None, domain: str = "", **attributes) -> str:
        out = self.name(stem or op.lower())
        self.nodes.append(proto.Node(op, list(inputs), [out], domain, attributes))
        return out

    def output(self, value: str, name: str, elem_type: int, dims: Sequence) -> None:
        self.nodes.append(proto.Node("Identity", [value], [name]))
        self.outputs.append(proto.value_info(name, elem_type, dims))

    def constant(self, name: str, value: np.ndarray) -> str:
        """A weight or constant: small ones inside the graph, the others as external initializers whose bytes
        the session takes from the arrays in memory (``SessionOptions.add_external_initializers``)."""
        value = np.asarray(value, order="C")
        if value.size < 1024:
            self.initializers.append(proto.tensor(name, value))
        else:
            self.initializers.append(proto.external_tensor(name, value))
            self.external[name] = value
        return name

    def model_bytes(self) -> bytes:
        return proto.model_bytes(self.nodes, self.initializers, self.inputs, self.outputs, opsets=self.opsets)

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

    def declare_inputs(self) -> None:
        for name in ("input_ids", "attention_mask", "token_type_ids", "position_ids"):
            self.inputs.append(proto.value_info(name, proto.INT64, ["batch", "length"]))

    def build(self, top: int) -> Dict[int, str]:
        """The encoder up to block ``top`` from standard ops; the name of each layer's output."""
        c = self.config
        self.declare_inputs()
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
        mask = self.node("Cast", [mask], to=proto.FLOAT)
        one = self.constant("one", np.array(1.0, np.float32))
        lowest = self.constant("lowest", np.array(np.finfo(np.float32).min, np.float32))
        additive = self.node("Mul", [self.node("Sub", [one, mask]), lowest])

        heads_shape = self.constant("heads_shape", np.array([0, 0, heads, size], np.int64))
        merged_shape = self.constant("merged_shape", np.array([0, 0, hidden], np.int64))
        scale = self.constant("scale", np.array(math.sqrt(size), np.float32))
        sqrt2 = self.constant("sqrt2", np.array(math.sqrt(2.0), np.float32))
        half = self.constant("half", np.array(0.5, np.float32))

        states = {0: x}
        for block in range(top):
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
        return states

    def build_fused(self, top: int) -> Dict[int, str]:
        """The same encoder with ONNX Runtime's CPU transformer kernels (domain ``com.microsoft``), which is
        what its own optimiser makes of a torch export: one ``Attention`` per block (Q, K and V weights
        side by side in one [H, 3H] matrix; the 0/1 mask as a 2-D ``mask_index``, masked scores set to
        finfo(float32).min), ``Add`` (bias, then residual, torch's order) + ``LayerNormalization`` for each residual +
        LayerNorm (see the module docstring for why not ``SkipLayerNormalization``) and ``BiasGelu`` (exact erf
        GELU); the other projections are ``FusedMatMul``
        with ``transB=1`` on the weights as stored (``[out, in]``), which the session packs once, so no transposed
        copy is made (the graph took 90 ms to build with them, 36 ms without). Built directly, so it works for
        weights of any size (external initializers) without the optimiser."""
        c = self.config
        self.declare_inputs()
        self.opsets["com.microsoft"] = 1
        p = self.params

        def residual_layer_norm(x, residual, prefix, bias=None):
            if bias is not None:
                x = self.node("Add", [x, bias])
            return self.layer_norm(self.node("Add", [x, residual]), prefix)

        def project(x, block, key):  # x @ W.T from W as stored ([out, in]): no transposed copy, packed once
            return self.node("FusedMatMul", [x, self.constant(f"{block}.{key}_w", p[f"{block}.{key}_w"])],
                             domain="com.microsoft", transB=1)

        def bias(block, key):
            return self.constant(f"{block}.{key}_b", p[f"{block}.{key}_b"])

        word = self.node("Gather", [self.constant("word", p["word"]), "input_ids"], axis=0)
        types = self.node("Gather", [self.constant("token_type", p["token_type"]), "token_type_ids"], axis=0)
        positions = self.node("Gather", [self.constant("position", p["position"]), "position_ids"], axis=0)
        x = residual_layer_norm(self.node("Add", [word, types]), positions, "ln")
        mask_index = self.node("Cast", ["attention_mask"], to=proto.INT32)
        states = {0: x}
        for block in range(top):
            qkv_w = self.weight(f"{block}.qkv_wT",
                                lambda: np.concatenate([p[f"{block}.{k}_w"].T for k in ("q", "k", "v")], axis=1))
            qkv_b = self.weight(f"{block}.qkv_b", lambda: np.concatenate([p[f"{block}.{k}_b"] for k in "qkv"]))
            attended = self.node("Attention", [x, qkv_w, qkv_b, mask_index],
                                 domain="com.microsoft", num_heads=c.num_attention_heads,
                                 mask_filter_value=float(np.finfo(np.float32).min))
            projected = project(attended, block, "o")
            x = residual_layer_norm(projected, x, f"{block}.ln1", bias(block, "o"))
            inner = self.node("BiasGelu", [project(x, block, "i"), bias(block, "i")], domain="com.microsoft")
            x = residual_layer_norm(project(inner, block, "f"), x, f"{block}.ln2", bias(block, "f"))
            states[block + 1] = x
        return states

    def finish_hidden(self, states: Dict[int, str], layers: Sequence[int]) -> None:
        """Outputs ``hidden_{layer}`` ``[B, L, H]`` float32 for each of ``layers``."""
        for layer in sorted(set(layers)):
            self.output(states[layer], f"hidden_{layer}", proto.FLOAT, ["batch", "length", self.config.hidden_size])

    def finish_summaries(self, states: Dict[int, str], layers: Sequence[int], kinds: Sequence[str]) -> None:
        """Outputs ``[K, B, …]`` float64 for each summary in ``kinds`` (``layer_summaries.SUMMARY_NAMES``) of
        ``layers`` in their order: ``first`` and ``token_sum`` ``[K, B, H]``, ``mean`` and ``variance`` ``[K, B]``
        over each sentence's unpadded tokens × dimensions (COMET's masked layer norm)."""
        hidden = self.config.hidden_size
        axis = {k: self.constant(f"axes_{k}", np.array(a, np.int64))
                for k, a in (("0", [0]), ("1", [1]), ("2", [2]), ("12", [1, 2]))}
        statistics = "mean" in kinds or "variance" in kinds
        mask = self.node("Cast", ["attention_mask"], to=proto.DOUBLE)  # [B, L]
        mask3 = self.node("Unsqueeze", [mask, axis["2"]])  # [B, L, 1]
        if statistics:  # unpadded tokens × dimensions of each sentence, [B]
            count = self.node("Mul", [self.node("ReduceSum", [mask, axis["1"]], keepdims=0),
                                      self.constant("hidden_size", np.array(float(hidden), np.float64))])
        if "first" in kinds:
            first_index = self.constant("first_index", np.array(0, np.int64))
        per_kind: Dict[str, List[str]] = {kind: [] for kind in kinds}
        for layer in layers:
            values = self.node("Cast", [states[layer]], to=proto.DOUBLE)
            found: Dict[str, str] = {}
            if "first" in kinds:
                found["first"] = self.node("Gather", [values, first_index], axis=1)
            if "token_sum" in kinds or statistics:
                masked = self.node("Mul", [values, mask3])
                found["token_sum"] = self.node("ReduceSum", [masked, axis["1"]], keepdims=0)  # [B, H]
            if statistics:  # one pass: variance = E[x²] − mean², exact enough in float64 (|x| ≪ 1e4)
                mean = self.node("Div", [self.node("ReduceSum", [found["token_sum"], axis["1"]], keepdims=0), count])
                squares = self.node("Div", [self.node("ReduceSumSquare", [masked], axes=[1, 2], keepdims=0), count])
                found["mean"] = mean
                found["variance"] = self.node("Sub", [squares, self.node("Mul", [mean, mean])])
            for kind in kinds:
                per_kind[kind].append(self.node("Unsqueeze", [found[kind], axis["0"]]))
        for kind in kinds:
            dims = ["layers", "batch"] + ([hidden] if kind in ("first", "token_sum") else [])
            stacked = self.node("Concat", per_kind[kind], axis=0) if len(per_kind[kind]) > 1 else per_kind[kind][0]
            self.output(stacked, kind, proto.DOUBLE, dims)


class OnnxBackend:
    name = "onnx"

    def __init__(self, config, params, num_blocks: int, *, threads=None, fuse: bool = True, **_ignored):
        self.ort = require("onnxruntime")
        self.config, self.params, self.num_blocks = config, params, num_blocks
        self.threads = int(threads) if threads else available_cores()
        # each run on one thread, ``threads`` runs at once (``text_encoder.run_batches``): 1.2–1.3× the
        # throughput of one run on two intra-op threads for MiniLM batches on 2 cores (their small GEMMs,
        # the attention and the element-wise kernels scale poorly within one run)
        self.concurrent_runs = self.threads
        self._lock = threading.Lock()
        self.fuse = bool(fuse)  # ONNX Runtime's fused transformer kernels (build_fused) or standard ops only
        self._sessions: Dict[Tuple, Tuple[int, Future]] = {}  # key -> (pid of the builder, session future)
        self._derived: Dict[str, np.ndarray] = {}
        self._keep_alive: List[Any] = []

    def session(self, layers: Tuple[int, ...], summaries: Tuple[str, ...] = ()):
        """The InferenceSession (cached) whose outputs are ``hidden_{layer}`` for ``layers``, or with
        ``summaries`` those summaries of ``layers`` in that order (``finish_summaries``); built here, or
        waited for when ``prepare`` started it."""
        key = self._key(layers, summaries)
        future, build_here = self._future(key)
        if build_here:
            self._build_into(key, future)
        return future.result()

    def prepare(self, layers: Sequence[int], summaries: Sequence[str] = ()) -> None:
        """Start building the session ``session(layers, summaries)`` will return on a background thread, so
        that it overlaps what the caller does before its first batch (loading the tokenizer, tokenizing): the
        build releases the GIL. Does nothing when that session exists or is being built."""
        key = self._key(layers, summaries)
        future, build_here = self._future(key)
        if build_here:  # the graph is written here (Python, GIL-bound); the session is made on the thread
            try:
                parts = self._session_parts(key)
            except BaseException as error:
                self._fail(key, future, error)
                raise
            threading.Thread(target=self._build_into, args=(key, future, parts), name="nlgmetrics-session",
                             daemon=True).start()

    @staticmethod
    def _key(layers: Sequence[int], summaries: Sequence[str]) -> Tuple[Tuple[int, ...], Tuple[str, ...]]:
        layers = tuple(int(n) for n in layers)
        return (layers, tuple(summaries)) if summaries else (tuple(sorted(set(layers))), ())

    def _future(self, key) -> Tuple[Future, bool]:
        """The session's future, and whether the caller is to build it (nobody has started). A build started
        in a parent process before a fork is started again in the child (its thread is not there)."""
        with self._lock:  # concurrent runs share one session, built once
            entry = self._sessions.get(key)
            if entry is not None and (entry[1].done() or entry[0] == os.getpid()):
                return entry[1], False
            future: Future = Future()
            self._sessions[key] = (os.getpid(), future)
            return future, True

    def _build_into(self, key, future: Future, parts: Optional[Tuple[bytes, Any]] = None) -> None:
        try:
            model, options = parts if parts is not None else self._session_parts(key)
            future.set_result(self.ort.InferenceSession(model, options, providers=["CPUExecutionProvider"],
                                                        disabled_optimizers=UNFUSED))
        except BaseException as error:
            self._fail(key, future, error)

    def _fail(self, key, future: Future, error: BaseException) -> None:
        """The waiters get ``error``; a later call builds again."""
        with self._lock:
            if self._sessions.get(key, (None, None))[1] is future:
                del self._sessions[key]
        future.set_exception(error)

    def _session_parts(self, key: Tuple[Tuple[int, ...], Tuple[str, ...]]) -> Tuple[bytes, Any]:
        """The graph's bytes and the session options (its weights as external initializers) for ``key``."""
        layers, summaries = key
        builder = _GraphBuilder(self.config, self.params, self.num_blocks, self._derived)
        top = max(layers)
        states = builder.build_fused(top) if self.fuse else builder.build(top)
        if summaries:
            builder.finish_summaries(states, layers, summaries)
        else:
            builder.finish_hidden(states, layers)
        options = self.ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = self.ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = self.ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        # (no intra-op pool threads to spin: each run is single-threaded; ``concurrent_runs`` run at once)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if builder.external:
            names = list(builder.external)
            values = [self.ort.OrtValue.ortvalue_from_numpy(builder.external[n]) for n in names]
            self._keep_alive.append(values)  # the arrays live in self.params / self._derived
            options.add_external_initializers(names, values)
        return builder.model_bytes(), options

    @staticmethod
    def _feeds(ids, mask, types, positions) -> Dict[str, np.ndarray]:
        return {"input_ids": np.ascontiguousarray(ids, np.int64),
                "attention_mask": np.ascontiguousarray(mask, np.int64),
                "token_type_ids": np.ascontiguousarray(types, np.int64),
                "position_ids": np.ascontiguousarray(positions, np.int64)}

    def hidden_states(self, ids, mask, types, positions, layers: Sequence[int]) -> np.ndarray:
        key = tuple(sorted(set(layers)))
        session = self.session(key)
        outputs = session.run([f"hidden_{layer}" for layer in key], self._feeds(ids, mask, types, positions))
        if len(layers) == 1:
            return outputs[0][None]
        results = dict(zip(key, outputs))
        return np.stack([results[layer] for layer in layers]).astype(np.float32, copy=False)

    def summaries(self, ids, mask, types, positions, layers: Sequence[int],
                  kinds: Sequence[str]) -> Dict[str, np.ndarray]:
        """``{kind: float64 [K, B, …]}`` for ``kinds`` (checked and ordered by ``Encoder.layer_summaries``),
        computed inside the graph."""
        session = self.session(tuple(int(n) for n in layers), tuple(kinds))
        outputs = session.run(list(kinds), self._feeds(ids, mask, types, positions))
        return dict(zip(kinds, outputs))
