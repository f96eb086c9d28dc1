//! Bindings for `crate::text` (the sacreBLEU tokenizers): `nlgmetrics._core.tokenize_lines` and friends.

use pyo3::prelude::*;

use super::errors::{catch_panics, guard};

use super::threads::released;
use rayon::prelude::*;

use crate::text::sacrebleu::{BleuTokenizer, INTL_TABLES_REGEX_VERSION};

/// Tokenizes every line with the named tokenizer, in parallel with the GIL released.
#[pyfunction]
#[pyo3(signature = (lines, name))]
fn tokenize_lines(py: Python<'_>, lines: Vec<String>, name: &str) -> PyResult<Vec<String>> {
    let tokenizer = BleuTokenizer::from_name(name)?;
    released(py, || {
        if lines.len() < 64 {
            lines.iter().map(|line| tokenizer.tokenize(line)).collect()
        } else {
            lines.par_iter().map(|line| tokenizer.tokenize(line)).collect()
        }
    })
}

/// Tokenizes one line (no thread pool involved).
#[pyfunction]
#[pyo3(signature = (line, name))]
fn tokenize_line(line: &str, name: &str) -> PyResult<String> {
    guard(|| Ok(BleuTokenizer::from_name(name)?.tokenize(line)))
}

/// Python's `str.split()` as the Rust core does it (exposed so tests can compare the two).
#[pyfunction]
fn split_tokens(text: &str) -> PyResult<Vec<&str>> {
    catch_panics(|| crate::text::pystr::split_tokens(text).collect())
}

/// The names of the tokenizers implemented in Rust, in display order.
#[pyfunction]
fn native_tokenizer_names() -> PyResult<Vec<&'static str>> {
    catch_panics(|| BleuTokenizer::ALL.iter().map(|tokenizer| tokenizer.name()).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize_lines, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize_line, m)?)?;
    m.add_function(wrap_pyfunction!(native_tokenizer_names, m)?)?;
    m.add_function(wrap_pyfunction!(split_tokens, m)?)?;
    m.add("INTL_TABLES_REGEX_VERSION", INTL_TABLES_REGEX_VERSION)?;
    Ok(())
}
