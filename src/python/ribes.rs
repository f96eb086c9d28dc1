//! Bindings for `metrics::ribes`'s alignment (the scores are `_core.SegmentScorer("ribes", …)`).

use pyo3::prelude::*;

use crate::metrics::ribes::{kendall_tau, word_rank_alignment};

/// NLTK's `word_rank_alignment(reference, hypothesis)` and normalised `kendall_tau` of it, for token ids.
#[pyfunction]
fn ribes_alignment(reference: Vec<u32>, hypothesis: Vec<u32>) -> (Vec<usize>, f64) {
    let worder = word_rank_alignment(&reference, &hypothesis);
    let tau = kendall_tau(&worder);
    (worder, tau)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ribes_alignment, m)?)?;
    Ok(())
}
