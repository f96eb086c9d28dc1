//! NIST's corpus-wide reference n-gram counts, counted in parallel: n-grams are sharded by their
//! first token, so an n-gram, its prefix (the same first token) and both counts live in one shard,
//! and each shard numbers its own n-grams ([`NgramIndex`]) with no coordination.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::ngram::{ngram_total, NgramIndex};

/// One shard: the n-grams whose first token `t` has `t % shards == shard` (`shards` a power of two).
#[derive(Debug)]
struct Shard {
    index: NgramIndex,
    counts: Vec<u32>,
}

/// The reference n-gram counts of a corpus, and the id of every reference n-gram occurrence (an
/// n-gram's id is `shard id · shards + shard`, `shards` a power of two), kept in [`NgramIndex::insert_all`]'s order
/// (position by position, order by order), reference after reference.
#[derive(Debug)]
pub(crate) struct CorpusNgrams {
    shards: Vec<Shard>,
    total_reference_words: u64,
    ids: Vec<AtomicU32>,
    starts: Vec<usize>,
}

impl CorpusNgrams {
    /// Counts the n-grams of orders `1..=max_order` of every reference (in the calling thread pool).
    pub(crate) fn new(references: &[&[u32]], max_order: usize) -> Self {
        let vocab_size = references.iter().flat_map(|r| r.iter()).max().map_or(0, |&id| id + 1);
        let mut starts = Vec::with_capacity(references.len() + 1);
        starts.push(0);
        for reference in references {
            let ngrams: usize = (1..=max_order).map(|order| ngram_total(reference.len(), order)).sum();
            starts.push(starts[starts.len() - 1] + ngrams);
        }
        let total = starts[starts.len() - 1];
        // A power of two (masks, not divisions, pick the shard): about twice the threads for balance, but
        // few enough that every packed id fits in a u32.
        let largest_id = u64::from(vocab_size) + total as u64 + 1;
        let mut shard_bits = (rayon::current_num_threads() * 2).clamp(1, 64).next_power_of_two().trailing_zeros();
        while shard_bits > 0 && largest_id << shard_bits > u64::from(u32::MAX) {
            shard_bits -= 1;
        }
        let (shard_count, shard_mask) = (1u32 << shard_bits, (1u32 << shard_bits) - 1);
        let ids: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        let shards = (0..shard_count)
            .into_par_iter()
            .map(|shard| {
                let mut index = NgramIndex::new(vocab_size);
                let mut counts = vec![0u32; vocab_size as usize];
                let mut record = |id: u32, at: usize| {
                    if id as usize >= counts.len() {
                        counts.resize(id as usize + 1, 0);
                    }
                    counts[id as usize] += 1;
                    ids[at].store((id << shard_bits) | shard, Ordering::Relaxed);
                };
                for (reference, &start) in references.iter().zip(&starts) {
                    let mut at = start;
                    for position in 0..reference.len() {
                        let orders = max_order.min(reference.len() - position);
                        let first = reference[position];
                        if first & shard_mask == shard && orders > 0 {
                            let mut id = first;
                            record(id, at);
                            for (offset, &token) in reference[position + 1..position + orders].iter().enumerate() {
                                id = index.insert(id, token);
                                record(id, at + offset + 1);
                            }
                        }
                        at += orders;
                    }
                }
                Shard { index, counts }
            })
            .collect();
        let total_reference_words = references.iter().map(|r| r.len() as u64).sum();
        Self { shards, total_reference_words, ids, starts }
    }

    /// The ids of reference `reference`'s n-grams and every later reference's, in order.
    pub(crate) fn ids_from(&self, reference: usize) -> impl Iterator<Item = u32> + '_ {
        self.ids[self.starts[reference]..].iter().map(|id| id.load(Ordering::Relaxed))
    }

    /// NLTK's information weight of the n-gram `id` (see [`information`]).
    #[inline]
    pub(crate) fn information(&self, id: u32) -> f64 {
        let shard_bits = self.shards.len().trailing_zeros();
        let shard = &self.shards[id as usize & (self.shards.len() - 1)];
        information(&shard.index, &shard.counts, self.total_reference_words, id >> shard_bits)
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
