"""ROUGE (Lin 2004): rouge1…rouge9, rougeL, rougeLsum — identical to rouge_score 0.1.2.

>>> import nlgmetrics
>>> result = nlgmetrics.rouge(["the cat the cat is on the mat"], ["the cat sat on the mat"])
>>> result.rouge1
RougeScore(precision=0.625, recall=0.8333333333333334, fmeasure=0.7142857142857143)
>>> result["rouge2"].fmeasure
0.5
>>> result.segment(0)["rougeL"].fmeasure
0.7142857142857143

Presets name the reference implementation whose numbers are reproduced:

- ``"rouge_score"`` (default): google-research rouge_score 0.1.2 (``RougeScorer.score`` /
  ``score_multi``): per-document P/R/F, with several references the one with the highest F per
  variant; the corpus score is the mean over documents (rouge_score's ``BootstrapAggregator`` "mid"
  is a bootstrap percentile of that mean, available with ``bootstrap=``).

Tokenizers: ``"unicode"`` (default) gives exactly rouge_score's tokens on ASCII text and keeps the
letters, marks and digits of every script (Han, Hiragana and Katakana one character per token), so
Chinese or Russian summaries never silently score 0; ``"rouge_score"`` is rouge_score's own
ASCII-only tokenizer, for bit-identical results on any input. ``stemmer=True`` is NLTK's Porter
stemmer (the one rouge_score uses) on ASCII tokens longer than 3 characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from nlgmetrics.metrics.rouge import rouge155 as _rouge155
from nlgmetrics import _core
from nlgmetrics.metrics.rouge.bootstrap import bootstrap_percentiles, check_bootstrap_options
from nlgmetrics.core.signature import Signature
from nlgmetrics.core.inputs import hypotheses_list, references_lists

__all__ = ["rouge", "RougeResult", "RougeScore", "RougeInterval", "DEFAULT_VARIANTS", "PRESETS", "TOKENIZERS"]

DEFAULT_VARIANTS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
PRESETS = ("rouge_score", "rouge155")
TOKENIZERS = ("unicode", "rouge_score", "jieba", "mecab")


class RougeScore(NamedTuple):
    """Precision, recall and F-measure of one variant (same fields as rouge_score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


class RougeInterval(NamedTuple):
    """Bootstrap percentiles (same fields as rouge_score's ``AggregateScore``)."""

    low: RougeScore
    mid: RougeScore
    high: RougeScore


@dataclass(frozen=True, eq=False)
class RougeResult:
    """Corpus and per-document ROUGE scores.

    - ``result.rouge1`` / ``result["rouge1"]``: corpus :class:`RougeScore` (mean over documents);
    - ``segment_scores``: float64 array ``(documents, variants, 3)`` of (P, R, F);
    - ``statistics``: float64 array ``(documents, variants, 3)`` of (hits, prediction total,
      reference total) of the chosen reference (preset ``rouge155``: ROUGE-1.5.5's per-document
      (R, P, F), the values its bootstrap resamples);
    - ``segment(i)``: ``{variant: RougeScore}`` for document ``i``;
    - ``intervals``: ``{variant: RougeInterval}`` when ``bootstrap`` was requested, else None.
    """

    variants: Tuple[str, ...]
    scores: Dict[str, RougeScore]
    segment_scores: np.ndarray
    statistics: np.ndarray
    signature: Signature
    intervals: Optional[Dict[str, RougeInterval]] = field(default=None)

    def __getitem__(self, variant: str) -> RougeScore:
        return self.scores[variant]

    def __getattr__(self, name: str) -> RougeScore:
        scores = self.__dict__.get("scores")
        if scores is not None and name in scores:
            return scores[name]
        raise AttributeError(f"{type(self).__name__} has no attribute or variant {name!r}")

    def __len__(self) -> int:
        return int(self.segment_scores.shape[0])

    def segment(self, index: int) -> Dict[str, RougeScore]:
        """Per-variant scores of document ``index`` (negative indices count from the end)."""
        row = self.segment_scores[index]
        return {variant: RougeScore(*map(float, row[k])) for k, variant in enumerate(self.variants)}

    def per_segment(self, variant: str) -> np.ndarray:
        """``(documents, 3)`` array of (P, R, F) of one variant."""
        if variant not in self.scores:
            raise KeyError(f"variant {variant!r} was not computed (have {list(self.variants)})")
        return self.segment_scores[:, self.variants.index(variant), :]

    def report(self, system: str = "X") -> str:
        """ROUGE-1.5.5.pl's report lines (preset ``rouge155`` only)."""
        return _rouge155.report(self, system)

    def to_hf(self) -> Dict[str, float]:
        """Hugging Face ``evaluate`` ``rouge`` shape: ``{variant: F}`` (mean F over documents)."""
        return {variant: score.fmeasure for variant, score in self.scores.items()}

    def to_dict(self) -> dict:
        out: dict = {variant: score._asdict() for variant, score in self.scores.items()}
        if self.intervals is not None:
            out["intervals"] = {
                variant: {bound: getattr(interval, bound)._asdict() for bound in ("low", "mid", "high")}
                for variant, interval in self.intervals.items()
            }
        out["signature"] = str(self.signature)
        return out

    def __str__(self) -> str:
        lines = [
            f"{variant}: P {score.precision:.4f} R {score.recall:.4f} F {score.fmeasure:.4f}"
            for variant, score in self.scores.items()
        ]
        lines.append(str(self.signature))
        return "\n".join(lines)


def _variant_list(variants) -> list:
    if isinstance(variants, str):
        variants = [variants]
    try:
        names = list(variants)
    except TypeError:
        raise TypeError(f"variants must be a list of variant names, got {type(variants).__name__}") from None
    if not names:
        raise ValueError("variants is empty: ask for at least one ROUGE variant, e.g. ['rouge1']")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise TypeError(f"variants[{index}] must be str, got {type(name).__name__}")
    if len(set(names)) != len(names):
        raise ValueError(f"variants has duplicates: {names}")
    return names


def _stem_choice(stemmer) -> bool:
    if stemmer is None or stemmer is False or stemmer == "none":
        return False
    if stemmer is True or stemmer == "porter":
        return True
    raise ValueError(f"stemmer must be True/False, 'porter' or 'none', got {stemmer!r}")


def _jieba_segmented(texts):
    """Texts with jieba's word boundaries made explicit by spaces (newlines kept), for the
    ``unicode_words`` tokenizer: Chinese words stay whole, other scripts tokenize as ``unicode``."""
    try:
        import jieba
    except ImportError:
        raise ImportError("tokenizer='jieba' needs the jieba package: pip install 'nlgmetrics[zh]'") from None
    import logging

    jieba.setLogLevel(logging.WARNING)
    return [" ".join(jieba.cut(text)) for text in texts]


def _mecab_segmented(texts):
    """Japanese word segmentation by MeCab + IPAdic (``-Owakati``), line by line (MeCab would merge
    lines), for the ``unicode_words`` tokenizer."""
    try:
        import ipadic
        import MeCab
    except ImportError:
        raise ImportError("tokenizer='mecab' needs mecab-python3 and ipadic: pip install 'nlgmetrics[ja]'") from None
    tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
    return ["\n".join(tagger.parse(line).rstrip("\n") for line in text.split("\n")) for text in texts]


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(texts):
    """Lone surrogates (not Unicode text; Python strings may hold them) become spaces: they are
    separators for every ROUGE tokenizer, so scores equal rouge_score's on such input."""
    return [_SURROGATE.sub(" ", text) for text in texts]


def call_core(function, predictions, reference_lists, *args):
    """``function(predictions, reference_lists, *args)``; retried with surrogates removed when the
    texts cannot be encoded (the common case pays nothing)."""
    try:
        return function(predictions, reference_lists, *args)
    except UnicodeEncodeError:
        return function(without_surrogates(predictions), [without_surrogates(refs) for refs in reference_lists], *args)


def split_sentences_nltk(text: str) -> str:
    """rouge_score's ``split_summaries=True``: ``nltk.sent_tokenize`` (needs NLTK's punkt data),
    sentences joined by newlines (newlines inside a sentence become spaces: same tokens)."""
    import nltk

    return "\n".join(sentence.replace("\n", " ") for sentence in nltk.sent_tokenize(text))


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
    predictions = hypotheses_list(predictions, argument="predictions")
    reference_lists = references_lists(references, n_hypotheses=len(predictions), argument="references")
    names = _variant_list(variants)
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: expected one of {list(PRESETS)}")
    if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1):
        raise ValueError(f"alpha must be None or a number in [0, 1], got {alpha!r}")
    if preset == "rouge155":
        return _rouge155_result(predictions, reference_lists, names, stemmer, tokenizer, split_summaries, multi_ref,
                                alpha, bootstrap, confidence, remove_stopwords, word_limit, byte_limit,
                                wordnet_exceptions, eval_ids)
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
    stem = _stem_choice(stemmer)
    if multi_ref != "max":
        raise ValueError(f"multi_ref={multi_ref!r} is not available with preset {preset!r} (use 'max')")
    if bootstrap:
        check_bootstrap_options(confidence, bootstrap)

    if split_summaries and "rougeLsum" in names:
        # Only rougeLsum sees sentence boundaries; the other variants' tokens are unchanged.
        predictions = [split_sentences_nltk(text) for text in predictions]
        reference_lists = [[split_sentences_nltk(text) for text in refs] for refs in reference_lists]

    core_tokenizer = tokenizer
    if tokenizer in ("jieba", "mecab"):
        segment = _jieba_segmented if tokenizer == "jieba" else _mecab_segmented
        predictions = segment(predictions)
        counts = [len(refs) for refs in reference_lists]
        flat = iter(segment([ref for refs in reference_lists for ref in refs]))
        reference_lists = [[next(flat) for _ in range(count)] for count in counts]
        core_tokenizer = "unicode_words"
    statistics, segment_scores = call_core(_core.rouge_score_stats, predictions, reference_lists, names,
                                           core_tokenizer, stem)
    if alpha is not None:
        segment_scores = _with_alpha(segment_scores, float(alpha))
    return _result(names, statistics, segment_scores, preset, tokenizer, stem, alpha, reference_lists,
                   split_summaries, bootstrap, confidence, seed)


