//! Bindings for `metrics::bleu`: segment statistics and scores as NumPy arrays.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::ffi;

use crate::metrics::bleu::{row_width, sum_rows, BleuScoring, Smoothing, StatsOptions, Summation};
use crate::text::BleuTokenizer;

use super::threads::run_released;

extern "C" {
    // In the stable ABI only from 3.10 (so pyo3's abi3-py39 build does not declare it), but exported by
    // every CPython 3: the str's own cached UTF-8 text, created once per str, never copied per call.
    fn PyUnicode_AsUTF8AndSize(unicode: *mut ffi::PyObject, size: *mut ffi::Py_ssize_t) -> *const std::os::raw::c_char;
}

/// The items of a sequence argument (a list, tuple or other iterable, but not a str itself).
fn sequence_items<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{what} must be a sequence of str, not a str")));
    }
    value.iter()?.collect()
}

/// The UTF-8 text of a Python str, borrowed: valid while `item` is alive (strs are immutable).
fn borrow_str<'a>(item: &'a Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<&'a str> {
    let text = item
        .downcast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{} must be str, got {}", what(), item.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?;
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live str (we hold a reference); the returned buffer lives as long as it does.
    let data = unsafe { PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size) };
    if data.is_null() {
        // E.g. UnicodeEncodeError for a lone surrogate (the Python layer names the line).
        return Err(PyErr::fetch(item.py()));
    }
    // SAFETY: CPython guarantees `size` bytes of valid UTF-8 at `data`.
    Ok(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast::<u8>(), size as usize)) })
}

/// Hypotheses and references as Python objects; their text is then borrowed, not copied, and used
/// with the GIL released: holding these references keeps every str alive meanwhile.
struct Lines<'py> {
    hypotheses: Vec<Bound<'py, PyAny>>,
    references: Vec<Vec<Bound<'py, PyAny>>>,
}

impl<'py> Lines<'py> {
    fn extract(hypotheses: &Bound<'py, PyAny>, references: &Bound<'py, PyAny>) -> PyResult<Self> {
        let hypotheses = sequence_items(hypotheses, "hypotheses")?;
        let references = sequence_items(references, "references")?
            .iter()
            .enumerate()
            .map(|(index, refs)| sequence_items(refs, &format!("references[{index}]")))
            .collect::<PyResult<_>>()?;
        Ok(Self { hypotheses, references })
    }

    #[allow(clippy::type_complexity)]
    fn borrow(&self) -> PyResult<(Vec<&str>, Vec<Vec<&str>>)> {
        let hypotheses = self
            .hypotheses
            .iter()
            .enumerate()
            .map(|(index, item)| borrow_str(item, &|| format!("hypotheses[{index}]")))
            .collect::<PyResult<_>>()?;
        let references = self
            .references
            .iter()
            .enumerate()
            .map(|(index, refs)| {
                refs.iter()
                    .enumerate()
                    .map(|(ref_index, item)| borrow_str(item, &|| format!("references[{index}][{ref_index}]")))
                    .collect::<PyResult<Vec<&str>>>()
            })
            .collect::<PyResult<_>>()?;
        Ok((hypotheses, references))
    }
}

/// The BLEU scoring options from their Python form (shared by the BLEU and pairwise bindings).
pub(crate) fn scoring(
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
    neumaier_sum: bool,
) -> PyResult<BleuScoring> {
    let summation = if neumaier_sum { Summation::Neumaier } else { Summation::Sequential };
    Ok(BleuScoring::new(max_order, Smoothing::from_name(smooth)?, smooth_value, effective_order, weights, summation)?)
}

fn rows_to_array(py: Python<'_>, rows: Vec<i64>, width: usize) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let n_rows = rows.len() / width;
    let array = Array2::from_shape_vec((n_rows, width), rows).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray_bound(py))
}

fn array_rows(stats: &PyReadonlyArray2<'_, i64>) -> Vec<i64> {
    match stats.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => stats.as_array().iter().copied().collect(),
    }
}

/// Statistics rows `[hyp_len, ref_len, matches_1..N, totals_1..N]`, one per hypothesis (int64).
/// Lines must already be lowercased if wanted; each is right-stripped and tokenized here.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, max_order, threads=None))]
fn bleu_segment_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    max_order: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let lines = Lines::extract(hypotheses, references)?;
    let (hypotheses, references) = lines.borrow()?;
    let options = StatsOptions::new(BleuTokenizer::from_name(tokenize)?, max_order)?;
    let rows = run_released(py, threads, || options.corpus_stats(&hypotheses, &references))??;
    rows_to_array(py, rows, row_width(max_order))
}

/// The BLEU score of each statistics row (e.g. each segment's sentence score).
#[pyfunction]
#[pyo3(signature = (stats, max_order, smooth, smooth_value, effective_order, weights, neumaier_sum, threads=None))]
#[allow(clippy::too_many_arguments)]
fn bleu_row_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let scoring = scoring(max_order, smooth, smooth_value, effective_order, weights, neumaier_sum)?;
    let rows = array_rows(&stats);
    let scores = run_released(py, threads, || scoring.score_rows(&rows))??;
    Ok(scores.into_pyarray_bound(py))
}

/// `(score, precisions, bp)` of one statistics row (usually the column sums of a corpus).
#[pyfunction]
#[pyo3(signature = (stats, max_order, smooth, smooth_value, effective_order, weights, neumaier_sum))]
fn bleu_score_from_stats(
    stats: Vec<i64>,
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
    neumaier_sum: bool,
) -> PyResult<(f64, Vec<f64>, f64)> {
    let scoring = scoring(max_order, smooth, smooth_value, effective_order, weights, neumaier_sum)?;
    let result = scoring.score(&stats)?;
    Ok((result.score, result.precisions, result.bp))
}

/// One call for the whole BLEU pipeline: `(segment_stats, segment_scores, corpus_stats, score, precisions, bp)`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, max_order, smooth, smooth_value, effective_order, weights, neumaier_sum, threads=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn bleu_corpus<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<f64>>, Vec<i64>, f64, Vec<f64>, f64)> {
    let lines = Lines::extract(hypotheses, references)?;
    let (hypotheses, references) = lines.borrow()?;
    let options = StatsOptions::new(BleuTokenizer::from_name(tokenize)?, max_order)?;
    let scoring = scoring(max_order, smooth, smooth_value, effective_order, weights, neumaier_sum)?;
    let width = row_width(max_order);
    let (rows, segment_scores, totals, corpus) = run_released(py, threads, || {
        let rows = options.corpus_stats(&hypotheses, &references)?;
        let segment_scores = scoring.score_rows(&rows)?;
        let totals = sum_rows(&rows, width);
        let corpus = scoring.score(&totals)?;
        Ok::<_, crate::error::Error>((rows, segment_scores, totals, corpus))
    })??;
    Ok((
        rows_to_array(py, rows, width)?,
        segment_scores.into_pyarray_bound(py),
        totals,
        corpus.score,
        corpus.precisions,
        corpus.bp,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_segment_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_row_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_score_from_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_corpus, m)?)?;
    Ok(())
}
