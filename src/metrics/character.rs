//! CharacTER (Wang et al. 2016) exactly as the `cer` package 1.2.0 computes it (`cer/cer.py`
//! `calculate_cer`), the implementation HF evaluate's `character` metric calls on whitespace-split text.
//!
//! Greedy word-level shifts: while some shift of a hypothesis phrase that also occurs in the reference
//! (`couple_discoverer`) lowers the word Levenshtein distance normalised by the reference length, apply
//! the best one (`shifter`: largest gain, ties to the lexicographically largest shifted word list, as
//! Python's `sort()` of `(gain, words)` tuples leaves it last). Then the score is
//! `min(1, (character distance + shift cost) / len(" ".join(shifted hypothesis)))`.
//! Float operations are the reference's, in its order.

use crate::error::{Error, Result};
use crate::metrics::char_ids::CharIds;
use crate::metrics::edit_distance::{distance, Column, Pattern};
use crate::metrics::map_pairs;
use crate::metrics::segment::{Refs, SegmentMetric};
use crate::text::pystr::{is_python_whitespace, whitespace_len, MAY_START_WHITESPACE};

const PARALLEL_THRESHOLD: usize = 16;

/// Most work the shift search of one segment may do, in 64-bit edit-distance steps (one hypothesis word
/// against 64 reference words, and one per shift tried; 2–7 ns each: 2–8 s on one core). The search is the reference's: every iteration tries
/// every shift of every common phrase, so it grows with the fourth power of a repetitive segment's
/// length (`cer` 1.2.0 takes 51–93 s on 1 kB of random "x"/"y" words, ours as many seconds without a
/// bound, and the 1,000,000-character segment limit allows years). The work is counted as it is done
/// (the number of iterations is known only at the end) and a segment past the limit is refused; a real
/// sentence needs a few thousand steps, 200 random "x"/"y" words about 0.4 billion (1 s).
pub const MAX_SHIFT_STEPS: u64 = 1 << 30;

/// The error of a segment whose shift search went past [`MAX_SHIFT_STEPS`].
fn search_too_long(hypothesis_words: usize, reference_words: usize) -> Error {
    Error::InvalidOption(format!(
        "CharacTER's shift search of this pair ({hypothesis_words} and {reference_words} words) needs more than \
         {:.1} billion edit-distance steps (its words repeat too often to search every shift), more than the \
         limit: shorten or split the segment",
        MAX_SHIFT_STEPS as f64 / 1e9
    ))
}

/// Python's `text.split()` as a list (as `text::pystr::split_tokens`, one byte at a time: a sentence's
/// words are a few bytes long, so a byte-table test beats the eight-byte scan there).
fn py_split(text: &str) -> Vec<&str> {
    let mut words = Vec::with_capacity(text.len() / 5 + 1);
    let bytes = text.as_bytes();
    let space_at = |position: usize| match MAY_START_WHITESPACE[bytes[position] as usize] {
        true => whitespace_len(bytes, position),
        false => 0,
    };
    let mut position = 0;
    loop {
        while position < bytes.len() && space_at(position) > 0 {
            position += space_at(position);
        }
        if position == bytes.len() {
            break;
        }
        let start = position;
        position += 1;
        loop {
            while position < bytes.len() && !MAY_START_WHITESPACE[bytes[position] as usize] {
                position += 1;
            }
            if position == bytes.len() || space_at(position) > 0 {
                break;
            }
            position += 1;
        }
        words.push(&text[start..position]);
    }
    words
}

/// A word's hash for [`word_ids`]' table: 8 bytes at a time, multiply-rotate (as FxHash).
#[inline]
fn word_hash(word: &str) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mix = |hash: u64, bytes: u64| (hash.rotate_left(26) ^ bytes).wrapping_mul(K);
    let mut chunks = word.as_bytes().chunks_exact(8);
    let mut hash = word.len() as u64;
    for chunk in &mut chunks {
        hash = mix(hash, u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
    }
    // the last bytes shifted in one by one (a copy into a buffer would call memcpy for every word)
    let tail = chunks.remainder();
    if !tail.is_empty() {
        hash = mix(hash, tail.iter().rev().fold(0u64, |value, &byte| (value << 8) | u64::from(byte)));
    }
    hash
}

