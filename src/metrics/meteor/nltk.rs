//! NLTK's METEOR (`nltk.translate.meteor_score`, NLTK 3.10.4): greedy staged alignment (exact,
//! Porter stem, WordNet synonym), α .9 β 3 γ .5, best reference by score.
//!
//! Behaviour learned from `nltk/translate/meteor_score.py`, `nltk/stem/porter.py` (mode
//! NLTK_EXTENSIONS) and `nltk/corpus/reader/wordnet.py` (`synsets`, `_morphy`, the index/data/exc
//! file formats). Words are handled as Unicode scalar sequences, like Python strings.

use rustc_hash::{FxHashMap, FxHashSet};

// ---------------------------------------------------------------- Porter (NLTK_EXTENSIONS)

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// `PorterStemmer._is_consonant`.
fn is_consonant(word: &[char], mut i: usize) -> bool {
    if is_vowel(word[i]) {
        return false;
    }
    if word[i] == 'y' {
        let mut negate = false;
        while i > 0 && word[i] == 'y' {
            negate = !negate;
            i -= 1;
        }
        return (!is_vowel(word[i])) != negate;
    }
    true
}

/// `PorterStemmer._consonant_flags`.
fn consonant_flags(word: &[char]) -> Vec<bool> {
    let mut flags: Vec<bool> = Vec::with_capacity(word.len());
    for (i, &c) in word.iter().enumerate() {
        let flag = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !flags[i - 1]
        } else {
            true
        };
        flags.push(flag);
    }
    flags
}

/// Number of vowel→consonant transitions.
fn measure(stem: &[char]) -> usize {
    consonant_flags(stem).windows(2).filter(|w| !w[0] && w[1]).count()
}

fn contains_vowel(stem: &[char]) -> bool {
    !consonant_flags(stem).iter().all(|&c| c)
}

fn ends_double_consonant(word: &[char]) -> bool {
    let n = word.len();
    n >= 2 && word[n - 1] == word[n - 2] && is_consonant(word, n - 1)
}

fn ends_cvc(word: &[char]) -> bool {
    let n = word.len();
    (n >= 3
        && is_consonant(word, n - 3)
        && !is_consonant(word, n - 2)
        && is_consonant(word, n - 1)
        && !matches!(word[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(word, 0) && is_consonant(word, 1))
}

fn ends_with(word: &[char], suffix: &str) -> bool {
    let suffix: Vec<char> = suffix.chars().collect();
    word.len() >= suffix.len() && word[word.len() - suffix.len()..] == suffix[..]
}

fn chars_of(text: &str) -> Vec<char> {
    text.chars().collect()
}

fn strip(word: &[char], suffix: &str) -> Vec<char> {
    word[..word.len() - suffix.chars().count()].to_vec()
}

fn join(stem: &[char], ending: &str) -> Vec<char> {
    let mut out = stem.to_vec();
    out.extend(ending.chars());
    out
}

type Condition<'a> = &'a dyn Fn(&[char]) -> bool;

/// `_apply_rule_list`: the first rule whose suffix matches decides (condition false → unchanged).
fn apply_rules(word: &[char], rules: &[(&str, &str, Option<Condition<'_>>)]) -> Vec<char> {
    for (suffix, replacement, condition) in rules {
        if *suffix == "*d" && ends_double_consonant(word) {
            let stem = &word[..word.len() - 2];
            return if condition.map_or(true, |c| c(stem)) {
                join(stem, replacement)
            } else {
                word.to_vec()
            };
        }
        if ends_with(word, suffix) {
            let stem = strip(word, suffix);
            return if condition.map_or(true, |c| c(&stem)) {
                join(&stem, replacement)
            } else {
                word.to_vec()
            };
        }
    }
    word.to_vec()
}

fn positive(stem: &[char]) -> bool {
    measure(stem) > 0
}

fn step1a(word: &[char]) -> Vec<char> {
    if ends_with(word, "ies") && word.len() == 4 {
        return join(&strip(word, "ies"), "ie");
    }
    apply_rules(
        word,
        &[
            ("sses", "ss", None),
            ("ies", "i", None),
            ("ss", "ss", None),
            ("s", "", None),
        ],
    )
}

fn step1b(word: &[char]) -> Vec<char> {
    if ends_with(word, "ied") {
        return join(&strip(word, "ied"), if word.len() == 4 { "ie" } else { "i" });
    }
    if ends_with(word, "eed") {
        let stem = strip(word, "eed");
        return if measure(&stem) > 0 {
            join(&stem, "ee")
        } else {
            word.to_vec()
        };
    }
    let mut intermediate = None;
    for suffix in ["ed", "ing"] {
        if ends_with(word, suffix) {
            let stem = strip(word, suffix);
            if contains_vowel(&stem) {
                intermediate = Some(stem);
                break;
            }
        }
    }
    let Some(stem) = intermediate else { return word.to_vec() };
    let last = stem.last().copied().unwrap_or(' ');
    let last_string = last.to_string();
    let not_lsz = move |_: &[char]| !matches!(last, 'l' | 's' | 'z');
    let cvc = |s: &[char]| measure(s) == 1 && ends_cvc(s);
    apply_rules(
        &stem,
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &last_string, Some(&not_lsz)),
            ("", "e", Some(&cvc)),
        ],
    )
}

fn step1c(word: &[char]) -> Vec<char> {
    let condition = |stem: &[char]| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(&condition))])
}

