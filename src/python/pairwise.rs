//! Bindings for `metrics::pairwise`: sentence-score matrices for every candidate/reference pair.

use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::arrays::matrix;
use super::bleu::tokenizer_and_scoring;
use super::chrf::chrf_config;
use super::threads::run_kernel;
use crate::metrics::pairwise::{bleu_matrix, chrf_matrix};

/// Sentence chrF of every candidate against every reference, `(n_candidates, n_references)`; `options` are
/// chrF's (`char_order`, `word_order`, `beta`, `whitespace`, `eps_smoothing`).
#[pyfunction]
#[pyo3(signature = (candidates, references, options, threads=None))]
fn chrf_pairwise<'py>(
    py: Python<'py>,
    candidates: Vec<String>,
    references: Option<Vec<String>>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let config = chrf_config(options)?;
    let n_refs = references.as_ref().map_or(candidates.len(), Vec::len);
    let scores = run_kernel(py, threads, || chrf_matrix(&candidates, references.as_deref(), &config))?;
    Ok(matrix(py, candidates.len(), n_refs, scores))
}

/// Sentence BLEU of every candidate against every reference, `(n_candidates, n_references)`; `options` are
/// sacreBLEU BLEU's (`tokenize`, `max_order`, `smooth`, `smooth_value`, `effective_order`, `weights`).
/// Lines are lowercased (and MeCab-tokenized, with `tokenize="none"`) by the caller.
#[pyfunction]
#[pyo3(signature = (candidates, references, options, threads=None))]
fn bleu_pairwise<'py>(
    py: Python<'py>,
    candidates: Vec<String>,
    references: Option<Vec<String>>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (tokenizer, scoring) = tokenizer_and_scoring(options)?;
    let n_refs = references.as_ref().map_or(candidates.len(), Vec::len);
    let scores = run_kernel(py, threads, || bleu_matrix(&candidates, references.as_deref(), tokenizer, &scoring))?;
    Ok(matrix(py, candidates.len(), n_refs, scores))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_pairwise, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_pairwise, m)?)?;
    Ok(())
}
