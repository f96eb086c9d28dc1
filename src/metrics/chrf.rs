//! chrF (Popović 2015) and chrF++ (Popović 2017) exactly as sacreBLEU 2.6.0 computes them
//! (`sacrebleu/metrics/chrf.py`, `sacrebleu/metrics/helpers.py`).
//!
//! Segment statistics are `3 * (char_order + word_order)` integers: for every order (characters
//! first, then words) the hypothesis n-gram count, the reference n-gram count and the clipped
//! matches. Lowercasing is left to the caller (Python's `str.lower()` is the reference).
//!
//! Every string is turned once into a [`ChrfProfile`] (sorted n-gram counts per order), so a
//! hypothesis is compared with many references (multi-reference, or the pairwise MBR matrix)
//! by merging sorted lists.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;

/// Python's `str.split()` whitespace and tokens (shared with the sacreBLEU tokenizers).
use crate::text::pystr::{is_python_whitespace, split_tokens};

/// The options that change a chrF number (read from the Python metric's options dict by name).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "python", derive(pyo3::FromPyObject), pyo3(from_item_all))]
pub struct ChrfConfig {
    pub char_order: usize,
    pub word_order: usize,
    pub beta: f64,
    /// Keep whitespace inside character n-grams (sacreBLEU `whitespace=True`).
    pub whitespace: bool,
    pub eps_smoothing: bool,
}

/// Largest `char_order` and `word_order` accepted (sacreBLEU has no limit; 100 is far beyond any use).
pub const MAX_ORDER: usize = 100;

impl Default for ChrfConfig {
    fn default() -> Self {
        ChrfConfig { char_order: 6, word_order: 0, beta: 2.0, whitespace: false, eps_smoothing: false }
    }
}

impl ChrfConfig {
    /// Refuses option values sacreBLEU would turn into nonsense or a crash.
    pub fn validate(&self) -> Result<()> {
        // Each order costs a table per segment: an unbounded order (2**40) would try to allocate terabytes.
        for (name, order) in [("char_order", self.char_order), ("word_order", self.word_order)] {
            if order > MAX_ORDER {
                return Err(Error::InvalidOption(format!("{name} must be between 0 and {MAX_ORDER}, got {order}")));
            }
        }
        if self.char_order + self.word_order == 0 {
            return Err(Error::InvalidOption("char_order + word_order must be at least 1".into()));
        }
        if self.beta.is_nan() || self.beta <= 0.0 || self.beta.is_infinite() {
            return Err(Error::InvalidOption(format!("beta must be a positive finite number, got {}", self.beta)));
        }
        Ok(())
    }

    /// Number of statistics per segment.
    pub fn stats_width(&self) -> usize {
        3 * (self.char_order + self.word_order)
    }
}

/// ASCII punctuation (`string.punctuation`), which chrF++ splits off word edges.
fn is_ascii_punct(c: char) -> bool {
    c.is_ascii_punctuation()
}

/// chrF++'s primitive word tokenization (sacreBLEU `CHRF._remove_punctuation`): a word longer
/// than one character loses its last character if that is punctuation, otherwise its first
/// character if that is punctuation (never both: `(hi)` → `(hi`, `)`).
pub fn chrf_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for word in split_tokens(text) {
        let mut chars = word.chars();
        let first = chars.next().unwrap_or(' ');
        let last = chars.next_back();
        match last {
            None => words.push(word),
            Some(last) if is_ascii_punct(last) => {
                let cut = word.len() - last.len_utf8();
                words.push(&word[..cut]);
                words.push(&word[cut..]);
            }
            Some(_) if is_ascii_punct(first) => {
                let cut = first.len_utf8();
                words.push(&word[..cut]);
                words.push(&word[cut..]);
            }
            Some(_) => words.push(word),
        }
    }
    words
}