def _rouge155_result(predictions, reference_lists, names, stemmer, tokenizer, split_summaries, multi_ref, alpha,
                     bootstrap, confidence, remove_stopwords, word_limit, byte_limit, wordnet_exceptions,
                     eval_ids) -> RougeResult:
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
    word_limit = _rouge155.check_limit(word_limit, "word_limit")
    byte_limit = _rouge155.check_limit(byte_limit, "byte_limit")
    samples = 1000 if bootstrap is None else bootstrap
    check_bootstrap_options(confidence, samples)
    alpha = 0.5 if alpha is None else float(alpha)
    stem = _stem_choice(stemmer)
    segment_scores, corpus = _rouge155.compute(
        predictions, reference_lists, names, stem=stem, wordnet_exceptions=bool(wordnet_exceptions),
        remove_stopwords=bool(remove_stopwords), word_limit=word_limit, byte_limit=byte_limit,
        multi_ref=multi_ref, alpha=alpha, samples=samples, confidence=confidence, eval_ids=eval_ids)
    scores, intervals = {}, {}
    for k, name in enumerate(names):
        # corpus[k] rows: R, P, F; columns: average, low, high.
        bound = [RougeScore(float(corpus[k, 1, j]), float(corpus[k, 0, j]), float(corpus[k, 2, j])) for j in range(3)]
        scores[name] = bound[0]
        intervals[name] = RougeInterval(low=bound[1], mid=bound[0], high=bound[2])
    ref_counts = {len(refs) for refs in reference_lists}
    nrefs = str(ref_counts.pop()) if len(ref_counts) == 1 else "var"
    fields = _rouge155.signature_fields(names, stem, wordnet_exceptions, remove_stopwords, word_limit, byte_limit,
                                        multi_ref, alpha, samples, confidence, eval_ids, nrefs)
    return RougeResult(
        variants=tuple(names),
        scores=scores,
        segment_scores=segment_scores,
        statistics=segment_scores[..., [1, 0, 2]],
        signature=Signature("ROUGE", tuple(fields)),
        intervals=intervals,
    )


