//! Bindings for `metrics::charcut` (CharCut, the `charcut` package).

use pyo3::prelude::*;

use crate::metrics::charcut::{compare, Comparison, StyledOp};

use super::errors::guard;

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
    m.add_function(wrap_pyfunction!(charcut_highlight, m)?)?;
    Ok(())
}
