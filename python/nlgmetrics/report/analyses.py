"""The report's computations: plain data (dicts, lists, NumPy arrays) from systems' outputs and references.

Everything here is built on the public API (``nlgmetrics.bleu/chrf/ter/rouge/meteor`` results and
``nlgmetrics.paired_test``); nothing renders HTML. Where compare-mt (neulab, 0.2.10) computes the same
number, the definition is compare-mt's, so the two agree on the same tokens:

- sentence buckets: ``compare_mt/bucketers.py`` ``LengthSentenceBucketer`` (reference length, cutoffs
  10:20:30:40:50:60) and ``LengthDiffSentenceBucketer`` (output minus reference length, cutoffs
  -20:-10:-5:-4:-3:-2:-1:0:1:2:3:4:5:6:11:21); a value goes to the first bucket whose cutoff exceeds it;
- word F-measure by frequency: ``FreqWordBucketer`` (frequency of the word in the reference, cutoffs
  1:2:3:4:5:10:100:1000), clipped matches per sentence, F = 2PR/(P+R) and 0 when nothing matches;
- characteristic n-grams: ``ngram_utils.compare_ngrams`` (clipped matches per sentence, n = 1..4) and
  ``stat_utils.extract_salient_features`` ((m₁+α)/(m₁+m₂+2α), α = 1).

Word-level analyses use one reference (the first) and the tokens of ``word_tokenizer`` split on spaces,
as compare-mt reads one tokenized reference file.

>>> refs = [["the cat sat on the mat"], ["a dog"]]
>>> tokens = word_tokens([r[0] for r in refs], "none")
>>> [len(t) for t in tokens]
[6, 2]
>>> bucket_labels(LENGTH_CUTOFFS)
['<10', '[10,20)', '[20,30)', '[30,40)', '[40,50)', '[50,60)', '>=60']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

# compare-mt 0.2.10 defaults (bucketers.py).
LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_CUTOFFS = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)
SCORE_BINS = 10  # histogram of segment scores: ten equal bins over the metric's range


@dataclass(frozen=True)
class MetricSpec:
    """How the report calls one metric of the public API and reads it."""

    key: str                 # the name in ``metrics=`` and in ``paired_test``
    label: str               # column header
    higher_is_better: bool
    top: float               # the scale's maximum (100 or 1)
    options: Tuple[Tuple[str, Any], ...] = ()  # given in ``metrics={name: options}`` (a model-based metric's model)


METRIC_SPECS: Dict[str, MetricSpec] = {
    "bleu": MetricSpec("bleu", "BLEU", True, 100.0),
    "chrf": MetricSpec("chrf", "chrF2", True, 100.0),
    "chrf++": MetricSpec("chrf++", "chrF2++", True, 100.0),
    "ter": MetricSpec("ter", "TER", False, 100.0),
    "rouge1": MetricSpec("rouge1", "ROUGE-1 F", True, 1.0),
    "rouge2": MetricSpec("rouge2", "ROUGE-2 F", True, 1.0),
    "rougel": MetricSpec("rougeL", "ROUGE-L F", True, 1.0),
    "rougelsum": MetricSpec("rougeLsum", "ROUGE-Lsum F", True, 1.0),
    "meteor": MetricSpec("meteor", "METEOR", True, 1.0),
    "bertscore": MetricSpec("bertscore", "BERTScore F1", True, 1.0),
    "comet": MetricSpec("comet", "COMET", True, 1.0),
}
# ``rouge`` in ``metrics=`` stands for these three.
ROUGE_DEFAULT = ("rouge1", "rouge2", "rougel")
DEFAULT_METRICS = ("bleu", "chrf", "ter")

# sacreBLEU's CLI picks the BLEU tokenizer from the target language the same way.
_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def metric_specs(metrics: Union[str, Sequence[str], Mapping[str, Any]]) -> List[MetricSpec]:
    """The specs of ``metrics`` in order (``rouge`` expands to ROUGE-1, -2 and -L); a mapping gives each metric
    its options (``{"bleu": {}, "bertscore": {"model": path, "num_layers": 6}}``).

    >>> [spec.label for spec in metric_specs(["bleu", "rouge"])]
    ['BLEU', 'ROUGE-1 F', 'ROUGE-2 F', 'ROUGE-L F']
    >>> metric_specs({"comet": {"model": "m"}})[0].options
    (('model', 'm'),)
    """
    if isinstance(metrics, str):
        metrics = [part for part in metrics.split(",") if part]
    named = list(metrics.items()) if isinstance(metrics, Mapping) else [(name, None) for name in metrics]
    specs: List[MetricSpec] = []
    for index, (name, options) in enumerate(named):
        if not isinstance(name, str):
            raise TypeError(f"metrics[{index}] must be a str, got {type(name).__name__}")
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"metrics[{name!r}] must be a dict of options, got {type(options).__name__}")
        keys = ROUGE_DEFAULT if name.lower() == "rouge" else (name.lower(),)
        for key in keys:
            if key not in METRIC_SPECS:
                raise ValueError(f"metrics[{index}]: unknown metric {name!r}; expected one of "
                                 f"{', '.join(['rouge', *(spec.key for spec in METRIC_SPECS.values())])}")
            spec = METRIC_SPECS[key]
            if options:
                spec = replace(spec, options=tuple(sorted(dict(options).items())))
            if spec not in specs:
                specs.append(spec)
    if not specs:
        raise ValueError("metrics must name at least one metric")
    return specs


def word_tokenizer_for(language: Optional[str]) -> str:
    """The sacreBLEU tokenizer for a target language: ``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``.

    >>> word_tokenizer_for("zh"), word_tokenizer_for("de"), word_tokenizer_for(None)
    ('zh', '13a', '13a')
    """
    if language is None:
        return "13a"
    return _LANGUAGE_TOKENIZERS.get(language.lower().split("-")[0], "13a")


def metric_options(spec: MetricSpec, language: Optional[str], sentence_separator: Optional[str] = None) -> Dict[str, Any]:
    """Options passed to the metric: BLEU's tokenizer follows the target language, as sacreBLEU's CLI; ROUGE
    reads ``sentence_separator`` as a sentence break."""
    return {**_language_options(spec, language, sentence_separator), **dict(spec.options)}


def _language_options(spec: MetricSpec, language: Optional[str], sentence_separator: Optional[str]) -> Dict[str, Any]:
    if spec.key.startswith("rouge") and sentence_separator:
        return {"sentence_separator": sentence_separator}
    if spec.key == "bleu":
        return {"tokenize": word_tokenizer_for(language)}
    if spec.key == "ter" and language and language.lower().split("-")[0] in _LANGUAGE_TOKENIZERS:
        return {"asian_support": True}  # else a Chinese sentence is one TER token
    if spec.key == "meteor" and language:
        return {"language": language.lower().split("-")[0]}
    return {}


@dataclass(frozen=True)
class Scored:
    """One metric on one system: what the table and the segment analyses read."""

    score: float
    segment_stats: np.ndarray      # rows the bootstrap resamples (additive, or [value, 1] for means)
    segment_scores: np.ndarray     # each segment's own score
    signature: str                 # of the corpus score
    segment_signature: str         # of the segment scores


def score_systems(spec: MetricSpec, systems: Mapping[str, List[str]], references: List[List[str]],
                  options: Mapping[str, Any], step: Any = None,
                  sources: Optional[Sequence[str]] = None) -> Dict[str, Scored]:
    """Every system scored once with the registered metric ``spec.key`` (its result's additive rows are what
    the bootstrap resamples). BLEU per segment is sentence BLEU with effective order, as sacreBLEU's
    sentence_bleu; ROUGE per segment is the variant's F; BERTScore's is its F1. COMET reads ``sources``."""
    import nlgmetrics

    metric = nlgmetrics.metric(spec.key, **options)
    sentence_metric = nlgmetrics.metric("bleu", **{**options, "effective_order": True}) if spec.key == "bleu" else None
    extra: Dict[str, Any] = {}
    if getattr(metric, "needs_sources", False):
        if sources is None:
            raise TypeError(f"{spec.key} needs the source of every segment: report(..., sources=[...])")
        extra["sources"] = list(sources)
    scored = {}
    for name, hypotheses in systems.items():
        result = metric._score_batch(hypotheses, references, **extra)
        per_segment = sentence_metric._score_batch(hypotheses, references) if sentence_metric is not None else result
        values = np.asarray(per_segment.segment_scores, dtype=np.float64)
        if values.ndim == 3:  # ROUGE: (segments, variants, precision/recall/F)
            values = values[:, 0, 2]
        elif values.ndim == 2:  # BERTScore: (segments, precision/recall/F1)
            values = values[:, 2]
        scored[name] = Scored(float(result.score), result.segment_stats, values, str(result.signature),
                              str(per_segment.signature))
        if step is not None:
            step()
    return scored


# Bootstrap draws held at once (samples × segments); ~32 bytes each (indices, counts, their making): ~160 MB.
BOOTSTRAP_CELLS = 5_000_000


def score_table(specs: Sequence[MetricSpec], scored: Mapping[str, Mapping[str, Scored]], language: Optional[str],
                n_samples: int, seed: Optional[int], alpha: float) -> Dict[str, Any]:
    """Per metric and system: corpus score, 95% bootstrap interval, p-value against the baseline and a verdict.

    The numbers are those of ``nlgmetrics.paired_test(..., test="bs", n_samples, seed)`` (sacreBLEU's paired
    bootstrap; the interval is mean ± half-width of the resampled scores), computed from the statistics already
    in ``scored`` with the same engine, whenever ``n_samples × segments`` ≤ ``BOOTSTRAP_CELLS``. Beyond that
    (e.g. 1,000 samples of more than 5,000 segments) the samples are drawn in blocks from the same generator,
    so memory stays bounded; the draws, hence the last digits, then differ from ``paired_test``'s.
    ``verdict`` is ``"baseline"``, ``"better"``, ``"worse"`` (p < ``alpha``, in the metric's own direction:
    lower TER is better) or ``"no significant difference"``.
    """
    from nlgmetrics.stats.resamplable import resamplable
    from nlgmetrics.stats.resampling import Resample, bootstrap_indices, estimate_ci, make_rng, p_value
    from nlgmetrics.stats.significance import _float32_scores

    metrics = [resamplable(spec.key, metric_options(spec, language)) for spec in specs]
    names = list(scored[specs[0].key])
    n_segments = len(scored[specs[0].key][names[0]].segment_stats)
    per_block = max(1, BOOTSTRAP_CELLS // max(n_segments, 1))
    rng = make_rng(seed)
    # resampled scores per metric and system, block after block (one block: paired_test's very draws)
    samples: Dict[str, Dict[str, List[np.ndarray]]] = {spec.key: {name: [] for name in names} for spec in specs}
    for start in range(0, n_samples, per_block):
        resample = Resample(bootstrap_indices(rng, n_segments, min(per_block, n_samples - start)))
        for spec, metric in zip(specs, metrics):
            for name in names:
                samples[spec.key][name].append(_float32_scores(metric, scored[spec.key][name].segment_stats, resample))
    table: Dict[str, Any] = {"test": "paired bootstrap", "n_samples": n_samples, "seed": seed, "alpha": alpha,
                             "blocks": -(-n_samples // per_block), "metrics": []}
    for spec, metric in zip(specs, metrics):
        results = scored[spec.key]
        baseline = results[names[0]]
        baseline_scores = np.concatenate(samples[spec.key][names[0]])
        entries = []
        for name in names:
            system_scores = np.concatenate(samples[spec.key][name])
            mean, half = (float(x) for x in estimate_ci(system_scores))
            entry = {"system": name, "score": results[name].score, "mean": mean, "ci_low": mean - half,
                     "ci_high": mean + half, "p_value": None, "verdict": "baseline"}
            if name != names[0]:
                # stats.significance._bootstrap_row: centred absolute differences against the observed one
                differences = np.abs(system_scores - baseline_scores)
                p = p_value(differences - differences.mean(), abs(baseline.score - results[name].score))
                entry["p_value"] = p
                entry["verdict"] = "no significant difference"
                if p < alpha and results[name].score != baseline.score:
                    better = (results[name].score > baseline.score) == spec.higher_is_better
                    entry["verdict"] = "better" if better else "worse"
            entries.append(entry)
        table["metrics"].append({"key": spec.key, "label": spec.label, "name": metric.name,
                                 "higher_is_better": spec.higher_is_better,
                                 "signature": f"{baseline.signature}|bs:{n_samples}|seed:{seed}", "rows": entries})
    return table


def word_tokens(lines: Sequence[str], tokenizer: str) -> List[List[str]]:
    """Lines tokenized with sacreBLEU's ``tokenizer`` and split on spaces (an empty line has no tokens)."""
    return [line.split() for line in tokenized_lines(lines, tokenizer)]


