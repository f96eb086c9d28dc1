//! Word and character error rates (WER, MER, WIL, WIP, CER) as jiwer 4.0 computes them
//! (`jiwer/process.py` `process_words`, `jiwer/transformations.py` `wer_default` / `cer_default`).
//!
//! A segment's statistics are the counts of jiwer's alignment of reference to hypothesis:
//! substitutions, deletions, insertions and hits, found by rapidfuzz's Levenshtein back-trace
//! (`edit_distance`), so ties between equally short alignments split the same way. jiwer sums these
//! counts over sentences before dividing, so the statistics are additive.

use rustc_hash::FxHashMap;

use crate::error::Result;
use crate::metrics::edit_distance::{editops, opcodes, EditKind, Opcode};
use crate::metrics::map_pairs;
use crate::metrics::segment::{Refs, SegmentMetric};
use crate::text::pystr::{is_python_whitespace, python_strip};

/// Columns of a segment's statistics row.
pub const STATS_WIDTH: usize = 4;
pub const SUBSTITUTIONS: usize = 0;
pub const DELETIONS: usize = 1;
pub const INSERTIONS: usize = 2;
pub const HITS: usize = 3;

const PARALLEL_THRESHOLD: usize = 64;

/// What is aligned: words (`process_words`) or characters (`process_characters`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Words,
    Characters,
}

/// The text transforms of jiwer that run in the core. `wer_default` is
/// `RemoveMultipleSpaces, Strip, ReduceToListOfListOfWords`; `cer_default` is `Strip, ReduceToListOfListOfChars`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorRateConfig {
    pub unit: Unit,
    /// `RemoveMultipleSpaces`: `re.sub(r"\s\s+", " ", s)`.
    pub remove_multiple_spaces: bool,
    /// `Strip`: `s.strip()`.
    pub strip: bool,
}

impl ErrorRateConfig {
    /// jiwer's default for the unit (`wer_default` or `cer_default`).
    pub fn jiwer_default(unit: Unit) -> Self {
        Self { unit, remove_multiple_spaces: unit == Unit::Words, strip: true }
    }
}

/// The words jiwer compares: `[w for w in s.split(" ") if w]` after the configured transforms.
/// Every word is a slice of `text`: a collapsed run of spaces is a delimiter.
pub fn words<'a>(text: &'a str, config: &ErrorRateConfig) -> Vec<&'a str> {
    let text = if config.strip { python_strip(text) } else { text };
    if !config.remove_multiple_spaces {
        return text.split(' ').filter(|w| !w.is_empty()).collect();
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !is_python_whitespace(c) {
            continue;
        }
        let mut end = at + c.len_utf8();
        let mut run = 1;
        while let Some(&(next_at, next)) = chars.peek() {
            if !is_python_whitespace(next) {
                break;
            }
            end = next_at + next.len_utf8();
            run += 1;
            chars.next();
        }
        // a run of two or more becomes " "; a lone space splits; a lone tab etc. stays in the word
        if run >= 2 || c == ' ' {
            if at > start {
                out.push(&text[start..at]);
            }
            start = end;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// The characters jiwer compares (`list(s)` after the configured transforms).
pub fn characters(text: &str, config: &ErrorRateConfig) -> Vec<char> {
    let text = if config.strip { python_strip(text) } else { text };
    if !config.remove_multiple_spaces {
        return text.chars().collect();
    }
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if is_python_whitespace(c) {
            run += 1;
            if run == 2 {
                // the run so far (one character) and this one become a single space
                *out.last_mut().expect("a run of two has a first character") = ' ';
            }
            if run >= 2 {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(c);
    }
    out
}

/// Reference and hypothesis as dense symbol ids local to the pair (equal tokens share an id).
fn pair_symbols<T: std::hash::Hash + Eq + Copy>(reference: &[T], hypothesis: &[T]) -> (Vec<u32>, Vec<u32>, usize) {
    let mut ids: FxHashMap<T, u32> = FxHashMap::default();
    let mut id_of = |token: &T| {
        let next = ids.len() as u32;
        *ids.entry(*token).or_insert(next)
    };
    let reference: Vec<u32> = reference.iter().map(&mut id_of).collect();
    let hypothesis: Vec<u32> = hypothesis.iter().map(&mut id_of).collect();
    (reference, hypothesis, ids.len().max(1))
}

/// The alignment of one pair: jiwer's `AlignmentChunk`s and the two token counts.
pub struct SegmentAlignment {
    pub chunks: Vec<Opcode>,
    pub reference_length: usize,
    pub hypothesis_length: usize,
}

/// jiwer's alignment of `reference` to `hypothesis` (`rapidfuzz.distance.Levenshtein.opcodes`).
pub fn segment_alignment(reference: &str, hypothesis: &str, config: &ErrorRateConfig) -> SegmentAlignment {
    let (reference, hypothesis, alphabet) = match config.unit {
        Unit::Words => pair_symbols(&words(reference, config), &words(hypothesis, config)),
        Unit::Characters => pair_symbols(&characters(reference, config), &characters(hypothesis, config)),
    };
    let ops = editops(&reference, &hypothesis, alphabet);
    SegmentAlignment {
        chunks: opcodes(&ops, reference.len(), hypothesis.len()),
        reference_length: reference.len(),
        hypothesis_length: hypothesis.len(),
    }
}

/// Substitutions, deletions, insertions and hits of one pair.
pub fn segment_stats(reference: &str, hypothesis: &str, config: &ErrorRateConfig) -> [u64; STATS_WIDTH] {
    let (reference, hypothesis, alphabet) = match config.unit {
        Unit::Words => pair_symbols(&words(reference, config), &words(hypothesis, config)),
        Unit::Characters => pair_symbols(&characters(reference, config), &characters(hypothesis, config)),
    };
    let mut row = [0u64; STATS_WIDTH];
    for op in editops(&reference, &hypothesis, alphabet) {
        match op.kind {
            EditKind::Replace => row[SUBSTITUTIONS] += 1,
            EditKind::Delete => row[DELETIONS] += 1,
            EditKind::Insert => row[INSERTIONS] += 1,
        }
    }
    row[HITS] = reference.len() as u64 - row[SUBSTITUTIONS] - row[DELETIONS];
    row
}

/// Row-major statistics `(n, STATS_WIDTH)` of every pair, in parallel for large batches.
pub fn corpus_stats<H, R>(hypotheses: &[H], references: &[R], config: &ErrorRateConfig) -> Result<Vec<u64>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    let rows =
        map_pairs(hypotheses, references, PARALLEL_THRESHOLD, |hyp, reference| segment_stats(reference, hyp, config))?;
    Ok(rows.concat())
}

/// One of jiwer's measures (`process.py`), each a function of summed (S, D, I, H).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Word (or, on characters, character) error rate.
    ErrorRate,
    /// Match error rate.
    MatchErrorRate,
    /// Word information lost.
    InformationLost,
    /// Word information preserved.
    InformationPreserved,
}

/// jiwer's WER family and CER: the text options and the measure a row is scored by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorRate {
    pub config: ErrorRateConfig,
    pub measure: Measure,
}

