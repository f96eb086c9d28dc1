//! METEOR paraphrase tables (`paraphrase-<lang>.gz`): a prefix trie over reference phrases whose
//! nodes list paraphrase indices in file order, as `ParaphraseTransducer.java` in cmu-mtlab/meteor.
//!
//! Stored compactly: the vocabulary sorted (lookup by binary search), trie children per node sorted
//! by word (CSR), emitted paraphrases per node (CSR, file order), paraphrase word lists (CSR). The
//! arrays live in one [`Blob`] that is also the binary cache's content, so a later process maps the
//! cache file and reads only the pages its words lead to.

use std::io::BufRead;
use std::path::Path;

use rustc_hash::FxHashMap;

use super::blob::{self, Blob, Raw};
use crate::error::{Error, Result};

/// Id of a word absent from the table's vocabulary (the jar's `-1`).
pub const UNKNOWN_WORD: u32 = u32::MAX;

const CACHE_MAGIC: &[u8; 16] = b"NLGM-METEOR-PT03";
/// Sections: vocabulary bytes, then the nine `u32` arrays in [`ParaphraseTable`] order.
const SECTIONS: usize = 10;

/// Grouping key of paraphrases with no words (they occur at every position).
pub const EMPTY_PHRASE: u32 = u32::MAX - 1;

pub struct ParaphraseTable {
    vocab_bytes: Raw<u8>,
    vocab_offsets: Raw<u32>,
    child_offsets: Raw<u32>,
    child_words: Raw<u32>,
    child_nodes: Raw<u32>,
    emit_offsets: Raw<u32>,
    /// Per node, its paraphrases sorted by (first word, file order); `emit_keys` holds the first words.
    emits: Raw<u32>,
    emit_keys: Raw<u32>,
    para_offsets: Raw<u32>,
    para_words: Raw<u32>,
    blob: Blob,
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
    Error::InvalidOption(format!(
        "cannot read METEOR paraphrase table {}: {error}",
        path.display()
    ))
}

