//! Segment statistics of NLTK's BLEU (`nltk/translate/bleu_score.py`, NLTK 3.10.4).
//!
//! NLTK's corpus BLEU is a function of, per segment: the hypothesis length, the closest reference
//! length (ties go to the shorter reference), and for each order n the clipped n-gram matches and
//! the denominator `max(1, number of hypothesis n-grams)` (the `max(1, ·)` is NLTK's, per segment,
//! so it also inflates corpus denominators). The smoothing arithmetic lives in the Python layer,
//! where NLTK's mix of `Fraction` and `float` values can be reproduced exactly.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::ngram::{clipped_matches_all_orders, ngram_total, Vocab};

/// Column layout of one statistics row: `[hyp_len, closest_ref_len, matches_1..N, denominators_1..N]`.
pub fn row_width(max_order: usize) -> usize {
    2 + 2 * max_order
}

/// NLTK's `closest_ref_length`: the reference length nearest to `hyp_len`, the shorter one on ties.
pub fn closest_ref_length(ref_lengths: impl IntoIterator<Item = usize>, hyp_len: usize) -> Option<usize> {
    ref_lengths.into_iter().min_by_key(|&ref_len| (ref_len.abs_diff(hyp_len), ref_len))
}

/// One statistics row for a hypothesis and its references, all as interned token ids.
///
/// Errors when there is no reference (NLTK itself fails with a bare `ValueError` from `min`).
pub fn segment_stats(hyp: &[u32], refs: &[Vec<u32>], max_order: usize) -> Result<Vec<u64>> {
    let ref_len = closest_ref_length(refs.iter().map(Vec::len), hyp.len())
        .ok_or_else(|| Error::ShapeMismatch("a hypothesis has no reference".into()))?;
    let mut row = vec![0u64; row_width(max_order)];
    row[0] = hyp.len() as u64;
    row[1] = ref_len as u64;
    clipped_matches_all_orders(hyp, refs, max_order, &mut row[2..2 + max_order]);
    for n in 1..=max_order {
        // nltk: denominator = max(1, sum(counts.values())).
        row[1 + max_order + n] = ngram_total(hyp.len(), n).max(1) as u64;
    }
    Ok(row)
}

/// Statistics rows for a batch of tokenized segments (tokens as strings), computed in parallel.
///
/// `hyps[i]` is scored against `refs[i]`; both are interned per segment (ids never leave it).
pub fn batch_stats<S: AsRef<str> + Sync>(
    hyps: &[Vec<S>],
    refs: &[Vec<Vec<S>>],
    max_order: usize,
) -> Result<Vec<Vec<u64>>> {
    if hyps.len() != refs.len() {
        return Err(Error::ShapeMismatch(format!("{} hypotheses but {} reference sets", hyps.len(), refs.len())));
    }
    hyps.par_iter()
        .zip(refs.par_iter())
        .enumerate()
        .map(|(index, (hyp, segment_refs))| {
            let mut vocab = Vocab::default();
            let hyp_ids = vocab.ids(hyp.iter().map(AsRef::as_ref));
            let ref_ids: Vec<Vec<u32>> =
                segment_refs.iter().map(|reference| vocab.ids(reference.iter().map(AsRef::as_ref))).collect();
            segment_stats(&hyp_ids, &ref_ids, max_order).map_err(|_| {
                Error::ShapeMismatch(format!(
                    "references[{index}] is empty: every hypothesis needs at least one reference"
                ))
            })
        })
        .collect()
}

/// The smoothing methods whose arithmetic is plain `f64` in NLTK (methods 5–7 mix exact
/// fractions and stay in the Python layer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FloatSmoothing {
    /// `method0` (and no smoothing): an order without matches contributes `log(f64::MIN_POSITIVE)`.
    Method0,
    /// `(0 + epsilon) / denominator` for orders without matches.
    Method1 { epsilon: f64 },
    /// `(matches + 1) / (denominator + 1)` for every order but unigrams.
    Method2,
    /// `1 / (2^k · denominator)` for the k-th order without matches.
    Method3,
    /// `1 / (2^k · k_param / ln(hyp_len)) / denominator` for the k-th order without matches, if hyp_len > 1.
    Method4 { k: f64 },
}

