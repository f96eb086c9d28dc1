"""Tables in and out, in batches: Parquet, JSONL, CSV and TSV read with PyArrow's streaming readers
(``-`` reads JSONL from standard input), and written atomically (a temporary file renamed when whole).

Errors are one line naming the file, the column and, where known, the row (rows count from 1, the
header of a CSV/TSV file not counted), raised as ``TableError`` (a ``ValueError``). A folder of part files is
read file by file (``table_files``).

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "in.jsonl")
>>> _ = open(path, "w").write('{"hyp": "a cat", "ref": "the cat"}\\n{"hyp": "a dog", "ref": "a dog"}\\n')
>>> [batch.num_rows for batch in read_batches(path, ["hyp", "ref"])]
[2]
>>> with TableWriter(os.path.join(folder, "out.csv")) as writer:
...     for batch in read_batches(path, ["hyp", "ref"]):
...         writer.write(batch.append_column("score", pa.array([0.5, 1.0])))
>>> print(open(os.path.join(folder, "out.csv")).read().strip())
"hyp","ref","score"
"a cat","the cat",0.5
"a dog","a dog",1
>>> next(read_batches(path, ["hyp", "reference"]))  # doctest: +ELLIPSIS
Traceback (most recent call last):
nlgmetrics.io.tabular.TableError: ...in.jsonl: no column 'reference' (columns: hyp, ref)
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from typing import IO, Any, Iterator, List, Optional, Sequence, Tuple

try:
    import pyarrow as pa
except ImportError:  # pragma: no cover - the score command names the extra to install
    pa = None

__all__ = ["TableError", "FORMATS", "table_format", "table_files", "list_files", "read_batches", "TableWriter",
           "check_text_column", "check_columns", "one_line"]

#: File extensions and the format each means.
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl",
           ".csv": "csv", ".tsv": "tsv"}
#: Rows per batch: enough to keep every core busy, small enough to bound memory.
BATCH_ROWS = 65_536
#: Bytes a Parquet column chunk is read in (0 would read each chunk whole).
PARQUET_BUFFER_BYTES = 1 << 20


class TableError(ValueError):
    """A table the user named cannot be read or written; the message names the file, column and row."""


def _require_pyarrow() -> None:
    if pa is None:
        raise TableError("reading tables needs pyarrow: pip install pyarrow")


def table_format(path: str, format: Optional[str] = None) -> str:
    """``parquet``, ``jsonl``, ``csv`` or ``tsv``: ``format`` if given, else from the extension (``-``: JSONL)."""
    if format is not None:
        if format not in set(FORMATS.values()):
            raise TableError(f"unknown table format {format!r}; expected parquet, jsonl, csv or tsv")
        return format
    if path == "-":
        return "jsonl"
    extension = os.path.splitext(path)[1].lower()
    if extension not in FORMATS:
        raise TableError(f"{path}: cannot tell the format from the extension {extension or '(none)'!r}; "
                         "use .parquet, .jsonl, .csv or .tsv")
    return FORMATS[extension]


def read_batches(path: str, columns: Sequence[str], *, format: Optional[str] = None,
                 batch_rows: int = BATCH_ROWS, all_columns: bool = False) -> Iterator["pa.RecordBatch"]:
    """The rows of a table in batches, with the ``columns`` checked present (and every other column too
    when ``all_columns``, e.g. to copy the input rows to ``--output``)."""
    _require_pyarrow()
    kind = table_format(path, format)
    name = "<stdin>" if path == "-" else path
    try:
        batches = _open(path, kind, columns, batch_rows, all_columns, name)
        for batch in batches:
            yield batch
    except TableError:
        raise
    except FileNotFoundError:
        raise TableError(f"cannot read {name}: no such file") from None
    except OSError as error:
        raise TableError(f"cannot read {name}: {error.strerror or one_line(error)}") from None
    except (pa.ArrowInvalid, pa.ArrowException, ValueError) as error:
        line = _bad_line(path, kind) if path != "-" and kind != "parquet" else None
        # PyArrow counts rows from the start of its 1 MiB block (JSONL) or not at all (CSV): the line is found again
        where, message = "", one_line(error)
        if line:
            where, message = f" (line {line:,} of the file)", re.sub(r"\.? in row \d+$", "", message)
        raise TableError(f"{name}: cannot read it as {kind}{where}: {message}") from None
    except RecursionError:
        raise TableError(f"{name}: a value is nested too deeply to read") from None


def _bad_line(path: str, kind: str) -> Optional[int]:
    """The 1-based line of a JSONL/CSV/TSV file where PyArrow's reader failed, found by reading it again in Python
    (an error path only): JSONL, the first line that is not a JSON object or whose key changes type (a string, then a
    number); CSV/TSV, the first row with another number of fields than the header. None when none is found."""
    import csv

    try:
        with open(path, encoding="utf-8", newline="") as handle:
            if kind == "jsonl":
                kinds: dict = {}
                for number, line in enumerate(handle, 1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                    except (ValueError, RecursionError):
                        return number
                    if not isinstance(row, dict):
                        return number
                    for key, value in row.items():
                        family = "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__
                        if value is not None and kinds.setdefault(key, family) != family:
                            return number
                return None
            if kind == "tsv":
                reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
            else:
                reader = csv.reader(handle, delimiter=",", quoting=csv.QUOTE_MINIMAL)
            header = next(reader, None)
            for row in reader:
                if header is not None and len(row) != len(header):
                    return reader.line_num
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return None


def table_files(path: str, format: Optional[str] = None) -> List[str]:
    """The tables ``path`` names: itself, or for a folder (what Spark, Dask and Ray write) its data files, read
    recursively in path order, skipping names that start with ``.`` or ``_`` (``_SUCCESS``, ``.crc`` files).
    Each file's format is ``format``, or its extension's.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("part-1.jsonl", "part-0.jsonl", "_SUCCESS"):
    ...     _ = open(os.path.join(folder, name), "w").write("")
    >>> [os.path.basename(name) for name in table_files(folder)]
    ['part-0.jsonl', 'part-1.jsonl']
    """
    if path == "-" or not os.path.isdir(path):
        return [path]
    files = list_files(path)[1]
    for name in files:
        table_format(name, format)  # every file's format is known before any is read
    return files


def list_files(paths: Any, filesystem: Any = None) -> Tuple[Any, List[str]]:
    """The filesystem and the data files ``paths`` names, in order (a directory's files sorted by path)."""
    from pyarrow import fs

    if not isinstance(paths, (str, os.PathLike, list, tuple)):
        raise TypeError(f"paths must be a path or a list of paths, got {type(paths).__name__} "
                        "(a DataFrame or Dataset is scored by score(), not score_parquet())")
    named = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not named:
        raise TableError("no Parquet paths given")
    files: List[str] = []
    given = filesystem
    for path in named:
        path = os.fspath(path)
        if not isinstance(path, str):
            raise TypeError(f"paths must be strings or path-like, got {type(path).__name__}")
        here, inner = _filesystem_of(path, given)
        if filesystem is None:
            filesystem = here
        elif here is not filesystem and here.type_name != filesystem.type_name:
            raise TableError(f"{path}: on another filesystem ({here.type_name}) than the first path "
                             f"({filesystem.type_name}); score them separately")
        info = filesystem.get_file_info(inner)
        if info.type == fs.FileType.NotFound:
            raise TableError(f"cannot read {path}: no such file or directory")
        if info.type == fs.FileType.Directory:
            if isinstance(filesystem, fs.LocalFileSystem):
                found = _local_files(inner)
            else:
                found = sorted(entry.path for entry in filesystem.get_file_info(fs.FileSelector(inner, recursive=True))
                               if entry.type == fs.FileType.File and not _hidden(entry.path, inner))
            if not found:
                raise TableError(f"{path}: a directory without data files")
            files.extend(found)
        else:
            files.append(inner)
    return filesystem, files


def _local_files(folder: str) -> List[str]:
    """A local folder's data files, sorted by path. Symbolic links to folders are not followed (a link to a parent
    made a file read 41 times, two such links never finished listing); a link to a file is read as that file. A
    FIFO, socket or device would block or never end: TableError naming it."""
    import stat

    found = []
    for here, folders, names in os.walk(folder, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith((".", "_")))
        for name in names:
            path = os.path.join(here, name)
            if name.startswith((".", "_")):
                continue
            try:
                mode = os.stat(path).st_mode
            except OSError:
                raise TableError(f"cannot read {path}: a broken link or an unreadable file") from None
            if stat.S_ISDIR(mode):
                continue  # a link to a folder: not followed
            if not stat.S_ISREG(mode):
                raise TableError(f"{path}: not a regular file (a FIFO, socket or device), which could block for ever; "
                                 "remove it from the folder or name the files to read")
            found.append(path)
    return sorted(found)


def _filesystem_of(path: str, filesystem: Any) -> Tuple[Any, str]:
    from pyarrow import fs

    if filesystem is not None:
        return filesystem, path
    if "://" in path:
        try:
            return fs.FileSystem.from_uri(path)
        except (ValueError, OSError) as error:  # ArrowInvalid is a ValueError
            raise TableError(f"{path}: {one_line(error)}") from None
    return fs.LocalFileSystem(), os.path.abspath(path)


def _hidden(path: str, directory: str) -> bool:
    relative = path[len(directory):].lstrip("/")
    return any(part.startswith((".", "_")) for part in relative.split("/"))


def one_line(error: BaseException) -> str:
    """An error's message on one line (PyArrow's run over several)."""
    return " ".join(str(error).split())


def check_columns(present: Sequence[str], wanted: Sequence[str], name: str) -> None:
    """TableError naming ``name`` and the first column of ``wanted`` not in ``present``, or present twice."""
    for column in dict.fromkeys(present):
        if list(present).count(column) > 1:
            raise TableError(f"{name}: the column {column!r} appears {list(present).count(column)} times in the header; "
                             "each column needs its own name")
    for column in wanted:
        if column not in present:
            raise TableError(f"{name}: no column {column!r} (columns: {', '.join(present)})")


def _open(path, kind, columns, batch_rows, all_columns, name) -> Iterator["pa.RecordBatch"]:
    if kind == "parquet":
        import pyarrow.parquet as pq

        try:
            # Memory that does not grow with the file: pre_buffer keeps every coalesced read alive; a 1 MiB
            # buffered stream reads a column chunk piece by piece instead of whole (see also io.memory).
            parquet = pq.ParquetFile(path, pre_buffer=False, buffer_size=PARQUET_BUFFER_BYTES)
        except pa.ArrowInvalid as error:
            raise TableError(f"{name}: not a readable Parquet file (truncated or not Parquet): {one_line(error)}") from None
        check_columns(parquet.schema_arrow.names, columns, name)
        wanted = None if all_columns else list(dict.fromkeys(columns))
        try:
            # One decoding thread: the scoring that follows keeps the cores busy, and threads add allocator arenas.
            yield from parquet.iter_batches(batch_size=batch_rows, columns=wanted, use_threads=False)
        except (pa.ArrowInvalid, OSError) as error:
            raise TableError(f"{name}: the Parquet data is damaged or truncated: {one_line(error)}") from None
        return
    if kind == "jsonl":
        import pyarrow.json as pj

        source = sys.stdin.buffer if path == "-" else path
        # Text columns stay strings whatever they look like; a block of ~1 MiB keeps memory bounded.
        parse = pj.ParseOptions(explicit_schema=None, newlines_in_values=False)
        reader = pj.open_json(source, read_options=pj.ReadOptions(block_size=1 << 20), parse_options=parse)
    else:
        import pyarrow.csv as pc

        parse = pc.ParseOptions(delimiter="\t" if kind == "tsv" else ",", quote_char=False if kind == "tsv" else '"',
                                newlines_in_values=kind == "csv")
        convert = pc.ConvertOptions(column_types={column: pa.string() for column in columns},
                                    strings_can_be_null=False, quoted_strings_can_be_null=False)
        reader = pc.open_csv(path, read_options=pc.ReadOptions(block_size=1 << 20), parse_options=parse,
                             convert_options=convert)
    check_columns(reader.schema.names, columns, name)
    pending, rows = [], 0
    for batch in reader:  # re-cut to ``batch_rows`` rows (the readers cut by bytes)
        pending.append(batch)
        rows += batch.num_rows
        if rows >= batch_rows:
            whole = _concat(pending)
            cut = rows - rows % batch_rows
            for start in range(0, cut, batch_rows):
                yield whole.slice(start, batch_rows)
            pending, rows = ([whole.slice(cut)], rows - cut) if rows > cut else ([], 0)
    if rows:
        yield _concat(pending)


def _concat(batches: list) -> "pa.RecordBatch":
    if len(batches) == 1:
        return batches[0]
    return pa.Table.from_batches(batches).combine_chunks().to_batches()[0]


def check_text_column(batch: "pa.RecordBatch", column: str, name: str, first_row: int, nulls: str = "error") -> None:
    """Raise TableError if ``column`` of ``batch`` does not hold strings or (with ``nulls="error"``) holds a null;
    ``first_row`` is the batch's first row in the file (0-based), so the message names the file's row."""
    values = batch.column(column)
    kind = values.type
    if pa.types.is_dictionary(kind):  # a categorical column (pandas' category, Spark's dictionary pages): its strings
        kind = kind.value_type
    text = pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)
    listed = (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and (
        pa.types.is_string(kind.value_type) or pa.types.is_large_string(kind.value_type))
    if not (text or listed or pa.types.is_null(kind)):
        raise TableError(f"{name}: column {column!r} holds {kind}, not strings")
    if nulls == "error" and values.null_count:
        row = first_row + values.is_null().to_numpy(zero_copy_only=False).argmax() + 1
        raise TableError(f"{name}: column {column!r} is null in row {row}")


def _current_umask() -> int:
    """The process's umask (read by setting it and setting it back: the only portable way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class TableWriter:
    """Writes record batches to ``path`` (Parquet, JSONL, CSV or TSV by extension) through a temporary
    file in the same folder, renamed onto ``path`` only when the ``with`` block ends without an error:
    a failed run never leaves a partial file that looks whole."""

    def __init__(self, path: str, format: Optional[str] = None):
        _require_pyarrow()
        self.path = path
        if os.path.isdir(path):
            raise TableError(f"cannot write {path}: it is a folder; name a file (.parquet, .jsonl, .csv or .tsv)")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise TableError(f"cannot write {path}: the folder {folder} does not exist")
        self.format = table_format(path, format)
        self._writer: Any = None  # a pyarrow ParquetWriter or CSVWriter, made at the first batch
        self._handle: IO[bytes]  # the temporary file, opened by __enter__
        self._temporary = ""
        self._rows = 0

    def __enter__(self) -> "TableWriter":
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            descriptor, self._temporary = tempfile.mkstemp(prefix=f".{os.path.basename(self.path)}.", suffix=".tmp",
                                                           dir=folder)
        except OSError as error:
            raise TableError(f"cannot write {self.path}: {error.strerror or error}") from None
        # mkstemp makes the file 0600; the file written should have the permissions any new file gets (the umask)
        os.fchmod(descriptor, 0o666 & ~_current_umask())
        self._handle = os.fdopen(descriptor, "wb")
        return self

    def write(self, batch: "pa.RecordBatch") -> None:
        if self.format == "jsonl":
            lines = (json.dumps(row, ensure_ascii=False) for row in batch.to_pylist())
            self._handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            return
        if self.format == "tsv":  # unquoted, as it is read: a tab or newline inside a value cannot be written
            self._write_tsv(batch)
            return
        if self._writer is None:
            if self.format == "parquet":
                import pyarrow.parquet as pq

                self._writer = pq.ParquetWriter(self._handle, batch.schema)
            else:
                import pyarrow.csv as pc

                options = pc.WriteOptions(delimiter="\t" if self.format == "tsv" else ",")
                self._writer = pc.CSVWriter(self._handle, batch.schema, write_options=options)
        self._writer.write_batch(batch)

    def _write_tsv(self, batch: "pa.RecordBatch") -> None:
        if self._rows == 0:
            self._handle.write(("\t".join(batch.schema.names) + "\n").encode("utf-8"))
        columns = [column.to_pylist() for column in batch.columns]
        lines: List[str] = []
        for values in zip(*columns):
            fields = ["" if value is None else repr(value) if isinstance(value, float) else str(value) for value in values]
            if any("\t" in field or "\n" in field or "\r" in field for field in fields):
                raise TableError(f"cannot write {self.path} as TSV: row {self._rows + len(lines) + 1} holds a tab, "
                                 "a newline or a carriage return; write .csv, .jsonl or .parquet")
            lines.append("\t".join(fields) + "\n")
        self._rows += len(lines)
        self._handle.write("".join(lines).encode("utf-8"))

    def __exit__(self, kind, error, traceback) -> None:
        try:
            if self._writer is not None:
                self._writer.close()
            self._handle.close()
            if kind is None:
                os.replace(self._temporary, self.path)
        finally:
            if os.path.exists(self._temporary):
                os.unlink(self._temporary)
