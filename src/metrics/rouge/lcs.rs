//! Longest common subsequences: sentence-level ROUGE-L and rouge_score's summary-level ROUGE-Lsum.
//!
//! Both are bit-parallel (Hyyrö 2004, "Bit-parallel LCS-length computation revisited"): one
//! sequence is a bit vector, the other is fed symbol by symbol, and after `i` symbols the vector
//! `V_i` encodes row `i` of the dynamic-programming table: `D[i][j]` is the number of zero bits of
//! `V_i` below bit `j`. Ids are small dense integers (interned per segment), so match masks are
//! indexed by id.

/// Ids above this are remapped before array-indexed counting (callers normally pass dense ids).
const DENSE_ID_LIMIT: u32 = 1 << 20;

/// Mask memory kept for the next text (32 MiB); a larger one is freed after use.
const KEPT_MASK_WORDS: usize = 1 << 22;

/// Most memory one LCS computation may take (512 MiB). The bit-parallel tables grow with the
/// product of the two lengths (a 256,000-word document against itself: 8 GB), so larger pairs
/// are refused with a ValueError instead of aborting the process.
pub const MAX_LCS_BYTES: usize = 1 << 29;

/// Refuses an LCS whose bit-parallel tables would exceed [`MAX_LCS_BYTES`]: `bits` tokens held as
/// bit vectors, `fed` tokens fed one by one, ids below `n_ids` (one match mask each), and with
/// `backtrack` one row per fed token kept for the walk back.
pub(crate) fn check_lcs_size(bits: usize, fed: usize, n_ids: usize, backtrack: bool) -> crate::error::Result<()> {
    let words = bits.div_ceil(64);
    let rows = if backtrack { fed + 1 } else { 1 };
    check_lcs_bytes(bits, fed, (n_ids.saturating_add(rows)).saturating_mul(words).saturating_mul(8))
}

/// Refuses an LCS of `bits` × `fed` tokens whose tables take `bytes` (see [`check_lcs_size`]).
pub(crate) fn check_lcs_bytes(bits: usize, fed: usize, bytes: usize) -> crate::error::Result<()> {
    if bytes > MAX_LCS_BYTES {
        return Err(crate::error::Error::InvalidOption(format!(
            "a longest-common-subsequence of {bits} × {fed} tokens needs {} MiB, more than the limit of {} MiB \
             (ROUGE-L/Lsum tables grow with the product of the lengths); split the text into sentences \
             (newlines, rougeLsum) or shorten it",
            bytes >> 20,
            MAX_LCS_BYTES >> 20
        )));
    }
    Ok(())
}

/// Reusable buffers for the LCS computations: keep one per thread. Masks are all zero between calls.
#[derive(Debug, Default, Clone)]
pub struct LcsScratch {
    /// Match masks: `words` u64 per id, bit `j` set where the bit sequence holds the id.
    masks: Vec<u64>,
    /// The bit vectors `V_0..V_n`, `words` u64 each.
    rows: Vec<u64>,
    /// Reference positions in the union LCS of the current reference sentence.
    in_union: Vec<bool>,
    /// Unused occurrences per id (summary level), all zero between calls.
    reference_left: Vec<u32>,
    candidate_left: Vec<u32>,
}

impl LcsScratch {
    /// Sets the match masks of `bits` and returns how many u64 words one mask spans.
    fn set_masks(&mut self, bits: &[u32]) -> usize {
        let words = bits.len().div_ceil(64);
        let ids = bits.iter().max().map_or(0, |&m| m as usize + 1);
        if self.masks.len() < ids * words {
            self.masks.resize(ids * words, 0);
        }
        for (j, &id) in bits.iter().enumerate() {
            self.masks[id as usize * words + j / 64] |= 1u64 << (j % 64);
        }
        words
    }

    /// Restores the all-zero masks after `set_masks(bits)`; frees them after a huge text, so a
    /// thread does not keep that memory.
    fn clear_masks(&mut self, bits: &[u32], words: usize) {
        if self.masks.len() > KEPT_MASK_WORDS {
            self.masks = Vec::new();
            return;
        }
        for &id in bits {
            self.masks[id as usize * words..][..words].fill(0);
        }
    }

