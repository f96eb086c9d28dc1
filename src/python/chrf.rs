//! Bindings for `metrics::chrf`.

use pyo3::prelude::*;

use crate::metrics::chrf::ChrfConfig;

pub(crate) fn config(
    char_order: usize,
    word_order: usize,
    beta: f64,
    whitespace: bool,
    eps_smoothing: bool,
) -> PyResult<ChrfConfig> {
    let config = ChrfConfig { char_order, word_order, beta, whitespace, eps_smoothing };
    config.validate()?;
    Ok(config)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHRF_MAX_ORDER", crate::metrics::chrf::MAX_ORDER)?;
    Ok(())
}
