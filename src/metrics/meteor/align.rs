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
    Match {
        start: j as u32,
        length: 1,
        match_start: i as u32,
        match_length: 1,
        stage,
    }
}

/// A beam-search state (`PartialAlignment`). The matches it chose live in a shared arena as a
/// linked list (`last`), and its used words in one bitset (hypothesis bits, then reference bits),
/// so extending a path copies a few words instead of whole arrays.
#[derive(Clone)]
struct Path {
    used: Vec<u64>,
    last: u32,
    matches1: i32,
    matches2: i32,
    chunks: i32,
    idx: usize,
    last_match_end: i64,
    distance: i32,
}

const NO_MATCH: u32 = u32::MAX;

/// Bit positions of hypothesis word `i` and reference word `j` in [`Path::used`].
struct UsedLayout {
    ref_offset: usize,
}

impl UsedLayout {
    fn words(n1: usize, n2: usize) -> usize {
        (n1 + n2).div_ceil(64).max(1)
    }

    fn get(bits: &[u64], k: usize) -> bool {
        bits[k / 64] >> (k % 64) & 1 == 1
    }

    fn set(bits: &mut [u64], k: usize) {
        bits[k / 64] |= 1 << (k % 64);
    }

    fn ref_used(&self, path: &Path, j: usize) -> bool {
        Self::get(&path.used, self.ref_offset + j)
    }

    fn is_used(&self, path: &Path, m: &Match) -> bool {
        (m.start..m.start + m.length).any(|k| Self::get(&path.used, self.ref_offset + k as usize))
            || (m.match_start..m.match_start + m.match_length).any(|k| Self::get(&path.used, k as usize))
    }

    fn set_used(&self, path: &mut Path, m: &Match) {
        for k in m.start..m.start + m.length {
            Self::set(&mut path.used, self.ref_offset + k as usize);
        }
        for k in m.match_start..m.match_start + m.match_length {
            Self::set(&mut path.used, k as usize);
        }
    }
}

