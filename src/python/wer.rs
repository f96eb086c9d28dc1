//! Bindings for `metrics::wer` (jiwer's WER family and CER) and `metrics::edit_distance`.

use pyo3::prelude::*;

use crate::error::Error;
use crate::metrics::edit_distance::{editops, opcodes, EditKind, Opcode};
use crate::metrics::wer::{segment_alignment, ErrorRateConfig, Unit};

use super::errors::guard;

fn config(unit: &str, remove_multiple_spaces: bool, strip: bool) -> PyResult<ErrorRateConfig> {
    let unit = match unit {
        "words" => Unit::Words,
        "characters" => Unit::Characters,
        other => {
            return Err(Error::InvalidOption(format!("unit must be 'words' or 'characters', got {other:?}")).into())
        }
    };
    Ok(ErrorRateConfig { unit, remove_multiple_spaces, strip })
}

/// An alignment chunk as jiwer names it: `(tag, ref_start, ref_end, hyp_start, hyp_end)`.
type Chunk = (&'static str, usize, usize, usize, usize);

/// jiwer's tag for an opcode ("equal", "substitute", "insert", "delete"), and its bounds.
fn chunk(code: &Opcode) -> Chunk {
    let tag = match code.kind {
        None => "equal",
        Some(EditKind::Replace) => "substitute",
        Some(EditKind::Insert) => "insert",
        Some(EditKind::Delete) => "delete",
    };
    (tag, code.src_start, code.src_end, code.dest_start, code.dest_end)
}

/// jiwer's alignment chunks of one pair `[(tag, ref_start, ref_end, hyp_start, hyp_end)]`.
#[pyfunction]
fn error_rate_alignment(
    hypothesis: &str,
    reference: &str,
    unit: &str,
    remove_multiple_spaces: bool,
    strip: bool,
) -> PyResult<Vec<Chunk>> {
    guard(|| {
        let config = config(unit, remove_multiple_spaces, strip)?;
        Ok(segment_alignment(reference, hypothesis, &config).chunks.iter().map(chunk).collect())
    })
}

/// rapidfuzz's `Levenshtein.opcodes(s1, s2)` on integer sequences (for parity checks).
#[pyfunction]
fn levenshtein_opcodes(s1: Vec<u64>, s2: Vec<u64>) -> PyResult<Vec<Chunk>> {
    guard(|| Ok(opcodes_of(&s1, &s2)))
}

fn opcodes_of(s1: &[u64], s2: &[u64]) -> Vec<Chunk> {
    let mut ids = rustc_hash::FxHashMap::default();
    let mut dense = |values: &[u64]| -> Vec<u32> {
        values
            .iter()
            .map(|v| {
                let next = ids.len() as u32;
                *ids.entry(*v).or_insert(next)
            })
            .collect()
    };
    let (a, b) = (dense(s1), dense(s2));
    let alphabet = ids.len().max(1);
    opcodes(&editops(&a, &b, alphabet), a.len(), b.len()).iter().map(chunk).collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(error_rate_alignment, m)?)?;
    m.add_function(wrap_pyfunction!(levenshtein_opcodes, m)?)?;
    Ok(())
}
