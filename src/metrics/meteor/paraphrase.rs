//! METEOR paraphrase tables (`paraphrase-<lang>.gz`): a prefix trie over reference phrases whose
//! nodes list paraphrase indices in file order, as `ParaphraseTransducer.java` in cmu-mtlab/meteor.
//!
//! Stored compactly: the vocabulary sorted (lookup by binary search), and one record per trie node
//! holding everything a lookup at that node reads — its children (sorted by word), and its
//! paraphrases grouped by first word with their words inline — so visiting a node touches one or
//! two cache lines, not five scattered arrays. Everything lives in one [`Blob`] that is also the
//! binary cache's content, so a later process maps the cache file and reads only the pages its
//! words lead to.
//!
//! Node record (`u32`s, a node's id is its record's offset; the root is 0): child count `c`,
//! paraphrase count `e`, `c` child words, `c` child ids, `e` first words (sorted; paraphrases
//! without words last as [`EMPTY_PHRASE`]), `e` paraphrase numbers (file order), `e + 1` word
//! offsets relative to the words area, then the words area.

use std::io::BufRead;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::blob::{self, Blob, Raw};
use crate::error::{Error, Result};

/// Id of a word absent from the table's vocabulary (the jar's `-1`).
pub const UNKNOWN_WORD: u32 = u32::MAX;

const CACHE_MAGIC: &[u8; 16] = b"NLGM-METEOR-PT05";
/// Sections: vocabulary bytes, vocabulary offsets, node records, and [paraphrase count].
const SECTIONS: usize = 4;

/// Grouping key of paraphrases with no words (they occur at every position).
pub const EMPTY_PHRASE: u32 = u32::MAX - 1;

pub struct ParaphraseTable {
    vocab_bytes: Raw<u8>,
    vocab_offsets: Raw<u32>,
    records: Raw<u32>,
    paraphrase_count: usize,
    blob: Blob,
}

/// The paraphrases of one trie node, grouped by first word.
pub struct NodeParaphrases<'t> {
    /// First word of each paraphrase (sorted, [`EMPTY_PHRASE`] last).
    pub keys: &'t [u32],
    /// Paraphrase numbers in file order within each first word.
    pub numbers: &'t [u32],
    offsets: &'t [u32],
    words: &'t [u32],
}

impl<'t> NodeParaphrases<'t> {
    /// The words of the node's `k`-th paraphrase.
    pub fn words(&self, k: usize) -> &'t [u32] {
        &self.words[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }
}

// SAFETY: the raw slices point into the table's own read-only blob.
unsafe impl Send for ParaphraseTable {}
unsafe impl Sync for ParaphraseTable {}

impl std::fmt::Debug for ParaphraseTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParaphraseTable({} paraphrases)", self.len())
    }
}

fn io_error(path: &Path, error: impl std::fmt::Display) -> Error {
    Error::InvalidOption(format!("cannot read METEOR paraphrase table {}: {error}", path.display()))
}

impl ParaphraseTable {
    /// Parse a gzip'd table: records of three lines (probability, reference phrase, paraphrase).
    pub fn from_gzip(path: &Path) -> Result<ParaphraseTable> {
        use std::io::BufReader;
        let file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
        let reader = BufReader::with_capacity(1 << 20, flate2::read::MultiGzDecoder::new(BufReader::new(file)));
        Self::from_reader(reader).map_err(|e| io_error(path, e))
    }

