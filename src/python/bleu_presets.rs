//! Bindings of the `nltk` and `coco` BLEU presets (`metrics::bleu::nltk`, `metrics::bleu::coco`).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::threads::run_released;

use crate::metrics::bleu::{coco as bleu_coco, nltk as bleu_nltk};
use crate::text::BleuTokenizer;

fn rows_to_array<'py>(py: Python<'py>, rows: Vec<Vec<u64>>, width: usize) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let flat: Vec<u64> = rows.into_iter().flatten().collect();
    let n_rows = flat.len() / width.max(1);
    PyArray1::from_vec(py, flat).reshape([n_rows, width])
}

/// NLTK BLEU's counting options for raw lines: the order counted and the tokenizer (`"split"` or a sacreBLEU name).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct NltkTextOptions {
    max_order: usize,
    tokenize: String,
}

/// NLTK sentence BLEU's float scoring options (`nlgmetrics.metrics.bleu.nltk`): weights as floats,
/// `smooth` `none`/`method0`…`method4` with `epsilon` and `k`, and whether the weights are NLTK's default.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct NltkFloatOptions {
    max_order: usize,
    weights: Vec<f64>,
    smooth: String,
    epsilon: f64,
    k: f64,
    auto_reweigh: bool,
    weights_are_default: bool,
}

/// pycocoevalcap BLEU's scoring options: BLEU-1..`max_order` and the reference length (`ref_length`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CocoScoreOptions {
    max_order: usize,
    ref_length: String,
}

/// Splits a line into tokens: `"split"` is Python's `str.split()`; any other name is a sacreBLEU
/// tokenizer whose output is then split the same way.
fn tokenize_lines(lines: &[String], tokenize: &str) -> PyResult<Vec<Vec<String>>> {
    let split = |text: &str| crate::text::pystr::split_tokens(text).map(str::to_owned).collect::<Vec<String>>();
    if tokenize == "split" {
        return Ok(lines.iter().map(|line| split(line)).collect());
    }
    let tokenizer = BleuTokenizer::from_name(tokenize)?;
    Ok(lines.iter().map(|line| split(&tokenizer.tokenize(line))).collect())
}

/// NLTK BLEU statistics of pre-tokenized segments: one row `[hyp_len, closest_ref_len,
/// matches_1..N, denominators_1..N]` per hypothesis (uint64, shape `(n, 2 + 2N)`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, max_order, threads=None))]
fn bleu_nltk_token_stats<'py>(
    py: Python<'py>,
    hypotheses: Vec<Vec<String>>,
    references: Vec<Vec<Vec<String>>>,
    max_order: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let rows = run_released(py, threads, || bleu_nltk::batch_stats(&hypotheses, &references, max_order))??;
    rows_to_array(py, rows, bleu_nltk::row_width(max_order))
}

/// NLTK BLEU statistics of pre-tokenized segments whose tokens are already interned to ints.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, max_order, threads=None))]
fn bleu_nltk_id_stats<'py>(
    py: Python<'py>,
    hypotheses: Vec<Vec<u32>>,
    references: Vec<Vec<Vec<u32>>>,
    max_order: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    if hypotheses.len() != references.len() {
        return Err(PyValueError::new_err(format!(
            "{} hypotheses but {} reference sets",
            hypotheses.len(),
            references.len()
        )));
    }
    let rows: Vec<Vec<u64>> = run_released(py, threads, || {
        use rayon::prelude::*;
        hypotheses
            .par_iter()
            .zip(references.par_iter())
            .enumerate()
            .map(|(index, (hyp, refs))| {
                bleu_nltk::segment_stats(hyp, refs, max_order).map_err(|_| {
                    crate::error::Error::ShapeMismatch(format!(
                        "references[{index}] is empty: every hypothesis needs at least one reference"
                    ))
                })
            })
            .collect::<crate::error::Result<Vec<_>>>()
    })??;
    rows_to_array(py, rows, bleu_nltk::row_width(max_order))
}