def tokenized_lines(lines: Sequence[str], tokenizer: str) -> List[str]:
    """Lines tokenized with sacreBLEU's ``tokenizer``, tokens separated by spaces (one str a line keeps a
    large corpus small; ``TokenCorpus`` splits them as it interns)."""
    from nlgmetrics.tokenizers import pretokenize

    return pretokenize(list(lines), tokenizer)


def bucket_labels(cutoffs: Sequence[float]) -> List[str]:
    """compare-mt's bucket names (``Bucketer.set_bucket_cutoffs`` with integer cutoffs)."""
    labels = []
    for index, cutoff in enumerate(cutoffs):
        if index == 0:
            labels.append(f"<{cutoff}")
        elif cutoff - 1 == cutoffs[index - 1]:
            labels.append(f"{cutoff - 1}")
        else:
            labels.append(f"[{cutoffs[index - 1]},{cutoff})")
    labels.append(f">={cutoffs[-1]}")
    return labels


def bucket_of(values: np.ndarray, cutoffs: Sequence[float]) -> np.ndarray:
    """compare-mt's ``cutoff_into_bucket``: the index of the first cutoff greater than the value.

    >>> bucket_of(np.array([0, 9, 10, 60, 99]), LENGTH_CUTOFFS).tolist()
    [0, 0, 1, 6, 6]
    """
    return np.searchsorted(np.asarray(cutoffs), np.asarray(values), side="right")


