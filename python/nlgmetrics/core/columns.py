"""Columns in: pandas / polars Series, PyArrow (chunked) arrays and NumPy arrays as metric inputs.

``text_batch`` turns a hypotheses column and references — one column of strings (one reference per
row), a list column (several per row), several columns, or a DataFrame / Table of reference columns —
into a ``TextBatch`` the Rust core reads. Arrow string data (PyArrow, polars, pandas' Arrow-backed
strings, NumPy ``str`` arrays) goes to the core as its offsets and data buffers, without a Python ``str``
per row; NumPy/pandas ``object`` columns and plain lists go as lists of ``str``.

Nulls (``None``/``NaN``/Arrow nulls) follow ``nulls=``:

- ``"error"`` (default): ``ValueError`` naming the column and the row;
- ``"empty"``: a null text counts as the empty string;
- ``"skip"``: rows whose hypothesis is null, or whose references are all null, are left out; null
  references of a kept row are dropped. ``TextBatch.rows`` lists the kept input rows.

>>> import pyarrow as pa
>>> batch = text_batch(pa.array(["the cat sat", "a dog"]), [pa.array(["the cat sat", "a dog ran"])])
>>> len(batch), batch.arrow, batch.reference_counts()
(2, True, [1, 1])
>>> batch.hypotheses_list(), batch.references_lists()
(['the cat sat', 'a dog'], [['the cat sat'], ['a dog ran']])
>>> text_batch(pa.array(["x", None]), pa.array(["x", "y"]))
Traceback (most recent call last):
ValueError: hypotheses[1] is null (nulls="empty" scores it as "", nulls="skip" leaves the row out: ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Tuple, Union

import numpy as np

from nlgmetrics import _core
from nlgmetrics.core import lists

__all__ = ["NULLS", "TextBatch", "text_batch", "is_column", "is_columnar", "reference_counts"]

#: How nulls are treated (see the module docstring).
NULLS = ("error", "empty", "skip")

_Hypotheses = Union[list, "_core.ArrowStrings"]
_References = Union[list, "_core.ArrowReferences"]


@dataclass(frozen=True)
class TextBatch:
    """Hypotheses and references as the core reads them: lists of str, or Arrow columns.

    ``rows`` holds the input row of each kept segment when ``nulls="skip"`` left rows out (else None).
    """

    hypotheses: _Hypotheses
    references: _References
    rows: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.hypotheses)

    @property
    def arrow(self) -> bool:
        """True when the hypotheses are read from Arrow buffers (no Python str per row)."""
        return isinstance(self.hypotheses, _core.ArrowStrings)

    def hypotheses_list(self) -> list[str]:
        hyps = self.hypotheses
        return hyps.to_list() if isinstance(hyps, _core.ArrowStrings) else hyps

    def references_lists(self) -> list[list[str]]:
        refs = self.references
        return refs.to_list() if isinstance(refs, _core.ArrowReferences) else refs

    def reference_counts(self) -> list[int]:
        refs = self.references
        return refs.counts() if isinstance(refs, _core.ArrowReferences) else [len(r) for r in refs]


def _pyarrow():
    try:
        import pyarrow
    except ImportError:  # pragma: no cover - every column type we accept but NumPy/pandas object needs it
        raise ImportError("reading Arrow, polars or pandas string columns needs pyarrow: pip install pyarrow") from None
    return pyarrow


def _module_of(value: Any) -> str:
    return type(value).__module__.split(".", 1)[0]


def is_column(value: Any) -> bool:
    """True for the column types this module reads (not for lists, tuples or str)."""
    return isinstance(value, np.ndarray) or _module_of(value) in ("pandas", "polars", "pyarrow")


def is_columnar(hypotheses: Any, references: Any) -> bool:
    """True when either argument is given as columns (then ``text_batch`` reads both)."""
    return is_column(hypotheses) or _reference_columns(references) is not None


def reference_counts(references: Any) -> list:
    """The number of references of each row (lists of lists; ``_core.ArrowReferences`` and
    ``core.lists.OneEach`` say it themselves)."""
    if hasattr(references, "counts"):
        return references.counts()
    return list(map(len, references))


def pandas_index(hypotheses: Any, references: Any, kept_rows: Optional[np.ndarray] = None) -> Any:
    """The pandas index of a batch's rows (the hypotheses' Series, else the references' Series or DataFrame),
    only the ``kept_rows`` under ``nulls="skip"``; None when neither is a pandas object.

    >>> import pandas as pd
    >>> list(pandas_index(pd.Series(["a", "b"], index=[7, 9]), ["a", "b"]))
    [7, 9]
    >>> pandas_index(["a"], ["a"]) is None
    True
    """
    for value in (hypotheses, references):
        if _module_of(value) == "pandas" and type(value).__name__ in ("Series", "DataFrame"):
            index = value.index
            return index[kept_rows] if kept_rows is not None else index
    return None


def joined_index(parts: list, n_rows: int) -> Any:
    """The batches' pandas indexes one after another, or None when a batch had none (or the rows differ)."""
    if not parts or any(part is None for part in parts):
        return None
    index = parts[0].append(list(parts[1:])) if len(parts) > 1 else parts[0]
    return index if len(index) == n_rows else None


