//! Google-BLEU (GLEU) as NLTK 3.10.4 computes it (`nltk/translate/gleu_score.py`, Wu et al. 2016).
//!
//! Per segment and reference: `tp` = clipped matches of every n-gram of orders `min_len..=max_len`,
//! `n_all = max(hypothesis n-grams, reference n-grams)`; the segment keeps the reference with the
//! highest `tp / n_all` (the first on ties, as Python's `max`), and a corpus score is
//! `Σ tp / Σ n_all` over segments (0 when `Σ n_all` is 0). A segment row is `[tp, n_all]`.

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;
use crate::metrics::segment_words::{words_segment_into, WordInput, WordScratch, WordSegmentMetric};
use crate::ngram::{ngram_total, NgramMatcher};

/// Columns of a GLEU statistics row: `[n_match, n_all]`.
pub const ROW_WIDTH: usize = 2;

/// The n-gram orders `min_len..=max_len` (NLTK's `everygrams` bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GleuOrders {
    pub min_len: usize,
    pub max_len: usize,
}

impl GleuOrders {
    /// Orders up to this are accepted (the statistics of higher orders are all zero anyway for text).
    pub const LIMIT: usize = 100;

    pub fn new(min_len: usize, max_len: usize) -> Result<Self> {
        if max_len > Self::LIMIT {
            return Err(Error::InvalidOption(format!("max_len must be at most {}, got {max_len}", Self::LIMIT)));
        }
        Ok(Self { min_len, max_len })
    }

    /// Number of n-grams `everygrams(seq, min_len, max_len)` yields for a sequence of `len` tokens.
    /// Order 0 (min_len = 0) is one empty n-gram per position, as `everygrams` yields `()` once a step.
    pub fn total(&self, len: usize) -> u64 {
        (self.min_len..=self.max_len).map(|n| if n == 0 { len } else { ngram_total(len, n) } as u64).sum::<u64>()
            * u64::from(self.max_len > 0) // max_len 0: `everygrams` yields nothing at all
    }
}

/// Reusable per-thread work space.
#[derive(Debug, Default, Clone)]
pub struct GleuScratch {
    matcher: NgramMatcher,
    matches: Vec<u64>,
    reference: Vec<Vec<u32>>,
}

/// The `[n_match, n_all]` row of one hypothesis against its references (`[0, 0]` when every
/// reference–hypothesis pair has no n-gram at all, which NLTK skips).
///
/// ```
/// use nlgmetrics::metrics::gleu::{segment_stats, GleuOrders, GleuScratch};
/// let orders = GleuOrders::new(1, 4).unwrap();
/// // "the cat sat" vs "the cat ate": 3 of 6 n-grams match on both sides.
/// let row = segment_stats(&[0, 1, 2], &[vec![0, 1, 3]], orders, &mut GleuScratch::default());
/// assert_eq!(row, [3, 6]);
/// ```
pub fn segment_stats(
    hyp: &[u32],
    refs: &[Vec<u32>],
    orders: GleuOrders,
    scratch: &mut GleuScratch,
) -> [u64; ROW_WIDTH] {
    let tpfp = orders.total(hyp.len());
    let mut best: Option<(u64, u64)> = None;
    for reference in refs {
        let tpfn = orders.total(reference.len());
        let n_all = tpfp.max(tpfn);
        if n_all == 0 {
            continue; // nltk: `if n_all > 0: hyp_counts.append(...)`
        }
        let tp = clipped_matches(hyp, reference, orders, scratch);
        // nltk: max(hyp_counts, key=lambda hc: hc[0] / hc[1]) — float ratios, the first maximum wins.
        let better = match best {
            None => true,
            Some((best_tp, best_all)) => tp as f64 / n_all as f64 > best_tp as f64 / best_all as f64,
        };
        if better {
            best = Some((tp, n_all));
        }
    }
    let (tp, n_all) = best.unwrap_or((0, 0));
    [tp, n_all]
}

