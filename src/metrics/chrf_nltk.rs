//! NLTK 3.10.4's character n-gram F-score (`nltk/translate/chrf_score.py`), which differs from
//! sacreBLEU's chrF: one reference, β = 3 by default, an F-score per order and per sentence (the
//! corpus score is their mean), and `1e-16` wherever NLTK's division by zero falls back to epsilon.
//!
//! Text is prepared by the caller as NLTK's `_preprocess` does (tokens joined by spaces; with
//! `ignore_whitespace`, every Python whitespace character removed); n-grams are of code points.

use crate::error::{Error, Result};
use crate::metrics::nist::{python_pow, PythonSum};
use crate::metrics::segment::{Refs, SegmentMetric};
use crate::ngram::{ngram_total, NgramMatcher};
use crate::text::pystr::is_python_whitespace;

/// NLTK's `epsilon`: the precision, recall and F-score of an order where a division fails.
pub const EPSILON: f64 = 1e-16;

/// `_preprocess(sent, ignore_whitespace)` for a string: the code points kept.
pub fn prepare(text: &str, ignore_whitespace: bool) -> Vec<u32> {
    text.chars().filter(|&c| !(ignore_whitespace && is_python_whitespace(c))).map(u32::from).collect()
}

/// `chrf_precision_recall_fscore_support(...)[2]`: NLTK's F-score from counts, or [`EPSILON`].
pub fn f_score(tp: u64, tpfp: u64, tpfn: u64, beta: f64) -> f64 {
    if tpfp == 0 || tpfn == 0 {
        return EPSILON;
    }
    let precision = tp as f64 / tpfp as f64;
    let recall = tp as f64 / tpfn as f64;
    let factor = python_pow(beta, 2.0);
    let denominator = factor * precision + recall;
    if denominator == 0.0 {
        return EPSILON; // ZeroDivisionError in NLTK
    }
    (1.0 + factor) * (precision * recall) / denominator
}

/// NLTK's chrF as a segment metric (one reference): rows `[F-score of order min_len, …, of max_len, 1]`
/// (float64). A row's score is NLTK's `corpus_chrf` of its sums: the mean over orders (Python's `sum()`,
/// `summation`) divided by the count column; one segment's row gives `sentence_chrf`.
///
/// ```
/// use nlgmetrics::metrics::chrf_nltk::ChrfNltk;
/// use nlgmetrics::metrics::nist::PythonSum;
/// use nlgmetrics::metrics::segment::{batch_rows, score_rows};
/// let chrf = ChrfNltk::new(1, 2, 3.0, true, PythonSum::Sequential).unwrap();
/// let rows = batch_rows(&chrf, &["ab"], &[vec!["ab"]]).unwrap();
/// assert_eq!(rows, vec![1.0, 1.0, 1.0]);
/// assert_eq!(score_rows(&chrf, &rows).unwrap(), vec![1.0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfNltk {
    min_len: usize,
    max_len: usize,
    beta: f64,
    ignore_whitespace: bool,
    summation: PythonSum,
}

impl ChrfNltk {
    /// NLTK's options; orders `1 <= min_len <= max_len`.
    pub fn new(
        min_len: usize,
        max_len: usize,
        beta: f64,
        ignore_whitespace: bool,
        summation: PythonSum,
    ) -> Result<Self> {
        if min_len == 0 || max_len < min_len {
            return Err(Error::InvalidOption(format!(
                "need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}"
            )));
        }
        Ok(Self { min_len, max_len, beta, ignore_whitespace, summation })
    }

    fn orders(&self) -> usize {
        self.max_len + 1 - self.min_len
    }
}

impl SegmentMetric for ChrfNltk {
    type Stat = f64;
    type Scratch = NgramMatcher;
    const NAME: &'static str = "chrf_nltk";
    const REFS: Refs = Refs::One;

    fn width(&self) -> usize {
        self.orders() + 1
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [f64], matcher: &mut NgramMatcher) -> Result<()> {
        let hyp = prepare(hyp, self.ignore_whitespace);
        let reference = [prepare(refs[0], self.ignore_whitespace)];
        let mut matches = vec![0u64; self.max_len];
        matcher.clipped_matches_all_orders(&hyp, &reference, self.max_len, &mut matches);
        for (cell, n) in row.iter_mut().zip(self.min_len..=self.max_len) {
            let (hyp_total, ref_total) = (ngram_total(hyp.len(), n) as u64, ngram_total(reference[0].len(), n) as u64);
            *cell = f_score(matches[n - 1], hyp_total, ref_total, self.beta);
        }
        row[self.orders()] = 1.0;
        Ok(())
    }

    fn score_row(&self, row: &[f64]) -> f64 {
        let orders = self.orders();
        self.summation.sum(row[..orders].iter().copied()) / orders as f64 / row[orders]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::segment::{batch_rows, score_rows};

    #[test]
    fn nltk_docstring_examples() {
        // chrf_score.py: sentence_chrf(ref1, hyp1) = 0.6349..., sentence_chrf(ref2, hyp2) = 0.3330...
        let chrf = ChrfNltk::new(1, 6, 3.0, true, PythonSum::Sequential).unwrap();
        let scores = |hyp: &str, reference: &str| {
            let row = batch_rows(&chrf, &[hyp], &[vec![reference]]).unwrap();
            chrf.score_row(&row)
        };
        let ref1 = "It is a guide to action that ensures that the military will forever heed Party commands";
        let hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party";
        assert!((scores(hyp1, ref1) - 0.6349).abs() < 1e-4);
        let the = scores("the the the the the the the", "the cat is on the mat");
        assert!((the - 0.1468).abs() < 1e-4, "{the}");
    }

    #[test]
    fn divisions_by_zero_give_epsilon() {
        assert_eq!(f_score(0, 0, 5, 3.0), EPSILON);
        assert_eq!(f_score(0, 4, 5, 3.0), EPSILON);
        assert_eq!(prepare("a b\u{a0}c", true), vec![97, 98, 99]);
        let chrf = ChrfNltk::new(1, 6, 3.0, true, PythonSum::Neumaier).unwrap();
        assert!(batch_rows::<_, Vec<&str>>(&chrf, &["a"], &[]).is_err());
        let error = batch_rows(&chrf, &["a"], &[vec!["a", "b"]]).unwrap_err();
        assert!(error.to_string().contains("chrf_nltk takes exactly one reference"), "{error}");
        assert!(ChrfNltk::new(0, 6, 3.0, true, PythonSum::Neumaier).is_err());
        assert!(ChrfNltk::new(3, 2, 3.0, true, PythonSum::Neumaier).is_err());
        // Two segments' summed rows: the mean over orders, then over the count.
        let rows = batch_rows(&chrf, &["ab", "cd"], &[vec!["ab"], vec!["xy"]]).unwrap();
        let sums: Vec<f64> = (0..7).map(|k| rows[k] + rows[7 + k]).collect();
        assert_eq!(
            score_rows(&chrf, &sums).unwrap()[0],
            PythonSum::Neumaier.sum(sums[..6].iter().copied()) / 6.0 / 2.0
        );
    }
}
