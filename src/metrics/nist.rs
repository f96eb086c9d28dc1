//! NIST (Doddington 2002) as NLTK 3.10.4 computes it (`nltk/translate/nist_score.py`).
//!
//! Information weights come from the n-gram counts of *all* references of the corpus:
//! `info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))`, with the total number of reference words
//! in place of the empty prefix. Per segment, order and reference: the information of the clipped
//! matches (summed in the order the n-grams first occur in the hypothesis, as NLTK's `Counter & `),
//! and the number of hypothesis n-grams; the reference with the largest
//! `(precision, information, n-grams, reference length)` tuple is kept, as NLTK's `max` does.
//! The corpus score is `Σ_n (Σ info_n / Σ ngrams_n) · penalty(Σ hyp_len, Σ ref_len)`.
//!
//! Quirks reproduced: the reference length is that of the best reference *per order*, and both
//! lengths are summed once per order (NLTK adds them inside its order loop). Where NLTK divides by
//! zero (an order without any hypothesis n-gram in the whole corpus, or no reference word), the
//! score is computed as mteval-v13a does: that order contributes 0 ([`corpus_score`] says which).

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::ngram::{ngram_total, NgramIndex, NO_NGRAM};

/// How Python's built-in `sum()` adds floats: one by one (CPython ≤ 3.11) or with Neumaier's
/// compensation (CPython ≥ 3.12, `builtin_sum_impl`). NLTK sums a segment's information with `sum()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonSum {
    Sequential,
    Neumaier,
}

impl PythonSum {
    /// `sum(values)` of Python floats, bit for bit.
    pub fn sum(self, values: impl IntoIterator<Item = f64>) -> f64 {
        match self {
            Self::Sequential => values.into_iter().fold(0.0, |total, value| total + value),
            Self::Neumaier => {
                let (mut total, mut compensation) = (0.0f64, 0.0f64);
                for value in values {
                    let next = total + value;
                    compensation += if total.abs() >= value.abs() { (total - next) + value } else { (value - next) + total };
                    total = next;
                }
                // CPython: "don't let adding the compensation convert an infinite sum to a NaN".
                if compensation != 0.0 && compensation.is_finite() {
                    total += compensation;
                }
                total
            }
        }
    }
}

/// The highest order accepted.
pub const MAX_ORDER_LIMIT: usize = 100;

/// Reference n-gram counts of a corpus and the information weights they give (ids: [`NgramIndex`]).
#[derive(Debug, Clone)]
pub struct NistWeights {
    max_order: usize,
    index: NgramIndex,
    counts: Vec<u32>,
    total_reference_words: u64,
}

impl NistWeights {
    /// Counts the n-grams of orders `1..=max_order` of every reference (token ids `< vocab_size`).
    pub fn new<'a>(references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32, max_order: usize) -> Self {
        let mut weights = Self { max_order, index: NgramIndex::new(vocab_size), counts: Vec::new(), total_reference_words: 0 };
        weights.recount(references, vocab_size);
        weights
    }

    /// Forgets the counts and counts `references` instead (keeps the memory: one per thread for sentence scores).
    pub fn recount<'a>(&mut self, references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32) {
        let Self { max_order, index, counts, total_reference_words } = self;
        index.reset(vocab_size);
        counts.clear();
        counts.resize(vocab_size as usize, 0);
        *total_reference_words = 0;
        for reference in references {
            *total_reference_words += reference.len() as u64;
            index.insert_all(reference, *max_order, |_, _, id| {
                if id as usize >= counts.len() {
                    counts.resize(id as usize + 1, 0);
                }
                counts[id as usize] += 1;
            });
        }
    }

    /// `math.log(numerator / count, 2)` for a reference n-gram (NLTK's information weight).
    #[inline]
    fn information(&self, id: u32) -> f64 {
        let numerator = match self.index.prefix(id) {
            None => self.total_reference_words,
            Some(parent) => u64::from(self.counts[parent as usize]),
        };
        // CPython's math.log(x, 2) is log(x) / log(2).
        (numerator as f64 / f64::from(self.counts[id as usize])).ln() / 2f64.ln()
    }

    /// The n-gram ids of `tokens` for orders `1..=max_order`: `out[n-1][i]` is the id of the n-gram
    /// starting at `i` ([`NO_NGRAM`] where no reference has it).
    fn ngram_ids(&self, tokens: &[u32], out: &mut Vec<Vec<u32>>) {
        out.resize(self.max_order, Vec::new());
        out.iter_mut().for_each(Vec::clear);
        let counts = &self.counts;
        self.index.lookup_all(tokens, self.max_order, |token| counts[token as usize] > 0, |_, order, id| out[order - 1].push(id));
    }
}

