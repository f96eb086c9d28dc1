//! Python lists of text as a segment metric's batch, checked in the pass that borrows the strs.
//!
//! `core.lists` used to walk the lists several times in Python before Rust read them (types, shapes, empty
//! reference sets, the segment length limit, sacreBLEU's ambiguous stream layout, lone surrogates). Here every
//! one of those checks happens while the items are read, with the messages `core.lists` gives (argument and
//! index), in the same order of precedence:
//!
//! 1. the hypotheses: not a sequence, an item that is not a str, then an item over the length limit;
//! 2. the references: not a sequence, the wrong number of entries, then entry by entry an entry that is not a
//!    str or a sequence of str, an empty entry, a reference that is not a str; then a reference over the limit;
//! 3. sacreBLEU's stream layout read two ways (`core.lists.check_not_streams`), where the metric refuses it;
//! 4. a lone surrogate (a str with no UTF-8 form), hypotheses first.
//!
//! The batch is then scored in pieces of at least `rows_per_call` rows (growing to about 0.1 s of work each),
//! the GIL released for each piece and Python's signal handlers run between pieces, so Ctrl-C stops a long call
//! within a fraction of a second, while the rows go into one buffer (no slicing of the lists, no joining).

use std::time::{Duration, Instant};

use numpy::{Element, IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::error::{Error, Result};
use crate::metrics::segment::{fill_rows_into, segment_scores, Refs, SegmentMetric};

use super::arrays::matrix;
use super::strings::borrow_str;
use super::threads::run_kernel;

/// What the caller's Python layer decides about a batch of lists.
pub(crate) struct ListRules {
    /// Longest text accepted, in characters (`core.lists.MAX_SEGMENT_CHARS`).
    pub max_chars: usize,
    /// Refuse references shaped like sacreBLEU's streams when they read two ways (sacreBLEU's metrics).
    pub refuse_streams: bool,
}

/// The name of an object's type, as Python's `type(value).__name__`.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|name| name.to_string()).unwrap_or_default()
}

/// `n` with thousands separators, as Python's `f"{n:,}"`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `core.lists.segment_too_long`: the error for a text over the limit.
pub(crate) fn segment_too_long(place: &str, length: usize, limit: usize) -> PyErr {
    PyValueError::new_err(format!(
        "{place} has {} characters, more than the limit of {} per segment (the super-linear metrics would take \
         minutes and gigabytes); split it, or set NLGMETRICS_MAX_SEGMENT_CHARS to raise the limit",
        thousands(length),
        thousands(limit)
    ))
}

/// The length of a str in characters (code points), as Python's `len`; O(1).
fn char_length(text: &Bound<'_, PyString>) -> usize {
    // SAFETY: `text` is a live str; PyUnicode_GetLength only reads its cached length.
    unsafe { ffi::PyUnicode_GetLength(text.as_ptr()) }.max(0) as usize
}

/// The items of a list or tuple (owned), else of any other iterable; `Err(None)` when it is not iterable
/// (or its iteration raised TypeError, which Python's `list(value)` reports the same way).
fn items<'py>(value: &Bound<'py, PyAny>) -> std::result::Result<Vec<Bound<'py, PyAny>>, Option<PyErr>> {
    if let Ok(list) = value.downcast_exact::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = value.downcast_exact::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    let py = value.py();
    let not_iterable = |error: PyErr| if error.is_instance_of::<PyTypeError>(py) { None } else { Some(error) };
    value.try_iter().map_err(not_iterable)?.collect::<PyResult<_>>().map_err(not_iterable)
}

/// The first item (index and length) over `limit` characters, if any.
fn first_too_long<'a, 'py: 'a>(
    texts: impl Iterator<Item = &'a Bound<'py, PyString>>,
    limit: usize,
) -> Option<(usize, usize)> {
    texts.map(char_length).enumerate().find(|&(_, length)| length > limit)
}

