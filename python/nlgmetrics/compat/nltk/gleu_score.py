"""Drop-in for ``nltk.translate.gleu_score`` (NLTK 3.10.4): ``sentence_gleu`` and ``corpus_gleu``.

Same arguments and values (Google-BLEU: Σ matches / Σ max(hypothesis n-grams, reference n-grams),
the reference with the best ratio per segment), counted in Rust.

>>> from nlgmetrics.compat.nltk.gleu_score import sentence_gleu
>>> sentence_gleu([["the", "cat", "ate", "the", "mat"]], ["the", "cat", "sat", "on", "the", "mat"])
0.3333333333333333
>>> round(sentence_gleu([["the", "cat", "is", "on", "the", "mat"]], ["the"] * 7), 4)
0.0909
"""

from __future__ import annotations

from typing import Sequence

from nlgmetrics.compat.nltk._tokens import check_lengths, token_rows

__all__ = ["corpus_gleu", "sentence_gleu"]


def corpus_gleu(list_of_references: Sequence, hypotheses: Sequence, min_len: int = 1, max_len: int = 4) -> float:
    """Corpus GLEU as ``nltk.translate.gleu_score.corpus_gleu`` (ValueError where NLTK asserts)."""
    check_lengths(list_of_references, hypotheses)
    if max_len == -1 or min_len < 0:
        raise ValueError("min_len must be >= 0 and max_len an explicit order (nltk's everygrams default -1 is not supported)")
    rows = token_rows("gleu", {"min_len": min_len, "max_len": max_len}, list_of_references, hypotheses)
    n_match, n_all = (int(total) for total in rows.sum(axis=0)) if len(rows) else (0, 0)
    # corner case as NLTK: empty corpus or empty references — don't divide by zero
    return 0.0 if n_all == 0 else n_match / n_all


def sentence_gleu(references: Sequence, hypothesis: Sequence, min_len: int = 1, max_len: int = 4) -> float:
    """Sentence GLEU as ``nltk.translate.gleu_score.sentence_gleu`` (a one-segment corpus)."""
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)
