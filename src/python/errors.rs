//! The one place where core errors become Python exceptions.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

use crate::error::Error;

impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        match error {
            Error::InvalidOption(msg) | Error::ShapeMismatch(msg) => PyValueError::new_err(msg),
        }
    }
}
