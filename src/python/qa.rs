//! Bindings for `metrics::qa`: normalisation and the SQuAD corpus reductions (exact match and F1 per
//! question are `_core.SegmentScorer("squad", …)`).

use numpy::{IntoPyArray, PyReadonlyArray1};
use pyo3::prelude::*;

use super::errors::guard;

use super::threads::released;
use pyo3::types::PyDict;

use super::segment_options::qa_normalizer;
use crate::metrics::qa::squad::{squad_v1_totals, squad_v2_evaluation, V2Question, V2Subset};

/// evaluate-v2.0.py's options: the no-answer threshold and whether to search the best thresholds.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SquadV2Options {
    na_prob_thresh: f64,
    with_best_thresholds: bool,
}

/// The normalised form of each text (what exact match compares); options: `normalizer`, `language`.
#[pyfunction]
fn qa_normalize(py: Python<'_>, texts: Vec<String>, options: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
    let normalizer = qa_normalizer(options)?;
    released(py, || texts.iter().map(|text| normalizer.normalize(text)).collect())
}

/// The units F1 counts for each text (tokens, or CMRC's mixed segments); options as `qa_normalize`.
#[pyfunction]
fn qa_tokens(py: Python<'_>, texts: Vec<String>, options: &Bound<'_, PyDict>) -> PyResult<Vec<Vec<String>>> {
    let normalizer = qa_normalizer(options)?;
    released(py, || texts.iter().map(|text| normalizer.tokens(text)).collect())
}

/// evaluate-v1.1.py's totals: (exact_match, f1) in percent.
#[pyfunction]
fn squad_v1_reduce(
    exact: PyReadonlyArray1<'_, f64>,
    f1: PyReadonlyArray1<'_, f64>,
    total: usize,
) -> PyResult<(f64, f64)> {
    guard(|| Ok(squad_v1_totals(exact.as_slice()?, f1.as_slice()?, total)?))
}

fn put_subset(dict: &Bound<'_, PyDict>, prefix: &str, subset: &V2Subset) -> PyResult<()> {
    dict.set_item(format!("{prefix}exact"), subset.exact)?;
    dict.set_item(format!("{prefix}f1"), subset.f1)?;
    dict.set_item(format!("{prefix}total"), subset.total)?;
    Ok(())
}

/// evaluate-v2.0.py's `out_eval` (plus the thresholded per-question arrays under `_exact`, `_f1`); options as
/// [`SquadV2Options`].
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn squad_v2_reduce<'py>(
    py: Python<'py>,
    has_answer: Vec<bool>,
    exact: PyReadonlyArray1<'_, f64>,
    f1: PyReadonlyArray1<'_, f64>,
    prediction_empty: Vec<bool>,
    na_prob: Vec<f64>,
    na_rank: Vec<usize>,
    num_no_ans: usize,
    options: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let SquadV2Options { na_prob_thresh, with_best_thresholds } = options.extract()?;
    guard(|| {
        let (exact, f1) = (exact.as_slice()?, f1.as_slice()?);
        let n = has_answer.len();
        if [exact.len(), f1.len(), prediction_empty.len(), na_prob.len(), na_rank.len()].iter().any(|&len| len != n) {
            return Err(pyo3::exceptions::PyValueError::new_err("squad_v2_reduce: arrays of different lengths"));
        }
        let questions: Vec<V2Question> = (0..n)
            .map(|i| V2Question {
                has_answer: has_answer[i],
                exact: exact[i],
                f1: f1[i],
                prediction_empty: prediction_empty[i],
                na_prob: na_prob[i],
                na_rank: na_rank[i],
            })
            .collect();
        let eval = squad_v2_evaluation(&questions, num_no_ans, na_prob_thresh, with_best_thresholds)?;
        let dict = PyDict::new(py);
        put_subset(&dict, "", &eval.overall)?;
        if let Some(subset) = &eval.has_ans {
            put_subset(&dict, "HasAns_", subset)?;
        }
        if let Some(subset) = &eval.no_ans {
            put_subset(&dict, "NoAns_", subset)?;
        }
        if let Some(best) = &eval.best {
            dict.set_item("best_exact", best.best_exact)?;
            dict.set_item("best_exact_thresh", best.best_exact_thresh)?;
            dict.set_item("best_f1", best.best_f1)?;
            dict.set_item("best_f1_thresh", best.best_f1_thresh)?;
        }
        dict.set_item("_exact", eval.exact_thresholded.into_pyarray(py))?;
        dict.set_item("_f1", eval.f1_thresholded.into_pyarray(py))?;
        Ok(dict)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(qa_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(qa_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(squad_v1_reduce, m)?)?;
    m.add_function(wrap_pyfunction!(squad_v2_reduce, m)?)?;
    Ok(())
}