/// Dense word ids of the pair, by first occurrence, and the words by id (an open-addressing table:
/// a sentence has a few dozen words, a general hash map costs more than the rest of the interning).
/// The ids go into `ids.hypothesis` and `ids.reference`; the table is the thread's, reused.
fn word_ids<'a>(hypothesis: &[&'a str], reference: &[&'a str], ids: &mut WordIds) -> Vec<&'a str> {
    let total = hypothesis.len() + reference.len();
    let mask = (2 * total).next_power_of_two().max(16) - 1;
    let WordIds { table, hashes, hypothesis: hyp_ids, reference: ref_ids } = ids;
    table.clear();
    table.resize(mask + 1, u32::MAX);
    hashes.clear();
    let mut vocabulary: Vec<&'a str> = Vec::with_capacity(total);
    let mut id_of = |word: &'a str| {
        let hash = word_hash(word);
        let mut slot = (hash >> 32) as usize & mask;
        loop {
            let id = table[slot];
            if id == u32::MAX {
                table[slot] = vocabulary.len() as u32;
                vocabulary.push(word);
                hashes.push(hash);
                return vocabulary.len() as u32 - 1;
            }
            if hashes[id as usize] == hash && vocabulary[id as usize] == word {
                return id;
            }
            slot = (slot + 1) & mask;
        }
    };
    hyp_ids.clear();
    hyp_ids.extend(hypothesis.iter().map(|word| id_of(word)));
    ref_ids.clear();
    ref_ids.extend(reference.iter().map(|word| id_of(word)));
    vocabulary
}

/// [`word_ids`]' table and output, kept by a thread from segment to segment.
#[derive(Default)]
struct WordIds {
    table: Vec<u32>,
    hashes: Vec<u64>,
    hypothesis: Vec<u32>,
    reference: Vec<u32>,
}

/// `a > b` for lists of words as Python compares them (code point order = UTF-8 byte order).
fn words_greater(a: &[u32], b: &[u32], vocabulary: &[&str]) -> bool {
    match a.iter().zip(b).find(|(x, y)| x != y) {
        Some((x, y)) => vocabulary[*x as usize] > vocabulary[*y as usize],
        None => a.len() > b.len(),
    }
}

/// Buffers one segment's scoring reuses; a thread keeps them from segment to segment (see
/// [`segment_score`]), so a batch allocates them once a thread instead of once a segment.
#[derive(Default)]
struct Buffers {
    first: Vec<u32>,
    next: Vec<u32>,
    couples: Vec<(usize, usize, usize)>,
    columns: Vec<Column>,
    shifted: Vec<u32>,
    best: Vec<u32>,
    words: Vec<u32>,
    chars: Vec<u32>,
    ranges: Vec<(u32, u32)>,
    shifted_chars: Vec<u32>,
    reference_chars: Vec<u32>,
    word_ids: WordIds,
}

impl Buffers {
    /// Drops buffers a very long segment left large (a thread keeps them).
    fn trim(&mut self) {
        const KEEP: usize = 1 << 16;
        if self.chars.capacity() > KEEP
            || self.shifted_chars.capacity() > KEEP
            || self.couples.capacity() > KEEP
            || self.word_ids.table.capacity() > KEEP
        {
            *self = Self::default();
        }
    }
}

/// The shift search of one segment: the reference, the positions of each of its words (a chained list
/// per word, so each hypothesis word visits only its matches), and the reused buffers.
struct ShiftSearch<'r> {
    reference: &'r Pattern,
    reference_ids: &'r [u32],
    buffers: &'r mut Buffers,
    /// Edit-distance steps done so far (see [`MAX_SHIFT_STEPS`]).
    steps: u64,
}

impl<'r> ShiftSearch<'r> {
    fn new(reference_ids: &'r [u32], reference: &'r Pattern, alphabet: usize, buffers: &'r mut Buffers) -> Self {
        let (first, next) = (&mut buffers.first, &mut buffers.next);
        first.clear();
        first.resize(alphabet, u32::MAX);
        next.clear();
        next.resize(reference_ids.len(), u32::MAX);
        for (position, &word) in reference_ids.iter().enumerate().rev() {
            next[position] = first[word as usize];
            first[word as usize] = position as u32;
        }
        Self { reference, reference_ids, buffers, steps: 0 }
    }

    /// `couple_discoverer(hyp, ref)` into the couples buffer: every (hyp start, ref start, length) of a
    /// common phrase with different start positions, `length` extended as far as the words keep
    /// matching (the order of candidates never matters: the best is a maximum over a total order).
    fn find_couples(&mut self, hypothesis: &[u32]) {
        let (reference, buffers) = (self.reference_ids, &mut *self.buffers);
        buffers.couples.clear();
        for start_1 in 0..hypothesis.len() {
            let mut start_2 = buffers.first[hypothesis[start_1] as usize];
            while start_2 != u32::MAX {
                let at = start_2 as usize;
                start_2 = buffers.next[at];
                if at == start_1 {
                    continue;
                }
                let mut length = 1;
                for step in 1..hypothesis.len() - start_1 {
                    if at + step < reference.len() && hypothesis[start_1 + step] == reference[at + step] {
                        length += 1;
                    } else {
                        break;
                    }
                }
                buffers.couples.push((start_1, at, length));
            }
        }
    }