fn step2(word: &[char]) -> Vec<char> {
    if ends_with(word, "alli") && positive(&strip(word, "alli")) {
        return step2(&join(&strip(word, "alli"), "al"));
    }
    let p: Condition<'_> = &positive;
    let logi = |_: &[char]| positive(&word[..word.len() - 3]);
    apply_rules(
        word,
        &[
            ("ational", "ate", Some(p)),
            ("tional", "tion", Some(p)),
            ("enci", "ence", Some(p)),
            ("anci", "ance", Some(p)),
            ("izer", "ize", Some(p)),
            ("bli", "ble", Some(p)),
            ("alli", "al", Some(p)),
            ("entli", "ent", Some(p)),
            ("eli", "e", Some(p)),
            ("ousli", "ous", Some(p)),
            ("ization", "ize", Some(p)),
            ("ation", "ate", Some(p)),
            ("ator", "ate", Some(p)),
            ("alism", "al", Some(p)),
            ("iveness", "ive", Some(p)),
            ("fulness", "ful", Some(p)),
            ("ousness", "ous", Some(p)),
            ("aliti", "al", Some(p)),
            ("iviti", "ive", Some(p)),
            ("biliti", "ble", Some(p)),
            ("fulli", "ful", Some(p)),
            ("logi", "log", Some(&logi)),
        ],
    )
}

fn step3(word: &[char]) -> Vec<char> {
    let p: Condition<'_> = &positive;
    apply_rules(
        word,
        &[
            ("icate", "ic", Some(p)),
            ("ative", "", Some(p)),
            ("alize", "al", Some(p)),
            ("iciti", "ic", Some(p)),
            ("ical", "ic", Some(p)),
            ("ful", "", Some(p)),
            ("ness", "", Some(p)),
        ],
    )
}

fn step4(word: &[char]) -> Vec<char> {
    let gt1 = |stem: &[char]| measure(stem) > 1;
    let ion = |stem: &[char]| measure(stem) > 1 && matches!(stem.last(), Some('s') | Some('t'));
    let g: Condition<'_> = &gt1;
    apply_rules(
        word,
        &[
            ("al", "", Some(g)),
            ("ance", "", Some(g)),
            ("ence", "", Some(g)),
            ("er", "", Some(g)),
            ("ic", "", Some(g)),
            ("able", "", Some(g)),
            ("ible", "", Some(g)),
            ("ant", "", Some(g)),
            ("ement", "", Some(g)),
            ("ment", "", Some(g)),
            ("ent", "", Some(g)),
            ("ion", "", Some(&ion)),
            ("ou", "", Some(g)),
            ("ism", "", Some(g)),
            ("ate", "", Some(g)),
            ("iti", "", Some(g)),
            ("ous", "", Some(g)),
            ("ive", "", Some(g)),
            ("ize", "", Some(g)),
        ],
    )
}

