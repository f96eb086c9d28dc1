//! The WordNet synonym dictionary shipped in meteor-1.5.jar (`synonym/english.{synsets,exceptions}`)
//! and its lookup rules, including the jar's WordNet-3 style morphology fallback.
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/SynonymDictionary.java`
//! and `SynonymMatcher.java`.

use rustc_hash::FxHashMap;

use super::normalize::java_len;

/// Word → synset ids, and irregular inflected form → base forms.
#[derive(Debug, Default)]
pub struct SynonymDictionary {
    synsets: FxHashMap<String, Vec<u32>>,
    bases: FxHashMap<String, Vec<String>>,
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
        let mut synsets = FxHashMap::default();
        for (word, ids) in line_pairs(synsets_text) {
            let mut set: Vec<u32> = super::normalize::java_tokens(ids).filter_map(|id| id.parse().ok()).collect();
            set.sort_unstable();
            set.dedup();
            synsets.insert(word.to_string(), set);
        }
        SynonymDictionary { synsets, bases }
    }

    fn synsets_of(&self, word: &str) -> &[u32] {
        self.synsets.get(word).map(Vec::as_slice).unwrap_or(&[])
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
                if self.synsets.contains_key(&candidate) {
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
