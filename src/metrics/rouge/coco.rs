//! ROUGE-L as pycocoevalcap 1.2 computes it (pycocoevalcap/rouge/rouge.py): captions split on single
//! spaces (so empty strings count as tokens), LCS per reference, the maximum precision and the
//! maximum recall over references (possibly from different references), F with β = 1.2.

use rayon::prelude::*;

use crate::error::{Error, Result};

/// Length of the longest common subsequence of two token sequences.
fn lcs_length(a: &[&str], b: &[&str]) -> usize {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut previous = vec![0usize; short.len() + 1];
    let mut current = vec![0usize; short.len() + 1];
    for x in long {
        for (j, y) in short.iter().enumerate() {
            current[j + 1] = if x == y { previous[j] + 1 } else { previous[j + 1].max(current[j]) };
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[short.len()]
}

/// ROUGE-L of one candidate against its references (at least one).
pub fn rouge_l_coco(candidate: &str, references: &[&str], beta: f64) -> Result<f64> {
    if references.is_empty() {
        return Err(Error::ShapeMismatch("a candidate needs at least one reference".into()));
    }
    let candidate_tokens: Vec<&str> = candidate.split(' ').collect();
    let mut precision_max = f64::NEG_INFINITY;
    let mut recall_max = f64::NEG_INFINITY;
    for reference in references {
        let reference_tokens: Vec<&str> = reference.split(' ').collect();
        let lcs = lcs_length(&reference_tokens, &candidate_tokens) as f64;
        precision_max = precision_max.max(lcs / candidate_tokens.len() as f64);
        recall_max = recall_max.max(lcs / reference_tokens.len() as f64);
    }
    if precision_max != 0.0 && recall_max != 0.0 {
        let beta_squared = beta.powi(2);
        Ok(((1.0 + beta_squared) * precision_max * recall_max) / (recall_max + beta_squared * precision_max))
    } else {
        Ok(0.0)
    }
}

/// Per-image ROUGE-L scores, in parallel.
pub fn rouge_l_coco_scores<S: AsRef<str> + Sync>(
    candidates: &[S],
    references: &[Vec<S>],
    beta: f64,
) -> Result<Vec<f64>> {
    if candidates.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "{} candidates but {} reference lists",
            candidates.len(),
            references.len()
        )));
    }
    if !(beta.is_finite() && beta > 0.0) {
        return Err(Error::InvalidOption(format!("beta must be a positive number, got {beta}")));
    }
    candidates
        .par_iter()
        .zip(references.par_iter())
        .enumerate()
        .map(|(index, (candidate, refs))| {
            let refs: Vec<&str> = refs.iter().map(AsRef::as_ref).collect();
            rouge_l_coco(candidate.as_ref(), &refs, beta)
                .map_err(|error| Error::ShapeMismatch(format!("image {index}: {error}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_precision_and_recall_may_come_from_different_references() {
        // vs "a b c d": lcs 2 → p 2/2, r 2/4; vs "a b": p 1, r 1. Max p = 1, max r = 1.
        let score = rouge_l_coco("a b", &["a b c d", "a b"], 1.2).unwrap();
        assert_eq!(score, 1.0);
        let score = rouge_l_coco("a x", &["a b c d"], 1.2).unwrap();
        let (p, r, b2) = (0.5, 0.25, 1.2f64.powi(2));
        assert_eq!(score, ((1.0 + b2) * p * r) / (r + b2 * p));
    }

    #[test]
    fn empty_strings_are_one_empty_token() {
        assert_eq!(rouge_l_coco("", &[""], 1.2).unwrap(), 1.0);
        assert_eq!(rouge_l_coco("a", &[""], 1.2).unwrap(), 0.0);
        assert!(rouge_l_coco("a", &[], 1.2).is_err());
    }
}
