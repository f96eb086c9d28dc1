"""The PyTorch backend (``backend="torch"``): for GPUs and reduced precision, when torch is installed.

The same arithmetic as the NumPy reference with torch ops, in transformers' order: ``F.linear`` projections,
``F.scaled_dot_product_attention`` with the additive mask (what transformers 4.57's default "sdpa" attention
calls), ``F.layer_norm``, exact ``F.gelu``. ``device``: any torch device string (default ``"cuda"`` when
available, else ``"cpu"``); ``dtype``: ``"float32"`` (default), ``"float16"`` or ``"bfloat16"`` — the weights
are cast once and the hidden states come back as float32 NumPy arrays. torch is never a dependency of
nlgmetrics: it is imported here, when this backend is chosen.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

DTYPES = ("float32", "float16", "bfloat16")


class TorchBackend:
    name = "torch"

    def __init__(self, config, params, num_blocks: int, *, threads=None, device=None, dtype=None, **_ignored):
        try:
            import torch
        except ImportError as error:
            raise ImportError('backend="torch" needs PyTorch (pip install torch); the default backend '
                              '"onnx" does not') from error
        self.torch = torch
        dtype = dtype or "float32"
        if dtype not in DTYPES:
            raise ValueError(f"unknown dtype {dtype!r} for the torch backend (choose from {', '.join(DTYPES)})")
        self.dtype_name = dtype
        self.dtype = getattr(torch, dtype)
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        if threads:
            torch.set_num_threads(int(threads))
        self.config, self.num_blocks = config, num_blocks
        # a private copy: safetensors arrays are read-only memory maps, which torch.from_numpy warns about
        self.params = {name: torch.from_numpy(np.array(value, dtype=np.float32)).to(self.device, self.dtype)
                       for name, value in params.items()}

    def hidden_states(self, ids, mask, types, positions, layers: Sequence[int]) -> np.ndarray:
        torch = self.torch
        functional = torch.nn.functional
        p, c = self.params, self.config
        eps = c.layer_norm_eps
        hidden, heads, size = c.hidden_size, c.num_attention_heads, c.head_size

        def tensor(array):
            return torch.from_numpy(np.ascontiguousarray(array)).to(self.device)

        with torch.inference_mode():
            ids_t, types_t, positions_t = tensor(ids), tensor(types), tensor(positions)
            mask_t = tensor(mask).to(self.dtype)
            additive = ((1.0 - mask_t) * torch.finfo(self.dtype).min)[:, None, None, :]
            x = functional.embedding(ids_t, p["word"]) + functional.embedding(types_t, p["token_type"])
            x = x + functional.embedding(positions_t, p["position"])
            x = functional.layer_norm(x, (hidden,), p["ln_w"], p["ln_b"], eps)
            states = {0: x}
            batch, length = ids.shape
            for block in range(max(layers)):
                def project(key, rows):
                    return functional.linear(rows, p[f"{block}.{key}_w"], p[f"{block}.{key}_b"])

                def split(t):
                    return t.view(batch, length, heads, size).transpose(1, 2)

                q, k, v = (split(project(key, x)) for key in ("q", "k", "v"))
                context = functional.scaled_dot_product_attention(q, k, v, attn_mask=additive, dropout_p=0.0)
                context = context.transpose(1, 2).reshape(batch, length, hidden)
                x = functional.layer_norm(project("o", context) + x, (hidden,), p[f"{block}.ln1_w"],
                                          p[f"{block}.ln1_b"], eps)
                inner = functional.gelu(project("i", x))
                x = functional.layer_norm(project("f", inner) + x, (hidden,), p[f"{block}.ln2_w"],
                                          p[f"{block}.ln2_b"], eps)
                states[block + 1] = x
            stacked = torch.stack([states[layer] for layer in layers])
            return stacked.float().cpu().numpy()
