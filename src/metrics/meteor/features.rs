//! Per-word lookups of the aligner (Java hash, stem hash, synsets, paraphrase-table id and trie
//! root, function-word flag, size), computed once per distinct word of a batch instead of once per
//! occurrence: a batch of 2,500 segment pairs has ~110k tokens but only ~16k distinct words.
//!
//! Every feature is a pure function of the word, so sharing it between occurrences cannot change
//! a result.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::normalize::{java_len, java_tokens};
use super::params::Module;
use super::paraphrase::{ParaphraseTable, UNKNOWN_WORD};
use super::synonyms::SynonymDictionary;
use super::types::java_hash;
use super::MeteorStemmer;

/// No trie node (the word starts no table phrase).
pub const NO_NODE: u32 = u32::MAX;

/// What the aligner and the statistics need to know about one distinct word.
#[derive(Debug, Clone, Copy)]
pub struct WordInfo {
    /// Java `String.hashCode()` of the word (the jar's exact-match key).
    pub hash: i32,
    /// Java hash of the Snowball stem (0 when the stem module is off).
    pub stem: i32,
    /// Range of the word's sorted synset ids in [`WordTable::synsets`].
    pub synsets: (u32, u32),
    /// Paraphrase-table id, or [`UNKNOWN_WORD`].
    pub para_id: u32,
    /// The trie node of the one-word table phrase that is this word, or [`NO_NODE`].
    pub para_node: u32,
    /// In the function-word list (compared lowercased, as the jar does).
    pub function: bool,
    /// The word's weight in lengths and match counts: 1, or its UTF-16 length for `-ch`.
    pub size: f64,
}

/// The resources features are computed from.
pub struct FeatureSources<'a> {
    pub modules: &'a [Module],
    pub stemmer: Option<&'a MeteorStemmer>,
    pub synonyms: Option<&'a SynonymDictionary>,
    pub paraphrases: Option<&'a ParaphraseTable>,
    pub function_words: &'a FxHashSet<String>,
    pub char_based: bool,
}

impl FeatureSources<'_> {
    fn uses(&self, module: Module) -> bool {
        self.modules.contains(&module)
    }

    /// A word's features, with its synsets (sorted, distinct) appended to `synsets`.
    fn word(&self, word: &str, synsets: &mut Vec<u32>) -> WordInfo {
        let begin = synsets.len() as u32;
        if let (true, Some(dictionary)) = (self.uses(Module::Synonym), self.synonyms) {
            synsets.extend(dictionary.word_synsets(word));
        }
        let (para_id, para_node) = match (self.uses(Module::Paraphrase), self.paraphrases) {
            (true, Some(table)) => {
                let id = table.word_id(word);
                let node = if id == UNKNOWN_WORD { None } else { table.child(0, id) };
                (id, node.unwrap_or(NO_NODE))
            }
            _ => (UNKNOWN_WORD, NO_NODE),
        };
        WordInfo {
            hash: java_hash(word),
            stem: match (self.uses(Module::Stem), self.stemmer) {
                (true, Some(stemmer)) => java_hash(&stemmer.stem(word)),
                _ => 0,
            },
            synsets: (begin, synsets.len() as u32),
            para_id,
            para_node,
            function: self.function_words.contains(&word.to_lowercase()),
            size: if self.char_based { java_len(word) as f64 } else { 1.0 },
        }
    }
}

/// The distinct words of a batch with their features; lines refer to words by index.
#[derive(Debug, Default)]
pub struct WordTable {
    pub infos: Vec<WordInfo>,
    pub synsets: Vec<u32>,
}

impl WordTable {
    /// Features of `words` (distinct), computed in parallel when there are many.
    pub fn build(words: &[&str], sources: &FeatureSources<'_>) -> WordTable {
        const CHUNK: usize = 512;
        if words.len() <= CHUNK {
            let mut table = WordTable::default();
            table.infos = words.iter().map(|w| sources.word(w, &mut table.synsets)).collect();
            return table;
        }
        let parts: Vec<(Vec<WordInfo>, Vec<u32>)> = words
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut synsets = Vec::new();
                let infos = chunk.iter().map(|w| sources.word(w, &mut synsets)).collect();
                (infos, synsets)
            })
            .collect();
        let mut table = WordTable { infos: Vec::with_capacity(words.len()), synsets: Vec::new() };
        for (infos, synsets) in parts {
            let shift = table.synsets.len() as u32;
            table.infos.extend(
                infos
                    .into_iter()
                    .map(|info| WordInfo { synsets: (info.synsets.0 + shift, info.synsets.1 + shift), ..info }),
            );
            table.synsets.extend(synsets);
        }
        table
    }

    pub fn synsets_of(&self, word: u32) -> &[u32] {
        let (a, b) = self.infos[word as usize].synsets;
        &self.synsets[a as usize..b as usize]
    }
}

/// Lines of tokens turned into word indices (`ids[offsets[k]..offsets[k + 1]]` is line `k`), with
/// the distinct words in first-seen order.
pub struct InternedLines<'t> {
    pub words: Vec<&'t str>,
    pub ids: Vec<u32>,
    pub offsets: Vec<usize>,
}

impl<'t> InternedLines<'t> {
    /// Split each (preprocessed) line on the jar's whitespace and intern its tokens.
    pub fn new<S: AsRef<str>>(lines: &'t [S]) -> InternedLines<'t> {
        let mut index: FxHashMap<&'t str, u32> = FxHashMap::default();
        let mut words: Vec<&'t str> = Vec::new();
        let mut ids = Vec::new();
        let mut offsets = Vec::with_capacity(lines.len() + 1);
        offsets.push(0);
        for line in lines {
            for token in java_tokens(line.as_ref()) {
                let id = *index.entry(token).or_insert_with(|| {
                    words.push(token);
                    (words.len() - 1) as u32
                });
                ids.push(id);
            }
            offsets.push(ids.len());
        }
        InternedLines { words, ids, offsets }
    }

    pub fn line(&self, k: usize) -> &[u32] {
        &self.ids[self.offsets[k]..self.offsets[k + 1]]
    }
}
