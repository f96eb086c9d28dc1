//! Bindings for `metrics::chrf`.

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

use super::arrays::matrix;
use super::errors::guard;

use crate::error::Error;
use crate::metrics::chrf::{corpus_stats, f_score, ChrfConfig};

use super::strings::Lines;
use super::threads::run_released;

pub(crate) fn config(
    char_order: usize,
    word_order: usize,
    beta: f64,
    whitespace: bool,
    eps_smoothing: bool,
) -> PyResult<ChrfConfig> {
    let config = ChrfConfig { char_order, word_order, beta, whitespace, eps_smoothing };
    config.validate()?;
    Ok(config)
}

/// Per-segment chrF statistics `(n, 3 * (char_order + word_order))` and sentence scores `(n,)`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, char_order, word_order, beta, whitespace, eps_smoothing, threads=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn chrf_segment_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    char_order: usize,
    word_order: usize,
    beta: f64,
    whitespace: bool,
    eps_smoothing: bool,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<f64>>)> {
    let config = config(char_order, word_order, beta, whitespace, eps_smoothing)?;
    let width = config.stats_width();
    let lines = Lines::extract(hypotheses, references)?;
    let (hypotheses, references) = lines.borrow()?;
    let (stats, scores) = run_released(py, threads, || -> Result<_, Error> {
        let stats = corpus_stats(&hypotheses, &references, &config)?;
        let scores: Vec<f64> = stats.chunks_exact(width).map(|row| f_score(row, beta, eps_smoothing)).collect();
        Ok((stats, scores))
    })??;
    let rows = hypotheses.len();
    let stats: Vec<i64> = stats.into_iter().map(|v| v as i64).collect();
    Ok((matrix(py, rows, width, stats), scores.into_pyarray(py)))
}

/// chrF (0–100) of one statistics vector (summed over segments for a corpus score).
#[pyfunction]
fn chrf_score(stats: Vec<u64>, beta: f64, eps_smoothing: bool) -> PyResult<f64> {
    guard(|| {
        if stats.is_empty() || !stats.len().is_multiple_of(3) {
            return Err(Error::ShapeMismatch(format!(
                "chrF statistics must be a non-empty multiple of 3 long, got {}",
                stats.len()
            ))
            .into());
        }
        Ok(f_score(&stats, beta, eps_smoothing))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHRF_MAX_ORDER", crate::metrics::chrf::MAX_ORDER)?;
    m.add_function(wrap_pyfunction!(chrf_segment_stats, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_score, m)?)?;
    Ok(())
}