/// Turn per-item (group, value) pairs, given in item order, into CSR offsets + values, keeping order.
fn to_csr(groups: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; groups + 1];
    for &(group, _) in pairs {
        offsets[group as usize + 1] += 1;
    }
    for i in 0..groups {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets.clone();
    let mut values = vec![0u32; pairs.len()];
    for &(group, value) in pairs {
        values[cursor[group as usize] as usize] = value;
        cursor[group as usize] += 1;
    }
    (offsets, values)
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
        let mut edges: Vec<(u32, u32, u32)> = children
            .into_iter()
            .map(|((parent, word), child)| (parent, new_id[word as usize], child))
            .collect();
        edges.sort_unstable();
        let mut child_offsets = vec![0u32; node_count as usize + 1];
        for &(parent, _, _) in &edges {
            child_offsets[parent as usize + 1] += 1;
        }
        for i in 0..node_count as usize {
            child_offsets[i + 1] += child_offsets[i];
        }
        let child_words: Vec<u32> = edges.iter().map(|e| e.1).collect();
        let child_nodes: Vec<u32> = edges.iter().map(|e| e.2).collect();
        let (emit_offsets, emits) = to_csr(node_count as usize, &emit_pairs);
        for pair in &mut para_pairs {
            pair.1 = new_id[pair.1 as usize];
        }
        let (para_offsets, para_words) = to_csr(paraphrase_count as usize, &para_pairs);
        let first_word = |p: u32| {
            let (a, b) = (para_offsets[p as usize] as usize, para_offsets[p as usize + 1] as usize);
            if a == b {
                EMPTY_PHRASE
            } else {
                para_words[a]
            }
        };
        let mut emits = emits;
        for node in 0..node_count as usize {
            let range = emit_offsets[node] as usize..emit_offsets[node + 1] as usize;
            emits[range].sort_unstable_by_key(|&p| (first_word(p), p));
        }
        let emit_keys: Vec<u32> = emits.iter().map(|&p| first_word(p)).collect();
        let arrays: [&[u32]; 9] = [
            &vocab_offsets,
            &child_offsets,
            &child_words,
            &child_nodes,
            &emit_offsets,
            &emits,
            &emit_keys,
            &para_offsets,
            &para_words,
        ];
        let mut sections: Vec<Vec<u8>> = vec![vocab_bytes];
        sections.extend(arrays.iter().map(|a| blob::u32_bytes(a)));
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
        let mut arrays = [Raw::of(&[][..]); 9];
        for (array, section) in arrays.iter_mut().zip(&sections[1..]) {
            *array = Raw::of(blob.section_u32s(*section)?);
        }
        let [vocab_offsets, child_offsets, child_words, child_nodes, emit_offsets, emits, emit_keys, para_offsets, para_words] =
            arrays;
        let table = ParaphraseTable {
            vocab_bytes,
            vocab_offsets,
            child_offsets,
            child_words,
            child_nodes,
            emit_offsets,
            emits,
            emit_keys,
            para_offsets,
            para_words,
            blob,
        };
        let last = |raw: Raw<u32>| table.get(raw).last().copied().map(|v| v as usize);
        let consistent = !table.get(table.vocab_offsets).is_empty()
            && last(table.vocab_offsets) == Some(table.vocab_bytes.len)
            && !table.get(table.child_offsets).is_empty()
            && table.child_offsets.len == table.emit_offsets.len
            && last(table.child_offsets) == Some(table.child_words.len)
            && table.child_words.len == table.child_nodes.len
            && last(table.emit_offsets) == Some(table.emits.len)
            && table.emits.len == table.emit_keys.len
            && !table.get(table.para_offsets).is_empty()
            && last(table.para_offsets) == Some(table.para_words.len);
        consistent.then_some(table)
    }

    fn get<T>(&self, raw: Raw<T>) -> &[T] {
        // SAFETY: every Raw was made from a slice of `self.blob`, which lives and stays put as long as `self`.
        unsafe { raw.get() }
    }

    /// Write the binary cache (atomically: temp file then rename).
    pub fn write_cache(&self, path: &Path) -> Result<()> {
        blob::write_atomic(path, self.blob.bytes()).map_err(|e| {
            Error::InvalidOption(format!("cannot write METEOR paraphrase cache {}: {e}", path.display()))
        })
    }

    /// Open a binary cache written by [`write_cache`](Self::write_cache) (memory-mapped).
    pub fn read_cache(path: &Path) -> Result<ParaphraseTable> {
        let blob = Blob::open(path).map_err(|e| io_error(path, e))?;
        Self::from_blob(blob).ok_or_else(|| Error::InvalidOption(format!("corrupt METEOR paraphrase cache {}", path.display())))
    }

    /// The table's id of a word, or [`UNKNOWN_WORD`].
    pub fn word_id(&self, word: &str) -> u32 {
        let count = self.get(self.vocab_offsets).len() - 1;
        let entry = |i: usize| &self.get(self.vocab_bytes)[self.get(self.vocab_offsets)[i] as usize..self.get(self.vocab_offsets)[i + 1] as usize];
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

    /// The trie child of `node` along `word`.
    pub fn child(&self, node: u32, word: u32) -> Option<u32> {
        let range = self.get(self.child_offsets)[node as usize] as usize..self.get(self.child_offsets)[node as usize + 1] as usize;
        let words = &self.get(self.child_words)[range.clone()];
        words
            .binary_search(&word)
            .ok()
            .map(|i| self.get(self.child_nodes)[range.start + i])
    }

    /// `getReferencePaths`: (phrase length, paraphrase index) for every table phrase that starts
    /// `words[start..]`, shorter phrases first, each node's paraphrases in file order.
    pub fn paths_from(&self, words: &[u32], start: usize, out: &mut Vec<(usize, u32)>) {
        out.clear();
        let mut node = 0u32;
        for (offset, &word) in words[start..].iter().enumerate() {
            match self.child(node, word) {
                Some(next) => node = next,
                None => break,
            }
            let range = self.get(self.emit_offsets)[node as usize] as usize..self.get(self.emit_offsets)[node as usize + 1] as usize;
            let begin = out.len();
            out.extend(self.get(self.emits)[range].iter().map(|&p| (offset + 1, p)));
            out[begin..].sort_unstable(); // file order (paraphrase indices grow along the file)
        }
    }

    /// The trie nodes of the table phrases that start `words[start..]`, as (phrase length, node).
    pub fn nodes_from(&self, words: &[u32], start: usize, out: &mut Vec<(usize, u32)>) {
        out.clear();
        let mut node = 0u32;
        for (offset, &word) in words[start..].iter().enumerate() {
            match self.child(node, word) {
                Some(next) => node = next,
                None => break,
            }
            out.push((offset + 1, node));
        }
    }

    /// The paraphrases of a node whose first word is `first` (or [`EMPTY_PHRASE`]), in file order.
    pub fn node_paraphrases(&self, node: u32, first: u32) -> &[u32] {
        let range = self.get(self.emit_offsets)[node as usize] as usize..self.get(self.emit_offsets)[node as usize + 1] as usize;
        let keys = &self.get(self.emit_keys)[range.clone()];
        let begin = keys.partition_point(|&k| k < first);
        let end = keys.partition_point(|&k| k <= first);
        &self.get(self.emits)[range.start + begin..range.start + end]
    }

    /// All paraphrases of a node sorted by (first word, file order), with their first words
    /// ([`EMPTY_PHRASE`] for paraphrases without words, which sort last).
    pub fn node_paraphrases_all(&self, node: u32) -> (&[u32], &[u32]) {
        let range = self.get(self.emit_offsets)[node as usize] as usize..self.get(self.emit_offsets)[node as usize + 1] as usize;
        (&self.get(self.emit_keys)[range.clone()], &self.get(self.emits)[range])
    }

    /// The words of paraphrase `index`.
    pub fn paraphrase(&self, index: u32) -> &[u32] {
        &self.get(self.para_words)[self.get(self.para_offsets)[index as usize] as usize..self.get(self.para_offsets)[index as usize + 1] as usize]
    }

    pub fn len(&self) -> usize {
        self.get(self.para_offsets).len().saturating_sub(1)
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
        let text = "0.5\na b\nc\n0.1\na\nd e\n0.2\na b\nf\n";
        let table = ParaphraseTable::from_reader(std::io::Cursor::new(text)).unwrap();
        assert_eq!(table.len(), 3);
        let ids: Vec<u32> = ["a", "b", "zzz"].iter().map(|w| table.word_id(w)).collect();
        assert_eq!(ids[2], UNKNOWN_WORD);
        let mut paths = Vec::new();
        table.paths_from(&ids, 0, &mut paths);
        assert_eq!(paths, vec![(1, 1), (2, 0), (2, 2)]);
        let words: Vec<u32> = table.paraphrase(1).to_vec();
        assert_eq!(words, vec![table.word_id("d"), table.word_id("e")]);
        let dir = std::env::temp_dir().join(format!("nlgm-pt-test-{}", std::process::id()));
        table.write_cache(&dir).unwrap();
        let again = ParaphraseTable::read_cache(&dir).unwrap();
        std::fs::remove_file(&dir).unwrap();
        let mut paths2 = Vec::new();
        again.paths_from(&ids, 0, &mut paths2);
        assert_eq!(paths, paths2);
    }
}