/// A batch of Python lists, every text a str held (so it stays alive while the GIL is released).
pub(crate) struct ListBatch<'py> {
    hypotheses: Vec<Bound<'py, PyString>>,
    /// Every reference, row after row; row `i` is `references[ends[i - 1]..ends[i]]`.
    references: Vec<Bound<'py, PyString>>,
    ends: Vec<usize>,
    /// The references were a list of str, one per hypothesis (kept as given: `core.lists.OneEach`).
    one_string_each: bool,
}

impl<'py> ListBatch<'py> {
    /// Reads and checks `hypotheses` and `references` (rules 1–3 of the module docs).
    pub(crate) fn read(
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        rules: &ListRules,
    ) -> PyResult<Self> {
        let hypotheses = read_hypotheses(hypotheses, rules.max_chars, "hypotheses")?;
        let (entries, references_read, ends) =
            read_references(references, hypotheses.len(), rules.max_chars, "references")?;
        let one_string_each = is_one_string_each(references, &entries);
        if rules.refuse_streams {
            check_not_streams(&entries, &references_read, &ends, "references")?;
        }
        Ok(Self { hypotheses, references: references_read, ends, one_string_each })
    }

    /// The references of row `index`.
    fn row(&self, index: usize) -> &[Bound<'py, PyString>] {
        row(&self.references, &self.ends, index)
    }

    /// New lists of the batch: the hypotheses, and one list of references per hypothesis, or None when the
    /// references were a list of str (the caller's list reads the same).
    fn lists(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyList>, Option<Bound<'py, PyList>>)> {
        let hyps = PyList::new(py, &self.hypotheses)?;
        let refs = match self.one_string_each {
            true => None,
            false => Some(row_lists(py, &self.references, &self.ends)?),
        };
        Ok((hyps, refs))
    }

    /// The number of references of each distinct size (the sizes, ascending).
    pub(crate) fn reference_counts(&self) -> Vec<usize> {
        let mut counts: Vec<usize> = (0..self.ends.len()).map(|index| self.row(index).len()).collect();
        counts.sort_unstable();
        counts.dedup();
        counts
    }

    /// The texts as UTF-8, borrowed: the hypotheses and every reference row after row (cut into rows by
    /// [`Self::rows`]); a lone surrogate raises ValueError naming the first (hypotheses first).
    pub(crate) fn borrow(&self) -> PyResult<(Vec<&str>, Vec<&str>)> {
        let surrogate = |place: String| {
            PyValueError::new_err(format!("{place} contains a lone surrogate code point and is not valid Unicode text"))
        };
        let none = String::new;
        let mut hypotheses = Vec::with_capacity(self.hypotheses.len());
        for (index, text) in self.hypotheses.iter().enumerate() {
            hypotheses.push(borrow_str(text.as_any(), &none).map_err(|_| surrogate(format!("hypotheses[{index}]")))?);
        }
        let mut references = Vec::with_capacity(self.references.len());
        for index in 0..self.ends.len() {
            for (ref_index, text) in self.row(index).iter().enumerate() {
                references.push(
                    borrow_str(text.as_any(), &none)
                        .map_err(|_| surrogate(format!("references[{index}][{ref_index}]")))?,
                );
            }
        }
        Ok((hypotheses, references))
    }

    /// The references of each hypothesis as slices of `flat` (all of them in [`Self::borrow`]'s order): one
    /// allocation, not one per row.
    fn rows<'a, 'b>(&self, flat: &'b [&'a str]) -> Vec<&'b [&'a str]> {
        (0..self.ends.len()).map(|index| row(flat, &self.ends, index)).collect()
    }
}

/// Where row `index` starts among rows stored one after another, row `i` ending at `ends[i]`.
fn row_start(ends: &[usize], index: usize) -> usize {
    if index == 0 {
        0
    } else {
        ends[index - 1]
    }
}

/// Row `index` of rows stored one after another, row `i` ending at `ends[i]`.
fn row<'a, T>(flat: &'a [T], ends: &[usize], index: usize) -> &'a [T] {
    &flat[row_start(ends, index)..ends[index]]
}

