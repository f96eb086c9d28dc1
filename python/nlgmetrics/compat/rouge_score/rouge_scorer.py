"""Drop-in for ``rouge_score.rouge_scorer`` (0.1.2): ``RougeScorer(rouge_types, use_stemmer,
split_summaries, tokenizer)`` with ``.score(target, prediction)`` and ``.score_multi(targets, prediction)``.

>>> scorer = RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scorer.score("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log.")["rouge1"]
Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
"""

from __future__ import annotations

import functools
import re
from typing import Dict, List, Tuple

from nlgmetrics import _core
from nlgmetrics.compat.rouge_score import scoring
from nlgmetrics.compat.rouge_score.scoring import Score
from nlgmetrics.metrics.rouge.rouge_score import rouge_score_arrays, split_sentences_nltk


def _canonical_types(rouge_types) -> List[str]:
    """rouge_score's type check (done at score time, with its messages)."""
    try:
        return list(_canonical_type_tuple(tuple(rouge_types)))
    except TypeError:  # an unhashable type name: checked (and refused) the slow way
        return _check_types(rouge_types)


@functools.lru_cache(maxsize=64)
def _canonical_type_tuple(rouge_types: Tuple) -> Tuple[str, ...]:
    return tuple(_check_types(rouge_types))


def _check_types(rouge_types) -> List[str]:
    names = []
    for rouge_type in rouge_types:
        if rouge_type in ("rougeL", "rougeLsum"):
            names.append(rouge_type)
        elif re.match(r"rouge[0-9]$", str(rouge_type)):
            n = int(rouge_type[5:])
            if n <= 0:
                raise ValueError("rougen requires positive n: %s" % rouge_type)
            names.append("rouge%d" % n)
        else:
            raise ValueError("Invalid rouge type: %s" % rouge_type)
    return names


class RougeScorer(scoring.BaseScorer):
    """Calculates ROUGE scores between two texts, exactly as rouge_score's ``RougeScorer``.

    ``tokenizer``: any object with ``tokenize(text) -> list[str]`` (called from Python); without
    one, rouge_score's default tokenizer and NLTK Porter stemmer run natively in Rust.
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        self.rouge_types = rouge_types
        self._use_stemmer = bool(use_stemmer)
        self._tokenizer = tokenizer
        self._split_summaries = split_summaries

    def _sentences(self, text: str) -> List[str]:
        if self._split_summaries:
            import nltk

            sentences = nltk.sent_tokenize(text)
        else:
            sentences = text.split("\n")
        return [sentence for sentence in sentences if len(sentence)]

    def _stats(self, targets, prediction):
        names = _canonical_types(self.rouge_types)
        if self._tokenizer is None:
            if self._split_summaries and "rougeLsum" in names:
                targets = [split_sentences_nltk(t) for t in targets]
                prediction = split_sentences_nltk(prediction)
            return names, rouge_score_arrays([prediction], [list(targets)], names, "rouge_score", self._use_stemmer)

        def tokenized(text):
            return (list(self._tokenizer.tokenize(text)), [list(self._tokenizer.tokenize(s)) for s in self._sentences(text)])

        return names, _core.rouge_score_stats_tokens([tokenized(prediction)], [[tokenized(t) for t in targets]], names)

    def _scores(self, targets, prediction) -> Dict[str, Score]:
        names, (counts, scores) = self._stats(targets, prediction)
        result = {}
        for rouge_type, name, (_, prediction_total, target_total), prf in zip(
            self.rouge_types, names, counts[0].tolist(), scores[0].tolist()
        ):
            if name in ("rougeL", "rougeLsum") and (prediction_total == 0 or target_total == 0):
                result[rouge_type] = Score(precision=0, recall=0, fmeasure=0)  # rouge_score returns ints here
            else:
                result[rouge_type] = Score(*prf)
        return result

    def score(self, target, prediction) -> Dict[str, Score]:
        """``{rouge_type: Score}`` of ``prediction`` against one ``target``."""
        return self._scores([target], prediction)

    def score_multi(self, targets, prediction) -> Dict[str, Score]:
        """Per rouge type, the Score of the target with the highest F-measure (first on ties)."""
        targets = list(targets)
        if not targets:
            raise ValueError("attempt to get argmax of an empty sequence")
        return self._scores(targets, prediction)
