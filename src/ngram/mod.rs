//! Interning and n-gram counting shared by all metrics.
//!
//! Tokens are interned to dense `u32` ids once per segment (or per call), so n-gram keys are
//! slices of integers: hashing and comparing them is cheap and never changes a result.

mod index;
mod intern;
mod table;

use rustc_hash::FxHashMap;

pub use index::{NgramIndex, NO_NGRAM};
pub(crate) use intern::packed_key;
pub use intern::{TokenInterner, Vocab};
pub(crate) use table::{ProbeKey, ProbeTable};

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
    hyp.iter().map(|(gram, &count)| count.min(reference.get(gram).copied().unwrap_or(0)) as u64).sum()
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
/// Orders are matched one after another. Every distinct hypothesis n-gram gets a "slot" (unigrams:
/// their id); an n-gram is keyed by (slot of its (n−1)-prefix, last id), one injective `u64` for any
/// order and vocabulary. An n-gram can only match if both of its (n−1)-grams matched, so only such
/// hypothesis n-grams are indexed and only such reference positions are looked up: the work
/// shrinks with the precision of each order, and the counts are exactly those of a full count.
#[derive(Debug, Default, Clone)]
pub struct NgramMatcher {
    index: ProbeTable<u64>,
    hyp_count: Vec<u32>,
    ref_max: Vec<u32>,
    ref_count: Vec<u32>,
    touched: Vec<u32>,
    /// Per hypothesis position: the slot of the current-order n-gram starting there, or [`DEAD`].
    hyp_slot: Vec<u32>,
    /// Per reference position (references concatenated): the slot of the hypothesis n-gram equal to
    /// the current-order n-gram starting there, or [`DEAD`].
    ref_slot: Vec<u32>,
    /// Positions whose current-order n-gram can match.
    live: Vec<u32>,
}

/// An n-gram that cannot match (or a position past the last n-gram).
const DEAD: u32 = u32::MAX;

impl NgramMatcher {
    /// See [`clipped_matches_all_orders`].
    pub fn clipped_matches_all_orders(
        &mut self,
        hyp: &[u32],
        refs: &[Vec<u32>],
        max_order: usize,
        matches: &mut [u64],
    ) {
        if max_order == 0 {
            return;
        }
        let total_len = hyp.len() + refs.iter().map(Vec::len).sum::<usize>();
        let max_id = hyp.iter().chain(refs.iter().flatten()).copied().max().unwrap_or(0) as usize;
        if max_id >= DENSE_ID_SLACK + 4 * total_len {
            // Sparse ids (a caller's own numbering): renumber densely, which changes no count.
            let mut dense = FxHashMap::default();
            let mut renumber = |ids: &[u32]| -> Vec<u32> {
                ids.iter()
                    .map(|&id| {
                        let next = dense.len() as u32;
                        *dense.entry(id).or_insert(next)
                    })
                    .collect()
            };
            let hyp = renumber(hyp);
            let refs: Vec<Vec<u32>> = refs.iter().map(|r| renumber(r)).collect();
            self.dense_matches(&hyp, &refs, dense.len(), max_order, matches);
        } else {
            self.dense_matches(hyp, refs, max_id + 1, max_order, matches);
        }
    }

