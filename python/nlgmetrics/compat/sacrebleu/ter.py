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

from nlgmetrics.compat.sacrebleu._base import Metric, Score, Signature
from nlgmetrics.metrics.ter import TERResult, ter_from_lists

__all__ = ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]


class TERSignature(Signature):
    """sacreBLEU's TER signature (``nrefs|case|tok|norm|punct|asian|version``)."""

    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update({
            "case": "mixed" if args["case_sensitive"] else "lc",
            "tok": "tercom",
            "norm": args["normalized"],
            "punct": not args["no_punct"],
            "asian": args["asian_support"],
        })


class TERScore(Score):
    """sacreBLEU's ``TERScore``: ``score``, ``num_edits`` (int) and ``ref_length`` (float)."""

    def __init__(self, score: float, num_edits: float, ref_length: float):
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric[TERScore]):
    """sacreBLEU's ``TER`` metric class (same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``). The full nlgmetrics result of the last call is kept in ``last_result``.

    >>> TER().sentence_score("a b c", ["a b c d"]).score
    25.0
    """

    _SIGNATURE_TYPE = TERSignature

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Optional[Sequence[Sequence[str]]] = None):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.last_result: Optional[TERResult] = None
        self._cache_references(references)

    def _score(self, hypotheses: list, references: list) -> TERScore:
        result = ter_from_lists(hypotheses, references, self.normalized, self.no_punct, self.asian_support,
                                self.case_sensitive)
        self.last_result = result
        return TERScore(result.score, result.num_edits, result.ref_length)



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
