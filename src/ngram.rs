//! Interning and n-gram counting shared by all metrics.
//!
//! Tokens are interned to dense `u32` ids once per segment (or per call), so n-gram keys are
//! slices of integers: hashing and comparing them is cheap and never changes a result.

use rustc_hash::FxHashMap;

/// Maps token strings to dense ids, in order of first appearance.
///
/// ```
/// use nlgmetrics::ngram::Vocab;
/// let mut vocab = Vocab::default();
/// assert_eq!(vocab.ids("a b a".split(' ')), vec![0, 1, 0]);
/// ```
#[derive(Default, Debug, Clone)]
pub struct Vocab<'a> {
    ids: FxHashMap<&'a str, u32>,
}

impl<'a> Vocab<'a> {
    /// The id of `token`, assigning the next free id on first sight.
    pub fn id(&mut self, token: &'a str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(token).or_insert(next)
    }

    /// The ids of a token sequence.
    pub fn ids<I: IntoIterator<Item = &'a str>>(&mut self, tokens: I) -> Vec<u32> {
        tokens.into_iter().map(|token| self.id(token)).collect()
    }

    /// How many distinct tokens were seen.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Counts of the n-grams of one order in one sequence; keys borrow the id sequence.
pub type NgramCounts<'a> = FxHashMap<&'a [u32], u32>;

/// Counts every n-gram of order `n` in `ids` (none when `ids` is shorter than `n`).
///
/// ```
/// use nlgmetrics::ngram::count_ngrams;
/// let counts = count_ngrams(&[1, 2, 1, 2], 2);
/// assert_eq!(counts[&[1u32, 2][..]], 2);
/// assert_eq!(counts.len(), 2);
/// ```
pub fn count_ngrams(ids: &[u32], n: usize) -> NgramCounts<'_> {
    let mut counts = NgramCounts::default();
    if n > 0 {
        for gram in ids.windows(n) {
            *counts.entry(gram).or_insert(0) += 1;
        }
    }
    counts
}

/// Raises each count in `into` to at least the count in `other` (the "max over references" rule).
pub fn merge_max<'a>(into: &mut NgramCounts<'a>, other: &NgramCounts<'a>) {
    for (gram, &count) in other {
        let slot = into.entry(gram).or_insert(0);
        if *slot < count {
            *slot = count;
        }
    }
}

/// Clipped matches: Σ over hypothesis n-grams of min(hypothesis count, reference count).
pub fn clipped_matches(hyp: &NgramCounts<'_>, reference: &NgramCounts<'_>) -> u64 {
    hyp.iter()
        .map(|(gram, &count)| count.min(reference.get(gram).copied().unwrap_or(0)) as u64)
        .sum()
}

/// Number of n-grams of order `n` in a sequence of `len` tokens.
pub fn ngram_total(len: usize, n: usize) -> usize {
    (len + 1).saturating_sub(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_uses_the_max_reference_count() {
        let mut vocab = Vocab::default();
        let hyp = vocab.ids("the the the cat".split(' '));
        let ref_a = vocab.ids("the cat".split(' '));
        let ref_b = vocab.ids("the the dog".split(' '));
        let hyp_counts = count_ngrams(&hyp, 1);
        let mut best = count_ngrams(&ref_a, 1);
        merge_max(&mut best, &count_ngrams(&ref_b, 1));
        // "the": min(3, 2) = 2; "cat": min(1, 1) = 1.
        assert_eq!(clipped_matches(&hyp_counts, &best), 3);
    }

    #[test]
    fn totals_never_underflow() {
        assert_eq!(ngram_total(0, 4), 0);
        assert_eq!(ngram_total(3, 4), 0);
        assert_eq!(ngram_total(4, 4), 1);
        assert_eq!(ngram_total(6, 1), 6);
    }

    #[test]
    fn empty_sequences_have_no_ngrams() {
        assert!(count_ngrams(&[], 1).is_empty());
        assert!(count_ngrams(&[1, 2], 0).is_empty());
    }
}
