//! Bindings for `metrics::gleu`.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

use super::threads::run_released;
use super::strings::Lines;
use super::words::{extract_corpus, text_tokenizer};
use crate::text::words::IdScope;
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
    let rows = match text_tokenizer(tokenize)? {
        Some(tokenizer) => {
            let lines = Lines::extract(hypotheses, references)?;
            let (hyps, refs) = lines.borrow()?;
            run_released(py, threads, || text_stats(&hyps, &refs, tokenizer, orders))??
        }
        None => {
            let (hyps, refs) = extract_corpus(py, hypotheses, references, tokenize, IdScope::Segment)?;
            run_released(py, threads, || batch_stats(&hyps, &refs, orders))??
        }
    };
    let array = Array2::from_shape_vec((rows.len() / ROW_WIDTH, ROW_WIDTH), rows).expect("rows have the declared width");
    Ok(array.into_pyarray_bound(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gleu_stats, m)?)?;
    Ok(())
}
