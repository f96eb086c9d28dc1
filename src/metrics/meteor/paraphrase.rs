//! METEOR paraphrase tables (`paraphrase-<lang>.gz`): a prefix trie over reference phrases whose
//! nodes list paraphrase indices in file order, as `ParaphraseTransducer.java` in cmu-mtlab/meteor.
//!
//! Stored compactly: the vocabulary sorted (lookup by binary search), trie children per node sorted
//! by word (CSR), emitted paraphrases per node (CSR, file order), paraphrase word lists (CSR). The
//! same arrays are written to / read from a little-endian binary cache, so a second load is a copy.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};

/// Id of a word absent from the table's vocabulary (the jar's `-1`).
pub const UNKNOWN_WORD: u32 = u32::MAX;

const CACHE_MAGIC: &[u8; 16] = b"NLGM-METEOR-PT02";

/// Grouping key of paraphrases with no words (they occur at every position).
pub const EMPTY_PHRASE: u32 = u32::MAX - 1;

#[derive(Debug, Default)]
pub struct ParaphraseTable {
    vocab_offsets: Vec<u32>,
    vocab_bytes: Vec<u8>,
    child_offsets: Vec<u32>,
    child_words: Vec<u32>,
    child_nodes: Vec<u32>,
    emit_offsets: Vec<u32>,
    /// Per node, its paraphrases sorted by (first word, file order); `emit_keys` holds the first words.
    emits: Vec<u32>,
    emit_keys: Vec<u32>,
    para_offsets: Vec<u32>,
    para_words: Vec<u32>,
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

/// Fill `out` with little-endian u32s from `reader`.
fn read_u32s<R: Read>(reader: &mut R, out: &mut [u32]) -> std::io::Result<()> {
    #[cfg(target_endian = "little")]
    {
        // SAFETY: the byte view covers exactly `out`'s memory, and every bit pattern is a valid u32.
        let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, std::mem::size_of_val(out)) };
        reader.read_exact(bytes)
    }
    #[cfg(not(target_endian = "little"))]
    {
        let mut word = [0u8; 4];
        for value in out.iter_mut() {
            reader.read_exact(&mut word)?;
            *value = u32::from_le_bytes(word);
        }
        Ok(())
    }
}

impl ParaphraseTable {
    /// Parse a gzip'd table: records of three lines (probability, reference phrase, paraphrase).
    pub fn from_gzip(path: &Path) -> Result<ParaphraseTable> {
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
        let child_words = edges.iter().map(|e| e.1).collect();
        let child_nodes = edges.iter().map(|e| e.2).collect();
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
        let emit_keys = emits.iter().map(|&p| first_word(p)).collect();
        Ok(ParaphraseTable {
            vocab_offsets,
            vocab_bytes,
            child_offsets,
            child_words,
            child_nodes,
            emit_offsets,
            emits,
            emit_keys,
            para_offsets,
            para_words,
        })
    }

    fn arrays(&self) -> [&Vec<u32>; 9] {
        [
            &self.vocab_offsets,
            &self.child_offsets,
            &self.child_words,
            &self.child_nodes,
            &self.emit_offsets,
            &self.emits,
            &self.emit_keys,
            &self.para_offsets,
            &self.para_words,
        ]
    }

