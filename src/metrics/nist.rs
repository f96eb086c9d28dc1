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
use super::nist_corpus::{information, CorpusNgrams};
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
        Self::counted(references, vocab_size, max_order, |_, _, _| {})
    }

    /// [`new`](Self::new), calling `on_ngram` as [`recount_with`](Self::recount_with) does.
    fn counted<'a>(references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32, max_order: usize, on_ngram: impl FnMut(usize, usize, u32)) -> Self {
        let mut weights = Self { max_order, index: NgramIndex::new(vocab_size), counts: Vec::new(), total_reference_words: 0 };
        weights.recount_with(references, vocab_size, on_ngram);
        weights
    }

    /// Forgets the counts and counts `references` instead (keeps the memory: one per thread for sentence scores).
    pub fn recount<'a>(&mut self, references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32) {
        self.recount_with(references, vocab_size, |_, _, _| {});
    }

    /// [`recount`](Self::recount), calling `on_ngram(reference, order, id)` for every reference n-gram
    /// in [`NgramIndex::insert_all`]'s order (position by position, order by order).
    fn recount_with<'a>(&mut self, references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32, mut on_ngram: impl FnMut(usize, usize, u32)) {
        let Self { max_order, index, counts, total_reference_words } = self;
        index.reset(vocab_size);
        counts.clear();
        counts.resize(vocab_size as usize, 0);
        *total_reference_words = 0;
        for (at, reference) in references.into_iter().enumerate() {
            *total_reference_words += reference.len() as u64;
            index.insert_all(reference, *max_order, |_, order, id| {
                if id as usize >= counts.len() {
                    counts.resize(id as usize + 1, 0);
                }
                counts[id as usize] += 1;
                on_ngram(at, order, id);
            });
        }
    }

    /// `math.log(numerator / count, 2)` for a reference n-gram (NLTK's information weight).
    #[inline]
    fn information(&self, id: u32) -> f64 {
        information(&self.index, &self.counts, self.total_reference_words, id)
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

/// Reusable per-thread work space of [`rows`]: the segment renumbered densely, its own weights, and
/// for each of its n-grams the id under the corpus weights.
#[derive(Debug)]
struct SegmentScratch {
    local: LocalIds,
    weights: NistWeights,
    to_corpus: Vec<u32>,
    hyp_ids: Vec<Vec<u32>>,
    ref_ids: Vec<Vec<Vec<u32>>>,
    occurrences: Vec<(u32, u32)>,
    distinct: Vec<(u32, u32, u32)>,
    ref_sorted: Vec<u32>,
    matched: Vec<(u32, u32)>,
}

impl SegmentScratch {
    fn new(max_order: usize) -> Self {
        Self {
            local: LocalIds::default(),
            weights: NistWeights::new(std::iter::empty(), 0, max_order),
            to_corpus: Vec::new(),
            hyp_ids: Vec::new(),
            ref_ids: Vec::new(),
            occurrences: Vec::new(),
            distinct: Vec::new(),
            ref_sorted: Vec::new(),
            matched: Vec::new(),
        }
    }
}

/// (precision, information, reference length) of the best reference so far, as NLTK's `max` over
/// (precision, numerator, denominator, ref_len) tuples keeps the first of equals.
fn keep_best(best: &mut Option<(f64, f64, u64)>, candidate: (f64, f64, u64)) {
    if best.is_none_or(|current| candidate > current) {
        *best = Some(candidate);
    }
}

/// The rows of one segment: under the corpus weights into `corpus_row` (when `corpus` is given:
/// the weights and where the segment's references begin among all references) and under its own
/// references' weights into `sentence_row` (when `sentence`).
#[allow(clippy::too_many_arguments)]
fn segment_rows(
    hyp: &[u32],
    refs: &[Vec<u32>],
    corpus: Option<(&CorpusNgrams, usize)>,
    sentence: bool,
    sum: PythonSum,
    scratch: &mut SegmentScratch,
    corpus_row: &mut [f64],
    sentence_row: &mut [f64],
) {
    let SegmentScratch { local, weights, to_corpus, hyp_ids, ref_ids, occurrences, distinct, ref_sorted, matched } = scratch;
    let max_order = weights.max_order;
    // The segment's words renumbered densely: its weights need no corpus-sized tables.
    local.renumber(hyp, refs);
    ref_ids.resize(refs.len().max(ref_ids.len()), Vec::new());
    for ids in ref_ids.iter_mut().take(refs.len()) {
        ids.resize(max_order, Vec::new());
        ids.iter_mut().for_each(Vec::clear);
    }
    to_corpus.clear();
    let mut corpus_ids = corpus.map(|(ngrams, first)| ngrams.ids_from(first));
    weights.recount_with(local.refs.iter().map(Vec::as_slice), local.ids.len() as u32, |reference, order, id| {
        ref_ids[reference][order - 1].push(id);
        if let Some(corpus_ids) = corpus_ids.as_mut() {
            if id as usize >= to_corpus.len() {
                to_corpus.resize(id as usize + 1, NO_NGRAM);
            }
            to_corpus[id as usize] = corpus_ids.next().expect("the corpus counted the same n-grams");
        }
    });
    weights.ngram_ids(&local.hyp, hyp_ids);
    for row in [&mut *corpus_row, &mut *sentence_row] {
        row[3 * max_order] = hyp.len() as f64;
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
        let precision = |information: f64| if denominator == 0 { 0.0 } else { information / denominator as f64 };
        let (mut best_corpus, mut best_sentence) = (None, None);
        for (reference, ids) in refs.iter().zip(ref_ids.iter()) {
            ref_sorted.clear();
            matched.clear();
            if !distinct.is_empty() {
                ref_sorted.extend_from_slice(&ids[order]);
                ref_sorted.sort_unstable();
                let ref_count = |id: u32| (ref_sorted.partition_point(|&x| x <= id) - ref_sorted.partition_point(|&x| x < id)) as u32;
                // NLTK's `Counter & Counter`: the clipped matches, in the hypothesis's order.
                matched.extend(distinct.iter().filter_map(|&(_, id, count)| Some((id, count.min(ref_count(id)))).filter(|m| m.1 > 0)));
            }
            let ref_len = reference.len() as u64;
            if let Some((ngrams, _)) = corpus {
                let information = sum.sum(matched.iter().map(|&(id, count)| ngrams.information(to_corpus[id as usize]) * f64::from(count)));
                keep_best(&mut best_corpus, (precision(information), information, ref_len));
            }
            if sentence {
                let information = sum.sum(matched.iter().map(|&(id, count)| weights.information(id) * f64::from(count)));
                keep_best(&mut best_sentence, (precision(information), information, ref_len));
            }
        }
        for (row, best) in [(&mut *corpus_row, best_corpus), (&mut *sentence_row, best_sentence)] {
            let (_, information, ref_len) = best.unwrap_or((0.0, 0.0, 0));
            row[order] = information;
            row[max_order + order] = denominator as f64;
            row[2 * max_order + order] = ref_len as f64;
        }
    }
}

/// Rows of a whole corpus (`hyps[i]` against `refs[i]`, in parallel): with corpus-wide weights
/// (`corpus_nist`; when `corpus`) and each segment's own (`sentence_nist`; when `sentence`). A row
/// not asked for is empty.
pub fn rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], max_order: usize, sum: PythonSum, corpus: bool, sentence: bool) -> Result<(Vec<f64>, Vec<f64>)> {
    check(hyps.len(), refs.len(), max_order)?;
    let width = row_width(max_order);
    let ngrams = corpus.then(|| CorpusNgrams::new(&refs.iter().flatten().map(Vec::as_slice).collect::<Vec<_>>(), max_order));
    let mut first_reference = Vec::with_capacity(refs.len());
    refs.iter().fold(0, |first, segment_refs| {
        first_reference.push(first);
        first + segment_refs.len()
    });
    let (mut corpus_rows, mut sentence_rows) = (vec![0.0; hyps.len() * width], vec![0.0; hyps.len() * width]);
    corpus_rows
        .par_chunks_mut(width)
        .zip(sentence_rows.par_chunks_mut(width))
        .zip(hyps.par_iter().zip(refs.par_iter()).zip(first_reference.par_iter()))
        .for_each_init(
            || SegmentScratch::new(max_order),
            |scratch, ((corpus_row, sentence_row), ((hyp, segment_refs), &first))| {
                let corpus = ngrams.as_ref().map(|ngrams| (ngrams, first));
                segment_rows(hyp, segment_refs, corpus, sentence, sum, scratch, corpus_row, sentence_row);
            },
        );
    for (wanted, rows) in [(corpus, &mut corpus_rows), (sentence, &mut sentence_rows)] {
        if !wanted {
            rows.clear();
        }
    }
    Ok((corpus_rows, sentence_rows))
}