    /// The mask of `id` (`None` when it never occurs in the bit sequence: the row does not change).
    #[inline]
    fn mask(&self, id: u32, words: usize) -> Option<&[u64]> {
        self.masks.get(id as usize * words..(id as usize + 1) * words)
    }
}

/// One row step: `V' = (V + (V & M)) | (V & !M)`, with the carry running across words.
#[inline]
fn advance(v: &mut [u64], mask: &[u64]) {
    let mut carry = 0u64;
    for (word, &m) in v.iter_mut().zip(mask) {
        let u = *word & m;
        let (sum, c1) = word.overflowing_add(u);
        let (sum, c2) = sum.overflowing_add(carry);
        carry = (c1 | c2) as u64;
        *word = sum | (*word & !m);
    }
}

/// `D[i][j]`: the zero bits of `row` (= `V_i`) below bit `j`.
#[inline]
fn zeros_below(row: &[u64], j: usize) -> u32 {
    let (full, rest) = (j / 64, j % 64);
    let mut zeros: u32 = row[..full].iter().map(|w| (!w).count_ones()).sum();
    if rest > 0 {
        zeros += (!row[full] & ((1u64 << rest) - 1)).count_ones();
    }
    zeros
}

/// Length of the longest common subsequence of `a` and `b`.
///
/// ```
/// use nlgmetrics::metrics::rouge::lcs_length;
/// assert_eq!(lcs_length(&[0, 1, 2, 3], &[0, 4, 2, 3]), 3); // police killed/kill the gunman
/// ```
pub fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    if let Some((a, b)) = densify(a, b) {
        return lcs_length(&a, &b);
    }
    lcs_length_with(a, b, &mut LcsScratch::default())
}

/// `lcs_length` for dense ids, using `scratch`.
pub(crate) fn lcs_length_with(a: &[u32], b: &[u32], scratch: &mut LcsScratch) -> usize {
    let (bits, fed) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if bits.is_empty() {
        return 0;
    }
    let words = scratch.set_masks(bits);
    let mut v = std::mem::take(&mut scratch.rows);
    v.clear();
    v.resize(words, u64::MAX);
    for &id in fed {
        if let Some(mask) = scratch.mask(id, words) {
            advance(&mut v, mask);
        }
    }
    let length = zeros_below(&v, bits.len()) as usize;
    scratch.rows = v;
    scratch.clear_masks(bits, words);
    length
}

/// `a` and `b` with ids renumbered densely, when some id is too large to index an array.
pub(crate) fn densify(a: &[u32], b: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    if a.iter().chain(b).all(|&id| id < DENSE_ID_LIMIT) {
        return None;
    }
    let mut ids: rustc_hash::FxHashMap<u32, u32> = Default::default();
    let mut renumber = |seq: &[u32]| -> Vec<u32> {
        seq.iter()
            .map(|&id| {
                let next = ids.len() as u32;
                *ids.entry(id).or_insert(next)
            })
            .collect()
    };
    let a = renumber(a);
    let b = renumber(b);
    Some((a, b))
}

/// Marks in `in_union` the reference positions of one LCS of `reference` and `candidate`, chosen
/// exactly as rouge_score's `_backtrack_norec` (rouge_score/rouge_scorer.py): from the bottom-right
/// cell, take a match; else move left only when that cell is strictly larger than the one above.
fn mark_lcs_positions(reference: &[u32], candidate: &[u32], scratch: &mut LcsScratch) {
    if candidate.is_empty() {
        return;
    }
    let words = scratch.set_masks(candidate);
    let LcsScratch { masks, rows, in_union, .. } = scratch;
    mark_with_masks(reference, candidate, words, masks, rows, in_union);
    scratch.clear_masks(candidate, words);
}

