//! NIST's corpus-wide reference n-gram counts, for only the n-grams whose weight is ever read.
//!
//! NLTK (`nltk/translate/nist_score.py`) weighs a *matched* n-gram — one a hypothesis shares with one
//! of its own references — by `log2(count(prefix) / count(n-gram))`, both counted over all
//! references. So only the matched n-grams and their prefixes need counts, and the prefix of a
//! matched n-gram is itself matched (it occurs in the same hypothesis and the same reference). The
//! segments first list their matched n-grams ([`SegmentMatches`]); they are numbered corpus-wide
//! ([`MatchedCounts::new`]); then every reference is walked position by position, extending an
//! n-gram only while it is one of them — a few hash lookups per position, no insertion.

use rayon::prelude::*;

use crate::ngram::{NgramIndex, NO_NGRAM};

/// One segment's matched n-grams and, per (order, reference), its clipped matches.
#[derive(Debug, Default)]
pub(crate) struct SegmentMatches {
    /// The distinct matched n-grams, prefixes first: (entry of the prefix or [`NO_NGRAM`], last token);
    /// [`MatchedCounts::new`] replaces the first field by the n-gram's corpus-wide id.
    pub(crate) entries: Vec<(u32, u32)>,
    /// (entry, clipped count) in the order NLTK's `Counter &` yields them, list after list.
    pub(crate) matches: Vec<(u32, u32)>,
    /// End of each (order, reference) list in `matches`, order-major.
    pub(crate) ends: Vec<u32>,
}

/// Counts over all references of every n-gram some segment matched (ids: [`NgramIndex`], a unigram's id
/// its token).
#[derive(Debug)]
pub(crate) struct MatchedCounts {
    index: NgramIndex,
    counts: Vec<u32>,
    total_reference_words: u64,
}

impl MatchedCounts {
    /// Numbers the segments' matched n-grams (rewriting each segment's `entries`) and counts them in
    /// `references` (token ids `< vocab_size`; in the calling thread pool).
    pub(crate) fn new(
        segments: &mut [SegmentMatches],
        references: &[&[u32]],
        vocab_size: u32,
        max_order: usize,
    ) -> Self {
        let mut index = NgramIndex::new(vocab_size);
        let mut matched_token = vec![false; vocab_size as usize];
        for segment in segments.iter_mut() {
            for at in 0..segment.entries.len() {
                let (prefix, token) = segment.entries[at];
                // Entries before `at` (its prefix among them) already hold their corpus ids.
                segment.entries[at].0 = if prefix == NO_NGRAM {
                    matched_token[token as usize] = true;
                    token
                } else {
                    index.insert(segment.entries[prefix as usize].0, token)
                };
            }
        }
        let size = index.len();
        let chunk = references.len().div_ceil(rayon::current_num_threads().max(1)).max(1);
        let counts = references
            .par_chunks(chunk)
            .map(|chunk| {
                let mut counts = vec![0u32; size];
                for reference in chunk {
                    for (position, &first) in reference.iter().enumerate() {
                        if !matched_token[first as usize] {
                            continue;
                        }
                        counts[first as usize] += 1;
                        let mut id = first;
                        // An n-gram is matched only if its prefix is: stop at the first that is not.
                        for &token in reference[position + 1..].iter().take(max_order - 1) {
                            id = index.get(id, token);
                            if id == NO_NGRAM {
                                break;
                            }
                            counts[id as usize] += 1;
                        }
                    }
                }
                counts
            })
            .reduce_with(|mut total, part| {
                total.iter_mut().zip(part).for_each(|(count, more)| *count += more);
                total
            })
            .unwrap_or_else(|| vec![0; size]);
        let total_reference_words = references.iter().map(|r| r.len() as u64).sum();
        Self { index, counts, total_reference_words }
    }

    /// NLTK's information weight of the matched n-gram `id` (see [`information`]).
    #[inline]
    pub(crate) fn information(&self, id: u32) -> f64 {
        information(&self.index, &self.counts, self.total_reference_words, id)
    }
}

/// `math.log(numerator / count, 2)` for the reference n-gram `id` of `index` (NLTK's information
/// weight): the numerator is the count of its prefix, or of all reference words for a unigram.
#[inline]
pub(crate) fn information(index: &NgramIndex, counts: &[u32], total_reference_words: u64, id: u32) -> f64 {
    let numerator = match index.prefix(id) {
        None => total_reference_words,
        Some(parent) => u64::from(counts[parent as usize]),
    };
    // CPython's math.log(x, 2) is log(x) / log(2).
    (numerator as f64 / f64::from(counts[id as usize])).ln() / 2f64.ln()
}
