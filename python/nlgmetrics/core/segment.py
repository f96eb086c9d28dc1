"""The Rust segment metrics: ``_core.SegmentScorer``, one per metric name and options, built once.

A segment metric's kernel reads the metric's options dict itself (each option declared once, in the Rust
options struct); the scorer then gives a batch's statistics rows and sentence scores in one call
(``segment_stats``), and the score of summed rows (``score_rows``).

>>> scorer = segment_scorer("chrf", {"char_order": 6, "word_order": 0, "beta": 2, "whitespace": False,
...                                  "eps_smoothing": False})
>>> stats, scores = scorer.segment_stats(["a cat"], ["a cat"])
>>> stats.shape, float(scores[0])
((1, 18), 100.0)
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Dict

from nlgmetrics import _core

__all__ = ["segment_scorer"]


@lru_cache(maxsize=256)
def _built(name: str, options_json: str) -> _core.SegmentScorer:
    return _core.SegmentScorer(name, json.loads(options_json))


def segment_scorer(name: str, options: Dict[str, Any]) -> _core.SegmentScorer:
    """The scorer of segment metric ``name`` (one of ``_core.SEGMENT_METRICS``) with ``options`` (a metric's
    options dict: keys the kernel does not read are ignored), built once per distinct options."""
    return _built(name, json.dumps(options, sort_keys=True))
