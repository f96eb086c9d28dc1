//! Bindings for `metrics::wer` (jiwer's WER family and CER) and `metrics::edit_distance`.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::Error;
use crate::metrics::edit_distance::{editops, opcodes, EditKind, Opcode};
use crate::metrics::wer::{segment_alignment, ErrorRateConfig, Unit};

use super::errors::guard;
use super::segment::ErrorRateOptions;

/// The unit an alignment counts in (`"words"` or `"characters"`), beside the WER family's text options.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct UnitOption {
    unit: String,
}

/// The text configuration of an options dict: `unit`, `remove_multiple_spaces` (None: the unit's default), `strip`.
fn config(options: &Bound<'_, PyDict>) -> PyResult<ErrorRateConfig> {
    let UnitOption { unit } = options.extract()?;
    let text = options.extract::<ErrorRateOptions>()?;
    let unit = match unit.as_str() {
        "words" => Unit::Words,
        "characters" => Unit::Characters,
        other => {
            return Err(Error::InvalidOption(format!("unit must be 'words' or 'characters', got {other:?}")).into())
        }
    };
    Ok(text.config(unit))
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

/// jiwer's alignment chunks of one pair `[(tag, ref_start, ref_end, hyp_start, hyp_end)]` (options as [`config`]).
#[pyfunction]
fn error_rate_alignment(hypothesis: &str, reference: &str, options: &Bound<'_, PyDict>) -> PyResult<Vec<Chunk>> {
    guard(|| {
        let config = config(options)?;
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
