"""Diversity of a set of outputs (no references): distinct-n and self-BLEU.

* **distinct-n** (Li et al. 2016, "A Diversity-Promoting Objective Function for Neural Conversation
  Models", NAACL, §4.3): the number of distinct n-grams divided by the number of n-grams.
  ``scores["distinct-n"]`` is the corpus-level ratio (distinct n-grams of all outputs together /
  all n-grams of all outputs); ``scores["distinct-n per-output mean"]`` is the mean of each output's
  own ratio (an output without n-grams counts 0).
* **self-BLEU** (Zhu et al. 2018, "Texygen: A Benchmarking Platform for Text Generation Models",
  SIGIR; ``utils/metrics/SelfBleu.py`` in geek-ai/Texygen): each output scored by sentence BLEU with
  all the *other* outputs as its references; the score is the mean. ``variant="sacrebleu"``:
  sacreBLEU 2.6.0's ``sentence_bleu(output, others)`` (13a, exp smoothing, effective order, 0–100).
  ``variant="texygen"``: Texygen's ``get_bleu_parallel`` — NLTK's ``sentence_bleu(others, output,
  (1/3, 1/3, 1/3), SmoothingFunction().method1)`` (0–1). Texygen tokenized with
  ``nltk.word_tokenize`` (needs NLTK's punkt data) and by default kept only the first 500 outputs
  (``is_fast``); here ``tokenize="none"`` splits on whitespace (pass word-tokenized text to match it)
  and every output is used (pass ``outputs[:500]`` for Texygen's sample).

Higher self-BLEU means less diverse outputs. The clipped counts against "all others" come from one
pass over the n-grams (largest count in one output, how many outputs have it, second largest), so
the cost is linear in the outputs, not quadratic.

>>> import nlgmetrics
>>> outputs = ["the cat sat on the mat", "the cat sat on a mat", "a dog ran in the park"]
>>> result = nlgmetrics.distinct(outputs, n=2)
>>> result.scores["distinct-2"], round(result.scores["distinct-2 per-output mean"], 3)
(0.8, 1.0)
>>> round(nlgmetrics.self_bleu(outputs).score, 2)
39.87
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import hypotheses_list, surrogate_location
from nlgmetrics.core.metric import Metric, counted_rows
from nlgmetrics.core.options import CliOption, check_int
from nlgmetrics.core.registry import register
from nlgmetrics.core.result import Result
from nlgmetrics.core.signature import Signature

__all__ = ["Distinct", "DistinctResult", "SelfBLEU", "SelfBLEUResult", "distinct", "self_bleu"]

VARIANTS = ("sacrebleu", "texygen")


@dataclass(frozen=True, eq=False)
class DistinctResult(Result):
    """distinct-n: ``score`` the corpus-level ratio; ``segment_scores`` each output's own ratio;
    ``segment_stats`` ``[distinct n-grams, n-grams]`` per output."""

    n: int
    score: float
    per_output_mean: float
    distinct_ngrams: int
    total_ngrams: int
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    segment_stats: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        return f"distinct-{self.n}"

    @property
    def scores(self) -> dict:
        return {self.name: float(self.score), f"{self.name} per-output mean": float(self.per_output_mean),
                "distinct_ngrams": int(self.distinct_ngrams), "total_ngrams": int(self.total_ngrams)}

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.4f} (per-output mean {self.per_output_mean:.4f})"


def distinct(outputs: Sequence[str], n: int = 2, *, tokenize: str = "none", threads: Optional[int] = None) -> DistinctResult:
    """distinct-n of a set of outputs (see the module docstring); ``tokenize`` as for BLEU (``none``: whitespace).

    >>> distinct(["a a a", "a b"], n=1).scores["distinct-1"]
    0.4
    """
    lines = hypotheses_list(outputs, "outputs")
    n = check_int(n, "n", 1, 100)
    try:
        rows, corpus_distinct = _core.distinct_stats(lines, {"tokenize": tokenize, "n": n}, threads)
    except UnicodeEncodeError:
        raise ValueError(surrogate_location(lines, [], "outputs")) from None
    rows = rows.astype(np.int64)
    total = int(rows[:, 1].sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(rows[:, 1] > 0, rows[:, 0] / np.maximum(rows[:, 1], 1), 0.0)
    mean = float(np.cumsum(ratios)[-1] / len(ratios)) if len(ratios) else 0.0
    signature = Signature(f"distinct-{n}", (("outputs", str(len(lines))), ("tok", tokenize)))
    return DistinctResult(n, corpus_distinct / total if total else 0.0, mean, int(corpus_distinct), total, signature,
                          ratios, rows)


@dataclass(frozen=True, eq=False)
class SelfBLEUResult(Result):
    """Self-BLEU: ``score`` the mean of ``segment_scores`` (each output against all the others);
    ``bleu_stats`` the BLEU statistics rows ``[hyp_len, ref_len, matches_1..N, totals_1..N]``;
    ``segment_stats`` ``[score, 1]`` per output (the score is their mean, what ``ci()`` resamples)."""

    variant: str
    score: float
    signature: Signature
    segment_scores: np.ndarray = field(repr=False)
    bleu_stats: np.ndarray = field(repr=False)

    name = "self-BLEU"

    @property
    def segment_stats(self) -> np.ndarray:
        return counted_rows(self.segment_scores)

    @property
    def scores(self) -> dict:
        return {"self-BLEU": float(self.score)}

    def __str__(self) -> str:
        return f"self-BLEU = {self.score:.4f} ({self.signature})"


def self_bleu(outputs: Sequence[str], *, variant: str = "sacrebleu", tokenize: Optional[str] = None,
              max_order: Optional[int] = None, threads: Optional[int] = None) -> SelfBLEUResult:
    """Self-BLEU of a set of at least two outputs (see the module docstring for the two variants).

    ``tokenize``: default ``13a`` (sacrebleu) or ``none`` (texygen); ``max_order``: default 4
    (sacrebleu) or Texygen's ``gram=3`` (weights ``1/max_order`` each).

    >>> round(self_bleu(["a b c d", "a b c e", "x y z w"], variant="texygen").score, 4)
    0.42
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be 'sacrebleu' or 'texygen', got {variant!r}")
    lines = hypotheses_list(outputs, "outputs")
    if len(lines) < 2:
        raise ValueError(f"self-BLEU needs at least 2 outputs (each is scored against the others), got {len(lines)}")
    texygen = variant == "texygen"
    tokenize = tokenize if tokenize is not None else ("none" if texygen else "13a")
    max_order = check_int(max_order if max_order is not None else (3 if texygen else 4), "max_order", 1, 100)
    try:
        rows = _core.self_bleu_stats(lines, {"tokenize": tokenize, "max_order": max_order}, threads)
    except UnicodeEncodeError:
        raise ValueError(surrogate_location(lines, [], "outputs")) from None
    if texygen:
        # NLTK's layout: denominators max(1, n-grams); weights (1/gram,) * gram; method1 (epsilon 0.1).
        nltk_rows = rows.astype(np.uint64)
        nltk_rows[:, 2 + max_order:] = np.maximum(nltk_rows[:, 2 + max_order:], 1)
        weights = [1.0 / max_order] * max_order
        texygen_options = {"max_order": max_order, "weights": weights, "smooth": "method1", "epsilon": 0.1, "k": 5.0,
                           "auto_reweigh": False, "weights_are_default": False}
        scores = _core.bleu_nltk_float_scores(nltk_rows, texygen_options, threads)
    else:
        # sacreBLEU's sentence_bleu: exp smoothing, effective order, the default weights
        sentence = {"max_order": max_order, "smooth": "exp", "smooth_value": None, "effective_order": True,
                    "weights": None}
        scores = _core.bleu_row_scores(np.ascontiguousarray(rows, dtype=np.int64), sentence, threads)
    scores = np.asarray(scores, dtype=np.float64)
    # Texygen: score += each; / count (a sequential sum, as np.cumsum).
    mean = float(np.cumsum(scores)[-1] / len(scores))
    signature = Signature("self-BLEU", (("variant", variant), ("outputs", str(len(lines))), ("tok", tokenize),
                                        ("n", str(max_order))))
    return SelfBLEUResult(variant, mean, signature, scores, rows)