impl FloatSmoothing {
    pub fn parse(name: &str, epsilon: f64, k: f64) -> Result<Self> {
        match name {
            "none" | "method0" => Ok(Self::Method0),
            "method1" => Ok(Self::Method1 { epsilon }),
            "method2" => Ok(Self::Method2),
            "method3" => Ok(Self::Method3),
            "method4" => Ok(Self::Method4 { k }),
            other => Err(Error::InvalidOption(format!("no float-only smoothing {other:?} (methods 0-4 only)"))),
        }
    }
}

/// `math.fsum`: the correctly rounded sum (Shewchuk's exact partials, rounded the way CPython does).
pub fn fsum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut partials: Vec<f64> = Vec::new();
    for value in values {
        let mut x = value;
        let mut kept = 0;
        for index in 0..partials.len() {
            let mut y = partials[index];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        partials.push(x);
    }
    let mut n = partials.len();
    if n == 0 {
        return 0.0;
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        let y_rounded = hi - x;
        lo = y - y_rounded;
        if lo != 0.0 {
            break;
        }
    }
    // Round half-even correctly when the remaining partials push past the halfway point.
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    hi
}

/// NLTK's brevity penalty for summed lengths (`None` stands for its int 0 on an empty hypothesis).
fn brevity_penalty(ref_len: u64, hyp_len: u64) -> f64 {
    if hyp_len > ref_len {
        1.0
    } else if hyp_len == 0 {
        0.0
    } else {
        (1.0 - ref_len as f64 / hyp_len as f64).exp()
    }
}

/// NLTK's score of one statistics row (or a summed one) for methods 0–4.
///
/// Returns `None` where NLTK returns the int 0 (no unigram matches). `weights_are_default` says the
/// caller's weights equal NLTK's `(0.25, 0.25, 0.25, 0.25)` tuple (the only case `auto_reweigh` touches).
pub fn float_score(
    row: &[u64],
    max_order: usize,
    weights: &[f64],
    smoothing: FloatSmoothing,
    auto_reweigh: bool,
    weights_are_default: bool,
) -> Option<f64> {
    let (hyp_len, ref_len) = (row[0], row[1]);
    let matches = &row[2..2 + max_order];
    let denominators = &row[2 + max_order..2 + 2 * max_order];
    if max_order == 0 || matches[0] == 0 {
        return None;
    }
    // Each order's precision as NLTK holds it; `None` = a zero fraction (skipped by `p > 0`).
    let mut zero_orders_seen = 0i32;
    let precisions: Vec<Option<f64>> = (0..max_order)
        .map(|order| {
            let (m, d) = (matches[order], denominators[order]);
            let ratio = || Some(m as f64 / d as f64);
            match smoothing {
                FloatSmoothing::Method2 if order > 0 => Some((m + 1) as f64 / (d + 1) as f64),
                _ if m != 0 => ratio(),
                FloatSmoothing::Method0 => Some(f64::MIN_POSITIVE),
                FloatSmoothing::Method1 { epsilon } => Some(epsilon / d as f64),
                FloatSmoothing::Method2 => ratio(),
                FloatSmoothing::Method3 => {
                    zero_orders_seen += 1;
                    Some(1.0 / ((1u64 << zero_orders_seen) * d) as f64)
                }
                FloatSmoothing::Method4 { k } => {
                    if hyp_len > 1 {
                        zero_orders_seen += 1;
                        let scaled = 2f64.powi(zero_orders_seen) * k / (hyp_len as f64).ln();
                        Some((1.0 / scaled) / d as f64)
                    } else {
                        None
                    }
                }
            }
        })
        .collect();
    let reweighted;
    let weights = if auto_reweigh && hyp_len < 4 && weights_are_default {
        reweighted = vec![1.0 / hyp_len as f64; hyp_len as usize];
        &reweighted[..]
    } else {
        weights
    };
    let log_sum =
        fsum(weights.iter().zip(&precisions).filter_map(|(&w, p)| p.filter(|&p| p > 0.0).map(|p| w * p.ln())));
    Some(brevity_penalty(ref_len, hyp_len) * log_sum.exp())
}

