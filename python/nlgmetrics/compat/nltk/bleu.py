"""Drop-in for ``nltk.translate.bleu_score`` (NLTK 3.10.4): same signatures, same values and types.

>>> from nlgmetrics.compat.nltk import sentence_bleu, SmoothingFunction
>>> sentence_bleu([["the", "cat", "is", "on", "the", "mat"]], ["the", "cat", "sat", "on", "the", "mat"],
...               weights=(0.5, 0.25, 0.125))
0.6756000774035172
>>> sentence_bleu([["a", "b", "c"]], ["x", "y"])
0
>>> round(sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "c", "e"],
...                     smoothing_function=SmoothingFunction().method1), 6)
0.397635
"""

from __future__ import annotations

from nlgmetrics.metrics.bleu.nltk import (
    DEFAULT_WEIGHTS,
    Fraction,
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_score_from_rows,
    max_weight_length,
    modified_precision,
    segment_rows,
    weights_list,
)

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]


def corpus_bleu(list_of_references, hypotheses, weights=DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    """Corpus BLEU as ``nltk.translate.bleu_score.corpus_bleu``: counts summed over all segments.

    Returns a float (the int 0 when no unigram matches), or a list when ``weights`` is a list of
    weight tuples. Differences from NLTK on invalid input only: mismatched lengths or a segment
    with no reference raise ValueError (NLTK: AssertionError / KeyError / ValueError).
    """
    all_weights = weights_list(weights)
    rows = segment_rows(list_of_references, hypotheses, max_weight_length(all_weights))
    references = list_of_references[-1] if len(hypotheses) else None
    hypothesis = hypotheses[-1] if len(hypotheses) else None
    scores = corpus_score_from_rows(
        rows, max_weight_length(all_weights), all_weights, smoothing_function, auto_reweigh, references, hypothesis
    )
    return scores[0] if len(all_weights) == 1 else scores


def sentence_bleu(references, hypothesis, weights=DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    """Sentence BLEU as ``nltk.translate.bleu_score.sentence_bleu`` (a one-segment corpus)."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)