/// An open-addressing interning table (key → dense id) reused across calls on one thread: slots
/// carry the generation that wrote them, so starting afresh costs nothing, and the table is sized
/// to the keys of one call, so it stays in cache.
struct InternTable {
    slots: Vec<(u64, u32, u32)>, // (key, id, generation)
    shift: u32,
    generation: u32,
}

impl InternTable {
    const fn new() -> Self {
        InternTable { slots: Vec::new(), shift: 64, generation: 0 }
    }

    /// Forgets every key; room for at least `keys` distinct keys.
    fn reset(&mut self, keys: usize) {
        let wanted = (4 * keys.max(8)).next_power_of_two();
        if self.slots.len() < wanted || self.generation == u32::MAX {
            self.slots = vec![(0, 0, 0); wanted.max(self.slots.len())];
            self.generation = 0;
        }
        // probe only the first `wanted` slots: a small table for small inputs
        self.shift = 64 - wanted.trailing_zeros();
        self.generation += 1;
    }

    /// The id of `key`, `*next` (then incremented) on first sight.
    #[inline]
    fn intern(&mut self, key: u64, next: &mut u32) -> u32 {
        let mask = (1usize << (64 - self.shift)) - 1;
        let mut index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let slot = &mut self.slots[index];
            if slot.2 != self.generation {
                *slot = (key, *next, self.generation);
                *next += 1;
                return slot.1;
            }
            if slot.0 == key {
                return slot.1;
            }
            index = (index + 1) & mask;
        }
    }
}

thread_local! {
    static INTERN_TABLE: std::cell::RefCell<InternTable> = const { std::cell::RefCell::new(InternTable::new()) };
}

/// Dense ids for every n-gram (orders 1..=`max_order`) of a group of unit sequences, shared across
/// the group: `ids[s][n - 1][i]` is the id of the n-gram starting at `i` in sequence `s`. An
/// n-gram's id is interned from (id of its (n-1)-gram prefix, its last unit), so equal ids mean
/// equal n-grams, exactly, at any order.
pub struct GroupNgrams {
    pub ids: Vec<Vec<Vec<u32>>>,
    /// Number of distinct n-grams per order.
    pub distinct: Vec<usize>,
}

impl GroupNgrams {
    pub fn new<T: AsRef<[u32]>>(sequences: &[T], max_order: usize) -> Self {
        let mut ids: Vec<Vec<Vec<u32>>> = sequences.iter().map(|_| Vec::with_capacity(max_order)).collect();
        let mut distinct = Vec::with_capacity(max_order);
        if max_order == 0 {
            return GroupNgrams { ids, distinct };
        }
        let positions: usize = sequences.iter().map(|s| s.as_ref().len()).sum();
        INTERN_TABLE.with(|table| {
            let mut table = table.borrow_mut();
            table.reset(positions);
            let mut next = 0u32;
            for (seq, out) in sequences.iter().zip(ids.iter_mut()) {
                out.push(seq.as_ref().iter().map(|&unit| table.intern(unit as u64, &mut next)).collect());
            }
            distinct.push(next as usize);
            for n in 2..=max_order {
                table.reset(positions);
                let mut next = 0u32;
                for out in ids.iter_mut() {
                    let (units, prev) = (&out[0], &out[n - 2]);
                    let count = (units.len() + 1).saturating_sub(n);
                    let level: Vec<u32> = (0..count)
                        .map(|i| table.intern(((prev[i] as u64) << 32) | units[i + n - 1] as u64, &mut next))
                        .collect();
                    out.push(level);
                }
                distinct.push(next as usize);
            }
        });
        GroupNgrams { ids, distinct }
    }
}

/// The characters chrF counts (sacreBLEU `extract_all_char_ngrams`: whitespace is deleted
/// unless kept on purpose).
pub fn char_units(text: &str, whitespace: bool) -> Vec<u32> {
    if whitespace {
        text.chars().map(|c| c as u32).collect()
    } else {
        text.chars().filter(|&c| !is_python_whitespace(c)).map(|c| c as u32).collect()
    }
}