/// Columns of a segment row: `[info_1..N, ngrams_1..N, ref_len_1..N, hyp_len]` (counts as exact f64).
pub fn row_width(max_order: usize) -> usize {
    3 * max_order + 1
}

/// Reusable per-thread work space.
#[derive(Debug, Default, Clone)]
pub struct NistScratch {
    hyp_ids: Vec<Vec<u32>>,
    ref_ids: Vec<Vec<Vec<u32>>>,
    occurrences: Vec<(u32, u32)>,
    distinct: Vec<(u32, u32, u32)>,
    ref_sorted: Vec<u32>,
}

/// The statistics row of one segment under the corpus `weights`.
pub fn segment_row(hyp: &[u32], refs: &[Vec<u32>], weights: &NistWeights, sum: PythonSum, scratch: &mut NistScratch) -> Vec<f64> {
    let max_order = weights.max_order;
    let mut row = vec![0.0; row_width(max_order)];
    row[3 * max_order] = hyp.len() as f64;
    let NistScratch { hyp_ids, ref_ids, occurrences, distinct, ref_sorted } = scratch;
    weights.ngram_ids(hyp, hyp_ids);
    ref_ids.resize(refs.len().max(ref_ids.len()), Vec::new());
    for (reference, ids) in refs.iter().zip(ref_ids.iter_mut()) {
        weights.ngram_ids(reference, ids);
    }
    for order in 0..max_order {
        // Distinct hypothesis n-grams some reference has, with counts, in order of first occurrence
        // (sorting a few dozen ids beats hashing them).
        occurrences.clear();
        occurrences.extend(hyp_ids[order].iter().enumerate().filter(|(_, &id)| id != NO_NGRAM).map(|(at, &id)| (id, at as u32)));
        occurrences.sort_unstable();
        distinct.clear();
        distinct.extend(occurrences.chunk_by(|a, b| a.0 == b.0).map(|run| (run[0].1, run[0].0, run.len() as u32)));
        distinct.sort_unstable();
        let denominator = ngram_total(hyp.len(), order + 1) as u64;
        // (precision, information, ref_len) of the best reference so far.
        let mut best: Option<(f64, f64, u64)> = None;
        for (reference, ids) in refs.iter().zip(ref_ids.iter()) {
            ref_sorted.clear();
            if !distinct.is_empty() {
                ref_sorted.extend(ids[order].iter().copied().filter(|&id| id != NO_NGRAM));
                ref_sorted.sort_unstable();
            }
            let ref_count = |id: u32| (ref_sorted.partition_point(|&x| x <= id) - ref_sorted.partition_point(|&x| x < id)) as u32;
            let information = sum.sum(distinct.iter().filter_map(|&(_, id, count)| {
                let matched = count.min(ref_count(id));
                (matched > 0).then(|| weights.information(id) * f64::from(matched))
            }));
            let precision = if denominator == 0 { 0.0 } else { information / denominator as f64 };
            let candidate = (precision, information, reference.len() as u64);
            // Python's max over (precision, numerator, denominator, ref_len) tuples: the first of equals.
            let better = match best {
                None => true,
                Some(current) => candidate > current,
            };
            if better {
                best = Some(candidate);
            }
        }
        let (_, information, ref_len) = best.unwrap_or((0.0, 0.0, 0));
        row[order] = information;
        row[max_order + order] = denominator as f64;
        row[2 * max_order + order] = ref_len as f64;
    }
    row
}

