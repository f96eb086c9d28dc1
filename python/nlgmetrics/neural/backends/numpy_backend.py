"""The reference backend: transformers' encoder arithmetic in plain NumPy (float32 tensors; slow, exact).

It exists to state the arithmetic once, readably, and to check the fast backends against it; use the ONNX
backend for speed. GELU is the exact erf form; NumPy has no ``erf``, so :func:`erf` below evaluates it in
float64 (a Taylor series for |z| < 2, a continued fraction of erfc beyond; worst error ≈ 1e-15 vs math.erf).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

_TAYLOR_TERMS = 40
# erf(z) = 2/sqrt(pi) * sum_n (-1)^n z^(2n+1) / (n! (2n+1))
_TAYLOR = np.array([(-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(_TAYLOR_TERMS)],
                   dtype=np.float64)
_CONTINUED_FRACTION_DEPTH = 60


def erf(values: np.ndarray) -> np.ndarray:
    """The error function, elementwise, in float64.

    >>> import math
    >>> xs = np.array([-3.0, -0.5, 0.0, 1.0, 2.5])
    >>> bool(np.all(np.abs(erf(xs) - [math.erf(x) for x in xs]) < 1e-14))
    True
    """
    z = np.asarray(values, dtype=np.float64)
    out = np.empty_like(z)
    small = np.abs(z) < 2.0
    zs = z[small]
    square = zs * zs
    acc = np.full_like(zs, _TAYLOR[-1])
    for coefficient in _TAYLOR[-2::-1]:  # Horner in z^2
        acc = acc * square + coefficient
    out[small] = (2.0 / math.sqrt(math.pi)) * zs * acc
    large = ~small
    if large.any():
        za = np.abs(z[large])
        # erfc(z) = exp(-z^2)/sqrt(pi) / (z + (1/2)/(z + 1/(z + (3/2)/(z + ...)))), evaluated bottom-up
        tail = za.copy()
        for k in range(_CONTINUED_FRACTION_DEPTH, 0, -1):
            tail = za + (k / 2.0) / tail
        erfc = np.exp(-za * za) / (math.sqrt(math.pi) * tail)
        out[large] = np.sign(z[large]) * (1.0 - erfc)
    return out


def gelu(x: np.ndarray) -> np.ndarray:
    """0.5 x (1 + erf(x / sqrt 2)), as torch.nn.functional.gelu (approximate='none'), rounded to float32."""
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + erf(x64 / math.sqrt(2.0)))).astype(np.float32)


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return (centred / np.sqrt(variance + np.float32(eps))) * weight + bias


def softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


class NumpyBackend:
    name = "numpy"

    def __init__(self, config, params, num_blocks: int, **_ignored):
        self.config, self.params, self.num_blocks = config, params, num_blocks
        # Linear layers as x @ W^T with W^T stored contiguous, on 2-D [B*L, H] rows (BLAS's fast path).
        self.transposed = {name: np.ascontiguousarray(value.T) for name, value in params.items()
                           if name.endswith("_w") and value.ndim == 2}

    def linear(self, x2d: np.ndarray, index: int, name: str) -> np.ndarray:
        return x2d @ self.transposed[f"{index}.{name}_w"] + self.params[f"{index}.{name}_b"]

    def embeddings(self, ids, types, positions) -> np.ndarray:
        p = self.params
        x = p["word"][ids] + p["token_type"][types]
        x = x + p["position"][positions]
        return layer_norm(x, p["ln_w"], p["ln_b"], self.config.layer_norm_eps)

    def block(self, x: np.ndarray, additive_mask: np.ndarray, index: int) -> np.ndarray:
        p, c = self.params, self.config
        batch, length, hidden = x.shape
        heads, size = c.num_attention_heads, c.head_size
        rows = x.reshape(batch * length, hidden)

        def split(t):  # [B*L, H] -> [B, heads, L, size]
            return t.reshape(batch, length, heads, size).transpose(0, 2, 1, 3)

        q, k, v = (split(self.linear(rows, index, name)) for name in ("q", "k", "v"))
        scores = (q @ k.transpose(0, 1, 3, 2)) / np.float32(math.sqrt(size)) + additive_mask
        context = (softmax(scores) @ v).transpose(0, 2, 1, 3).reshape(batch * length, hidden)
        attended = self.linear(context, index, "o")
        rows = layer_norm(attended + rows, p[f"{index}.ln1_w"], p[f"{index}.ln1_b"], c.layer_norm_eps)
        inner = gelu(self.linear(rows, index, "i"))
        out = self.linear(inner, index, "f")
        rows = layer_norm(out + rows, p[f"{index}.ln2_w"], p[f"{index}.ln2_b"], c.layer_norm_eps)
        return rows.reshape(batch, length, hidden)

    def hidden_states(self, ids, mask, types, positions, layers: Sequence[int]) -> np.ndarray:
        out = np.empty((len(layers), ids.shape[0], ids.shape[1], self.config.hidden_size), np.float32)
        additive = ((1.0 - mask.astype(np.float32)) * np.finfo(np.float32).min)[:, None, None, :]
        x = self.embeddings(ids, types, positions).astype(np.float32)
        top = max(layers)
        for index in range(top + 1):
            if index:
                x = self.block(x, additive, index - 1).astype(np.float32)
            for slot, layer in enumerate(layers):
                if layer == index:
                    out[slot] = x
        return out
