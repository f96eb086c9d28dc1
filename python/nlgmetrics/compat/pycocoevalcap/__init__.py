"""Drop-in facade for pycocoevalcap (call signatures and result shapes as pycocoevalcap).

``from nlgmetrics.compat.pycocoevalcap import Bleu`` replaces ``from pycocoevalcap.bleu.bleu import Bleu``;
``nlgmetrics.compat.pycocoevalcap.bleu`` mirrors the module.
"""

from nlgmetrics.compat.pycocoevalcap.bleu import Bleu  # noqa: F401
from nlgmetrics.compat.pycocoevalcap.meteor import Meteor
from nlgmetrics.compat.pycocoevalcap.cider import Cider  # noqa: F401
from nlgmetrics.compat.pycocoevalcap.rouge import Rouge  # noqa: F401
from nlgmetrics.compat.pycocoevalcap.tokenizer import PTBTokenizer  # noqa: F401
