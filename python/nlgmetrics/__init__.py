"""nlgmetrics: text-generation metrics identical to the reference implementations, and fast.

>>> import nlgmetrics
>>> nlgmetrics.__version__
'0.1.0'
"""

from ._core import __version__
from ._bleu_result import BLEUResult
from .bleu import bleu, sentence_bleu
from .chrf import CHRFResult, chrf, sentence_chrf
from .pairwise import bleu_pairwise, chrf_pairwise
from .ter import TERResult, sentence_ter, ter
from .tokenizers import tokenize

__all__ = ["__version__", "bleu", "sentence_bleu", "BLEUResult"]
__all__ += ["tokenize"]
__all__ += ["CHRFResult", "chrf", "sentence_chrf", "chrf_pairwise", "bleu_pairwise", "TERResult", "ter", "sentence_ter"]
from .stats import confidence_interval, paired_test

__all__ += ["paired_test", "confidence_interval"]
from .meteor import MeteorResult, meteor

__all__ += ["meteor", "MeteorResult"]
from .captioning import caption_scores, cider, ptb_tokenize
from .qa import exact_match, normalize_answer, qa_scores, squad, token_f1

__all__ += ["caption_scores", "cider", "ptb_tokenize"]
__all__ += ["exact_match", "normalize_answer", "qa_scores", "squad", "token_f1"]
from .rouge import RougeResult, rouge

__all__ += ["rouge", "RougeResult"]
