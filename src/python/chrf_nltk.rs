//! Bindings for `metrics::chrf_nltk`.

use numpy::PyArray2;
use pyo3::prelude::*;

use super::arrays::matrix;
use super::threads::run_released;
use crate::metrics::chrf_nltk::f_scores;

/// NLTK's chrF F-score per segment and order `min_len..=max_len` (float64, `(n, orders)`); the lines are
/// already joined from tokens by the caller.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, min_len, max_len, beta, ignore_whitespace, threads=None))]
#[allow(clippy::too_many_arguments)]
fn chrf_nltk_f_scores<'py>(
    py: Python<'py>,
    hypotheses: Vec<String>,
    references: Vec<String>,
    min_len: usize,
    max_len: usize,
    beta: f64,
    ignore_whitespace: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let scores =
        run_released(py, threads, || f_scores(&hypotheses, &references, min_len, max_len, beta, ignore_whitespace))??;
    let width = max_len + 1 - min_len;
    Ok(matrix(py, hypotheses.len(), width, scores))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_nltk_f_scores, m)?)?;
    Ok(())
}