/// Interns the chrF++ words of `text` (nothing when `word_order == 0`).
pub fn word_ids<'a>(text: &'a str, vocab: &mut FxHashMap<&'a str, u32>, config: &ChrfConfig) -> Vec<u32> {
    if config.word_order == 0 {
        return Vec::new();
    }
    chrf_words(text)
        .into_iter()
        .map(|word| {
            let next = vocab.len() as u32;
            *vocab.entry(word).or_insert(next)
        })
        .collect()
}

/// The n-gram ids of one segment's strings (hypothesis first), characters then words, each
/// order's ids dense within the segment.
fn segment_ngrams<S: AsRef<str>>(
    hypothesis: &str,
    references: &[S],
    config: &ChrfConfig,
) -> (GroupNgrams, GroupNgrams) {
    let texts: Vec<&str> = std::iter::once(hypothesis).chain(references.iter().map(|r| r.as_ref())).collect();
    let chars: Vec<Vec<u32>> = texts.iter().map(|t| char_units(t, config.whitespace)).collect();
    let mut vocab = FxHashMap::default();
    let words: Vec<Vec<u32>> = texts.iter().map(|t| word_ids(t, &mut vocab, config)).collect();
    (GroupNgrams::new(&chars, config.char_order), GroupNgrams::new(&words, config.word_order))
}

/// `[hyp, ref, match]` of one order: clipped matches counted by letting every reference n-gram
/// consume one remaining hypothesis occurrence (`counts` holds the hypothesis counts and is
/// restored before returning).
fn order_stats(hyp: &[u32], reference: &[u32], counts: &mut [u32], out: &mut Vec<u64>) {
    // sacreBLEU `_get_match_statistics`: no hypothesis count where the reference has no n-gram.
    out.push(if reference.is_empty() { 0 } else { hyp.len() as u64 });
    out.push(reference.len() as u64);
    let mut matches = 0u64;
    for &id in reference {
        let slot = &mut counts[id as usize];
        if *slot > 0 {
            *slot -= 1;
            matches += 1;
        }
    }
    out.push(matches);
    // restore: the consumed occurrences are exactly the reference ids that found one
    for &id in hyp {
        counts[id as usize] = 0;
    }
    for &id in hyp {
        counts[id as usize] += 1;
    }
}

/// The chrF score (0–100) of summed statistics (sacreBLEU `CHRF._compute_f_score`), with the
/// same floating-point operations in the same order.
pub fn f_score(stats: &[u64], beta: f64, eps_smoothing: bool) -> f64 {
    const EPS: f64 = 1e-16;
    let order = stats.len() / 3;
    let factor = beta.powf(2.0);
    let mut score = 0.0f64;
    let mut effective_order = 0u64;
    let (mut avg_prec, mut avg_rec) = (0.0f64, 0.0f64);
    for triple in stats.chunks_exact(3) {
        let (n_hyp, n_ref, n_match) = (triple[0], triple[1], triple[2]);
        let prec = if n_hyp > 0 { n_match as f64 / n_hyp as f64 } else { EPS };
        let rec = if n_ref > 0 { n_match as f64 / n_ref as f64 } else { EPS };
        let denom = factor * prec + rec;
        score += if denom > 0.0 { (1.0 + factor) * prec * rec / denom } else { EPS };
        if n_hyp > 0 && n_ref > 0 {
            avg_prec += prec;
            avg_rec += rec;
            effective_order += 1;
        }
    }
    if eps_smoothing {
        return 100.0 * score / order as f64;
    }
    if effective_order == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective_order as f64;
        avg_rec /= effective_order as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let mut score = (1.0 + factor) * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        100.0 * score
    } else {
        0.0
    }
}

