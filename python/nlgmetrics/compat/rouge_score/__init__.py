"""Drop-in facade for rouge_score 0.1.2: ``from nlgmetrics.compat.rouge_score import rouge_scorer, scoring, io``.

Same call signatures, result types (``Score``, ``AggregateScore`` namedtuples) and numbers as
rouge_score, computed in Rust.
"""

from nlgmetrics.compat.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["io", "rouge_scorer", "scoring", "tokenize", "tokenizers"]
