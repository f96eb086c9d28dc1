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
    /// An empty vocabulary with room for `capacity` distinct tokens.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { ids: FxHashMap::with_capacity_and_hasher(capacity, Default::default()) }
    }


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

/// Clipped matches of every order 1..=`max_order` at once, added into `matches[n - 1]`:
/// Σ over distinct hypothesis n-grams of min(hypothesis count, max count in any one reference).
/// (Allocates its work space; batch code keeps one [`NgramMatcher`] per thread instead.)
///
/// ```
/// use nlgmetrics::ngram::clipped_matches_all_orders;
/// let mut matches = [0u64; 2];
/// clipped_matches_all_orders(&[0, 0, 0, 1], &[vec![0, 1], vec![0, 0, 2]], 2, &mut matches);
/// assert_eq!(matches, [3, 2]);
/// ```
pub fn clipped_matches_all_orders(hyp: &[u32], refs: &[Vec<u32>], max_order: usize, matches: &mut [u64]) {
    NgramMatcher::default().clipped_matches_all_orders(hyp, refs, max_order, matches);
}

/// Reusable work space for [`clipped_matches_all_orders`]: keep one per thread and the per-segment
/// work allocates nothing once the buffers have grown.
///
/// Only hypothesis n-grams are stored; references are scanned with look-ups only. N-grams of up to
/// four ids below 2^16 − 1 are packed into one `u64` key (exact: the packing is injective), others
/// are keyed by their id slice.
#[derive(Debug, Default, Clone)]
pub struct NgramMatcher {
    packed_index: FxHashMap<u64, u32>,
    buffers: MatchBuffers,
}

#[derive(Debug, Default, Clone)]
struct MatchBuffers {
    hyp_count: Vec<u32>,
    order_of: Vec<u32>,
    ref_max: Vec<u32>,
    ref_count: Vec<u32>,
    touched: Vec<u32>,
}

impl NgramMatcher {
    /// See [`clipped_matches_all_orders`].
    pub fn clipped_matches_all_orders(&mut self, hyp: &[u32], refs: &[Vec<u32>], max_order: usize, matches: &mut [u64]) {
        if max_order == 0 {
            return;
        }
        let max_id = hyp.iter().chain(refs.iter().flatten()).copied().max().unwrap_or(0);
        // Unigrams by direct indexing (ids are dense per segment); longer n-grams through the index.
        if (max_id as usize) < UNIGRAM_TABLE_LIMIT {
            self.buffers.unigram_matches(hyp, refs, max_id as usize + 1, matches);
        } else {
            let mut index = FxHashMap::default();
            clipped_matches_keyed(&mut index, &mut self.buffers, hyp, refs, 1..=1, matches, |gram| gram);
        }
        if max_order < 2 {
            return;
        }
        if max_order <= 4 && max_id < u16::MAX as u32 {
            let index = &mut self.packed_index;
            clipped_matches_keyed(index, &mut self.buffers, hyp, refs, 2..=max_order, matches, pack_ngram);
        } else {
            let mut index = FxHashMap::default();
            clipped_matches_keyed(&mut index, &mut self.buffers, hyp, refs, 2..=max_order, matches, |gram| gram);
        }
    }
}

/// Largest id range counted with a direct table (beyond it, unigrams go through the hash index).
const UNIGRAM_TABLE_LIMIT: usize = 1 << 20;

impl MatchBuffers {
    fn unigram_matches(&mut self, hyp: &[u32], refs: &[Vec<u32>], n_ids: usize, matches: &mut [u64]) {
        let MatchBuffers { hyp_count, ref_max, ref_count, .. } = self;
        for table in [&mut *hyp_count, &mut *ref_max] {
            table.clear();
            table.resize(n_ids, 0);
        }
        for &id in hyp {
            hyp_count[id as usize] += 1;
        }
        for reference in refs {
            ref_count.clear();
            ref_count.resize(n_ids, 0);
            for &id in reference {
                ref_count[id as usize] += 1;
            }
            for &id in reference {
                let id = id as usize;
                ref_max[id] = ref_max[id].max(ref_count[id]);
            }
        }
        matches[0] += hyp_count.iter().zip(ref_max.iter()).map(|(&h, &r)| h.min(r) as u64).sum::<u64>();
    }
}