impl Path {
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
/// Per-word lookups a line needs for the configured modules, computed once per line (a
/// hypothesis is aligned with every reference).
pub struct LineFeatures {
    keys: Vec<i32>,
    stems: Vec<i32>,
    synsets: Vec<Vec<u32>>,
    paraphrase_ids: Vec<u32>,
}

impl LineFeatures {
    pub fn new(words: &[&str], matchers: &Matchers<'_>) -> LineFeatures {
        let uses = |module: Module| matchers.modules.contains(&module);
        LineFeatures {
            keys: words.iter().map(|w| java_hash(w)).collect(),
            stems: match (uses(Module::Stem), matchers.stemmer) {
                (true, Some(stem)) => words.iter().map(|w| java_hash(&stem(w))).collect(),
                _ => Vec::new(),
            },
            synsets: match (uses(Module::Synonym), matchers.synonyms) {
                (true, Some(dictionary)) => words.iter().map(|w| dictionary.word_synsets(w)).collect(),
                _ => Vec::new(),
            },
            paraphrase_ids: match (uses(Module::Paraphrase), matchers.paraphrases) {
                (true, Some(table)) => words.iter().map(|w| table.word_id(w)).collect(),
                _ => Vec::new(),
            },
        }
    }
}

/// The best alignment's matches, indexed by reference start position.
pub fn align(line1: &LineFeatures, line2: &LineFeatures, matchers: &Matchers<'_>) -> Vec<Option<Match>> {
    let (n1, n2) = (line1.keys.len(), line2.keys.len());
    let (keys1, keys2) = (&line1.keys, &line2.keys);
    let mut stage = Stage {
        matches: vec![Vec::new(); n2],
        coverage1: vec![0; n1],
        coverage2: vec![0; n2],
    };

    // Identical sentences need only the first module (the jar's guard against beam errors).
    let modules_used = if keys1 == keys2 {
        1.min(matchers.modules.len())
    } else {
        matchers.modules.len()
    };
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
                let (stems1, stems2) = (&line1.stems, &line2.stems);
                if stems1.len() != n1 || stems2.len() != n2 {
                    continue;
                }
                for j in 0..n2 {
                    for i in 0..n1 {
                        if stems1[i] == stems2[j] && keys1[i] != keys2[j] {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Synonym => {
                let (sets1, sets2) = (&line1.synsets, &line2.synsets);
                if sets1.len() != n1 || sets2.len() != n2 {
                    continue;
                }
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
                if line1.paraphrase_ids.len() != n1 || line2.paraphrase_ids.len() != n2 {
                    continue;
                }
                paraphrase_matches(table, stage_id, &line1.paraphrase_ids, &line2.paraphrase_ids, &mut stage);
            }
        }
    }

    // One-to-one candidates that no other candidate touches are fixed before the search.
    let layout = UsedLayout { ref_offset: n1 };
    let mut start = Path {
        used: vec![0; UsedLayout::words(n1, n2)],
        last: NO_MATCH,
        matches1: 0,
        matches2: 0,
        chunks: 0,
        idx: 0,
        last_match_end: -1,
        distance: 0,
    };
    let mut fixed: Vec<Option<Match>> = vec![None; n2];
    for (i, candidates) in stage.matches.iter().enumerate() {
        if let [m] = candidates.as_slice() {
            let alone = (0..m.length).all(|k| stage.coverage2[i + k as usize] == 1)
                && (0..m.match_length).all(|k| stage.coverage1[(m.match_start + k) as usize] == 1);
            if alone {
                fixed[i] = Some(*m);
                layout.set_used(&mut start, m);
            }
        }
    }
    let mut arena: Vec<(Match, u32)> = Vec::new();
    let best = resolve(&stage, &fixed, &layout, start, matchers, &mut arena);
    // The final alignment: the fixed matches plus those the best path chose.
    let mut matches = fixed;
    let mut node = best.last;
    while node != NO_MATCH {
        let (m, parent) = arena[node as usize];
        matches[m.start as usize] = Some(m);
        node = parent;
    }
    matches
}

fn paraphrase_matches(table: &ParaphraseTable, stage_id: u8, line1: &[u32], line2: &[u32], stage: &mut Stage) {
    let mut nodes = Vec::new();
    let mut found = Vec::new();
    // Paraphrases of reference phrases found in the hypothesis.
    for j in 0..line2.len() {
        table.nodes_from(&line2, j, &mut nodes);
        for &(length, node) in &nodes {
            phrase_occurrences(table, node, &line1, &mut found);
            for &(index, i) in &found {
                stage.add(Match {
                    start: j as u32,
                    length: length as u32,
                    match_start: i,
                    match_length: table.paraphrase(index).len() as u32,
                    stage: stage_id,
                });
            }
        }
    }
    // Paraphrases of hypothesis phrases found in the reference.
    for i in 0..line1.len() {
        table.nodes_from(&line1, i, &mut nodes);
        for &(length, node) in &nodes {
            phrase_occurrences(table, node, &line2, &mut found);
            for &(index, j) in &found {
                stage.add(Match {
                    start: j,
                    length: table.paraphrase(index).len() as u32,
                    match_start: i as u32,
                    match_length: length as u32,
                    stage: stage_id,
                });
            }
        }
    }
}

/// Every (paraphrase, position) where one of a trie node's paraphrases occurs in `line`, in the
/// jar's order (paraphrases in file order, positions ascending). Only paraphrases whose first word
/// is in the line are looked at.
fn phrase_occurrences(table: &ParaphraseTable, node: u32, line: &[u32], out: &mut Vec<(u32, u32)>) {
    out.clear();
    let occurs_at = |at: usize, words: &[u32]| line.len() >= at + words.len() && line[at..at + words.len()] == *words;
    let mut firsts: Vec<u32> = line.to_vec();
    firsts.sort_unstable();
    firsts.dedup();
    firsts.push(super::paraphrase::EMPTY_PHRASE);
    for &first in &firsts {
        for &index in table.node_paraphrases(node, first) {
            let words = table.paraphrase(index);
            for at in 0..line.len() {
                if (words.is_empty() || line[at] == first) && occurs_at(at, words) {
                    out.push((index, at as u32));
                }
            }
        }
    }
    out.sort_unstable();
}

/// The beam search (`Aligner.resolve`), including the jar's quirk of charging each expanded
/// candidate's distance to the parent path (so later siblings and the skip path inherit it).
/// A used reference word at the path's frontier can only start a fixed match: the search itself
/// only ever sets matches at the current position and then jumps past them.
fn resolve(
    stage: &Stage,
    fixed: &[Option<Match>],
    layout: &UsedLayout,
    start: Path,
    matchers: &Matchers<'_>,
    arena: &mut Vec<(Match, u32)>,
) -> Path {
    let n2 = stage.matches.len();
    let weight = |m: &Match| matchers.modules[m.stage as usize].search_weight();
    let mut next_paths = vec![start];
    let mut paths: Vec<Path> = Vec::new();
    for current in 0..=n2 {
        std::mem::swap(&mut paths, &mut next_paths);
        next_paths.clear();
        paths.sort_by(compare);
        paths.truncate(matchers.beam_size);
        let fallback = if paths.is_empty() { None } else { Some(paths[0].clone()) };
        for mut path in paths.drain(..) {
            if current == n2 {
                if path.last_match_end != -1 {
                    path.chunks += 1;
                }
                next_paths.push(path);
                continue;
            }
            if layout.ref_used(&path, current) {
                if current < path.idx {
                    next_paths.push(path);
                } else if let Some(m) = fixed[path.idx] {
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
                if layout.is_used(&path, m) {
                    continue;
                }
                let mut new_path = path.clone();
                layout.set_used(&mut new_path, m);
                arena.push((*m, new_path.last));
                new_path.last = (arena.len() - 1) as u32;
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
            next_paths.extend(fallback);
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
        let matchers = Matchers {
            modules: &modules,
            stemmer: None,
            synonyms: None,
            paraphrases: None,
            beam_size: 40,
        };
        let hyp = ["the", "cat", "sat", "on", "the", "mat"];
        let reference = ["on", "the", "mat", "the", "cat", "sat"];
        let best = align(&LineFeatures::new(&hyp, &matchers), &LineFeatures::new(&reference, &matchers), &matchers);
        assert_eq!(count_and_chunks(&best), (6, 6, 2));
    }
}
