//! ROUGE (Lin 2004): N, L, Lsum — segment statistics and scores.
//!
//! Each variant of each segment yields `Counts { hits, candidate_total, reference_total }`; a score
//! is a pure function of them. The `rouge_score` preset reproduces google-research rouge_score
//! 0.1.2 (`rouge_score/rouge_scorer.py`): per-reference scores and, with several references, the
//! reference with the highest F per variant (`score_multi`). `rouge155` is ROUGE-1.5.5's preset,
//! `coco` pycocoevalcap's ROUGE-L.

pub mod coco;
mod lcs;
mod ngram;
pub mod rouge155;
mod segment;

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;
use crate::text::rouge::RougeTokenizer;
use rayon::prelude::*;

pub use lcs::{lcs_length, summary_lcs_hits_rouge_score, LcsScratch};
pub use ngram::{ngram_counts, NgramScratch};

/// One ROUGE variant, parsed from its name (`rouge1`…`rouge9`, `rougeL`, `rougeLsum`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Variant {
    /// ROUGE-N, n in 1..=9.
    Ngram(usize),
    /// Sentence-level LCS over the whole text.
    L,
    /// Summary-level union LCS over newline-separated sentences.
    Lsum,
}

impl Variant {
    pub fn parse(name: &str) -> Result<Self> {
        let invalid = || {
            Error::InvalidOption(format!("invalid ROUGE variant {name:?}: expected rouge1…rouge9, rougeL or rougeLsum"))
        };
        match name {
            "rougeL" => Ok(Self::L),
            "rougeLsum" => Ok(Self::Lsum),
            _ => {
                let digits = name.strip_prefix("rouge").ok_or_else(invalid)?;
                match digits.as_bytes() {
                    [digit @ b'1'..=b'9'] => Ok(Self::Ngram((digit - b'0') as usize)),
                    _ => Err(invalid()),
                }
            }
        }
    }
}

/// Overlap statistics of one variant for one (candidate, reference) pair.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counts {
    pub hits: f64,
    pub candidate_total: f64,
    pub reference_total: f64,
}

impl Counts {
    fn from_usize((hits, candidate_total, reference_total): (usize, usize, usize)) -> Self {
        Counts { hits: hits as f64, candidate_total: candidate_total as f64, reference_total: reference_total as f64 }
    }

    /// rouge_score's `(precision, recall, fmeasure)`: 0 for an empty side, F = 2PR/(P+R).
    pub fn rouge_score_prf(&self) -> [f64; 3] {
        let precision = if self.candidate_total > 0.0 { self.hits / self.candidate_total } else { 0.0 };
        let recall = if self.reference_total > 0.0 { self.hits / self.reference_total } else { 0.0 };
        [precision, recall, rouge_score_fmeasure(precision, recall)]
    }
}

/// `scoring.fmeasure` of rouge_score, with its operation order.
pub fn rouge_score_fmeasure(precision: f64, recall: f64) -> f64 {
    if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    }
}

/// Per segment, per variant: the chosen reference's counts and `[P, R, F]`.
pub type SegmentScores = Vec<(Counts, [f64; 3])>;

/// Everything that changes a `rouge_score`-preset number.
#[derive(Debug, Clone)]
pub struct RougeScoreOptions {
    pub variants: Vec<Variant>,
    pub tokenizer: RougeTokenizer,
    pub stem: bool,
}

