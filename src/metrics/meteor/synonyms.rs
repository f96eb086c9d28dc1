//! The WordNet synonym dictionary shipped in meteor-1.5.jar (`synonym/english.{synsets,exceptions}`)
//! and its lookup rules, including the jar's WordNet-3 style morphology fallback.
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/SynonymDictionary.java`
//! and `SynonymMatcher.java`.

use rustc_hash::FxHashMap;

use super::normalize::java_len;

/// Word → synset ids, and irregular inflected form → base forms. Words are kept sorted in one
/// string (looked up by binary search) with their ids in one array, so parsing allocates little.
#[derive(Debug, Default)]
pub struct SynonymDictionary {
    words: SortedWords,
    id_offsets: Vec<u32>,
    ids: Vec<u32>,
    bases: FxHashMap<String, Vec<String>>,
}

/// Sorted distinct strings in one buffer.
#[derive(Debug, Default)]
struct SortedWords {
    offsets: Vec<u32>,
    text: String,
}

impl SortedWords {
    fn get(&self, k: usize) -> &str {
        &self.text[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }

    fn find(&self, word: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.offsets.len().saturating_sub(1));
        while low < high {
            let mid = (low + high) / 2;
            match self.get(mid).cmp(word) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
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

// WordNet 3 morphology suffix rules (noun, verb, adjective), as the jar lists them.
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
        let mut bases: FxHashMap<String, Vec<String>> = FxHashMap::default();
        for (base, forms) in line_pairs(exceptions_text) {
            for form in super::normalize::java_tokens(forms) {
                bases.entry(form.to_string()).or_default().push(base.to_string());
            }
        }
        // A later record for the same word replaces an earlier one (Hashtable.put).
        let mut records: Vec<(&str, &str, usize)> = line_pairs(synsets_text)
            .enumerate()
            .map(|(k, (word, ids))| (word, ids, k))
            .collect();
        records.sort_unstable_by(|a, b| a.0.cmp(b.0).then(b.2.cmp(&a.2)));
        records.dedup_by(|later, first| later.0 == first.0);
        let mut words = SortedWords {
            offsets: vec![0],
            text: String::with_capacity(synsets_text.len() / 2),
        };
        let mut id_offsets = vec![0u32];
        let mut ids = Vec::new();
        for (word, id_line, _) in records {
            words.text.push_str(word);
            words.offsets.push(words.text.len() as u32);
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
        SynonymDictionary {
            words,
            id_offsets,
            ids,
            bases,
        }
    }

    fn synsets_of(&self, word: &str) -> &[u32] {
        match self.words.find(word) {
            Some(k) => &self.ids[self.id_offsets[k] as usize..self.id_offsets[k + 1] as usize],
            None => &[],
        }
    }

    fn contains(&self, word: &str) -> bool {
        self.words.find(word).is_some()
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
    }
}
