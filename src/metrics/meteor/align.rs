//! METEOR 1.5's aligner: candidate matches from each module in order, fixed one-to-one matches,
//! then a left-to-right beam search over the reference words.
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/{Aligner,Stage,ExactMatcher,
//! StemMatcher,SynonymMatcher,ParaphraseMatcher,PartialAlignment}.java` and `Constants.PARTIAL_COMPARE_TOTAL`.
//! Words are compared by their Java `String.hashCode()`, exactly as the jar does (so its rare hash
//! collisions are reproduced too). Line 1 is the hypothesis, line 2 the reference.

use std::cmp::Ordering;

use super::params::Module;
use super::paraphrase::ParaphraseTable;
use super::synonyms::{share_synset, SynonymDictionary};

/// One aligned phrase pair. `start`/`length` index the reference, `match_start`/`match_length`
/// the hypothesis, `stage` is the position of the module that proposed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub start: u32,
    pub length: u32,
    pub match_start: u32,
    pub match_length: u32,
    pub stage: u8,
}

/// Java's `String.hashCode()`: 31-polynomial over UTF-16 code units, wrapping.
pub fn java_hash(word: &str) -> i32 {
    let mut hash: i32 = 0;
    for unit in word.encode_utf16() {
        hash = hash.wrapping_mul(31).wrapping_add(unit as i32);
    }
    hash
}

/// What a module needs to look words up.
pub struct Matchers<'a> {
    pub modules: &'a [Module],
    pub stemmer: Option<&'a (dyn Fn(&str) -> String + Sync)>,
    pub synonyms: Option<&'a SynonymDictionary>,
    pub paraphrases: Option<&'a ParaphraseTable>,
    pub beam_size: usize,
}

/// Candidate matches per reference start index, plus how many candidates cover each word.
struct Stage {
    matches: Vec<Vec<Match>>,
    coverage1: Vec<u32>,
    coverage2: Vec<u32>,
}

impl Stage {
    fn add(&mut self, m: Match) {
        for k in 0..m.match_length {
            self.coverage1[(m.match_start + k) as usize] += 1;
        }
        for k in 0..m.length {
            self.coverage2[(m.start + k) as usize] += 1;
        }
        self.matches[m.start as usize].push(m);
    }
}

fn word_match(stage: u8, j: usize, i: usize) -> Match {
    Match { start: j as u32, length: 1, match_start: i as u32, match_length: 1, stage }
}

/// A beam-search state (`PartialAlignment`).
#[derive(Clone)]
struct Path {
    matches: Vec<Option<Match>>,
    used1: Vec<bool>,
    used2: Vec<bool>,
    matches1: i32,
    matches2: i32,
    chunks: i32,
    idx: usize,
    last_match_end: i64,
    distance: i32,
}

impl Path {
    fn is_used(&self, m: &Match) -> bool {
        (m.start..m.start + m.length).any(|k| self.used2[k as usize])
            || (m.match_start..m.match_start + m.match_length).any(|k| self.used1[k as usize])
    }

    fn set_used(&mut self, m: &Match) {
        for k in m.start..m.start + m.length {
            self.used2[k as usize] = true;
        }
        for k in m.match_start..m.match_start + m.match_length {
            self.used1[k as usize] = true;
        }
    }

    /// Weighted coverage accumulates in Java `int` fields: `int += double` truncates the sum.
    fn add_weighted(&mut self, m: &Match, weight: f64) {
        self.matches1 = (self.matches1 as f64 + m.match_length as f64 * weight) as i32;
        self.matches2 = (self.matches2 as f64 + m.length as f64 * weight) as i32;
    }
}

/// `PARTIAL_COMPARE_TOTAL`: more weighted matches, then fewer chunks, then less distance.
fn compare(x: &Path, y: &Path) -> Ordering {
    (y.matches1 + y.matches2)
        .cmp(&(x.matches1 + x.matches2))
        .then(x.chunks.cmp(&y.chunks))
        .then(x.distance.cmp(&y.distance))
}