impl ErrorRate {
    /// The measure of one row of (S, D, I, H), with jiwer's cases for an empty reference; the float operations
    /// are those of `nlgmetrics.metrics.wer.measures_from_counts` (jiwer's, elementwise).
    pub fn measure_of(&self, row: &[i64]) -> f64 {
        let (substitutions, deletions, insertions, hits) =
            (row[SUBSTITUTIONS], row[DELETIONS], row[INSERTIONS], row[HITS]);
        let errors = (substitutions + deletions + insertions) as f64;
        let ref_words = hits + substitutions + deletions;
        let hyp_words = hits + substitutions + insertions;
        let preserved = || {
            if ref_words == 0 {
                f64::from(u8::from(hyp_words == 0))
            } else if hyp_words >= 1 {
                (hits as f64 / ref_words as f64) * (hits as f64 / hyp_words as f64)
            } else {
                0.0
            }
        };
        match self.measure {
            Measure::ErrorRate if ref_words == 0 => insertions as f64,
            Measure::ErrorRate => errors / ref_words as f64,
            Measure::MatchErrorRate if ref_words == 0 => f64::from(u8::from(hyp_words > 0)),
            Measure::MatchErrorRate => errors / (ref_words + insertions) as f64,
            Measure::InformationPreserved => preserved(),
            Measure::InformationLost => 1.0 - preserved(),
        }
    }
}

impl SegmentMetric for ErrorRate {
    type Stat = i64;
    type Scratch = ();
    const NAME: &'static str = "wer";
    const REFS: Refs = Refs::One;
    const PARALLEL_FROM: usize = PARALLEL_THRESHOLD;

    fn width(&self) -> usize {
        STATS_WIDTH
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], _: &mut ()) -> Result<()> {
        let stats = segment_stats(refs[0], hyp, &self.config);
        row.iter_mut().zip(stats).for_each(|(slot, value)| *slot = value as i64);
        Ok(())
    }

    fn score_row(&self, row: &[i64]) -> f64 {
        self.measure_of(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: ErrorRateConfig = ErrorRateConfig { unit: Unit::Words, remove_multiple_spaces: true, strip: true };
    const CHARS: ErrorRateConfig =
        ErrorRateConfig { unit: Unit::Characters, remove_multiple_spaces: false, strip: true };

    #[test]
    fn words_follow_jiwer_default_transform() {
        // RemoveMultipleSpaces, Strip, split(" "): a lone tab stays inside a word, two whitespace split
        assert_eq!(words("  a b\tc  d \u{3000}e\u{a0}", &WORDS), vec!["a", "b\tc", "d", "e"]);
        assert_eq!(words("a\t\tb", &WORDS), vec!["a", "b"]);
        assert_eq!(words(" \t ", &WORDS), Vec::<&str>::new());
        let no_collapse = ErrorRateConfig { remove_multiple_spaces: false, ..WORDS };
        assert_eq!(words("a \t b", &no_collapse), vec!["a", "\t", "b"]);
    }

    #[test]
    fn characters_follow_jiwer_default_transform() {
        assert_eq!(characters("  ab  c ", &CHARS), vec!['a', 'b', ' ', ' ', 'c']);
        let collapse = ErrorRateConfig { remove_multiple_spaces: true, ..CHARS };
        assert_eq!(characters("a \t b\tc", &collapse), vec!['a', ' ', 'b', '\t', 'c']);
    }

    #[test]
    fn counts_of_jiwer_docstring_example() {
        // jiwer.process_words("a b c d", "a x c"): 1 substitution, 1 deletion, 2 hits
        assert_eq!(segment_stats("a b c d", "a x c", &WORDS), [1, 1, 0, 2]);
        assert_eq!(segment_stats("", "a b", &WORDS), [0, 0, 2, 0]);
        assert_eq!(segment_stats("abc", "", &CHARS), [0, 3, 0, 0]);
    }

    #[test]
    fn mismatched_lengths_are_refused() {
        assert!(corpus_stats(&["a"], &["a", "b"], &WORDS).is_err());
    }
}