    /// `shifter`: the best shift's gain and shifted words (in `best`, reused), or `None` when there is
    /// no candidate; `Err` when the search would go past [`MAX_SHIFT_STEPS`].
    fn best_shift(
        &mut self,
        hypothesis: &[u32],
        vocabulary: &[&str],
        pre_score: f64,
    ) -> std::result::Result<Option<f64>, ()> {
        let reference = self.reference;
        let reference_len = self.reference_ids.len();
        let mut best_gain: Option<f64> = None;
        // Hyyrö's column after each prefix of the hypothesis: a shifted copy shares the prefix before the
        // moved phrase and its new place, so only the rest is run (same distance as from the start)
        self.find_couples(hypothesis);
        let Buffers { columns, couples, shifted, best: best_words, .. } = &mut *self.buffers;
        let blocks = reference_len.div_ceil(64) as u64;
        columns.clear();
        if reference.is_single_word() {
            columns.push(reference.start());
            for k in 0..hypothesis.len() {
                let next = reference.advance(columns[k], &hypothesis[k..k + 1]);
                columns.push(next);
            }
        }
        for &(hyp_start, ref_start, length) in couples.iter() {
            // hyp[:s] + hyp[s+len:], then the phrase inserted at ref_start (Python slice assignment
            // clamps): three pieces after the unchanged prefix, run without building the list
            let at = ref_start.min(hypothesis.len() - length);
            let phrase = &hypothesis[hyp_start..hyp_start + length];
            let (shared, pieces) = if at <= hyp_start {
                (at, [phrase, &hypothesis[at..hyp_start], &hypothesis[hyp_start + length..]])
            } else {
                (hyp_start, [&hypothesis[hyp_start + length..at + length], phrase, &hypothesis[at + length..]])
            };
            let build = |out: &mut Vec<u32>| {
                out.clear();
                out.extend_from_slice(&hypothesis[..shared]);
                pieces.iter().for_each(|piece| out.extend_from_slice(piece));
            };
            // the words this shift's distance runs through, 64 reference words at a time
            self.steps += 1 + if columns.is_empty() {
                hypothesis.len() as u64 * blocks
            } else {
                (hypothesis.len() - shared) as u64
            };
            if self.steps > MAX_SHIFT_STEPS {
                return Err(());
            }
            let distance = if columns.is_empty() {
                build(shifted);
                reference.distance(shifted)
            } else {
                reference.column_distance(
                    pieces.iter().fold(columns[shared], |column, piece| reference.advance(column, piece)),
                )
            };
            let shift_score = distance as f64 / reference_len as f64;
            let gain = pre_score - shift_score;
            match best_gain {
                Some(best) if gain < best => {}
                Some(best) if gain == best => {
                    // a tie goes to the larger word list
                    build(shifted);
                    if words_greater(shifted, best_words, vocabulary) {
                        best_words.clone_from(shifted);
                    }
                }
                _ => {
                    best_gain = Some(gain);
                    build(best_words);
                }
            }
        }
        Ok(best_gain)
    }
}

/// `_shift_cost(shifted, original)`: for each displaced phrase, the average length of its words.
fn shift_cost(shifted: &[u32], original: &[u32], ranges: &[(u32, u32)]) -> f64 {
    let mut cost = 0.0f64;
    let mut original_start = 0;
    while original_start < shifted.len() {
        let mut average = 0.0f64;
        let original_index = original_start;
        if original[original_start] == shifted[original_start] {
            original_start += 1;
            continue;
        }
        for shift_start in original_start + 1..shifted.len() {
            if original[original_start] == shifted[shift_start] {
                let mut length = 1;
                for pos in 1..original.len() - original_index {
                    let (original_end, shift_end) = (original_index + pos, shift_start + pos);
                    if shift_end < shifted.len() && original[original_end] == shifted[shift_end] {
                        length += 1;
                        if original_start + 1 < original.len() {
                            original_start += 1;
                        }
                    } else {
                        break;
                    }
                }
                let word_len = |word: u32| (ranges[word as usize].1 - ranges[word as usize].0) as usize;
                let chars: usize = (0..length).map(|k| word_len(original[original_index + k])).sum();
                average = chars as f64 / length as f64;
                break;
            }
        }
        cost += average;
        original_start += 1;
    }
    cost
}

