"""The ``coco`` BLEU preset: pycocoevalcap 1.2's ``Bleu(4)`` (``bleu/bleu_scorer.py``), reproduced exactly.

Captions are split on whitespace (``str.split()``; pycocoevalcap expects PTB-tokenized,
lower-cased captions). Per image the Rust core records the caption length, its reference
lengths and the clipped n-gram matches; scores use pycocoevalcap's epsilons (``1e-15`` added to
matches, ``1e-9`` to n-gram totals and the reference length) and its brevity penalty. Scale: 0–1.

``ref_length`` picks each image's reference length: ``"closest"`` (what ``Bleu.compute_score``
uses; the shorter reference on ties), ``"shortest"`` or ``"average"`` (the other
``BleuScorer.compute_score`` options).

>>> corpus, per_image = coco_bleu(["a man rides a horse"], [["a man rides a horse", "a person on a horse"]])
>>> [round(score, 6) for score in corpus]
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from nlgmetrics import _core

REF_LENGTH_OPTIONS = ("closest", "shortest", "average")
MAX_ORDER = 4  # pycocoevalcap counts n-grams up to 4 only


def image_stats(captions: Sequence[str], references: Sequence[Sequence[str]],
                threads: Optional[int] = None) -> np.ndarray:
    """Per-image rows ``[testlen, closest_reflen, shortest_reflen, sum_reflen, n_refs, guess_1..4,
    correct_1..4]`` (uint64); inputs must already be validated lists of str."""
    return _core.bleu_coco_stats(captions, references, threads)


def scores_from_stats(stats: np.ndarray, n: int = 4, ref_length: str = "closest",
                      threads: Optional[int] = None) -> tuple[list, list]:
    """``(corpus[k], per_image[k][i])`` for BLEU-1..n, as ``BleuScorer.compute_score`` returns them."""
    if ref_length not in REF_LENGTH_OPTIONS:
        raise ValueError(f"ref_length must be one of {REF_LENGTH_OPTIONS}, got {ref_length!r}")
    if not 1 <= n <= MAX_ORDER:
        raise ValueError(f"max_order must be between 1 and {MAX_ORDER} for the coco preset, got {n}")
    return _core.bleu_coco_scores(stats, {"max_order": n, "ref_length": ref_length}, threads)


def coco_bleu(captions: Sequence[str], references: Sequence[Sequence[str]], n: int = 4,
              ref_length: str = "closest") -> tuple[list, list]:
    """BLEU-1..n of whitespace-tokenized captions, corpus and per image (lists of floats)."""
    return scores_from_stats(image_stats(list(captions), [list(refs) for refs in references]), n, ref_length)


def totals(stats: np.ndarray, ref_length: str = "closest") -> dict:
    """pycocoevalcap's ``totalcomps``: summed test/ref lengths, guesses and matches."""
    summed = stats.sum(axis=0, dtype=np.uint64) if len(stats) else np.zeros(5 + 2 * MAX_ORDER, dtype=np.uint64)
    if ref_length == "average":
        reflen: float = 0
        for row in stats:  # pycocoevalcap adds float means one image at a time
            reflen += float(int(row[3])) / int(row[4])
    elif ref_length == "shortest":
        reflen = int(summed[2])
    else:
        reflen = int(summed[1])
    return {
        "testlen": int(summed[0]),
        "reflen": reflen,
        "guess": [int(v) for v in summed[5 : 5 + MAX_ORDER]],
        "correct": [int(v) for v in summed[5 + MAX_ORDER :]],
    }


def check_options(*, tokenize=None, lowercase=False, smooth=None, smooth_value=None, max_order=4, weights=None,
                  effective_order=None, ref_length="closest") -> dict:
    """The preset's options, validated (``nlgmetrics.bleu(..., preset="coco")``).

    Captions are whitespace-split (``tokenize`` must be None or ``"none"``: PTB-tokenize them first,
    as COCOEvalCap does); pycocoevalcap has fixed epsilons and uniform weights, so ``smooth``,
    ``smooth_value``, ``weights`` and ``effective_order`` must be left unset. ``max_order`` is 1–4.
    """
    from nlgmetrics.core.options import check_bool

    if tokenize not in (None, "none"):
        raise ValueError(f"preset 'coco' splits captions on whitespace (tokenize='none'); got tokenize={tokenize!r}. "
                         "Tokenize the captions first (pycocoevalcap uses the PTB tokenizer).")
    for name, value in (("smooth", smooth), ("smooth_value", smooth_value), ("weights", weights)):
        if value is not None:
            raise ValueError(f"{name} does not apply to preset 'coco' (pycocoevalcap's BLEU has fixed epsilons and uniform weights)")
    if effective_order:
        raise ValueError("effective_order does not apply to preset 'coco'")
    if isinstance(max_order, bool) or not isinstance(max_order, (int, np.integer)):
        raise TypeError(f"max_order must be an int, got {type(max_order).__name__}")
    if not 1 <= max_order <= MAX_ORDER:
        raise ValueError(f"max_order must be between 1 and {MAX_ORDER} for the coco preset, got {max_order}")
    if not isinstance(ref_length, str):
        raise TypeError(f"ref_length must be str, got {type(ref_length).__name__}")
    if ref_length not in REF_LENGTH_OPTIONS:
        raise ValueError(f"ref_length must be one of {REF_LENGTH_OPTIONS}, got {ref_length!r}")
    return {"preset": "coco", "lowercase": check_bool(lowercase, "lowercase"), "max_order": int(max_order),
            "ref_length": ref_length}