/// A new list of one new list of strs per row.
fn row_lists<'py>(py: Python<'py>, flat: &[Bound<'py, PyString>], ends: &[usize]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, (0..ends.len()).map(|index| PyList::new(py, row(flat, ends, index))).collect::<PyResult<Vec<_>>>()?)
}

/// Whether `references` was a list (exactly) of str (exactly), one per hypothesis: `core.lists.OneEach`'s shape.
fn is_one_string_each(references: &Bound<'_, PyAny>, entries: &[Bound<'_, PyAny>]) -> bool {
    references.is_exact_instance_of::<PyList>() && entries.iter().all(|entry| entry.is_exact_instance_of::<PyString>())
}

/// `core.lists.check_not_streams`: as many lists (exactly lists) of references as hypotheses, each as long as
/// there are hypotheses, whose transpose differs (sacreBLEU's reading would give other reference sets).
fn check_not_streams(
    entries: &[Bound<'_, PyAny>],
    flat: &[Bound<'_, PyString>],
    ends: &[usize],
    name: &str,
) -> PyResult<()> {
    let n = entries.len();
    if n < 2 || !entries.iter().all(|entry| entry.is_exact_instance_of::<PyList>()) {
        return Ok(());
    }
    if !(0..n).all(|index| row(flat, ends, index).len() == n) {
        return Ok(());
    }
    for i in 0..n {
        for j in 0..n {
            if !PyAnyMethods::eq(row(flat, ends, i)[j].as_any(), &row(flat, ends, j)[i])? {
                return Err(PyValueError::new_err(format!(
                    "{name} is ambiguous: {n} hypotheses and {n} lists of {n} references. nlgmetrics reads \
                     {name}[i] as the references of hypothesis i, sacreBLEU reads {name}[k] as reference stream k \
                     (one line per hypothesis). For sacreBLEU's streams pass list(zip(*streams)); for \
                     per-hypothesis references pass each hypothesis's list as a tuple"
                )));
            }
        }
    }
    Ok(())
}

/// `core.lists.hypotheses_list`'s checks: a sequence (not a str) of str, none over `limit` characters; the
/// errors name the argument `name`.
fn read_hypotheses<'py>(
    hypotheses: &Bound<'py, PyAny>,
    limit: usize,
    name: &str,
) -> PyResult<Vec<Bound<'py, PyString>>> {
    if hypotheses.is_instance_of::<PyString>() || hypotheses.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a sequence of strings, not a single {}",
            type_name(hypotheses)
        )));
    }
    let items = items(hypotheses).map_err(|error| {
        error.unwrap_or_else(|| {
            PyTypeError::new_err(format!("{name} must be a sequence of strings, got {}", type_name(hypotheses)))
        })
    })?;
    let mut texts = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        match item.downcast_into::<PyString>() {
            Ok(text) => texts.push(text),
            Err(error) => {
                return Err(PyTypeError::new_err(format!(
                    "{name}[{index}] must be str, got {}",
                    type_name(&error.into_inner())
                )))
            }
        }
    }
    if let Some((index, length)) = first_too_long(texts.iter(), limit) {
        return Err(segment_too_long(&format!("{name}[{index}]"), length, limit));
    }
    Ok(texts)
}

/// The entries, the flat references and each row's end, as `core.lists.references_lists` reads them.
type ReadReferences<'py> = (Vec<Bound<'py, PyAny>>, Vec<Bound<'py, PyString>>, Vec<usize>);