/// Σ over orders of the clipped matches of `hyp` against one reference.
fn clipped_matches(hyp: &[u32], reference: &[u32], orders: GleuOrders, scratch: &mut GleuScratch) -> u64 {
    if orders.max_len < orders.min_len || orders.max_len == 0 {
        return 0;
    }
    let GleuScratch { matcher, matches, reference: one_reference } = scratch;
    matches.clear();
    matches.resize(orders.max_len, 0);
    one_reference.resize(1, Vec::new());
    one_reference[0].clear();
    one_reference[0].extend_from_slice(reference);
    matcher.clipped_matches_all_orders(hyp, one_reference, orders.max_len, matches);
    let from = orders.min_len.max(1);
    let zero_grams = if orders.min_len == 0 { hyp.len().min(reference.len()) as u64 } else { 0 };
    zero_grams + matches[from - 1..].iter().sum::<u64>()
}

/// NLTK's GLEU as a segment metric: rows `[n_match, n_all]` (int64), on text split by a tokenizer or on
/// token lists / ids; `allow_no_reference` lets a segment have no reference (NLTK scores it `[0, 0]`).
///
/// ```
/// use nlgmetrics::metrics::gleu::{Gleu, GleuOrders};
/// use nlgmetrics::metrics::segment::batch_rows;
/// use nlgmetrics::metrics::segment_words::WordInput;
/// let gleu = Gleu { orders: GleuOrders::new(1, 4).unwrap(), input: WordInput::from_name("none").unwrap(), allow_no_reference: false };
/// assert_eq!(batch_rows(&gleu, &["the cat sat"], &[vec!["the cat ate"]]).unwrap(), vec![3, 6]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gleu {
    pub orders: GleuOrders,
    pub input: WordInput,
    pub allow_no_reference: bool,
}

impl SegmentMetric for Gleu {
    type Stat = i64;
    type Scratch = WordScratch<GleuScratch>;
    const NAME: &'static str = "gleu";

    fn width(&self) -> usize {
        ROW_WIDTH
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], scratch: &mut Self::Scratch) -> Result<()> {
        words_segment_into(self, hyp, refs, row, scratch)
    }

    fn score_row(&self, row: &[i64]) -> f64 {
        score(row[0] as u64, row[1] as u64)
    }

    fn allows_no_reference(&self) -> bool {
        self.allow_no_reference
    }
}

impl WordSegmentMetric for Gleu {
    type Work = GleuScratch;

    fn input(&self) -> WordInput {
        self.input
    }

    fn ids_into(&self, hyp: &[u32], refs: &[Vec<u32>], row: &mut [i64], work: &mut GleuScratch) -> Result<()> {
        let [n_match, n_all] = segment_stats(hyp, refs, self.orders, work);
        row.copy_from_slice(&[n_match as i64, n_all as i64]);
        Ok(())
    }
}

