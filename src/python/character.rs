//! Bindings for `metrics::character` (CharacTER, the `cer` package).

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use crate::metrics::character::segment_scores;

use super::strings::Texts;
use super::threads::run_released;

/// CharacTER of every segment `(n,)`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, threads=None))]
fn character_segment_scores<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (hypotheses, references) =
        (Texts::extract(hypotheses, "hypotheses")?, Texts::extract(references, "references")?);
    let (hypotheses, references) = (hypotheses.borrow()?, references.borrow()?);
    let scores = run_released(py, threads, || segment_scores(&hypotheses, &references))??;
    Ok(scores.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(character_segment_scores, m)?)?;
    Ok(())
}
