"""Drop-in facade for rouge_score (call signatures and result shapes as rouge_score)."""