def _column_name(value: Any, default: str) -> str:
    name = getattr(value, "name", None)
    return f"{default} ({name!r})" if isinstance(name, str) and name else default


# ---------------------------------------------------------------------------------------------
# One column: an Arrow string array, or a Python list of str / None.

def _as_arrow_or_list(value: Any, name: str):
    """A string-typed PyArrow Array, or a list of str/None (object data), or a list array (see below)."""
    module = _module_of(value)
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise TypeError(f"{name} must be a 1-D array, got {value.ndim} dimensions")
        if value.dtype.kind == "U":
            try:
                return _pyarrow().array(value, type=_pyarrow().large_string())
            except UnicodeDecodeError:  # a lone surrogate: say where, as for lists (never a raw codec error)
                raise ValueError(lists.surrogate_location(value.tolist(), [], name.split(" ")[0])) from None
        if value.dtype.kind in "OT":
            return value.tolist()
        raise TypeError(f"{name} must hold strings, got a NumPy array of dtype {value.dtype}")
    if module == "pandas":
        if getattr(value, "ndim", 1) != 1:
            raise TypeError(f"{name} must be a column (Series), got {type(value).__name__}")
        if value.dtype == object:
            return value.tolist()
        return _pyarrow().array(value)
    if module == "polars":
        return value.to_arrow()
    if module == "pyarrow":
        return value
    raise TypeError(f"{name} must be a sequence of strings or a column, got {type(value).__name__}")


def _string_array(array, name: str):
    """A pyarrow string or large_string Array (one chunk; views and dictionaries decoded)."""
    pa = _pyarrow()
    if isinstance(array, pa.ChunkedArray):
        if pa.types.is_string(array.type) and sum(c.nbytes for c in array.chunks) >= 2**31 - 1:
            array = array.cast(pa.large_string())  # int32 offsets cannot address more
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    kind = array.type
    if pa.types.is_dictionary(kind):
        array, kind = array.dictionary_decode(), kind.value_type
    if pa.types.is_string_view(kind):
        array = array.cast(pa.large_string())
    elif pa.types.is_null(kind):
        array = array.cast(pa.string())
    elif not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise TypeError(f"{name} must hold strings, got Arrow type {kind}")
    _check_arrow_lengths(array, name)
    return array


