//! Bindings for `text::ptb`: the PTB tokenizer as pycocoevalcap runs it.

use pyo3::prelude::*;

use super::errors::catch_panics;

use super::threads::released;

use crate::text::ptb;

/// pycocoevalcap's tokenized form of each caption, in file order (each sees the next as lookahead).
#[pyfunction]
fn ptb_coco_tokenize(py: Python<'_>, lines: Vec<String>) -> PyResult<Vec<String>> {
    released(py, || ptb::coco_tokenize_lines(&lines))
}

/// The raw lower-cased PTB tokens of one line (before pycocoevalcap's punctuation filter).
#[pyfunction]
#[pyo3(signature = (line, following=Vec::new()))]
fn ptb_tokens(line: &str, following: Vec<String>) -> PyResult<Vec<String>> {
    catch_panics(|| ptb::ptb_tokens(line, &following))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ptb_coco_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(ptb_tokens, m)?)?;
    Ok(())
}
