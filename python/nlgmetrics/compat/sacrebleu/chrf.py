"""sacreBLEU-compatible chrF: ``corpus_chrf``, ``sentence_chrf`` and the ``CHRF`` class, with
sacreBLEU 2.6.0's call signatures, reference-stream layout and score objects (``CHRFScore``).

Unlike sacreBLEU, reference streams whose length differs from the hypotheses raise ValueError
instead of being silently truncated.

>>> from nlgmetrics.compat.sacrebleu import corpus_chrf
>>> print(corpus_chrf(["The cat sat on the mat."], [["The cat is on the mat."]]))
chrF2 = 67.17
"""

from __future__ import annotations

from typing import Optional, Sequence

from nlgmetrics.compat.sacrebleu._base import Metric, Score, Signature
from nlgmetrics.metrics.chrf import CHRFResult, check_chrf_options, chrf_from_lists

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class CHRFSignature(Signature):
    """sacreBLEU's chrF signature (``nrefs|case|eff|nc|nw|space|version``)."""

    def __init__(self, args: dict):
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update({
            "case": "lc" if args["lowercase"] else "mixed",
            "eff": "yes" if not args["eps_smoothing"] else "no",
            "nc": args["char_order"],
            "nw": args["word_order"],
            "space": "yes" if args["whitespace"] else "no",
        })


class CHRFScore(Score):
    """sacreBLEU's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float):
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRF(Metric[CHRFScore]):
    """sacreBLEU's ``CHRF`` metric class (same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``). The full nlgmetrics result of the last call is kept in ``last_result``.

    >>> CHRF(word_order=2).sentence_score("abc d", ["abc e"]).format(width=1)
    'chrF2++ = 40.3'
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

    _SIGNATURE_TYPE = CHRFSignature

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER, beta: int = BETA,
                 lowercase: bool = False, whitespace: bool = False, eps_smoothing: bool = False,
                 references: Optional[Sequence[Sequence[str]]] = None):
        check_chrf_options(char_order, word_order, beta)
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.last_result: Optional[CHRFResult] = None
        self._cache_references(references)

    def _score(self, hypotheses: list, references: list) -> CHRFScore:
        result = chrf_from_lists(hypotheses, references, self.char_order, self.word_order, self.beta,
                                 self.lowercase, self.whitespace, self.eps_smoothing)
        self.last_result = result
        return CHRFScore(result.score, self.char_order, self.word_order, self.beta)



def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf``: hypotheses and a list of reference streams."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str], char_order: int = CHRF.CHAR_ORDER,
                  word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf``: one hypothesis and a list of references.

    >>> sentence_chrf("abc d", ["abc e"]).score == corpus_chrf(["abc d"], [["abc e"]]).score
    True
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                  eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)
