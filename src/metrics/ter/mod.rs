//! TER (Snover et al. 2006) as sacreBLEU 2.6.0 computes it (`sacrebleu/metrics/ter.py`): tercom
//! tokenization, edits with shifts against every reference, the fewest edits and the average
//! reference length per segment; the corpus score is total edits / total average reference length.

pub mod edit_distance;
pub mod normalize;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

pub use edit_distance::translation_edit_rate;
pub use normalize::TerNormalizer;

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;

/// One segment's statistics: the fewest edits over the references and their average length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerStats {
    pub num_edits: u64,
    pub ref_length: f64,
}

/// Statistics of one segment. Inputs are already right-stripped and (unless case-sensitive)
/// lowercased by the caller, as sacreBLEU's `_preprocess_segment` does before tokenizing.
pub fn segment_stats<S: AsRef<str>>(
    hypothesis: &str,
    references: &[S],
    normalizer: &TerNormalizer,
) -> Result<TerStats> {
    if references.is_empty() {
        return Err(Error::ShapeMismatch("a hypothesis has no reference".into()));
    }
    let mut vocab: FxHashMap<String, u32> = FxHashMap::default();
    let mut intern = |tokens: Vec<String>| -> Vec<u32> {
        tokens
            .into_iter()
            .map(|token| {
                let next = vocab.len() as u32;
                *vocab.entry(token).or_insert(next)
            })
            .collect()
    };
    let hyp = intern(normalizer.tokens(hypothesis));
    let mut best_edits = u64::MAX;
    let mut ref_lengths = 0usize;
    for reference in references {
        let reference = intern(normalizer.reference_tokens(reference.as_ref()));
        let (edits, length) = translation_edit_rate(&hyp, &reference).map_err(|_| {
            Error::InvalidOption("TER beam search failed on this segment (sacreBLEU raises here too)".into())
        })?;
        ref_lengths += length;
        best_edits = best_edits.min(edits);
    }
    Ok(TerStats { num_edits: best_edits, ref_length: ref_lengths as f64 / references.len() as f64 })
}

/// Per-segment statistics of a corpus, in parallel.
pub fn corpus_stats<H, R>(hypotheses: &[H], references: &[Vec<R>], normalizer: &TerNormalizer) -> Result<Vec<TerStats>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    if hypotheses.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "references has {} entries but there are {} hypotheses",
            references.len(),
            hypotheses.len()
        )));
    }
    let one = |(index, (hyp, refs)): (usize, (&H, &Vec<R>))| {
        segment_stats(hyp.as_ref(), refs, normalizer).map_err(|error| match error {
            Error::InvalidOption(msg) | Error::ShapeMismatch(msg) => {
                Error::ShapeMismatch(format!("segment {index}: {msg}"))
            }
        })
    };
    // a single segment stays on the calling thread (no thread-pool hand-off)
    if hypotheses.len() < 2 {
        hypotheses.iter().zip(references).enumerate().map(one).collect()
    } else {
        hypotheses.par_iter().zip(references.par_iter()).enumerate().map(one).collect()
    }
}

/// The TER score (0–100+) of summed statistics (sacreBLEU `TER._compute_score_from_stats`).
pub fn score(total_edits: u64, total_ref_length: f64) -> f64 {
    let rate = if total_ref_length > 0.0 {
        total_edits as f64 / total_ref_length
    } else if total_edits > 0 {
        1.0
    } else {
        0.0
    };
    100.0 * rate
}

/// Sums statistics in segment order, as sacreBLEU's `sum_of_lists` does (the float sum is sequential).
pub fn sum_stats(stats: &[TerStats]) -> (u64, f64) {
    stats.iter().fold((0, 0.0), |(edits, length), s| (edits + s.num_edits, length + s.ref_length))
}

/// TER's row is the one sacreBLEU keeps: `[edits, mean reference length]`, both floats.
impl SegmentMetric for TerNormalizer {
    type Stat = f64;
    type Scratch = ();
    const NAME: &'static str = "ter";
    /// A single segment stays on the calling thread (no thread-pool hand-off).
    const PARALLEL_FROM: usize = 2;

    fn width(&self) -> usize {
        2
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [f64], _: &mut ()) -> Result<()> {
        let stats = segment_stats(hyp, refs, self)?;
        row.copy_from_slice(&[stats.num_edits as f64, stats.ref_length]);
        Ok(())
    }

    fn score_row(&self, row: &[f64]) -> f64 {
        score(row[0] as u64, row[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_reference_and_average_length() {
        let normalizer = TerNormalizer::default();
        let stats = segment_stats("a b c", &["a b c d", "x"], &normalizer).unwrap();
        assert_eq!(stats, TerStats { num_edits: 1, ref_length: 2.5 });
    }

    #[test]
    fn empty_reference_score() {
        assert_eq!(score(3, 0.0), 100.0);
        assert_eq!(score(0, 0.0), 0.0);
    }
}
