"""Drop-in for ``sacrebleu.tokenizers.tokenizer_ter`` (2.6.0): ``TercomTokenizer``, the tokenizer TER scores with.

>>> TercomTokenizer(normalized=True)("Jim's car.")
"jim 's car ."
>>> TercomTokenizer(no_punct=True)("A ; B ) C : D.")
'a b c d'
"""

from __future__ import annotations

from nlgmetrics import _core

__all__ = ["TercomTokenizer"]


class TercomTokenizer:
    """Lowercases (unless ``case_sensitive``), then tercom's normalisation, punctuation removal and CJK
    splitting as chosen; returns the tokens joined by single spaces."""

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False):
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive

    @staticmethod
    def signature() -> str:
        return "tercom"

    def __call__(self, sent: str) -> str:
        if not sent:
            return ""
        if not self._case_sensitive:
            sent = sent.lower()
        return _core.ter_tokenize(sent, self._normalized, self._no_punct, self._asian_support)
