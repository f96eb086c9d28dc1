//! Bindings for `text::ptb`: the PTB tokenizer as pycocoevalcap runs it.

use pyo3::prelude::*;

use super::threads::released;

use crate::text::ptb;

/// pycocoevalcap's tokenized form of each caption, in file order (each sees the next as lookahead).
#[pyfunction]
fn ptb_coco_tokenize(py: Python<'_>, lines: Vec<String>) -> PyResult<Vec<String>> {
    released(py, || ptb::coco_tokenize_lines(&lines))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ptb_coco_tokenize, m)?)?;
    Ok(())
}
