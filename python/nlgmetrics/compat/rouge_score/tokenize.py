"""Drop-in for ``rouge_score.tokenize`` (0.1.2): ``tokenize(text, stemmer)``.

>>> tokenize("The cats' café!", None)
['the', 'cats', 'caf']
"""

from __future__ import annotations

import re

from nlgmetrics import _core
from nlgmetrics.metrics.rouge.rouge_score import without_surrogates

# rouge_score's final filter (note: `$` also matches before a trailing newline, as in rouge_score).
_VALID_TOKEN_RE = re.compile(r"^[a-z0-9]+$")


def _is_nltk_default_porter(stemmer) -> bool:
    cls = type(stemmer)
    if cls.__name__ == "PorterStemmer" and cls.__module__ in ("nltk.stem.porter", __name__.rsplit(".", 1)[0] + ".tokenizers"):
        return getattr(stemmer, "mode", "NLTK_EXTENSIONS") == "NLTK_EXTENSIONS"
    return False


def tokenize(text, stemmer):
    """rouge_score's tokens of ``text``: lower-cased ``[a-z0-9]+`` runs; ``stemmer.stem`` on tokens
    longer than 3 characters (NLTK's default Porter stemmer runs natively, others are called)."""
    texts = without_surrogates([text]) if isinstance(text, str) else [text]
    if stemmer is None or _is_nltk_default_porter(stemmer):
        return _core.rouge_tokenize(texts, {"tokenizer": "rouge_score", "stemmer": stemmer is not None})[0]
    tokens = _core.rouge_tokenize(texts, {"tokenizer": "rouge_score", "stemmer": False})[0]
    stemmed = [str(stemmer.stem(token)) if len(token) > 3 else token for token in tokens]
    return [token for token in stemmed if _VALID_TOKEN_RE.match(token)]
