//! Bindings for `metrics::diversity`.

use numpy::PyArray2;
use pyo3::prelude::*;

use super::arrays::matrix;
use super::threads::run_released;
use super::words::extract_outputs;
use crate::metrics::diversity::{distinct_stats as distinct_rows, self_bleu_stats as self_bleu_rows};

/// distinct-n: per output `[distinct n-grams, n-grams]` (uint64, `(n_outputs, 2)`) and the number of
/// distinct n-grams of all outputs together.
#[pyfunction]
#[pyo3(signature = (outputs, tokenize, n, threads=None))]
fn distinct_stats<'py>(
    py: Python<'py>,
    outputs: &Bound<'py, PyAny>,
    tokenize: &str,
    n: usize,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<u64>>, u64)> {
    let ids = extract_outputs(py, outputs, tokenize, threads)?;
    let (rows, corpus_distinct) = run_released(py, threads, || distinct_rows(&ids, n))?;
    Ok((matrix(py, ids.len(), 2, rows), corpus_distinct))
}

/// Self-BLEU statistics: each output against all the others, BLEU rows `[hyp_len, ref_len,
/// matches_1..N, totals_1..N]` (int64, `(n_outputs, 2 + 2N)`).
#[pyfunction]
#[pyo3(signature = (outputs, tokenize, max_order, threads=None))]
fn self_bleu_stats<'py>(
    py: Python<'py>,
    outputs: &Bound<'py, PyAny>,
    tokenize: &str,
    max_order: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let ids = extract_outputs(py, outputs, tokenize, threads)?;
    let rows = run_released(py, threads, || self_bleu_rows(&ids, max_order))??;
    Ok(matrix(py, ids.len(), 2 + 2 * max_order, rows))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(distinct_stats, m)?)?;
    m.add_function(wrap_pyfunction!(self_bleu_stats, m)?)?;
    Ok(())
}
