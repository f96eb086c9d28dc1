//! Bindings for `metrics::ter`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;

use super::errors::catch_panics;
use super::strings::Lines;
use super::threads::run_released;
use crate::metrics::ter::{corpus_stats, score, sum_stats, TerNormalizer};

/// Per-segment TER statistics: `(num_edits int64 (n,), ref_length float64 (n,), sentence scores (n,),
/// total edits, total reference length)`. Inputs are right-stripped and lowercased by the caller.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, normalized, no_punct, asian_support, threads=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn ter_segment_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>, u64, f64)> {
    let normalizer = TerNormalizer { normalized, no_punct, asian_support };
    let lines = Lines::extract(hypotheses, references)?;
    let (hypotheses, references) = lines.borrow()?;
    let (edits, lengths, scores, total_edits, total_length) =
        run_released(py, threads, || -> crate::error::Result<_> {
            let stats = corpus_stats(&hypotheses, &references, &normalizer)?;
            let (total_edits, total_length) = sum_stats(&stats);
            let edits: Vec<i64> = stats.iter().map(|s| s.num_edits as i64).collect();
            let lengths: Vec<f64> = stats.iter().map(|s| s.ref_length).collect();
            let scores: Vec<f64> = stats.iter().map(|s| score(s.num_edits, s.ref_length)).collect();
            Ok((edits, lengths, scores, total_edits, total_length))
        })??;
    Ok((edits.into_pyarray(py), lengths.into_pyarray(py), scores.into_pyarray(py), total_edits, total_length))
}

/// TER (0–100+) of summed statistics.
#[pyfunction]
fn ter_score(total_edits: u64, total_ref_length: f64) -> PyResult<f64> {
    catch_panics(|| score(total_edits, total_ref_length))
}

/// Sequential (segment-order) sums of TER statistics, as sacreBLEU adds them.
#[pyfunction]
fn ter_sum(num_edits: Vec<u64>, ref_lengths: Vec<f64>) -> PyResult<(u64, f64)> {
    catch_panics(|| {
        let edits: u64 = num_edits.iter().sum();
        let length = ref_lengths.iter().fold(0.0, |total, value| total + value);
        (edits, length)
    })
}

/// sacreBLEU's `TercomTokenizer` on one (already lowercased, unless case-sensitive) line: tokens joined by spaces.
#[pyfunction]
fn ter_tokenize(line: &str, normalized: bool, no_punct: bool, asian_support: bool) -> String {
    TerNormalizer { normalized, no_punct, asian_support }.tokens(line).join(" ")
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(ter_segment_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ter_score, m)?)?;
    m.add_function(wrap_pyfunction!(ter_sum, m)?)?;
    Ok(())
}
