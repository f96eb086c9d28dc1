//! Bindings for `metrics::pairwise`: sentence-score matrices for every candidate/reference pair.

use numpy::PyArray2;
use pyo3::prelude::*;

use super::arrays::matrix;
use super::bleu::scoring;
use super::chrf::config;
use super::threads::run_released;
use crate::metrics::pairwise::{bleu_matrix, chrf_matrix};
use crate::text::BleuTokenizer;

/// Sentence chrF of every candidate against every reference, `(n_candidates, n_references)`.
#[pyfunction]
#[pyo3(signature = (candidates, references, char_order, word_order, beta, whitespace, eps_smoothing, threads=None))]
#[allow(clippy::too_many_arguments)]
fn chrf_pairwise<'py>(
    py: Python<'py>,
    candidates: Vec<String>,
    references: Option<Vec<String>>,
    char_order: usize,
    word_order: usize,
    beta: f64,
    whitespace: bool,
    eps_smoothing: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let config = config(char_order, word_order, beta, whitespace, eps_smoothing)?;
    let n_refs = references.as_ref().map_or(candidates.len(), Vec::len);
    let scores = run_released(py, threads, || chrf_matrix(&candidates, references.as_deref(), &config))??;
    Ok(matrix(py, candidates.len(), n_refs, scores))
}

/// Sentence BLEU of every candidate against every reference, `(n_candidates, n_references)`.
/// Lines are lowercased (and MeCab-tokenized, with `tokenize="none"`) by the caller.
#[pyfunction]
#[pyo3(signature = (candidates, references, tokenize, max_order, smooth, smooth_value, effective_order, weights, neumaier_sum, threads=None))]
#[allow(clippy::too_many_arguments)]
fn bleu_pairwise<'py>(
    py: Python<'py>,
    candidates: Vec<String>,
    references: Option<Vec<String>>,
    tokenize: &str,
    max_order: usize,
    smooth: &str,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let tokenizer = BleuTokenizer::from_name(tokenize)?;
    let scoring = scoring(max_order, smooth, smooth_value, effective_order, weights, neumaier_sum)?;
    let n_refs = references.as_ref().map_or(candidates.len(), Vec::len);
    let scores = run_released(py, threads, || bleu_matrix(&candidates, references.as_deref(), tokenizer, &scoring))??;
    Ok(matrix(py, candidates.len(), n_refs, scores))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_pairwise, m)?)?;
    Ok(())
}
