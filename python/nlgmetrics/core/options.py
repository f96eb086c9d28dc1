"""Option checks shared by every metric, and how a metric's options appear on the command line.

>>> check_threads(None), check_threads(2)
(None, 2)
>>> check_int(3, "max_order", 1, 100)
3
>>> check_int(0, "max_order", 1, 100)
Traceback (most recent call last):
...
ValueError: max_order must be between 1 and 100, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from nlgmetrics import _core


def check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def check_threads(threads: Any) -> Optional[int]:
    """``None`` (all cores) or a positive int."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, got {type(threads).__name__}")
    if not 1 <= threads <= _core.MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {_core.MAX_THREADS}, got {threads}")
    return int(threads)


def check_int(value: Any, name: str, low: int, high: int) -> int:
    """An int in ``[low, high]`` (TypeError / ValueError naming the option otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return int(value)


def check_number(value: Any, name: str, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite real number in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise ValueError(f"{name} must be a finite number between {low} and {high}, got {value}")
    return number


def check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"unknown {name} {value!r}; expected one of {', '.join(map(repr, choices))}")
    return value


@dataclass(frozen=True)
class CliOption:
    """One command-line flag of a metric's subcommand, mapped to the keyword option ``dest``.

    ``kind`` is ``"flag"`` (store_true), ``"int"``, ``"float"``, ``"str"`` or ``"list"`` (nargs='+').
    Options left at ``None`` are not passed, so the metric's own default applies.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> CliOption(("-tok", "--tokenize"), "tokenize", "str", help="tokenizer").add_to(parser)
    >>> vars(parser.parse_args(["-tok", "intl"]))
    {'tokenize': 'intl'}
    """

    flags: Tuple[str, ...]
    dest: str
    kind: str = "str"
    help: str = ""
    choices: Optional[Tuple[str, ...]] = None
    default: Any = None
    #: A value of the keyword option that differs from the flag's (e.g. ``--stem`` → ``stemmer=True``).
    extra: dict = field(default_factory=dict)

    def add_to(self, parser: Any) -> None:
        if self.kind == "flag":
            parser.add_argument(*self.flags, dest=self.dest, action="store_true", default=self.default, help=self.help)
            return
        kwargs: dict = {"dest": self.dest, "default": self.default, "help": self.help}
        if self.choices:
            kwargs["choices"] = list(self.choices)
        if self.kind == "list":
            kwargs["nargs"] = "+"
        elif self.kind in ("int", "float"):
            kwargs["type"] = int if self.kind == "int" else float
        parser.add_argument(*self.flags, **kwargs)