def _check_arrow_lengths(array, name: str) -> None:
    """The per-segment size limit of ``core.lists`` for Arrow strings (bytes first: cheap, and an upper bound)."""
    import pyarrow.compute as pc

    limit = lists.MAX_SEGMENT_CHARS
    if not len(array) or (pc.max(pc.binary_length(array)).as_py() or 0) <= limit:
        return
    lengths = pc.utf8_length(array).to_numpy(zero_copy_only=False)
    over = np.flatnonzero(np.nan_to_num(lengths.astype(np.float64)) > limit)
    if len(over):
        row = int(over[0])
        raise lists.segment_too_long(f"{name}[{row}]", int(lengths[row]))


def _is_null(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value) or type(value).__name__ == "NAType"


def _null_mask(array) -> np.ndarray:
    if isinstance(array, list):
        return np.fromiter((_is_null(v) for v in array), bool, len(array))
    if not array.null_count:
        return np.zeros(len(array), bool)
    return array.is_null().to_numpy(zero_copy_only=False)


def _arrow_strings(array) -> "_core.ArrowStrings":
    """The core's view of a null-free string/large_string array: its offsets and data buffers."""
    pa = _pyarrow()
    large = pa.types.is_large_string(array.type)
    dtype, width = (np.int64, 8) if large else (np.int32, 4)
    if len(array) == 0:
        return _core.ArrowStrings(np.zeros(1, dtype), np.zeros(0, np.uint8))
    _, offset_buffer, data_buffer = array.buffers()[:3]
    offsets: np.ndarray = np.frombuffer(offset_buffer, dtype, count=len(array) + 1, offset=array.offset * width)
    data = np.frombuffer(data_buffer, np.uint8) if data_buffer is not None and data_buffer.size else np.zeros(0, np.uint8)
    return _core.ArrowStrings(offsets, data)


def _check_texts(values: list, name: str) -> list:
    for index, value in enumerate(values):
        if not isinstance(value, str) and not _is_null(value):
            raise TypeError(f"{name}[{index}] must be str, got {type(value).__name__}")
    lists.check_segment_lengths([value for value in values if isinstance(value, str)], name)
    return values


# ---------------------------------------------------------------------------------------------
# References: columns, a list column, or Python lists.

def _is_list_array(value: Any) -> bool:
    if _module_of(value) != "pyarrow":
        return False
    pa = _pyarrow()
    kind = value.type
    return pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind) or \
        pa.types.is_list_view(kind) or pa.types.is_large_list_view(kind)


def _reference_columns(references: Any) -> Optional[list]:
    """The reference columns when ``references`` is column-shaped (else None: Python lists)."""
    module = _module_of(references)
    if module in ("pandas", "polars") and hasattr(references, "columns"):  # a DataFrame: one column each
        return [references[column] for column in references.columns]
    if module == "pyarrow" and hasattr(references, "column_names"):  # a Table / RecordBatch
        return [references.column(i) for i in range(references.num_columns)]
    if is_column(references):
        return [references]
    if isinstance(references, (list, tuple)) and references and all(is_column(r) for r in references):
        return list(references)
    return None


def _list_column(value: Any, name: str):
    """``(offsets int64, values string array)`` of a list-typed column (polars/pandas converted to Arrow)."""
    pa = _pyarrow()
    array = value.to_arrow() if _module_of(value) == "polars" else value
    if _module_of(array) == "pandas":
        array = pa.array(array)
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks() if array.num_chunks != 1 else array.chunk(0)
    if pa.types.is_list_view(array.type) or pa.types.is_large_list_view(array.type):
        array = array.cast(pa.large_list(array.type.value_type))
    if pa.types.is_fixed_size_list(array.type):
        size = array.type.list_size
        offsets = np.arange(len(array) + 1, dtype=np.int64) * size
        values = array.flatten()
    else:
        offsets = array.offsets.to_numpy().astype(np.int64)
        values = array.values
    return array, offsets, _string_array(values, f"{name} (list values)")


