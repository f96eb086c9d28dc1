"""Drop-in facade for nltk's ``nltk.translate`` metrics (call signatures and result shapes as nltk).

``from nlgmetrics.compat.nltk import sentence_bleu, corpus_bleu, SmoothingFunction`` replaces
``from nltk.translate.bleu_score import …``; the modules ``gleu_score``, ``nist_score``,
``ribes_score`` and ``chrf_score`` mirror NLTK's modules of those names.
"""

from nlgmetrics.compat.nltk.bleu import (
    SmoothingFunction,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
from nlgmetrics.compat.nltk.chrf_score import corpus_chrf, sentence_chrf
from nlgmetrics.compat.nltk.gleu_score import corpus_gleu, sentence_gleu
from nlgmetrics.compat.nltk.meteor import meteor_score, single_meteor_score
from nlgmetrics.compat.nltk.nist_score import corpus_nist, sentence_nist
from nlgmetrics.compat.nltk.ribes_score import corpus_ribes, sentence_ribes

__all__ = ["SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu", "modified_precision",
           "sentence_bleu", "meteor_score", "single_meteor_score", "corpus_chrf", "sentence_chrf", "corpus_gleu",
           "sentence_gleu", "corpus_nist", "sentence_nist", "corpus_ribes", "sentence_ribes"]
