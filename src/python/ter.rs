//! Bindings for `metrics::ter`.

use pyo3::prelude::*;

use crate::metrics::ter::TerNormalizer;

/// sacreBLEU's `TercomTokenizer` on one (already lowercased, unless case-sensitive) line: tokens joined by spaces.
#[pyfunction]
fn ter_tokenize(line: &str, normalized: bool, no_punct: bool, asian_support: bool) -> String {
    TerNormalizer { normalized, no_punct, asian_support }.tokens(line).join(" ")
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    Ok(())
}
