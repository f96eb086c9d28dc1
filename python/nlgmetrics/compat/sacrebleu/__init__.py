"""Drop-in facade for sacrebleu (call signatures and result shapes as sacrebleu)."""

from .chrf import CHRF, CHRFScore, corpus_chrf, sentence_chrf  # noqa: E402
from .ter import TER, TERScore, corpus_ter, sentence_ter  # noqa: E402
