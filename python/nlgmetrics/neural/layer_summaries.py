"""Per-layer, per-sentence summaries of hidden states: all that COMET's layer mix and pooling need of them.

COMET mixes every layer's ``[B, L, H]`` states (optionally after a layer norm over each sentence's unpadded
tokens × dimensions) and then pools them (mean over unpadded tokens, or the first token). Both steps are
linear in each layer once the layer norm's mean and variance are known, so a sentence's pooled vector is
``gamma * sum_k w_k (pool(h_k) - mean_k) / sqrt(variance_k + eps)``: the encoder need only return, per
layer, the pooled vectors and the two statistics — ``[K, B, H]`` instead of ``[K, B, L, H]``. The ONNX
backend computes them inside its graph (float64); ``from_hidden`` is the same arithmetic in NumPy for the
other backends and the tests.

>>> hidden = np.arange(12, dtype=np.float32).reshape(1, 2, 3, 2)   # 1 layer, 2 sentences, 3 tokens, 2 dims
>>> mask = np.array([[1, 1, 0], [1, 1, 1]])
>>> out = from_hidden(hidden, mask, ("token_sum", "mean"))
>>> out["token_sum"][0].tolist(), out["mean"][0].tolist()
([[2.0, 4.0], [24.0, 27.0]], [1.5, 8.5])
"""

from __future__ import annotations

from typing import Dict, Sequence, Tuple

import numpy as np

__all__ = ["SUMMARY_NAMES", "summary_names", "from_hidden"]

#: ``first``: the first token's vector ``[K, B, H]``; ``token_sum``: the sum of the unpadded tokens' vectors
#: ``[K, B, H]``; ``mean`` / ``variance``: over each sentence's unpadded tokens × dimensions ``[K, B]``
SUMMARY_NAMES = ("first", "token_sum", "mean", "variance")


def summary_names(kinds: Sequence[str]) -> Tuple[str, ...]:
    """``kinds`` checked and in ``SUMMARY_NAMES`` order.

    >>> summary_names(["variance", "token_sum"])
    ('token_sum', 'variance')
    """
    unknown = sorted(set(kinds) - set(SUMMARY_NAMES))
    if unknown or not kinds:
        raise ValueError(f"layer summaries {unknown or '(none)'}: choose from {', '.join(SUMMARY_NAMES)}")
    return tuple(name for name in SUMMARY_NAMES if name in kinds)


def from_hidden(hidden: np.ndarray, mask: np.ndarray, kinds: Sequence[str]) -> Dict[str, np.ndarray]:
    """The summaries of ``hidden`` ``[K, B, L, H]`` under ``mask`` ``[B, L]`` (1 = token), in float64."""
    kinds = summary_names(kinds)
    values = np.asarray(hidden, dtype=np.float64)
    out: Dict[str, np.ndarray] = {}
    if "first" in kinds:
        out["first"] = values[:, :, 0, :]
    statistics = "mean" in kinds or "variance" in kinds
    if "token_sum" in kinds or statistics:
        maskf = np.asarray(mask, dtype=np.float64)[None, :, :, None]
        masked = values * maskf
        token_sum = masked.sum(axis=2)
        if "token_sum" in kinds:
            out["token_sum"] = token_sum
    if statistics:
        count = maskf.sum(axis=(2, 3))[0] * values.shape[-1]
        mean = token_sum.sum(axis=2) / count
        if "mean" in kinds:
            out["mean"] = mean
        if "variance" in kinds:
            centred = (masked - mean[:, :, None, None]) * maskf
            out["variance"] = (centred * centred).sum(axis=(2, 3)) / count
    return out
