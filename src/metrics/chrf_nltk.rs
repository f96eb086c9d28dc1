//! NLTK 3.10.4's character n-gram F-score (`nltk/translate/chrf_score.py`), which differs from
//! sacreBLEU's chrF: one reference, β = 3 by default, an F-score per order and per sentence (the
//! corpus score is their mean), and `1e-16` wherever NLTK's division by zero falls back to epsilon.
//!
//! Text is prepared by the caller as NLTK's `_preprocess` does (tokens joined by spaces; with
//! `ignore_whitespace`, every Python whitespace character removed); n-grams are of code points.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::metrics::nist::python_pow;
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

/// Per segment, the F-score of each order `min_len..=max_len` (row-major, `max_len - min_len + 1` wide).
pub fn f_scores(
    hyps: &[String],
    refs: &[String],
    min_len: usize,
    max_len: usize,
    beta: f64,
    ignore_whitespace: bool,
) -> Result<Vec<f64>> {
    if hyps.len() != refs.len() {
        return Err(Error::ShapeMismatch(format!("{} hypotheses but {} references", hyps.len(), refs.len())));
    }
    if min_len == 0 || max_len < min_len {
        return Err(Error::InvalidOption(format!(
            "need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}"
        )));
    }
    let rows: Vec<Vec<f64>> = hyps
        .par_iter()
        .zip(refs.par_iter())
        .map_init(NgramMatcher::default, |matcher, (hyp, reference)| {
            let hyp = prepare(hyp, ignore_whitespace);
            let reference = vec![prepare(reference, ignore_whitespace)];
            let mut matches = vec![0u64; max_len];
            matcher.clipped_matches_all_orders(&hyp, &reference, max_len, &mut matches);
            (min_len..=max_len)
                .map(|n| {
                    f_score(
                        matches[n - 1],
                        ngram_total(hyp.len(), n) as u64,
                        ngram_total(reference[0].len(), n) as u64,
                        beta,
                    )
                })
                .collect()
        })
        .collect();
    Ok(rows.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nltk_docstring_examples() {
        // chrf_score.py: sentence_chrf(ref1, hyp1) = 0.6349..., sentence_chrf(ref2, hyp2) = 0.3330...
        let scores = |hyp: &str, reference: &str| {
            let row = f_scores(&[hyp.into()], &[reference.into()], 1, 6, 3.0, true).unwrap();
            row.iter().sum::<f64>() / 6.0
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
        assert!(f_scores(&["a".into()], &[], 1, 6, 3.0, true).is_err());
        assert!(f_scores(&["a".into()], &["a".into()], 0, 6, 3.0, true).is_err());
    }
}
