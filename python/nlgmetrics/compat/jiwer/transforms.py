"""jiwer 4.0's text transforms (``jiwer.transforms``), written for nlgmetrics: same names, same behaviour.

A transform maps a string, or a list of strings, to its transformed form; ``Compose`` chains them. The
reducing transforms end a chain with the list of token lists the alignment reads.

>>> chain = Compose([ToLowerCase(), RemovePunctuation(), RemoveMultipleSpaces(), Strip(), ReduceToListOfListOfWords()])
>>> chain(["Hello,  World!", " A test "])
[['hello', 'world'], ['a', 'test']]
>>> ReduceToSingleSentence()(["a b", "", "c"])
['a b c']
"""

from __future__ import annotations

import re
import string
from typing import Iterable, List, Mapping, Union

from nlgmetrics.metrics.wer import _CONTRACTIONS, _KALDI_NON_WORD, _punctuation_table

__all__ = ["AbstractTransform", "Compose", "ExpandCommonEnglishContractions", "RemoveEmptyStrings",
           "ReduceToListOfListOfWords", "ReduceToListOfListOfChars", "ReduceToSingleSentence", "RemoveKaldiNonWords",
           "RemoveMultipleSpaces", "RemovePunctuation", "RemoveSpecificWords", "RemoveWhiteSpace", "Strip",
           "SubstituteRegexes", "SubstituteWords", "ToLowerCase", "ToUpperCase"]


class AbstractTransform:
    """A string → string (or reduced) transform; a list is transformed item by item unless a subclass says."""

    def __call__(self, sentences: Union[str, List[str]]):
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str):
        raise NotImplementedError()

    def process_list(self, inp: List[str]):
        return [self.process_string(item) for item in inp]


class Compose:
    """Applies ``transforms`` one after another."""

    def __init__(self, transforms: List[AbstractTransform]):
        self.transforms = transforms

    def __call__(self, text):
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Replaces each of ``tokens_to_remove`` (plain substrings, in order) by ``replace_token``."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = ""):
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str):
        for token in self.tokens_to_remove:
            s = s.replace(token, self.replace_token)
        return s


class ReduceToListOfListOfWords(AbstractTransform):
    """A string → ``[[words]]``; a list → one word list per string (``[[]]`` for an empty list)."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return [[word for word in s.split(self.word_delimiter) if word]]

    def process_list(self, inp: List[str]):
        return [self.process_string(sentence)[0] for sentence in inp] or [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    """A string → ``[[characters]]``; a list → one character list per string (``[[]]`` for an empty list)."""

    def process_string(self, s: str):
        return [list(s)]

    def process_list(self, inp: List[str]):
        return [list(sentence) for sentence in inp] or [[]]


class ReduceToSingleSentence(AbstractTransform):
    """A list → one string, its non-empty strings joined by ``word_delimiter`` (``[]`` when all are empty)."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return s

    def process_list(self, inp: List[str]):
        kept = [sentence for sentence in inp if sentence]
        return [self.word_delimiter.join(kept)] if kept else []


class SubstituteRegexes(AbstractTransform):
    """``re.sub(pattern, replacement)`` for every item of ``substitutions``, in order."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for pattern, replacement in self.substitutions.items():
            s = re.sub(pattern, replacement, s)
        return s


class SubstituteWords(AbstractTransform):
    """Whole-word substitutions (``\\bword\\b``), in order."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for word, replacement in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(word)}\b", replacement, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Each whole word of ``words_to_remove`` becomes a space."""

    def __init__(self, words_to_remove: List[str]):
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """Every ``string.whitespace`` character removed (or, ``replace_by_space``, turned into a space)."""

    def __init__(self, replace_by_space: bool = False):
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


class RemovePunctuation(AbstractTransform):
    """Every code point of a Unicode punctuation category (P*) removed."""

    def process_string(self, s: str):
        return s.translate(_punctuation_table())


class RemoveMultipleSpaces(AbstractTransform):
    """Runs of two or more whitespace characters become one space."""

    def process_string(self, s: str):
        return re.sub(r"\s\s+", " ", s)


class Strip(AbstractTransform):
    """Leading and trailing whitespace removed."""

    def process_string(self, s: str):
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """From a list, the strings that are empty once stripped are left out."""

    def process_string(self, s: str):
        return s.strip()

    def process_list(self, inp: List[str]):
        return [sentence for sentence in inp if sentence.strip()]


class ExpandCommonEnglishContractions(AbstractTransform):
    """won't → will not, can't → can not, let's → let us, then n't, 're, 's, 'd, 'll, 't, 've, 'm."""

    def process_string(self, s: str):
        for short, long in _CONTRACTIONS:
            s = s.replace(short, long)
        return s


class ToLowerCase(AbstractTransform):
    def process_string(self, s: str):
        return s.lower()


class ToUpperCase(AbstractTransform):
    def process_string(self, s: str):
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    """Kaldi's non-words (``<unk>``, ``[laughter]`` …) removed."""

    def process_string(self, s: str):
        return _KALDI_NON_WORD.sub("", s)