/// `mark_lcs_positions` with the candidate's masks already set (`words` u64 each); marks go to
/// `in_union[..reference.len()]`.
fn mark_with_masks(
    reference: &[u32],
    candidate: &[u32],
    words: usize,
    masks: &[u64],
    rows: &mut Vec<u64>,
    in_union: &mut [bool],
) {
    let mask = |id: u32| masks.get(id as usize * words..(id as usize + 1) * words);
    rows.clear();
    if words == 1 {
        // Sentences of up to 64 tokens: one word per row, no carries between words.
        let mut v = u64::MAX;
        rows.push(v);
        for &id in reference {
            if let Some(&[m]) = mask(id) {
                v = v.wrapping_add(v & m) | (v & !m);
            }
            rows.push(v);
        }
        let below = |i: usize, j: usize| (!rows[i] & low_bits(j)).count_ones();
        if below(reference.len(), candidate.len()) == 0 {
            return;
        }
        backtrack(reference, candidate, below, in_union);
        return;
    }
    rows.resize((reference.len() + 1) * words, u64::MAX);
    for (i, &id) in reference.iter().enumerate() {
        let (done, next) = rows.split_at_mut((i + 1) * words);
        let next = &mut next[..words];
        next.copy_from_slice(&done[i * words..]);
        if let Some(m) = mask(id) {
            advance(next, m);
        }
    }
    let below = |i: usize, j: usize| zeros_below(&rows[i * words..(i + 1) * words], j);
    backtrack(reference, candidate, below, in_union);
}

/// The `j` lowest bits set.
#[inline]
fn low_bits(j: usize) -> u64 {
    if j == 0 {
        0
    } else {
        u64::MAX >> (64 - j)
    }
}