def sentence_buckets(bucket_per_segment: np.ndarray, cutoffs: Sequence[float],
                     scores: Mapping[str, np.ndarray]) -> Dict[str, Any]:
    """Segments counted per bucket, and each metric's mean segment score in each bucket (None if empty)."""
    n_buckets = len(cutoffs) + 1
    counts = np.bincount(bucket_per_segment, minlength=n_buckets)
    means: Dict[str, List[Optional[float]]] = {}
    for key, values in scores.items():
        sums = np.bincount(bucket_per_segment, weights=values, minlength=n_buckets)
        means[key] = [float(s / c) if c else None for s, c in zip(sums, counts)]
    return {"labels": bucket_labels(cutoffs), "counts": counts.tolist(), "means": means}


def histogram(values: np.ndarray, top: float, lower_is_better: bool = False) -> Dict[str, Any]:
    """Counts of segment scores in ``SCORE_BINS`` equal bins over [0, top]; values above ``top`` (TER can
    exceed 100) fall in the last bin."""
    edges = np.linspace(0.0, top, SCORE_BINS + 1)
    index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, SCORE_BINS - 1)
    return {"edges": edges.tolist(), "counts": np.bincount(index, minlength=SCORE_BINS).tolist(),
            "mean": float(np.mean(values)) if len(values) else 0.0, "lower_is_better": lower_is_better}


