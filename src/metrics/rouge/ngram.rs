//! ROUGE-N: clipped n-gram overlap between a candidate and a reference.

use crate::ngram::{clipped_matches, count_ngrams, ngram_total};

/// `(hits, candidate n-grams, reference n-grams)` for order `n`; hits = Σ min(count_ref, count_cand)
/// (rouge_score `_score_ngrams`, ROUGE-1.5.5 `ngramScore`).
pub fn ngram_counts(candidate: &[u32], reference: &[u32], n: usize) -> (usize, usize, usize) {
    let candidate_total = ngram_total(candidate.len(), n);
    let reference_total = ngram_total(reference.len(), n);
    if candidate_total == 0 || reference_total == 0 {
        return (0, candidate_total, reference_total);
    }
    let hits = clipped_matches(&count_ngrams(candidate, n), &count_ngrams(reference, n)) as usize;
    (hits, candidate_total, reference_total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bigram_overlap() {
        // "the cat the cat is on the mat" vs "the cat sat on the mat".
        let candidate = [0, 1, 0, 1, 2, 3, 0, 4];
        let reference = [0, 1, 5, 3, 0, 4];
        assert_eq!(ngram_counts(&candidate, &reference, 1), (5, 8, 6));
        assert_eq!(ngram_counts(&candidate, &reference, 2), (3, 7, 5));
    }
}