/// rouge_score's walk from `(reference.len(), candidate.len())`, given `D[i][j]` as `table(i, j)`.
#[inline]
fn backtrack(reference: &[u32], candidate: &[u32], table: impl Fn(usize, usize) -> u32, in_union: &mut [bool]) {
    let (mut i, mut j) = (reference.len(), candidate.len());
    while i > 0 && j > 0 {
        if reference[i - 1] == candidate[j - 1] {
            in_union[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if table(i, j - 1) > table(i - 1, j) {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

/// rouge_score's summary-level LCS hits (`_summary_level_lcs`): for each reference sentence, the
/// union of its LCS positions with every candidate sentence; each union token counts once while
/// both summaries still have an unused occurrence of it (the ROUGE-1.5.5 double-count guard).
///
/// ```
/// use nlgmetrics::metrics::rouge::summary_lcs_hits_rouge_score;
/// // ROUGE paper §3.2: r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8; c2 = w1 w3 w8 w9 w5 → union 4.
/// let reference = vec![vec![1, 2, 3, 4, 5]];
/// let candidate = vec![vec![1, 2, 6, 7, 8], vec![1, 3, 8, 9, 5]];
/// assert_eq!(summary_lcs_hits_rouge_score(&reference, &candidate), 4);
/// ```
pub fn summary_lcs_hits_rouge_score(reference: &[Vec<u32>], candidate: &[Vec<u32>]) -> usize {
    let flat_reference: Vec<u32> = reference.concat();
    let flat_candidate: Vec<u32> = candidate.concat();
    let (flat_reference, flat_candidate) =
        densify(&flat_reference, &flat_candidate).unwrap_or((flat_reference, flat_candidate));
    let ends = |shape: &[Vec<u32>]| -> Vec<usize> {
        shape
            .iter()
            .scan(0, |end, s| {
                *end += s.len();
                Some(*end)
            })
            .collect()
    };
    let reference = Sentences { tokens: &flat_reference, ends: &ends(reference) };
    let candidate = Sentences { tokens: &flat_candidate, ends: &ends(candidate) };
    let n_ids = flat_reference.iter().chain(&flat_candidate).max().map_or(0, |&m| m as usize + 1);
    summary_lcs_hits_with(reference, candidate, n_ids, &mut LcsScratch::default())
}

/// A summary's sentences: `tokens` cut at the offsets `ends` (each sentence's end).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sentences<'a> {
    pub tokens: &'a [u32],
    pub ends: &'a [usize],
}

impl<'a> Sentences<'a> {
    pub fn iter(self) -> impl Iterator<Item = &'a [u32]> {
        let tokens = self.tokens;
        self.ends.iter().scan(0, move |start, &end| {
            let sentence = &tokens[*start..end];
            *start = end;
            Some(sentence)
        })
    }

    /// Tokens of every sentence.
    pub fn total(self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }
}

/// For each position of `reference`, whether it is in the union of its LCS with every candidate
/// sentence (rouge_score's and ROUGE-1.5.5's backtracking). Ids must be dense.
pub(crate) fn union_lcs_marks<'s, 'a>(
    reference: &[u32],
    candidates: impl Iterator<Item = &'a [u32]>,
    scratch: &'s mut LcsScratch,
) -> &'s [bool] {
    scratch.in_union.clear();
    scratch.in_union.resize(reference.len(), false);
    for candidate in candidates {
        mark_lcs_positions(reference, candidate, scratch);
    }
    &scratch.in_union
}

/// `summary_lcs_hits_rouge_score` for dense ids below `n_ids`, using `scratch`.
pub(crate) fn summary_lcs_hits_with(
    reference: Sentences<'_>,
    candidate: Sentences<'_>,
    n_ids: usize,
    scratch: &mut LcsScratch,
) -> usize {
    if scratch.reference_left.len() < n_ids {
        scratch.reference_left.resize(n_ids, 0);
        scratch.candidate_left.resize(n_ids, 0);
    }
    let reference_tokens = &reference.tokens[..reference.total()];
    let candidate_tokens = &candidate.tokens[..candidate.total()];
    for &token in reference_tokens {
        scratch.reference_left[token as usize] += 1;
    }
    for &token in candidate_tokens {
        scratch.candidate_left[token as usize] += 1;
    }
    // The union LCS marks of every reference sentence, in one flat list over the reference tokens:
    // each candidate sentence's masks are set once for all reference sentences.
    let mut in_union = std::mem::take(&mut scratch.in_union);
    in_union.clear();
    in_union.resize(reference_tokens.len(), false);
    for candidate_sentence in candidate.iter().filter(|s| !s.is_empty()) {
        let words = scratch.set_masks(candidate_sentence);
        let mut start = 0;
        for &end in reference.ends {
            let (masks, rows) = (&scratch.masks, &mut scratch.rows);
            mark_with_masks(
                &reference_tokens[start..end],
                candidate_sentence,
                words,
                masks,
                rows,
                &mut in_union[start..end],
            );
            start = end;
        }
        scratch.clear_masks(candidate_sentence, words);
    }
    // Reference sentences in order, positions in order: the flat order of the reference tokens.
    let mut hits = 0;
    for (&token, &marked) in reference_tokens.iter().zip(&in_union) {
        let token = token as usize;
        if marked && scratch.candidate_left[token] > 0 && scratch.reference_left[token] > 0 {
            hits += 1;
            scratch.candidate_left[token] -= 1;
            scratch.reference_left[token] -= 1;
        }
    }
    scratch.in_union = in_union;
    for &token in reference_tokens.iter().chain(candidate_tokens) {
        scratch.reference_left[token as usize] = 0;
        scratch.candidate_left[token as usize] = 0;
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_ids_are_fine() {
        assert_eq!(lcs_length(&[u32::MAX, 5, 7], &[5, u32::MAX, 7]), 2);
        let reference = vec![vec![u32::MAX, 2, 3]];
        let candidate = vec![vec![u32::MAX, 3]];
        assert_eq!(summary_lcs_hits_rouge_score(&reference, &candidate), 2);
    }

    #[test]
    fn lcs_of_paper_example() {
        // "police killed the gunman" vs "police kill the gunman": LCS 3.
        assert_eq!(lcs_length(&[0, 1, 2, 3], &[0, 4, 2, 3]), 3);
        assert_eq!(lcs_length(&[], &[1]), 0);
    }

    /// The full dynamic-programming table (rows = `a` + 1, columns = `b` + 1), row-major.
    fn dp_table(a: &[u32], b: &[u32]) -> Vec<usize> {
        let cols = b.len() + 1;
        let mut table = vec![0usize; (a.len() + 1) * cols];
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                table[(i + 1) * cols + j + 1] = if x == y {
                    table[i * cols + j] + 1
                } else {
                    table[i * cols + j + 1].max(table[(i + 1) * cols + j])
                };
            }
        }
        table
    }

    /// rouge_score's `_backtrack_norec` on the full table: the reference positions, sorted.
    fn backtrack_dp(reference: &[u32], candidate: &[u32]) -> Vec<usize> {
        let table = dp_table(reference, candidate);
        let cols = candidate.len() + 1;
        let (mut i, mut j, mut positions) = (reference.len(), candidate.len(), Vec::new());
        while i > 0 && j > 0 {
            if reference[i - 1] == candidate[j - 1] {
                positions.push(i - 1);
                i -= 1;
                j -= 1;
            } else if table[i * cols + j - 1] > table[(i - 1) * cols + j] {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        positions.sort_unstable();
        positions
    }

    fn pseudo_random(seed: u64) -> impl FnMut(u64) -> u32 {
        let mut next = crate::test_random::lcg(seed);
        move |modulus: u64| next(modulus) as u32
    }

    #[test]
    fn bit_parallel_lcs_equals_the_dynamic_programme() {
        // Deterministic pseudo-random sequences over small alphabets, lengths across word boundaries.
        let mut next = pseudo_random(12345);
        let mut scratch = LcsScratch::default();
        for round in 0..300 {
            let alphabet = 2 + (round % 7) as u64;
            let (n, m) = (next(200) as usize, next(200) as usize);
            let a: Vec<u32> = (0..n).map(|_| next(alphabet)).collect();
            let b: Vec<u32> = (0..m).map(|_| next(alphabet)).collect();
            let expected = dp_table(&a, &b)[(n + 1) * (m + 1) - 1];
            assert_eq!(lcs_length(&a, &b), expected, "round {round}");
            assert_eq!(lcs_length_with(&a, &b, &mut scratch), expected, "round {round}");
        }
    }

    #[test]
    fn bit_parallel_backtrack_takes_rouge_scores_path() {
        let mut next = pseudo_random(99);
        let mut scratch = LcsScratch::default();
        for round in 0..400 {
            let alphabet = 2 + (round % 9) as u64;
            let (n, m) = (next(150) as usize, next(150) as usize);
            let reference: Vec<u32> = (0..n).map(|_| next(alphabet)).collect();
            let candidate: Vec<u32> = (0..m).map(|_| next(alphabet)).collect();
            scratch.in_union.clear();
            scratch.in_union.resize(n, false);
            mark_lcs_positions(&reference, &candidate, &mut scratch);
            let marked: Vec<usize> = (0..n).filter(|&p| scratch.in_union[p]).collect();
            assert_eq!(marked, backtrack_dp(&reference, &candidate), "round {round}");
        }
        assert!(scratch.masks.iter().all(|&m| m == 0), "masks are cleared after use");
    }

    /// rouge_score's summary-level hits written out with sorted position lists and count maps.
    fn summary_hits_reference(reference: &[Vec<u32>], candidate: &[Vec<u32>]) -> usize {
        use std::collections::HashMap;
        let mut reference_left: HashMap<u32, usize> = HashMap::new();
        let mut candidate_left: HashMap<u32, usize> = HashMap::new();
        reference.iter().flatten().for_each(|&t| *reference_left.entry(t).or_default() += 1);
        candidate.iter().flatten().for_each(|&t| *candidate_left.entry(t).or_default() += 1);
        let mut hits = 0;
        for sentence in reference {
            let mut union: Vec<usize> = candidate.iter().flat_map(|c| backtrack_dp(sentence, c)).collect();
            union.sort_unstable();
            union.dedup();
            for position in union {
                let token = sentence[position];
                if candidate_left[&token] > 0 && reference_left[&token] > 0 {
                    hits += 1;
                    *candidate_left.get_mut(&token).unwrap() -= 1;
                    *reference_left.get_mut(&token).unwrap() -= 1;
                }
            }
        }
        hits
    }

    #[test]
    fn summary_level_hits_equal_the_written_out_definition() {
        let mut next = pseudo_random(2024);
        for round in 0..300 {
            let alphabet = 2 + (round % 11) as u64;
            let mut summary = |sentences: u64| -> Vec<Vec<u32>> {
                (0..next(sentences)).map(|_| (0..next(90)).map(|_| next(alphabet)).collect()).collect()
            };
            let reference = summary(5);
            let candidate = summary(5);
            assert_eq!(
                summary_lcs_hits_rouge_score(&reference, &candidate),
                summary_hits_reference(&reference, &candidate),
                "round {round}"
            );
        }
    }
}
