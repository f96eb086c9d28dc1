//! Bindings for `metrics::bleu`: segment statistics and scores as NumPy arrays.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use super::errors::guard;

use crate::metrics::bleu::{BleuScoring, Smoothing, Summation};

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

fn array_rows(stats: &PyReadonlyArray2<'_, i64>) -> Vec<i64> {
    match stats.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => stats.as_array().iter().copied().collect(),
    }
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_row_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_score_from_stats, m)?)?;
    Ok(())
}
