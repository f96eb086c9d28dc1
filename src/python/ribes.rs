//! Bindings for `metrics::ribes`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use super::words::segment_kernel;
use crate::metrics::ribes::{batch_scores, kendall_tau, text_scores, word_rank_alignment, RibesParams};

/// Sentence RIBES of every segment (float64, shape `(n,)`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, alpha, beta, max_alignment_len, threads=None))]
#[allow(clippy::too_many_arguments)]
fn ribes_scores<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    alpha: f64,
    beta: f64,
    max_alignment_len: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let params = RibesParams { alpha, beta, max_alignment_len };
    let scores = segment_kernel(
        py,
        hypotheses,
        references,
        tokenize,
        threads,
        |hyps, refs, tokenizer| text_scores(hyps, refs, tokenizer, params),
        |hyps, refs| batch_scores(hyps, refs, params),
    )??;
    Ok(scores.into_pyarray(py))
}

/// NLTK's `word_rank_alignment(reference, hypothesis)` and normalised `kendall_tau` of it, for token ids.
#[pyfunction]
fn ribes_alignment(reference: Vec<u32>, hypothesis: Vec<u32>) -> (Vec<usize>, f64) {
    let worder = word_rank_alignment(&reference, &hypothesis);
    let tau = kendall_tau(&worder);
    (worder, tau)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ribes_scores, m)?)?;
    m.add_function(wrap_pyfunction!(ribes_alignment, m)?)?;
    Ok(())
}