def _list_column_as_lists(array, name: str, nulls: str) -> list:
    """A list column with nulls, as Python lists (``None`` for a null row or reference)."""
    rows = array.to_pylist()
    if nulls == "error":
        for index, refs in enumerate(rows):
            if refs is None:
                raise ValueError(_null_message(f"{name}[{index}]"))
            for ref_index, ref in enumerate(refs):
                if ref is None:
                    raise ValueError(_null_message(f"{name}[{index}][{ref_index}]"))
    return [[None] if refs is None else refs for refs in rows]


def _null_message(where: str) -> str:
    return (f'{where} is null (nulls="empty" scores it as "", nulls="skip" leaves the row out: options of '
            "Metric.update, the score command and the Spark, Ray and Dask adapters)")


def column_strings(values: Any, name: str = "hypotheses") -> list:
    """One column (Series, Arrow array, NumPy array) as a list of str; nulls raise ValueError naming the row."""
    return list_batch(values, values, hypotheses_name=name)[0]


def reference_lists(references: Any, n_rows: int, name: str = "references") -> list:
    """Column-shaped references (see ``text_batch``) as one list of str per row."""
    return list_batch([""] * n_rows, references)[1]


def list_batch(hypotheses: Any, references: Any, hypotheses_name: str = "hypotheses") -> Tuple[list, list]:
    """``text_batch`` with ``arrow=False``: a list of str and one list of str per row."""
    batch = text_batch(hypotheses, references, arrow=False, hypotheses_name=hypotheses_name)
    assert isinstance(batch.hypotheses, list) and isinstance(batch.references, list)
    return batch.hypotheses, batch.references


def text_batch(hypotheses: Any, references: Any, *, nulls: str = "error", arrow: bool = True,
               hypotheses_name: str = "hypotheses") -> TextBatch:
    """Hypotheses and references (lists or columns) as a ``TextBatch``.

    ``arrow=False`` turns Arrow columns into lists of ``str`` (for metrics that preprocess text in Python,
    e.g. lowercasing). Raises TypeError for non-text columns, ValueError for nulls (``nulls="error"``) and
    for columns of different lengths; the messages name the column and the row.
    """
    if nulls not in NULLS:
        raise ValueError(f"nulls must be one of {', '.join(map(repr, NULLS))}, got {nulls!r}")
    hyp_name = _column_name(hypotheses, hypotheses_name)
    if is_column(hypotheses) and not _is_list_array(hypotheses):
        hyps = _as_arrow_or_list(hypotheses, hyp_name)
        hyps = _check_texts(hyps, hyp_name) if isinstance(hyps, list) else _string_array(hyps, hyp_name)
    else:
        hyps = lists.hypotheses_list(hypotheses)
    n_rows = len(hyps)

    columns = _reference_columns(references)
    list_column = None
    if columns is not None and len(columns) == 1 and _is_list_array(_arrow_of_list_candidate(columns[0])):
        list_column, columns = columns[0], None
    ref_cols: list = []
    ref_lists: Optional[list] = None
    ref_names: list[str] = []
    cell_lists = _object_cell_lists(columns[0]) if columns is not None and len(columns) == 1 else None
    if cell_lists is not None and columns is not None:
        # An object column whose cells are lists / tuples / NumPy arrays of references (what pd.read_json,
        # pd.read_parquet and datasets' to_pandas() give): read like the list of lists.
        name = _column_name(columns[0], "references")
        _check_rows(len(cell_lists), n_rows, name)
        ref_lists, ref_names = _checked_cell_lists(cell_lists, name, nulls), [name]
    elif list_column is not None:
        name = _column_name(list_column, "references")
        array, offsets, values = _list_column(list_column, name)
        _check_rows(len(array), n_rows, name)
        if array.null_count or values.null_count:
            ref_lists = _list_column_as_lists(array, name, nulls)
            ref_names = [name]
        else:
            ref_cols = [("list", offsets, values)]
    elif columns is not None:
        for index, column in enumerate(columns):
            name = _column_name(column, f"references column {index}" if len(columns) > 1 else "references")
            values = _as_arrow_or_list(column, name)
            values = _check_texts(values, name) if isinstance(values, list) else _string_array(values, name)
            _check_rows(len(values), n_rows, name)
            ref_cols.append(values)
            ref_names.append(name)
    else:
        ref_lists = lists.references_lists(references, n_rows)

    return _resolve(hyps, hyp_name, ref_cols, ref_names, ref_lists, nulls, arrow)