def win_tie_loss(system: np.ndarray, baseline: np.ndarray, higher_is_better: bool) -> Dict[str, int]:
    """Segments where the system scores better, equal or worse than the baseline (in the metric's direction)."""
    difference = (system - baseline) if higher_is_better else (baseline - system)
    return {"win": int(np.sum(difference > 0)), "tie": int(np.sum(difference == 0)), "loss": int(np.sum(difference < 0))}


def most_different_segments(scores: np.ndarray, count: int, reference_lengths: Optional[np.ndarray] = None,
                            min_length: int = 5) -> List[int]:
    """Indices of the ``count`` segments whose scores vary most across systems (standard deviation,
    ties broken by position); ``scores`` is (systems, segments). Segments whose reference has fewer than
    ``min_length`` tokens are passed over (one-word segments swing from 0 to 100 and teach little) unless
    too few others exist.

    >>> most_different_segments(np.array([[0.0, 5, 1], [0.0, 1, 9]]), 2)
    [2, 1]
    """
    spread = scores.std(axis=0)
    if reference_lengths is not None and np.sum(reference_lengths >= min_length) >= count:
        spread = np.where(reference_lengths >= min_length, spread, 0.0)
    order = np.lexsort((np.arange(spread.size), -spread))
    return [int(i) for i in order[:count] if spread[i] > 0]


def even_sample(n_items: int, limit: int) -> np.ndarray:
    """At most ``limit`` indices spread evenly over ``range(n_items)`` (all of them when there are fewer)."""
    if n_items <= limit:
        return np.arange(n_items)
    return np.unique(np.linspace(0, n_items - 1, limit).round().astype(np.int64))