/// `core.lists.references_lists`' checks: one entry per hypothesis, each a str (its one reference) or a
/// non-empty sequence of str, none over `limit` characters; the errors name the argument `name`.
fn read_references<'py>(
    references: &Bound<'py, PyAny>,
    n_hypotheses: usize,
    limit: usize,
    name: &str,
) -> PyResult<ReadReferences<'py>> {
    if references.is_instance_of::<PyString>() || references.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a sequence (one entry per hypothesis), not a single {}",
            type_name(references)
        )));
    }
    let entries = items(references).map_err(|error| {
        error.unwrap_or_else(|| {
            PyTypeError::new_err(format!("{name} must be a sequence, got {}", type_name(references)))
        })
    })?;
    if entries.len() != n_hypotheses {
        return Err(count_mismatch(&entries, n_hypotheses, name));
    }
    let mut flat: Vec<Bound<'py, PyString>> = Vec::with_capacity(entries.len());
    let mut ends = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        read_entry(entry, index, &mut flat, name)?;
        ends.push(flat.len());
    }
    if let Some((at, length)) = first_too_long(flat.iter(), limit) {
        let row = ends.partition_point(|&end| end <= at);
        return Err(segment_too_long(&format!("{name}[{row}][{}]", at - row_start(&ends, row)), length, limit));
    }
    Ok((entries, flat, ends))
}

/// The error for a number of entries other than the number of hypotheses (naming sacreBLEU's layout when it
/// looks like it: every entry a list or tuple with one string per hypothesis).
fn count_mismatch(entries: &[Bound<'_, PyAny>], n_hypotheses: usize, name: &str) -> PyErr {
    let n = entries.len();
    let streams = !entries.is_empty()
        && entries.iter().all(|entry| {
            (entry.is_exact_instance_of::<PyList>() || entry.is_exact_instance_of::<PyTuple>())
                && entry.len().is_ok_and(|len| len == n_hypotheses)
        });
    if streams {
        return PyValueError::new_err(format!(
            "{name} has {n} entries but there are {n_hypotheses} hypotheses; it looks like sacreBLEU's layout \
             ({n} reference streams of {n_hypotheses} strings): nlgmetrics takes one entry per hypothesis, so pass \
             list(zip(*{name}))"
        ));
    }
    PyValueError::new_err(format!("{name} has {n} entries but there are {n_hypotheses} hypotheses"))
}

/// Appends the references of entry `index` to `flat` (a str is its one reference; a str subclass counts as its
/// `str()`, as `core.lists` reads it).
fn read_entry<'py>(
    entry: &Bound<'py, PyAny>,
    index: usize,
    flat: &mut Vec<Bound<'py, PyString>>,
    name: &str,
) -> PyResult<()> {
    if let Ok(text) = entry.downcast_exact::<PyString>() {
        flat.push(text.clone());
        return Ok(());
    }
    let refs = if entry.is_exact_instance_of::<PyList>() || entry.is_exact_instance_of::<PyTuple>() {
        items(entry).map_err(|error| error.unwrap_or_else(|| PyTypeError::new_err("unreadable entry")))?
    } else if entry.is_instance_of::<PyString>() {
        flat.push(entry.str()?);
        return Ok(());
    } else if entry.is_instance_of::<PyBytes>() || !is_iterable(entry)? {
        return Err(PyTypeError::new_err(format!(
            "{name}[{index}] must be a str or a sequence of str, got {}",
            type_name(entry)
        )));
    } else {
        entry.try_iter()?.collect::<PyResult<Vec<_>>>()?
    };
    if refs.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{name}[{index}] is empty: every hypothesis needs at least one reference"
        )));
    }
    for (ref_index, reference) in refs.into_iter().enumerate() {
        match reference.downcast_into::<PyString>() {
            Ok(text) => flat.push(text),
            Err(error) => {
                return Err(PyTypeError::new_err(format!(
                    "{name}[{index}][{ref_index}] must be str, got {}",
                    type_name(&error.into_inner())
                )))
            }
        }
    }
    Ok(())
}

/// `isinstance(value, collections.abc.Iterable)` (asked only of entries that are neither str, list nor tuple).
fn is_iterable(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let iterable = value.py().import("collections.abc")?.getattr("Iterable")?;
    value.is_instance(&iterable)
}

