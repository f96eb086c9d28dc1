//! RIBES (Isozaki et al. 2010) as NLTK 3.10.4 computes it (`nltk/translate/ribes_score.py`).
//!
//! `sentence_ribes = max over references of nkt · p1^α · bp^β`, where the word alignment ("worder")
//! maps each hypothesis word to one reference position: a word that occurs once in both sentences
//! maps directly; otherwise the shortest context window around it (right context tried before left,
//! window by window) that occurs exactly once in the reference and once in the hypothesis fixes it.
//! `nkt` is the normalised Kendall τ over every pair of the worder, `p1 = |worder| / |hyp|`,
//! `bp = min(1, exp(1 − |ref| / |hyp|))`. The corpus score is the mean of the sentence scores.
//!
//! NLTK counts window occurrences with a KMP scan per window; here the counts come from longest
//! common extensions: the number of reference positions where `hyp[i..i+L]` occurs is the number
//! of positions whose common prefix with `hyp[i..]` is ≥ L, so "exactly once" holds for L in
//! `(second largest, largest]`. The first window that qualifies is then read off directly,
//! O(|hyp| · (|hyp| + |ref|)) per pair at worst instead of NLTK's super-linear window search, and in
//! practice the number of pairs of equal tokens (only those extend a match).

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;
use crate::metrics::segment_words::{words_segment_into, WordInput, WordScratch, WordSegmentMetric};

/// NLTK's `MAX_ALIGNMENT_LEN`: longer references or hypotheses are refused, as NLTK does.
pub const MAX_ALIGNMENT_LEN: usize = 2000;

/// Top two common-extension lengths over positions, and where the largest one is.
#[derive(Debug, Clone, Copy, Default)]
struct TopTwo {
    first: u32,
    first_at: u32,
    second: u32,
}

impl TopTwo {
    #[inline]
    fn add(&mut self, value: u32, at: u32) {
        if value > self.first {
            self.second = self.first;
            self.first = value;
            self.first_at = at;
        } else if value > self.second {
            self.second = value;
        }
    }
}

/// Per hypothesis position: the reference's top-two extensions and the largest one elsewhere in the hypothesis.
#[derive(Debug, Clone, Copy, Default)]
struct Context {
    reference: TopTwo,
    hypothesis_other: u32,
}

/// One row of the common-extension table, stored densely but written only where a token equals the
/// current one (every other entry is 0): the work per hypothesis position is its number of
/// occurrences, not the sentence length.
#[derive(Debug, Default, Clone)]
struct SparseRow {
    previous: Vec<u32>,
    current: Vec<u32>,
    previous_written: Vec<usize>,
    current_written: Vec<usize>,
}

impl SparseRow {
    /// All zeros again, for a sentence of `len` positions (keeps the memory).
    fn reset(&mut self, len: usize) {
        for slot in self.previous_written.drain(..) {
            self.previous[slot] = 0;
        }
        self.current_written.clear();
        self.previous.resize(len + 2, 0);
        self.current.resize(len + 2, 0);
    }

    /// `current[slot] = previous[neighbour] + 1`, returning it.
    #[inline]
    fn extend(&mut self, slot: usize, neighbour: usize) -> u32 {
        let value = self.previous[neighbour] + 1;
        self.current[slot] = value;
        self.current_written.push(slot);
        value
    }

    /// The current row becomes the previous one; the new current row is all zeros again.
    fn advance(&mut self) {
        for slot in self.previous_written.drain(..) {
            self.previous[slot] = 0;
        }
        std::mem::swap(&mut self.previous, &mut self.current);
        std::mem::swap(&mut self.previous_written, &mut self.current_written);
    }
}

/// Reusable work space of the alignment (one per thread: no allocation per sentence pair once grown).
#[derive(Debug, Default, Clone)]
pub struct RibesScratch {
    /// `(token, position)` of each sentence, sorted: a token's positions are one ascending run.
    ref_occurrences: Vec<(u32, u32)>,
    hyp_occurrences: Vec<(u32, u32)>,
    /// Per hypothesis position: its token's run in `ref_occurrences` and in `hyp_occurrences`.
    ref_runs: Vec<(u32, u32)>,
    hyp_runs: Vec<(u32, u32)>,
    right: Vec<Context>,
    left: Vec<Context>,
    in_reference: SparseRow,
    in_hypothesis: SparseRow,
    worder: Vec<usize>,
}

