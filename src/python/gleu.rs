//! Bindings for `metrics::gleu`.

use numpy::PyArray2;
use pyo3::prelude::*;

use super::arrays::matrix;
use super::words::segment_kernel;
use crate::metrics::gleu::{batch_stats, text_stats, GleuOrders, ROW_WIDTH};

/// GLEU statistics `[n_match, n_all]` per segment (uint64, shape `(n, 2)`); see `extract_corpus` for `tokenize`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, min_len, max_len, threads=None))]
fn gleu_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    min_len: usize,
    max_len: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let orders = GleuOrders::new(min_len, max_len)?;
    let rows = segment_kernel(
        py,
        hypotheses,
        references,
        tokenize,
        threads,
        |hyps, refs, tokenizer| text_stats(hyps, refs, tokenizer, orders),
        |hyps, refs| batch_stats(hyps, refs, orders),
    )??;
    Ok(matrix(py, rows.len() / ROW_WIDTH, ROW_WIDTH, rows))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gleu_stats, m)?)?;
    Ok(())
}