    /// The matching proper; every id is below `n_ids`.
    fn dense_matches(&mut self, hyp: &[u32], refs: &[Vec<u32>], n_ids: usize, max_order: usize, matches: &mut [u64]) {
        let NgramMatcher { index, hyp_count, ref_max, ref_count, touched, hyp_slot, ref_slot, live } = self;
        for table in [&mut *hyp_count, &mut *ref_max, &mut *ref_count] {
            table.clear();
            table.resize(n_ids, 0);
        }
        touched.clear();
        // Unigrams: slot = id, counted by direct indexing.
        for &id in hyp {
            hyp_count[id as usize] += 1;
        }
        for reference in refs {
            // Three branch-free passes: count, fold into the max, reset.
            for &id in reference {
                ref_count[id as usize] += 1;
            }
            for &id in reference {
                ref_max[id as usize] = ref_max[id as usize].max(ref_count[id as usize]);
            }
            for &id in reference {
                ref_count[id as usize] = 0;
            }
        }
        matches[0] += hyp_count.iter().zip(ref_max.iter()).map(|(&h, &r)| h.min(r) as u64).sum::<u64>();
        if max_order < 2 {
            return;
        }
        hyp_slot.clear();
        hyp_slot.extend(hyp.iter().map(|&id| if ref_max[id as usize] > 0 { id } else { DEAD }));
        ref_slot.clear();
        ref_slot.extend(refs.iter().flatten().map(|&id| if hyp_count[id as usize] > 0 { id } else { DEAD }));

        for n in 2..=max_order {
            if hyp.len() < n {
                return;
            }
            // Hypothesis n-grams whose prefix and suffix (n−1)-grams both matched. The live positions
            // are gathered first without branching (which way a position goes is unpredictable).
            index.clear();
            let first_slot = hyp_count.len();
            let live_count = gather_live(&mut hyp_slot[..=hyp.len() - n + 1], live);
            for &i in &live[..live_count] {
                let i = i as usize;
                let next = hyp_count.len() as u32;
                let slot = index.get_or_insert(ngram_key(hyp_slot[i], hyp[i + n - 1]), next);
                if slot == next {
                    hyp_count.push(0);
                    ref_max.push(0);
                    ref_count.push(0);
                }
                hyp_count[slot as usize] += 1;
                hyp_slot[i] = slot;
            }
            if hyp_count.len() == first_slot {
                return; // nothing of this order can match, nor of any higher order
            }
            let mut offset = 0;
            for reference in refs {
                let positions = &mut ref_slot[offset..offset + reference.len()];
                offset += reference.len();
                if reference.len() < n {
                    continue;
                }
                let live_count = gather_live(&mut positions[..=reference.len() - n + 1], live);
                for &j in &live[..live_count] {
                    let j = j as usize;
                    positions[j] = match index.get(ngram_key(positions[j], reference[j + n - 1])) {
                        Some(slot) => {
                            if ref_count[slot as usize] == 0 {
                                touched.push(slot);
                            }
                            ref_count[slot as usize] += 1;
                            slot
                        }
                        None => DEAD,
                    };
                }
                settle_reference(touched, ref_count, ref_max);
            }
            matches[n - 1] +=
                (first_slot..hyp_count.len()).map(|slot| hyp_count[slot].min(ref_max[slot]) as u64).sum::<u64>();
            for slot in &mut hyp_slot[..=hyp.len() - n] {
                let current = *slot;
                let checked = if current == DEAD { 0 } else { current as usize };
                let keep = (current != DEAD) & (ref_max[checked] > 0);
                *slot = if keep { current } else { DEAD };
            }
        }
    }
}

/// For `slots` = the (n−1)-gram slots of positions 0..=m (m+1 entries): lists in `live` the
/// positions i < m whose n-gram can match (slots i and i+1 both live) and marks the others [`DEAD`]
/// at i; returns how many are live. Branch-free.
#[inline]
fn gather_live(slots: &mut [u32], live: &mut Vec<u32>) -> usize {
    let m = slots.len() - 1;
    live.clear();
    live.resize(m, 0);
    let mut count = 0;
    for i in 0..m {
        let is_live = (slots[i] != DEAD) & (slots[i + 1] != DEAD);
        live[count] = i as u32;
        count += usize::from(is_live);
        slots[i] = if is_live { slots[i] } else { DEAD };
    }
    count
}

/// Ids below this plus four times the token count are counted in direct tables; larger ones are renumbered.
const DENSE_ID_SLACK: usize = 64;

/// One reference is done: fold its counts into the max over references and reset them.
#[inline]
fn settle_reference(touched: &mut Vec<u32>, ref_count: &mut [u32], ref_max: &mut [u32]) {
    for slot in touched.drain(..) {
        let slot = slot as usize;
        ref_max[slot] = ref_max[slot].max(ref_count[slot]);
        ref_count[slot] = 0;
    }
}

