"""Drop-in for ``rouge_score.tokenizers`` (0.1.2): ``Tokenizer`` and ``DefaultTokenizer``."""

from __future__ import annotations

import abc

from nlgmetrics.compat.rouge_score import tokenize as _tokenize


class PorterStemmer:
    """Marker for the native NLTK Porter stemmer (``NLTK_EXTENSIONS`` mode)."""

    mode = "NLTK_EXTENSIONS"

    def stem(self, word: str) -> str:
        from nlgmetrics import _core

        return _core.porter_stem_words([word.lower()])[0]


class Tokenizer(abc.ABC):
    """Abstract base class: subclasses implement ``tokenize(text) -> list[str]``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge_score's default tokenizer, optionally with NLTK's Porter stemmer."""

    def __init__(self, use_stemmer: bool = False):
        self._stemmer = PorterStemmer() if use_stemmer else None

    def tokenize(self, text):
        return _tokenize.tokenize(text, self._stemmer)
