"""Drop-in for ``jiwer`` 4.0: ``import nlgmetrics.compat.jiwer as jiwer``.

``wer/mer/wil/wip/cer(reference, hypothesis, reference_transform=…, hypothesis_transform=…)`` in jiwer's
argument order, ``process_words``, ``process_characters`` (``WordOutput``, ``CharacterOutput``,
``AlignmentChunk``), the transforms (``jiwer.transforms``) and the ready-made chains (``wer_default``,
``wer_standardize``, ``cer_default`` …), ``visualize_alignment``, ``collect_error_counts`` and
``visualize_error_counts``. jiwer's own test cases run against it (tests/test_compat_jiwer.py).

>>> import nlgmetrics.compat.jiwer as jiwer
>>> jiwer.wer("the cat sat on the mat", "the cat sat on mat")
0.16666666666666666
>>> jiwer.process_words("a b", "a c").substitutions
1
"""

from nlgmetrics.compat.jiwer import alignment, transformations, transforms
from nlgmetrics.compat.jiwer.alignment import collect_error_counts, visualize_alignment, visualize_error_counts
from nlgmetrics.compat.jiwer.measures import cer, mer, wer, wil, wip
from nlgmetrics.compat.jiwer.process import (
    AlignmentChunk,
    CharacterOutput,
    WordOutput,
    process_characters,
    process_words,
)
from nlgmetrics.compat.jiwer.transformations import (
    cer_contiguous,
    cer_default,
    wer_contiguous,
    wer_default,
    wer_standardize,
    wer_standardize_contiguous,
)
from nlgmetrics.compat.jiwer.transforms import *  # noqa: F403  (jiwer exports its transforms at the top)
from nlgmetrics.compat.jiwer.transforms import __all__ as _TRANSFORMS

name = "jiwer"

__all__ = ["wer", "mer", "wil", "wip", "cer", "process_words", "process_characters", "AlignmentChunk", "WordOutput",
           "CharacterOutput", "alignment", "transforms", "transformations", "wer_default", "wer_contiguous", "wer_standardize",
           "wer_standardize_contiguous", "cer_default", "cer_contiguous", "visualize_alignment", "collect_error_counts",
           "visualize_error_counts", *_TRANSFORMS]
