//! Bindings for `metrics::charcut` (CharCut, the `charcut` package).

use numpy::PyArray2;
use pyo3::prelude::*;

use crate::metrics::charcut::{compare, corpus_stats, Comparison, StyledOp};

use super::arrays::matrix;
use super::errors::guard;
use super::strings::Texts;
use super::threads::run_released;

/// Per-segment (cost, normaliser) `(n, 2)`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, match_size, alt_norm, threads=None))]
fn charcut_segment_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    match_size: usize,
    alt_norm: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let (hypotheses, references) =
        (Texts::extract(hypotheses, "hypotheses")?, Texts::extract(references, "references")?);
    let (hypotheses, references) = (hypotheses.borrow()?, references.borrow()?);
    let stats = run_released(py, threads, || corpus_stats(&hypotheses, &references, match_size, alt_norm))??;
    let rows = hypotheses.len();
    let stats: Vec<i64> = stats.into_iter().map(|v| v as i64).collect();
    Ok(matrix(py, rows, 2, stats))
}

type StyledTuple = (i64, i64, String, i64, &'static str, String);

fn styled_tuples(comparison: &Comparison, ops: &[StyledOp]) -> Vec<StyledTuple> {
    ops.iter()
        .map(|s| {
            let class = s.style.css_class();
            let prefix = match class {
                "ins" | "del" => "diff",
                other => other,
            };
            (s.op.alo, s.op.blo, comparison.text(&s.op), s.op.dist, class, format!("{prefix}{}", s.id))
        })
        .collect()
}

/// charcut's `compare_segments`: the candidate's and the reference's styled operations
/// `(alo, blo, substring, distance, css class, css id)`.
#[pyfunction]
fn charcut_highlight(
    hypothesis: &str,
    reference: &str,
    match_size: usize,
) -> PyResult<(Vec<StyledTuple>, Vec<StyledTuple>)> {
    guard(|| {
        let comparison = compare(hypothesis, reference, match_size)?;
        Ok((styled_tuples(&comparison, &comparison.cand_ops), styled_tuples(&comparison, &comparison.ref_ops)))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(charcut_segment_stats, m)?)?;
    m.add_function(wrap_pyfunction!(charcut_highlight, m)?)?;
    Ok(())
}