/// NLTK's corpus GLEU of summed rows: `n_match / n_all`, or 0 when `n_all` is 0.
pub fn score(n_match: u64, n_all: u64) -> f64 {
    if n_all == 0 {
        0.0
    } else {
        n_match as f64 / n_all as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ngram::Vocab;

    fn ids<'a>(vocab: &mut Vocab<'a>, text: &'a str) -> Vec<u32> {
        vocab.ids(text.split_whitespace())
    }

    /// A literal transcription of NLTK's loop with explicit n-gram lists (the oracle).
    fn literal(hyp: &[u32], refs: &[Vec<u32>], min_len: usize, max_len: usize) -> [u64; 2] {
        use std::collections::HashMap;
        let everygrams = |seq: &[u32]| {
            let mut counts: HashMap<Vec<u32>, u64> = HashMap::new();
            for start in 0..seq.len() {
                for n in min_len..=max_len {
                    if start + n <= seq.len() && max_len > 0 {
                        *counts.entry(seq[start..start + n].to_vec()).or_default() += 1;
                    }
                }
            }
            counts
        };
        let hyp_counts = everygrams(hyp);
        let tpfp: u64 = hyp_counts.values().sum();
        let mut best: Option<(u64, u64)> = None;
        for reference in refs {
            let ref_counts = everygrams(reference);
            let tpfn: u64 = ref_counts.values().sum();
            let tp: u64 = hyp_counts.iter().map(|(g, &c)| c.min(*ref_counts.get(g).unwrap_or(&0))).sum();
            let n_all = tpfp.max(tpfn);
            if n_all > 0 && best.is_none_or(|(t, a)| tp as f64 / n_all as f64 > t as f64 / a as f64) {
                best = Some((tp, n_all));
            }
        }
        let (tp, all) = best.unwrap_or((0, 0));
        [tp, all]
    }

    #[test]
    fn nltk_docstring_examples() {
        // gleu_score.py: sentence_gleu([ref1a, ref1b, ref1c], hyp1) = 0.4393..., "the the the" = 0.0909...
        let mut vocab = Vocab::default();
        let hyp1 = ids(
            &mut vocab,
            "It is a guide to action which ensures that the military always obeys the commands of the party",
        );
        let ref1a =
            ids(&mut vocab, "It is a guide to action that ensures that the military will forever heed Party commands");
        let row = segment_stats(&hyp1, &[ref1a], GleuOrders::new(1, 4).unwrap(), &mut GleuScratch::default());
        assert!((score(row[0], row[1]) - 0.4393).abs() < 1e-4, "{row:?}");
        let the = ids(&mut vocab, "the the the the the the the");
        let cat = ids(&mut vocab, "the cat is on the mat");
        let row = segment_stats(&the, &[cat], GleuOrders::new(1, 4).unwrap(), &mut GleuScratch::default());
        assert!((score(row[0], row[1]) - 0.0909).abs() < 1e-4, "{row:?}");
    }

    #[test]
    fn equals_the_literal_loop_on_random_segments() {
        let mut next = crate::test_random::lcg(0x9e37_79b9_7f4a_7c15u64);
        let mut scratch = GleuScratch::default();
        for _ in 0..3000 {
            let alphabet = 1 + next(5);
            let seq = |next: &mut dyn FnMut(u64) -> u64| -> Vec<u32> {
                (0..next(12)).map(|_| next(alphabet) as u32).collect()
            };
            let hyp = seq(&mut next);
            let refs: Vec<Vec<u32>> = (0..next(4)).map(|_| seq(&mut next)).collect();
            let (min_len, max_len) = (next(4) as usize, next(6) as usize);
            let orders = GleuOrders::new(min_len, max_len).unwrap();
            assert_eq!(
                segment_stats(&hyp, &refs, orders, &mut scratch),
                literal(&hyp, &refs, min_len, max_len),
                "{hyp:?} {refs:?} {min_len} {max_len}"
            );
        }
    }

    #[test]
    fn empty_corpus_and_mismatch() {
        use crate::metrics::segment_words::batch_id_rows;
        assert_eq!(score(0, 0), 0.0);
        let mut gleu =
            Gleu { orders: GleuOrders::new(1, 4).unwrap(), input: WordInput::Ids, allow_no_reference: false };
        assert!(batch_id_rows(&gleu, &[vec![1]], &[]).is_err());
        assert!(batch_id_rows(&gleu, &[vec![1]], &[vec![]]).is_err());
        gleu.allow_no_reference = true;
        assert_eq!(batch_id_rows(&gleu, &[vec![1]], &[vec![]]).unwrap(), [0, 0]);
        assert_eq!(gleu.score_row(&[0, 0]), 0.0);
        assert_eq!(gleu.score_row(&[1, 4]), 0.25);
        assert!(GleuOrders::new(1, 1000).is_err());
    }
}