def _arrow_of_list_candidate(column: Any):
    """``column`` as something `_is_list_array` can judge (polars and pandas list columns via Arrow)."""
    module = _module_of(column)
    if module == "polars" and type(column).__name__ == "Series" and column.dtype.__class__.__name__ in ("List", "Array"):
        return column.to_arrow()
    if module == "pandas" and type(column).__name__ == "Series" and column.dtype != object:
        dtype = getattr(column.dtype, "pyarrow_dtype", None)
        if dtype is not None and _pyarrow().types.is_list(dtype):
            return _pyarrow().array(column)
    return column


_SEQUENCE_CELLS = (list, tuple, np.ndarray)


def _object_cell_lists(column: Any) -> Optional[list]:
    """The cells of a pandas/NumPy ``object`` column as a list when any cell is a list, tuple or NumPy array
    (several references in one cell), else None (a column of strings).

    >>> import pandas as pd
    >>> _object_cell_lists(pd.Series([["a", "b"], ("c",)]))
    [['a', 'b'], ('c',)]
    >>> _object_cell_lists(pd.Series(["a", "b"])) is None
    True
    """
    if _module_of(column) == "pandas" and type(column).__name__ == "Series" and column.dtype == object:
        cells = column.tolist()
    elif isinstance(column, np.ndarray) and column.ndim == 1 and column.dtype == object:
        cells = column.tolist()
    else:
        return None
    return cells if any(isinstance(cell, _SEQUENCE_CELLS) for cell in cells) else None


def _checked_cell_lists(cells: list, name: str, nulls: str) -> list:
    """Cells (a str, a sequence of str, or null) as lists of str (``None`` for a null, as a list column with
    nulls gives them); a bad cell raises naming its row (and its place in the row)."""
    rows: list = []
    for index, cell in enumerate(cells):
        if isinstance(cell, str):
            rows.append([str(cell)])
            continue
        if _is_null(cell):
            if nulls == "error":
                raise ValueError(_null_message(f"{name}[{index}]"))
            rows.append([None])
            continue
        if not isinstance(cell, _SEQUENCE_CELLS):
            raise TypeError(f"{name}[{index}] must be a str or a list of str, got {type(cell).__name__}")
        if isinstance(cell, np.ndarray) and cell.ndim != 1:
            raise TypeError(f"{name}[{index}] must be a 1-D array of str, got {cell.ndim} dimensions")
        refs: list = []
        for ref_index, ref in enumerate(cell.tolist() if isinstance(cell, np.ndarray) else cell):
            if _is_null(ref):
                if nulls == "error":
                    raise ValueError(_null_message(f"{name}[{index}][{ref_index}]"))
                refs.append(None)
            elif isinstance(ref, str):
                refs.append(str(ref))
            else:
                raise TypeError(f"{name}[{index}][{ref_index}] must be str, got {type(ref).__name__}")
        if not refs and nulls != "skip":
            raise ValueError(f"{name}[{index}] is empty: every hypothesis needs at least one reference")
        rows.append(refs or [None])
    lists.check_reference_lengths([[r for r in refs if r is not None] for refs in rows], name)
    return rows


def _check_rows(rows: int, expected: int, name: str) -> None:
    if rows != expected:
        raise ValueError(f"{name} has {rows} rows but there are {expected} hypotheses")


