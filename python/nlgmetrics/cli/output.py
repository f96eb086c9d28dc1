"""Writing the command's output: quietly into a closed pipe, and sacreBLEU's sentence-level BLEU lines."""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional

# What a shell reports for a process ended by SIGPIPE (128 + 13), as for sacreBLEU in `… | head`.
EXIT_BROKEN_PIPE = 141


MAX_DECIMALS = 17  # a float64 has 17 significant digits


def decimals(text: str) -> int:
    """``-w``/``--width``: a number of decimals from 0 to 17; anything else is argparse's clean error.

    >>> decimals("3")
    3
    >>> decimals("-3")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of decimals from 0 to 17, got '-3'
    """
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_DECIMALS:
        raise argparse.ArgumentTypeError(f"must be a whole number of decimals from 0 to {MAX_DECIMALS}, got {text!r}")
    return value


def print_output(output: str) -> int:
    """Prints ``output``; into a closed pipe (``… | head``) it ends quietly, as sacreBLEU does (it restores
    SIGPIPE's default action), with the status a shell reports for a process ended by SIGPIPE."""
    try:
        sys.stdout.write(output + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # Python's documented recipe: point stdout at devnull so the interpreter's final flush is silent.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0


def sentence_bleu_lines(result: Any, options: Dict[str, Any], width: int) -> Optional[List[str]]:
    """sacreBLEU's ``--sentence-level`` lines for a sacreBLEU-preset BLEU result: every segment's score in
    ``BLEUResult.format`` form with the signature (``BLEU|nrefs:1|…|eff:yes|… = 48.9 85.7/…``); None for
    the nltk and coco presets, whose results have no such form."""
    import dataclasses

    from nlgmetrics import _core
    from nlgmetrics.metrics.bleu.sacrebleu import _NEUMAIER_SUM

    if options.get("preset", "sacrebleu") != "sacrebleu":
        return None
    order = options.get("max_order", 4)
    smooth = options.get("smooth") or "exp"
    lines = []
    for row, score in zip(result.segment_stats.tolist(), result.segment_scores.tolist()):
        _, precisions, bp = _core.bleu_score_from_stats(row, order, smooth, options.get("smooth_value"),
                                                        True, None, _NEUMAIER_SUM)  # sentence_bleu's effective order
        sentence = dataclasses.replace(result, score=score, counts=tuple(row[2:2 + order]), totals=tuple(row[2 + order:]),
                                       precisions=tuple(precisions), bp=bp, sys_len=row[0], ref_len=row[1])
        lines.append(sentence.format(width=width, signature=True))
    return lines