/// The `rouge_score` preset as a segment metric: per segment the `[hits, candidate total, reference total]`
/// of each variant, then the `[P, R, F]` of each variant, then 1 (float64, `6 × variants + 1` wide). A row's
/// score is the first variant's mean F (its summed F over the count column).
///
/// ```
/// use nlgmetrics::metrics::rouge::{RougeScoreOptions, Variant};
/// use nlgmetrics::metrics::segment::batch_rows;
/// use nlgmetrics::text::rouge::RougeTokenizer;
/// let rouge1 = RougeScoreOptions { variants: vec![Variant::Ngram(1)], tokenizer: RougeTokenizer::RougeScore, stem: false };
/// let rows = batch_rows(&rouge1, &["the cat sat"], &[vec!["the cat"]]).unwrap();
/// assert_eq!(rows, vec![2.0, 3.0, 2.0, 2.0 / 3.0, 1.0, 0.8, 1.0]);
/// ```
impl SegmentMetric for RougeScoreOptions {
    type Stat = f64;
    type Scratch = SegmentScores;
    const NAME: &'static str = "rouge";

    fn width(&self) -> usize {
        6 * self.variants.len() + 1
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [f64], scores: &mut SegmentScores) -> Result<()> {
        let variants = self.variants.len();
        scores.clear();
        scores.resize(variants, Default::default());
        segment::score_segment_into(self, hyp, refs, scores)?;
        let (counts, rest) = row.split_at_mut(3 * variants);
        let (prf, count) = rest.split_at_mut(3 * variants);
        for (k, (segment_counts, segment_prf)) in scores.iter().enumerate() {
            let Counts { hits, candidate_total, reference_total } = *segment_counts;
            counts[3 * k..3 * k + 3].copy_from_slice(&[hits, candidate_total, reference_total]);
            prf[3 * k..3 * k + 3].copy_from_slice(segment_prf);
        }
        count[0] = 1.0;
        Ok(())
    }

    fn score_row(&self, row: &[f64]) -> f64 {
        match self.variants.len() {
            0 => f64::NAN, // no variant, no score
            variants => row[3 * variants + 2] / row[6 * variants],
        }
    }
}

/// A text's tokens: whole text (every variant but `rougeLsum`) and per sentence (`rougeLsum`).
#[derive(Debug, Clone, Default)]
pub struct TokenizedText {
    pub all: Vec<String>,
    pub sentences: Vec<Vec<String>>,
}

/// Scores of one segment under the `rouge_score` preset: for each variant, the counts and
/// `[P, R, F]` of the reference with the highest F (first on ties, as `np.argmax`).
pub fn rouge_score_segment<S: AsRef<str>>(
    options: &RougeScoreOptions,
    candidate: &str,
    references: &[S],
) -> Result<SegmentScores> {
    let mut out = vec![Default::default(); options.variants.len()];
    segment::score_segment_into(options, candidate, references, &mut out)?;
    Ok(out)
}

/// `rouge_score_segment` on texts tokenized elsewhere (e.g. by a user's Python tokenizer).
pub fn rouge_score_segment_tokens(
    variants: &[Variant],
    candidate: &TokenizedText,
    references: &[TokenizedText],
) -> Result<SegmentScores> {
    let mut out = vec![Default::default(); variants.len()];
    segment::score_tokens_into(variants, candidate, references, &mut out)?;
    Ok(out)
}

/// Batches of at most this many segments are scored on the calling thread.
const SEQUENTIAL_BATCH: usize = 8;