    /// Write the binary cache (atomically: temp file then rename).
    pub fn write_cache(&self, path: &Path) -> Result<()> {
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&temp)?);
            out.write_all(CACHE_MAGIC)?;
            out.write_all(&(self.vocab_bytes.len() as u64).to_le_bytes())?;
            out.write_all(&self.vocab_bytes)?;
            for array in self.arrays() {
                out.write_all(&(array.len() as u64).to_le_bytes())?;
                for value in array.iter() {
                    out.write_all(&value.to_le_bytes())?;
                }
            }
            out.flush()?;
            drop(out);
            std::fs::rename(&temp, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            Error::InvalidOption(format!("cannot write METEOR paraphrase cache {}: {e}", path.display()))
        })
    }

    /// Read a binary cache written by [`write_cache`](Self::write_cache).
    pub fn read_cache(path: &Path) -> Result<ParaphraseTable> {
        let bad = || Error::InvalidOption(format!("corrupt METEOR paraphrase cache {}", path.display()));
        let file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut magic = [0u8; 16];
        reader.read_exact(&mut magic).map_err(|_| bad())?;
        if &magic != CACHE_MAGIC {
            return Err(bad());
        }
        let read_len = |reader: &mut BufReader<std::fs::File>| -> Result<usize> {
            let mut bytes = [0u8; 8];
            reader.read_exact(&mut bytes).map_err(|_| bad())?;
            Ok(u64::from_le_bytes(bytes) as usize)
        };
        let n = read_len(&mut reader)?;
        let mut vocab_bytes = vec![0u8; n];
        reader.read_exact(&mut vocab_bytes).map_err(|_| bad())?;
        let mut arrays: Vec<Vec<u32>> = Vec::with_capacity(9);
        for _ in 0..9 {
            let n = read_len(&mut reader)?;
            let mut array = vec![0u32; n];
            read_u32s(&mut reader, &mut array).map_err(|_| bad())?;
            arrays.push(array);
        }
        let mut it = arrays.into_iter();
        let mut next = || it.next().unwrap();
        let table = ParaphraseTable {
            vocab_bytes,
            vocab_offsets: next(),
            child_offsets: next(),
            child_words: next(),
            child_nodes: next(),
            emit_offsets: next(),
            emits: next(),
            emit_keys: next(),
            para_offsets: next(),
            para_words: next(),
        };
        if table.vocab_offsets.last().copied() != Some(table.vocab_bytes.len() as u32)
            || table.child_offsets.len() != table.emit_offsets.len()
            || table.emits.len() != table.emit_keys.len()
        {
            return Err(bad());
        }
        Ok(table)
    }

    /// The table's id of a word, or [`UNKNOWN_WORD`].
    pub fn word_id(&self, word: &str) -> u32 {
        let count = self.vocab_offsets.len() - 1;
        let entry = |i: usize| &self.vocab_bytes[self.vocab_offsets[i] as usize..self.vocab_offsets[i + 1] as usize];
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
        let range = self.child_offsets[node as usize] as usize..self.child_offsets[node as usize + 1] as usize;
        let words = &self.child_words[range.clone()];
        words
            .binary_search(&word)
            .ok()
            .map(|i| self.child_nodes[range.start + i])
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
            let range = self.emit_offsets[node as usize] as usize..self.emit_offsets[node as usize + 1] as usize;
            let begin = out.len();
            out.extend(self.emits[range].iter().map(|&p| (offset + 1, p)));
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
        let range = self.emit_offsets[node as usize] as usize..self.emit_offsets[node as usize + 1] as usize;
        let keys = &self.emit_keys[range.clone()];
        let begin = keys.partition_point(|&k| k < first);
        let end = keys.partition_point(|&k| k <= first);
        &self.emits[range.start + begin..range.start + end]
    }

    /// All paraphrases of a node sorted by (first word, file order), with their first words
    /// ([`EMPTY_PHRASE`] for paraphrases without words, which sort last).
    pub fn node_paraphrases_all(&self, node: u32) -> (&[u32], &[u32]) {
        let range = self.emit_offsets[node as usize] as usize..self.emit_offsets[node as usize + 1] as usize;
        (&self.emit_keys[range.clone()], &self.emits[range])
    }

    /// The words of paraphrase `index`.
    pub fn paraphrase(&self, index: u32) -> &[u32] {
        &self.para_words[self.para_offsets[index as usize] as usize..self.para_offsets[index as usize + 1] as usize]
    }

    pub fn len(&self) -> usize {
        self.para_offsets.len().saturating_sub(1)
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
