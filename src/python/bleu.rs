//! Bindings for `metrics::bleu`: segment statistics and scores as NumPy arrays.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::errors::guard;

use crate::metrics::bleu::{row_width, sum_rows, BleuScoring, Smoothing, StatsOptions, Summation};
use crate::text::BleuTokenizer;

use super::strings::Lines;
use super::threads::run_released;

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
    Ok(array.into_pyarray(py))
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
    Ok(scores.into_pyarray(py))
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
    guard(|| {
        let scoring = scoring(max_order, smooth, smooth_value, effective_order, weights, neumaier_sum)?;
        let result = scoring.score(&stats)?;
        Ok((result.score, result.precisions, result.bp))
    })
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
        segment_scores.into_pyarray(py),
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