/// Statistics of one segment (hypothesis and its references, at least one): those of the
/// reference with the highest f-score, the first one on ties (sacreBLEU `_compute_segment_statistics`).
pub fn segment_stats<S: AsRef<str>>(hypothesis: &str, references: &[S], config: &ChrfConfig) -> Vec<u64> {
    let (chars, words) = segment_ngrams(hypothesis, references, config);
    let mut char_counts: Vec<Vec<u32>> = Vec::with_capacity(config.char_order);
    for n in 0..config.char_order {
        let mut counts = vec![0u32; chars.distinct[n]];
        for &id in &chars.ids[0][n] {
            counts[id as usize] += 1;
        }
        char_counts.push(counts);
    }
    let mut word_counts: Vec<Vec<u32>> = Vec::with_capacity(config.word_order);
    for n in 0..config.word_order {
        let mut counts = vec![0u32; words.distinct[n]];
        for &id in &words.ids[0][n] {
            counts[id as usize] += 1;
        }
        word_counts.push(counts);
    }
    let mut best = Vec::new();
    let mut best_f = -1.0f64;
    let mut stats = Vec::with_capacity(config.stats_width());
    for r in 1..=references.len() {
        stats.clear();
        for (n, counts) in char_counts.iter_mut().enumerate() {
            order_stats(&chars.ids[0][n], &chars.ids[r][n], counts, &mut stats);
        }
        for (n, counts) in word_counts.iter_mut().enumerate() {
            order_stats(&words.ids[0][n], &words.ids[r][n], counts, &mut stats);
        }
        let f = f_score(&stats, config.beta, config.eps_smoothing);
        if f > best_f {
            best_f = f;
            best.clone_from(&stats);
        }
    }
    best
}

/// Below this many segments a batch runs on the calling thread.
const PARALLEL_THRESHOLD: usize = 32;

/// Per-segment statistics of a corpus (row-major, `stats_width` per segment), in parallel.
pub fn corpus_stats<H, R>(hypotheses: &[H], references: &[Vec<R>], config: &ChrfConfig) -> Result<Vec<u64>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    config.validate()?;
    if hypotheses.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "references has {} entries but there are {} hypotheses",
            references.len(),
            hypotheses.len()
        )));
    }
    if let Some(index) = references.iter().position(|refs| refs.is_empty()) {
        return Err(Error::ShapeMismatch(format!("references[{index}] is empty: every hypothesis needs a reference")));
    }
    // small batches stay on the calling thread (no thread-pool hand-off)
    let rows: Vec<Vec<u64>> = if hypotheses.len() < PARALLEL_THRESHOLD {
        hypotheses.iter().zip(references).map(|(hyp, refs)| segment_stats(hyp.as_ref(), refs, config)).collect()
    } else {
        hypotheses
            .par_iter()
            .zip(references.par_iter())
            .map(|(hyp, refs)| segment_stats(hyp.as_ref(), refs, config))
            .collect()
    };
    Ok(rows.concat())
}

/// Column sums of row-major statistics.
pub fn sum_stats(stats: &[u64], width: usize) -> Vec<u64> {
    let mut total = vec![0u64; width];
    for row in stats.chunks_exact(width) {
        for (slot, value) in total.iter_mut().zip(row) {
            *slot += value;
        }
    }
    total
}

/// The n-grams of one order of one string as sorted `(id, count)` pairs, plus their total.
#[derive(Debug, Clone, Default)]
pub(crate) struct OrderCounts {
    grams: Vec<(u32, u32)>,
    total: u64,
}

impl OrderCounts {
    pub(crate) fn new(ids: &[u32]) -> Self {
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        let mut grams: Vec<(u32, u32)> = Vec::new();
        for id in sorted {
            match grams.last_mut() {
                Some((last, count)) if *last == id => *count += 1,
                _ => grams.push((id, 1)),
            }
        }
        OrderCounts { grams, total: ids.len() as u64 }
    }

    /// Σ over shared n-grams of min(count here, count there), by merging the sorted lists.
    pub(crate) fn clipped_matches(&self, other: &OrderCounts) -> u64 {
        let (a, b) = (&self.grams, &other.grams);
        let (mut i, mut j, mut matches) = (0, 0, 0u64);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i].0, b[j].0);
            if x < y {
                i += 1;
            } else if x > y {
                j += 1;
            } else {
                matches += a[i].1.min(b[j].1) as u64;
                i += 1;
                j += 1;
            }
        }
        matches
    }
}

