"""Drop-in facade for pycocoevalcap (call signatures and result shapes as pycocoevalcap)."""
from .cider import Cider  # noqa: F401
from .rouge import Rouge  # noqa: F401
from .tokenizer import PTBTokenizer  # noqa: F401
