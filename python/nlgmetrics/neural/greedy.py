"""BERTScore's greedy matching of token vectors, as bert_score 0.3.13 computes it (``utils.greedy_cos_idf``).

For a candidate ``x`` and a reference ``y`` with unit token vectors and weights ``w`` (idf, or 1 with the
special tokens at 0), normalised to sum 1 per sentence:

    P = Σ_i w_x[i] · max_j x_i·y_j      R = Σ_j w_y[j] · max_i x_i·y_j      F = 2PR / (P + R)

in float32, as the anchor does. Its quirks are kept, because they decide numbers:

* pairs are matched in batches of ``batch_size`` consecutive (candidate, reference) pairs, padded to the
  batch's longest sentence, and a padded position has similarity 0 — so a token whose every similarity is
  negative scores 0, not its best, whenever the other side is shorter than the batch's longest;
* a sentence of only the two special tokens (an empty or whitespace-only text) sets P and R to 0; F is
  computed before that (its NaN, from weights summing to 0, becomes 0).

>>> import numpy as np
>>> x = [np.eye(3, dtype=np.float32)]            # a 3-token "candidate"
>>> w = [np.array([0, 1, 0], dtype=np.float32)]  # only the middle token counts
>>> greedy_match(x, w, x, w, [0], [0]).tolist()  # identical sentences
[[1.0, 1.0, 1.0]]
"""

from __future__ import annotations

from typing import List, Sequence

import numpy as np

__all__ = ["greedy_match", "unit_rows"]


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows divided by their L2 norm, in float32 (``x / torch.norm(x, dim=-1)``)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)


def _padded(rows: Sequence[np.ndarray], width: int) -> np.ndarray:
    longest = max(len(row) for row in rows)
    out = np.zeros((len(rows), longest) + ((width,) if width else ()), dtype=np.float32)
    for index, row in enumerate(rows):
        out[index, :len(row)] = row
    return out


def greedy_match(hyp_vectors: List[np.ndarray], hyp_weights: List[np.ndarray], ref_vectors: List[np.ndarray],
                 ref_weights: List[np.ndarray], pair_hyps: Sequence[int], pair_refs: Sequence[int],
                 batch_size: int = 64) -> np.ndarray:
    """``(pairs, 3)`` float32 P, R, F of each pair ``(hyp_vectors[pair_hyps[k]], ref_vectors[pair_refs[k]])``.

    Vectors are unit rows ``[tokens, dim]``; weights ``[tokens]`` are unnormalised (idf or 0/1).
    """
    n_pairs = len(pair_hyps)
    out = np.zeros((n_pairs, 3), dtype=np.float32)
    if n_pairs == 0:
        return out
    width = hyp_vectors[pair_hyps[0]].shape[1]
    for start in range(0, n_pairs, batch_size):
        hyp_ids = pair_hyps[start:start + batch_size]
        ref_ids = pair_refs[start:start + batch_size]
        hyp = _padded([hyp_vectors[i] for i in hyp_ids], width)
        ref = _padded([ref_vectors[j] for j in ref_ids], width)
        hyp_w = _padded([hyp_weights[i] for i in hyp_ids], 0)
        ref_w = _padded([ref_weights[j] for j in ref_ids], 0)
        similarity = np.matmul(hyp, np.ascontiguousarray(ref.transpose(0, 2, 1)))
        with np.errstate(invalid="ignore", divide="ignore"):
            hyp_w = hyp_w / hyp_w.sum(axis=1, keepdims=True)
            ref_w = ref_w / ref_w.sum(axis=1, keepdims=True)
            precision = (similarity.max(axis=2) * hyp_w).sum(axis=1, dtype=np.float32)
            recall = (similarity.max(axis=1) * ref_w).sum(axis=1, dtype=np.float32)
            f1 = np.float32(2) * precision * recall / (precision + recall)
        empty = np.array([len(hyp_vectors[i]) == 2 or len(ref_vectors[j]) == 2 for i, j in zip(hyp_ids, ref_ids)])
        precision[empty] = 0.0
        recall[empty] = 0.0
        f1[np.isnan(f1)] = 0.0
        out[start:start + len(hyp_ids)] = np.stack([precision, recall, f1], axis=1)
    return out
