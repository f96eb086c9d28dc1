//! The one place where core errors become Python exceptions.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::{PyErr, PyResult};

use crate::error::Error;

impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        match error {
            Error::InvalidOption(msg) | Error::ShapeMismatch(msg) => PyValueError::new_err(msg),
        }
    }
}

/// Runs `work`, turning a Rust panic into a Python `RuntimeError` with the panic's message, so no
/// panic crosses into Python (PyO3's own `PanicException` is a `BaseException` that `except
/// Exception` does not catch).
pub(crate) fn catch_panics<T>(work: impl FnOnce() -> T) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        PyRuntimeError::new_err(format!("internal error in nlgmetrics (please report it): {message}"))
    })
}

/// [`catch_panics`] for an entry point's body that already returns a `PyResult`.
pub(crate) fn guard<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_panics(work)?
}
