"""Columns in: pandas / polars Series, PyArrow (chunked) arrays and NumPy arrays as metric inputs.

In-memory columns are an input type like lists, so they are read in ``nlgmetrics.core.columns`` (see its
docstring: ``text_batch``, ``TextBatch``, the ``nulls=`` policy); this module keeps those names importable from
``nlgmetrics.io.columns``. ``nlgmetrics.io`` depends on ``core``, never back.
"""

from __future__ import annotations

from nlgmetrics.core.columns import (
    NULLS,
    TextBatch,
    column_strings,
    is_column,
    is_columnar,
    joined_index,
    list_batch,
    pandas_index,
    reference_counts,
    reference_lists,
    text_batch,
)

__all__ = ["NULLS", "TextBatch", "text_batch", "is_column", "is_columnar", "reference_counts", "column_strings",
           "reference_lists", "list_batch", "pandas_index", "joined_index"]
