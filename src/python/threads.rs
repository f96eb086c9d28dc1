//! Batch work off the GIL, on all cores or on a caller-chosen number of threads.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Runs `work` with the GIL released, on `threads` threads (`None`: rayon's global pool, all cores).
pub(crate) fn run_released<T: Send>(py: Python<'_>, threads: Option<usize>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(py.allow_threads(work)),
        Some(0) => Err(PyValueError::new_err("threads must be a positive integer or None")),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?;
            Ok(py.allow_threads(|| pool.install(work)))
        }
    }
}
