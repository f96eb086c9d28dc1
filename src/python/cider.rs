//! Bindings for the COCO caption metrics `metrics::cider` and `metrics::rouge::coco`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::threads::{run_kernel, run_released};

use crate::metrics::cider::{cider_scores, CiderOptions};
use crate::metrics::rouge::coco::rouge_l_coco_scores;

/// CIDEr's options as the Python metric holds them (`nlgmetrics.metrics.cider.CIDEr`; `tokenize` is applied
/// in Python first, so it is not read here).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CiderDictOptions {
    n: usize,
    sigma: f64,
    variant: String,
}

impl CiderDictOptions {
    /// CIDEr-D clips and penalizes the length difference; the original CIDEr does neither.
    fn build(self) -> PyResult<CiderOptions> {
        let derived = match self.variant.as_str() {
            "cider-d" => true,
            "cider" => false,
            other => return Err(PyValueError::new_err(format!("variant must be 'cider-d' or 'cider', got {other:?}"))),
        };
        Ok(CiderOptions { n: self.n, sigma: self.sigma, clipping: derived, length_penalty: derived })
    }
}

/// Per-image CIDEr(-D) of tokenized captions (pycocoevalcap's cider_scorer.py); `options`: `n`, `sigma` and
/// `variant` (`"cider-d"` or `"cider"`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, options, threads=None))]
fn cider_image_scores<'py>(
    py: Python<'py>,
    hypotheses: Vec<String>,
    references: Vec<Vec<String>>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let options = options.extract::<CiderDictOptions>()?.build()?;
    let scores = run_kernel(py, threads, || cider_scores(&hypotheses, &references, &options))?;
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
