"""The encoder runtime: token ids and masks in, hidden states of the requested layers out.

>>> enc = Encoder.from_pretrained(minilm_dir, layers_needed=[6])          # doctest: +SKIP
>>> states = enc.hidden_states(ids, mask, layers=[6])                     # doctest: +SKIP
>>> states.shape                                                          # doctest: +SKIP
(1, 2, 12, 384)

Layer 0 is the embeddings' output (transformers' ``hidden_states[0]``), layer k the output of block k. The
arithmetic is transformers' ``BertModel`` / ``RobertaModel`` / ``XLMRobertaModel`` in eval mode
(transformers/models/bert/modeling_bert.py, roberta/modeling_roberta.py): word + token-type + position
embeddings and LayerNorm; per block self-attention with the additive mask ``(1 - mask) * finfo(float32).min``,
a dense projection, residual and LayerNorm, an erf-GELU feed-forward, residual and LayerNorm. Position ids
are ``0..L-1`` for BERT and ``pad + cumsum(ids != pad) * (ids != pad)`` for RoBERTa / XLM-R
(``create_position_ids_from_input_ids``). Only the blocks up to the highest layer needed are built (as
bert_score deletes the layers past ``num_layers``). The backend — ``"onnx"`` (default, ONNX Runtime),
``"numpy"`` (the reference, slow) or ``"torch"`` — is one module under ``backends/``.
"""

from __future__ import annotations

import json
import os
from dataclasses import MISSING, dataclass, fields
from typing import Any, Dict, Mapping, Optional, Sequence

import numpy as np

SUPPORTED_MODEL_TYPES = ("bert", "roberta", "xlm-roberta", "camembert")
BACKENDS = ("onnx", "numpy", "torch")


class EncoderError(ValueError):
    """A model directory, config or weights the encoder cannot use."""


@dataclass(frozen=True)
class EncoderConfig:
    """The fields of a transformers ``config.json`` the forward pass depends on."""

    model_type: str
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    layer_norm_eps: float = 1e-12
    max_position_embeddings: int = 512
    pad_token_id: int = 0
    type_vocab_size: int = 2
    hidden_act: str = "gelu"

    @classmethod
    def from_dict(cls, config: Mapping) -> "EncoderConfig":  # noqa: C901
        """From a parsed config.json; raises EncoderError naming what is missing or unsupported.

        >>> EncoderConfig.from_dict({"model_type": "bert", "vocab_size": 10, "hidden_size": 8,
        ...     "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 16}).head_size
        4
        """
        if not isinstance(config, Mapping):
            raise EncoderError("the model config must be a JSON object")
        model_type = config.get("model_type")
        if model_type not in SUPPORTED_MODEL_TYPES:
            raise EncoderError(f"unsupported model_type {model_type!r} (supported: {', '.join(SUPPORTED_MODEL_TYPES)})")
        values = {}
        for spec in fields(cls):
            if spec.name in config and config[spec.name] is not None:
                values[spec.name] = config[spec.name]
            elif spec.default is MISSING:
                raise EncoderError(f"the model config lacks {spec.name!r}")
        if model_type in ("roberta", "xlm-roberta", "camembert") and "pad_token_id" not in config:
            values["pad_token_id"] = 1
        try:
            for name in values:
                if name == "layer_norm_eps":
                    values[name] = float(values[name])
                elif name not in ("model_type", "hidden_act"):
                    if isinstance(values[name], bool) or int(values[name]) != values[name] or values[name] < 0:
                        raise ValueError(f"{name} = {values[name]!r} is not a count")
                    values[name] = int(values[name])
            made = cls(**values)
        except (TypeError, ValueError) as error:
            raise EncoderError(f"malformed model config ({error})") from None
        if min(made.vocab_size, made.hidden_size, made.num_attention_heads, made.max_position_embeddings) < 1:
            raise EncoderError("malformed model config (a size of 0)")
        if made.hidden_act != "gelu":
            raise EncoderError(f"unsupported hidden_act {made.hidden_act!r} (only the exact erf 'gelu')")
        position_type = config.get("position_embedding_type", "absolute")
        if position_type != "absolute":
            raise EncoderError(f"unsupported position_embedding_type {position_type!r} (only 'absolute')")
        if made.hidden_size % made.num_attention_heads:
            raise EncoderError(f"hidden_size {made.hidden_size} is not a multiple of num_attention_heads "
                               f"{made.num_attention_heads}")
        return made

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> "EncoderConfig":
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise EncoderError(f"no config.json at {path}")
        with open(path, encoding="utf-8") as handle:
            try:
                return cls.from_dict(json.load(handle))
            except json.JSONDecodeError as error:
                raise EncoderError(f"{path}: malformed JSON ({error})") from None

    @property
    def head_size(self) -> int:
        return self.hidden_size // self.num_attention_heads

    @property
    def roberta_positions(self) -> bool:
        """RoBERTa / XLM-R count positions from ``pad_token_id + 1`` over non-pad tokens."""
        return self.model_type != "bert"

    @property
    def max_length(self) -> int:
        """The longest input the position table allows."""
        if self.roberta_positions:
            return self.max_position_embeddings - self.pad_token_id - 1
        return self.max_position_embeddings


