"""Shared by the metrics that compare each hypothesis with exactly one reference (jiwer's measures,
CharacTER, CharCut): the input rule, and results that keep their batch's texts for per-segment views
(alignments, highlighting).

>>> single_references([["a"], ["b"]], "these metrics")
['a', 'b']
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a mixin for Metric classes: type-checked as one
    from nlgmetrics.core.metric import Metric as _MetricBase
else:
    _MetricBase = object

from nlgmetrics.core import inputs


def single_references(references: list[list[str]], metric: str) -> list[str]:
    """The one reference of each hypothesis; ValueError naming the first entry with several."""
    if isinstance(references, inputs.OneEach):
        return references
    if references and set(map(len, references)) != {1}:
        index = next(i for i, entry in enumerate(references) if len(entry) != 1)
        raise ValueError(f"references[{index}] has {len(references[index])} references: {metric} take exactly "
                         "one reference per hypothesis")
    return [entry[0] for entry in references]


class OneReference(_MetricBase):
    """Mixin for a ``Metric``: one reference per hypothesis; ``metric(hyps, refs)`` results keep the texts
    that ``batch_arrays`` hands to ``keep_texts`` (as ``result._texts``)."""

    #: Names the metric in the error for several references.
    reference_rule: str = "these metrics"
    _keep_texts = False

    def reads_one_each(self) -> bool:
        # The usual input, one reference string per hypothesis, is kept as it is (``inputs.OneEach``).
        return True

    def check_inputs(self, hypotheses: Any, references: Any):
        hyps, refs = super().check_inputs(hypotheses, references)
        single_references(refs, self.reference_rule)
        return hyps, refs

    def keep_texts(self, texts: tuple) -> None:
        """Called by ``batch_arrays``; kept only on the copy ``__call__`` scores (not the empty probe batch)."""
        if self._keep_texts and texts[0]:
            self._kept_texts = texts

    def no_texts(self) -> tuple:
        return ([], [])

    def _batch_metric(self, hypotheses: Any, references: Any, **inputs: Any) -> Any:
        fresh = copy.copy(self)
        fresh.reset()
        fresh._keep_texts = True
        return fresh.update(hypotheses, references, **inputs)

    def _batch_result(self, batch: Any) -> Any:
        result = batch.compute()
        object.__setattr__(result, "_texts", getattr(batch, "_kept_texts", None) or self.no_texts())
        return result
