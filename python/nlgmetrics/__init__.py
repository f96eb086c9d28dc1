"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'
"""

from ._core import __version__
from .chrf import CHRFResult, chrf, sentence_chrf
from .pairwise import chrf_pairwise
from .ter import TERResult, sentence_ter, ter

__all__ = ["__version__"]
__all__ += ["CHRFResult", "chrf", "sentence_chrf", "chrf_pairwise", "TERResult", "ter", "sentence_ter"]