impl RibesScratch {
    /// Sorts both sentences' occurrences and finds each hypothesis token's runs (one merge pass).
    fn index(&mut self, reference: &[u32], hypothesis: &[u32]) {
        for (occurrences, sentence) in [(&mut self.ref_occurrences, reference), (&mut self.hyp_occurrences, hypothesis)]
        {
            occurrences.clear();
            occurrences.extend(sentence.iter().enumerate().map(|(at, &token)| (token, at as u32)));
            occurrences.sort_unstable();
        }
        self.ref_runs.clear();
        self.ref_runs.resize(hypothesis.len(), (0, 0));
        self.hyp_runs.clear();
        self.hyp_runs.resize(hypothesis.len(), (0, 0));
        let (mut start, mut in_reference) = (0, 0);
        for run in self.hyp_occurrences.chunk_by(|a, b| a.0 == b.0) {
            let token = run[0].0;
            while in_reference < self.ref_occurrences.len() && self.ref_occurrences[in_reference].0 < token {
                in_reference += 1;
            }
            let ref_start = in_reference;
            while in_reference < self.ref_occurrences.len() && self.ref_occurrences[in_reference].0 == token {
                in_reference += 1;
            }
            for &(_, at) in run {
                self.hyp_runs[at as usize] = (start as u32, (start + run.len()) as u32);
                self.ref_runs[at as usize] = (ref_start as u32, in_reference as u32);
            }
            start += run.len();
        }
    }

    /// Forward (right-context) or backward (left-context) common extensions of every hypothesis position.
    fn contexts(&mut self, reference: &[u32], hypothesis: &[u32], backward: bool) {
        let (n, m) = (hypothesis.len(), reference.len());
        let Self {
            ref_occurrences, hyp_occurrences, ref_runs, hyp_runs, right, left, in_reference, in_hypothesis, ..
        } = self;
        let out = if backward { left } else { right };
        out.clear();
        out.resize(n, Context::default());
        // The extension at the neighbouring hypothesis position, per reference / hypothesis position.
        in_reference.reset(m);
        in_hypothesis.reset(n);
        for step in 0..n {
            let i = if backward { step } else { n - 1 - step };
            let context = &mut out[i];
            // Slot s holds position s - 1 when backward (slot 0 = before the start), s when forward (slot m = past the end).
            // Only equal tokens extend (elsewhere the extension is 0, which changes no maximum); ascending positions
            // keep the first of equal maxima, as a full scan does.
            let (from, to) = ref_runs[i];
            for &(_, p) in &ref_occurrences[from as usize..to as usize] {
                let p = p as usize;
                let (slot, neighbour) = if backward { (p + 1, p) } else { (p, p + 1) };
                let value = in_reference.extend(slot, neighbour);
                context.reference.add(value, p as u32);
            }
            let (from, to) = hyp_runs[i];
            for &(_, q) in &hyp_occurrences[from as usize..to as usize] {
                let q = q as usize;
                let (slot, neighbour) = if backward { (q + 1, q) } else { (q, q + 1) };
                let value = in_hypothesis.extend(slot, neighbour);
                if q != i {
                    context.hypothesis_other = context.hypothesis_other.max(value);
                }
            }
            in_reference.advance();
            in_hypothesis.advance();
        }
    }

    /// [`word_rank_alignment`] into `self.worder`.
    fn align(&mut self, reference: &[u32], hypothesis: &[u32]) {
        let n = hypothesis.len();
        self.index(reference, hypothesis);
        self.contexts(reference, hypothesis, false);
        self.contexts(reference, hypothesis, true);
        let Self { right, left, worder, .. } = self;
        worder.clear();
        for i in 0..n {
            let (r, l) = (&right[i], &left[i]);
            if r.reference.first == 0 {
                continue; // not in the reference
            }
            if r.reference.second == 0 && r.hypothesis_other == 0 {
                worder.push(r.reference.first_at as usize); // once in each: reference.index(word)
                continue;
            }
            // nltk: for window in range(1, min(max(i, n - i + 1), len(reference))): right, then left.
            let window_end = i.max(n - i + 1).min(reference.len());
            if window_end <= 1 {
                continue;
            }
            let last_window = window_end - 1;
            let right_window = first_unique_window(r, 1, last_window.min(n - 1 - i));
            let left_window = first_unique_window(l, 1, last_window.min(i));
            match (right_window, left_window) {
                (Some(rw), Some(lw)) if rw <= lw => worder.push(r.reference.first_at as usize),
                (Some(_), None) => worder.push(r.reference.first_at as usize),
                (_, Some(_)) => worder.push(l.reference.first_at as usize), // the match's last position
                (None, None) => {}
            }
        }
    }
}

