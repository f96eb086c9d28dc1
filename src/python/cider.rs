//! Bindings for the COCO caption metrics `metrics::cider` and `metrics::rouge::coco`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use super::threads::run_released;

use crate::metrics::cider::{cider_scores, CiderOptions};
use crate::metrics::rouge::coco::rouge_l_coco_scores;

/// Per-image CIDEr(-D) of tokenized captions (pycocoevalcap's cider_scorer.py).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, n=4, sigma=6.0, clipping=true, length_penalty=true, threads=None))]
#[allow(clippy::too_many_arguments)]
fn cider_image_scores<'py>(
    py: Python<'py>,
    hypotheses: Vec<String>,
    references: Vec<Vec<String>>,
    n: usize,
    sigma: f64,
    clipping: bool,
    length_penalty: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let options = CiderOptions { n, sigma, clipping, length_penalty };
    let scores = run_released(py, threads, || cider_scores(&hypotheses, &references, &options))??;
    Ok(scores.into_pyarray(py))
}

/// Per-image ROUGE-L of tokenized captions (pycocoevalcap's rouge.py).
#[pyfunction]
#[pyo3(signature = (candidates, references, beta=1.2, threads=None))]
fn rouge_l_coco_image_scores<'py>(
    py: Python<'py>,
    candidates: Vec<String>,
    references: Vec<Vec<String>>,
    beta: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let scores = run_released(py, threads, || rouge_l_coco_scores(&candidates, &references, beta))??;
    Ok(scores.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cider_image_scores, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_l_coco_image_scores, m)?)?;
    Ok(())
}
