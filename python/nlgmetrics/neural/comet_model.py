"""A COMET checkpoint without PyTorch or Lightning: the encoder, the layer mix, pooling and the estimator head.

Reads Unbabel's layout — ``<folder>/checkpoints/model.ckpt`` and ``<folder>/hparams.yaml`` (its
``class_identifier``) — as unbabel-comet 2.2.7's ``load_from_checkpoint`` does: the weights and
hyper-parameters come from the checkpoint; the encoder's configuration and tokenizer from the folder named
by ``pretrained_model`` (found like any model: a path, ``$NLGMETRICS_MODELS``, the Hugging Face cache; or
``encoder=`` given by the caller). What decides the numbers (``comet/models/base.py``,
``regression/regression_metric.py``, ``multitask/unified_metric.py``, ``modules/layerwise_attention.py``):

* each text tokenized alone, truncated to ``max_position_embeddings − 4`` tokens (``max_positions − 2``);
* ``layer: mix``: every hidden state (embeddings and each block) mixed with weights ``softmax(w)`` — or
  ``sparsemax(w)`` only when the checkpoint says exactly ``sparsemax`` — times ``gamma``; with
  ``layer_norm`` each layer first normalised over all unpadded tokens × dimensions of the sentence
  (``eps`` 1e-12); an integer ``layer`` takes that hidden state;
* pooling ``avg`` (mean over tokens that are not padding, special tokens included), ``cls``, ``max``;
* regression: the head on ``[mt, ref, mt⊙ref, |mt−ref|, mt⊙src, |mt−src|]``; reference-free regression on
  ``[mt, src, mt⊙src, |mt−src|]``; unified (CometKiwi): ``<s> mt </s></s> src </s>`` encoded together
  (cut to ``max_positions`` tokens when too long) and the head on the first token of the mix.

Sentence vectors are cached per text (``nlgmetrics.neural.cache``), so a source or reference shared by
several systems is encoded once, and the head — a few small matrix products — runs on any pairing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.neural import layer_summaries
from nlgmetrics.neural.text_encoder import DEFAULT_MAX_TOKENS

__all__ = ["CometModel", "load_comet", "sparsemax", "CLASSES"]

#: class_identifier → what the model takes.
CLASSES = {"regression_metric": "regression", "referenceless_regression_metric": "referenceless",
           "unified_metric": "unified"}
#: Segments scored per chunk (memory follows a chunk's sentence vectors, not the corpus).
CHUNK_SEGMENTS = 8192
#: The most feature bytes (float64) one head call is given: longer inputs and the pairs of ``pairwise_scores``
#: run in blocks of rows.
HEAD_FEATURE_BYTES = 64 << 20
#: Head layers with at least this many weights multiply through BLAS; smaller ones through einsum (see ``Head``).
BLAS_MIN_WEIGHTS = 1 << 20
ACTIVATIONS = {"tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "relu": lambda x: np.maximum(x, 0)}


def sparsemax(weights: np.ndarray) -> np.ndarray:
    """Sparsemax (Martins & Astudillo 2016) of a vector, as entmax's ``sparsemax(w, dim=0)``.

    >>> sparsemax(np.array([1.0, 0.0, -1.0], dtype=np.float32)).tolist()
    [1.0, 0.0, 0.0]
    >>> [round(float(w), 6) for w in sparsemax(np.array([0.5, 0.4], dtype=np.float32))]
    [0.55, 0.45]
    """
    z = np.asarray(weights, dtype=np.float32)
    ordered = np.sort(z)[::-1]
    cumulative = np.cumsum(ordered, dtype=np.float32)
    k = np.arange(1, len(z) + 1, dtype=np.float32)
    support = (np.float32(1) + k * ordered) > cumulative
    size = int(np.nonzero(support)[0][-1]) + 1
    tau = (cumulative[size - 1] - np.float32(1)) / np.float32(size)
    return np.maximum(z - tau, np.float32(0)).astype(np.float32)


def softmax(weights: np.ndarray) -> np.ndarray:
    z = np.asarray(weights, dtype=np.float32)
    e = np.exp(z - z.max())
    return (e / e.sum()).astype(np.float32)


def class_identifier(hparams_file: Path) -> str:
    """``class_identifier`` from ``hparams.yaml`` (a one-line key; PyYAML is not needed for it)."""
    text = hparams_file.read_text(encoding="utf-8")
    found = re.search(r"^class_identifier:\s*['\"]?([A-Za-z_]+)['\"]?\s*$", text, re.MULTILINE)
    if not found:
        raise ValueError(f"{hparams_file}: no class_identifier line")
    return found.group(1)


@dataclass
class Head:
    """The estimator: Linear → activation (→ Linear → activation)* → Linear (→ final activation)."""

    layers: List[Tuple[np.ndarray, np.ndarray]]
    activation: Any
    final_activation: Any

    def __post_init__(self) -> None:
        # the float32 weights widened (exactly) once, transposed for ``x @ W``: the head runs in float64
        self._widened = [(weight.T.astype(np.float64), bias.astype(np.float64)) for weight, bias in self.layers]

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """``features`` ``[rows, in]`` → ``[rows]`` float64.

        Each layer's path depends on its size, never on the row count: through einsum a row's score is the
        same however the rows are chunked; through BLAS it may move by float64 rounding (~1e-16).
        - Small layers use einsum's own loops, not BLAS. After a call numpy's OpenBLAS threads busy-wait
          ~0.1 s of a core, which the encoder's next batches then lack (3 % of an 8-system MiniLM loop on
          2 cores, perf, 2026-12-02). einsum takes ~11 ms for 255 rows of 2,304 → 64.
        - Large layers (wmt22-comet-da's 6,144 → 3,072 → 1,024) use BLAS, 8–12× faster there: 144 pairs took
          2.4 s through einsum, 0.2 s through BLAS.
        """
        x = np.asarray(features, dtype=np.float64)
        for index, (weight, bias) in enumerate(self._widened):
            x = (x @ weight if weight.size >= BLAS_MIN_WEIGHTS else np.einsum("ij,jk->ik", x, weight)) + bias
            if index < len(self.layers) - 1:
                x = self.activation(x)
        if self.final_activation is not None:
            x = self.final_activation(x)
        return x.reshape(-1)


def _activation(name: Optional[str], what: str) -> Any:
    if name is None:
        return None
    found = ACTIVATIONS.get(str(name).lower())
    if found is None:
        raise ValueError(f"COMET {what} {name!r} is not supported (supported: {', '.join(ACTIVATIONS)})")
    return found


def _head(state: Dict[str, np.ndarray], hparams: Dict[str, Any]) -> Head:
    indices = sorted({int(match.group(1)) for key in state
                      if (match := re.fullmatch(r"estimator\.ff\.(\d+)\.weight", key))})
    if not indices:
        raise ValueError("the checkpoint has no estimator.ff.*.weight (not a COMET regression/unified model)")
    layers = [(state[f"estimator.ff.{i}.weight"].astype(np.float32), state[f"estimator.ff.{i}.bias"].astype(np.float32))
              for i in indices]
    return Head(layers, _activation(hparams.get("activations", "Tanh"), "activation"),
                _activation(hparams.get("final_activation"), "final_activation"))


class CometModel:
    """A loaded COMET checkpoint (see the module docstring); ``score(...)`` gives one number per segment."""

    def __init__(self, folder: Path, *, encoder_folder: Optional[Path] = None, backend: str = "onnx",
                 threads: Optional[int] = None, allow_download: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS):
        from nlgmetrics.neural import weights as weights_module
        from nlgmetrics.neural.loaded import encoder_model, read_config
        from nlgmetrics.neural.models import find_model

        folder = Path(folder)
        checkpoint = folder / "checkpoints" / "model.ckpt"
        hparams_file = folder / "hparams.yaml"
        missing = [str(path) for path in (checkpoint, hparams_file) if not path.is_file()]
        if missing:
            raise FileNotFoundError(f"{folder}: not a COMET checkpoint folder (missing {', '.join(missing)}; "
                                    "expected checkpoints/model.ckpt and hparams.yaml)")
        identifier = class_identifier(hparams_file)
        if identifier not in CLASSES:
            raise ValueError(f"{hparams_file}: class_identifier {identifier!r} is not supported (supported: "
                             f"{', '.join(CLASSES)})")
        self.kind = CLASSES[identifier]
        state, hparams = weights_module.read_checkpoint(checkpoint)
        self.hparams = hparams
        pretrained = hparams.get("pretrained_model")
        if encoder_folder is None:
            if not isinstance(pretrained, str):
                raise ValueError(f"{checkpoint}: hyper-parameters name no pretrained_model")
            encoder_folder = find_model(pretrained, allow_download=allow_download,
                                        what=f"COMET encoder (pretrained_model of {folder.name})")
        encoder_folder = Path(encoder_folder)
        self.config = read_config(encoder_folder)
        depth = int(self.config["num_hidden_layers"])
        layer = hparams.get("layer" if self.kind != "unified" else "sent_layer", "mix")
        self.mix = layer == "mix"
        if not self.mix and not (isinstance(layer, int) and 0 <= layer <= depth):
            raise ValueError(f"{checkpoint}: layer {layer!r} is not 'mix' or a layer 0–{depth}")
        self.layers = list(range(depth + 1)) if self.mix else [int(layer)]
        self.pool = hparams.get("pool", "avg") if self.kind != "unified" else "cls"
        if self.pool not in ("avg", "cls", "max"):
            raise ValueError(f"{checkpoint}: pool {self.pool!r} is not supported (avg, cls, max)")
        if self.mix:
            count = len(self.layers)
            try:
                scalars = np.concatenate([state[f"layerwise_attention.scalar_parameters.{k}"].reshape(-1)
                                          for k in range(count)]).astype(np.float32)
                self.gamma = np.float32(state["layerwise_attention.gamma"].reshape(-1)[0])
            except KeyError as error:
                raise ValueError(f"{checkpoint}: layer mix weights missing ({error.args[0]})") from None
            transform = hparams.get("layer_transformation", "softmax")
            self.layer_weights = sparsemax(scalars) if transform == "sparsemax" else softmax(scalars)
            self.layer_norm = bool(hparams.get("layer_norm", False))
        encoder_state = {key[len("encoder."):]: value for key, value in state.items() if key.startswith("encoder.model.")}
        self.loaded = encoder_model(encoder_folder, layers_needed=max(self.layers), add_prefix_space=None,
                                    backend=backend, threads=threads, weights=encoder_state, weights_path=checkpoint,
                                    max_tokens=max_tokens, prepare=(self.layers, self._summaries()))
        self.fingerprint = self.loaded.fingerprint  # the checkpoint's and the encoder config's hash
        self.head = _head(state, hparams)
        self.input_segments = list(hparams.get("input_segments", ["mt", "src", "ref"]))
        self.max_positions = int(self.config["max_position_embeddings"]) - 2
        self.folder = folder
        self.encoder_folder = encoder_folder

    @property
    def needs_references(self) -> bool:
        return self.kind == "regression"

    # ------------------------------------------------------------------ sentence vectors

    def _summaries(self) -> Tuple[str, ...]:
        """What the encoder returns per layer for this model's mix and pooling (``layer_summaries``), or
        ``()`` for max pooling, which needs every token's mixed vector."""
        if self.pool == "max":
            return ()
        kinds = ("first",) if self.pool == "cls" else ("token_sum",)
        return kinds + (("mean", "variance") if self.mix and self.layer_norm else ())

    def _pooled_from_summaries(self, summaries: Dict[str, np.ndarray], mask: np.ndarray,
                               ids: np.ndarray) -> List[np.ndarray]:
        """Each row's pooled mix, float64 (LayerwiseAttention.forward then the pooling, which are linear in
        each layer: ``gamma * sum_k w_k (pool(h_k) - mean_k) / sqrt(variance_k + 1e-12)``). The anchor's
        float32 sums over a sentence's tokens × dimensions carry its own rounding, which float64 keeps out
        of ours."""
        if self.pool == "cls":
            pooled = summaries["first"]
        else:
            pooled = summaries["token_sum"] / mask.sum(axis=1).astype(np.float64)[None, :, None]
        if not self.mix:
            vectors = pooled[0]
        else:
            if self.layer_norm:
                pooled = (pooled - summaries["mean"][:, :, None]) / np.sqrt(summaries["variance"][:, :, None] + 1e-12)
            vectors = float(self.gamma) * np.tensordot(self.layer_weights.astype(np.float64), pooled, axes=1)
        return [vectors[row] for row in range(len(vectors))]

    def _mix(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``[B, L, H]`` mixed layers (LayerwiseAttention.forward) in float64, for max pooling."""
        if not self.mix:
            return hidden[0].astype(np.float64)
        weights = self.layer_weights.astype(np.float64)
        mixed = np.zeros(hidden.shape[1:], dtype=np.float64)
        if not self.layer_norm:
            for k in range(len(self.layers)):
                mixed += weights[k] * hidden[k].astype(np.float64)
            return float(self.gamma) * mixed
        summaries = layer_summaries.from_hidden(hidden, mask, ("mean", "variance"))
        for k in range(len(self.layers)):
            mean, variance = summaries["mean"][k], summaries["variance"][k]
            mixed += weights[k] * ((hidden[k] - mean[:, None, None]) / np.sqrt(variance + 1e-12)[:, None, None])
        return float(self.gamma) * mixed

    def _pooled_by_max(self, hidden: np.ndarray, mask: np.ndarray, ids: np.ndarray) -> List[np.ndarray]:
        mixed = self._mix(hidden, mask)
        filled = np.where((ids == int(self.loaded.tokenizer.pad_id))[:, :, None], -np.inf, mixed)  # mask_fill(-inf)
        vectors = filled.max(axis=1)
        return [vectors[row] for row in range(len(vectors))]

    def token_ids(self, texts: Sequence[str]) -> List[Tuple[int, ...]]:
        """Each text's ids as the anchor's ``tokenizer(..., truncation=True, max_length=max_positions − 2)``."""
        return self.loaded.text_encoder.token_ids([str(text) for text in texts], self.max_positions - 2,
                                                  "comet", "unbabel-comet")

    def sentence_vectors(self, texts: Sequence[str]) -> np.ndarray:
        """``[n, H]`` pooled vectors of texts (each distinct text encoded once; cached)."""
        return self._pooled_rows("sent", self.token_ids(texts))

    def joint_vectors(self, first: Sequence[str], second: Sequence[str]) -> np.ndarray:
        """``[n, H]`` first-token vectors of ``<s> a </s></s> b </s>`` (unified models), cut as the anchor cuts."""
        tokenizer = self.loaded.tokenizer
        return self._pooled_rows("joint", [tuple(tokenizer.join(a, b, max_positions=self.max_positions))
                                           for a, b in zip(self.token_ids(first), self.token_ids(second))])

    def _pooled_rows(self, kind: str, rows: List[Tuple[int, ...]]) -> np.ndarray:
        """``[n, H]``: the pooled vector of each id row (each distinct row encoded once; cached)."""
        summaries = self._summaries()
        reduce = self._pooled_from_summaries if summaries else self._pooled_by_max
        found = self.loaded.text_encoder.encode(f"comet:{self.fingerprint}:{kind}", {row: row for row in rows},
                                                self.layers, reduce, summaries=summaries)
        width = int(self.config["hidden_size"])
        return np.stack([found[row] for row in rows]) if rows else np.zeros((0, width))

    # ------------------------------------------------------------------ scores

    def head_scores(self, mt: np.ndarray, ref: Optional[np.ndarray], src: np.ndarray) -> np.ndarray:
        """The regression head on sentence vectors (rows aligned), ``HEAD_FEATURE_BYTES`` of features at a time."""
        block = _head_rows((6 if self.kind == "regression" else 4) * mt.shape[1])
        if len(mt) > block:
            return np.concatenate([self.head_scores(mt[start:start + block], None if ref is None else
                                                    ref[start:start + block], src[start:start + block])
                                   for start in range(0, len(mt), block)])
        if self.kind == "regression":
            features = np.concatenate([mt, ref, mt * ref, np.abs(mt - ref), mt * src, np.abs(mt - src)], axis=1)
        else:
            features = np.concatenate([mt, src, mt * src, np.abs(mt - src)], axis=1)
        return self.head(features)

    def pairwise_scores(self, vectors: np.ndarray, source: np.ndarray) -> np.ndarray:
        """``[N, N]`` float64: ``[i, j]`` = the head on candidate ``i`` with candidate ``j`` as its reference,
        for the one source vector ``source`` (``[1, H]``). The N² pairs run in blocks of at most
        ``HEAD_FEATURE_BYTES`` of features, so memory follows the block, not N².

        >>> import numpy as np
        >>> model = CometModel.__new__(CometModel); model.kind = "regression"
        >>> model.head = Head([(np.ones((1, 6), np.float32), np.zeros(1, np.float32))], np.tanh, None)
        >>> model.pairwise_scores(np.array([[1.0], [2.0]]), np.array([[0.0]]))
        array([[ 4.,  7.],
               [ 8., 10.]])
        """
        size, width = vectors.shape
        out = np.empty(size * size, dtype=np.float64)
        block = _head_rows(6 * width)
        for start in range(0, size * size, block):
            pairs = np.arange(start, min(start + block, size * size))
            mt, ref = vectors[pairs // size], vectors[pairs % size]
            out[start:start + len(pairs)] = self.head_scores(mt, ref, np.broadcast_to(source, mt.shape))
        return out.reshape(size, size)

    def score(self, hypotheses: Sequence[str], references: Optional[Sequence[str]],
              sources: Sequence[str]) -> np.ndarray:
        """One score per segment, as ``predict(...).scores``; ``CHUNK_SEGMENTS`` at a time, so memory follows
        the chunk, not the corpus."""
        parts = []
        for start in range(0, len(hypotheses), CHUNK_SEGMENTS):
            stop = start + CHUNK_SEGMENTS
            parts.append(self._score_chunk(hypotheses[start:stop], None if references is None else references[start:stop],
                                           sources[start:stop]))
        return np.concatenate(parts) if parts else np.zeros(0)

    def _score_chunk(self, hypotheses: Sequence[str], references: Optional[Sequence[str]],
                     sources: Sequence[str]) -> np.ndarray:
        if self.kind == "unified":
            segments = [segment for segment in self.input_segments if segment != "mt"]
            inputs = []
            if "src" in segments:
                inputs.append(self.joint_vectors(hypotheses, sources))
            if "ref" in segments and references is not None:
                inputs.append(self.joint_vectors(hypotheses, references))
            if len(inputs) == 2:
                raise ValueError("unified COMET with both sources and references (XCOMET-style averaging) is "
                                 "not supported; pass references=None")
            return self.head(inputs[0])
        if self.kind == "regression" and references is None:
            raise ValueError("this COMET model needs references")
        # one encoding call for all three sides: their batches share the workers, and a text on two sides
        # (a hypothesis equal to its reference) is encoded once
        sides = [hypotheses, sources] + ([references] if self.kind == "regression" and references is not None else [])
        texts = [text for side in sides for text in side]
        vectors = self.sentence_vectors(texts)
        n = len(hypotheses)
        mt, src = vectors[:n], vectors[n: 2 * n]
        ref = vectors[2 * n:] if self.kind == "regression" else None
        return self.head_scores(mt, ref, src)


def _head_rows(features: int) -> int:
    """How many rows of ``features`` float64 features fit in ``HEAD_FEATURE_BYTES`` (at least one)."""
    return max(1, HEAD_FEATURE_BYTES // (features * 8))


def load_comet(model: str, *, encoder: Optional[str] = None, backend: str = "onnx", threads: Optional[int] = None,
               allow_download: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS) -> CometModel:
    """The COMET model ``model`` (a folder or hub name), loaded once per process."""
    from nlgmetrics.neural.loaded import remembered
    from nlgmetrics.neural.models import find_model

    folder = find_model(model, allow_download=allow_download, what="COMET checkpoint")
    encoder_folder = find_model(encoder, what="COMET encoder") if encoder is not None else None
    key = ("comet", str(folder.resolve()), str(encoder_folder) if encoder_folder else None, backend, threads)
    loaded = remembered(key, lambda: CometModel(folder, encoder_folder=encoder_folder, backend=backend,
                                                threads=threads, allow_download=allow_download, max_tokens=max_tokens))
    loaded.loaded.text_encoder.max_tokens = max_tokens
    return loaded