fn step5a(word: &[char]) -> Vec<char> {
    if ends_with(word, "e") {
        let stem = strip(word, "e");
        let m = measure(&stem);
        if m > 1 || (m == 1 && !ends_cvc(&stem)) {
            return stem;
        }
    }
    word.to_vec()
}

fn step5b(word: &[char]) -> Vec<char> {
    let condition = |_: &[char]| measure(&word[..word.len() - 1]) > 1;
    apply_rules(word, &[("ll", "l", Some(&condition))])
}

/// `nltk.stem.PorterStemmer().stem(word)` (NLTK_EXTENSIONS, lowercasing).
pub fn porter_stem(word: &str) -> String {
    let lower = word.to_lowercase();
    let irregular = match lower.as_str() {
        "sky" | "skies" => Some("sky"),
        "dying" => Some("die"),
        "lying" => Some("lie"),
        "tying" => Some("tie"),
        "news" => Some("news"),
        "innings" | "inning" => Some("inning"),
        "outings" | "outing" => Some("outing"),
        "cannings" | "canning" => Some("canning"),
        "howe" => Some("howe"),
        "proceed" => Some("proceed"),
        "exceed" => Some("exceed"),
        "succeed" => Some("succeed"),
        _ => None,
    };
    if let Some(stem) = irregular {
        return stem.to_string();
    }
    // The length test is on the word as given, before lowercasing.
    if word.chars().count() <= 2 {
        return lower;
    }
    let mut stem = chars_of(&lower);
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        stem = step(&stem);
    }
    stem.into_iter().collect()
}

// ---------------------------------------------------------------- WordNet (nltk's reader)

const POS: [&str; 4] = ["n", "v", "a", "r"];

/// The parts of NLTK's WordNet reader that `meteor_score` uses.
#[derive(Default)]
pub struct WordNet {
    /// lemma → synset keys per part of speech (n, v, a, r).
    index: FxHashMap<String, [Vec<u32>; 4]>,
    /// (part of speech, offset) → lemma names, adjective markers stripped.
    synsets: FxHashMap<(u8, u32), Vec<String>>,
    exceptions: [FxHashMap<String, Vec<String>>; 4],
}

fn morphological_substitutions(pos: usize) -> &'static [(&'static str, &'static str)] {
    match pos {
        0 => &[
            ("s", ""),
            ("ses", "s"),
            ("ves", "f"),
            ("xes", "x"),
            ("zes", "z"),
            ("ches", "ch"),
            ("shes", "sh"),
            ("men", "man"),
            ("ies", "y"),
        ],
        1 => &[
            ("s", ""),
            ("ies", "y"),
            ("es", "e"),
            ("es", ""),
            ("ed", "e"),
            ("ed", ""),
            ("ing", "e"),
            ("ing", ""),
        ],
        2 => &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
        _ => &[],
    }
}

