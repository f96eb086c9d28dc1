"""The resampling engine behind confidence intervals and paired tests: it only ever touches rows of
segment statistics (DESIGN.md §1), never a metric's text.

Draws use NumPy's ``default_rng(seed)`` with the same calls, in the same order, as sacreBLEU 2.6.0's
``significance.py``, so the same seed gives the same resamples.

>>> import numpy as np
>>> stats = np.array([[1, 2], [3, 4], [5, 6]])
>>> indices = np.array([[0, 0, 2], [1, 2, 2]])
>>> Resample(indices).sums(stats).tolist()
[[7.0, 10.0], [13.0, 16.0]]
"""

from __future__ import annotations

import copy
from typing import Callable, Iterator, Optional, Tuple

import numpy as np

# float32 holds every integer below 2**24 exactly; below it, the order of summation cannot matter.
FLOAT32_EXACT_LIMIT = 2 ** 24

# Draws held at once (samples × segments); ~32 bytes each (indices, counts, their making): ~160 MB. Up to this,
# the draws are sacreBLEU's very ones (one call); beyond it (10 million samples of 100 segments needed > 7 GiB)
# they are drawn block after block from the same generator, so memory stays bounded and the last digits differ.
BLOCK_CELLS = 5_000_000


def bootstrap_indices(rng: np.random.Generator, n_segments: int, n_samples: int) -> np.ndarray:
    """``n_samples`` rows of ``n_segments`` indices drawn with replacement (sacreBLEU's ``rng.choice`` call)."""
    return rng.choice(n_segments, size=(n_samples, n_segments), replace=True)


def randomization_masks(rng: np.random.Generator, n_segments: int, n_trials: int) -> np.ndarray:
    """One boolean row per trial: True where the baseline's segment goes to pseudo-system A."""
    return rng.integers(2, size=(n_trials, n_segments), dtype=bool)


class Resample:
    """One set of bootstrap draws, applied to any number of statistics arrays.

    Each sample's rows are counted once (a sample × segment count matrix) and multiplied by the
    statistics, so no (samples × segments × statistics) array is ever built, and the counts are shared
    by every system and metric resampled with the same draws.

    >>> import numpy as np
    >>> Resample(np.array([[0, 0, 2], [1, 2, 2]])).sums(np.array([[1, 2], [3, 4], [5, 6]])).tolist()
    [[7.0, 10.0], [13.0, 16.0]]
    """

    def __init__(self, indices: np.ndarray):
        self.indices = indices
        n_samples, n_segments = indices.shape
        flat = (np.arange(n_samples)[:, None] * n_segments + indices).ravel()
        counts = np.bincount(flat, minlength=n_samples * n_segments).reshape(n_samples, n_segments)
        self.counts = counts.astype(np.float64)

    def sums(self, stats: np.ndarray) -> np.ndarray:
        """Column sums of ``stats[indices[s]]`` for every sample ``s``, as float64 (exact for integer statistics)."""
        return self.counts @ np.asarray(stats, dtype=np.float64)

    def sums_float32(self, stats: np.ndarray) -> np.ndarray:
        """The float32 sums sacreBLEU's bootstrap computes (``np.array(stats, dtype='float32')[idx].sum(0)``).

        When every partial sum is a multiple of 1/2 below 2**23, the float64 sums are exact and equal
        sacreBLEU's float32 ones whatever the order; otherwise sacreBLEU's own summation is replayed.
        """
        values = np.asarray(stats, dtype=np.float64)
        doubled = values * 2
        if len(values) * float(np.abs(doubled).max(initial=0.0)) < FLOAT32_EXACT_LIMIT and np.all(doubled == np.round(doubled)):
            return self.sums(values).astype(np.float32)
        stats32 = values.astype(np.float32)
        return np.stack([stats32[row].sum(0) for row in self.indices])