# Canonical parameter names (what backends read) -> the transformers names after the prefix.
_EMBEDDING_NAMES = {
    "word": "embeddings.word_embeddings.weight",
    "position": "embeddings.position_embeddings.weight",
    "token_type": "embeddings.token_type_embeddings.weight",
    "ln_w": "embeddings.LayerNorm.weight",
    "ln_b": "embeddings.LayerNorm.bias",
}
_BLOCK_NAMES = {
    "q_w": "attention.self.query.weight", "q_b": "attention.self.query.bias",
    "k_w": "attention.self.key.weight", "k_b": "attention.self.key.bias",
    "v_w": "attention.self.value.weight", "v_b": "attention.self.value.bias",
    "o_w": "attention.output.dense.weight", "o_b": "attention.output.dense.bias",
    "ln1_w": "attention.output.LayerNorm.weight", "ln1_b": "attention.output.LayerNorm.bias",
    "i_w": "intermediate.dense.weight", "i_b": "intermediate.dense.bias",
    "f_w": "output.dense.weight", "f_b": "output.dense.bias",
    "ln2_w": "output.LayerNorm.weight", "ln2_b": "output.LayerNorm.bias",
}
_LEGACY_LAYER_NORM = {".weight": ".gamma", ".bias": ".beta"}  # old TF-converted checkpoints


def find_prefix(weights: Mapping[str, np.ndarray]) -> str:
    """The prefix before ``embeddings.word_embeddings.weight`` ("" , "bert.", "roberta.",
    COMET's "encoder.model.", ...)."""
    target = _EMBEDDING_NAMES["word"]
    candidates = sorted((name[: -len(target)] for name in weights if name.endswith(target)), key=len)
    if not candidates:
        raise EncoderError(f"the weights have no {target!r} (not a BERT / RoBERTa / XLM-R encoder)")
    return candidates[0]