/// Every n-gram count chrF needs from one string (character orders, then word orders), with ids
/// shared by every string it is compared with; built once per string for the pairwise matrix.
#[derive(Debug, Clone, Default)]
pub struct ChrfProfile {
    orders: Vec<OrderCounts>,
}

impl ChrfProfile {
    /// `[hyp, ref, match]` per order of this hypothesis against one reference.
    pub fn match_stats(&self, reference: &ChrfProfile, out: &mut Vec<u64>) {
        out.clear();
        for (hyp, rf) in self.orders.iter().zip(&reference.orders) {
            out.push(if rf.grams.is_empty() { 0 } else { hyp.total });
            out.push(rf.total);
            out.push(hyp.clipped_matches(rf));
        }
    }
}

/// Profiles of many strings with ids shared across all of them (interning is sequential; the
/// counting runs in parallel).
pub fn profiles<S: AsRef<str> + Sync>(texts: &[S], config: &ChrfConfig) -> Vec<ChrfProfile> {
    let chars: Vec<Vec<u32>> = texts.par_iter().map(|t| char_units(t.as_ref(), config.whitespace)).collect();
    let mut vocab = FxHashMap::default();
    let words: Vec<Vec<u32>> = texts.iter().map(|t| word_ids(t.as_ref(), &mut vocab, config)).collect();
    let chars = GroupNgrams::new(&chars, config.char_order);
    let words = GroupNgrams::new(&words, config.word_order);
    chars
        .ids
        .par_iter()
        .zip(words.ids.par_iter())
        .map(|(c, w)| ChrfProfile { orders: c.iter().chain(w.iter()).map(|ids| OrderCounts::new(ids)).collect() })
        .collect()
}

impl SegmentMetric for ChrfConfig {
    type Stat = i64;
    type Scratch = ();
    const NAME: &'static str = "chrf";

    fn width(&self) -> usize {
        self.stats_width()
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], _: &mut ()) -> Result<()> {
        row.iter_mut().zip(segment_stats(hyp, refs, self)).for_each(|(slot, value)| *slot = value as i64);
        Ok(())
    }

    fn score_row(&self, row: &[i64]) -> f64 {
        let row: Vec<u64> = row.iter().map(|&value| value as u64).collect();
        f_score(&row, self.beta, self.eps_smoothing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_one_punctuation_mark() {
        assert_eq!(chrf_words("(hi) a, .b ,"), vec!["(hi", ")", "a", ",", ".", "b", ","]);
        assert_eq!(chrf_words("ü! «x»"), vec!["ü", "!", "«x»"]);
    }

    #[test]
    fn identical_strings_score_100() {
        let config = ChrfConfig { word_order: 2, ..Default::default() };
        let stats = segment_stats("the cat sat.", &["the cat sat."], &config);
        assert_eq!(f_score(&stats, 2.0, false), 100.0);
    }

    #[test]
    fn no_reference_ngrams_means_no_hypothesis_count() {
        let config = ChrfConfig::default();
        let stats = segment_stats("abcdefg", &["ab"], &config);
        // order 3 onwards: the reference has no n-gram
        assert_eq!(&stats[6..9], &[0, 0, 0]);
        assert_eq!(&stats[0..3], &[7, 2, 2]);
    }

    #[test]
    fn best_reference_wins_first_on_ties() {
        let config = ChrfConfig::default();
        let stats = segment_stats("abc", &["xyz", "abc", "abc"], &config);
        assert_eq!(f_score(&stats, 2.0, false), 100.0);
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(ChrfConfig { beta: 0.0, ..Default::default() }.validate().is_err());
        assert!(ChrfConfig { char_order: 0, word_order: 0, ..Default::default() }.validate().is_err());
    }
}