/// The first window `w` in `from..` at which a context of length `w + 1` occurs exactly once in both
/// sentences, if any (`limit`: the last window for which the context exists).
#[inline]
fn first_unique_window(context: &Context, from: usize, limit: usize) -> Option<usize> {
    let unique_from = (context.reference.second.max(context.hypothesis_other)) as usize; // L > this
    let unique_to = context.reference.first as usize; // L <= this
    let first = from.max(unique_from);
    (first < unique_to && first <= limit).then_some(first)
}

/// NLTK's `word_rank_alignment(reference, hypothesis)`: the worder list.
///
/// ```
/// use nlgmetrics::metrics::ribes::word_rank_alignment;
/// // (H1, R1) of Isozaki et al.: "Bob hit John yesterday" against "John hit Bob yesterday".
/// let (john, hit, bob, yesterday) = (0, 1, 2, 3);
/// let worder = word_rank_alignment(&[john, hit, bob, yesterday], &[bob, hit, john, yesterday]);
/// assert_eq!(worder, vec![2, 1, 0, 3]);
/// ```
pub fn word_rank_alignment(reference: &[u32], hypothesis: &[u32]) -> Vec<usize> {
    let mut scratch = RibesScratch::default();
    scratch.align(reference, hypothesis);
    scratch.worder
}

/// NLTK's `kendall_tau(worder)` normalised to 0–1: the share of pairs i < j with worder[i] < worder[j].
pub fn kendall_tau(worder: &[usize]) -> f64 {
    if worder.len() < 2 {
        return 0.0; // nltk: tau = -1, normalised (tau + 1) / 2
    }
    // Increasing pairs counted with a Fenwick tree over reference positions.
    let size = worder.iter().copied().max().unwrap_or(0) + 2;
    let mut tree = vec![0u64; size];
    let mut increasing = 0u64;
    for &value in worder {
        let mut index = value; // count earlier values < value: prefix sum over 1..=value
        while index > 0 {
            increasing += tree[index];
            index &= index - 1;
        }
        let mut index = value + 1;
        while index < size {
            tree[index] += 1;
            index += index & index.wrapping_neg();
        }
    }
    let k = worder.len() as u64;
    let possible_pairs = k * (k - 1) / 2;
    let tau = (2 * increasing) as f64 / possible_pairs as f64 - 1.0;
    (tau + 1.0) / 2.0
}

/// RIBES's exponents: `alpha` on the unigram precision, `beta` on the brevity penalty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RibesParams {
    pub alpha: f64,
    pub beta: f64,
    /// Longest reference or hypothesis aligned (NLTK's `MAX_ALIGNMENT_LEN`, [`MAX_ALIGNMENT_LEN`] by default).
    pub max_alignment_len: usize,
}

/// NLTK's `sentence_ribes(references, hypothesis, alpha, beta)`; errs where NLTK raises (a sentence
/// longer than `params.max_alignment_len`), naming the reference.
pub fn sentence_ribes(references: &[Vec<u32>], hypothesis: &[u32], params: RibesParams) -> Result<f64> {
    sentence_ribes_with(references, hypothesis, params, &mut RibesScratch::default())
}

/// [`sentence_ribes`] with a thread's reusable work space.
pub fn sentence_ribes_with(
    references: &[Vec<u32>],
    hypothesis: &[u32],
    params: RibesParams,
    scratch: &mut RibesScratch,
) -> Result<f64> {
    if references.is_empty() || hypothesis.is_empty() {
        return Ok(0.0);
    }
    let mut best = -1.0f64;
    for (index, reference) in references.iter().enumerate() {
        if reference.len().max(hypothesis.len()) > params.max_alignment_len {
            return Err(Error::InvalidOption(format!(
                "reference {index} or the hypothesis has more than {} tokens ({} and {}): \
                 RIBES's alignment is refused above that length, as NLTK does (MAX_ALIGNMENT_LEN)",
                params.max_alignment_len,
                reference.len(),
                hypothesis.len()
            )));
        }
        scratch.align(reference, hypothesis);
        let worder = &scratch.worder;
        let nkt = kendall_tau(worder);
        let hyp_len = hypothesis.len() as f64;
        let bp = 1.0f64.min((1.0 - reference.len() as f64 / hyp_len).exp());
        let p1 = worder.len() as f64 / hyp_len;
        let ribes = nkt * python_pow(p1, params.alpha) * python_pow(bp, params.beta);
        if ribes > best {
            best = ribes;
        }
    }
    Ok(best)
}

