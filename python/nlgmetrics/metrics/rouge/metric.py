"""ROUGE as a registered, mergeable metric, and ``rouge``, which runs through it.

Both presets keep per-document rows: ``rouge_score`` averages them (``"mean"`` reduction: the
corpus P/R/F is the mean over documents, so merged states give the one-shot numbers); ``rouge155``
keeps ROUGE-1.5.5's per-document R/P/F and runs its bootstrap over all of them at ``compute()``
(``"rows"`` reduction). Memory per document and variant: 48 bytes for ``rouge_score`` (P/R/F and the
hits/totals, float64), 24 bytes for ``rouge155``.

>>> import nlgmetrics
>>> m = nlgmetrics.metric("rougeL")
>>> _ = m.update(["the cat sat on the mat"], ["the cat was on the mat"])
>>> _ = m.update(["a dog"], ["the dog barked"])
>>> m.compute().rougeL.fmeasure == nlgmetrics.rouge(["the cat sat on the mat", "a dog"],
...     ["the cat was on the mat", "the dog barked"], variants=["rougeL"]).rougeL.fmeasure
True
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core import inputs
from nlgmetrics.core.options import CliOption
from nlgmetrics.core.presets import PresetFamily
from nlgmetrics.core.registry import register
from nlgmetrics.core.signature import Signature, nrefs_field
from nlgmetrics.core.state import MetricState
from nlgmetrics.metrics.rouge import rouge155 as _rouge155
from nlgmetrics.metrics.rouge.bootstrap import bootstrap_percentiles, check_bootstrap_options
from nlgmetrics.metrics.rouge.result import RougeInterval, RougeResult, RougeScore
from nlgmetrics.metrics.rouge.rouge_score import (
    _jieba_segmented,
    _mecab_segmented,
    _stem_choice,
    _variant_list,
    call_core,
    rouge_score_arrays,
    split_sentences_nltk,
)

DEFAULT_VARIANTS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
PRESETS = ("rouge_score", "rouge155")
TOKENIZERS = ("unicode", "rouge_score", "jieba", "mecab")


def _rouge_score_options(names, stemmer, tokenizer, split_summaries, multi_ref, alpha, bootstrap, confidence, seed,
                         remove_stopwords, word_limit, byte_limit, wordnet_exceptions, eval_ids) -> Dict[str, Any]:
    for option, value, default in [("remove_stopwords", remove_stopwords, False), ("word_limit", word_limit, None),
                                   ("byte_limit", byte_limit, None), ("wordnet_exceptions", wordnet_exceptions, True),
                                   ("eval_ids", eval_ids, "spl")]:
        if value != default:
            raise ValueError(f"{option} is a ROUGE-1.5.5 option: use preset='rouge155'")
    for name in names:
        if name.startswith(("rougeW", "rougeS")):
            raise ValueError(f"invalid ROUGE variant {name!r} for preset 'rouge_score' (rouge_score has no "
                             "ROUGE-W/S/SU): use preset='rouge155'")
    tokenizer = "unicode" if tokenizer is None else tokenizer
    multi_ref = "max" if multi_ref is None else multi_ref
    bootstrap = 0 if bootstrap is None else bootstrap
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {tokenizer!r}: expected one of {list(TOKENIZERS)}")
    if multi_ref != "max":
        raise ValueError(f"multi_ref={multi_ref!r} is not available with preset 'rouge_score' (use 'max')")
    if bootstrap:
        check_bootstrap_options(confidence, bootstrap)
    return {"preset": "rouge_score", "variants": names, "stemmer": _stem_choice(stemmer), "tokenizer": tokenizer,
            "split_summaries": bool(split_summaries), "alpha": alpha, "bootstrap": bootstrap,
            "confidence": confidence, "seed": seed}


def _rouge155_options(names, stemmer, tokenizer, split_summaries, multi_ref, alpha, bootstrap, confidence, seed,
                      remove_stopwords, word_limit, byte_limit, wordnet_exceptions, eval_ids) -> Dict[str, Any]:
    if tokenizer not in (None, "rouge155"):
        raise ValueError(f"preset 'rouge155' uses ROUGE-1.5.5's own tokenization, not tokenizer={tokenizer!r}")
    if split_summaries:
        raise ValueError("split_summaries is a rouge_score option; rouge155 reads one sentence per line")
    for name in names:
        if not _rouge155.VARIANT_155_RE.match(name):
            raise ValueError(f"invalid ROUGE variant {name!r}: expected rouge1…rouge9, rougeL, rougeLsum, "
                             "rougeW-<weight>, rougeS<d>, rougeSU<d>, rougeS* or rougeSU*")
    multi_ref = "A" if multi_ref is None else multi_ref
    if multi_ref not in _rouge155.MULTI_REF_155:
        raise ValueError(f"multi_ref must be one of {list(_rouge155.MULTI_REF_155)}, got {multi_ref!r}")
    if eval_ids not in _rouge155.EVAL_IDS:
        raise ValueError(f"eval_ids must be one of {list(_rouge155.EVAL_IDS)}, got {eval_ids!r}")
    if word_limit is not None and byte_limit is not None:
        raise ValueError("give word_limit or byte_limit, not both (ROUGE-1.5.5 -l / -b)")
    samples = 1000 if bootstrap is None else bootstrap
    check_bootstrap_options(confidence, samples)
    return {"preset": "rouge155", "variants": names, "stemmer": _stem_choice(stemmer),
            "wordnet_exceptions": bool(wordnet_exceptions), "remove_stopwords": bool(remove_stopwords),
            "word_limit": _rouge155.check_limit(word_limit, "word_limit") or None,
            "byte_limit": _rouge155.check_limit(byte_limit, "byte_limit") or None, "multi_ref": multi_ref,
            "alpha": 0.5 if alpha is None else float(alpha), "bootstrap": samples, "confidence": confidence,
            "eval_ids": eval_ids}


@register
class ROUGE(PresetFamily):
    """ROUGE (Lin 2004) as a registered, mergeable metric; options as ``rouge``.

    ``ROUGE(preset=…)`` builds the preset's class: ``RougeScorePreset`` (default) or ``Rouge155Preset``.
    """

    name = "rouge"
    description = "ROUGE N/L/Lsum (rouge_score 0.1.2); preset rouge155 = ROUGE-1.5.5.pl with W, S, SU"
    aliases = {variant.lower(): {"variants": [variant]} for variant in DEFAULT_VARIANTS}
    reduction = "mean"
    default_preset = "rouge_score"
    extra_decimals = 2
    cli_options = (
        CliOption(("-v", "--variants"), "variants", "list",
                  help="rouge1…rouge9 rougeL rougeLsum (default rouge1 rouge2 rougeL rougeLsum); "
                       "rouge155 also rougeW-1.2 rougeS4 rougeSU4 rougeS* rougeSU*"),
        CliOption(("--preset",), "preset", choices=PRESETS,
                  help="rouge_score (default) or rouge155 (ROUGE-1.5.5.pl, printed as its report)"),
        CliOption(("--stem",), "stemmer", "flag", help="Porter stemming (rouge155: -m)"),
        CliOption(("--tokenizer",), "tokenizer", choices=TOKENIZERS,
                  help="rouge_score preset only (default unicode: every script kept, CJK per character)"),
        CliOption(("--multi-ref",), "multi_ref", choices=("A", "B", "max"), help="rouge155: -f A/B, or max F"),
        CliOption(("--alpha",), "alpha", "float", help="F weight (ROUGE-1.5.5 -p)"),
        CliOption(("--remove-stopwords",), "remove_stopwords", "flag", help="rouge155: -s"),
        CliOption(("--word-limit",), "word_limit", "int", help="rouge155: -l"),
        CliOption(("--byte-limit",), "byte_limit", "int", help="rouge155: -b"),
        CliOption(("--bootstrap",), "bootstrap", "int", help="bootstrap samples (rouge155: -r, default 1000)"),
        CliOption(("--seed",), "seed", "int", help="bootstrap seed (rouge_score preset)"),
        CliOption(("--sentence-sep",), "sentence_separator", default="<n>",
                  help="sentence separator inside a line, read as a newline (default <n>; '' for none)"),
    )

    def __init__(self, *, variants: Sequence[str] = DEFAULT_VARIANTS, preset: str = "rouge_score",
                 stemmer: Union[bool, str, None] = False, tokenizer: Optional[str] = None,
                 split_summaries: bool = False, multi_ref: Optional[str] = None, alpha: Optional[float] = None,
                 bootstrap: Optional[int] = None, confidence: float = 0.95, seed: int = 0,
                 remove_stopwords: bool = False, word_limit: Optional[int] = None, byte_limit: Optional[int] = None,
                 wordnet_exceptions: bool = True, eval_ids: str = "spl", sentence_separator: Optional[str] = None,
                 threads: Optional[int] = None, segments: bool = True):
        del preset  # chose this object's class (PresetFamily.__new__)
        names = _variant_list(variants)
        if sentence_separator is not None and not isinstance(sentence_separator, str):
            raise TypeError(f"sentence_separator must be str or None, got {type(sentence_separator).__name__}")
        if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1):
            raise ValueError(f"alpha must be None or a number in [0, 1], got {alpha!r}")
        options = self.preset_options(names, stemmer, tokenizer, split_summaries, multi_ref, alpha, bootstrap,
                                      confidence, seed, remove_stopwords, word_limit, byte_limit, wordnet_exceptions,
                                      eval_ids)
        options["sentence_separator"] = sentence_separator or None
        super().__init__(options, threads=threads, segments=segments)

    @classmethod
    def unknown_preset(cls, preset: Any) -> Exception:
        return ValueError(f"unknown preset {preset!r}: expected one of {list(cls.preset_names())}")

    @staticmethod
    def preset_options(*options: Any) -> Dict[str, Any]:
        """The preset's options dict from ``ROUGE``'s arguments (variants … eval_ids), validated."""
        raise NotImplementedError

    @property
    def stat_columns(self) -> Tuple[str, ...]:
        return tuple(f"{variant}_{part}" for variant in self.options["variants"]
                     for part in ("precision", "recall", "fmeasure")) + ("count",)

    def empty_compute(self) -> Tuple[str, str]:
        return "warn", "rouge_score's BootstrapAggregator.aggregate() returns no scores"

    def display_name(self) -> str:
        return "ROUGE"

    def label(self) -> str:
        return f"{self.options['variants'][0]} F"

    def check_inputs(self, hypotheses: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
        predictions = inputs.hypotheses_list(hypotheses, argument="predictions")
        return predictions, inputs.references_lists(references, len(predictions), argument="references")

    def batch_arrays(self, hypotheses: List[str], references: List[List[str]]) -> Dict[str, Any]:
        separator = self.options["sentence_separator"]
        if separator:  # e.g. "<n>" between sentences of a one-line summary: a newline, as rougeLsum wants
            hypotheses = [text.replace(separator, "\n") for text in hypotheses]
            references = [[text.replace(separator, "\n") for text in refs] for refs in references]
        return self.preset_arrays(hypotheses, references)

    def preset_arrays(self, predictions: List[str], reference_lists: List[List[str]]) -> Dict[str, Any]:
        """``batch_arrays`` after the sentence separator is read: the preset's per-document arrays."""
        raise NotImplementedError

    def score_rows(self, sums: np.ndarray) -> np.ndarray:
        sums = np.asarray(sums, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return sums[:, 2] / sums[:, -1]


@ROUGE.preset("rouge_score")
class RougeScorePreset(ROUGE):
    """The ``rouge_score`` preset: google-research rouge_score 0.1.2 (``nlgmetrics.metrics.rouge.rouge_score``)."""

    rows_per_call = 4096  # rows are independent: Ctrl-C is handled between calls (Metric.rows_per_call)
    preset_options = staticmethod(_rouge_score_options)

    def preset_arrays(self, predictions: List[str], reference_lists: List[List[str]]) -> Dict[str, Any]:
        options = self.options
        names = options["variants"]
        if options["split_summaries"] and "rougeLsum" in names:
            # Only rougeLsum sees sentence boundaries; the other variants' tokens are unchanged.
            predictions = [split_sentences_nltk(text) for text in predictions]
            reference_lists = [[split_sentences_nltk(text) for text in refs] for refs in reference_lists]
        core_tokenizer = options["tokenizer"]
        if core_tokenizer in ("jieba", "mecab"):
            segment = _jieba_segmented if core_tokenizer == "jieba" else _mecab_segmented
            predictions = segment(predictions)
            counts = [len(refs) for refs in reference_lists]
            flat = iter(segment([ref for refs in reference_lists for ref in refs]))
            reference_lists = [[next(flat) for _ in range(count)] for count in counts]
            core_tokenizer = "unicode_words"
        statistics, segment_scores = rouge_score_arrays(predictions, reference_lists, names, core_tokenizer,
                                                        options["stemmer"], self.threads)
        if options["alpha"] is not None:
            segment_scores = _with_alpha(segment_scores, float(options["alpha"]))
        shape = (len(predictions), len(names), 3)
        return {"statistics": np.asarray(statistics, dtype=np.float64).reshape(shape),
                "segment_scores": np.asarray(segment_scores, dtype=np.float64).reshape(shape)}

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        alpha, bootstrap = options["alpha"], options["bootstrap"]
        fields = [
            ("preset", "rouge_score"),
            ("variants", ",".join(options["variants"])),
            ("tok", options["tokenizer"]),
            ("stem", "porter-nltk" if options["stemmer"] else "none"),
            ("nrefs", nrefs_field(ref_counts)),
            ("multi_ref", "max"),
            ("f", "2PR/(P+R)" if alpha is None else f"alpha={alpha}"),
        ]
        if options["split_summaries"]:
            fields.append(("split", "nltk"))
        if options["sentence_separator"]:
            fields.append(("sep", options["sentence_separator"]))
        if bootstrap:
            fields.append(("bootstrap", f"{bootstrap},c={options['confidence']},seed={options['seed']}"))
        return tuple(fields)

    def result_from_state(self, state: MetricState) -> RougeResult:
        statistics, segment_scores = state.arrays["statistics"], state.arrays["segment_scores"]
        names, options = self.options["variants"], self.options
        n_docs = segment_scores.shape[0]
        # Mean of each contiguous (P, R or F) column: the same pairwise sum as np.mean(list_of_scores).
        means = np.zeros((len(names), 3))
        if n_docs:
            for k in range(len(names)):
                for j in range(3):
                    means[k, j] = np.mean(np.ascontiguousarray(segment_scores[:, k, j]))
        scores = {name: RougeScore(*map(float, means[k])) for k, name in enumerate(names)}
        intervals = None
        if options["bootstrap"] and n_docs:
            random_state = np.random.RandomState(options["seed"])
            intervals = {}
            for k, name in enumerate(names):
                bounds = bootstrap_percentiles(segment_scores[:, k, :], options["bootstrap"], options["confidence"],
                                               random_state)
                intervals[name] = RougeInterval(*(RougeScore(*map(float, bounds[j])) for j in range(3)))
        return RougeResult(variants=tuple(names), variant_scores=scores, segment_scores=segment_scores, statistics=statistics,
                           signature=Signature("ROUGE", self.signature_fields(state.ref_counts)), intervals=intervals)


@ROUGE.preset("rouge155")
class Rouge155Preset(ROUGE):
    """The ``rouge155`` preset: ROUGE-1.5.5.pl (``nlgmetrics.metrics.rouge.rouge155``)."""

    reduction = "rows"  # ROUGE-1.5.5's bootstrap needs every document's R/P/F
    preset_options = staticmethod(_rouge155_options)

    def preset_arrays(self, predictions: List[str], reference_lists: List[List[str]]) -> Dict[str, Any]:
        options = self.options
        names = options["variants"]
        rpf = call_core(_core.rouge155_stats, predictions, reference_lists, options, self.threads)
        return {"rouge155_rpf": np.asarray(rpf, dtype=np.float64).reshape(len(predictions), len(names), 3)}

    def signature_fields(self, ref_counts: Sequence[int]) -> Tuple[Tuple[str, str], ...]:
        options = self.options
        return tuple(_rouge155.signature_fields(
            options["variants"], options["stemmer"], options["wordnet_exceptions"], options["remove_stopwords"],
            options["word_limit"] or 0, options["byte_limit"] or 0, options["multi_ref"], options["alpha"],
            options["bootstrap"], options["confidence"], options["eval_ids"], nrefs_field(ref_counts)))

    def result_from_state(self, state: MetricState) -> RougeResult:
        rpf = state.arrays["rouge155_rpf"]
        names, options = self.options["variants"], self.options
        percent = round(options["confidence"] * 100, 10)
        bootstrap = {"samples": options["bootstrap"], "confidence": percent, "spl_ids": options["eval_ids"] == "spl"}
        corpus = _core.rouge155_bootstrap(np.ascontiguousarray(rpf), bootstrap, self.threads)
        segment_scores = np.ascontiguousarray(rpf[..., [1, 0, 2]])
        scores, intervals = {}, {}
        for k, name in enumerate(names):
            # corpus[k] rows: R, P, F; columns: average, low, high.
            bound = [RougeScore(float(corpus[k, 1, j]), float(corpus[k, 0, j]), float(corpus[k, 2, j]))
                     for j in range(3)]
            scores[name] = bound[0]
            intervals[name] = RougeInterval(low=bound[1], mid=bound[0], high=bound[2])
        return RougeResult(variants=tuple(names), variant_scores=scores, segment_scores=segment_scores,
                           statistics=segment_scores[..., [1, 0, 2]],
                           signature=Signature("ROUGE", self.signature_fields(state.ref_counts)), intervals=intervals)


def _with_alpha(segment_scores: np.ndarray, alpha: float) -> np.ndarray:
    precision, recall = segment_scores[..., 0], segment_scores[..., 1]
    denominator = (1 - alpha) * precision + alpha * recall
    with np.errstate(invalid="ignore", divide="ignore"):
        fmeasure = np.where(denominator > 0, precision * recall / np.where(denominator > 0, denominator, 1), 0.0)
    out = segment_scores.copy()
    out[..., 2] = fmeasure
    return out


def rouge(
    predictions: Iterable[str],
    references: Iterable[Union[str, Sequence[str]]],
    variants: Sequence[str] = DEFAULT_VARIANTS,
    preset: str = "rouge_score",
    stemmer: Union[bool, str, None] = False,
    tokenizer: Optional[str] = None,
    split_summaries: bool = False,
    multi_ref: Optional[str] = None,
    alpha: Optional[float] = None,
    bootstrap: Optional[int] = None,
    confidence: float = 0.95,
    seed: int = 0,
    remove_stopwords: bool = False,
    word_limit: Optional[int] = None,
    byte_limit: Optional[int] = None,
    wordnet_exceptions: bool = True,
    eval_ids: str = "spl",
    sentence_separator: Optional[str] = None,
) -> RougeResult:
    """ROUGE scores of ``predictions`` against ``references`` (``references[i]``: a str or a list).

    ``variants``: ``rouge1``…``rouge9``, ``rougeL`` (LCS over the whole text), ``rougeLsum``
    (summary-level union LCS over newline-separated sentences). ``multi_ref="max"`` keeps, per
    variant, the reference with the highest F (rouge_score's ``score_multi``). ``alpha=None`` uses
    rouge_score's F = 2PR/(P+R); a number in [0, 1] uses F = PR/((1-alpha)P + alpha R).
    ``bootstrap=n`` adds rouge_score ``BootstrapAggregator``-style percentile intervals
    (``confidence``) drawn from ``np.random.RandomState(seed)``: identical to rouge_score's
    aggregator after ``np.random.seed(seed)`` when variants are added in the same order.

    ``tokenizer`` (rouge_score preset): ``"unicode"`` (default), ``"rouge_score"``, or ``"jieba"``
    (Chinese word segmentation by jieba, ``pip install 'nlgmetrics[zh]'``) or ``"mecab"`` (Japanese,
    MeCab + IPAdic, ``pip install 'nlgmetrics[ja]'``); other scripts as ``unicode``.

    ``sentence_separator`` (e.g. ``"<n>"``) is read as a newline (a sentence boundary for rougeLsum).

    ``preset="rouge155"`` reproduces ROUGE-1.5.5.pl (see ``nlgmetrics.metrics.rouge.rouge155``): variants also
    ``rougeW-<w>``, ``rougeS<d>``, ``rougeSU<d>``, ``rougeS*``, ``rougeSU*``; options
    ``remove_stopwords`` (-s), ``word_limit`` (-l), ``byte_limit`` (-b), ``multi_ref`` "A" | "B" |
    "max" (-f), ``alpha`` (-p, default 0.5), ``bootstrap`` (-r, default 1000), ``confidence`` (-c),
    ``wordnet_exceptions`` (stemming looks up WordNet-2.0's exception list first), ``eval_ids``.
    Corpus scores are ROUGE-1.5.5's printed averages; ``result.report()`` prints its report.

    >>> r = rouge(["police kill the gunman"], [["police killed the gunman", "the gunman was shot"]],
    ...           variants=["rougeL"])
    >>> r.rougeL.recall
    0.75
    >>> r = rouge(["the cat sat on the mat"], ["the cat was on the mat"], variants=["rougeSU4", "rougeW-1.2"],
    ...           preset="rouge155", bootstrap=10)
    >>> r.rougeSU4.fmeasure, r["rougeW-1.2"].recall
    (0.7, 0.5209)
    """
    return ROUGE(variants=variants, preset=preset, stemmer=stemmer, tokenizer=tokenizer,
                 split_summaries=split_summaries, multi_ref=multi_ref, alpha=alpha, bootstrap=bootstrap,
                 confidence=confidence, seed=seed, remove_stopwords=remove_stopwords, word_limit=word_limit,
                 byte_limit=byte_limit, wordnet_exceptions=wordnet_exceptions, eval_ids=eval_ids,
                 sentence_separator=sentence_separator)._score_batch(predictions, references)
