//! CIDEr-D as pycocoevalcap 1.2 computes it (pycocoevalcap/cider/cider_scorer.py), and the
//! original CIDEr (no clipping, no length penalty) as an option.
//!
//! - Captions are split on whitespace; n-grams of orders 1..=n are counted in first-occurrence order
//!   (the order Python's dicts iterate, which fixes every floating-point summation order).
//! - Document frequency of an n-gram = number of images whose references contain it; idf weight
//!   = ln(number of images) − ln(max(1, df)).
//! - Per order: Σ min(v_hyp, v_ref)·v_ref / (‖v_hyp‖·‖v_ref‖), times exp(−δ²/2σ²) where δ is the
//!   difference in *bigram* counts (pycocoevalcap's `length` counts order-2 terms, a known quirk).
//! - Image score = 10 · mean over orders of the sum over references / number of references.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, Result};
use crate::text::pystr::split_tokens;

/// CIDEr options; `Default` is pycocoevalcap's CIDEr-D (n = 4, σ = 6, clipping and penalty on).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CiderOptions {
    pub n: usize,
    pub sigma: f64,
    /// Clip hypothesis weights by the reference's (`min(v_hyp, v_ref)`), the "-D" of CIDEr-D.
    pub clipping: bool,
    /// Gaussian penalty on the length difference, the other "-D" ingredient.
    pub length_penalty: bool,
}

impl Default for CiderOptions {
    fn default() -> Self {
        CiderOptions { n: 4, sigma: 6.0, clipping: true, length_penalty: true }
    }
}

/// An n-gram of at most 4 ids; unused slots hold `u32::MAX`, so orders never collide.
type Key = [u32; MAX_ORDER];
const MAX_ORDER: usize = 4;

/// The n-gram counts of one caption, per order, in first-occurrence order.
struct Counts {
    by_order: Vec<Vec<(Key, u32)>>,
}

fn count(ids: &[u32], n: usize) -> Counts {
    let mut by_order = Vec::with_capacity(n);
    for order in 1..=n {
        let mut index: FxHashMap<Key, usize> = FxHashMap::default();
        let mut entries: Vec<(Key, u32)> = Vec::new();
        for gram in ids.windows(order) {
            let mut key = [u32::MAX; MAX_ORDER];
            key[..order].copy_from_slice(gram);
            match index.get(&key) {
                Some(&at) => entries[at].1 += 1,
                None => {
                    index.insert(key, entries.len());
                    entries.push((key, 1));
                }
            }
        }
        by_order.push(entries);
    }
    Counts { by_order }
}

/// tf-idf vector of one caption: weights per order (in count order), norms, and its "length".
struct Vector {
    weights: Vec<Vec<(Key, f64)>>,
    norms: Vec<f64>,
    length: f64,
}

fn to_vector(counts: &Counts, df: &FxHashMap<Key, u32>, log_images: f64) -> Vector {
    let mut weights = Vec::with_capacity(counts.by_order.len());
    let mut norms = Vec::with_capacity(counts.by_order.len());
    let mut length = 0u64;
    for (order_index, entries) in counts.by_order.iter().enumerate() {
        let mut order_weights = Vec::with_capacity(entries.len());
        let mut squared = 0.0f64;
        for &(key, term_freq) in entries {
            let doc_freq = df.get(&key).copied().unwrap_or(0) as f64;
            let weight = term_freq as f64 * (log_images - doc_freq.max(1.0).ln());
            squared += weight.powi(2);
            order_weights.push((key, weight));
            if order_index == 1 {
                length += term_freq as u64;
            }
        }
        weights.push(order_weights);
        norms.push(squared.sqrt());
    }
    Vector { weights, norms, length: length as f64 }
}

fn intern<'a>(vocab: &mut FxHashMap<&'a str, u32>, text: &'a str) -> Vec<u32> {
    split_tokens(text)
        .map(|token| {
            let next = vocab.len() as u32;
            *vocab.entry(token).or_insert(next)
        })
        .collect()
}

fn similarity(hyp: &Vector, reference: &Vector, options: &CiderOptions) -> Vec<f64> {
    let delta = hyp.length - reference.length;
    let penalty = std::f64::consts::E.powf(-(delta.powi(2)) / (2.0 * options.sigma.powi(2)));
    let mut values = Vec::with_capacity(hyp.weights.len());
    for (order, hyp_weights) in hyp.weights.iter().enumerate() {
        let ref_weights = &reference.weights[order];
        // Captions are short: a linear scan beats building a map; long ones get a map.
        let reference_map: Option<FxHashMap<Key, f64>> =
            (ref_weights.len() > 32).then(|| ref_weights.iter().copied().collect());
        let mut value = 0.0f64;
        for (key, hyp_weight) in hyp_weights {
            let ref_weight = match &reference_map {
                Some(map) => map.get(key).copied(),
                None => ref_weights.iter().find(|(k, _)| k == key).map(|&(_, w)| w),
            }
            .unwrap_or(0.0);
            value += if options.clipping { hyp_weight.min(ref_weight) * ref_weight } else { hyp_weight * ref_weight };
        }
        if hyp.norms[order] != 0.0 && reference.norms[order] != 0.0 {
            value /= hyp.norms[order] * reference.norms[order];
        }
        if options.length_penalty {
            value *= penalty;
        }
        values.push(value);
    }
    values
}