/// `core.lists.hypotheses_list` and `references_lists` in one read, for metrics that preprocess the text in
/// Python before their scorer sees it: `(hypotheses, references, distinct reference counts)`, the hypotheses a
/// list of the given strs, the references one new list per hypothesis, or None when they were a list of str,
/// one per hypothesis (the caller keeps that list). Lone surrogates are left to the scoring call.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, *, max_chars, refuse_streams=false))]
#[allow(clippy::type_complexity)]
fn check_lists<'py>(
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    max_chars: usize,
    refuse_streams: bool,
) -> PyResult<(Bound<'py, PyList>, Option<Bound<'py, PyList>>, Vec<usize>)> {
    let batch = ListBatch::read(hypotheses, references, &ListRules { max_chars, refuse_streams })?;
    let (hyps, refs) = batch.lists(hypotheses.py())?;
    Ok((hyps, refs, batch.reference_counts()))
}

/// Every check [`score_lists`] makes of a batch, without scoring it: `(the hypotheses, one new list of
/// references per hypothesis or None when they were a list of str, the texts' UTF-8 bytes)`, for a caller that
/// keeps the batch and scores it later together with others (`Metric.update`'s pending batches). The lists are
/// new (a later change to the caller's lists changes nothing), and the strs are borrowed as UTF-8 once here, so a
/// lone surrogate is reported now and the later read finds their UTF-8 form cached.
#[allow(clippy::type_complexity)]
pub(crate) fn check_for_later<'py, M: SegmentMetric>(
    py: Python<'py>,
    metric: &M,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    rules: &ListRules,
) -> PyResult<(Bound<'py, PyList>, Option<Bound<'py, PyList>>, usize)> {
    let batch = ListBatch::read(hypotheses, references, rules)?;
    let (hyps, flat) = batch.borrow()?;
    let refs = batch.rows(&flat);
    check_one_reference::<M>(&refs)?;
    metric.check_batch(&hyps, &refs)?;
    let bytes = hyps.iter().chain(&flat).map(|text| text.len()).sum::<usize>();
    let (hyps, refs) = batch.lists(py)?;
    Ok((hyps, refs, bytes))
}

/// `core.lists.hypotheses_list`: the items of `hypotheses` as a new list of str (TypeError naming the first item
/// that is not one, ValueError for one over `max_chars` characters), the errors naming `argument`.
#[pyfunction]
#[pyo3(signature = (hypotheses, *, max_chars, argument="hypotheses"))]
fn hypotheses_list<'py>(
    hypotheses: &Bound<'py, PyAny>,
    max_chars: usize,
    argument: &str,
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(hypotheses.py(), read_hypotheses(hypotheses, max_chars, argument)?)
}

/// `core.lists.references_lists`: one new list of str per hypothesis, or None when `references` is a list of str
/// (one reference each: the caller keeps its list), with every check of the module docs' rule 2 (and rule 3 with
/// `refuse_streams`), the errors naming `argument`.
#[pyfunction]
#[pyo3(signature = (references, n_hypotheses, *, max_chars, argument="references", refuse_streams=false))]
fn references_lists<'py>(
    references: &Bound<'py, PyAny>,
    n_hypotheses: usize,
    max_chars: usize,
    argument: &str,
    refuse_streams: bool,
) -> PyResult<Option<Bound<'py, PyList>>> {
    let (entries, flat, ends) = read_references(references, n_hypotheses, max_chars, argument)?;
    if refuse_streams {
        check_not_streams(&entries, &flat, &ends, argument)?;
    }
    if is_one_string_each(references, &entries) {
        return Ok(None);
    }
    Ok(Some(row_lists(references.py(), &flat, &ends)?))
}

/// `core.lists.segment_too_long`: the ValueError (made, not raised) for the text `place` of `length` characters,
/// over the limit of `limit`; columns (`core.columns`) report their over-long cells with it.
#[pyfunction]
fn segment_too_long_error(
    py: Python<'_>,
    place: &str,
    length: usize,
    limit: usize,
) -> Py<pyo3::exceptions::PyBaseException> {
    segment_too_long(place, length, limit).into_value(py)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(segment_too_long_error, m)?)?;
    m.add_function(wrap_pyfunction!(hypotheses_list, m)?)?;
    m.add_function(wrap_pyfunction!(references_lists, m)?)?;
    m.add_function(wrap_pyfunction!(check_lists, m)?)?;
    Ok(())
}