def _resolve(hyps, hyp_name, ref_cols, ref_names, ref_lists, nulls, arrow) -> TextBatch:  # noqa: C901
    """Applies the null policy and builds the core's objects."""
    n_rows = len(hyps)
    hyp_null = _null_mask(hyps)
    col_nulls = [np.zeros(n_rows, bool) if isinstance(c, tuple) else _null_mask(c) for c in ref_cols]
    list_nulls = None
    if ref_lists is not None and ref_names:  # a list column with nulls (None rows are [] here)
        list_nulls = [[_is_null(r) for r in refs] for refs in ref_lists]
    if nulls == "error":
        if hyp_null.any():
            raise ValueError(_null_message(f"{hyp_name}[{int(np.argmax(hyp_null))}]"))
        for name, mask in zip(ref_names, col_nulls):
            if mask.any():
                raise ValueError(_null_message(f"{name}[{int(np.argmax(mask))}]"))
    keep = None
    if nulls == "skip":
        all_refs_null = np.ones(n_rows, bool)
        for mask in col_nulls:
            all_refs_null &= mask
        if list_nulls is not None:
            all_refs_null = np.array([bool(row) and all(row) for row in list_nulls], bool)
        elif not ref_cols:
            all_refs_null[:] = False
        drop = hyp_null | all_refs_null
        if drop.any():
            keep = np.flatnonzero(~drop)
    plain_refs = ref_lists is not None or (nulls == "skip" and any(m.any() for m in col_nulls) and len(ref_cols) > 1)
    hypotheses = _finish_column(hyps, hyp_null, keep, arrow)
    references: _References
    if plain_refs:
        references = _plain_references(ref_cols, ref_lists, col_nulls, list_nulls, keep, nulls)
    elif ref_cols and isinstance(ref_cols[0], tuple):
        _, offsets, values = ref_cols[0]
        if keep is not None:
            references = _plain_references([], [r for r in _list_rows(offsets, values)], [], None, keep, nulls)
        elif arrow:
            references = _core.ArrowReferences.from_lists(offsets, _arrow_strings(values))
        else:
            references = _core.ArrowReferences.from_lists(offsets, _arrow_strings(values)).to_list()
    else:
        finished = [_finish_column(c, m, keep, arrow) for c, m in zip(ref_cols, col_nulls)]
        if all(isinstance(c, _core.ArrowStrings) for c in finished):
            references = _core.ArrowReferences.from_columns(finished)
        else:
            finished = [c.to_list() if isinstance(c, _core.ArrowStrings) else c for c in finished]
            references = [list(refs) for refs in zip(*finished)] if finished else []
    return TextBatch(hypotheses, references, keep)


def _list_rows(offsets, values) -> list:
    texts = _arrow_strings(values).to_list()
    return [texts[start:end] for start, end in zip(offsets[:-1], offsets[1:])]


def _finish_column(column, mask: np.ndarray, keep, arrow: bool):
    """Nulls filled with "" (they are dropped rows under "skip", or absent under "error"), rows kept."""
    if isinstance(column, list):
        values = ["" if null else value for value, null in zip(column, mask)] if mask.any() else column
        return [values[i] for i in keep] if keep is not None else values
    pa = _pyarrow()
    if mask.any():
        column = column.fill_null("")
    if keep is not None:
        column = column.take(pa.array(keep))
    return _arrow_strings(column) if arrow else column.to_pylist()


def _plain_references(ref_cols, ref_lists, col_nulls, list_nulls, keep, nulls) -> list:
    """References as Python lists; under "skip" null references are dropped, under "empty" they are ""."""
    if ref_lists is None:
        texts = [c if isinstance(c, list) else c.to_pylist() for c in ref_cols]
        ref_lists = [list(refs) for refs in zip(*texts)]
    rows = range(len(ref_lists)) if keep is None else keep
    if nulls == "skip":
        return [[r for r in ref_lists[i] if not _is_null(r)] for i in rows]
    return [["" if _is_null(r) else r for r in ref_lists[i]] for i in rows]
