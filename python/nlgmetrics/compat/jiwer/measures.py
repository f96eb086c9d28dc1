"""jiwer 4.0's measures in its own argument order: ``wer(reference, hypothesis)`` (nlgmetrics' own ``wer`` takes
hypotheses first).

With the default transforms the numbers come from nlgmetrics' batch Rust kernel (``nlgmetrics.wer`` …, one call
for all sentences); with other transforms, from ``process_words``.

>>> wer("the cat sat down", "the cat sat")
0.25
>>> cer(["abc"], ["abd"])
0.3333333333333333
"""

from __future__ import annotations

from typing import List, Union

from nlgmetrics.compat.jiwer import transforms as tr
from nlgmetrics.compat.jiwer.process import process_characters, process_words
from nlgmetrics.compat.jiwer.transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wil", "wip", "cer"]


def _as_list(sentences) -> list:
    return [sentences] if isinstance(sentences, str) else sentences


def _word_measure(name: str):
    def measure(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                reference_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default,
                hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default) -> float:
        refs, hyps = _as_list(reference), _as_list(hypothesis)
        if (reference_transform is wer_default and hypothesis_transform is wer_default and isinstance(refs, list)
                and isinstance(hyps, list) and len(refs) == len(hyps) and refs
                and all(isinstance(text, str) for text in refs + hyps)):
            import nlgmetrics

            return getattr(nlgmetrics, name)(hyps, refs).score  # the batch kernel: wer_default's transforms
        return getattr(process_words(reference, hypothesis, reference_transform, hypothesis_transform), name)

    measure.__name__ = measure.__qualname__ = name
    measure.__doc__ = f"jiwer's ``{name}(reference, hypothesis, reference_transform, hypothesis_transform)``."
    return measure


wer = _word_measure("wer")
mer = _word_measure("mer")
wil = _word_measure("wil")
wip = _word_measure("wip")


def cer(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
        reference_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default,
        hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default) -> float:
    """jiwer's ``cer(reference, hypothesis, reference_transform, hypothesis_transform)``."""
    refs, hyps = _as_list(reference), _as_list(hypothesis)
    if (reference_transform is cer_default and hypothesis_transform is cer_default and isinstance(refs, list)
            and isinstance(hyps, list) and len(refs) == len(hyps) and refs
            and all(isinstance(text, str) for text in refs + hyps)):
        import nlgmetrics

        return nlgmetrics.cer(hyps, refs).score
    return process_characters(reference, hypothesis, reference_transform, hypothesis_transform).cer
