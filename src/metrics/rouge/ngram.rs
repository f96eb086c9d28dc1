//! ROUGE-N: clipped n-gram overlap between a candidate and a reference.

use std::cmp::Ordering;

use crate::ngram::ngram_total;

use super::lcs::densify;

/// `(hits, candidate n-grams, reference n-grams)` for order `n`; hits = Σ min(count_ref, count_cand)
/// (rouge_score `_score_ngrams`, ROUGE-1.5.5 `ngramScore`). Ids are small dense integers
/// (interned per segment): unigrams are counted in an array, longer n-grams packed into integers
/// (or compared as slices when they do not fit), sorted and merged.
pub fn ngram_counts(candidate: &[u32], reference: &[u32], n: usize) -> (usize, usize, usize) {
    if let Some((candidate, reference)) = densify(candidate, reference) {
        return ngram_counts(&candidate, &reference, n);
    }
    let n_ids = candidate.iter().chain(reference).max().map_or(0, |&m| m as usize + 1);
    ngram_counts_with(candidate, reference, n, n_ids, &mut NgramScratch::default())
}

/// Reusable buffers for n-gram matching: keep one per thread. `counts` is all zero between calls.
#[derive(Debug, Default, Clone)]
pub struct NgramScratch {
    counts: Vec<u32>,
    candidate_keys: Vec<u64>,
    reference_keys: Vec<u64>,
}

/// `ngram_counts` for dense ids below `n_ids`, using `scratch`.
pub(crate) fn ngram_counts_with(
    candidate: &[u32],
    reference: &[u32],
    n: usize,
    n_ids: usize,
    scratch: &mut NgramScratch,
) -> (usize, usize, usize) {
    let candidate_total = ngram_total(candidate.len(), n);
    let reference_total = ngram_total(reference.len(), n);
    if candidate_total == 0 || reference_total == 0 {
        return (0, candidate_total, reference_total);
    }
    let bits_per_id = (usize::BITS - n_ids.saturating_sub(1).leading_zeros()).max(1) as usize;
    let hits = if n == 1 {
        unigram_hits(candidate, reference, n_ids, &mut scratch.counts)
    } else if n == 2 && n_ids * n_ids <= DENSE_BIGRAM_LIMIT {
        dense_bigram_hits(candidate, reference, n_ids, &mut scratch.counts)
    } else if n * bits_per_id <= 64 {
        packed_hits(candidate, reference, n, bits_per_id, scratch)
    } else {
        sorted_hits(candidate, reference, n)
    };
    (hits, candidate_total, reference_total)
}

fn unigram_hits(candidate: &[u32], reference: &[u32], n_ids: usize, counts: &mut Vec<u32>) -> usize {
    if counts.len() < n_ids {
        counts.resize(n_ids, 0);
    }
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
    for &id in reference {
        counts[id as usize] = 0;
    }
    hits
}

/// Bigrams are counted in an array indexed by `first * n_ids + second` while it has at most this
/// many entries (texts of up to 256 distinct tokens).
const DENSE_BIGRAM_LIMIT: usize = 1 << 16;

/// ROUGE-2 hits by counting bigrams in an array (all zero between calls).
fn dense_bigram_hits(candidate: &[u32], reference: &[u32], n_ids: usize, counts: &mut Vec<u32>) -> usize {
    if counts.len() < n_ids * n_ids {
        counts.resize(n_ids * n_ids, 0);
    }
    let index = |pair: &[u32]| pair[0] as usize * n_ids + pair[1] as usize;
    for pair in reference.windows(2) {
        counts[index(pair)] += 1;
    }
    let mut hits = 0;
    for pair in candidate.windows(2) {
        let count = &mut counts[index(pair)];
        if *count > 0 {
            *count -= 1;
            hits += 1;
        }
    }
    for pair in reference.windows(2) {
        counts[index(pair)] = 0;
    }
    hits
}

/// N-grams packed into u64 keys (`bits` per id, `n * bits <= 64`), sorted and merged.
fn packed_hits(candidate: &[u32], reference: &[u32], n: usize, bits: usize, scratch: &mut NgramScratch) -> usize {
    fn pack(ids: &[u32], n: usize, bits: usize, keys: &mut Vec<u64>) {
        keys.clear();
        keys.extend(ids.windows(n).map(|window| window.iter().fold(0u64, |key, &id| (key << bits) | id as u64)));
        keys.sort_unstable();
    }
    pack(candidate, n, bits, &mut scratch.candidate_keys);
    pack(reference, n, bits, &mut scratch.reference_keys);
    merge_count(&scratch.candidate_keys, &scratch.reference_keys)
}

fn sorted_hits(candidate: &[u32], reference: &[u32], n: usize) -> usize {
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
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) % modulus) as u32
        };
        for round in 0..300 {
            // Ids spread up to 4000 need 12 bits each: orders above 5 take the slice path.
            let spread = if round % 2 == 1 { 1000 } else { 1 };
            let alphabet = 2 + (round % 5) as u64;
            let a: Vec<u32> = (0..next(60)).map(|_| next(alphabet) * spread).collect();
            let b: Vec<u32> = (0..next(60)).map(|_| next(alphabet) * spread).collect();
            for n in 1..10 {
                let expected = clipped_matches(&count_ngrams(&a, n), &count_ngrams(&b, n)) as usize;
                assert_eq!(ngram_counts(&a, &b, n).0, expected, "round {round} n {n}");
            }
        }
    }

    #[test]
    fn large_ids_are_fine() {
        assert_eq!(ngram_counts(&[u32::MAX, 1], &[1, u32::MAX, u32::MAX], 1), (2, 2, 3));
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
