"""Drop-in facade for pycocoevalcap (call signatures and result shapes as pycocoevalcap).

``from nlgmetrics.compat.pycocoevalcap import Bleu`` replaces ``from pycocoevalcap.bleu.bleu import Bleu``;
``nlgmetrics.compat.pycocoevalcap.bleu`` mirrors the module.
"""

from nlgmetrics.compat.pycocoevalcap.bleu import Bleu
from nlgmetrics.compat.pycocoevalcap.cider import Cider
from nlgmetrics.compat.pycocoevalcap.meteor import Meteor
from nlgmetrics.compat.pycocoevalcap.rouge import Rouge
from nlgmetrics.compat.pycocoevalcap.tokenizer import PTBTokenizer

__all__ = ["Bleu", "Cider", "Meteor", "PTBTokenizer", "Rouge"]