// ------------------------------------------------------------------ scoring a batch of lists

/// The error for a reference set a one-reference metric cannot take.
fn check_one_reference<M: SegmentMetric>(refs: &[&[&str]]) -> Result<()> {
    if M::REFS == Refs::One {
        if let Some(index) = refs.iter().position(|entry| entry.len() != 1) {
            return Err(Error::ShapeMismatch(format!(
                "references[{index}] has {} references: {} takes exactly one reference per hypothesis",
                refs[index].len(),
                M::NAME
            )));
        }
    }
    Ok(())
}

/// Seconds of work a piece aims at: short enough that Ctrl-C stops a call within a fraction of a second, long
/// enough that the pool's wake-ups and the wait for its slowest thread at the end of each piece stay small.
const PIECE_SECONDS: f64 = 0.1;

/// Rows of the next piece: as many as `PIECE_SECONDS` took at the last piece's pace, never fewer than
/// `rows_per_piece` (the metric's `rows_per_call`), at most 8 times as many (a fast piece may precede slow ones).
fn next_piece(rows_per_piece: usize, rows_done: usize, elapsed: Duration) -> usize {
    let pace = rows_done as f64 / elapsed.as_secs_f64().max(1e-6);
    ((pace * PIECE_SECONDS) as usize).clamp(rows_per_piece, rows_per_piece.saturating_mul(8))
}

/// Statistics rows, sentence scores and the distinct reference counts of a batch of Python lists: checked
/// as it is read (module docs), scored in pieces of at least `rows_per_call` rows (None: in one piece; later pieces
/// grow to about `PIECE_SECONDS` of work each, the numbers never depend on them) on `threads`.
#[allow(clippy::type_complexity)]
pub(crate) fn score_lists<'py, M>(
    py: Python<'py>,
    metric: &M,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    rules: &ListRules,
    threads: Option<usize>,
    rows_per_call: Option<usize>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>, Vec<usize>)>
where
    M: SegmentMetric,
    M::Stat: Element,
{
    let batch = ListBatch::read(hypotheses, references, rules)?;
    let (hyps, flat) = batch.borrow()?;
    let refs = batch.rows(&flat);
    check_one_reference::<M>(&refs)?;
    let n = hyps.len();
    let width = metric.width();
    let mut rows = vec![M::Stat::default(); n * width];
    let step = rows_per_call.filter(|&step| step > 0).unwrap_or(n.max(1));
    if n <= step {
        // One piece: the whole batch in one GIL release (one wake-up of the pool).
        let scores = run_kernel(py, threads, || {
            metric.check_batch(&hyps, &refs)?;
            fill_rows_into(metric, &mut rows, 0, |index, row, scratch| {
                metric.segment_into(hyps[index], refs[index], row, scratch)
            })?;
            segment_scores(metric, &rows)
        })?;
        return Ok((matrix(py, n, width, rows).into_any(), scores.into_pyarray(py), batch.reference_counts()));
    }
    run_kernel(py, threads, || metric.check_batch(&hyps, &refs))?;
    let mut start = 0;
    let mut rows_per_piece = step;
    while start < n {
        let stop = n.min(start + rows_per_piece);
        let piece = &mut rows[start * width..stop * width];
        let began = Instant::now();
        run_kernel(py, threads, || {
            fill_rows_into(metric, piece, start, |index, row, scratch| {
                metric.segment_into(hyps[start + index], refs[start + index], row, scratch)
            })
        })?;
        py.check_signals()?; // Ctrl-C between two pieces (and after the last: the scores are quick)
        rows_per_piece = next_piece(rows_per_piece, stop - start, began.elapsed());
        start = stop;
    }
    let scores = run_kernel(py, threads, || segment_scores(metric, &rows))?;
    Ok((matrix(py, n, width, rows).into_any(), scores.into_pyarray(py), batch.reference_counts()))
}
