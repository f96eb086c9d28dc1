"""sacreBLEU-compatible chrF: ``corpus_chrf``, ``sentence_chrf`` and the ``CHRF`` class, with
sacreBLEU 2.6.0's call signatures, reference-stream layout and score objects (``CHRFScore``).

Unlike sacreBLEU, reference streams whose length differs from the hypotheses raise ValueError
instead of being silently truncated.

>>> from nlgmetrics.compat.sacrebleu import corpus_chrf
>>> print(corpus_chrf(["The cat sat on the mat."], [["The cat is on the mat."]]))
chrF2 = 67.17
"""

from __future__ import annotations

import json
from typing import Optional, Sequence

from ..._signature import Signature
from ...chrf import check_chrf_options, chrf_from_lists

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class Score:
    """sacreBLEU's ``Score``: a name, a score and its ``format``."""

    def __init__(self, name: str, score: float):
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """sacreBLEU's text (``chrF2 = 59.73``) or JSON rendering."""
        text = f"{self.score:.{width}f}"
        if score_only:
            return text
        if is_json:
            record = {"name": self.name, "score": float(text), "signature": signature}
            for part in signature.split("|") if signature else []:
                key, value = part.split(":")
                record[key] = value
            return json.dumps(record, indent=1, ensure_ascii=False)
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {text}"
        if self._verbose:
            full += f" {self._verbose}"
        return full

    def __repr__(self) -> str:
        return self.format()


class CHRFScore(Score):
    """sacreBLEU's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float):
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CompatSignature:
    """A sacreBLEU-style signature object (``format(short)``, ``str``) over our Signature fields."""

    _ABBREVIATIONS: dict = {"nrefs": "#", "version": "v"}

    def __init__(self, signature: Signature):
        self.signature = signature
        self.info = dict(signature.fields)
        self.info["version"] = signature.to_dict()["version"]

    def format(self, short: bool = False) -> str:
        parts = []
        for key, value in self.info.items():
            name = self._ABBREVIATIONS.get(key, key) if short else key
            parts.append(f"{name}:{value}")
        return "|".join(parts)

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


class CHRFSignature(CompatSignature):
    _ABBREVIATIONS = {"nrefs": "#", "case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


def streams_to_lists(hypotheses: Sequence[str], streams: Sequence[Sequence[Optional[str]]], prefix: str):
    """sacreBLEU's reference streams → one reference list per hypothesis (``None`` = no reference
    there; ``""`` is a reference, as in sacreBLEU). Also returns sacreBLEU's ``num_refs``."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(f"{prefix}: `hyps` should be a sequence of strings.")
    for index, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(f"{prefix}: hypotheses[{index}] must be str, got {type(hyp).__name__}")
    if isinstance(streams, str) or not isinstance(streams, Sequence):
        raise TypeError(f"{prefix}: `refs` should be a sequence of sequence of strings.")
    per_hypothesis: list = [[] for _ in hypotheses]
    for stream_index, stream in enumerate(streams):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise TypeError(f"{prefix}: refs[{stream_index}] should be a sequence of strings (a reference stream).")
        if len(stream) != len(hypotheses):
            raise ValueError(f"{prefix}: refs[{stream_index}] has {len(stream)} lines but there are "
                             f"{len(hypotheses)} hypotheses")
        for line, ref in enumerate(stream):
            if ref is None:
                continue
            if not isinstance(ref, str):
                raise TypeError(f"{prefix}: refs[{stream_index}][{line}] must be str, got {type(ref).__name__}")
            per_hypothesis[line].append(ref)
    for line, refs in enumerate(per_hypothesis):
        if not refs:
            raise ValueError(f"{prefix}: hypothesis {line} has no reference (every stream is None there)")
    counts = {len(refs) for refs in per_hypothesis}
    num_refs = counts.pop() if len(counts) == 1 else -1
    return per_hypothesis, num_refs


def sentence_refs(hypothesis: str, references: Sequence[Optional[str]], prefix: str) -> list:
    """Checks ``sentence_score`` arguments as sacreBLEU does; drops ``None`` references."""
    if not isinstance(hypothesis, str):
        raise TypeError(f"{prefix}: The argument `hyp` should be a string.")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(f"{prefix}: The argument `refs` should be a sequence of strings.")
    refs = []
    for index, ref in enumerate(references):
        if ref is None:
            continue
        if not isinstance(ref, str):
            raise TypeError(f"{prefix}: Each element of `refs` should be a string (refs[{index}]).")
        refs.append(ref)
    if not refs:
        raise ValueError(f"{prefix}: no reference given")
    return refs


class CHRF:
    """sacreBLEU's ``CHRF`` metric class (same constructor, ``corpus_score``, ``sentence_score``,
    ``get_signature``).

    >>> CHRF(word_order=2).sentence_score("abc d", ["abc e"]).format(width=1)
    'chrF2++ = 40.3'
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

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
        self.num_refs: Optional[int] = None
        self._ref_cache: Optional[list] = None
        self._ref_streams = references

    def _score(self, hypotheses, references: list) -> CHRFScore:
        result = chrf_from_lists(list(hypotheses), references, self.char_order, self.word_order, self.beta,
                                 self.lowercase, self.whitespace, self.eps_smoothing)
        self.last_result = result
        return CHRFScore(result.score, self.char_order, self.word_order, self.beta)

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Sequence[Sequence[str]]] = None,
                     n_bootstrap: int = 1) -> CHRFScore:
        """Corpus chrF against reference streams (or the streams given to the constructor)."""
        if n_bootstrap != 1:
            raise NotImplementedError("bootstrap resampling: use nlgmetrics' significance module")
        if references is None:
            references = self._ref_streams
            if references is None:
                raise RuntimeError("No references provided and the cache is empty.")
        refs, self.num_refs = streams_to_lists(hypotheses, references, "CHRF")
        return self._score(hypotheses, refs)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        """Sentence chrF of one hypothesis against a list of references."""
        refs = sentence_refs(hypothesis, references, "CHRF")
        self.num_refs = len(refs)
        return self._score([hypothesis], [refs])

    def get_signature(self) -> CHRFSignature:
        """The reproducibility signature (fields and order as sacreBLEU's, our version)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        n_refs = "var" if self.num_refs == -1 else self.num_refs
        from ...chrf import chrf_signature
        return CHRFSignature(chrf_signature(n_refs, self.char_order, self.word_order, self.lowercase,
                                            self.whitespace, self.eps_smoothing))


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


