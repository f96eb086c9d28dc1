"""Bootstrap percentiles of per-segment ROUGE scores, as rouge_score 0.1.2's ``BootstrapAggregator``.

The resampling is rouge_score's own (``rouge_score/scoring.py``, ``_bootstrap_resample``): per score
type, ``n_samples`` draws of ``choice(arange(n), size=n)``, the mean of each resample, then
``np.percentile`` at ``(1-c)/2, 0.5, 1-(1-c)/2``. Given the same random draws (the same NumPy
``RandomState`` state, e.g. after ``np.random.seed(s)``) the percentiles are bit-identical.
"""

from __future__ import annotations

import numpy as np


def bootstrap_percentiles(matrix: np.ndarray, n_samples: int, confidence: float, random_state) -> np.ndarray:
    """Rows (low, mid, high) × columns of ``matrix`` (segments × measures).

    ``random_state`` is a ``np.random.RandomState`` or the ``np.random`` module (global state).
    """
    sample_mean = np.zeros((n_samples, matrix.shape[1]))
    indices = np.arange(matrix.shape[0])
    for i in range(n_samples):
        sample_idx = random_state.choice(indices, size=matrix.shape[0])
        sample_mean[i, :] = np.mean(matrix[sample_idx, :], axis=0)
    delta = (1 - confidence) / 2
    q = 100 * np.array([delta, 0.5, 1 - delta])
    return np.percentile(sample_mean, q, axis=0)


MAX_SAMPLES = 10_000_000


def check_bootstrap_options(confidence: float, n_samples: int) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
        raise ValueError(f"confidence must be a number in [0, 1], got {confidence!r}")
    # The resamples are held as n_samples × measures floats: 2**40 would need terabytes.
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or not 0 < n_samples <= MAX_SAMPLES:
        raise ValueError(f"n_samples must be a positive integer (at most {MAX_SAMPLES:,}), got {n_samples!r}")
