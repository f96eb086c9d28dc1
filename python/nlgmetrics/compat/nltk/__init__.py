"""Drop-in facade for nltk (call signatures and result shapes as nltk).

``from nlgmetrics.compat.nltk import sentence_bleu, corpus_bleu, SmoothingFunction`` replaces
``from nltk.translate.bleu_score import …``.
"""

from .bleu import (  # noqa: F401
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
