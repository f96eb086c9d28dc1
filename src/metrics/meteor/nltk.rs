//! NLTK's METEOR (`nltk.translate.meteor_score`, NLTK 3.10.4): greedy staged alignment (exact,
//! Porter stem, WordNet synonym), α .9 β 3 γ .5, best reference by score.
//!
//! Behaviour learned from `nltk/translate/meteor_score.py`, `nltk/stem/porter.py` (mode
//! NLTK_EXTENSIONS) and `nltk/corpus/reader/wordnet.py` (`synsets`, `_morphy`, the index/data/exc
//! file formats). Words are handled as Unicode scalar sequences, like Python strings.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::text::porter::porter_stem;

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
        1 => &[("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
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
                        let offsets =
                            tokens.get(start..start + n_synsets)?.iter().filter_map(|t| t.parse().ok()).collect();
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

/// The unmatched (original index, word) pairs of the hypothesis and of the reference.
type Remainders = (Vec<(usize, String)>, Vec<(usize, String)>);

/// `_match_enums` on (original index, word) lists: greedy from the hypothesis end, each taking
/// the last unmatched equal reference word. Returns matches and the unmatched remainders.
fn match_enums(hyp: &[(usize, String)], reference: &[(usize, String)], out: &mut Vec<(usize, usize)>) -> Remainders {
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
) -> Remainders {
    (
        hyp.iter().zip(hyp_used).filter(|(_, &u)| !u).map(|(p, _)| p.clone()).collect(),
        reference.iter().zip(ref_used).filter(|(_, &u)| !u).map(|(p, _)| p.clone()).collect(),
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
                if best.is_none_or(|(j, _)| last > j) {
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