class _OutputsMetric(Metric):
    """A metric of a set of outputs alone: the state keeps the outputs (text), ``compute()`` scores them all
    (``"rows"`` reduction: distinct n-grams and "all the others" need every output; memory ≈ the text)."""

    reduction = "rows"
    needs_references = False
    text_arrays = ("outputs",)
    stat_columns = ("value", "count")

    def check_inputs(self, hypotheses: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
        outputs = hypotheses_list(hypotheses, "outputs")
        return outputs, [[] for _ in outputs]

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        return {"outputs": list(hypotheses)}

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        return ()


@register
class Distinct(_OutputsMetric):
    """distinct-n as a registered metric: ``nlgmetrics.metric("distinct", n=2).update(outputs)``."""

    name = "distinct"
    description = "distinct-n: distinct n-grams / n-grams of a set of outputs (Li et al. 2016; no references)"
    extra_decimals = 2
    cli_options = (CliOption(("-n", "--order"), "n", "int", help="n-gram order (default 2)"),
                   CliOption(("-tok", "--tokenize"), "tokenize", help="tokenizer (default none: whitespace)"))

    def __init__(self, *, n: int = 2, tokenize: str = "none", threads: Optional[int] = None, segments: bool = True):
        super().__init__({"n": check_int(n, "n", 1, 100), "tokenize": tokenize}, threads=threads, segments=segments)

    def display_name(self) -> str:
        return f"distinct-{self.options['n']}"

    def result_from_state(self, state) -> DistinctResult:
        return distinct(state.texts("outputs"), self.options["n"], tokenize=self.options["tokenize"],
                        threads=self.threads)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        raise ValueError("distinct-n counts n-grams distinct across all outputs together, which per-output rows "
                         "cannot give: it has no bootstrap interval (resample the outputs and call distinct())")


@register
class SelfBLEU(_OutputsMetric):
    """Self-BLEU as a registered metric: ``nlgmetrics.metric("self_bleu").update(outputs)``."""

    name = "self_bleu"
    description = "self-BLEU of a set of outputs (sacreBLEU sentence BLEU vs all others; variant texygen; no references)"
    cli_options = (CliOption(("--variant",), "variant", choices=VARIANTS, help="sacrebleu (default) or texygen"),
                   CliOption(("-tok", "--tokenize"), "tokenize", help="tokenizer (default 13a; texygen: none)"),
                   CliOption(("--max-order",), "max_order", "int", help="n-gram order (default 4; texygen 3)"))

    def __init__(self, *, variant: str = "sacrebleu", tokenize: Optional[str] = None, max_order: Optional[int] = None,
                 threads: Optional[int] = None, segments: bool = True):
        if variant not in VARIANTS:
            raise ValueError(f"variant must be 'sacrebleu' or 'texygen', got {variant!r}")
        super().__init__({"variant": variant, "tokenize": tokenize, "max_order": max_order}, threads=threads,
                         segments=segments)
        self.extra_decimals = 2 if variant == "texygen" else 0  # texygen scores on NLTK's 0–1 scale

    def empty_compute(self) -> Tuple[str, str]:
        return "raise", "self-BLEU needs at least 2 outputs, each scored against the others"

    def display_name(self) -> str:
        return "self-BLEU"

    def result_from_state(self, state) -> SelfBLEUResult:
        return self_bleu(state.texts("outputs"), threads=self.threads, **self.options)

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        return sums[:, 0] / sums[:, 1]