/// `rouge_score_segment` over a batch, in parallel: one entry per segment and variant, segment
/// after segment (`[segment * variants.len() + variant]`). `references[i]` must be non-empty.
pub fn rouge_score_batch<S: AsRef<str> + Sync>(
    options: &RougeScoreOptions,
    candidates: &[S],
    references: &[Vec<S>],
) -> Result<Vec<(Counts, [f64; 3])>> {
    if candidates.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "{} predictions but {} reference entries",
            candidates.len(),
            references.len()
        )));
    }
    if let Some(index) = references.iter().position(Vec::is_empty) {
        return Err(Error::ShapeMismatch(format!("references[{index}] is empty")));
    }
    let width = options.variants.len();
    let mut out = vec![Default::default(); candidates.len() * width];
    if width > 0 && candidates.len() <= SEQUENTIAL_BATCH {
        // A few segments (e.g. one `score()` call of the rouge_score facade): handing them to the
        // thread pool would cost more than scoring them here.
        for (k, ((slots, candidate), refs)) in out.chunks_mut(width).zip(candidates).zip(references).enumerate() {
            segment::score_segment_into(options, candidate.as_ref(), refs, slots).map_err(|e| e.at_segment(k))?;
        }
    } else if width > 0 {
        out.par_chunks_mut(width).zip(candidates.par_iter().zip(references.par_iter())).enumerate().try_for_each(
            |(k, (slots, (candidate, refs)))| {
                segment::score_segment_into(options, candidate.as_ref(), refs, slots).map_err(|e| e.at_segment(k))
            },
        )?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(variant: &str, candidate: &str, reference: &str) -> [f64; 3] {
        let options = RougeScoreOptions {
            variants: vec![Variant::parse(variant).unwrap()],
            tokenizer: RougeTokenizer::RougeScore,
            stem: false,
        };
        rouge_score_segment(&options, candidate, &[reference.to_string()]).unwrap()[0].1
    }

    #[test]
    fn seed_examples_from_the_issue() {
        let r1 = score("rouge1", "the cat was found under the bed", "the cat was under the bed");
        assert_eq!(r1[1], 1.0);
        let r2 = score("rouge2", "the cat was found under the bed", "the cat was under the bed");
        assert_eq!(r2[1], 0.8);
        let l = score("rougeL", "police kill the gunman", "police killed the gunman");
        assert_eq!(l[1], 0.75);
        let r1 = score("rouge1", "the cat the cat is on the mat", "the cat sat on the mat");
        assert_eq!(r1[0], 0.625);
        assert_eq!(score("rouge2", "the cat the cat is on the mat", "the cat sat on the mat")[2], 0.5);
    }

    #[test]
    fn variant_names() {
        assert_eq!(Variant::parse("rouge9").unwrap(), Variant::Ngram(9));
        for bad in ["rouge0", "rougeX", "rouge10", "rouge", "ROUGE1", "rougel"] {
            assert!(Variant::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn segment_rows_hold_counts_then_scores_then_a_count() {
        use crate::metrics::segment::{batch_rows, score_rows};
        let options = RougeScoreOptions {
            variants: vec![Variant::parse("rouge2").unwrap(), Variant::L],
            tokenizer: RougeTokenizer::RougeScore,
            stem: false,
        };
        let (hyp, reference) = ("the cat was found under the bed", "the cat was under the bed");
        let rows = batch_rows(&options, &[hyp, hyp], &[vec![reference], vec![reference]]).unwrap();
        let expected = rouge_score_segment(&options, hyp, &[reference]).unwrap();
        let (bigrams, lcs) = (expected[0], expected[1]);
        assert_eq!(&rows[..3], &[bigrams.0.hits, bigrams.0.candidate_total, bigrams.0.reference_total]);
        assert_eq!(&rows[3..6], &[lcs.0.hits, lcs.0.candidate_total, lcs.0.reference_total]);
        assert_eq!(&rows[6..9], &bigrams.1);
        assert_eq!(&rows[9..13], &[lcs.1[0], lcs.1[1], lcs.1[2], 1.0]);
        let sums: Vec<f64> = (0..13).map(|k| rows[k] + rows[13 + k]).collect();
        assert_eq!(score_rows(&options, &sums).unwrap(), vec![bigrams.1[2]]);
        let error = batch_rows(&options, &[hyp], &[vec![]]).unwrap_err();
        assert!(error.to_string().starts_with("references[0] is empty"), "{error}");
        let none = RougeScoreOptions { variants: vec![], tokenizer: RougeTokenizer::RougeScore, stem: false };
        assert!(none.score_row(&[1.0]).is_nan());
    }

    #[test]
    fn empty_texts_score_zero() {
        assert_eq!(score("rougeLsum", "", "a b"), [0.0; 3]);
        assert_eq!(score("rouge1", "a", ""), [0.0; 3]);
    }
}
