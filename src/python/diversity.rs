//! Bindings for `metrics::diversity`.

use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::arrays::matrix;
use super::threads::{run_kernel, run_released};
use super::words::extract_outputs;
use crate::metrics::diversity::{distinct_stats as distinct_rows, self_bleu_stats as self_bleu_rows};

/// distinct-n's options (`nlgmetrics.metrics.diversity.Distinct`): `tokenize` as `extract_corpus` reads it.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DistinctOptions {
    tokenize: String,
    n: usize,
}

/// Self-BLEU's statistics options (`nlgmetrics.metrics.diversity.self_bleu`, defaults resolved).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SelfBleuOptions {
    tokenize: String,
    max_order: usize,
}

/// distinct-n: per output `[distinct n-grams, n-grams]` (uint64, `(n_outputs, 2)`) and the number of
/// distinct n-grams of all outputs together.
#[pyfunction]
#[pyo3(signature = (outputs, options, threads=None))]
fn distinct_stats<'py>(
    py: Python<'py>,
    outputs: &Bound<'py, PyAny>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<u64>>, u64)> {
    let DistinctOptions { tokenize, n } = options.extract()?;
    let ids = extract_outputs(py, outputs, &tokenize, threads)?;
    let (rows, corpus_distinct) = run_released(py, threads, || distinct_rows(&ids, n))?;
    Ok((matrix(py, ids.len(), 2, rows), corpus_distinct))
}

/// Self-BLEU statistics: each output against all the others, BLEU rows `[hyp_len, ref_len,
/// matches_1..N, totals_1..N]` (int64, `(n_outputs, 2 + 2N)`).
#[pyfunction]
#[pyo3(signature = (outputs, options, threads=None))]
fn self_bleu_stats<'py>(
    py: Python<'py>,
    outputs: &Bound<'py, PyAny>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let SelfBleuOptions { tokenize, max_order } = options.extract()?;
    let ids = extract_outputs(py, outputs, &tokenize, threads)?;
    let rows = run_kernel(py, threads, || self_bleu_rows(&ids, max_order))?;
    Ok(matrix(py, ids.len(), 2 + 2 * max_order, rows))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(distinct_stats, m)?)?;
    m.add_function(wrap_pyfunction!(self_bleu_stats, m)?)?;
    Ok(())
}