/// Python's `x ** y` for non-negative floats (`float_pow`: `1.0 ** y` and `x ** 0.0` are 1, else C `pow`).
#[inline]
fn python_pow(x: f64, y: f64) -> f64 {
    crate::metrics::nist::python_pow(x, y)
}

/// NLTK's RIBES as a segment metric: rows `[sentence RIBES, 1]` (float64; a sum over rows divided by its
/// count is a corpus or resample score), on text split by a tokenizer or on token lists / ids;
/// `allow_no_reference` lets a segment have no reference (NLTK scores it 0).
///
/// ```
/// use nlgmetrics::metrics::ribes::{Ribes, RibesParams, MAX_ALIGNMENT_LEN};
/// use nlgmetrics::metrics::segment::batch_rows;
/// use nlgmetrics::metrics::segment_words::WordInput;
/// let params = RibesParams { alpha: 0.25, beta: 0.10, max_alignment_len: MAX_ALIGNMENT_LEN };
/// let ribes = Ribes { params, input: WordInput::from_name("none").unwrap(), allow_no_reference: false };
/// assert_eq!(batch_rows(&ribes, &["a b c d"], &[vec!["a b c d"]]).unwrap(), vec![1.0, 1.0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ribes {
    pub params: RibesParams,
    pub input: WordInput,
    pub allow_no_reference: bool,
}

impl SegmentMetric for Ribes {
    type Stat = f64;
    type Scratch = WordScratch<RibesScratch>;
    const NAME: &'static str = "ribes";

    fn width(&self) -> usize {
        2
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [f64], scratch: &mut Self::Scratch) -> Result<()> {
        words_segment_into(self, hyp, refs, row, scratch)
    }

    /// The mean of the summed sentence scores (NaN for no segment, as the Python division).
    fn score_row(&self, row: &[f64]) -> f64 {
        row[0] / row[1]
    }

    fn allows_no_reference(&self) -> bool {
        self.allow_no_reference
    }
}

impl WordSegmentMetric for Ribes {
    type Work = RibesScratch;

    fn input(&self) -> WordInput {
        self.input
    }

    fn ids_into(&self, hyp: &[u32], refs: &[Vec<u32>], row: &mut [f64], work: &mut RibesScratch) -> Result<()> {
        row.copy_from_slice(&[sentence_ribes_with(refs, hyp, self.params, work)?, 1.0]);
        Ok(())
    }
}

