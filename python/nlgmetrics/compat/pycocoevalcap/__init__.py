"""Drop-in facade for pycocoevalcap (call signatures and result shapes as pycocoevalcap).

``from nlgmetrics.compat.pycocoevalcap import Bleu`` replaces ``from pycocoevalcap.bleu.bleu import Bleu``;
``nlgmetrics.compat.pycocoevalcap.bleu`` mirrors the module.
"""

from .bleu import Bleu  # noqa: F401
