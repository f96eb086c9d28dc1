"""Drop-in facade for nltk (call signatures and result shapes as nltk).

``from nlgmetrics.compat.nltk import sentence_bleu, corpus_bleu, SmoothingFunction`` replaces
``from nltk.translate.bleu_score import …``.
"""

from nlgmetrics.compat.nltk.bleu import (  # noqa: F401
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
from nlgmetrics.compat.nltk.meteor import meteor_score, single_meteor_score