/// NLTK's `corpus_ribes`: the mean of sentence scores, summed in order (0.0 for no segment).
pub fn corpus_score(sentence_scores: &[f64]) -> f64 {
    if sentence_scores.is_empty() {
        return 0.0;
    }
    sentence_scores.iter().fold(0.0, |total, score| total + score) / sentence_scores.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NLTK's loop, transcribed literally (window search with explicit occurrence counts).
    fn literal_alignment(reference: &[u32], hypothesis: &[u32]) -> Vec<usize> {
        let count = |sequence: &[u32], gram: &[u32]| sequence.windows(gram.len()).filter(|w| *w == gram).count();
        let position = |gram: &[u32]| reference.windows(gram.len()).position(|w| w == gram).unwrap();
        let n = hypothesis.len();
        let mut worder = vec![];
        for (i, word) in hypothesis.iter().enumerate() {
            if !reference.contains(word) {
                continue;
            }
            if count(hypothesis, &[*word]) == 1 && count(reference, &[*word]) == 1 {
                worder.push(position(&[*word]));
                continue;
            }
            let max_window = i.max(n - i + 1).min(reference.len());
            for window in 1..max_window {
                if i + window < n {
                    let gram = &hypothesis[i..i + window + 1];
                    if gram.len() <= reference.len() && count(reference, gram) == 1 && count(hypothesis, gram) == 1 {
                        worder.push(position(gram));
                        break;
                    }
                }
                if window <= i {
                    let gram = &hypothesis[i - window..i + 1];
                    if gram.len() <= reference.len() && count(reference, gram) == 1 && count(hypothesis, gram) == 1 {
                        worder.push(position(gram) + gram.len() - 1);
                        break;
                    }
                }
            }
        }
        worder
    }

    fn literal_tau(worder: &[usize]) -> f64 {
        if worder.len() < 2 {
            return 0.0;
        }
        let mut increasing = 0u64;
        for i in 0..worder.len() {
            for j in i + 1..worder.len() {
                increasing += u64::from(worder[i] < worder[j]);
            }
        }
        let k = worder.len() as u64;
        ((2 * increasing) as f64 / (k * (k - 1) / 2) as f64 - 1.0 + 1.0) / 2.0
    }

    #[test]
    fn paper_examples() {
        // (H0, R0) of Isozaki et al. 2010 as in NLTK's docstring: [7, 8, 9, 10, 6, 0, 1, 2, 3, 4, 5].
        let words = |s: &str| -> Vec<u32> {
            s.split(' ').map(|w| w.bytes().fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))).collect()
        };
        let reference = words("he was interested in world history because he read the book");
        let hypothesis = words("he read the book because he was interested in world history");
        assert_eq!(word_rank_alignment(&reference, &hypothesis), vec![7, 8, 9, 10, 6, 0, 1, 2, 3, 4, 5]);
        // kendall_tau docstring: 21 of 55 pairs increasing, normalised 0.382 (round 3).
        assert!((kendall_tau(&[7, 8, 9, 10, 6, 0, 1, 2, 3, 4, 5]) - 0.382).abs() < 1e-3);
        assert_eq!(kendall_tau(&[2, 1, 0, 3]), 0.5);
    }

    #[test]
    fn equals_the_literal_window_search_on_random_pairs() {
        let mut next = crate::test_random::lcg(0x1234_5678_9abc_def1u64);
        let mut shared = RibesScratch::default();
        for _ in 0..20000 {
            let alphabet = 1 + next(6);
            let reference: Vec<u32> = (0..next(14)).map(|_| next(alphabet) as u32).collect();
            let hypothesis: Vec<u32> = (0..next(14)).map(|_| next(alphabet) as u32).collect();
            let worder = word_rank_alignment(&reference, &hypothesis);
            assert_eq!(worder, literal_alignment(&reference, &hypothesis), "{reference:?} {hypothesis:?}");
            shared.align(&reference, &hypothesis); // a work space reused from pair to pair
            assert_eq!(shared.worder, worder);
            assert_eq!(kendall_tau(&worder).to_bits(), literal_tau(&worder).to_bits());
        }
    }

    #[test]
    fn empty_inputs_and_length_limit() {
        let params = RibesParams { alpha: 0.25, beta: 0.1, max_alignment_len: MAX_ALIGNMENT_LEN };
        assert_eq!(sentence_ribes(&[], &[1, 2], params).unwrap(), 0.0);
        assert_eq!(sentence_ribes(&[vec![1]], &[], params).unwrap(), 0.0);
        assert_eq!(sentence_ribes(&[vec![]], &[1], params).unwrap(), 0.0);
        let long = vec![0u32; MAX_ALIGNMENT_LEN + 1];
        assert!(sentence_ribes(std::slice::from_ref(&long), &[1], params).is_err());
        assert_eq!(sentence_ribes(&[long], &[], params).unwrap(), 0.0); // nltk returns before aligning
        assert_eq!(corpus_score(&[]), 0.0);
        let ribes = Ribes { params, input: WordInput::Ids, allow_no_reference: true };
        assert!(crate::metrics::segment_words::batch_id_rows(&ribes, &[vec![1]], &[]).is_err());
        assert_eq!(crate::metrics::segment_words::batch_id_rows(&ribes, &[vec![1]], &[vec![]]).unwrap(), [0.0, 1.0]);
        let error = crate::metrics::segment_words::batch_id_rows(
            &ribes,
            &[vec![1], vec![2]],
            &[vec![vec![1]], vec![vec![0; MAX_ALIGNMENT_LEN + 1]]],
        );
        assert!(error
            .unwrap_err()
            .to_string()
            .starts_with("segment 1: reference 0 or the hypothesis has more than 2000"));
    }

    #[test]
    fn adversarial_repetition_stays_fast() {
        // All one token: NLTK's window search is cubic here; the extensions keep it quadratic.
        let same = vec![5u32; MAX_ALIGNMENT_LEN];
        assert!(word_rank_alignment(&same, &same).len() <= 2); // only the two ends can be unique
        let small = vec![5u32; 60];
        assert_eq!(word_rank_alignment(&small, &small), literal_alignment(&small, &small));
    }
}
