"""Confidence intervals and paired significance tests, for every metric, by resampling segment statistics.

A corpus score is a function of summed per-segment statistics (DESIGN.md §1), so a bootstrap sample is
a set of drawn rows and a randomization trial a per-row swap between two systems: no metric-specific
resampling code exists. For BLEU, chrF and TER, ``paired_test`` is identical to sacreBLEU 2.6.0's
``PairedTest`` (same seed → same p-values, means and intervals, float32 quirks included).

>>> systems = {"baseline": ["the cat sat on the mat", "a dog barked"],
...            "candidate": ["the cat is on the mat", "the dog barked"]}
>>> refs = ["the cat is on the mat", "the dog barked loudly"]
>>> result = paired_test(systems, refs, metrics=["bleu"], test="bs", n_samples=100)
>>> [row.system for row in result["BLEU"]]
['baseline', 'candidate']
>>> 0 < result["BLEU"][1].p_value <= 1
True
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.core import inputs as _validate
from nlgmetrics.core.result import SummaryResult
from nlgmetrics.io.table import format_table
from nlgmetrics.stats.resamplable import ResamplableMetric, from_metric, resamplable
from nlgmetrics.stats.resampling import (
    BlockedMasks,
    BlockedResample,
    Resample,
    estimate_ci,
    make_rng,
    p_value,
    percentile_interval,
)

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
MetricsArg = Union[Sequence[str], Mapping[str, Mapping[str, Any]]]


@dataclass(frozen=True)
class SystemTest:
    """One system's row: its score, and against the baseline its p-value, bootstrap mean and ± half-width."""

    system: str
    score: float
    p_value: Optional[float] = None
    mean: Optional[float] = None
    ci: Optional[float] = None

    def to_dict(self) -> dict:
        return {"system": self.system, "score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class PairedTestResult(SummaryResult):
    """Per metric name (``"BLEU"``, ``"chrF2"``, ``"TER"`` …), one ``SystemTest`` per system, baseline first
    (``rows``; ``result["BLEU"]``).

    The shared result shape: ``name`` (``"paired bs"``, ``"paired ar"``, ``"scores"`` without a test),
    ``score`` (the first metric's score of the baseline), ``scores`` plain numbers named ``"<metric> <system>"``
    (and ``"<metric> <system> p"`` for each tested system), ``to_dict()`` (with ``rows``, ``test``, ``n_samples``,
    ``seed``, ``signatures``), ``to_pandas()`` (one row per system: score, mean, ci, p per metric).
    """

    test: str
    n_samples: int
    seed: Optional[int]
    rows: Dict[str, Tuple[SystemTest, ...]]
    signatures: Dict[str, str] = field(default_factory=dict)
    # Per metric, digits shown beyond ``width`` (2 for metrics on a 0–1 scale).
    extra_decimals: Dict[str, int] = field(default_factory=dict)
    # Per metric, whether a higher score is better (False for TER and the error rates).
    higher_is_better: Dict[str, bool] = field(default_factory=dict)

    def significantly_better(self, metric: str, index: int, alpha: float = 0.05) -> bool:
        """Whether system ``index`` is better than the baseline on ``metric`` in the metric's direction, with
        p < ``alpha`` (the cells a table bolds)."""
        row, baseline = self.rows[metric][index], self.rows[metric][0]
        if row.p_value is None or row.p_value >= alpha:
            return False
        higher = self.higher_is_better.get(metric, True)
        return row.score > baseline.score if higher else row.score < baseline.score

    def __getitem__(self, metric: str) -> Tuple[SystemTest, ...]:
        return self.rows[metric]

    @property
    def systems(self) -> Tuple[str, ...]:
        return tuple(row.system for row in next(iter(self.rows.values())))

    @property
    def name(self) -> str:
        return "scores" if self.test == "none" else f"paired {self.test}"

    @property
    def score(self) -> float:
        return next(iter(self.rows.values()))[0].score

    @property
    def scores(self) -> Dict[str, float]:
        out: Dict[str, float] = {}
        for metric, rows in self.rows.items():
            for row in rows:
                out[f"{metric} {row.system}"] = row.score
                if row.p_value is not None:
                    out[f"{metric} {row.system} p"] = row.p_value
        return out

    @property
    def signature(self) -> str:
        return " ; ".join(self.signatures.values())

    def _dict_extras(self) -> dict:
        return {"test": self.test, "n_samples": self.n_samples, "seed": self.seed, "signatures": self.signatures,
                "systems": list(self.systems),
                "rows": {name: [row.to_dict() for row in rows] for name, rows in self.rows.items()}}

    def _frame(self):
        columns: Dict[str, list] = {}
        for metric, rows in self.rows.items():
            for key in ("score", "mean", "ci", "p_value"):
                columns[f"{metric} {key}"] = [getattr(row, key) for row in rows]
        return columns, list(self.systems)

    def format(self, width: int = 1, alpha: float = 0.05) -> str:
        """A table: score (μ ± 95% CI) and p-value per metric; ``*`` marks p < ``alpha``."""
        header = ["System"]
        for name in self.rows:
            header.append(name if self.test == "none" else f"{name} (μ ± 95% CI)")
        rows = []
        for index, system in enumerate(self.systems):
            row = [("Baseline: " if index == 0 and self.test != "none" else "") + system]
            for name, tested in self.rows.items():
                digits = width + self.extra_decimals.get(name, 0)
                cell = f"{tested[index].score:.{digits}f}"
                if tested[index].mean is not None:
                    cell += f" ({tested[index].mean:.{digits}f} ± {tested[index].ci:.{digits}f})"
                p = tested[index].p_value
                if p is not None:
                    cell += f" p = {p:.4f}{'*' if p < alpha else ''}"
                row.append(cell)
            rows.append(row)
        table = format_table(header, rows)
        if self.test == "none":
            return table
        return table + f"\n\n{self.test.upper()} test, {self.n_samples} samples, seed {self.seed}; * p < {alpha}"

    def __str__(self) -> str:
        return self.format()

    def _cells(self, width: Optional[int]) -> Tuple[list, list]:
        """Header and rows of text for CSV: numbers in full precision (``repr``) when ``width`` is None."""
        def number(value: Optional[float], digits: Optional[int]) -> str:
            if value is None:
                return ""
            return repr(float(value)) if digits is None else f"{value:.{digits}f}"

        header = ["system"]
        for name in self.rows:
            header += [name, f"{name} mean", f"{name} ci", f"{name} p"]
        rows = []
        for index, system in enumerate(self.systems):
            row = [system]
            for tested in self.rows.values():
                entry = tested[index]
                row += [number(entry.score, width), number(entry.mean, width), number(entry.ci, width),
                        number(entry.p_value, None if width is None else 4)]
            rows.append(row)
        return header, rows

    def to_csv(self, width: Optional[int] = None) -> str:
        """Comma-separated values: one row per system, four columns (score, mean, ci, p) per metric.

        Numbers keep full precision (``width=None``, the default; an int rounds them). A text cell (a system
        or metric name) that a spreadsheet would run as a formula — starting with ``=``, ``+``, ``-``, ``@``, a
        tab or a carriage return — is written with a leading ``'`` (OWASP's CSV-injection advice).
        """
        import csv
        import io

        header, rows = self._cells(width)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([_inert_cell(cell) for cell in header])
        writer.writerows([[_inert_cell(row[0]), *row[1:]] for row in rows])
        return buffer.getvalue()

    def to_latex(self, width: int = 1, alpha: float = 0.05) -> str:
        """A LaTeX tabular: score (mean ± ci) and p-value per metric; bold marks a system significantly better
        than the baseline (p < ``alpha``) in the metric's direction (lower for TER and the error rates).
        System and metric names are escaped (``& % # $ \\ { } ~ ^ _``)."""
        names = list(self.rows)
        lines = [r"\begin{tabular}{l" + "r" * len(names) + "}", r"\toprule",
                 " & ".join(["System"] + [latex_escape(name) for name in names]) + r" \\", r"\midrule"]
        for index, system in enumerate(self.systems):
            cells = [latex_escape(system)]
            for name, tested in self.rows.items():
                entry = tested[index]
                digits = width + self.extra_decimals.get(name, 0)
                cell = f"{entry.score:.{digits}f}"
                if entry.mean is not None:
                    cell += f" ({entry.mean:.{digits}f} $\\pm$ {entry.ci:.{digits}f})"
                if entry.p_value is not None:
                    cell += f", $p = {entry.p_value:.4f}$"
                if self.significantly_better(name, index, alpha):
                    cell = r"\textbf{" + cell + "}"
                cells.append(cell)
            lines.append(" & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines) + "\n"


_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "_": r"\_", "{": r"\{", "}": r"\}",
                   "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def latex_escape(text: str) -> str:
    r"""Text as LaTeX prints it literally.

    >>> print(latex_escape(r"a&b_50% #1 $x$ {y} ~z^ \w"))
    a\&b\_50\% \#1 \$x\$ \{y\} \textasciitilde{}z\textasciicircum{} \textbackslash{}w
    """
    return "".join(_LATEX_SPECIALS.get(char, char) for char in text)


def _inert_cell(text: str) -> str:
    """A CSV text cell a spreadsheet will not run as a formula.

    >>> _inert_cell("=HYPERLINK(1)"), _inert_cell("sys-1"), _inert_cell("-sys")
    ("'=HYPERLINK(1)", 'sys-1', "'-sys")
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _metric_list(metrics: MetricsArg, sources: Optional[Sequence[str]] = None) -> list[ResamplableMetric]:
    """The metrics to score and test; a ROUGE of several variants (``rouge``: rouge1, rouge2, rougeL and
    rougeLsum) is one column per variant, each labelled with its F (``rouge1 F`` …)."""
    if isinstance(metrics, str):
        metrics = [metrics]
    named = list(metrics.items()) if isinstance(metrics, Mapping) else [(name, {}) for name in metrics]
    return [_with_sources(resamplable(name, options), sources) for given, given_options in named
            for name, options in _one_per_variant(given, dict(given_options or {}))]


def _with_sources(metric: ResamplableMetric, sources: Optional[Sequence[str]]) -> ResamplableMetric:
    """The metric with ``sources`` bound where it reads them (COMET); a clear error where it needs them."""
    if not getattr(getattr(metric.compute, "__self__", metric.compute), "needs_sources", False):
        return metric
    if sources is None:
        raise TypeError(f"{metric.name} needs the source of every segment: pass sources=[...]")
    lines = _validate.hypotheses_list(sources, "sources")
    compute: Any = metric.compute  # COMET's _score_batch, which takes sources=
    return dataclasses.replace(metric, compute=functools.partial(compute, sources=lines))


def _one_per_variant(name: str, options: Dict[str, Any]) -> list:
    """``[(name, options)]``, or for a ROUGE of several variants one ``(variant, options)`` per variant."""
    from nlgmetrics.core.registry import metric as make_metric

    metric = make_metric(name, **options)
    variants = metric.options.get("variants") if metric.name == "rouge" else None
    if not variants or len(variants) == 1:
        return [(name, options)]
    others = {key: value for key, value in options.items() if key != "variants"}
    return [("rouge", {**others, "variants": [variant]}) for variant in variants]


def _float32_scores(metric: ResamplableMetric, stats: np.ndarray, resample: Union[Resample, BlockedResample]) -> np.ndarray:
    """Bootstrap scores: sacreBLEU's float32 arithmetic where the metric mirrors it, else full precision."""
    if metric.float32_scores is None:
        return metric.exact_scores(resample.sums(stats))
    return metric.float32_scores(resample.sums_float32(stats))


def _bootstrap_row(metric, name, computed, baseline, resample, baseline_scores) -> SystemTest:
    """sacreBLEU's _paired_bs_test for one metric and system (``baseline_scores``: the baseline's on ``resample``)."""
    system_scores = _float32_scores(metric, computed.segment_stats, resample)
    mean, ci = estimate_ci(system_scores)
    differences = np.abs(system_scores - baseline_scores)
    p = p_value(differences - differences.mean(), abs(baseline.score - computed.score))
    return SystemTest(name, computed.score, p, float(mean), float(ci))


def _randomization_row(metric, name, computed, baseline, masks, confidence_resample) -> SystemTest:
    """sacreBLEU's _paired_ar_test for one metric and system (``masks``: its trials as float32 0/1)."""
    system_stats = computed.segment_stats
    pseudo_a, pseudo_b = masks.sums(baseline.segment_stats, system_stats)
    trial_differences = np.abs(metric.exact_scores(pseudo_a) - metric.exact_scores(pseudo_b))
    p = p_value(trial_differences, abs(baseline.score - computed.score))
    if confidence_resample is None:
        return SystemTest(name, computed.score, p)
    mean, ci = estimate_ci(_float32_scores(metric, system_stats, confidence_resample))
    return SystemTest(name, computed.score, p, float(mean), float(ci))


# Most resamples accepted: the draws are n_samples × segments integers, drawn in blocks of BLOCK_CELLS (bounded
# memory), so the bound is on time: 10 million samples of 100 segments take about two minutes per system and
# metric on a loaded 2-core machine (3 million: 38 s a pass, 0.4 GB).
MAX_SAMPLES = 10_000_000


def _seeded(seed: Optional[int]) -> Callable[[], np.random.Generator]:
    """Fresh generators in one state: ``seed``'s, or (None) one entropy drawn now, so blocks drawn again agree."""
    fixed: Any = np.random.SeedSequence().entropy if seed is None else seed
    return lambda: np.random.default_rng(fixed)


def _check_n_samples(n_samples) -> None:
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or not 1 <= n_samples <= MAX_SAMPLES:
        raise ValueError(f"n_samples must be a positive int (at most {MAX_SAMPLES:,}), got {n_samples!r}")


def paired_test(systems: Mapping[str, Sequence[str]], references: Sequence[Union[str, Sequence[str]]],  # noqa: C901
                metrics: MetricsArg = ("bleu",), test: str = "bs", n_samples: Optional[int] = None,
                seed: Optional[int] = 12345, n_ar_confidence: int = -1,
                progress: Optional[Callable[[int, int, str], None]] = None,
                sources: Optional[Sequence[str]] = None) -> PairedTestResult:
    """Paired bootstrap (``test="bs"``, Koehn 2004) or approximate randomization (``"ar"``, Riezler &
    Maxwell 2005) of every system against the first (the baseline), as sacreBLEU's ``PairedTest``.

    :param systems: ordered mapping name → hypotheses; the first entry is the baseline.
    :param references: per segment a reference string or a list of them.
    :param metrics: metric names or a mapping name → options dict: ``bleu``, ``chrf``, ``chrf++``, ``ter``
        (sacreBLEU-identical), ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum`` (F), ``meteor``, ``cider``,
        ``exact_match``, ``f1``.
    :param n_samples: resamples (bs) or trials (ar); default 1000 / 10000 as sacreBLEU.
    :param seed: NumPy ``default_rng`` seed (sacreBLEU's default 12345); ``None`` is not reproducible.
    :param n_ar_confidence: bootstrap resamples for the AR test's intervals (-1: none, 0: 1000).
    :param progress: called as ``progress(done, total, label)`` after each metric × system step.
    :param sources: the source of every segment, for metrics that read it (``comet``: WMT compares systems
        with COMET and the paired bootstrap).
    """
    if test not in DEFAULT_SAMPLES:
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), got {test!r}")
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise ValueError("systems must be a mapping of at least two names to hypotheses (the first is the baseline)")
    # None: the test's default. 0 is refused rather than silently read as the default.
    n_samples = DEFAULT_SAMPLES[test] if n_samples is None else n_samples
    _check_n_samples(n_samples)
    n_ar_confidence = DEFAULT_SAMPLES["bs"] if n_ar_confidence == 0 else n_ar_confidence
    names = list(systems)
    hypotheses = {name: _validate.hypotheses_list(systems[name], f"systems[{name!r}]") for name in names}
    n_segments = len(hypotheses[names[0]])
    refs = _validate.references_lists(references, n_segments)
    for name in names[1:]:
        if len(hypotheses[name]) != n_segments:
            raise ValueError(f"systems[{name!r}] has {len(hypotheses[name])} hypotheses but the baseline has {n_segments}")
    if n_segments == 0:
        raise ValueError("paired tests need at least one segment")

    bound = _metric_list(metrics, sources)
    total_steps, done = len(bound) * (2 * len(names) - 1), 0

    def step(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total_steps, label)

    computed = []
    for metric in bound:
        results = {}
        for name in names:
            results[name] = metric.compute(hypotheses[name], refs)
            step(f"{metric.name} {name}")
        computed.append(results)
    fresh_draws: Dict[int, BlockedResample] = {}

    def fresh_bootstrap(count: int) -> BlockedResample:
        """``count`` bootstrap draws from a new generator: the same draws every time when seeded."""
        if seed is None:
            return BlockedResample(_seeded(None), n_segments, count)
        if count not in fresh_draws:
            fresh_draws[count] = BlockedResample(_seeded(seed), n_segments, count)
        return fresh_draws[count]

    rows: Dict[str, list] = {}
    for metric, results in zip(bound, computed):
        baseline = results[names[0]]
        confidence_n = n_samples if test == "bs" else n_ar_confidence
        mean = ci = None
        if confidence_n > 0:
            resample = fresh_bootstrap(confidence_n)
            mean, ci = (float(x) for x in estimate_ci(_float32_scores(metric, baseline.segment_stats, resample)))
        rows[metric.name] = [SystemTest(names[0], baseline.score, None, mean, ci)]

    # Seeded, every system is resampled with the same indices (a fresh generator from the same seed):
    # the draws and the baseline's scores are computed once.
    baseline_cache: Dict[str, np.ndarray] = {}
    masks = None
    for name in names[1:]:
        if test == "bs":
            resample = fresh_bootstrap(n_samples)
            if seed is None:
                baseline_cache.clear()
        elif seed is None or masks is None:
            masks = BlockedMasks(make_rng(seed), n_segments, n_samples)
            after = masks.rng_after()
            confidence_resample = (BlockedResample(lambda: copy.deepcopy(after), n_segments, n_ar_confidence)
                                   if n_ar_confidence > 0 else None)
        for metric, results in zip(bound, computed):
            baseline = results[names[0]]
            if test == "bs":
                if metric.name not in baseline_cache:
                    baseline_cache[metric.name] = _float32_scores(metric, baseline.segment_stats, resample)
                row = _bootstrap_row(metric, name, results[name], baseline, resample, baseline_cache[metric.name])
            else:
                row = _randomization_row(metric, name, results[name], baseline, masks, confidence_resample)
            rows[metric.name].append(row)
            step(f"{test} {metric.name} {name}")

    signatures = {metric.name: f"{results[names[0]].signature}|{test}:{n_samples}|seed:{seed}"
                  for metric, results in zip(bound, computed)}
    return PairedTestResult(test, n_samples, seed, {k: tuple(v) for k, v in rows.items()}, signatures,
                            {metric.name: metric.extra_decimals for metric in bound},
                            {metric.name: metric.higher_is_better for metric in bound})


def score_table(systems: Mapping[str, Sequence[str]], references: Sequence[Union[str, Sequence[str]]],
                metrics: MetricsArg = ("bleu",)) -> PairedTestResult:
    """Every system scored with every metric, no test: a ``PairedTestResult`` whose p-values are ``None``."""
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError("systems must be a non-empty mapping of names to hypotheses")
    names = list(systems)
    hypotheses = {name: _validate.hypotheses_list(systems[name], f"systems[{name!r}]") for name in names}
    refs = _validate.references_lists(references, len(hypotheses[names[0]]))
    scores, signatures, extra_decimals, directions = {}, {}, {}, {}
    for metric in _metric_list(metrics):
        extra_decimals[metric.name] = metric.extra_decimals
        directions[metric.name] = metric.higher_is_better
        results = {name: metric.compute(hypotheses[name], refs) for name in names}
        scores[metric.name] = tuple(SystemTest(name, results[name].score) for name in names)
        signatures[metric.name] = str(results[names[0]].signature)
    return PairedTestResult("none", 0, None, scores, signatures, extra_decimals, directions)


@dataclass(frozen=True)
class ConfidenceInterval(SummaryResult):
    """A bootstrap interval around one system's score.

    The shared result shape: ``name`` (the metric), ``score``, ``scores`` (score, low, high, mean),
    ``to_dict()`` (with confidence, method, n_samples, seed), ``to_pandas()`` (one row).
    """

    metric: str
    score: float
    low: float
    high: float
    mean: float
    confidence: float
    method: str
    n_samples: int
    seed: Optional[int]

    signature = None

    @property
    def name(self) -> str:
        return self.metric

    @property
    def scores(self) -> Dict[str, float]:
        return {"score": self.score, "low": self.low, "high": self.high, "mean": self.mean}

    def _dict_extras(self) -> dict:
        return {"confidence": self.confidence, "method": self.method, "n_samples": self.n_samples, "seed": self.seed}

    def __str__(self) -> str:
        return (f"{self.metric} = {self.score:.2f} [{self.low:.2f}, {self.high:.2f}] "
                f"({self.confidence:.0%} {self.method} bootstrap, {self.n_samples} samples, seed {self.seed})")


def confidence_interval(hypotheses: Sequence[str], references: Sequence[Union[str, Sequence[str]]], metric: str = "bleu",
                        n_samples: int = 1000, seed: Optional[int] = 12345, confidence: float = 0.95,
                        method: str = "percentile", sources: Optional[Sequence[str]] = None,
                        **options: Any) -> ConfidenceInterval:
    """Bootstrap confidence interval of one system's corpus score.

    ``method="percentile"``: the ``confidence`` percentile interval of scores recomputed in full precision
    from resampled statistics. ``method="sacrebleu"``: sacreBLEU's ``--confidence`` (float32 statistics,
    95% bounds at the ``n//40``-th order statistics; ``low``/``high`` = mean ∓ half-width).

    >>> ci = confidence_interval(["the cat sat on the mat"] * 4, ["the cat is on the mat"] * 4, n_samples=50)
    >>> ci.low <= ci.score <= ci.high
    True
    """
    if method not in ("percentile", "sacrebleu"):
        raise ValueError(f"method must be 'percentile' or 'sacrebleu', got {method!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    _check_n_samples(n_samples)
    bound = _with_sources(resamplable(metric, options), sources)
    hyps = _validate.hypotheses_list(hypotheses)
    refs = _validate.references_lists(references, len(hyps))
    if not hyps:
        raise ValueError("a confidence interval needs at least one segment")
    return _interval(bound, bound.compute(hyps, refs), n_samples, seed, confidence, method)


def interval_from_result(result: Any, metric: Any, n_samples: int = 1000, seed: Optional[int] = None,
                         confidence: float = 0.95, method: str = "percentile") -> ConfidenceInterval:
    """The bootstrap interval of a computed result (``Result.ci``): its segment statistics resampled."""
    if not isinstance(n_samples, int) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive int, got {n_samples!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    if len(result.segment_stats) == 0:
        raise ValueError("a confidence interval needs per-segment statistics (at least one segment, segments=True)")
    return _interval(from_metric(metric), result, n_samples, seed, confidence, method)


def _interval(bound: ResamplableMetric, result: Any, n_samples: int, seed: Optional[int], confidence: float,
              method: str) -> ConfidenceInterval:
    resample = BlockedResample(_seeded(seed), len(result.segment_stats), n_samples)
    if method == "sacrebleu":
        if confidence != 0.95:
            raise ValueError("method='sacrebleu' is sacreBLEU's fixed 95% interval; use method='percentile' for others")
        mean, half_width = (float(x) for x in estimate_ci(_float32_scores(bound, result.segment_stats, resample)))
        low, high = mean - half_width, mean + half_width
    else:
        scores = bound.exact_scores(resample.sums(result.segment_stats))
        mean = float(np.mean(scores))
        low, high = percentile_interval(scores, confidence)
    return ConfidenceInterval(bound.name, result.score, low, high, mean, confidence, method, n_samples, seed)
