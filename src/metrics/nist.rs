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

use super::nist_corpus::{information, MatchedCounts, SegmentMatches};
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
                    compensation +=
                        if total.abs() >= value.abs() { (total - next) + value } else { (value - next) + total };
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
    fn counted<'a>(
        references: impl IntoIterator<Item = &'a [u32]>,
        vocab_size: u32,
        max_order: usize,
        on_ngram: impl FnMut(usize, usize, u32),
    ) -> Self {
        let mut weights =
            Self { max_order, index: NgramIndex::new(vocab_size), counts: Vec::new(), total_reference_words: 0 };
        weights.recount_with(references, vocab_size, on_ngram);
        weights
    }

    /// Forgets the counts and counts `references` instead (keeps the memory: one per thread for sentence scores).
    pub fn recount<'a>(&mut self, references: impl IntoIterator<Item = &'a [u32]>, vocab_size: u32) {
        self.recount_with(references, vocab_size, |_, _, _| {});
    }

    /// [`recount`](Self::recount), calling `on_ngram(reference, order, id)` for every reference n-gram
    /// in [`NgramIndex::insert_all`]'s order (position by position, order by order).
    fn recount_with<'a>(
        &mut self,
        references: impl IntoIterator<Item = &'a [u32]>,
        vocab_size: u32,
        mut on_ngram: impl FnMut(usize, usize, u32),
    ) {
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
        self.index.lookup_all(
            tokens,
            self.max_order,
            |token| counts[token as usize] > 0,
            |_, order, id| out[order - 1].push(id),
        );
    }
}

/// Columns of a segment row: `[info_1..N, ngrams_1..N, ref_len_1..N, hyp_len]` (counts as exact f64).
pub fn row_width(max_order: usize) -> usize {
    3 * max_order + 1
}

/// Reusable per-thread work space of [`rows`]: the segment renumbered densely and its own weights.
#[derive(Debug)]
struct SegmentScratch {
    local: LocalIds,
    weights: NistWeights,
    hyp_ids: Vec<Vec<u32>>,
    ref_ids: Vec<Vec<Vec<u32>>>,
    /// (first position, local n-gram id) of the distinct hypothesis n-grams of one order.
    distinct: Vec<(u32, u32)>,
    /// Occurrences of each local n-gram id in the hypothesis / in one reference, for one order.
    hyp_count: Vec<u32>,
    ref_count: Vec<u32>,
    /// (local n-gram id, clipped count, first position in the hypothesis).
    matched: Vec<(u32, u32, u32)>,
    /// Entry in [`SegmentMatches::entries`] of each local n-gram id ([`NO_NGRAM`]: none yet).
    entry_of: Vec<u32>,
    /// The segment's [`SegmentMatches`], built here and copied out at their exact size.
    built: SegmentMatches,
}

