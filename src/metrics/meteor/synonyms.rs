//! The WordNet synonym dictionary shipped in meteor-1.5.jar (`synonym/english.{synsets,exceptions}`)
//! and its lookup rules, including the jar's WordNet-3 style morphology fallback.
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/SynonymDictionary.java`
//! and `SynonymMatcher.java`.

use std::path::Path;

use rustc_hash::FxHashMap;

use super::blob::{self, Blob, Raw};
use super::normalize::java_len;
use crate::error::{Error, Result};

const CACHE_MAGIC: &[u8; 16] = b"NLGM-METEOR-SY02";
/// Sections: sorted words' bytes, word offsets, synset-id offsets per word, synset ids.
const SECTIONS: usize = 4;

/// Word → synset ids, and irregular inflected form → base forms. Words are kept sorted in one
/// byte string (looked up by binary search) with their ids in one array, all in one [`Blob`] that
/// is also the binary cache's content (memory-mapped when read back).
pub struct SynonymDictionary {
    text: Raw<u8>,
    offsets: Raw<u32>,
    id_offsets: Raw<u32>,
    ids: Raw<u32>,
    blob: Blob,
    bases: FxHashMap<String, Vec<String>>,
}

// SAFETY: the raw slices point into the dictionary's own read-only blob.
unsafe impl Send for SynonymDictionary {}
unsafe impl Sync for SynonymDictionary {}

impl std::fmt::Debug for SynonymDictionary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SynonymDictionary({} words)", self.offsets.len.saturating_sub(1))
    }
}

/// Java's `readLine` pairs: (first line, second line) for each record of a two-line-per-record file.
fn line_pairs(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut lines = text.lines();
    std::iter::from_fn(move || {
        let first = lines.next()?;
        Some((first, lines.next().unwrap_or("")))
    })
}

/// The exceptions file (base line, then a line of inflected forms): form → its bases in file order.
fn parse_exceptions(exceptions_text: &str) -> FxHashMap<String, Vec<String>> {
    let mut bases: FxHashMap<String, Vec<String>> = FxHashMap::default();
    for (base, forms) in line_pairs(exceptions_text) {
        for form in super::normalize::java_tokens(forms) {
            bases.entry(form.to_string()).or_default().push(base.to_string());
        }
    }
    bases
}

// WordNet 3 morphology suffix rules (noun, verb, adjective), as the jar lists them: one flat list,
// without the ("ves", "f") noun rule that NLTK's morphy has (`nltk.rs` keeps NLTK's per-POS table).
const SUFFIXES: [(&str, &str); 20] = [
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
];

impl SynonymDictionary {
    /// Parse the synsets file (word line, then a line of synset numbers) and the exceptions
    /// file (base line, then a line of inflected forms).
    pub fn parse(synsets_text: &str, exceptions_text: &str) -> SynonymDictionary {
        let bases = parse_exceptions(exceptions_text);
        // A later record for the same word replaces an earlier one (Hashtable.put).
        let mut records: Vec<(&str, &str, usize)> =
            line_pairs(synsets_text).enumerate().map(|(k, (word, ids))| (word, ids, k)).collect();
        records.sort_unstable_by(|a, b| a.0.cmp(b.0).then(b.2.cmp(&a.2)));
        records.dedup_by(|later, first| later.0 == first.0);
        let mut text: Vec<u8> = Vec::with_capacity(synsets_text.len() / 2);
        let mut offsets = vec![0u32];
        let mut id_offsets = vec![0u32];
        let mut ids = Vec::new();
        for (word, id_line, _) in records {
            text.extend_from_slice(word.as_bytes());
            offsets.push(text.len() as u32);
            let begin = ids.len();
            ids.extend(super::normalize::java_tokens(id_line).filter_map(|id| id.parse::<u32>().ok()));
            ids[begin..].sort_unstable();
            let mut end = begin;
            for k in begin..ids.len() {
                if k == begin || ids[k] != ids[end - 1] {
                    ids[end] = ids[k];
                    end += 1;
                }
            }
            ids.truncate(end);
            id_offsets.push(ids.len() as u32);
        }
        let sections = [text, blob::u32_bytes(&offsets), blob::u32_bytes(&id_offsets), blob::u32_bytes(&ids)];
        let views: Vec<&[u8]> = sections.iter().map(Vec::as_slice).collect();
        Self::from_blob(Blob::from_bytes(&blob::encode(CACHE_MAGIC, &views)), bases)
            .expect("a freshly encoded synonym dictionary is consistent")
    }

    /// The dictionary in a blob laid out by [`parse`](Self::parse), after checks that lookups stay
    /// inside it; None when the blob is not such a dictionary.
    fn from_blob(blob: Blob, bases: FxHashMap<String, Vec<String>>) -> Option<SynonymDictionary> {
        let sections = blob.sections(CACHE_MAGIC, SECTIONS)?;
        let text = Raw::of(blob.section_bytes(sections[0]));
        let offsets = Raw::of(blob.section_u32s(sections[1])?);
        let id_offsets = Raw::of(blob.section_u32s(sections[2])?);
        let ids = Raw::of(blob.section_u32s(sections[3])?);
        let dictionary = SynonymDictionary { text, offsets, id_offsets, ids, blob, bases };
        let (offsets, id_offsets) = (dictionary.get(offsets), dictionary.get(id_offsets));
        let consistent = !offsets.is_empty()
            && offsets.len() == id_offsets.len()
            && offsets.last().map(|&v| v as usize) == Some(text.len)
            && id_offsets.last().map(|&v| v as usize) == Some(ids.len);
        consistent.then_some(dictionary)
    }

    fn get<T>(&self, raw: Raw<T>) -> &[T] {
        // SAFETY: every Raw was made from a slice of `self.blob`, which lives and stays put as long as `self`.
        unsafe { raw.get() }
    }

    /// Parse only the exceptions and map the synsets from a cache written by [`write_cache`](Self::write_cache).
    pub fn from_cache(cache: &Path, exceptions_text: &str) -> Result<SynonymDictionary> {
        let blob = Blob::open(cache)
            .map_err(|e| Error::InvalidOption(format!("cannot read METEOR synonym cache {}: {e}", cache.display())))?;
        Self::from_blob(blob, parse_exceptions(exceptions_text))
            .ok_or_else(|| Error::InvalidOption(format!("corrupt METEOR synonym cache {}", cache.display())))
    }

    /// Write the synsets' binary cache (atomically).
    pub fn write_cache(&self, path: &Path) -> Result<()> {
        blob::write_atomic(path, self.blob.bytes())
            .map_err(|e| Error::InvalidOption(format!("cannot write METEOR synonym cache {}: {e}", path.display())))
    }

    /// Index of a word in the sorted word list (byte order, as `str` order).
    fn find(&self, word: &str) -> Option<usize> {
        let (text, offsets) = (self.get(self.text), self.get(self.offsets));
        let entry = |k: usize| &text[offsets[k] as usize..offsets[k + 1] as usize];
        let (mut low, mut high) = (0, offsets.len().saturating_sub(1));
        while low < high {
            let mid = (low + high) / 2;
            match entry(mid).cmp(word.as_bytes()) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    fn synsets_of(&self, word: &str) -> &[u32] {
        let id_offsets = self.get(self.id_offsets);
        match self.find(word) {
            Some(k) => &self.get(self.ids)[id_offsets[k] as usize..id_offsets[k + 1] as usize],
            None => &[],
        }
    }

    fn contains(&self, word: &str) -> bool {
        self.find(word).is_some()
    }

    /// `SynonymDictionary.morph`: the first suffix rule whose result is a WordNet word. Reproduces
    /// the jar's quirk of re-appending "ful" to the result for words ending in "ful".
    fn morph(&self, word: &str) -> String {
        let end = if word.ends_with("ful") { "ful" } else { "" };
        if word.ends_with("ss") || java_len(word) <= 2 {
            return word.to_string();
        }
        for (suffix, ending) in SUFFIXES {
            if let Some(stem) = word.strip_suffix(suffix) {
                let candidate = format!("{stem}{ending}");
                if self.contains(&candidate) {
                    return candidate + end;
                }
            }
        }
        String::new()
    }

    /// The word's synsets plus those of its base forms (`getSynSets` ∪ `getStemSynSets`), sorted.
    pub fn word_synsets(&self, word: &str) -> Vec<u32> {
        let mut set: Vec<u32> = self.synsets_of(word).to_vec();
        match self.bases.get(word) {
            Some(bases) => {
                for base in bases {
                    set.extend_from_slice(self.synsets_of(base));
                }
            }
            None => set.extend_from_slice(self.synsets_of(&self.morph(word))),
        }
        set.sort_unstable();
        set.dedup();
        set
    }
}

/// Whether two sorted synset lists share an id.
pub fn share_synset(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_through_exceptions_and_morphology() {
        let dict = SynonymDictionary::parse("car\n1 2\nauto\n2\ngo\n5\n", "go\nwent gone\n");
        assert_eq!(dict.word_synsets("cars"), vec![1, 2]);
        assert_eq!(dict.word_synsets("went"), vec![5]);
        assert!(share_synset(&dict.word_synsets("car"), &dict.word_synsets("auto")));
        assert!(dict.word_synsets("zebra").is_empty());
        let path = std::env::temp_dir().join(format!("nlgm-synonyms-test-{}", std::process::id()));
        dict.write_cache(&path).unwrap();
        let again = SynonymDictionary::from_cache(&path, "go\nwent gone\n").unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(again.word_synsets("cars"), vec![1, 2]);
        assert_eq!(again.word_synsets("went"), vec![5]);
    }
}