/// [`float_score`] of every row, in parallel; rows where NLTK returns the int 0 score `0.0`.
pub fn float_scores(
    rows: &[Vec<u64>],
    max_order: usize,
    weights: &[f64],
    smoothing: FloatSmoothing,
    auto_reweigh: bool,
    weights_are_default: bool,
) -> Vec<f64> {
    rows.par_iter()
        .map(|row| float_score(row, max_order, weights, smoothing, auto_reweigh, weights_are_default).unwrap_or(0.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn closest_length_prefers_the_shorter_reference_on_ties() {
        assert_eq!(closest_ref_length([13, 11], 12), Some(11));
        assert_eq!(closest_ref_length([11, 13], 12), Some(11));
        assert_eq!(closest_ref_length([11, 8, 6, 7], 7), Some(7));
        assert_eq!(closest_ref_length(Vec::<usize>::new(), 7), None);
    }

    #[test]
    fn the_the_the_example_from_nltk_docs() {
        // nltk modified_precision docstring: 2/7 for unigrams.
        let hyp = vec![toks("the the the the the the the")];
        let refs = vec![vec![toks("the cat is on the mat"), toks("there is a cat on the mat")]];
        let rows = batch_stats(&hyp, &refs, 2).unwrap();
        assert_eq!(rows[0], vec![7, 7, 2, 0, 7, 6]);
    }

    #[test]
    fn denominators_are_at_least_one() {
        let hyp = vec![toks("a b")];
        let refs = vec![vec![toks("a b c d e")]];
        let rows = batch_stats(&hyp, &refs, 4).unwrap();
        // hyp_len 2, closest ref 5, matches [2, 1, 0, 0], denominators [2, 1, 1, 1].
        assert_eq!(rows[0], vec![2, 5, 2, 1, 0, 0, 2, 1, 1, 1]);
        let empty: Vec<Vec<&str>> = vec![vec![]];
        let rows = batch_stats(&empty, &refs, 2).unwrap();
        assert_eq!(rows[0], vec![0, 5, 0, 0, 1, 1]);
    }

    #[test]
    fn fsum_is_correctly_rounded() {
        assert_eq!(fsum([0.1; 10]), 1.0);
        assert_eq!(fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]), 1e-100);
        assert_eq!(fsum([]), 0.0);
        assert_eq!(fsum([1.0, 1e-16, 1e-16]), 1.0000000000000002);
    }

    #[test]
    fn no_unigram_match_is_nltks_int_zero() {
        let row = [3, 3, 0, 0, 3, 2];
        assert_eq!(float_score(&row, 2, &[0.5, 0.5], FloatSmoothing::Method1 { epsilon: 0.1 }, false, false), None);
        // The seed: "The cat sat on the mat" vs "The cat is on the mat", weights 0.5/0.25/0.125.
        let seed = [6, 6, 5, 3, 1, 6, 5, 4];
        let score = float_score(&seed, 3, &[0.5, 0.25, 0.125], FloatSmoothing::Method0, false, false);
        assert_eq!(score, Some(0.6756000774035172));
    }

    #[test]
    fn missing_references_are_an_error() {
        let hyp = vec![toks("a")];
        let refs: Vec<Vec<Vec<&str>>> = vec![vec![]];
        assert!(batch_stats(&hyp, &refs, 1).is_err());
        assert!(batch_stats(&hyp, &[], 1).is_err());
    }
}
