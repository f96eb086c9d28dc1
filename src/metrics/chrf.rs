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

/// Python's `str.isspace()` / `str.split()` notion of whitespace: Unicode White_Space plus the
/// ASCII information separators U+001C..U+001F, which Python also splits on.
pub fn is_py_whitespace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The tokens of Python's `text.split()` (no argument): runs of non-whitespace.
pub fn py_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_py_whitespace).filter(|token| !token.is_empty())
}

/// The options that change a chrF number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    pub char_order: usize,
    pub word_order: usize,
    pub beta: f64,
    /// Keep whitespace inside character n-grams (sacreBLEU `whitespace=True`).
    pub whitespace: bool,
    pub eps_smoothing: bool,
}

impl Default for ChrfConfig {
    fn default() -> Self {
        ChrfConfig { char_order: 6, word_order: 0, beta: 2.0, whitespace: false, eps_smoothing: false }
    }
}

impl ChrfConfig {
    /// Refuses option values sacreBLEU would turn into nonsense or a crash.
    pub fn validate(&self) -> Result<()> {
        if self.char_order + self.word_order == 0 {
            return Err(Error::InvalidOption("char_order + word_order must be at least 1".into()));
        }
        if !(self.beta > 0.0) || !self.beta.is_finite() {
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
    for word in py_split(text) {
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

/// An n-gram key: units packed into one integer when they fit, otherwise the units themselves.
/// Within one order every key has the same variant, so comparisons never mix them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Gram {
    Packed(u128),
    Long(Box<[u32]>),
}

fn gram_keys(units: &[u32], n: usize, bits: u32) -> Vec<Gram> {
    if units.len() < n {
        return Vec::new();
    }
    if (n as u32) * bits <= 128 {
        units
            .windows(n)
            .map(|window| Gram::Packed(window.iter().fold(0u128, |key, &unit| (key << bits) | unit as u128)))
            .collect()
    } else {
        units.windows(n).map(|window| Gram::Long(window.into())).collect()
    }
}

/// The n-grams of one order of one string: sorted `(gram, count)` pairs and their total count.
#[derive(Debug, Clone, Default)]
struct OrderCounts {
    grams: Vec<(Gram, u32)>,
    total: u64,
}

impl OrderCounts {
    fn from_keys(mut keys: Vec<Gram>) -> Self {
        let total = keys.len() as u64;
        keys.sort_unstable();
        let mut grams: Vec<(Gram, u32)> = Vec::new();
        for key in keys {
            match grams.last_mut() {
                Some((last, count)) if *last == key => *count += 1,
                _ => grams.push((key, 1)),
            }
        }
        OrderCounts { grams, total }
    }

    /// Σ over shared n-grams of min(count here, count there).
    fn clipped_matches(&self, other: &OrderCounts) -> u64 {
        let (a, b) = (&self.grams, &other.grams);
        let (mut i, mut j, mut matches) = (0, 0, 0u64);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    matches += a[i].1.min(b[j].1) as u64;
                    i += 1;
                    j += 1;
                }
            }
        }
        matches
    }
}

/// Every n-gram count chrF needs from one string (character orders, then word orders).
#[derive(Debug, Clone, Default)]
pub struct ChrfProfile {
    orders: Vec<OrderCounts>,
}

/// Bits per packed unit: Unicode scalar values need 21, interned word ids get 32.
const CHAR_BITS: u32 = 21;
const WORD_BITS: u32 = 32;

impl ChrfProfile {
    /// Builds the profile of `text`; `word_ids` are its [`chrf_words`] interned with a vocabulary
    /// shared by every string it will be compared with (ignored when `word_order == 0`).
    pub fn new(text: &str, word_ids: &[u32], config: &ChrfConfig) -> Self {
        // sacreBLEU `extract_all_char_ngrams`: whitespace is deleted unless kept on purpose.
        let chars: Vec<u32> = if config.whitespace {
            text.chars().map(|c| c as u32).collect()
        } else {
            text.chars().filter(|&c| !is_py_whitespace(c)).map(|c| c as u32).collect()
        };
        let mut orders = Vec::with_capacity(config.char_order + config.word_order);
        for n in 1..=config.char_order {
            orders.push(OrderCounts::from_keys(gram_keys(&chars, n, CHAR_BITS)));
        }
        for n in 1..=config.word_order {
            orders.push(OrderCounts::from_keys(gram_keys(word_ids, n, WORD_BITS)));
        }
        ChrfProfile { orders }
    }

