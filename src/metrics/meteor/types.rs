//! What the aligner (`align.rs`), its beam search (`beam.rs`) and the per-word tables (`features.rs`)
//! share: a match and the jar's word key. Kept apart so `features` need not import the aligner.

use super::params::Module;
use super::paraphrase::ParaphraseTable;

/// One aligned phrase pair. `start`/`length` index the reference, `match_start`/`match_length`
/// the hypothesis, `stage` is the position of the module that proposed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub start: u32,
    pub length: u32,
    pub match_start: u32,
    pub match_length: u32,
    pub stage: u8,
}

/// Java's `String.hashCode()`: 31-polynomial over UTF-16 code units, wrapping.
pub fn java_hash(word: &str) -> i32 {
    let mut hash: i32 = 0;
    for unit in word.encode_utf16() {
        hash = hash.wrapping_mul(31).wrapping_add(unit as i32);
    }
    hash
}

/// The configured modules and search settings.
pub struct Matchers<'a> {
    pub modules: &'a [Module],
    pub paraphrases: Option<&'a ParaphraseTable>,
    pub beam_size: usize,
    /// Most candidate matches one hypothesis–reference pair may have (default `DEFAULT_MAX_CANDIDATES` in `align.rs`).
    pub max_candidates: usize,
}

/// The jar's `Stage`: candidate matches in the order the modules propose them, and how many
/// candidates cover each word. [`Candidates::by_start`] then groups them per reference start
/// position, keeping that order.
#[derive(Default)]
pub struct Candidates {
    pub(super) proposed: Vec<Match>,
    /// At most this many candidates are kept; `overflowed` tells that more were proposed.
    pub(super) limit: usize,
    pub overflowed: bool,
    pub coverage1: Vec<u32>,
    pub coverage2: Vec<u32>,
    /// Candidates grouped by reference start: `sorted[offsets[j]..offsets[j + 1]]` start at `j`.
    pub offsets: Vec<u32>,
    pub sorted: Vec<Match>,
}
