"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'
"""

from ._core import __version__
from .captioning import caption_scores, cider, ptb_tokenize
from .qa import exact_match, normalize_answer, qa_scores, squad, token_f1

__all__ = ["__version__"]
__all__ += ["caption_scores", "cider", "ptb_tokenize"]
__all__ += ["exact_match", "normalize_answer", "qa_scores", "squad", "token_f1"]
