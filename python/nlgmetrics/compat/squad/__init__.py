"""Drop-in facade for the official SQuAD evaluation scripts (call signatures and result shapes as theirs).

``evaluate(dataset, predictions)`` is evaluate-v1.1.py's function (``dataset`` = the JSON's ``"data"``
list); ``evaluate_v2(...)`` returns evaluate-v2.0.py's ``out_eval``. The per-answer helpers keep the
scripts' names.

>>> from nlgmetrics.compat.squad import evaluate
>>> data = [{"paragraphs": [{"qas": [{"id": "q", "answers": [{"text": "Denver Broncos"}]}]}]}]
>>> evaluate(data, {"q": "the Denver Broncos"})
{'exact_match': 100.0, 'f1': 100.0}
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Mapping, Optional, Sequence

from nlgmetrics.metrics.qa import exact_match as _exact_match
from nlgmetrics.metrics.qa import normalize_answer as _normalize_answer
from nlgmetrics.metrics.qa import squad as _squad
from nlgmetrics.metrics.qa import token_f1 as _token_f1

__all__ = ["evaluate", "evaluate_v2", "normalize_answer", "exact_match_score", "f1_score",
           "metric_max_over_ground_truths"]


def evaluate(dataset: Sequence, predictions: Mapping[str, str]) -> dict:
    """evaluate-v1.1.py's ``evaluate``: ``{"exact_match", "f1"}`` in percent; prints its stderr notes."""
    return _squad(predictions, dataset, version="1.1", warn_unanswered=True).scores


def evaluate_v2(dataset: Sequence, predictions: Mapping[str, str], na_probs: Optional[Mapping[str, float]] = None,
                na_prob_thresh: float = 1.0) -> "OrderedDict[str, float]":
    """evaluate-v2.0.py's ``out_eval`` (``--na-prob-file`` → ``na_probs``, ``--na-prob-thresh``)."""
    return OrderedDict(_squad(predictions, dataset, version="2.0", na_probs=na_probs,
                              na_prob_thresh=na_prob_thresh).scores)


def normalize_answer(s: str) -> str:
    """Lower text and remove punctuation, articles and extra whitespace."""
    return _normalize_answer(s, "squad")


def exact_match_score(prediction: str, ground_truth: str) -> bool:
    return _exact_match(prediction, [ground_truth], "squad") == 1.0


def f1_score(prediction: str, ground_truth: str) -> float:
    return _token_f1(prediction, [ground_truth], "squad")


def metric_max_over_ground_truths(metric_fn: Callable[[str, str], float], prediction: str, ground_truths: Sequence[str]):
    return max(metric_fn(prediction, ground_truth) for ground_truth in ground_truths)