impl WordNet {
    /// Parse the dictionary files, given as (file name, text) pairs: `index.{noun,verb,adj,adv}`,
    /// `data.{noun,verb,adj,adv}`, `{noun,verb,adj,adv}.exc`.
    pub fn parse(files: &[(String, String)]) -> WordNet {
        let mut wordnet = WordNet::default();
        let pos_of = |suffix: &str| match suffix {
            "noun" => Some(0usize),
            "verb" => Some(1),
            "adj" => Some(2),
            "adv" => Some(3),
            _ => None,
        };
        for (name, text) in files {
            if let Some(suffix) = name.strip_prefix("index.") {
                let Some(pos) = pos_of(suffix) else { continue };
                for line in text.lines() {
                    if line.starts_with(' ') {
                        continue;
                    }
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    let parse = || -> Option<(String, Vec<u32>)> {
                        let lemma = tokens.first()?.to_string();
                        let n_synsets: usize = tokens.get(2)?.parse().ok()?;
                        let n_pointers: usize = tokens.get(3)?.parse().ok()?;
                        let start = 4 + n_pointers + 2;
                        let offsets = tokens
                            .get(start..start + n_synsets)?
                            .iter()
                            .filter_map(|t| t.parse().ok())
                            .collect();
                        Some((lemma, offsets))
                    };
                    if let Some((lemma, offsets)) = parse() {
                        wordnet.index.entry(lemma).or_default()[pos] = offsets;
                    }
                }
            } else if let Some(suffix) = name.strip_prefix("data.") {
                let Some(pos) = pos_of(suffix) else { continue };
                for line in text.lines() {
                    if line.starts_with(' ') {
                        continue;
                    }
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    let (Some(offset), Some(count)) = (tokens.first(), tokens.get(3)) else {
                        continue;
                    };
                    let (Ok(offset), Ok(count)) = (offset.parse::<u32>(), usize::from_str_radix(count, 16)) else {
                        continue;
                    };
                    let names = (0..count)
                        .filter_map(|k| tokens.get(4 + 2 * k))
                        .map(|name| match name.find('(') {
                            // nltk strips a trailing "(...)" adjective marker
                            Some(at) if name.ends_with(')') => name[..at].to_string(),
                            _ => name.to_string(),
                        })
                        .collect();
                    wordnet.synsets.insert((pos as u8, offset), names);
                }
            } else if let Some(stem) = name.strip_suffix(".exc") {
                let Some(pos) = pos_of(stem) else { continue };
                for line in text.lines() {
                    let mut terms = line.split_whitespace();
                    if let Some(form) = terms.next() {
                        wordnet.exceptions[pos].insert(form.to_string(), terms.map(str::to_string).collect());
                    }
                }
            }
        }
        wordnet
    }

    fn has(&self, form: &str, pos: usize) -> bool {
        // nltk: `form in _lemma_pos_offset_map and pos in _lemma_pos_offset_map[form]`
        self.index.get(form).is_some_and(|entry| !entry[pos].is_empty())
    }

    /// `WordNetCorpusReader._morphy(form, pos)`.
    fn morphy(&self, form: &str, pos: usize) -> Vec<String> {
        let forms: Vec<String> = match self.exceptions[pos].get(form) {
            Some(bases) => bases.clone(),
            None => morphological_substitutions(pos)
                .iter()
                .filter_map(|(old, new)| form.strip_suffix(old).map(|stem| format!("{stem}{new}")))
                .collect(),
        };
        let mut result: Vec<String> = Vec::new();
        for candidate in std::iter::once(form.to_string()).chain(forms) {
            if self.has(&candidate, pos) && !result.contains(&candidate) {
                result.push(candidate);
            }
        }
        result
    }

    /// The lemma names (without "_") of every synset of `word`, plus the word itself.
    pub fn synonyms(&self, word: &str) -> FxHashSet<String> {
        let lemma = word.to_lowercase();
        let mut names: FxHashSet<String> = FxHashSet::default();
        for pos in 0..POS.len() {
            for form in self.morphy(&lemma, pos) {
                for &offset in &self.index[&form][pos] {
                    if let Some(lemma_names) = self.synsets.get(&(pos as u8, offset)) {
                        names.extend(lemma_names.iter().filter(|n| !n.contains('_')).cloned());
                    }
                }
            }
        }
        names.insert(word.to_string());
        names
    }
}

// ---------------------------------------------------------------- alignment and score

/// `_match_enums` on (original index, word) lists: greedy from the hypothesis end, each taking
/// the last unmatched equal reference word. Returns matches and the unmatched remainders.
fn match_enums(
    hyp: &[(usize, String)],
    reference: &[(usize, String)],
    out: &mut Vec<(usize, usize)>,
) -> (Vec<(usize, String)>, Vec<(usize, String)>) {
    let mut positions: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (j, (_, word)) in reference.iter().enumerate() {
        positions.entry(word.as_str()).or_default().push(j);
    }
    let mut hyp_used = vec![false; hyp.len()];
    let mut ref_used = vec![false; reference.len()];
    for i in (0..hyp.len()).rev() {
        if let Some(j) = positions.get_mut(hyp[i].1.as_str()).and_then(Vec::pop) {
            hyp_used[i] = true;
            ref_used[j] = true;
            out.push((hyp[i].0, reference[j].0));
        }
    }
    remainders(hyp, reference, &hyp_used, &ref_used)
}