    fn from_reader<R: BufRead>(mut reader: R) -> std::io::Result<ParaphraseTable> {
        let mut ids: FxHashMap<String, u32> = FxHashMap::default();
        let mut words: Vec<String> = Vec::new();
        let mut intern = |token: &str| -> u32 {
            if let Some(&id) = ids.get(token) {
                return id;
            }
            let id = words.len() as u32;
            ids.insert(token.to_string(), id);
            words.push(token.to_string());
            id
        };
        // Trie built with a hash map, then flattened.
        let mut children: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut node_count: u32 = 1;
        let mut emit_pairs: Vec<(u32, u32)> = Vec::new();
        let mut para_pairs: Vec<(u32, u32)> = Vec::new();
        let mut lines = [String::new(), String::new(), String::new()];
        let mut paraphrase_count: u32 = 0;
        loop {
            lines[0].clear();
            if reader.read_line(&mut lines[0])? == 0 {
                break;
            }
            lines[1].clear();
            lines[2].clear();
            reader.read_line(&mut lines[1])?;
            reader.read_line(&mut lines[2])?;
            let mut node = 0u32;
            for token in super::normalize::java_tokens(&lines[1]) {
                let word = intern(token);
                node = *children.entry((node, word)).or_insert_with(|| {
                    node_count += 1;
                    node_count - 1
                });
            }
            emit_pairs.push((node, paraphrase_count));
            for token in super::normalize::java_tokens(&lines[2]) {
                para_pairs.push((paraphrase_count, intern(token)));
            }
            paraphrase_count += 1;
        }
        // Renumber words in byte order so lookups can binary-search the sorted vocabulary.
        let mut order: Vec<u32> = (0..words.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| words[a as usize].as_bytes().cmp(words[b as usize].as_bytes()));
        let mut new_id = vec![0u32; words.len()];
        let mut vocab_offsets = Vec::with_capacity(words.len() + 1);
        let mut vocab_bytes = Vec::new();
        vocab_offsets.push(0);
        for (rank, &old) in order.iter().enumerate() {
            new_id[old as usize] = rank as u32;
            vocab_bytes.extend_from_slice(words[old as usize].as_bytes());
            vocab_offsets.push(vocab_bytes.len() as u32);
        }
        let mut edges: Vec<(u32, u32, u32)> =
            children.into_iter().map(|((parent, word), child)| (parent, new_id[word as usize], child)).collect();
        edges.sort_unstable();
        for pair in &mut para_pairs {
            pair.1 = new_id[pair.1 as usize];
        }
        // Paraphrase words per paraphrase (pairs are in paraphrase order), and emits per node.
        let mut para_offsets = vec![0usize; paraphrase_count as usize + 1];
        for &(p, _) in &para_pairs {
            para_offsets[p as usize + 1] += 1;
        }
        for p in 0..paraphrase_count as usize {
            para_offsets[p + 1] += para_offsets[p];
        }
        let para_words = |p: u32| &para_pairs[para_offsets[p as usize]..para_offsets[p as usize + 1]];
        let first_word = |p: u32| para_words(p).first().map_or(EMPTY_PHRASE, |&(_, w)| w);
        emit_pairs.sort_unstable_by_key(|&(node, p)| (node, first_word(p), p));
        let nodes = node_count as usize;
        let (mut edge_at, mut emit_at) = (vec![0usize; nodes + 1], vec![0usize; nodes + 1]);
        for &(parent, _, _) in &edges {
            edge_at[parent as usize + 1] += 1;
        }
        for &(node, _) in &emit_pairs {
            emit_at[node as usize + 1] += 1;
        }
        for n in 0..nodes {
            edge_at[n + 1] += edge_at[n];
            emit_at[n + 1] += emit_at[n];
        }
        let record_size = |n: usize| {
            let (c, e) = (edge_at[n + 1] - edge_at[n], emit_at[n + 1] - emit_at[n]);
            let words: usize = emit_pairs[emit_at[n]..emit_at[n + 1]].iter().map(|&(_, p)| para_words(p).len()).sum();
            2 + 2 * c + 3 * e + 1 + words
        };
        let mut record_at = vec![0usize; nodes + 1];
        for n in 0..nodes {
            record_at[n + 1] = record_at[n] + record_size(n);
        }
        if record_at[nodes] > u32::MAX as usize {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "paraphrase table too large"));
        }
        let mut records: Vec<u32> = Vec::with_capacity(record_at[nodes]);
        for n in 0..nodes {
            let (node_edges, node_emits) =
                (&edges[edge_at[n]..edge_at[n + 1]], &emit_pairs[emit_at[n]..emit_at[n + 1]]);
            records.push(node_edges.len() as u32);
            records.push(node_emits.len() as u32);
            records.extend(node_edges.iter().map(|e| e.1));
            records.extend(node_edges.iter().map(|e| record_at[e.2 as usize] as u32));
            records.extend(node_emits.iter().map(|&(_, p)| first_word(p)));
            records.extend(node_emits.iter().map(|&(_, p)| p));
            let mut offset = 0u32;
            records.push(0);
            for &(_, p) in node_emits {
                offset += para_words(p).len() as u32;
                records.push(offset);
            }
            for &(_, p) in node_emits {
                records.extend(para_words(p).iter().map(|&(_, w)| w));
            }
        }
        let sections = [
            vocab_bytes,
            blob::u32_bytes(&vocab_offsets),
            blob::u32_bytes(&records),
            blob::u32_bytes(&[paraphrase_count]),
        ];
        let views: Vec<&[u8]> = sections.iter().map(Vec::as_slice).collect();
        let bytes = blob::encode(CACHE_MAGIC, &views);
        Self::from_blob(Blob::from_bytes(&bytes))
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "inconsistent paraphrase table"))
    }

    /// The table in a blob laid out by [`from_reader`](Self::from_reader), after checks that
    /// every lookup stays inside it; None when the blob is not such a table.
    fn from_blob(blob: Blob) -> Option<ParaphraseTable> {
        let sections = blob.sections(CACHE_MAGIC, SECTIONS)?;
        let vocab_bytes = Raw::of(blob.section_bytes(sections[0]));
        let vocab_offsets = blob.section_u32s(sections[1])?;
        let records = blob.section_u32s(sections[2])?;
        let paraphrase_count = *blob.section_u32s(sections[3])?.first()? as usize;
        let consistent = vocab_offsets.last().map(|&v| v as usize) == Some(vocab_bytes.len) && records.len() >= 2;
        let table = ParaphraseTable {
            vocab_bytes,
            vocab_offsets: Raw::of(vocab_offsets),
            records: Raw::of(records),
            paraphrase_count,
            blob,
        };
        consistent.then_some(table)
    }

    fn get<T>(&self, raw: Raw<T>) -> &[T] {
        // SAFETY: every Raw was made from a slice of `self.blob`, which lives and stays put as long as `self`.
        unsafe { raw.get() }
    }

    /// Write the binary cache (atomically: temp file then rename).
    pub fn write_cache(&self, path: &Path) -> Result<()> {
        blob::write_atomic(path, self.blob.bytes())
            .map_err(|e| Error::InvalidOption(format!("cannot write METEOR paraphrase cache {}: {e}", path.display())))
    }

    /// Open a binary cache written by [`write_cache`](Self::write_cache) (memory-mapped).
    pub fn read_cache(path: &Path) -> Result<ParaphraseTable> {
        let blob = Blob::open(path).map_err(|e| io_error(path, e))?;
        Self::from_blob(blob)
            .ok_or_else(|| Error::InvalidOption(format!("corrupt METEOR paraphrase cache {}", path.display())))
    }

    /// The table's id of a word, or [`UNKNOWN_WORD`].
    pub fn word_id(&self, word: &str) -> u32 {
        let count = self.get(self.vocab_offsets).len() - 1;
        let entry = |i: usize| {
            &self.get(self.vocab_bytes)
                [self.get(self.vocab_offsets)[i] as usize..self.get(self.vocab_offsets)[i + 1] as usize]
        };
        let (mut low, mut high) = (0usize, count);
        while low < high {
            let mid = (low + high) / 2;
            match entry(mid).cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return mid as u32,
            }
        }
        UNKNOWN_WORD
    }

    /// A node's record: (children's words, children's ids, the rest of the record).
    fn record(&self, node: u32) -> (&[u32], &[u32], usize, &[u32]) {
        let records = self.get(self.records);
        let at = node as usize;
        let (children, emits) = (records[at] as usize, records[at + 1] as usize);
        let words = &records[at + 2..at + 2 + children];
        let ids = &records[at + 2 + children..at + 2 + 2 * children];
        (words, ids, emits, &records[at + 2 + 2 * children..])
    }

    /// The trie child of `node` along `word`.
    pub fn child(&self, node: u32, word: u32) -> Option<u32> {
        let (words, ids, _, _) = self.record(node);
        words.binary_search(&word).ok().map(|i| ids[i])
    }

    /// The paraphrases of a node, grouped by first word (file order within a group).
    pub fn node_paraphrases(&self, node: u32) -> NodeParaphrases<'_> {
        let (_, _, emits, rest) = self.record(node);
        let (keys, rest) = rest.split_at(emits);
        let (numbers, rest) = rest.split_at(emits);
        let (offsets, words) = rest.split_at(emits + 1);
        NodeParaphrases { keys, numbers, offsets, words }
    }

    /// `getReferencePaths`: (phrase length, paraphrase words) for every table phrase that starts
    /// `words[start..]`, shorter phrases first, each node's paraphrases in file order.
    pub fn paths_from(&self, words: &[u32], start: usize) -> Vec<(usize, Vec<u32>)> {
        let mut out = Vec::new();
        let mut node = 0u32;
        for (offset, &word) in words[start..].iter().enumerate() {
            match self.child(node, word) {
                Some(next) => node = next,
                None => break,
            }
            let found = self.node_paraphrases(node);
            let mut order: Vec<usize> = (0..found.numbers.len()).collect();
            order.sort_unstable_by_key(|&k| found.numbers[k]);
            out.extend(order.into_iter().map(|k| (offset + 1, found.words(k).to_vec())));
        }
        out
    }

    pub fn len(&self) -> usize {
        self.paraphrase_count
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trie_paths_and_cache_round_trip() {
        let text = "0.5\na b\nc\n0.1\na\nd e\n0.2\na b\nf\n0.3\na\n\n";
        let table = ParaphraseTable::from_reader(std::io::Cursor::new(text)).unwrap();
        assert_eq!(table.len(), 4);
        let ids: Vec<u32> = ["a", "b", "zzz"].iter().map(|w| table.word_id(w)).collect();
        assert_eq!(ids[2], UNKNOWN_WORD);
        let id = |w: &str| table.word_id(w);
        let paths = table.paths_from(&ids, 0);
        assert_eq!(paths, vec![(1, vec![id("d"), id("e")]), (1, vec![]), (2, vec![id("c")]), (2, vec![id("f")])]);
        let node = table.child(0, id("a")).unwrap();
        let found = table.node_paraphrases(node);
        assert_eq!(found.keys, &[id("d"), EMPTY_PHRASE]);
        assert_eq!(found.numbers, &[1, 3]);
        let dir = std::env::temp_dir().join(format!("nlgm-pt-test-{}", std::process::id()));
        table.write_cache(&dir).unwrap();
        let again = ParaphraseTable::read_cache(&dir).unwrap();
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(again.paths_from(&ids, 0), paths);
        assert_eq!(again.len(), 4);
    }
}