/// Rows of a whole corpus with corpus-wide weights (`hyps[i]` against `refs[i]`), in parallel.
pub fn corpus_rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], max_order: usize, sum: PythonSum) -> Result<Vec<f64>> {
    Ok(rows(hyps, refs, max_order, sum, true, false)?.0)
}

/// Each segment's own row, with weights from its own references only (what `sentence_nist` sees).
pub fn sentence_rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], max_order: usize, sum: PythonSum) -> Result<Vec<f64>> {
    Ok(rows(hyps, refs, max_order, sum, false, true)?.1)
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

    /// NLTK's `corpus_nist` loop transcribed literally (n-gram tuples in hash maps): rows with
    /// corpus weights, or with each segment's own (`sentence`).
    fn literal_rows(hyps: &[Vec<u32>], refs: &[Vec<Vec<u32>>], n: usize, sentence: bool) -> Vec<f64> {
        use std::collections::HashMap;
        let grams = |seq: &[u32], k: usize| -> Vec<Vec<u32>> { if seq.len() < k { vec![] } else { seq.windows(k).map(<[u32]>::to_vec).collect() } };
        let weights_of = |refs: &[&Vec<u32>]| {
            let mut freq: HashMap<Vec<u32>, u64> = HashMap::new();
            for reference in refs {
                for k in 1..=n {
                    for gram in grams(reference, k) {
                        *freq.entry(gram).or_default() += 1;
                    }
                }
            }
            let total: u64 = refs.iter().map(|r| r.len() as u64).sum();
            let info: HashMap<Vec<u32>, f64> = freq
                .iter()
                .map(|(gram, &count)| {
                    let prefix = &gram[..gram.len() - 1];
                    let numerator = if prefix.is_empty() { total } else { freq[prefix] };
                    (gram.clone(), (numerator as f64 / count as f64).ln() / 2f64.ln())
                })
                .collect();
            info
        };
        let corpus_info = weights_of(&refs.iter().flatten().collect::<Vec<_>>());
        let mut out = vec![];
        for (hyp, segment_refs) in hyps.iter().zip(refs) {
            let info = if sentence { weights_of(&segment_refs.iter().collect::<Vec<_>>()) } else { corpus_info.clone() };
            let mut row = vec![0.0; row_width(n)];
            row[3 * n] = hyp.len() as f64;
            for k in 1..=n {
                let hyp_grams = grams(hyp, k);
                let mut best: Option<(f64, f64, u64)> = None;
                for reference in segment_refs {
                    let ref_grams = grams(reference, k);
                    let mut seen = vec![];
                    let mut numerator = 0.0;
                    for gram in &hyp_grams {
                        if seen.contains(gram) {
                            continue; // Counter & Counter: each distinct n-gram once, first occurrence first
                        }
                        seen.push(gram.clone());
                        let count = hyp_grams.iter().filter(|g| *g == gram).count().min(ref_grams.iter().filter(|g| *g == gram).count());
                        if count > 0 {
                            numerator += info[gram] * count as f64;
                        }
                    }
                    let precision = if hyp_grams.is_empty() { 0.0 } else { numerator / hyp_grams.len() as f64 };
                    keep_best(&mut best, (precision, numerator, reference.len() as u64));
                }
                let (_, numerator, ref_len) = best.unwrap_or((0.0, 0.0, 0));
                row[k - 1] = numerator;
                row[n + k - 1] = hyp_grams.len() as f64;
                row[2 * n + k - 1] = ref_len as f64;
            }
            out.extend(row);
        }
        out
    }

    #[test]
    fn equals_the_literal_loop_on_random_corpora() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for _ in 0..300 {
            let alphabet = 1 + next(6);
            let n = 1 + next(5) as usize;
            let segments = next(6) as usize;
            let seq = |next: &mut dyn FnMut(u64) -> u64| -> Vec<u32> { (0..next(10)).map(|_| 1000 * next(alphabet) as u32).collect() };
            let hyps: Vec<Vec<u32>> = (0..segments).map(|_| seq(&mut next)).collect();
            let refs: Vec<Vec<Vec<u32>>> = (0..segments).map(|_| (0..next(4)).map(|_| seq(&mut next)).collect()).collect();
            // The corpus counts are sharded by thread count: every count gives the same rows.
            let threads = 1 + next(3) as usize;
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let (corpus, sentence) = pool.install(|| rows(&hyps, &refs, n, PythonSum::Sequential, true, true)).unwrap();
            let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&corpus), bits(&literal_rows(&hyps, &refs, n, false)), "{hyps:?} {refs:?} {n}");
            assert_eq!(bits(&sentence), bits(&literal_rows(&hyps, &refs, n, true)), "{hyps:?} {refs:?} {n}");
            assert_eq!(corpus_rows(&hyps, &refs, n, PythonSum::Sequential).unwrap(), corpus);
            assert_eq!(sentence_rows(&hyps, &refs, n, PythonSum::Sequential).unwrap(), sentence);
        }
    }

    #[test]
    fn rejects_bad_shapes() {
        assert!(corpus_rows(&[vec![0]], &[], 5, PythonSum::Sequential).is_err());
        assert!(corpus_rows(&[], &[], 0, PythonSum::Sequential).is_err());
    }
}
