//! The jar's "legacy" lookup-table stemmer for Arabic in reduced Buckwalter transliteration
//! (`ar-bw-red`): lines of `word count stem` from `stem/arabic-buckwalter-reduced.gz` inside
//! meteor-1.5.jar (LGPL, so not shipped here: read from the installed jar at run time).
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/LookupTableStemmer.java`:
//! the table is keyed by the word's Java `hashCode()` (so words with equal hashes share an entry),
//! a later line replaces an earlier one, and an unknown word is its own stem.

use rustc_hash::FxHashMap;

use super::normalize::java_tokens;
use super::types::java_hash;

#[derive(Debug, Default)]
pub struct LookupStems {
    /// Word hash → (offset, length) of its stem in `stems`.
    table: FxHashMap<i32, (u32, u32)>,
    stems: String,
}

impl LookupStems {
    /// Parse the decompressed table. Lines with fewer than three tokens or a count that is not
    /// an integer are skipped (the jar would stop with an error on them).
    pub fn parse(text: &str) -> LookupStems {
        let mut stems = LookupStems::default();
        let mut offsets: FxHashMap<&str, (u32, u32)> = FxHashMap::default();
        for line in text.lines() {
            let mut tokens = java_tokens(line);
            let (Some(word), Some(count), Some(stem)) = (tokens.next(), tokens.next(), tokens.next()) else {
                continue;
            };
            if count.parse::<i32>().is_err() {
                continue;
            }
            let span = *offsets.entry(stem).or_insert_with(|| {
                let span = (stems.stems.len() as u32, stem.len() as u32);
                stems.stems.push_str(stem);
                span
            });
            stems.table.insert(java_hash(word), span);
        }
        stems
    }

    /// The stem of a word (the word itself when the table has none).
    pub fn stem<'a>(&'a self, word: &'a str) -> &'a str {
        match self.table.get(&java_hash(word)) {
            Some(&(offset, len)) => &self.stems[offset as usize..(offset + len) as usize],
            None => word,
        }
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_lines_win_and_unknown_words_stay() {
        let stems = LookupStems::parse("ktAb 5 ktb\nAlktAb 3 ktb\nktAb 1 kt\nshort 2\nbad x y\n");
        assert_eq!(stems.stem("ktAb"), "kt");
        assert_eq!(stems.stem("AlktAb"), "ktb");
        assert_eq!(stems.stem("qlm"), "qlm");
        assert_eq!(stems.len(), 2);
    }
}
