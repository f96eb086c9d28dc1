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


def greedy_match(hyp_vectors: List[np.ndarray], hyp_weights: List[np.ndarray], ref_vectors: List[np.ndarray],
                 ref_weights: List[np.ndarray], pair_hyps: Sequence[int], pair_refs: Sequence[int],
                 batch_size: int = 64) -> np.ndarray:
    """``(pairs, 3)`` float32 P, R, F of each pair ``(hyp_vectors[pair_hyps[k]], ref_vectors[pair_refs[k]])``.

    Vectors are unit rows ``[tokens, dim]``; weights ``[tokens]`` are unnormalised (idf or 0/1). Each pair
    is matched on its own ``[tokens_x, tokens_y]`` similarities (5x faster than padding a batch of them:
    no copies); the anchor's padding is replayed instead — in a batch whose longest reference is longer
    than this pair's, a padded position would offer similarity 0 to each candidate token's max, and
    likewise for the recall side.
    """
    n_pairs = len(pair_hyps)
    out = np.zeros((n_pairs, 3), dtype=np.float32)
    for start in range(0, n_pairs, batch_size):
        hyp_ids = pair_hyps[start:start + batch_size]
        ref_ids = pair_refs[start:start + batch_size]
        longest_hyp = max(len(hyp_vectors[i]) for i in hyp_ids)
        longest_ref = max(len(ref_vectors[j]) for j in ref_ids)
        for row, (i, j) in enumerate(zip(hyp_ids, ref_ids), start):
            x, y = hyp_vectors[i], ref_vectors[j]
            similarity = x @ y.T
            best_for_x = similarity.max(axis=1)
            best_for_y = similarity.max(axis=0)
            if len(y) < longest_ref:
                np.maximum(best_for_x, 0.0, out=best_for_x)
            if len(x) < longest_hyp:
                np.maximum(best_for_y, 0.0, out=best_for_y)
            with np.errstate(invalid="ignore", divide="ignore"):
                precision = (best_for_x * (hyp_weights[i] / hyp_weights[i].sum())).sum(dtype=np.float32)
                recall = (best_for_y * (ref_weights[j] / ref_weights[j].sum())).sum(dtype=np.float32)
                f1 = np.float32(2) * precision * recall / (precision + recall)
            if len(x) == 2 or len(y) == 2:  # only the special tokens: an empty text
                precision = recall = np.float32(0)
            out[row] = (precision, recall, 0.0 if np.isnan(f1) else f1)
    return out
