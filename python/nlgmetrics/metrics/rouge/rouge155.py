"""The ``rouge155`` preset of ``nlgmetrics.rouge``: ROUGE-1.5.5.pl, number for number.

Mapping of options to ROUGE-1.5.5.pl flags (SPL input, ``-z SPL``, one sentence per line):

=======================  ===============================================
``variants``             ``-n N`` (rouge1…9), ROUGE-L (``rougeL``/``rougeLsum``: both are
                         1.5.5's summary-level LCS), ``-w W`` (``rougeW-W``), ``-2 d``
                         (``rougeSd``), ``-2 d -u`` (``rougeSUd``), ``-2 -1`` (``rougeS*``/``rougeSU*``)
``stemmer=True``         ``-m`` (``wordnet_exceptions=False``: an empty WordNet-2.0.exc.db)
``remove_stopwords``     ``-s``
``word_limit``           ``-l n``;  ``byte_limit``: ``-b n`` (applied to references too)
``multi_ref``            ``-f A`` (default) / ``-f B`` / ``"max"`` (best F, like rouge_score)
``alpha``                ``-p alpha`` (default 0.5)
``bootstrap``/``confidence``  ``-r`` (default 1000) / ``-c`` (0.95 → 95)
=======================  ===============================================

Per-document scores are ROUGE-1.5.5's ``-d`` values (5 decimals, F from the rounded R and P). The
corpus score is what ROUGE-1.5.5 prints as ``Average_X``: the mean of the bootstrap means (its
samples use Perl's ``srand(i)``/``rand``, reproduced exactly), with its confidence interval.
Perl resamples documents in the string order of its test IDs: ``eval_ids="spl"`` (default) is
``-z SPL`` file-list numbering (1, 10, 100, …); ``"input"`` is document order (zero-padded IDs in
an XML config, as used for the shared CNN/DM expected files).
"""

from __future__ import annotations

import re
import sys

import numpy as np

MULTI_REF_155 = ("A", "B", "max")
EVAL_IDS = ("spl", "input")


def check_limit(value, name: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"{name} must be None or a positive integer, got {value!r}")
    if value > sys.maxsize:  # found by tests/test_properties_api_fuzz.py: 2**64 raised OverflowError in the binding
        raise ValueError(f"{name} must be at most {sys.maxsize}, got {value!r}")
    return int(value)


def perl_measure_name(variant: str) -> str:
    """ROUGE-1.5.5's printed name of a variant (``rougeSU4`` → ``ROUGE-SU4``)."""
    if variant in ("rougeL", "rougeLsum"):
        return "ROUGE-L"
    return "ROUGE-" + variant[len("rouge"):]


def report(result, system: str = "X") -> str:
    """ROUGE-1.5.5.pl's report lines (``X ROUGE-1 Average_R: 0.41293 (95%-conf.int. … - …)``)."""
    if result.signature.get("preset") != "rouge155":
        raise ValueError("report() mirrors ROUGE-1.5.5.pl and needs preset='rouge155'")
    confidence = result.signature.get("c")
    lines = []
    for variant in result.variants:
        interval = result.intervals[variant]
        lines.append("-" * 45)
        for field, letter in (("recall", "R"), ("precision", "P"), ("fmeasure", "F")):
            mid, low, high = (getattr(getattr(interval, bound), field) for bound in ("mid", "low", "high"))
            lines.append(f"{system} {perl_measure_name(variant)} Average_{letter}: {mid:7.5f} "
                         f"({confidence}%-conf.int. {low:7.5f} - {high:7.5f})")
    return "\n".join(lines)


def signature_fields(names, stem, wordnet_exceptions, remove_stopwords, word_limit, byte_limit, multi_ref,
                     alpha, samples, confidence, eval_ids, nrefs) -> list:
    stem_name = ("porter155+wn2.0" if wordnet_exceptions else "porter155") if stem else "none"
    limit = f"l{word_limit}" if word_limit else (f"b{byte_limit}" if byte_limit else "none")
    percent = round(confidence * 100, 10)
    return [
        ("preset", "rouge155"),
        ("variants", ",".join(names)),
        ("tok", "rouge155"),
        ("stem", stem_name),
        ("stop", "smart" if remove_stopwords else "none"),
        ("limit", limit),
        ("nrefs", nrefs),
        ("multi_ref", multi_ref),
        ("alpha", repr(float(alpha))),
        ("r", str(samples)),
        ("c", f"{percent:g}"),
        ("ids", eval_ids),
    ]


VARIANT_155_RE = re.compile(r"^rouge(?:[1-9]|L|Lsum|W-.+|S\d+|SU\d+|S\*|SU\*)$")