/// The characters of every vocabulary word as dense ids, each word decoded once (into `chars`, with
/// each word's `ranges`).
fn word_chars(vocabulary: &[&str], chars: &mut Vec<u32>, ranges: &mut Vec<(u32, u32)>) -> CharIds {
    let mut ids = CharIds::with_reserved(0);
    let space = ids.id(' ');
    debug_assert_eq!(space, 0);
    chars.clear();
    ranges.clear();
    for word in vocabulary {
        let from = chars.len() as u32;
        if word.is_ascii() {
            chars.extend(word.bytes().map(|b| ids.id(b as char)));
        } else {
            chars.extend(word.chars().map(|c| ids.id(c)));
        }
        ranges.push((from, chars.len() as u32));
    }
    ids
}

/// The characters of `" ".join(words)` into `out` (the space has id 0).
fn joined(words: &[u32], chars: &[u32], ranges: &[(u32, u32)], out: &mut Vec<u32>) {
    out.clear();
    for (k, &word) in words.iter().enumerate() {
        if k > 0 {
            out.push(0);
        }
        let (from, to) = ranges[word as usize];
        out.extend_from_slice(&chars[from as usize..to as usize]);
    }
}

/// CharacTER of one pair of whitespace-split texts (`calculate_cer(hyp.split(), ref.split())`).
/// The reference must have a word (the reference divides by its length). An error when the shift
/// search goes past [`MAX_SHIFT_STEPS`].
pub fn segment_score(hypothesis: &str, reference: &str) -> Result<f64> {
    thread_local! {
        static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
    }
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffers) => {
            let score = score_with(hypothesis, reference, &mut buffers);
            buffers.trim();
            score
        }
        Err(_) => score_with(hypothesis, reference, &mut Buffers::default()),
    })
}

/// [`segment_score`] with the given buffers.
fn score_with(hypothesis: &str, reference: &str, buffers: &mut Buffers) -> Result<f64> {
    let mut ids = std::mem::take(&mut buffers.word_ids);
    let score = score_with_ids(hypothesis, reference, buffers, &mut ids);
    buffers.word_ids = ids;
    score
}

/// [`score_with`] with the word table taken out of the buffers (the shift search borrows them).
fn score_with_ids(hypothesis: &str, reference: &str, buffers: &mut Buffers, ids: &mut WordIds) -> Result<f64> {
    let (hyp_words, ref_words) = (py_split(hypothesis), py_split(reference));
    let vocabulary = word_ids(&hyp_words, &ref_words, ids);
    let (original, reference_ids) = (&ids.hypothesis, &ids.reference);
    if original == reference_ids {
        return Ok(0.0); // the same words, distance 0: the reference returns before any shift
    }
    let reference_pattern = Pattern::new(reference_ids, vocabulary.len());
    let mut pre_score = reference_pattern.distance(original) as f64 / reference_ids.len() as f64;
    let mut words = std::mem::take(&mut buffers.words);
    words.clone_from(original);
    let mut search = ShiftSearch::new(reference_ids, &reference_pattern, vocabulary.len(), buffers);
    loop {
        let Ok(found) = search.best_shift(&words, &vocabulary, pre_score) else {
            buffers.words = words;
            return Err(search_too_long(original.len(), reference_ids.len()));
        };
        let Some(gain) = found else { break };
        if gain <= 0.0 {
            break;
        }
        std::mem::swap(&mut words, &mut search.buffers.best);
        pre_score -= gain;
    }
    let ids = word_chars(&vocabulary, &mut buffers.chars, &mut buffers.ranges);
    let cost_of_shifts = shift_cost(&words, original, &buffers.ranges);
    joined(&words, &buffers.chars, &buffers.ranges, &mut buffers.shifted_chars);
    joined(reference_ids, &buffers.chars, &buffers.ranges, &mut buffers.reference_chars);
    buffers.words = words;
    let (shifted_chars, reference_chars) = (&buffers.shifted_chars, &buffers.reference_chars);
    if shifted_chars.is_empty() {
        return Ok(1.0);
    }
    let edit_cost = distance(shifted_chars, reference_chars, ids.count()) as f64 + cost_of_shifts;
    Ok((edit_cost / shifted_chars.len() as f64).min(1.0))
}

