"""sacreBLEU-compatible TER: ``corpus_ter``, ``sentence_ter`` and the ``TER`` class, with sacreBLEU
2.6.0's call signatures, reference-stream layout and score objects (``TERScore``).

>>> from nlgmetrics.compat.sacrebleu import corpus_ter
>>> score = corpus_ter(["the cat sat on mat"], [["the cat sat on the mat"]])
>>> print(score)
TER = 16.67
>>> score.num_edits, score.ref_length
(1, 6.0)
"""

from __future__ import annotations

from typing import Optional, Sequence

from ...ter import ter_from_lists, ter_signature
from .chrf import CompatSignature, Score, sentence_refs, streams_to_lists

__all__ = ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]


class TERScore(Score):
    """sacreBLEU's ``TERScore``: ``score``, ``num_edits`` (int) and ``ref_length`` (float)."""

    def __init__(self, score: float, num_edits: float, ref_length: float):
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TERSignature(CompatSignature):
    _ABBREVIATIONS = {"nrefs": "#", "case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as",
                      "version": "v"}


class TER:
    """sacreBLEU's ``TER`` metric class (same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``).

    >>> TER().sentence_score("a b c", ["a b c d"]).score
    25.0
    """

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Optional[Sequence[Sequence[str]]] = None):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.num_refs: Optional[int] = None
        self._ref_streams = references

    def _score(self, hypotheses, references: list) -> TERScore:
        result = ter_from_lists(list(hypotheses), references, self.normalized, self.no_punct,
                                self.asian_support, self.case_sensitive)
        self.last_result = result
        return TERScore(result.score, result.num_edits, result.ref_length)

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[str]]] = None,
                     n_bootstrap: int = 1) -> TERScore:
        """Corpus TER against reference streams (or the streams given to the constructor)."""
        if n_bootstrap != 1:
            raise NotImplementedError("bootstrap resampling: use nlgmetrics' significance module")
        if references is None:
            references = self._ref_streams
            if references is None:
                raise RuntimeError("No references provided and the cache is empty.")
        refs, self.num_refs = streams_to_lists(hypotheses, references, "TER")
        return self._score(hypotheses, refs)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> TERScore:
        """Sentence TER of one hypothesis against a list of references."""
        refs = sentence_refs(hypothesis, references, "TER")
        self.num_refs = len(refs)
        return self._score([hypothesis], [refs])

    def get_signature(self) -> TERSignature:
        """The reproducibility signature (fields and order as sacreBLEU's, our version)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        n_refs = "var" if self.num_refs == -1 else self.num_refs
        return TERSignature(ter_signature(n_refs, self.normalized, self.no_punct, self.asian_support,
                                          self.case_sensitive))


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]], normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``corpus_ter``: hypotheses and a list of reference streams."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``sentence_ter``: one hypothesis and a list of references."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)