/// Rows of a whole corpus with corpus-wide weights (`hyps[i]` against `refs[i]`), in parallel.
pub fn corpus_rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], max_order: usize, sum: PythonSum) -> Result<Vec<f64>> {
    check(hyps.len(), refs.len(), max_order)?;
    let vocab_size = refs.iter().flatten().flatten().max().map_or(0, |&id| id + 1);
    let weights = NistWeights::new(refs.iter().flatten().map(Vec::as_slice), vocab_size, max_order);
    let rows: Vec<Vec<f64>> = hyps
        .par_iter()
        .zip(refs.par_iter())
        .map_init(NistScratch::default, |scratch, (hyp, segment_refs)| segment_row(hyp, segment_refs, &weights, sum, scratch))
        .collect();
    Ok(rows.into_iter().flatten().collect())
}

/// Each segment's own row, with weights from its own references only (what `sentence_nist` sees).
pub fn sentence_rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], max_order: usize, sum: PythonSum) -> Result<Vec<f64>> {
    check(hyps.len(), refs.len(), max_order)?;
    let rows: Vec<Vec<f64>> = hyps
        .par_iter()
        .zip(refs.par_iter())
        .map_init(
            || (NistScratch::default(), NistWeights::new(std::iter::empty(), 0, max_order), LocalIds::default()),
            |(scratch, weights, local), (hyp, segment_refs)| {
                // The segment's words renumbered densely: its weights need no corpus-sized tables.
                local.renumber(hyp, segment_refs);
                weights.recount(local.refs.iter().map(Vec::as_slice), local.ids.len() as u32);
                segment_row(&local.hyp, &local.refs, weights, sum, scratch)
            },
        )
        .collect();
    Ok(rows.into_iter().flatten().collect())
}

/// Dense ids of one segment's words (reused from segment to segment).
#[derive(Debug, Default)]
struct LocalIds {
    ids: FxHashMap<u32, u32>,
    hyp: Vec<u32>,
    refs: Vec<Vec<u32>>,
}

impl LocalIds {
    fn renumber(&mut self, hyp: &[u32], refs: &[Vec<u32>]) {
        let Self { ids, hyp: local_hyp, refs: local_refs } = self;
        ids.clear();
        let mut local = |id: u32| {
            let next = ids.len() as u32;
            *ids.entry(id).or_insert(next)
        };
        local_hyp.clear();
        local_hyp.extend(hyp.iter().map(|&id| local(id)));
        local_refs.resize(refs.len(), Vec::new());
        local_refs.truncate(refs.len());
        for (local_ref, reference) in local_refs.iter_mut().zip(refs) {
            local_ref.clear();
            local_ref.extend(reference.iter().map(|&id| local(id)));
        }
    }
}

fn check(n_hyps: usize, n_refs: usize, max_order: usize) -> Result<()> {
    Error::check_reference_sets(n_hyps, n_refs)?;
    if max_order == 0 || max_order > MAX_ORDER_LIMIT {
        return Err(Error::InvalidOption(format!("n must be between 1 and {MAX_ORDER_LIMIT}, got {max_order}")));
    }
    Ok(())
}

/// A corpus NIST score and where NLTK would have divided by zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NistScore {
    pub score: f64,
    /// NLTK raises `ZeroDivisionError` here (an order without hypothesis n-grams, no reference word,
    /// or no segment at all); `score` is then mteval-v13a's value (such orders add 0; no length: 0).
    pub nltk_divides_by_zero: bool,
}

/// The corpus score of rows summed column-wise in segment order (information sequentially, as NLTK's `+=`).
pub fn corpus_score(summed: &[f64], max_order: usize, n_segments: usize) -> NistScore {
    let mut divides_by_zero = n_segments == 0;
    let mut precision_sum = 0.0;
    for order in 0..max_order {
        let denominator = summed[max_order + order];
        if denominator == 0.0 {
            divides_by_zero = true;
            continue;
        }
        precision_sum += summed[order] / denominator;
    }
    let ref_len: f64 = summed[2 * max_order..3 * max_order].iter().sum();
    let hyp_len = summed[3 * max_order] * max_order as f64;
    if ref_len == 0.0 {
        return NistScore { score: 0.0, nltk_divides_by_zero: true };
    }
    NistScore { score: precision_sum * length_penalty(ref_len, hyp_len), nltk_divides_by_zero: divides_by_zero }
}

/// Sums rows column by column, in row order.
pub fn sum_rows(rows: &[f64], width: usize) -> Vec<f64> {
    let mut summed = vec![0.0; width];
    for row in rows.chunks_exact(width) {
        for (total, value) in summed.iter_mut().zip(row) {
            *total += value;
        }
    }
    summed
}