class BlockedResample:
    """``n_samples`` bootstrap draws of ``n_segments`` indices with ``Resample``'s ``sums``/``sums_float32``: one
    ``Resample`` (sacreBLEU's draws) when they fit ``BLOCK_CELLS``, else blocks drawn again on each use from
    ``generator()`` (a fresh generator in the same state every time), so every use sees the same draws.

    >>> import numpy as np
    >>> stats = np.arange(6).reshape(3, 2)
    >>> small = BlockedResample(lambda: np.random.default_rng(1), 3, 4)
    >>> small.sums(stats).tolist() == Resample(bootstrap_indices(np.random.default_rng(1), 3, 4)).sums(stats).tolist()
    True
    >>> blocked = BlockedResample(lambda: np.random.default_rng(1), 3, 4, cells=6)
    >>> blocked.blocks, blocked.sums(stats).shape, bool((blocked.sums(stats) == blocked.sums(stats)).all())
    (2, (4, 2), True)
    """

    def __init__(self, generator: Callable[[], np.random.Generator], n_segments: int, n_samples: int,
                 cells: Optional[int] = None):
        self.generator, self.n_segments, self.n_samples = generator, n_segments, n_samples
        self.per_block = max(1, (cells or BLOCK_CELLS) // max(n_segments, 1))
        self.blocks = -(-n_samples // self.per_block)
        self._single = Resample(bootstrap_indices(generator(), n_segments, n_samples)) if self.blocks == 1 else None

    def each_block(self) -> Iterator[Resample]:
        if self._single is not None:
            yield self._single
            return
        rng = self.generator()
        for start in range(0, self.n_samples, self.per_block):
            yield Resample(bootstrap_indices(rng, self.n_segments, min(self.per_block, self.n_samples - start)))

    def sums(self, stats: np.ndarray) -> np.ndarray:
        return np.concatenate([block.sums(stats) for block in self.each_block()])

    def sums_float32(self, stats: np.ndarray) -> np.ndarray:
        return np.concatenate([block.sums_float32(stats) for block in self.each_block()])


class BlockedMasks:
    """``n_trials`` randomization masks (``randomization_masks``), held at once when they fit ``BLOCK_CELLS``, else
    drawn again block by block from a copy of ``rng``'s state on each use; ``rng_after()`` is the generator past
    them (where the confidence bootstrap draws from)."""

    def __init__(self, rng: np.random.Generator, n_segments: int, n_trials: int, cells: Optional[int] = None):
        self.start, self.n_segments, self.n_trials = copy.deepcopy(rng), n_segments, n_trials
        self.per_block = max(1, (cells or BLOCK_CELLS) // max(n_segments, 1))
        self._single = None
        if n_trials <= self.per_block:
            self._single = randomization_masks(rng, n_segments, n_trials).astype(np.float32)
            self._after = rng
        else:
            rng = copy.deepcopy(self.start)
            for _ in self._draw(rng):
                pass
            self._after = rng

    def _draw(self, rng: np.random.Generator) -> Iterator[np.ndarray]:
        for start in range(0, self.n_trials, self.per_block):
            yield randomization_masks(rng, self.n_segments, min(self.per_block, self.n_trials - start)).astype(np.float32)

    def rng_after(self) -> np.random.Generator:
        return copy.deepcopy(self._after)

    def sums(self, baseline: np.ndarray, system: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """``randomization_sums`` over every trial."""
        blocks = [self._single] if self._single is not None else self._draw(copy.deepcopy(self.start))
        pairs = [randomization_sums(masks, baseline, system) for masks in blocks]
        return np.concatenate([a for a, _ in pairs]), np.concatenate([b for _, b in pairs])


def randomization_sums(masks: np.ndarray, baseline: np.ndarray, system: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The summed statistics of the two pseudo-systems of every trial: A takes the baseline's row where
    the mask is True and the system's elsewhere, B the opposite (sacreBLEU's ``pos_sel @ bl + neg_sel @ sys``).

    Computed as ``sum(system) + mask @ (baseline - system)`` in BLAS float32 when every partial sum is
    a multiple of 1/2 below 2**23 (then exact), else in float64. ``masks`` may be given already as
    float32 0/1 (convert once per trial set, reuse for every metric).
    """
    baseline = np.asarray(baseline, dtype=np.float64)
    system = np.asarray(system, dtype=np.float64)
    difference = baseline - system
    doubled = np.abs(difference) * 2
    exact_in_float32 = (len(difference) * float(doubled.max(initial=0.0)) < FLOAT32_EXACT_LIMIT
                        and np.all(doubled == np.round(doubled)))
    dtype = np.float32 if exact_in_float32 else np.float64
    shift = (masks.astype(dtype, copy=False) @ difference.astype(dtype)).astype(np.float64)
    system_total, baseline_total = system.sum(axis=0), baseline.sum(axis=0)
    pseudo_a = system_total + shift
    pseudo_b = baseline_total - shift
    return pseudo_a, pseudo_b


def estimate_ci(scores: np.ndarray) -> Tuple[float, float]:
    """``(mean, half-width)`` of the 95% percentile interval, exactly as sacreBLEU's ``estimate_ci``.

    The bounds are the sorted scores at ``n // 40`` and ``n - n // 40 - 1``; the mean keeps the scores' dtype.
    """
    ordered = np.sort(scores)
    lower_index = len(ordered) // 40
    upper_index = len(ordered) - lower_index - 1
    return ordered.mean(), 0.5 * (ordered[upper_index] - ordered[lower_index])


def percentile_interval(scores: np.ndarray, confidence: float) -> Tuple[float, float]:
    """The ``confidence`` percentile interval (linear interpolation between order statistics)."""
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(scores, [tail, 100.0 - tail])
    return float(low), float(high)


def p_value(sample_statistics: np.ndarray, observed: float) -> float:
    """``(c + 1) / (n + 1)`` where c counts samples whose statistic exceeds the observed one (MultEval's rule)."""
    exceeding = int(np.sum(sample_statistics > observed))
    return (exceeding + 1) / (len(sample_statistics) + 1)


def make_rng(seed: Optional[int]) -> np.random.Generator:
    """A fresh generator; ``None`` draws entropy from the operating system (not reproducible)."""
    return np.random.default_rng(seed)