/// NLTK BLEU statistics of raw lines, tokenized here (options: `max_order`, `tokenize`).
#[pyfunction]
#[pyo3(signature = (hypotheses, references, options, threads=None))]
fn bleu_nltk_text_stats<'py>(
    py: Python<'py>,
    hypotheses: Vec<String>,
    references: Vec<Vec<String>>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let NltkTextOptions { max_order, tokenize } = options.extract()?;
    let tokenize = tokenize.as_str();
    let rows = run_released(py, threads, || -> PyResult<Vec<Vec<u64>>> {
        let hyp_tokens = tokenize_lines(&hypotheses, tokenize)?;
        let ref_tokens: Vec<Vec<Vec<String>>> =
            references.iter().map(|refs| tokenize_lines(refs, tokenize)).collect::<PyResult<_>>()?;
        Ok(bleu_nltk::batch_stats(&hyp_tokens, &ref_tokens, max_order)?)
    })??;
    rows_to_array(py, rows, bleu_nltk::row_width(max_order))
}

/// pycocoevalcap BLEU statistics of whitespace-tokenized captions: one row per image
/// `[testlen, closest_reflen, shortest_reflen, sum_reflen, n_refs, guess_1..4, correct_1..4]`.
#[pyfunction]
#[pyo3(signature = (captions, references, threads=None))]
fn bleu_coco_stats<'py>(
    py: Python<'py>,
    captions: Vec<String>,
    references: Vec<Vec<String>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u64>>> {
    let rows = run_released(py, threads, || bleu_coco::batch_stats(&captions, &references))??;
    let rows: Vec<Vec<u64>> = rows.into_iter().map(|row| row.to_vec()).collect();
    rows_to_array(py, rows, bleu_coco::ROW_WIDTH)
}

/// pycocoevalcap BLEU-1..n from statistics rows (options: `max_order`, `ref_length`):
/// `(corpus_scores, per_image_scores[n][images])`.
#[pyfunction]
#[pyo3(signature = (stats, options, threads=None))]
fn bleu_coco_scores(
    py: Python<'_>,
    stats: numpy::PyReadonlyArray2<'_, u64>,
    options: &Bound<'_, PyDict>,
    threads: Option<usize>,
) -> PyResult<(Vec<f64>, Vec<Vec<f64>>)> {
    let CocoScoreOptions { max_order: n, ref_length } = options.extract()?;
    let option = bleu_coco::RefLength::parse(&ref_length)?;
    let view = stats.as_array();
    if view.ncols() != bleu_coco::ROW_WIDTH {
        return Err(PyValueError::new_err(format!(
            "stats must have {} columns, got {}",
            bleu_coco::ROW_WIDTH,
            view.ncols()
        )));
    }
    let rows: Vec<[u64; bleu_coco::ROW_WIDTH]> = view
        .rows()
        .into_iter()
        .map(|row| {
            let mut fixed = [0u64; bleu_coco::ROW_WIDTH];
            fixed.iter_mut().zip(row.iter()).for_each(|(slot, &value)| *slot = value);
            fixed
        })
        .collect();
    if rows.iter().any(|row| row[4] == 0) {
        return Err(PyValueError::new_err("stats has a row with zero references"));
    }
    Ok(run_released(py, threads, || bleu_coco::scores(&rows, n, option))??)
}

/// NLTK sentence BLEU of every statistics row for smoothing `none`/`method0`…`method4`
/// (a float per row; `0.0` where NLTK returns the int 0), under the options of [`NltkFloatOptions`].
#[pyfunction]
#[pyo3(signature = (stats, options, threads=None))]
fn bleu_nltk_float_scores<'py>(
    py: Python<'py>,
    stats: numpy::PyReadonlyArray2<'_, u64>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let NltkFloatOptions { max_order, weights, smooth, epsilon, k, auto_reweigh, weights_are_default } =
        options.extract()?;
    let smoothing = bleu_nltk::FloatSmoothing::parse(&smooth, epsilon, k)?;
    let view = stats.as_array();
    if view.ncols() != bleu_nltk::row_width(max_order) {
        return Err(PyValueError::new_err(format!(
            "stats must have {} columns for max_order {max_order}, got {}",
            bleu_nltk::row_width(max_order),
            view.ncols()
        )));
    }
    let rows: Vec<Vec<u64>> = view.rows().into_iter().map(|row| row.to_vec()).collect();
    let scores = run_released(py, threads, || {
        bleu_nltk::float_scores(&rows, max_order, &weights, smoothing, auto_reweigh, weights_are_default)
    })?;
    Ok(PyArray1::from_vec(py, scores))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bleu_nltk_token_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_nltk_id_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_nltk_text_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_nltk_float_scores, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_coco_stats, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_coco_scores, m)?)?;
    Ok(())
}
