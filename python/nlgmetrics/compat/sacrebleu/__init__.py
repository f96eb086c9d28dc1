"""Drop-in facade for sacrebleu (call signatures and result shapes as sacrebleu)."""