/// NLTK's `nist_length_penalty(ref_len, hyp_len)` (Doddington 2002, eq. 3): β makes the penalty 0.5 at ratio 2/3.
pub fn length_penalty(ref_len: f64, hyp_len: f64) -> f64 {
    let ratio = hyp_len / ref_len;
    if 0.0 < ratio && ratio < 1.0 {
        let beta = 0.5f64.ln() / python_pow(1.5f64.ln(), 2.0);
        (beta * python_pow(ratio.ln(), 2.0)).exp()
    } else {
        ratio.clamp(0.0, 1.0)
    }
}

/// Python's `x ** y` for floats: the C library's `pow`, never rewritten by the compiler (`x*x`).
#[inline]
pub fn python_pow(x: f64, y: f64) -> f64 {
    x.powf(std::hint::black_box(y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ngram::Vocab;

    fn corpus<'a>(vocab: &mut Vocab<'a>, hyps: &[&'a str], refs: &[Vec<&'a str>]) -> (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>) {
        let hyps = hyps.iter().map(|h| vocab.ids(h.split_whitespace())).collect();
        let refs = refs.iter().map(|rs| rs.iter().map(|r| vocab.ids(r.split_whitespace())).collect()).collect();
        (hyps, refs)
    }

    fn nist(hyps: &[&str], refs: &[Vec<&str>], n: usize) -> NistScore {
        let mut vocab = Vocab::default();
        let (hyps, refs) = corpus(&mut vocab, hyps, refs);
        let rows = corpus_rows(&hyps, &refs, n, PythonSum::Sequential).unwrap();
        corpus_score(&sum_rows(&rows, row_width(n)), n, hyps.len())
    }

    #[test]
    fn nltk_docstring_examples() {
        // nist_score.py: sentence_nist([ref1a, ref1b, ref1c], hyp1) = 3.3709..., (…, hyp2) = 1.4619...
        let hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party";
        let hyp2 = "It is to insure the troops forever hearing the activity guidebook that party direct";
        let refs = vec![
            "It is a guide to action that ensures that the military will forever heed Party commands",
            "It is the guiding principle which guarantees the military forces always being under the command of the Party",
            "It is the practical guide for the army always to heed the directions of the party",
        ];
        let one = nist(&[hyp1], &[refs.clone()], 5);
        assert!((one.score - 3.3709).abs() < 1e-4, "{one:?}");
        assert!(!one.nltk_divides_by_zero);
        let two = nist(&[hyp2], &[refs], 5);
        assert!((two.score - 1.4619).abs() < 1e-4, "{two:?}");
    }

    #[test]
    fn short_hypotheses_are_where_nltk_divides_by_zero() {
        let short = nist(&["a b"], &[vec!["a b c"]], 5);
        assert!(short.nltk_divides_by_zero);
        assert!(short.score > 0.0);
        let empty = nist(&[], &[], 5);
        assert!(empty.nltk_divides_by_zero);
        assert_eq!(empty.score, 0.0);
        let no_reference_words = nist(&["a"], &[vec![""]], 1);
        assert!(no_reference_words.nltk_divides_by_zero);
    }

    #[test]
    fn length_penalty_is_half_at_two_thirds() {
        assert!((length_penalty(3.0, 2.0) - 0.5).abs() < 1e-12);
        assert_eq!(length_penalty(2.0, 3.0), 1.0);
        assert_eq!(length_penalty(2.0, 0.0), 0.0);
    }

    #[test]
    fn neumaier_sum_keeps_small_terms() {
        let values = [1e16, 1.0, -1e16];
        assert_eq!(PythonSum::Sequential.sum(values), 0.0);
        assert_eq!(PythonSum::Neumaier.sum(values), 1.0);
        assert_eq!(PythonSum::Neumaier.sum([0.1, 0.2, 0.3]), 0.6);
    }

    #[test]
    fn rejects_bad_shapes() {
        assert!(corpus_rows(&[vec![0]], &[], 5, PythonSum::Sequential).is_err());
        assert!(corpus_rows(&[], &[], 0, PythonSum::Sequential).is_err());
    }
}
