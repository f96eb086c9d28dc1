"""Compact HTML tables for results shown in a notebook (Jupyter calls ``_repr_html_``).

``result_table_html`` is the table every result's ``_repr_html_`` (``nlgmetrics.core.result.Result``) returns:
the metric's name, its scores (name → number), and the signature under it.

>>> print(result_table_html("BLEU", {"score": 36.865419801, "bp": 1.0}, "BLEU|nrefs:1|version:x"))
<table class="nlgmetrics-result" style="border-collapse:collapse"><caption style="text-align:left;font-weight:600">BLEU</caption><tbody><tr><th style="text-align:left;padding:2px 8px">score</th><td style="text-align:right;padding:2px 8px;font-variant-numeric:tabular-nums">36.8654</td></tr><tr><th style="text-align:left;padding:2px 8px">bp</th><td style="text-align:right;padding:2px 8px;font-variant-numeric:tabular-nums">1.0000</td></tr></tbody><tfoot><tr><td colspan="2" style="font-family:monospace;font-size:85%;color:#555;padding:2px 8px">BLEU|nrefs:1|version:x</td></tr></tfoot></table>
"""

from __future__ import annotations

import math
from html import escape
from numbers import Number
from typing import Any, Mapping, Optional

import numpy as np

_CELL = "padding:2px 8px"


def _format(value: Any, decimals: int) -> str:
    if isinstance(value, bool) or not isinstance(value, Number):
        return escape(str(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)  # type: ignore[arg-type]  # a Number that is not an int: float() takes it
    return "nan" if math.isnan(value) else f"{value:.{decimals}f}"


def result_table_html(name: str, scores: Mapping[str, Any], signature: Optional[Any] = None, decimals: int = 4) -> str:
    """A two-column table (score name, value) captioned ``name``, with the signature as its footer.

    Numbers show ``decimals`` digits, integers as they are; lists (e.g. BLEU's precisions) are joined by
    ``/``. Inline styles only, so it reads the same in Jupyter, VS Code and exported HTML.
    """
    rows = []
    for key, value in scores.items():
        if isinstance(value, (list, tuple)):
            shown = "/".join(_format(v, 1) for v in value)
        else:
            shown = _format(value, decimals)
        rows.append(f'<tr><th style="text-align:left;{_CELL}">{escape(str(key))}</th>'
                    f'<td style="text-align:right;{_CELL};font-variant-numeric:tabular-nums">{shown}</td></tr>')
    footer = ""
    if signature is not None:
        footer = (f'<tfoot><tr><td colspan="2" style="font-family:monospace;font-size:85%;color:#555;{_CELL}">'
                  f"{escape(str(signature))}</td></tr></tfoot>")
    return (f'<table class="nlgmetrics-result" style="border-collapse:collapse">'
            f'<caption style="text-align:left;font-weight:600">{escape(name)}</caption>'
            f"<tbody>{''.join(rows)}</tbody>{footer}</table>")