/// The best alignment's matches, indexed by reference start position.
pub fn align(hyp: &[&str], reference: &[&str], matchers: &Matchers<'_>) -> Vec<Option<Match>> {
    let (n1, n2) = (hyp.len(), reference.len());
    let keys1: Vec<i32> = hyp.iter().map(|w| java_hash(w)).collect();
    let keys2: Vec<i32> = reference.iter().map(|w| java_hash(w)).collect();
    let mut stage = Stage { matches: vec![Vec::new(); n2], coverage1: vec![0; n1], coverage2: vec![0; n2] };

    // Identical sentences need only the first module (the jar's guard against beam errors).
    let modules_used = if keys1 == keys2 { 1.min(matchers.modules.len()) } else { matchers.modules.len() };
    for (position, module) in matchers.modules[..modules_used].iter().enumerate() {
        let stage_id = position as u8;
        match module {
            Module::Exact => {
                for j in 0..n2 {
                    for i in 0..n1 {
                        if keys1[i] == keys2[j] {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Stem => {
                let Some(stem) = matchers.stemmer else { continue };
                let stems1: Vec<i32> = hyp.iter().map(|w| java_hash(&stem(w))).collect();
                let stems2: Vec<i32> = reference.iter().map(|w| java_hash(&stem(w))).collect();
                for j in 0..n2 {
                    for i in 0..n1 {
                        if stems1[i] == stems2[j] && keys1[i] != keys2[j] {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Synonym => {
                let Some(dictionary) = matchers.synonyms else { continue };
                let sets1: Vec<Vec<u32>> = hyp.iter().map(|w| dictionary.word_synsets(w)).collect();
                let sets2: Vec<Vec<u32>> = reference.iter().map(|w| dictionary.word_synsets(w)).collect();
                for j in 0..n2 {
                    for i in 0..n1 {
                        if keys1[i] != keys2[j] && share_synset(&sets1[i], &sets2[j]) {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Paraphrase => {
                let Some(table) = matchers.paraphrases else { continue };
                paraphrase_matches(table, stage_id, hyp, reference, &mut stage);
            }
        }
    }

    // One-to-one candidates that no other candidate touches are fixed before the search.
    let mut start = Path {
        matches: vec![None; n2],
        used1: vec![false; n1],
        used2: vec![false; n2],
        matches1: 0,
        matches2: 0,
        chunks: 0,
        idx: 0,
        last_match_end: -1,
        distance: 0,
    };
    for (i, candidates) in stage.matches.iter().enumerate() {
        if let [m] = candidates.as_slice() {
            let alone = (0..m.length).all(|k| stage.coverage2[i + k as usize] == 1)
                && (0..m.match_length).all(|k| stage.coverage1[(m.match_start + k) as usize] == 1);
            if alone {
                start.matches[i] = Some(*m);
                start.set_used(m);
            }
        }
    }
    resolve(&stage, start, matchers).matches
}

fn paraphrase_matches(table: &ParaphraseTable, stage_id: u8, hyp: &[&str], reference: &[&str], stage: &mut Stage) {
    let line1: Vec<u32> = hyp.iter().map(|w| table.word_id(w)).collect();
    let line2: Vec<u32> = reference.iter().map(|w| table.word_id(w)).collect();
    let mut paths = Vec::new();
    let occurs_at = |line: &[u32], at: usize, words: &[u32]| line.len() >= at + words.len() && line[at..at + words.len()] == *words;
    // Paraphrases of reference phrases found in the hypothesis.
    for j in 0..line2.len() {
        table.paths_from(&line2, j, &mut paths);
        for &(length, index) in &paths {
            let words = table.paraphrase(index);
            for i in 0..line1.len() {
                if occurs_at(&line1, i, words) {
                    stage.add(Match {
                        start: j as u32,
                        length: length as u32,
                        match_start: i as u32,
                        match_length: words.len() as u32,
                        stage: stage_id,
                    });
                }
            }
        }
    }
    // Paraphrases of hypothesis phrases found in the reference.
    for i in 0..line1.len() {
        table.paths_from(&line1, i, &mut paths);
        for &(length, index) in &paths {
            let words = table.paraphrase(index);
            for j in 0..line2.len() {
                if occurs_at(&line2, j, words) {
                    stage.add(Match {
                        start: j as u32,
                        length: words.len() as u32,
                        match_start: i as u32,
                        match_length: length as u32,
                        stage: stage_id,
                    });
                }
            }
        }
    }
}

/// The beam search (`Aligner.resolve`), including the jar's quirk of charging each expanded
/// candidate's distance to the parent path (so later siblings and the skip path inherit it).
fn resolve(stage: &Stage, start: Path, matchers: &Matchers<'_>) -> Path {
    let n2 = stage.matches.len();
    let weight = |m: &Match| matchers.modules[m.stage as usize].search_weight();
    let mut next_paths = vec![start];
    for current in 0..=n2 {
        let mut paths = std::mem::take(&mut next_paths);
        paths.sort_by(compare);
        let first = paths.first().cloned();
        paths.truncate(matchers.beam_size);
        for mut path in paths {
            if current == n2 {
                if path.last_match_end != -1 {
                    path.chunks += 1;
                }
                next_paths.push(path);
                continue;
            }
            if path.used2[current] {
                if current < path.idx {
                    next_paths.push(path);
                } else if let Some(m) = path.matches[path.idx] {
                    path.add_weighted(&m, weight(&m));
                    if path.last_match_end != -1 && m.match_start as i64 != path.last_match_end {
                        path.chunks += 1;
                    }
                    path.idx = (m.start + m.length) as usize;
                    path.last_match_end = (m.match_start + m.match_length) as i64;
                    path.distance += (m.start as i32 - m.match_start as i32).abs();
                    next_paths.push(path);
                }
                continue;
            }
            for m in &stage.matches[current] {
                if path.is_used(m) {
                    continue;
                }
                let mut new_path = path.clone();
                new_path.set_used(m);
                new_path.matches[current] = Some(*m);
                new_path.add_weighted(m, weight(m));
                if new_path.last_match_end != -1 && m.match_start as i64 != new_path.last_match_end {
                    new_path.chunks += 1;
                }
                new_path.idx = (m.start + m.length) as usize;
                new_path.last_match_end = (m.match_start + m.match_length) as i64;
                path.distance += (m.start as i32 - m.match_start as i32).abs();
                next_paths.push(new_path);
            }
            if path.last_match_end != -1 {
                path.chunks += 1;
                path.last_match_end = -1;
            }
            path.idx += 1;
            next_paths.push(path);
        }
        if next_paths.is_empty() {
            if let Some(first) = first {
                next_paths.push(first);
            }
        }
    }
    next_paths.sort_by(compare);
    next_paths.swap_remove(0)
}

/// (hypothesis words matched, reference words matched, chunks) of a final alignment
/// (`Aligner.getCountAndChunks`).
pub fn count_and_chunks(matches: &[Option<Match>]) -> (u32, u32, u32) {
    let (mut matched1, mut matched2, mut chunks) = (0, 0, 0);
    let mut idx = 0usize;
    let mut last_match_end: i64 = -1;
    while idx < matches.len() {
        match matches[idx] {
            None => {
                if last_match_end != -1 {
                    chunks += 1;
                    last_match_end = -1;
                }
                idx += 1;
            }
            Some(m) => {
                matched1 += m.match_length;
                matched2 += m.length;
                if last_match_end != -1 && m.match_start as i64 != last_match_end {
                    chunks += 1;
                }
                idx = (m.start + m.length) as usize;
                last_match_end = (m.match_start + m.match_length) as i64;
            }
        }
    }
    if last_match_end != -1 {
        chunks += 1;
    }
    (matched1, matched2, chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_string_hash() {
        assert_eq!(java_hash(""), 0);
        assert_eq!(java_hash("a"), 97);
        assert_eq!(java_hash("Aa"), java_hash("BB"));
        assert_eq!(java_hash("hello"), 99162322);
    }

    #[test]
    fn exact_alignment_and_chunks() {
        let modules = [Module::Exact];
        let matchers = Matchers { modules: &modules, stemmer: None, synonyms: None, paraphrases: None, beam_size: 40 };
        let hyp = ["the", "cat", "sat", "on", "the", "mat"];
        let reference = ["on", "the", "mat", "the", "cat", "sat"];
        let best = align(&hyp, &reference, &matchers);
        assert_eq!(count_and_chunks(&best), (6, 6, 2));
    }
}
