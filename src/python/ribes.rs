//! Bindings for `metrics::ribes`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use super::threads::run_released;
use super::words::extract_corpus;
use crate::metrics::ribes::{batch_scores, RibesParams};

/// Sentence RIBES of every segment (float64, shape `(n,)`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, alpha, beta, threads=None))]
fn ribes_scores<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    alpha: f64,
    beta: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (hyps, refs) = extract_corpus(py, hypotheses, references, tokenize)?;
    let scores = run_released(py, threads, || batch_scores(&hyps, &refs, RibesParams { alpha, beta }))??;
    Ok(scores.into_pyarray_bound(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ribes_scores, m)?)?;
    Ok(())
}