impl SegmentScratch {
    fn new(max_order: usize) -> Self {
        Self {
            local: LocalIds::default(),
            weights: NistWeights::new(std::iter::empty(), 0, max_order),
            hyp_ids: Vec::new(),
            ref_ids: Vec::new(),
            distinct: Vec::new(),
            hyp_count: Vec::new(),
            ref_count: Vec::new(),
            matched: Vec::new(),
            entry_of: Vec::new(),
            built: SegmentMatches::default(),
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

/// Writes the best reference's (information, n-grams, reference length) of order `order` into `row`.
fn write_order(row: &mut [f64], max_order: usize, order: usize, denominator: u64, best: Option<(f64, f64, u64)>) {
    let (_, information, ref_len) = best.unwrap_or((0.0, 0.0, 0));
    row[order] = information;
    row[max_order + order] = denominator as f64;
    row[2 * max_order + order] = ref_len as f64;
}

/// One segment's first pass: its row under its own references' weights into `sentence_row` (when
/// `sentence`), and its clipped matches into `matches` (when `corpus`) for [`corpus_row`].
#[allow(clippy::too_many_arguments)]
fn segment_pass(
    hyp: &[u32],
    refs: &[Vec<u32>],
    corpus: bool,
    sentence: bool,
    sum: PythonSum,
    scratch: &mut SegmentScratch,
    sentence_row: &mut [f64],
    matches: &mut SegmentMatches,
) {
    let SegmentScratch { local, weights, hyp_ids, ref_ids, distinct, hyp_count, ref_count, matched, entry_of, built } =
        scratch;
    let max_order = weights.max_order;
    // The segment's words renumbered densely: its weights need no corpus-sized tables.
    local.renumber(hyp, refs);
    ref_ids.resize(refs.len().max(ref_ids.len()), Vec::new());
    for ids in ref_ids.iter_mut().take(refs.len()) {
        ids.resize(max_order, Vec::new());
        ids.iter_mut().for_each(Vec::clear);
    }
    weights.recount_with(local.refs.iter().map(Vec::as_slice), local.ids.len() as u32, |reference, order, id| {
        ref_ids[reference][order - 1].push(id);
    });
    weights.ngram_ids(&local.hyp, hyp_ids);
    sentence_row[3 * max_order] = hyp.len() as f64;
    entry_of.clear();
    entry_of.resize(weights.index.len(), NO_NGRAM);
    // Zero from the last segment (every count is reset after use); grown for this one's ids.
    hyp_count.resize(hyp_count.len().max(weights.index.len()), 0);
    ref_count.resize(ref_count.len().max(weights.index.len()), 0);
    let SegmentMatches { entries, matches: matched_list, ends } = built;
    entries.clear();
    matched_list.clear();
    ends.clear();
    for order in 0..max_order {
        // Distinct hypothesis n-grams some reference has, in order of first occurrence, counted in
        // arrays indexed by the segment's dense n-gram ids (zeroed again after use).
        distinct.clear();
        for (at, &id) in hyp_ids[order].iter().enumerate() {
            if id != NO_NGRAM {
                if hyp_count[id as usize] == 0 {
                    distinct.push((at as u32, id));
                }
                hyp_count[id as usize] += 1;
            }
        }
        let denominator = ngram_total(hyp.len(), order + 1) as u64;
        let precision = |information: f64| if denominator == 0 { 0.0 } else { information / denominator as f64 };
        let mut best_sentence = None;
        for (reference, ids) in refs.iter().zip(ref_ids.iter()) {
            matched.clear();
            if !distinct.is_empty() {
                ids[order].iter().for_each(|&id| ref_count[id as usize] += 1);
                // NLTK's `Counter & Counter`: the clipped matches, in the hypothesis's order.
                matched.extend(distinct.iter().filter_map(|&(at, id)| {
                    let count = hyp_count[id as usize].min(ref_count[id as usize]);
                    (count > 0).then_some((id, count, at))
                }));
                ids[order].iter().for_each(|&id| ref_count[id as usize] = 0);
            }
            if sentence {
                let information =
                    sum.sum(matched.iter().map(|&(id, count, _)| weights.information(id) * f64::from(count)));
                keep_best(&mut best_sentence, (precision(information), information, reference.len() as u64));
            }
            if corpus {
                for &(id, count, at) in matched.iter() {
                    if entry_of[id as usize] == NO_NGRAM {
                        // A matched n-gram's prefix is matched too, one order lower: it has its entry.
                        let prefix = weights.index.prefix(id).map_or(NO_NGRAM, |prefix| entry_of[prefix as usize]);
                        entry_of[id as usize] = entries.len() as u32;
                        entries.push((prefix, hyp[at as usize + order]));
                    }
                    matched_list.push((entry_of[id as usize], count));
                }
                ends.push(matched_list.len() as u32);
            }
        }
        write_order(sentence_row, max_order, order, denominator, best_sentence);
        distinct.iter().for_each(|&(_, id)| hyp_count[id as usize] = 0);
    }
    if corpus {
        // Exact-size copies: one allocation each, where growing them in place reallocates several times.
        matches.entries = entries.clone();
        matches.matches = matched_list.clone();
        matches.ends = ends.clone();
    }
}

/// One segment's row under the corpus weights, from its [`segment_pass`] matches.
fn corpus_row(
    hyp_len: usize,
    refs: &[Vec<u32>],
    matches: &SegmentMatches,
    counts: &MatchedCounts,
    max_order: usize,
    sum: PythonSum,
    row: &mut [f64],
) {
    row[3 * max_order] = hyp_len as f64;
    let mut start = 0;
    let mut ends = matches.ends.iter();
    for order in 0..max_order {
        let denominator = ngram_total(hyp_len, order + 1) as u64;
        let mut best = None;
        for reference in refs {
            let end = *ends.next().expect("one list per order and reference") as usize;
            let list = &matches.matches[start..end];
            start = end;
            let information = sum.sum(
                list.iter()
                    .map(|&(entry, count)| counts.information(matches.entries[entry as usize].0) * f64::from(count)),
            );
            let precision = if denominator == 0 { 0.0 } else { information / denominator as f64 };
            keep_best(&mut best, (precision, information, reference.len() as u64));
        }
        write_order(row, max_order, order, denominator, best);
    }
}

/// Rows of a whole corpus (`hyps[i]` against `refs[i]`, in parallel): with corpus-wide weights
/// (`corpus_nist`; when `corpus`) and each segment's own (`sentence_nist`; when `sentence`). A row
/// not asked for is empty.
pub fn rows(
    hyps: &[Vec<u32>],
    refs: &[Vec<Vec<u32>>],
    max_order: usize,
    sum: PythonSum,
    corpus: bool,
    sentence: bool,
) -> Result<(Vec<f64>, Vec<f64>)> {
    check(hyps.len(), refs.len(), max_order)?;
    let width = row_width(max_order);
    let mut sentence_rows = vec![0.0; if sentence { hyps.len() * width } else { 0 }];
    let mut matches: Vec<SegmentMatches> =
        (0..if corpus { hyps.len() } else { 0 }).map(|_| SegmentMatches::default()).collect();
    let pass = |scratch: &mut SegmentScratch,
                (at, sentence_row, segment_matches): (usize, &mut [f64], &mut SegmentMatches)| {
        segment_pass(&hyps[at], &refs[at], corpus, sentence, sum, scratch, sentence_row, segment_matches);
    };
    match (corpus, sentence) {
        (true, true) => sentence_rows
            .par_chunks_mut(width)
            .zip(matches.par_iter_mut())
            .enumerate()
            .for_each_init(|| SegmentScratch::new(max_order), |scratch, (at, (row, m))| pass(scratch, (at, row, m))),
        (true, false) => matches.par_iter_mut().enumerate().for_each_init(
            || (SegmentScratch::new(max_order), vec![0.0; width]),
            |(scratch, row), (at, m)| pass(scratch, (at, row, m)),
        ),
        (false, true) => sentence_rows.par_chunks_mut(width).enumerate().for_each_init(
            || (SegmentScratch::new(max_order), SegmentMatches::default()),
            |(scratch, m), (at, row)| pass(scratch, (at, row, m)),
        ),
        (false, false) => {}
    }
    let mut corpus_rows = Vec::new();
    if corpus {
        let vocab_size = hyps.iter().chain(refs.iter().flatten()).flat_map(|s| s.iter()).max().map_or(0, |&id| id + 1);
        let all_refs: Vec<&[u32]> = refs.iter().flatten().map(Vec::as_slice).collect();
        let counts = MatchedCounts::new(&mut matches, &all_refs, vocab_size, max_order);
        corpus_rows = vec![0.0; hyps.len() * width];
        corpus_rows.par_chunks_mut(width).zip(matches.par_iter()).enumerate().for_each(|(at, (row, m))| {
            corpus_row(hyps[at].len(), &refs[at], m, &counts, max_order, sum, row);
        });
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

    fn corpus<'a>(
        vocab: &mut Vocab<'a>,
        hyps: &[&'a str],
        refs: &[Vec<&'a str>],
    ) -> (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>) {
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
        let one = nist(&[hyp1], std::slice::from_ref(&refs), 5);
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
        let grams = |seq: &[u32], k: usize| -> Vec<Vec<u32>> {
            if seq.len() < k {
                vec![]
            } else {
                seq.windows(k).map(<[u32]>::to_vec).collect()
            }
        };
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
            let info =
                if sentence { weights_of(&segment_refs.iter().collect::<Vec<_>>()) } else { corpus_info.clone() };
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
                        let count = hyp_grams
                            .iter()
                            .filter(|g| *g == gram)
                            .count()
                            .min(ref_grams.iter().filter(|g| *g == gram).count());
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
        let mut next = crate::test_random::lcg(0x2545_f491_4f6c_dd1du64);
        for _ in 0..300 {
            let alphabet = 1 + next(6);
            let n = 1 + next(5) as usize;
            let segments = next(6) as usize;
            let seq = |next: &mut dyn FnMut(u64) -> u64| -> Vec<u32> {
                (0..next(10)).map(|_| 1000 * next(alphabet) as u32).collect()
            };
            let hyps: Vec<Vec<u32>> = (0..segments).map(|_| seq(&mut next)).collect();
            let refs: Vec<Vec<Vec<u32>>> =
                (0..segments).map(|_| (0..next(4)).map(|_| seq(&mut next)).collect()).collect();
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