class Encoder:
    """A transformer encoder over NumPy weights (see the module docstring).

    ``weights``: tensors by transformers name (``read_weights`` output); ``prefix``: the part before
    ``embeddings.`` — ``None`` finds it; ``layers_needed``: the layers ``hidden_states`` may be asked for
    (default: all) — blocks past the highest are not built; ``backend``: ``"onnx"`` | ``"numpy"`` |
    ``"torch"``; ``threads``: intra-op threads (default: the machine's cores); ``device`` / ``dtype``: torch
    backend only (``"cpu"``, ``"cuda"``…; ``"float32"`` | ``"float16"`` | ``"bfloat16"``).
    """

    def __init__(self, config: EncoderConfig, weights: Mapping[str, np.ndarray], *, prefix: Optional[str] = None,
                 layers_needed: Optional[Sequence[int]] = None, backend: str = "onnx",
                 threads: Optional[int] = None, device: Optional[str] = None, dtype: Optional[str] = None):
        if not isinstance(config, EncoderConfig):
            raise TypeError("config must be an EncoderConfig (EncoderConfig.from_dict(config_json))")
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
        self.config = config
        if layers_needed is None:
            top = config.num_hidden_layers
        else:
            layers_needed = [int(n) for n in layers_needed]
            _check_layers(layers_needed, config.num_hidden_layers)
            top = max(layers_needed) if layers_needed else 0
        self.num_blocks = top
        self.prefix = find_prefix(weights) if prefix is None else prefix
        self.params = self._collect(weights)
        self.backend_name = backend
        self.threads = threads
        self._backend: Any
        if backend == "numpy":
            from nlgmetrics.neural.backends.numpy_backend import NumpyBackend

            self._backend = NumpyBackend(config, self.params, self.num_blocks)
        elif backend == "onnx":
            from nlgmetrics.neural.backends.onnx_backend import OnnxBackend

            self._backend = OnnxBackend(config, self.params, self.num_blocks, threads=threads)
        else:
            from nlgmetrics.neural.backends.torch_backend import TorchBackend

            self._backend = TorchBackend(config, self.params, self.num_blocks, threads=threads,
                                         device=device, dtype=dtype)

    def prepare(self, layers: Sequence[int], summaries: Sequence[str] = ()) -> None:
        """Let the backend get ready for ``hidden_states(…, layers)`` — or, with ``summaries``, for
        ``layer_summaries(…, layers, summaries)`` — in the background (the ONNX backend builds its session on a
        thread), while the caller loads its tokenizer and tokenizes. Optional: without it the first call does
        this itself. ``encoder.prepare(range(7), ["token_sum"])`` before tokenizing, then
        ``encoder.layer_summaries(ids, mask, range(7), ["token_sum"])`` finds the session built (or waits for it).
        """
        from nlgmetrics.neural import layer_summaries

        prepare = getattr(self._backend, "prepare", None)
        if prepare is not None:
            _check_layers([int(n) for n in layers], self.num_blocks, built=True)
            prepare([int(n) for n in layers], layer_summaries.summary_names(summaries) if summaries else ())

    @property
    def concurrent_runs(self) -> int:
        """How many batches a caller may run at once (on as many threads): the ONNX backend runs each batch on
        one thread, ``threads`` at a time; torch and NumPy parallelise inside one run (1)."""
        return int(getattr(self._backend, "concurrent_runs", 1))

    @classmethod
    def from_pretrained(cls, model_dir: str | os.PathLike, **options) -> "Encoder":
        """An encoder from a transformers model directory: ``config.json`` and ``model.safetensors`` (or
        ``pytorch_model.bin``, or either one sharded with its ``*.index.json``)."""
        model_dir = os.fspath(model_dir)
        config = EncoderConfig.from_file(os.path.join(model_dir, "config.json"))
        return cls(config, read_model_weights(model_dir), **options)

    def _collect(self, weights: Mapping[str, np.ndarray]) -> Dict[str, np.ndarray]:
        config, prefix = self.config, self.prefix
        hidden = config.hidden_size

        def get(name: str, shape) -> np.ndarray:
            full = prefix + name
            value = weights.get(full)
            if value is None:
                for new, old in _LEGACY_LAYER_NORM.items():
                    if "LayerNorm" in name and name.endswith(new):
                        value = weights.get(prefix + name[: -len(new)] + old)
            if value is None:
                raise EncoderError(f"the weights lack {full!r}")
            value = np.asarray(value)
            if tuple(value.shape) != tuple(shape):
                raise EncoderError(f"{full!r} has shape {tuple(value.shape)}, the config says {tuple(shape)}")
            return np.ascontiguousarray(value, dtype=np.float32)

        params = {
            "word": get(_EMBEDDING_NAMES["word"], (config.vocab_size, hidden)),
            "position": get(_EMBEDDING_NAMES["position"], (config.max_position_embeddings, hidden)),
            "token_type": get(_EMBEDDING_NAMES["token_type"], (config.type_vocab_size, hidden)),
            "ln_w": get(_EMBEDDING_NAMES["ln_w"], (hidden,)),
            "ln_b": get(_EMBEDDING_NAMES["ln_b"], (hidden,)),
        }
        inner = config.intermediate_size
        shapes = {"q_w": (hidden, hidden), "k_w": (hidden, hidden), "v_w": (hidden, hidden), "o_w": (hidden, hidden),
                  "i_w": (inner, hidden), "f_w": (hidden, inner), "i_b": (inner,)}
        for block in range(self.num_blocks):
            for key, name in _BLOCK_NAMES.items():
                params[f"{block}.{key}"] = get(f"encoder.layer.{block}.{name}", shapes.get(key, (hidden,)))
        return params

    def hidden_states(self, input_ids, attention_mask, layers: Sequence[int],
                      token_type_ids=None) -> np.ndarray:
        """float32 ``[len(layers), B, L, H]``: the hidden states of ``layers`` for a right- (or left-)padded
        batch. ``input_ids`` / ``attention_mask``: int ``[B, L]``; ``token_type_ids``: zeros by default."""
        ids, mask, types, layers = self._checked(input_ids, attention_mask, layers, token_type_ids)
        batch, length = ids.shape
        if batch == 0 or length == 0:
            return np.zeros((len(layers), batch, length, self.config.hidden_size), np.float32)
        return self._backend.hidden_states(ids, mask, types, self.position_ids(ids), layers)

    def layer_summaries(self, input_ids, attention_mask, layers: Sequence[int],
                        kinds: Sequence[str]) -> Dict[str, np.ndarray]:
        """float64 ``{kind: [len(layers), B, …]}``: per layer and sentence, the summaries ``kinds`` of its
        hidden states (``nlgmetrics.neural.layer_summaries``) — computed inside the graph by the ONNX backend,
        from ``hidden_states`` by the others."""
        from nlgmetrics.neural import layer_summaries

        kinds = layer_summaries.summary_names(kinds)
        in_graph = getattr(self._backend, "summaries", None)
        ids, mask, types, layers = self._checked(input_ids, attention_mask, layers, None)
        if in_graph is None or ids.size == 0:
            return layer_summaries.from_hidden(self.hidden_states(ids, mask, layers), mask, kinds)
        return in_graph(ids, mask, types, self.position_ids(ids), layers, kinds)

    def _checked(self, input_ids, attention_mask, layers: Sequence[int], token_type_ids):
        """``(ids, mask, types, layers)`` checked: shapes, ids in the vocabulary, layers built, length."""
        ids = _as_int_matrix(input_ids, "input_ids")
        mask = _as_int_matrix(attention_mask, "attention_mask")
        if mask.shape != ids.shape:
            raise ValueError(f"attention_mask has shape {mask.shape}, input_ids {ids.shape}")
        if token_type_ids is None:
            types = np.zeros_like(ids)
        else:
            types = _as_int_matrix(token_type_ids, "token_type_ids")
            if types.shape != ids.shape:
                raise ValueError(f"token_type_ids has shape {types.shape}, input_ids {ids.shape}")
            _check_range(types, self.config.type_vocab_size, "token type id", "token types")
        layers = [int(n) for n in layers]
        if not layers:
            raise ValueError("layers is empty: ask for at least one layer")
        _check_layers(layers, self.num_blocks, built=self.num_blocks < self.config.num_hidden_layers)
        _check_range(ids, self.config.vocab_size, "input id", "the vocabulary")
        if ids.shape[1] > self.config.max_length:
            raise ValueError(f"inputs of {ids.shape[1]} tokens exceed the model's {self.config.max_length} "
                             "positions (truncate them)")
        return ids, mask, types, layers

    def position_ids(self, ids: np.ndarray) -> np.ndarray:
        """transformers' position ids for a batch (see the module docstring)."""
        if not self.config.roberta_positions:
            return np.broadcast_to(np.arange(ids.shape[1], dtype=np.int64), ids.shape).copy()
        pad = self.config.pad_token_id
        real = (ids != pad).astype(np.int64)
        return np.cumsum(real, axis=1) * real + pad


WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                "pytorch_model.bin.index.json")


def read_model_weights(model_dir: str) -> Dict[str, np.ndarray]:
    """The tensors of a transformers model directory (first of ``WEIGHT_FILES`` found; an index file's
    ``weight_map`` names the shards)."""
    from nlgmetrics.neural.weights import read_weights

    for name in WEIGHT_FILES:
        path = os.path.join(model_dir, name)
        if not os.path.isfile(path):
            continue
        if not name.endswith(".index.json"):
            return read_weights(path)
        with open(path, encoding="utf-8") as handle:
            try:
                weight_map = json.load(handle)["weight_map"]
                shards = sorted(set(weight_map.values()))
            except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
                raise EncoderError(f"{path}: malformed index (no weight_map)") from None
        weights: Dict[str, np.ndarray] = {}
        for shard in shards:
            shard_path = os.path.join(model_dir, shard)
            if not os.path.isfile(shard_path):
                raise EncoderError(f"{path} names the shard {shard}, which is missing")
            weights.update(read_weights(shard_path))
        return weights
    raise EncoderError(f"no weights in {model_dir}: looked for {', '.join(WEIGHT_FILES)}")


def _as_int_matrix(value, name: str) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D [batch, length] array, got shape {array.shape}")
    if array.size and array.dtype.kind not in "iub":
        raise ValueError(f"{name} must hold integers, got {array.dtype}")
    return array.astype(np.int64, copy=False)


def _check_range(array: np.ndarray, size: int, what: str, where: str) -> None:
    if array.size == 0:
        return
    bad = np.argwhere((array < 0) | (array >= size))
    if len(bad):
        row, col = (int(i) for i in bad[0])
        raise ValueError(f"{what} {int(array[row, col])} at [{row}, {col}] is outside {where} (size {size})")


def _check_layers(layers: Sequence[int], top: int, built: bool = False) -> None:
    for layer in layers:
        if not 0 <= layer <= top:
            extra = " built (layers_needed)" if built else ""
            raise ValueError(f"layer {layer} is out of range: the encoder has layers 0..{top}{extra}")
