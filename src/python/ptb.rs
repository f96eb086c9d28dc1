//! Bindings for `text::ptb`: the PTB tokenizer as pycocoevalcap runs it.

use pyo3::prelude::*;

use super::threads::run_released;

use crate::text::ptb;

/// pycocoevalcap's tokenized form of each caption, in file order (each sees the next as lookahead).
#[pyfunction]
#[pyo3(signature = (lines, threads=None))]
fn ptb_coco_tokenize(py: Python<'_>, lines: Vec<String>, threads: Option<usize>) -> PyResult<Vec<String>> {
    run_released(py, threads, || ptb::coco_tokenize_lines(&lines))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ptb_coco_tokenize, m)?)?;
    Ok(())
}
