"""Writing the command's output: quietly into a closed pipe (a metric's own ``--sentence-level`` lines are its
class's ``sentence_lines``, e.g. sacreBLEU's BLEU)."""

from __future__ import annotations

import os
import sys

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
