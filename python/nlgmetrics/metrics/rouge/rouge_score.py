"""The ``rouge_score`` preset of ROUGE (Lin 2004): rouge1…rouge9, rougeL, rougeLsum — identical to rouge_score 0.1.2.

This module holds the preset's text handling; ``nlgmetrics.metrics.rouge.metric`` scores.

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
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics.core.segment import segment_scorer

__all__ = ["call_core", "rouge_score_arrays", "split_sentences_nltk", "without_surrogates"]



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


def rouge_score_arrays(predictions: Any, reference_lists: Any, names: Sequence[str], tokenizer: str, stemmer: bool,
                       threads: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]:
    """``(counts, scores)`` of each segment and variant, both float64 ``(segments, variants, 3)``: (hits,
    candidate total, reference total) and (P, R, F), from the Rust segment metric ``rouge`` (rows: the
    counts of each variant, then their P/R/F, then a count); ``tokenizer`` as the core reads it.

    >>> counts, scores = rouge_score_arrays(["the cat sat"], [["the cat"]], ["rouge1"], "rouge_score", False)
    >>> counts.tolist(), float(scores[0, 0, 2])
    ([[[2.0, 3.0, 2.0]]], 0.8)
    """
    options = {"variants": list(names), "tokenizer": tokenizer, "stemmer": bool(stemmer)}
    rows, _ = call_core(segment_scorer("rouge", options).segment_stats, predictions, reference_lists, threads)
    variants = len(names)
    shape = (len(rows), variants, 3)
    return (np.ascontiguousarray(rows[:, :3 * variants]).reshape(shape),
            np.ascontiguousarray(rows[:, 3 * variants:6 * variants]).reshape(shape))


def split_sentences_nltk(text: str) -> str:
    """rouge_score's ``split_summaries=True``: ``nltk.sent_tokenize`` (needs NLTK's punkt data),
    sentences joined by newlines (newlines inside a sentence become spaces: same tokens)."""
    import nltk

    return "\n".join(sentence.replace("\n", " ") for sentence in nltk.sent_tokenize(text))