/// The key of an n-gram: its (n−1)-prefix's slot and its last id (injective: both are below 2^32).
#[inline]
fn ngram_key(prefix_slot: u32, last_id: u32) -> u64 {
    (u64::from(prefix_slot) << 32) | u64::from(last_id)
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
            matcher.clipped_matches_all_orders(&[9, 9], &[vec![9]], 4, &mut [0u64; 4]);
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
    fn pruned_matching_equals_full_counting_on_random_segments() {
        // Small alphabets give many repeated n-grams, partial matches and empty references.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        fn next(state: &mut u64, bound: u64) -> u64 {
            *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (*state >> 33) % bound
        }
        fn sequence(state: &mut u64, alphabet: u64, offset: u32) -> Vec<u32> {
            let len = next(state, 14);
            (0..len).map(|_| offset + next(state, alphabet) as u32).collect()
        }
        let mut matcher = NgramMatcher::default();
        for round in 0..3000 {
            let alphabet = 1 + next(&mut state, 6);
            let offset = if round % 7 == 0 { 3_000_000 } else { 0 };
            let hyp = sequence(&mut state, alphabet, offset);
            let refs: Vec<Vec<u32>> =
                (0..1 + next(&mut state, 3)).map(|_| sequence(&mut state, alphabet, offset)).collect();
            let max_order = 1 + next(&mut state, 7) as usize;
            let mut fast = vec![0u64; max_order];
            matcher.clipped_matches_all_orders(&hyp, &refs, max_order, &mut fast);
            for n in 1..=max_order {
                let mut best = count_ngrams(&refs[0], n);
                for r in &refs[1..] {
                    merge_max(&mut best, &count_ngrams(r, n));
                }
                assert_eq!(fast[n - 1], clipped_matches(&count_ngrams(&hyp, n), &best), "{hyp:?} {refs:?} order {n}");
            }
        }
    }

    #[test]
    fn packed_keys_are_the_same_whatever_the_text_around() {
        // The same token read through the 16-byte window, the tail window and the copy.
        for token in ["a", "cats", "eleven-char", "fifteen-chars!!"] {
            let max_len = 15;
            let alone = packed_key(token, 0, token.len(), max_len);
            let long_text = format!("{token} and some more words after it");
            let tail_text = format!("some words before it {token}");
            let start = tail_text.len() - token.len();
            assert_eq!(packed_key(&long_text, 0, token.len(), max_len), alone, "{token}");
            assert_eq!(packed_key(&tail_text, start, tail_text.len(), max_len), alone, "{token}");
            assert!(alone.is_some());
        }
        assert_eq!(packed_key("sixteen-bytes!!!", 0, 16, 15), None);
        let text = "twenty bytes of text";
        assert_eq!(packed_key(text, text.len(), text.len(), 15), packed_key("", 0, 0, 15));
        assert_ne!(packed_key("ab", 0, 1, 11), packed_key("a\0", 0, 2, 11)); // the length tells them apart
    }

    #[test]
    fn interner_packs_short_tokens_exactly() {
        // Tokens that differ only in length, trailing NULs, or past byte 15 keep distinct ids.
        let text = "a a\0 a\0\0 \0 0123456789abcde 0123456789abcdef 0123456789abcdeg é é\u{301} a";
        let mut interner = TokenInterner::default();
        let mut vocab = Vocab::default();
        let mut start = 0;
        for token in text.split(' ') {
            let end = start + token.len();
            assert_eq!(interner.id_in(text, start, end), vocab.id(token), "{token:?}");
            start = end + 1;
        }
        assert_eq!(interner.len(), vocab.len());
    }

    #[test]
    fn probe_table_grows_and_clears() {
        let mut table = ProbeTable::<u64>::default();
        assert_eq!(table.get(7), None);
        for round in 0..5u64 {
            table.clear();
            let count = 10 + round * 400; // grows past several capacities
            for key in 0..count {
                assert_eq!(table.get_or_insert(key * 0x1_0000_0001 + round, key as u32), key as u32);
            }
            for key in 0..count {
                assert_eq!(table.get_or_insert(key * 0x1_0000_0001 + round, 0), key as u32);
                assert_eq!(table.get(key * 0x1_0000_0001 + round), Some(key as u32));
            }
            assert_eq!(table.get(u64::MAX), None);
            assert_eq!(table.len, count as usize);
        }
        table.generation = u32::MAX; // the stamp wraps: every slot is forgotten
        table.clear();
        assert_eq!(table.get(1), None);
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
