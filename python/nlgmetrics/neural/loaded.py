"""Loading a model folder once per process: tokenizer, configuration, weights, backend.

``encoder_model(folder, ...)`` returns a ``LoadedModel`` (a ``TextEncoder`` plus what the metrics read:
the configuration, the weights' fingerprint, the special token ids). The last few loaded models stay in
memory (``NLGMETRICS_NEURAL_MODELS``, default 2), so a loop of calls — one per system, one per worker
batch — loads the weights once; ``nlgmetrics.clear_neural_cache()`` forgets them.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Hashable, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.neural.models import weights_fingerprint
from nlgmetrics.neural.text_encoder import DEFAULT_MAX_TOKENS, TextEncoder

__all__ = ["LoadedModel", "encoder_model", "weights_file", "forget_models", "SUPPORTED_TYPES",
           "check_backend", "remembered", "read_config"]

#: config.json ``model_type`` values the encoder runs (BERT-family arithmetic).
SUPPORTED_TYPES = ("bert", "roberta", "xlm-roberta", "camembert")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


@dataclass
class LoadedModel:
    """A loaded encoder: ``text_encoder`` (tokenizer + backend + cache), ``config`` (config.json as a dict),
    ``fingerprint`` (weights hash), ``folder``."""

    text_encoder: TextEncoder
    config: Dict[str, Any]
    fingerprint: str
    folder: Path
    extra: Dict[str, Any]

    @property
    def tokenizer(self) -> Any:
        return self.text_encoder.tokenizer


_MODELS: "OrderedDict[Hashable, Any]" = OrderedDict()
_LOCK = threading.Lock()


def _keep_limit() -> int:
    value = os.environ.get("NLGMETRICS_NEURAL_MODELS", "2")
    try:
        return max(0, int(value))
    except ValueError:
        raise ValueError(f"NLGMETRICS_NEURAL_MODELS must be a whole number, got {value!r}") from None


def remembered(key: Hashable, build: Any) -> Any:
    """The object kept under ``key``, built by ``build()`` the first time (an LRU of a few models)."""
    with _LOCK:
        if key in _MODELS:
            _MODELS.move_to_end(key)
            return _MODELS[key]
    value = build()
    with _LOCK:
        _MODELS[key] = value
        while len(_MODELS) > _keep_limit():
            _MODELS.popitem(last=False)
    return value


def forget_models() -> None:
    with _LOCK:
        _MODELS.clear()


def read_config(folder: Path) -> Dict[str, Any]:
    path = folder / "config.json"
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no config.json (a model folder needs config.json, a tokenizer "
                                f"and one of {', '.join(WEIGHT_FILES)})")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(config, dict):
        raise ValueError(f"{path}: expected a JSON object")
    model_type = config.get("model_type")
    if model_type not in SUPPORTED_TYPES:
        raise ValueError(f"{path}: model_type {model_type!r} is not supported (supported: "
                         f"{', '.join(SUPPORTED_TYPES)})")
    return config


def weights_file(folder: Path) -> Path:
    for name in WEIGHT_FILES:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"{folder}: no weights (looked for {', '.join(WEIGHT_FILES)})")


def encoder_model(folder: Path, *, layers_needed: int, add_prefix_space: Optional[bool], backend: str,
                  threads: Optional[int], weights: Optional[Dict[str, np.ndarray]] = None,
                  weights_path: Optional[Path] = None, max_tokens: int = DEFAULT_MAX_TOKENS,
                  slow_tokenizer: bool = False,
                  prepare: Optional[Tuple[Sequence[int], Sequence[str]]] = None) -> LoadedModel:
    """Load (or find loaded) the encoder in ``folder`` with blocks up to ``layers_needed``.

    ``weights``: the encoder's weights when they come from elsewhere (a COMET checkpoint), keyed as in
    the model's own files (any prefix); else they are read from the folder. ``slow_tokenizer``: the ids of
    transformers' slow tokenizer (bert_score's ``use_fast=False``) rather than the fast one (COMET's).
    ``prepare``: ``(layers, summaries)`` the caller will ask the encoder for (``Encoder.prepare``): the backend
    gets ready for them in the background while the tokenizer loads.
    """
    from nlgmetrics.neural import encoder as encoder_module
    from nlgmetrics.neural import tokenizer as tokenizer_module
    from nlgmetrics.neural import weights as weights_module

    folder = Path(folder)
    config = read_config(folder)
    source = Path(weights_path) if weights_path is not None else weights_file(folder)
    fingerprint = weights_fingerprint(source, folder / "config.json")
    key = ("encoder", str(folder.resolve()), str(source.resolve()), layers_needed, add_prefix_space, backend,
           threads, slow_tokenizer)

    def build() -> LoadedModel:
        tensors = weights if weights is not None else weights_module.read_weights(source)
        encoder = encoder_module.Encoder(encoder_module.EncoderConfig.from_dict(config), tensors, prefix=None,
                                         layers_needed=[layers_needed], backend=backend, threads=threads)
        if prepare is not None:
            encoder.prepare(*prepare)
        tokenizer = tokenizer_module.load_tokenizer(folder, add_prefix_space=add_prefix_space, slow=slow_tokenizer)
        return LoadedModel(TextEncoder(tokenizer, encoder, fingerprint, max_tokens=max_tokens), config,
                           fingerprint, folder, {})

    loaded = remembered(key, build)
    loaded.text_encoder.max_tokens = max_tokens
    return loaded


def check_backend(backend: Any) -> str:
    if backend not in ("onnx", "numpy", "torch"):
        raise ValueError(f"backend must be 'onnx' (default), 'numpy' or 'torch', got {backend!r}")
    return backend

