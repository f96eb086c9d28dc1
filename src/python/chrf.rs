//! Bindings for `metrics::chrf`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::metrics::chrf::ChrfConfig;

/// chrF's options read from a dict by name (the Python metric's options; other keys are not read), validated.
pub(crate) fn chrf_config(options: &Bound<'_, PyDict>) -> PyResult<ChrfConfig> {
    let config: ChrfConfig = options.extract()?;
    config.validate()?;
    Ok(config)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHRF_MAX_ORDER", crate::metrics::chrf::MAX_ORDER)?;
    Ok(())
}