/// Packs up to four ids (each below 2^16 − 1) into one key; id + 1 keeps lengths distinct.
#[inline]
fn pack_ngram(gram: &[u32]) -> u64 {
    gram.iter().fold(0u64, |key, &id| (key << 16) | (id as u64 + 1))
}

fn clipped_matches_keyed<'a, K, F>(
    index: &mut FxHashMap<K, u32>,
    buffers: &mut MatchBuffers,
    hyp: &'a [u32],
    refs: &'a [Vec<u32>],
    orders: std::ops::RangeInclusive<usize>,
    matches: &mut [u64],
    key: F,
) where
    K: std::hash::Hash + Eq,
    F: Fn(&'a [u32]) -> K,
{
    let MatchBuffers { hyp_count, order_of, ref_max, ref_count, touched } = buffers;
    index.clear();
    hyp_count.clear();
    order_of.clear();
    index.reserve(hyp.len() * orders.clone().count());
    for n in orders.clone() {
        for gram in hyp.windows(n) {
            let next = hyp_count.len() as u32;
            let slot = *index.entry(key(gram)).or_insert(next);
            if slot == next {
                hyp_count.push(0);
                order_of.push(n as u32);
            }
            hyp_count[slot as usize] += 1;
        }
    }
    if hyp_count.is_empty() {
        return;
    }
    ref_max.clear();
    ref_max.resize(hyp_count.len(), 0);
    ref_count.clear();
    ref_count.resize(hyp_count.len(), 0);
    touched.clear();
    for reference in refs {
        for n in orders.clone() {
            for gram in reference.windows(n) {
                if let Some(&slot) = index.get(&key(gram)) {
                    if ref_count[slot as usize] == 0 {
                        touched.push(slot);
                    }
                    ref_count[slot as usize] += 1;
                }
            }
        }
        for slot in touched.drain(..) {
            let slot = slot as usize;
            ref_max[slot] = ref_max[slot].max(ref_count[slot]);
            ref_count[slot] = 0;
        }
    }
    for slot in 0..hyp_count.len() {
        matches[order_of[slot] as usize - 1] += hyp_count[slot].min(ref_max[slot]) as u64;
    }
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
    fn all_orders_at_once_equals_order_by_order() {
        let mut vocab = Vocab::default();
        let hyp = vocab.ids("a b a b c a b d e".split(' '));
        let refs = vec![vocab.ids("a b c a b".split(' ')), vocab.ids("b a b a b d".split(' ')), vec![]];
        for max_order in [1, 3, 4, 6] {
            let mut together = vec![0u64; max_order];
            clipped_matches_all_orders(&hyp, &refs, max_order, &mut together);
            for n in 1..=max_order {
                let mut best = count_ngrams(&refs[0], n);
                for r in &refs[1..] {
                    merge_max(&mut best, &count_ngrams(r, n));
                }
                assert_eq!(together[n - 1], clipped_matches(&count_ngrams(&hyp, n), &best), "order {n}");
            }
        }
        // One matcher reused across calls gives the same answers.
        let mut matcher = NgramMatcher::default();
        for _ in 0..2 {
            let mut again = vec![0u64; 4];
            matcher.clipped_matches_all_orders(&hyp, &refs, 4, &mut again);
            let mut fresh = vec![0u64; 4];
            clipped_matches_all_orders(&hyp, &refs, 4, &mut fresh);
            assert_eq!(again, fresh);
            matcher.clipped_matches_all_orders(&[9, 9], &[vec![9]], 4, &mut vec![0u64; 4]);
        }
        // Large ids take the slice-keyed path and agree.
        let big: Vec<u32> = vec![70_000, 5, 70_000, 5];
        let mut matches = vec![0u64; 2];
        clipped_matches_all_orders(&big, &[vec![5, 70_000, 5]], 2, &mut matches);
        assert_eq!(matches, vec![3, 2]);
        let huge: Vec<u32> = vec![2_000_000, 5, 2_000_000, 5];
        let mut matches = vec![0u64; 2];
        clipped_matches_all_orders(&huge, &[vec![5, 2_000_000, 5], vec![2_000_000, 2_000_000]], 2, &mut matches);
        assert_eq!(matches, vec![4, 2]);
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
