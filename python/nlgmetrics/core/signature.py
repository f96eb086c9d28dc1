"""Reproducibility signatures: a short string naming every option that changes a number.

The format follows sacreBLEU's ``key:value|key:value`` and always ends with our version, so a
table in a paper can be reproduced exactly.

>>> str(Signature("BLEU", (("preset", "sacrebleu"), ("nrefs", "1"), ("tok", "13a"))))
'BLEU|preset:sacrebleu|nrefs:1|tok:13a|version:nlgmetrics-0.1.0'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from nlgmetrics._core import __version__


@dataclass(frozen=True)
class Signature:
    """The metric name and its ordered ``(key, value)`` options."""

    metric: str
    fields: Tuple[Tuple[str, str], ...]

    def get(self, key: str) -> str:
        """The value recorded for ``key`` (KeyError when absent)."""
        for name, value in self.fields:
            if name == key:
                return value
        raise KeyError(key)

    def to_dict(self) -> dict:
        return {"metric": self.metric, **dict(self.fields), "version": f"nlgmetrics-{__version__}"}

    def __str__(self) -> str:
        parts = [self.metric] + [f"{key}:{value}" for key, value in self.fields]
        parts.append(f"version:nlgmetrics-{__version__}")
        return "|".join(parts)


def nrefs_field(ref_counts) -> str:
    """sacreBLEU's ``nrefs``: the number of references per segment, ``var`` when it varies, ``0`` for no segments.

    >>> nrefs_field([1]), nrefs_field([1, 2]), nrefs_field([])
    ('1', 'var', '0')
    """
    counts = set(ref_counts)
    return str(counts.pop()) if len(counts) == 1 else ("var" if counts else "0")
