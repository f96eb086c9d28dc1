"""BLEU (Papineni et al., 2002), identical to sacreBLEU 2.6.0 by default, computed in Rust.

Scores are on sacreBLEU's 0–100 scale (divide by 100 for the 0–1 form NLTK prints); the ``nltk`` and
``coco`` presets return their references' own 0–1 numbers.

>>> from nlgmetrics import bleu, sentence_bleu
>>> result = bleu(["the cat is sitting on the mat"], [["the cat is on the mat", "there is a cat sitting on the mat"]])
>>> round(result.score, 2), result.counts, result.totals
(59.46, (7, 5, 3, 1), (7, 6, 5, 4))
>>> print(result)
BLEU = 59.46 100.0/83.3/60.0/25.0 (BP = 1.000 ratio = 1.167 hyp_len = 7 ref_len = 6)
>>> str(result.signature)
'BLEU|preset:sacrebleu|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:nlgmetrics-0.1.0'
>>> score = sentence_bleu("The cat sat on the mat", ["The cat is on the mat"], tokenize="none", max_order=3,
...                       weights=[0.5, 0.25, 0.125], smooth="none", effective_order=False).score
>>> round(score / 100, 6)  # the 0–1 form
0.6756

Per-segment scores follow one rule at every entry point (``segment_scores``, ``to_pandas()``, ``score
--output``, ``bleu -sl``, ``compare``, ``report``): each segment's score is sacreBLEU's ``sentence_bleu`` of
the pair — effective order on, the metric's smoothing — whatever ``effective_order`` says for the corpus
number, which it alone changes. A whole batch is scored in one parallel call:

>>> from nlgmetrics import bleu
>>> bleu(["a cat sat here"], ["a cat sat there"]).segment_scores.round(2).tolist()  # sentence_bleu: 59.46
[59.46]

Fidelity notes (sacrebleu preset): statistics rows, reference lengths (closest, shorter on ties),
multi-reference max counts and every score are bit-identical to sacreBLEU 2.6.0, including its
quirks: a perfect match scores ``exp(log 100) = 100.00000000000004``; a corpus without any match
scores 0 whatever the smoothing; ``add-k`` reports counts/totals with ``k`` added (compat facade).
sacreBLEU adds the log precisions with Python's ``sum()``, which is Neumaier-compensated from
CPython 3.12 on; the last bit of about a quarter of WMT sentence scores depends on that, so the core
follows the running interpreter (verified on 3.11 and 3.12).

Presets name the implementation reproduced: ``"sacrebleu"`` (default, sacreBLEU 2.6.0),
``"nltk"`` (NLTK 3.10.4 ``corpus_bleu``) and ``"coco"`` (pycocoevalcap 1.2 ``Bleu``); the latter two
live in ``nlgmetrics.metrics.bleu.nltk`` / ``nlgmetrics.metrics.bleu.coco``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from numbers import Real
from typing import Any, Optional, Sequence, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core.inputs import surrogate_location as _surrogate_location
from nlgmetrics.core.options import check_bool, check_threads
from nlgmetrics.core.segment import segment_scorer
from nlgmetrics.core.signature import Signature
from nlgmetrics.metrics.bleu.result import BLEUResult

__all__ = ["SMOOTH_DEFAULTS", "TOKENIZERS", "check_options", "batch_arrays", "result", "score_rows", "scorer"]

Reference = Union[str, Sequence[str]]

#: sacreBLEU's smoothing methods and their default ``smooth_value`` (``None``: takes no value).
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
#: The sacreBLEU tokenizers we provide (``ja-mecab``/``ko-mecab`` need the ``[ja]``/``[ko]`` extras),
#: and ``zh-fixed`` (see ``nlgmetrics.tokenizers``).
TOKENIZERS = ("none", "13a", "intl", "zh", "char", "ja-mecab", "ko-mecab", "zh-fixed")
#: Tokenized by MeCab in Python (``nlgmetrics.tokenizers.pretokenize``), then scored with ``none``.
_MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")
#: sacreBLEU tokenizers we do not provide (SentencePiece models downloaded at run time).
_UNSUPPORTED_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")
MAX_ORDER_LIMIT = 100


# ---------------------------------------------------------------------------------------------
# Option checks shared with the compat facade.

_check_bool = check_bool
_check_threads = check_threads


def _check_max_order(max_order: Any) -> int:
    if isinstance(max_order, bool) or not isinstance(max_order, (int, np.integer)):
        raise TypeError(f"max_order must be an int, got {type(max_order).__name__}")
    if not 1 <= max_order <= MAX_ORDER_LIMIT:
        raise ValueError(f"max_order must be between 1 and {MAX_ORDER_LIMIT}, got {max_order}")
    return int(max_order)


def _check_smooth(smooth: Any, smooth_value: Any, *, strict: bool = True) -> tuple[str, Optional[float]]:
    """The smoothing method and its value (``None`` = the method's default).

    ``strict``: a value given to a method that takes none is an error (the compat facade, like
    sacreBLEU, ignores it instead).
    """
    if not isinstance(smooth, str):
        raise TypeError(f"smooth must be str, got {type(smooth).__name__}")
    if smooth not in SMOOTH_DEFAULTS:
        raise ValueError(f"unknown smoothing method {smooth!r}; expected one of {', '.join(map(repr, SMOOTH_DEFAULTS))}")
    if smooth_value is None:
        return smooth, None
    if isinstance(smooth_value, bool) or not isinstance(smooth_value, Real):
        raise TypeError(f"smooth_value must be a number or None, got {type(smooth_value).__name__}")
    if not math.isfinite(smooth_value) or smooth_value < 0:
        raise ValueError(f"smooth_value must be a finite number >= 0, got {smooth_value}")
    if SMOOTH_DEFAULTS[smooth] is None:
        if strict:
            raise ValueError(f"smooth_value applies to 'floor' and 'add-k' only, not to {smooth!r}")
        return smooth, None
    return smooth, float(smooth_value)


def _check_weights(weights: Any, max_order: int) -> Optional[list[float]]:
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray)):
        raise TypeError(f"weights must be a sequence of numbers or None, got {type(weights).__name__}")
    values = []
    for index, weight in enumerate(weights):
        if isinstance(weight, bool) or not isinstance(weight, Real):
            raise TypeError(f"weights[{index}] must be a number, got {type(weight).__name__}")
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(f"weights[{index}] must be a finite number >= 0, got {weight}")
        values.append(float(weight))
    if len(values) != max_order:
        raise ValueError(f"weights has {len(values)} entries but max_order is {max_order}")
    return values


@lru_cache(maxsize=None)
def _rust_knows_tokenizer(name: str) -> bool:
    try:
        _core.SegmentScorer("bleu", {"tokenize": name, "max_order": 1, "smooth": "exp", "smooth_value": None,
                                     "effective_order": False, "weights": None})
    except ValueError:
        return False
    return True


def _check_tokenize(tokenize: Any) -> str:
    if not isinstance(tokenize, str):
        raise TypeError(f"tokenize must be str, got {type(tokenize).__name__}")
    if tokenize in _UNSUPPORTED_TOKENIZERS:
        raise ValueError(f"tokenizer {tokenize!r} (SentencePiece) is not supported; use one of {', '.join(TOKENIZERS)}")
    if tokenize not in _MECAB_TOKENIZERS and not _rust_knows_tokenizer(tokenize):
        raise ValueError(f"unknown tokenizer {tokenize!r}; expected one of {', '.join(map(repr, TOKENIZERS))}")
    return tokenize


def _tokenizer_signature(tokenize: str) -> str:
    """sacreBLEU's tokenizer signature (MeCab ones carry the MeCab version, e.g. ``ja-mecab-0.996-IPA``)."""
    if tokenize in _MECAB_TOKENIZERS:
        from nlgmetrics.tokenizers import tokenizer_signature

        return tokenizer_signature(tokenize)
    return tokenize


def _smooth_signature(smooth: str, smooth_value: Optional[float]) -> str:
    """``exp``, ``none``, or e.g. ``floor[0.10]`` (sacreBLEU's BLEUSignature)."""
    default = SMOOTH_DEFAULTS[smooth]
    if default is None:
        return smooth
    value = default if smooth_value is None else smooth_value
    return f"{smooth}[{value:.2f}]"


def _preprocess(lines: list[str], lowercase: bool, tokenize: str) -> tuple[list[str], str]:
    """Lowercase in Python (exact ``str.lower``) and, for MeCab, tokenize in Python; the rest is Rust."""
    if lowercase:
        lines = [line.lower() for line in lines]
    if tokenize in _MECAB_TOKENIZERS:
        from nlgmetrics import tokenizers

        # sacreBLEU right-strips before tokenizing (BLEU._preprocess_segment).
        lines = list(tokenizers.pretokenize([line.rstrip() for line in lines], tokenize))
        return lines, "none"
    return lines, tokenize


def check_options(*, tokenize=None, lowercase=False, smooth=None, smooth_value=None, max_order=4, weights=None,
                  effective_order=None) -> dict:
    """The sacrebleu preset's options, validated, with its defaults filled in."""
    tokenize = _check_tokenize("13a" if tokenize is None else tokenize)
    smooth, smooth_value = _check_smooth("exp" if smooth is None else smooth, smooth_value)
    max_order = _check_max_order(max_order)
    return {"preset": "sacrebleu", "tokenize": tokenize, "lowercase": check_bool(lowercase, "lowercase"),
            "smooth": smooth, "smooth_value": None if smooth_value is None else float(smooth_value),
            "max_order": max_order, "weights": _check_weights(weights, max_order),
            "effective_order": check_bool(bool(effective_order) if effective_order is None else effective_order,
                                          "effective_order")}


def scorer(options: dict) -> "_core.SegmentScorer":
    """The Rust scorer of these options (MeCab text reaches it pre-tokenized, as ``none``; see ``_preprocess``)."""
    return segment_scorer("bleu", {**options, "tokenize": "none"} if options["tokenize"] in _MECAB_TOKENIZERS else options)


def batch_arrays(hypotheses: list, references: list, options: dict, threads: Optional[int]) -> dict:
    """sacreBLEU's statistics rows and sentence scores of one batch, in one parallel Rust call."""
    tokenize, lowercase = options["tokenize"], options["lowercase"]
    hyp_lines, _ = _preprocess(hypotheses, lowercase, tokenize)
    if lowercase or tokenize in _MECAB_TOKENIZERS:
        flat, _ = _preprocess([ref for refs in references for ref in refs], lowercase, tokenize)
        ref_lines, start = [], 0
        for refs in references:
            ref_lines.append(flat[start:start + len(refs)])
            start += len(refs)
    else:
        ref_lines = references
    try:  # segment scores: sentence_bleu's (always the effective order)
        stats, segment_scores = scorer(options).segment_stats(hyp_lines, ref_lines, threads)
    except UnicodeEncodeError:
        raise ValueError(_surrogate_location(hypotheses, references)) from None
    return {"segment_stats": stats, "segment_scores": segment_scores}


def score_rows(sums: np.ndarray, options: dict) -> np.ndarray:
    """sacreBLEU's score of each row of summed statistics (full precision)."""
    return scorer(options).score_rows(np.ascontiguousarray(sums, dtype=np.int64))


def signature_fields(nrefs: str, options: dict) -> tuple:
    fields = [
        ("preset", "sacrebleu"),
        ("nrefs", nrefs),
        ("case", "lc" if options["lowercase"] else "mixed"),
        ("eff", "yes" if options["effective_order"] else "no"),
        ("tok", _tokenizer_signature(options["tokenize"])),
        ("smooth", _smooth_signature(options["smooth"], options["smooth_value"])),
    ]
    if options["max_order"] != 4:
        fields.append(("order", str(options["max_order"])))
    if options["weights"] is not None:
        fields.append(("weights", ",".join(repr(w) for w in options["weights"])))
    return tuple(fields)


def sentence_lines(result: BLEUResult, options: dict, width: int) -> list:
    """sacreBLEU's ``--sentence-level`` lines: every segment's score in ``BLEUResult.format`` form with the
    signature (``BLEU|nrefs:1|…|eff:yes|… = 48.9 85.7/…``), each from sentence_bleu's effective order."""
    import dataclasses

    order = options.get("max_order", 4)
    # sentence_bleu's scoring: always the effective order, the default weights
    scoring = {"max_order": order, "smooth": options.get("smooth") or "exp",
               "smooth_value": options.get("smooth_value"), "effective_order": True, "weights": None}
    lines = []
    for row, score in zip(result.segment_stats.tolist(), result.segment_scores.tolist()):
        _, precisions, bp = _core.bleu_score_from_stats(row, scoring)
        sentence = dataclasses.replace(result, score=score, counts=tuple(row[2:2 + order]), totals=tuple(row[2 + order:]),
                                       precisions=tuple(precisions), bp=bp, sys_len=row[0], ref_len=row[1])
        lines.append(sentence.format(width=width, signature=True))
    return lines


def result(totals: np.ndarray, stats: np.ndarray, segment_scores: np.ndarray, nrefs: str, options: dict) -> BLEUResult:
    """The corpus BLEUResult from summed statistics (``totals``) and the per-segment rows."""
    max_order = options["max_order"]
    counts = [int(value) for value in totals]
    score, precisions, bp = _core.bleu_score_from_stats(counts, options)
    return BLEUResult(
        score=score,
        counts=tuple(counts[2:2 + max_order]),
        totals=tuple(counts[2 + max_order:]),
        precisions=tuple(precisions),
        bp=bp,
        sys_len=counts[0],
        ref_len=counts[1],
        segment_stats=stats,
        segment_scores=segment_scores,
        signature=Signature("BLEU", signature_fields(nrefs, options)),
    )