def _with_alpha(segment_scores: np.ndarray, alpha: float) -> np.ndarray:
    precision, recall = segment_scores[..., 0], segment_scores[..., 1]
    denominator = (1 - alpha) * precision + alpha * recall
    with np.errstate(invalid="ignore", divide="ignore"):
        fmeasure = np.where(denominator > 0, precision * recall / np.where(denominator > 0, denominator, 1), 0.0)
    out = segment_scores.copy()
    out[..., 2] = fmeasure
    return out


def _result(names, statistics, segment_scores, preset, tokenizer, stem, alpha, reference_lists,
            split_summaries, bootstrap, confidence, seed) -> RougeResult:
    n_docs = segment_scores.shape[0]
    # Mean of each contiguous (P, R or F) column: the same pairwise sum as np.mean(list_of_scores).
    means = np.zeros((len(names), 3))
    if n_docs:
        for k in range(len(names)):
            for j in range(3):
                means[k, j] = np.mean(np.ascontiguousarray(segment_scores[:, k, j]))
    scores = {name: RougeScore(*map(float, means[k])) for k, name in enumerate(names)}
    intervals = None
    if bootstrap and n_docs:
        random_state = np.random.RandomState(seed)
        intervals = {}
        for k, name in enumerate(names):
            bounds = bootstrap_percentiles(segment_scores[:, k, :], bootstrap, confidence, random_state)
            intervals[name] = RougeInterval(*(RougeScore(*map(float, bounds[j])) for j in range(3)))
    ref_counts = {len(refs) for refs in reference_lists}
    fields = [
        ("preset", preset),
        ("variants", ",".join(names)),
        ("tok", tokenizer),
        ("stem", "porter-nltk" if stem else "none"),
        ("nrefs", str(ref_counts.pop()) if len(ref_counts) == 1 else "var"),
        ("multi_ref", "max"),
        ("f", "2PR/(P+R)" if alpha is None else f"alpha={alpha}"),
    ]
    if split_summaries:
        fields.append(("split", "nltk"))
    if bootstrap:
        fields.append(("bootstrap", f"{bootstrap},c={confidence},seed={seed}"))
    return RougeResult(
        variants=tuple(names),
        scores=scores,
        segment_scores=segment_scores,
        statistics=statistics,
        signature=Signature("ROUGE", tuple(fields)),
        intervals=intervals,
    )
