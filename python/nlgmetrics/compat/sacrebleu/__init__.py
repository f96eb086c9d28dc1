"""Drop-in facade for sacrebleu 2.6.0: the same call signatures and result shapes, computed by nlgmetrics.

>>> from nlgmetrics.compat.sacrebleu import corpus_bleu, sentence_bleu, BLEU
>>> print(corpus_bleu(["the cat is sitting on the mat"], [["the cat is on the mat"]]))
BLEU = 41.11 85.7/66.7/40.0/12.5 (BP = 1.000 ratio = 1.167 hyp_len = 7 ref_len = 6)

Each metric lives in its own module, re-exported here (``bleu.py``; chrF in ``chrf.py`` and TER in
``ter.py``). Shared shapes (``Score``, ``Signature``, reference streams) are in ``_base.py``.
"""

from nlgmetrics.compat.sacrebleu._base import Score, Signature
from nlgmetrics.compat.sacrebleu.bleu import BLEU, BLEUScore, BLEUSignature, corpus_bleu, raw_corpus_bleu, sentence_bleu
from nlgmetrics.compat.sacrebleu.chrf import CHRF, CHRFScore, CHRFSignature, corpus_chrf, sentence_chrf
from nlgmetrics.compat.sacrebleu.ter import TER, TERScore, TERSignature, corpus_ter, sentence_ter

__all__ = [
    "BLEU", "BLEUScore", "BLEUSignature", "Score", "Signature",
    "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
]
__all__ += ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]
__all__ += ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]
