//! What the aligner (`align.rs`), its beam search (`beam.rs`) and the per-word tables (`features.rs`)
//! share: a match and the jar's word key. Kept apart so `features` need not import the aligner.
//! (`Candidates` and `Matchers`, which `beam` takes from `align`, are still defined there.)

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
