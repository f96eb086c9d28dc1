//! ROUGE-N: clipped n-gram overlap between a candidate and a reference.

use std::cmp::Ordering;

use crate::ngram::ngram_total;

/// `(hits, candidate n-grams, reference n-grams)` for order `n`; hits = Σ min(count_ref, count_cand)
/// (rouge_score `_score_ngrams`, ROUGE-1.5.5 `ngramScore`). Ids are small dense integers
/// (interned per segment): unigrams are counted in arrays, longer n-grams by sorting and merging.
pub fn ngram_counts(candidate: &[u32], reference: &[u32], n: usize) -> (usize, usize, usize) {
    let candidate_total = ngram_total(candidate.len(), n);
    let reference_total = ngram_total(reference.len(), n);
    if candidate_total == 0 || reference_total == 0 {
        return (0, candidate_total, reference_total);
    }
    let large_ids = candidate.iter().chain(reference).any(|&id| id >= 1 << 20);
    let hits = if n == 1 && !large_ids {
        unigram_hits(candidate, reference)
    } else {
        sorted_hits(candidate, reference, n)
    };
    (hits, candidate_total, reference_total)
}

fn unigram_hits(candidate: &[u32], reference: &[u32]) -> usize {
    let size = candidate
        .iter()
        .chain(reference)
        .copied()
        .max()
        .unwrap_or(0) as usize
        + 1;
    let mut counts = vec![0i32; size];
    for &id in reference {
        counts[id as usize] += 1;
    }
    let mut hits = 0;
    for &id in candidate {
        // Each candidate occurrence matches while reference occurrences remain: Σ min(counts).
        if counts[id as usize] > 0 {
            counts[id as usize] -= 1;
            hits += 1;
        }
    }
    hits
}

fn sorted_hits(candidate: &[u32], reference: &[u32], n: usize) -> usize {
    if n == 2 {
        // Bigrams pack exactly into u64 keys.
        let pack = |ids: &[u32]| -> Vec<u64> {
            let mut keys: Vec<u64> = ids.windows(2).map(|w| ((w[0] as u64) << 32) | w[1] as u64).collect();
            keys.sort_unstable();
            keys
        };
        return merge_count(&pack(candidate), &pack(reference));
    }
    let mut a: Vec<&[u32]> = candidate.windows(n).collect();
    let mut b: Vec<&[u32]> = reference.windows(n).collect();
    a.sort_unstable();
    b.sort_unstable();
    merge_count(&a, &b)
}

/// Matches between two sorted lists: equal items pair up one to one, which is Σ min(count_a, count_b).
fn merge_count<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut hits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                hits += 1;
                i += 1;
                j += 1;
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hash_counting() {
        use crate::ngram::{clipped_matches, count_ngrams};
        let mut state = 7u64;
        let mut next = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % modulus) as u32
        };
        for round in 0..300 {
            let alphabet = 2 + (round % 5) as u64;
            let a: Vec<u32> = (0..next(60)).map(|_| next(alphabet)).collect();
            let b: Vec<u32> = (0..next(60)).map(|_| next(alphabet)).collect();
            for n in 1..5 {
                let expected = clipped_matches(&count_ngrams(&a, n), &count_ngrams(&b, n)) as usize;
                assert_eq!(ngram_counts(&a, &b, n).0, expected, "round {round} n {n}");
            }
        }
    }

    #[test]
    fn large_ids_are_fine() {
        assert_eq!(
            ngram_counts(&[u32::MAX, 1], &[1, u32::MAX, u32::MAX], 1),
            (2, 2, 3)
        );
    }

    #[test]
    fn bigram_overlap() {
        // "the cat the cat is on the mat" vs "the cat sat on the mat".
        let candidate = [0, 1, 0, 1, 2, 3, 0, 4];
        let reference = [0, 1, 5, 3, 0, 4];
        assert_eq!(ngram_counts(&candidate, &reference, 1), (5, 8, 6));
        assert_eq!(ngram_counts(&candidate, &reference, 2), (3, 7, 5));
    }
}