def batch_arrays(hypotheses: list, references: list, options: dict, threads: Optional[int] = None) -> dict:
    """Per-image rows (``image_stats``) of one batch: the state this preset keeps."""
    if options["lowercase"]:
        hypotheses = [line.lower() for line in hypotheses]
        references = [[ref.lower() for ref in refs] for refs in references]
    return {"segment_stats": image_stats(hypotheses, references, threads)}


def score_rows(sums: np.ndarray, options: dict, threads: Optional[int] = None) -> np.ndarray:
    """The corpus score of each row of summed result rows ``[testlen, reflen, matches.., guesses..]`` (resampling)."""
    order = options["max_order"]
    if options["ref_length"] != "closest":
        raise ValueError("resampling the coco preset needs ref_length='closest' (the result rows hold closest lengths)")
    sums = np.asarray(sums).astype(np.uint64)
    raw = np.zeros((len(sums), 5 + 2 * MAX_ORDER), dtype=np.uint64)
    raw[:, 0] = sums[:, 0]
    raw[:, 1:4] = sums[:, 1:2]
    raw[:, 4] = 1
    raw[:, 5:5 + order] = sums[:, 2 + order:2 + 2 * order]
    raw[:, 5 + MAX_ORDER:5 + MAX_ORDER + order] = sums[:, 2:2 + order]
    return np.array([scores_from_stats(row[None, :], order, "closest", threads)[0][order - 1] for row in raw])


def result(stats: np.ndarray, nrefs: str, options: dict, threads: Optional[int] = None):
    """pycocoevalcap's BLEU-``max_order`` on 0–1 scale, as a BLEUResult.

    Field mapping: ``score`` = pycocoevalcap's ``Bleu_<max_order>`` (``score[max_order-1]``),
    ``segment_scores`` = its per-image list for that order, ``counts``/``totals`` = summed
    "correct"/"guess", ``precisions`` = correct/guess (0 when guess is 0), ``sys_len`` = testlen,
    ``ref_len`` = reflen (rounded to an int for ``ref_length="average"``, whose exact value is a float), ``bp`` = ``exp(1 - 1/ratio)`` when
    ``ratio = (testlen + 1e-15) / (reflen + 1e-9) < 1``, else 1.0. ``segment_stats`` rows are
    ``[testlen, reflen(closest), matches_1..4, guesses_1..4]``.
    """
    import math

    from nlgmetrics.core.signature import Signature
    from nlgmetrics.metrics.bleu.result import BLEUResult

    order, ref_length = options["max_order"], options["ref_length"]
    corpus, per_image = scores_from_stats(stats, order, ref_length, threads)
    summed = totals(stats, ref_length)
    ratio = (summed["testlen"] + 1e-15) / (summed["reflen"] + 1e-9)
    counts = tuple(summed["correct"][:order])
    guesses = tuple(summed["guess"][:order])
    segment_stats = np.ascontiguousarray(
        np.hstack([stats[:, 0:2], stats[:, 5 + MAX_ORDER:5 + MAX_ORDER + order], stats[:, 5:5 + order]]), dtype=np.int64
    )
    fields = [
        ("preset", "coco"),
        ("nrefs", nrefs),
        ("case", "lc" if options["lowercase"] else "mixed"),
        ("tok", "split"),
        ("reflen", ref_length),
        ("order", str(order)),
        ("scale", "0-1"),
    ]
    return BLEUResult(
        score=corpus[order - 1],
        counts=counts,
        totals=guesses,
        precisions=tuple(c / g if g else 0.0 for c, g in zip(counts, guesses)),
        bp=math.exp(1 - 1 / ratio) if ratio < 1 else 1.0,
        sys_len=summed["testlen"],
        ref_len=int(round(summed["reflen"])),  # "average" sums float means; the score uses them unrounded
        segment_stats=segment_stats,
        segment_scores=np.array(per_image[order - 1], dtype=np.float64),
        signature=Signature("BLEU", tuple(fields)),
    )
