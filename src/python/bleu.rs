//! Bindings for `metrics::bleu`: segment statistics and scores as NumPy arrays.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::guard;

use crate::metrics::bleu::{BleuScoring, Smoothing, Summation};
use crate::text::BleuTokenizer;

use super::threads::run_kernel;

/// sacreBLEU BLEU's scoring options, read from a dict by name (`nlgmetrics.metrics.bleu.sacrebleu.check_options`'s
/// keys; other keys are not read): shared by the BLEU scorer, the row scores and the pairwise matrices.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct BleuScoringOptions {
    max_order: usize,
    smooth: String,
    smooth_value: Option<f64>,
    effective_order: bool,
    weights: Option<Vec<f64>>,
}

impl BleuScoringOptions {
    /// The scoring, its log precisions summed as this interpreter's `sum()` (compensated from CPython 3.12 on),
    /// as sacreBLEU sums them.
    pub(crate) fn build(self, py: Python<'_>) -> PyResult<BleuScoring> {
        let summation = if py.version_info() >= (3, 12) { Summation::Neumaier } else { Summation::Sequential };
        let smoothing = Smoothing::from_name(&self.smooth)?;
        Ok(BleuScoring::new(
            self.max_order,
            smoothing,
            self.smooth_value,
            self.effective_order,
            self.weights,
            summation,
        )?)
    }

    /// [`build`](Self::build) from an options dict.
    pub(crate) fn scoring(options: &Bound<'_, PyDict>) -> PyResult<BleuScoring> {
        options.extract::<Self>()?.build(options.py())
    }
}

/// sacreBLEU BLEU's tokenizer option (`tokenize` as the core reads it: MeCab text comes pre-tokenized as "none").
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct TokenizeOption {
    tokenize: String,
}

/// sacreBLEU BLEU's tokenizer and scoring from its options dict (the segment scorer, the pairwise matrices).
pub(crate) fn tokenizer_and_scoring(options: &Bound<'_, PyDict>) -> PyResult<(BleuTokenizer, BleuScoring)> {
    let TokenizeOption { tokenize } = options.extract()?;
    let scoring = options.extract::<BleuScoringOptions>()?;
    Ok((BleuTokenizer::from_name(&tokenize)?, scoring.build(options.py())?))
}

fn array_rows(stats: &PyReadonlyArray2<'_, i64>) -> Vec<i64> {
    match stats.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => stats.as_array().iter().copied().collect(),
    }
}

/// The BLEU score of each statistics row (e.g. each segment's sentence score), under the scoring options.
#[pyfunction]
#[pyo3(signature = (stats, options, threads=None))]
fn bleu_row_scores<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let scoring = BleuScoringOptions::scoring(options)?;
    let rows = array_rows(&stats);
    let scores = run_kernel(py, threads, || scoring.score_rows(&rows))?;
    Ok(scores.into_pyarray(py))
}

/// `(score, precisions, bp)` of one statistics row (usually the column sums of a corpus), under the scoring options.
#[pyfunction]
fn bleu_score_from_stats(stats: Vec<i64>, options: &Bound<'_, PyDict>) -> PyResult<(f64, Vec<f64>, f64)> {
    guard(|| {
        let result = BleuScoringOptions::scoring(options)?.score(&stats)?;
        Ok((result.score, result.precisions, result.bp))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_row_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_score_from_stats, m)?)?;
    Ok(())
}