    /// Builds the profile of a standalone string with a private word vocabulary.
    pub fn standalone(text: &str, vocab: &mut FxHashMap<String, u32>, config: &ChrfConfig) -> Self {
        let ids = word_ids(text, vocab, config);
        Self::new(text, &ids, config)
    }

    /// `[hyp, ref, match]` per order of this hypothesis against one reference
    /// (sacreBLEU `_get_match_statistics`: no hypothesis count where the reference has no n-gram).
    pub fn match_stats(&self, reference: &ChrfProfile, out: &mut Vec<u64>) {
        out.clear();
        for (hyp, rf) in self.orders.iter().zip(&reference.orders) {
            out.push(if rf.grams.is_empty() { 0 } else { hyp.total });
            out.push(rf.total);
            out.push(hyp.clipped_matches(rf));
        }
    }
}

/// Interns the chrF++ words of `text` (nothing when `word_order == 0`).
pub fn word_ids(text: &str, vocab: &mut FxHashMap<String, u32>, config: &ChrfConfig) -> Vec<u32> {
    if config.word_order == 0 {
        return Vec::new();
    }
    chrf_words(text)
        .into_iter()
        .map(|word| {
            let next = vocab.len() as u32;
            match vocab.get(word) {
                Some(&id) => id,
                None => {
                    vocab.insert(word.to_string(), next);
                    next
                }
            }
        })
        .collect()
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

/// The statistics of one hypothesis against its references: those of the reference with the
/// highest f-score, the first one on ties (sacreBLEU `_compute_segment_statistics`).
pub fn best_reference_stats(hyp: &ChrfProfile, refs: &[ChrfProfile], config: &ChrfConfig) -> Vec<u64> {
    let mut best = Vec::new();
    let mut best_f = -1.0f64;
    let mut stats = Vec::with_capacity(config.stats_width());
    for reference in refs {
        hyp.match_stats(reference, &mut stats);
        let f = f_score(&stats, config.beta, config.eps_smoothing);
        if f > best_f {
            best_f = f;
            best.clone_from(&stats);
        }
    }
    best
}

/// Statistics of one segment (hypothesis and its references; at least one reference).
pub fn segment_stats<S: AsRef<str>>(hypothesis: &str, references: &[S], config: &ChrfConfig) -> Vec<u64> {
    let mut vocab = FxHashMap::default();
    let hyp = ChrfProfile::standalone(hypothesis, &mut vocab, config);
    let refs: Vec<ChrfProfile> =
        references.iter().map(|r| ChrfProfile::standalone(r.as_ref(), &mut vocab, config)).collect();
    best_reference_stats(&hyp, &refs, config)
}

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
    let rows: Vec<Vec<u64>> = hypotheses
        .par_iter()
        .zip(references.par_iter())
        .map(|(hyp, refs)| segment_stats(hyp.as_ref(), refs, config))
        .collect();
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

/// Profiles of many strings with one shared word vocabulary (interning is sequential and cheap;
/// the n-gram counting runs in parallel).
pub fn profiles<S: AsRef<str> + Sync>(texts: &[S], vocab: &mut FxHashMap<String, u32>, config: &ChrfConfig) -> Vec<ChrfProfile> {
    let ids: Vec<Vec<u32>> = texts.iter().map(|t| word_ids(t.as_ref(), vocab, config)).collect();
    texts.par_iter().zip(ids.par_iter()).map(|(t, ids)| ChrfProfile::new(t.as_ref(), ids, config)).collect()
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
    fn python_whitespace_includes_separators() {
        assert_eq!(py_split("a\u{1c}b\u{a0}c  d").collect::<Vec<_>>(), vec!["a", "b", "c", "d"]);
        assert!(!is_py_whitespace('\u{200b}'));
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