fn remainders(
    hyp: &[(usize, String)],
    reference: &[(usize, String)],
    hyp_used: &[bool],
    ref_used: &[bool],
) -> (Vec<(usize, String)>, Vec<(usize, String)>) {
    (
        hyp.iter()
            .zip(hyp_used)
            .filter(|(_, &u)| !u)
            .map(|(p, _)| p.clone())
            .collect(),
        reference
            .iter()
            .zip(ref_used)
            .filter(|(_, &u)| !u)
            .map(|(p, _)| p.clone())
            .collect(),
    )
}

/// `_enum_wordnetsyn_match`: each remaining hypothesis word (from the end) takes, among its
/// synonyms present in the reference, the one whose last unmatched position is largest.
fn synonym_match(
    hyp: &[(usize, String)],
    reference: &[(usize, String)],
    wordnet: &WordNet,
    out: &mut Vec<(usize, usize)>,
) {
    let mut positions: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (j, (_, word)) in reference.iter().enumerate() {
        positions.entry(word.as_str()).or_default().push(j);
    }
    for i in (0..hyp.len()).rev() {
        let synonyms = wordnet.synonyms(&hyp[i].1);
        let mut best: Option<(usize, &str)> = None;
        for synonym in &synonyms {
            if let Some(&last) = positions.get(synonym.as_str()).and_then(|p| p.last()) {
                if best.map_or(true, |(j, _)| last > j) {
                    best = Some((last, synonym.as_str()));
                }
            }
        }
        if let Some((j, word)) = best {
            positions.get_mut(word).map(Vec::pop);
            out.push((hyp[i].0, reference[j].0));
        }
    }
}

/// `single_meteor_score` on tokens already preprocessed (lowercased): returns
/// (score, matches, chunks).
pub fn single_score(hyp: &[String], reference: &[String], wordnet: &WordNet, params: [f64; 3]) -> (f64, usize, usize) {
    let [alpha, beta, gamma] = params;
    let hyp_enum: Vec<(usize, String)> = hyp.iter().cloned().enumerate().collect();
    let ref_enum: Vec<(usize, String)> = reference.iter().cloned().enumerate().collect();
    let mut matches = Vec::new();
    let (hyp_rest, ref_rest) = match_enums(&hyp_enum, &ref_enum, &mut matches);
    let stem =
        |list: &[(usize, String)]| -> Vec<(usize, String)> { list.iter().map(|(k, w)| (*k, porter_stem(w))).collect() };
    let mut stem_matches = Vec::new();
    let (hyp_stem_rest, ref_stem_rest) = match_enums(&stem(&hyp_rest), &stem(&ref_rest), &mut stem_matches);
    // nltk hands the synonym stage the *stemmed* remainders (its quirk, reproduced).
    let mut synonym_matches = Vec::new();
    synonym_match(&hyp_stem_rest, &ref_stem_rest, wordnet, &mut synonym_matches);
    matches.extend(stem_matches);
    matches.extend(synonym_matches);
    matches.sort_by_key(|m| m.0);
    let mut chunks = 1usize;
    for pair in matches.windows(2) {
        if !(pair[1].0 == pair[0].0 + 1 && pair[1].1 == pair[0].1 + 1) {
            chunks += 1;
        }
    }
    let count = matches.len();
    if hyp.is_empty() || reference.is_empty() || count == 0 {
        return (0.0, count, chunks);
    }
    let precision = count as f64 / hyp.len() as f64;
    let recall = count as f64 / reference.len() as f64;
    let denominator = alpha * precision + (1.0 - alpha) * recall;
    if denominator == 0.0 {
        return (0.0, count, chunks);
    }
    let fmean = (precision * recall) / denominator;
    let frag = chunks as f64 / count as f64;
    let penalty = gamma * frag.powf(beta);
    ((1.0 - penalty) * fmean, count, chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porter_examples() {
        for (word, stem) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("running", "run"),
            ("generalization", "gener"),
            ("dying", "die"),
            ("agreed", "agre"),
            ("happy", "happi"),
            ("by", "by"),
        ] {
            assert_eq!(porter_stem(word), stem, "{word}");
        }
    }
}
