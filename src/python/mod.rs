//! PyO3 bindings: argument conversion, GIL release and error conversion only.
//! One file per core module, mirroring `src/text` and `src/metrics`.

use pyo3::prelude::*;

mod arrays;
mod arrow;
mod bleu;
mod bleu_presets;
mod charcut;
mod checksum;
mod chrf;
mod cider;
mod diversity;
mod errors;
mod lists;
mod meteor;
mod nist;
mod pairwise;
mod ptb;
mod qa;
mod ribes;
mod rouge;
mod segment;
mod segment_options;
mod segment_words;
mod strings;
mod ter;
mod text;
mod threads;
mod wer;
mod words;

/// Panics on purpose, on a pool thread (`released`) or on the calling thread: the test suite's
/// proof that a Rust panic reaches Python as a `RuntimeError` naming it, not a `PanicException`.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>, message: String, released: bool) -> PyResult<()> {
    if released {
        threads::released(py, || panic!("{message}"))
    } else {
        errors::guard(|| panic!("{message}"))
    }
}

/// The extension module `nlgmetrics._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("MAX_THREADS", threads::MAX_THREADS)?;
    arrow::register(m)?;
    bleu::register(m)?;
    bleu_presets::register(m)?;
    charcut::register(m)?;
    checksum::register(m)?;
    chrf::register(m)?;
    cider::register(m)?;
    diversity::register(m)?;
    lists::register(m)?;
    meteor::register(m)?;
    nist::register(m)?;
    pairwise::register(m)?;
    ptb::register(m)?;
    qa::register(m)?;
    ribes::register(m)?;
    rouge::register(m)?;
    segment::register(m)?;
    strings::register(m)?;
    ter::register(m)?;
    text::register(m)?;
    wer::register(m)?;
    Ok(())
}
