"""Drop-in for ``sacrebleu.significance`` (2.6.0): ``PairedTest``, ``Result``, ``estimate_ci``.

``PairedTest(named_systems, metrics, references, test_type, n_samples, n_ar_confidence)()`` returns
sacreBLEU's ``(signatures, scores)`` pair — ``scores["System"]`` the names, ``scores[<metric name>]``
one ``Result`` per system, the baseline first — with the same numbers as sacreBLEU for the same seed
(``SACREBLEU_SEED``, default 12345). The facade metric objects (``BLEU``, ``CHRF``, ``TER``) say which
nlgmetrics metric and options to test; the resampling is ``nlgmetrics.paired_test``'s.

>>> from nlgmetrics.compat.sacrebleu import BLEU
>>> refs = [["the cat is on the mat", "it rains today", "a dog barked"]]
>>> systems = [("base", ["the cat sat on the mat", "it rained", "a dog"]),
...            ("new", ["the cat is on the mat", "it rains", "the dog barked"])]
>>> signatures, scores = PairedTest(systems, {"BLEU": BLEU()}, refs, test_type="bs", n_samples=100)()
>>> scores["System"]
['base', 'new']
>>> [type(result).__name__ for result in scores["BLEU"]]
['Result', 'Result']
>>> scores["BLEU"][0].p_value is None and 0 < scores["BLEU"][1].p_value <= 1
True
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from nlgmetrics.compat.sacrebleu._base import Signature, streams_to_segments
from nlgmetrics.compat.sacrebleu.bleu import BLEU
from nlgmetrics.compat.sacrebleu.chrf import CHRF
from nlgmetrics.compat.sacrebleu.ter import TER
from nlgmetrics.stats.resampling import estimate_ci
from nlgmetrics.stats.significance import paired_test

__all__ = ["PairedTest", "Result", "estimate_ci"]


class Result:
    """One system's outcome: ``score``, and against the baseline ``p_value``, bootstrap ``mean`` and ``ci``."""

    def __init__(self, score: float, p_value: Optional[float] = None, mean: Optional[float] = None,
                 ci: Optional[float] = None):
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.__dict__.items())


def _metric_options(metric: Any) -> Tuple[str, Dict[str, Any]]:
    """The nlgmetrics metric name and options equal to a facade metric object's settings."""
    if isinstance(metric, BLEU):
        return "bleu", {"tokenize": metric.tokenize, "lowercase": metric.lowercase, "smooth": metric.smooth_method,
                        "smooth_value": metric.smooth_value, "max_order": metric.max_ngram_order,
                        "effective_order": metric.effective_order}
    if isinstance(metric, CHRF):
        return "chrf", {"char_order": metric.char_order, "word_order": metric.word_order, "beta": metric.beta,
                        "lowercase": metric.lowercase, "whitespace": metric.whitespace,
                        "eps_smoothing": metric.eps_smoothing}
    if isinstance(metric, TER):
        return "ter", {"normalized": metric.normalized, "no_punct": metric.no_punct,
                       "asian_support": metric.asian_support, "case_sensitive": metric.case_sensitive}
    raise TypeError(f"PairedTest takes the facade's BLEU, CHRF and TER objects, got {type(metric).__name__}")


class PairedTest:
    """sacreBLEU's paired test manager: approximate randomization (``"ar"``) or paired bootstrap (``"bs"``).

    ``n_samples=0`` takes the defaults (10000 trials / 1000 resamples); ``n_ar_confidence`` bootstrap
    resamples give the AR test intervals (-1: none, 0: 1000). ``n_jobs`` is accepted and ignored (the
    numbers do not depend on it). With ``SACREBLEU_SEED=0`` sacreBLEU leaves the systems' tests
    unseeded; here they use seed 0 like the baseline.
    """

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(self, named_systems: List[Tuple[str, Sequence[str]]], metrics: Mapping[str, Any],
                 references: Optional[Sequence[Sequence[str]]], test_type: str = "ar", n_samples: int = 0,
                 n_ar_confidence: int = -1, n_jobs: int = 1):
        if test_type not in ("ar", "bs"):
            raise ValueError(f"Unknown test type {test_type!r}")
        self.test_type = test_type
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        self._seed = None if seed.lower() == "none" else int(seed)
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = list(named_systems)
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(self.named_systems) - 1
        self.metrics: Dict[str, Any] = {}
        self._signatures: Dict[str, Signature] = {}
        self._segments: Dict[str, list] = {}
        _baseline_name, baseline_hyps = self.named_systems[0]
        for metric in metrics.values():
            name_and_options = _metric_options(metric)
            score = metric.corpus_score(list(baseline_hyps), references)  # also fixes num_refs for the signature
            if references is not None:
                segments, _ = streams_to_segments(references, len(baseline_hyps))
            else:
                segments = metric._ref_cache
            self.metrics[score.name] = (metric, name_and_options)
            self._segments[score.name] = segments
            signature = metric.get_signature()
            signature.update("seed", str(self._seed).lower())
            signature.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            self._signatures[score.name] = signature

    def __call__(self) -> Tuple[Dict[str, Signature], Dict[str, List[Union[str, Result]]]]:
        """Runs the test: ``(signatures, scores)`` as sacreBLEU's ``PairedTest.__call__``."""
        systems = {name: list(hyps) for name, hyps in self.named_systems}
        if len(systems) != len(self.named_systems):
            raise ValueError("system names must be unique")
        scores: Dict[str, List[Union[str, Result]]] = {"System": [name for name, _ in self.named_systems]}
        for score_name, (_metric, (metric_name, options)) in self.metrics.items():
            tested = paired_test(systems, self._segments[score_name], metrics={metric_name: options},
                                 test=self.test_type, n_samples=self.n_samples, seed=self._seed,
                                 n_ar_confidence=self.n_ar_confidence)
            rows = next(iter(tested.rows.values()))
            scores[score_name] = [Result(row.score, row.p_value, row.mean, row.ci) for row in rows]
        return self._signatures, scores
