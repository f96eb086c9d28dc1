//! PyO3 bindings: argument conversion, GIL release and error conversion only.
//! One file per core module, mirroring `src/text` and `src/metrics`.

use pyo3::prelude::*;

mod bleu;
mod bleu_presets;
mod chrf;
mod errors;
mod pairwise;
mod ter;
mod text;

/// The extension module `nlgmetrics._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    bleu::register(m)?;
    bleu_presets::register(m)?;
    text::register(m)?;
    chrf::register(m)?;
    ter::register(m)?;
    pairwise::register(m)?;
    Ok(())
}