/// Per-image CIDEr(-D) scores of `hypotheses[i]` against `references[i]` (already tokenized text;
/// split on whitespace). Document frequencies come from all of `references`.
pub fn cider_scores<S: AsRef<str> + Sync>(
    hypotheses: &[S],
    references: &[Vec<S>],
    options: &CiderOptions,
) -> Result<Vec<f64>> {
    if hypotheses.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "{} hypotheses but {} reference lists",
            hypotheses.len(),
            references.len()
        )));
    }
    if options.n == 0 || options.n > MAX_ORDER {
        return Err(Error::InvalidOption(format!("CIDEr n must be between 1 and {MAX_ORDER}, got {}", options.n)));
    }
    if !(options.sigma.is_finite() && options.sigma > 0.0) {
        return Err(Error::InvalidOption(format!("CIDEr sigma must be a positive number, got {}", options.sigma)));
    }
    if let Some(index) = references.iter().position(Vec::is_empty) {
        return Err(Error::ShapeMismatch(format!("image {index} has no reference caption")));
    }
    if hypotheses.is_empty() {
        return Ok(Vec::new());
    }
    // Intern tokens once for the whole corpus.
    let mut vocab: FxHashMap<&str, u32> = FxHashMap::default();
    let hyp_ids: Vec<Vec<u32>> = hypotheses.iter().map(|h| intern(&mut vocab, h.as_ref())).collect();
    let ref_ids: Vec<Vec<Vec<u32>>> =
        references.iter().map(|refs| refs.iter().map(|r| intern(&mut vocab, r.as_ref())).collect()).collect();
    let n = options.n;
    let ref_counts: Vec<Vec<Counts>> =
        ref_ids.par_iter().map(|refs| refs.iter().map(|ids| count(ids, n)).collect()).collect();
    let mut df: FxHashMap<Key, u32> = FxHashMap::default();
    for refs in &ref_counts {
        let mut seen: FxHashSet<Key> = FxHashSet::default();
        for counts in refs {
            for entries in &counts.by_order {
                seen.extend(entries.iter().map(|&(key, _)| key));
            }
        }
        for key in seen {
            *df.entry(key).or_insert(0) += 1;
        }
    }
    let log_images = (references.len() as f64).ln();
    let scores = hyp_ids
        .par_iter()
        .zip(ref_counts.par_iter())
        .map(|(hyp, refs)| {
            let hyp_vector = to_vector(&count(hyp, n), &df, log_images);
            let mut sums = vec![0.0f64; n];
            for reference in refs {
                let ref_vector = to_vector(reference, &df, log_images);
                for (sum, value) in sums.iter_mut().zip(similarity(&hyp_vector, &ref_vector, options)) {
                    *sum += value;
                }
            }
            // np.mean over orders (a plain left-to-right sum for fewer than 8 values), then / refs, × 10.
            let mean = sums.iter().fold(0.0, |acc, &x| acc + x) / n as f64;
            mean / refs.len() as f64 * 10.0
        })
        .collect();
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn identical_captions_in_a_two_image_corpus() {
        let hyps = strings(&["a dog runs", "a cat sleeps"]);
        let refs = vec![strings(&["a dog runs"]), strings(&["a cat sleeps"])];
        let scores = cider_scores(&hyps, &refs, &CiderOptions::default()).unwrap();
        // Every n-gram matches exactly: cosine 1 for orders 1–3; no 4-grams, so order 4 adds 0.
        for score in scores {
            assert!((score - 7.5).abs() < 1e-12, "{score}");
        }
    }

    #[test]
    fn empty_hypothesis_scores_zero_and_errors_are_reported() {
        let hyps = strings(&["", "x"]);
        let refs = vec![strings(&["a b"]), strings(&["c d"])];
        assert_eq!(cider_scores(&hyps, &refs, &CiderOptions::default()).unwrap(), vec![0.0, 0.0]);
        assert!(cider_scores(&hyps, &refs[..1], &CiderOptions::default()).is_err());
        assert!(cider_scores(&hyps, &[strings(&["a"]), vec![]], &CiderOptions::default()).is_err());
        let bad = CiderOptions { n: 5, ..CiderOptions::default() };
        assert!(cider_scores(&hyps, &refs, &bad).is_err());
    }
}