/// CharacTER of every pair, in parallel; refuses a reference without words (the reference raises
/// ZeroDivisionError there).
pub fn segment_scores<H, R>(hypotheses: &[H], references: &[R]) -> Result<Vec<f64>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    if hypotheses.len() == references.len() {
        if let Some(index) = references.iter().position(|r| r.as_ref().trim_matches(is_python_whitespace).is_empty()) {
            return Err(Error::ShapeMismatch(format!(
                "references[{index}] has no words: CharacTER divides by the reference length"
            )));
        }
    }
    let scores = map_pairs(hypotheses, references, PARALLEL_THRESHOLD, segment_score)?;
    scores.into_iter().enumerate().map(|(index, score)| score.map_err(|e| e.at_segment(index))).collect()
}

/// CharacTER (the `cer` package); a row is `[score, 1]`, so summed rows give the mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Character;

impl SegmentMetric for Character {
    type Stat = f64;
    type Scratch = ();
    const NAME: &'static str = "character";
    const REFS: Refs = Refs::One;
    const PARALLEL_FROM: usize = PARALLEL_THRESHOLD;

    fn width(&self) -> usize {
        2
    }

    fn check_batch(&self, _hyps: &[&str], refs: &[&[&str]]) -> Result<()> {
        match refs.iter().position(|r| r[0].trim_matches(is_python_whitespace).is_empty()) {
            Some(index) => Err(Error::ShapeMismatch(format!(
                "references[{index}] has no words: CharacTER divides by the reference length"
            ))),
            None => Ok(()),
        }
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [f64], _: &mut ()) -> Result<()> {
        row.copy_from_slice(&[segment_score(hyp, refs[0])?, 1.0]);
        Ok(())
    }

    /// The mean of the summed scores.
    fn score_row(&self, row: &[f64]) -> f64 {
        row[0] / row[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hf_evaluate_docstring_examples() {
        // HF evaluate `character` module docstring (cer 1.2.0 values)
        let hyp = "this week the saudis denied information published in the new york times";
        let reference = "saudi arabia denied this week information published in the american new york times";
        assert_eq!(segment_score(hyp, reference).unwrap(), 0.36619718309859156);
        assert_eq!(
            segment_score("this is in fact an estimate", "this is actually an estimate").unwrap(),
            0.25925925925925924
        );
    }

    #[test]
    fn split_is_python_split() {
        assert_eq!(py_split("\u{3000}a\u{1f}b  c\u{a0}\u{85}dé\u{200b} "), vec!["a", "b", "c", "dé\u{200b}"]);
        assert_eq!(py_split(" \t"), Vec::<&str>::new());
        // every Python whitespace char (and a few lookalikes) between, before and after words
        let spaces: Vec<char> = (0..0x3001).filter_map(char::from_u32).filter(|&c| is_python_whitespace(c)).collect();
        for c in spaces.iter().chain(&['\u{200b}', '\u{180e}', 'é', '\u{a7}', '\u{2030}']) {
            for text in [format!("a{c}b"), format!("{c}ä{c}{c}"), format!("{c}"), format!("x{c}")] {
                let expected: Vec<&str> = crate::text::pystr::split_tokens(&text).collect();
                assert_eq!(py_split(&text), expected, "{text:?}");
            }
        }
    }

    #[test]
    fn identical_empty_and_refused() {
        assert_eq!(segment_score("a b", " a  b ").unwrap(), 0.0);
        assert_eq!(segment_score("", "a").unwrap(), 1.0);
        assert!(segment_scores(&["a"], &[" "]).is_err());
        assert!(segment_scores(&["a"], &["a", "b"]).is_err());
    }

    #[test]
    fn a_search_past_the_step_limit_is_refused() {
        // synthetic: 1,500 alternating words against the other phase; every shift of every phrase is tried
        let hyp: Vec<&str> = (0..1500).map(|k| ["a", "b"][k % 2]).collect();
        let reference: Vec<&str> = (0..1500).map(|k| ["b", "a"][k % 2]).collect();
        let error = segment_scores(&[hyp.join(" ")], &[reference.join(" ")]).expect_err("refused");
        assert!(error.to_string().starts_with("segment 0: CharacTER's shift search"), "{error}");
    }

    #[test]
    fn word_lists_compare_as_python_lists() {
        let mut ids = WordIds::default();
        let vocabulary = word_ids(&["b", "é", "a"], &["z", "b"], &mut ids);
        let (hyp, reference) = (ids.hypothesis, ids.reference);
        assert!(words_greater(&[hyp[1]], &[reference[0]], &vocabulary)); // "é" > "z"
        assert!(!words_greater(&[hyp[2], hyp[0]], &[hyp[0], hyp[2]], &vocabulary));
        assert_eq!(reference[1], hyp[0]);
    }
}
