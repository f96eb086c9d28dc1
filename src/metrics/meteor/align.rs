//! METEOR 1.5's aligner: candidate matches from each module in order, fixed one-to-one matches,
//! then a left-to-right beam search over the reference words ([`super::beam`]).
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/aligner/{Aligner,Stage,ExactMatcher,
//! StemMatcher,SynonymMatcher,ParaphraseMatcher,PartialAlignment}.java` and `Constants.PARTIAL_COMPARE_TOTAL`.
//! Words are compared by their Java `String.hashCode()`, exactly as the jar does (so its rare hash
//! collisions are reproduced too). Line 1 is the hypothesis, line 2 the reference; lines are
//! indices into a [`WordTable`] whose per-word features were computed once.

use super::beam::{self, BeamScratch};
use super::features::{WordTable, NO_NODE};
use super::params::Module;
use super::paraphrase::{ParaphraseTable, EMPTY_PHRASE, UNKNOWN_WORD};
pub use super::types::{java_hash, Candidates, Match, Matchers};

/// The default bound on a pair's candidate matches. The jar has none, but its work and memory grow
/// with beam × candidates: 10 million (enough for 3,000 identical words against 3,000, 9 million;
/// a real 100-word sentence pair has a few hundred) keeps a pair under about 400 MB.
pub const DEFAULT_MAX_CANDIDATES: usize = 10_000_000;

/// The largest `max_candidates` accepted: 50 million candidates take about 2 GB (an allocation that fails
/// beyond what the machine has aborts the process, so the option itself is bounded).
pub const MAX_CANDIDATES_LIMIT: usize = 50_000_000;

impl Candidates {
    fn reset(&mut self, n1: usize, n2: usize, limit: usize) {
        self.proposed.clear();
        self.limit = limit;
        self.overflowed = false;
        self.coverage1.clear();
        self.coverage1.resize(n1, 0);
        self.coverage2.clear();
        self.coverage2.resize(n2, 0);
    }

    fn add(&mut self, m: Match) {
        if self.proposed.len() >= self.limit {
            self.overflowed = true;
            return;
        }
        for k in m.match_start..m.match_start + m.match_length {
            self.coverage1[k as usize] += 1;
        }
        for k in m.start..m.start + m.length {
            self.coverage2[k as usize] += 1;
        }
        self.proposed.push(m);
    }

    /// Stable counting sort of the proposed candidates by reference start.
    fn group(&mut self, n2: usize) {
        self.offsets.clear();
        self.offsets.resize(n2 + 1, 0);
        for m in &self.proposed {
            self.offsets[m.start as usize + 1] += 1;
        }
        for j in 0..n2 {
            self.offsets[j + 1] += self.offsets[j];
        }
        self.sorted.clear();
        self.sorted.resize(self.proposed.len(), self.proposed.first().copied().unwrap_or(word_match(0, 0, 0)));
        let mut cursor: Vec<u32> = self.offsets[..n2].to_vec();
        for m in &self.proposed {
            let slot = &mut cursor[m.start as usize];
            self.sorted[*slot as usize] = *m;
            *slot += 1;
        }
    }

    pub fn by_start(&self, j: usize) -> &[Match] {
        &self.sorted[self.offsets[j] as usize..self.offsets[j + 1] as usize]
    }
}

fn word_match(stage: u8, j: usize, i: usize) -> Match {
    Match { start: j as u32, length: 1, match_start: i as u32, match_length: 1, stage }
}

/// Reusable buffers of one aligning thread.
#[derive(Default)]
pub struct AlignScratch {
    keys1: Vec<i32>,
    keys2: Vec<i32>,
    /// (synset, hypothesis position) pairs, sorted, and a bitset of hypothesis positions.
    synsets1: Vec<(u32, u32)>,
    shared: Vec<u64>,
    pub candidates: Candidates,
    paraphrase: ParaphraseScratch,
    beam: BeamScratch,
    /// The last alignment: the match chosen at each reference start position.
    pub result: Vec<Option<Match>>,
}

/// Align hypothesis `line1` with reference `line2`; the best alignment's matches, indexed by
/// reference start position.
pub fn align<'s>(
    line1: &[u32],
    line2: &[u32],
    words: &WordTable,
    matchers: &Matchers<'_>,
    scratch: &'s mut AlignScratch,
) -> &'s [Option<Match>] {
    let (n1, n2) = (line1.len(), line2.len());
    let info = |w: u32| &words.infos[w as usize];
    scratch.keys1.clear();
    scratch.keys1.extend(line1.iter().map(|&w| info(w).hash));
    scratch.keys2.clear();
    scratch.keys2.extend(line2.iter().map(|&w| info(w).hash));
    let (keys1, keys2) = (&scratch.keys1, &scratch.keys2);
    let stage = &mut scratch.candidates;
    stage.reset(n1, n2, matchers.max_candidates);

    // Identical sentences need only the first module (the jar's guard against beam errors).
    let modules_used = if keys1 == keys2 { 1.min(matchers.modules.len()) } else { matchers.modules.len() };
    for (position, module) in matchers.modules[..modules_used].iter().enumerate() {
        let stage_id = position as u8;
        match module {
            Module::Exact => {
                for (j, key2) in keys2.iter().enumerate().take(n2) {
                    if stage.overflowed {
                        break;
                    }
                    for (i, key1) in keys1.iter().enumerate().take(n1) {
                        if key1 == key2 {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Stem => {
                for j in 0..n2 {
                    if stage.overflowed {
                        break;
                    }
                    let stem2 = info(line2[j]).stem;
                    for i in 0..n1 {
                        if info(line1[i]).stem == stem2 && keys1[i] != keys2[j] {
                            stage.add(word_match(stage_id, j, i));
                        }
                    }
                }
            }
            Module::Synonym => {
                let (index, shared) = (&mut scratch.synsets1, &mut scratch.shared);
                index.clear();
                for (i, &word) in line1.iter().enumerate() {
                    index.extend(words.synsets_of(word).iter().map(|&synset| (synset, i as u32)));
                }
                index.sort_unstable();
                for j in 0..n2 {
                    if stage.overflowed {
                        break;
                    }
                    // Hypothesis positions sharing a synset with reference word j, in ascending order.
                    shared.clear();
                    shared.resize(n1.div_ceil(64), 0);
                    for &synset in words.synsets_of(line2[j]) {
                        let begin = index.partition_point(|&(s, _)| s < synset);
                        for &(_, i) in index[begin..].iter().take_while(|&&(s, _)| s == synset) {
                            shared[i as usize / 64] |= 1 << (i % 64);
                        }
                    }
                    for (block, &bits) in shared.iter().enumerate() {
                        let mut bits = bits;
                        while bits != 0 {
                            let i = block * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            if keys1[i] != keys2[j] {
                                stage.add(word_match(stage_id, j, i));
                            }
                        }
                    }
                }
            }
            Module::Paraphrase => {
                let Some(table) = matchers.paraphrases else { continue };
                paraphrase_matches(table, stage_id, line1, line2, words, &mut scratch.paraphrase, stage);
            }
        }
    }
    if stage.overflowed {
        // Too many candidates to search (the caller reports it): no alignment.
        scratch.result.clear();
        scratch.result.resize(n2, None);
        return &scratch.result;
    }
    stage.group(n2);

    // One-to-one candidates that no other candidate touches are fixed before the search.
    let fixed = &mut scratch.result;
    fixed.clear();
    fixed.resize(n2, None);
    for (j, slot) in fixed.iter_mut().enumerate() {
        if let [m] = stage.by_start(j) {
            let alone = (0..m.length).all(|k| stage.coverage2[j + k as usize] == 1)
                && (0..m.match_length).all(|k| stage.coverage1[(m.match_start + k) as usize] == 1);
            if alone {
                *slot = Some(*m);
            }
        }
    }
    beam::resolve(stage, fixed, n1, matchers, &mut scratch.beam);
    &scratch.result
}

/// Per-line paraphrase-table ids and a sorted (id, position) index of the line to search in.
#[derive(Default)]
struct ParaphraseScratch {
    ids1: Vec<u32>,
    ids2: Vec<u32>,
    index: Vec<(u32, u32)>,
    distinct: Vec<(u32, u32, u32)>,
    /// (paraphrase number, position, paraphrase length).
    found: Vec<(u32, u32, u32)>,
}

/// `ParaphraseMatcher.match`: paraphrases of reference phrases found in the hypothesis, then of
/// hypothesis phrases found in the reference; per start position, shorter table phrases first,
/// each phrase's paraphrases in file order, positions ascending.
fn paraphrase_matches(
    table: &ParaphraseTable,
    stage_id: u8,
    line1: &[u32],
    line2: &[u32],
    words: &WordTable,
    scratch: &mut ParaphraseScratch,
    stage: &mut Candidates,
) {
    let ParaphraseScratch { ids1, ids2, index, distinct, found } = scratch;
    ids1.clear();
    ids1.extend(line1.iter().map(|&w| words.infos[w as usize].para_id));
    ids2.clear();
    ids2.extend(line2.iter().map(|&w| words.infos[w as usize].para_id));
    for reverse in [false, true] {
        // `from`: the line whose phrases are looked up; `within`: where their paraphrases are sought.
        let (from, from_words, within) = if reverse { (&*ids1, line1, &*ids2) } else { (&*ids2, line2, &*ids1) };
        index_line(within, index, distinct);
        for start in 0..from.len() {
            let mut node = words.infos[from_words[start] as usize].para_node;
            let mut length = 1;
            while node != NO_NODE {
                phrase_occurrences(table, node, within, index, distinct, found);
                for &(_, at, size) in found.iter() {
                    stage.add(if reverse {
                        Match {
                            start: at,
                            length: size,
                            match_start: start as u32,
                            match_length: length as u32,
                            stage: stage_id,
                        }
                    } else {
                        Match {
                            start: start as u32,
                            length: length as u32,
                            match_start: at,
                            match_length: size,
                            stage: stage_id,
                        }
                    });
                }
                if start + length == from.len() {
                    break;
                }
                node = table.child(node, from[start + length]).unwrap_or(NO_NODE);
                length += 1;
            }
        }
    }
}

/// Sorted (word id, position) pairs of a line's known words, and per distinct id its range.
fn index_line(line: &[u32], index: &mut Vec<(u32, u32)>, distinct: &mut Vec<(u32, u32, u32)>) {
    index.clear();
    index.extend(line.iter().enumerate().filter(|(_, &w)| w != UNKNOWN_WORD).map(|(at, &w)| (w, at as u32)));
    index.sort_unstable();
    distinct.clear();
    for (k, &(word, _)) in index.iter().enumerate() {
        match distinct.last_mut() {
            Some(last) if last.0 == word => last.2 = k as u32 + 1,
            _ => distinct.push((word, k as u32, k as u32 + 1)),
        }
    }
}

/// Every (paraphrase, position, length) where one of a trie node's paraphrases occurs in `line`,
/// sorted (the jar's order: paraphrases in file order, positions ascending). Only paraphrases whose
/// first word is in the line are looked at: the node's paraphrases are grouped by first word, so
/// the smaller of (its groups, the line's distinct words) is walked.
fn phrase_occurrences(
    table: &ParaphraseTable,
    node: u32,
    line: &[u32],
    index: &[(u32, u32)],
    distinct: &[(u32, u32, u32)],
    out: &mut Vec<(u32, u32, u32)>,
) {
    out.clear();
    let node = table.node_paraphrases(node);
    let keys = node.keys;
    if keys.is_empty() {
        return;
    }
    let try_positions = |k: usize, (_, begin, end): (u32, u32, u32), out: &mut Vec<(u32, u32, u32)>| {
        let words = node.words(k);
        for &(_, at) in &index[begin as usize..end as usize] {
            // The first word is known to match.
            let at = at as usize;
            if line.len() >= at + words.len() && line[at + 1..at + words.len()] == words[1..] {
                out.push((node.numbers[k], at as u32, words.len() as u32));
            }
        }
    };
    // Paraphrases with no words occur at every position.
    let empties = keys.partition_point(|&k| k < EMPTY_PHRASE);
    for &number in &node.numbers[empties..] {
        out.extend((0..line.len() as u32).map(|at| (number, at, 0)));
    }
    let keys = &keys[..empties];
    if keys.len() <= 8 * distinct.len() {
        let mut d = 0;
        for (k, &key) in keys.iter().enumerate() {
            while d < distinct.len() && distinct[d].0 < key {
                d += 1;
            }
            if d == distinct.len() {
                break;
            }
            if distinct[d].0 == key {
                try_positions(k, distinct[d], out);
            }
        }
    } else {
        for &group in distinct {
            let begin = keys.partition_point(|&k| k < group.0);
            let end = begin + keys[begin..].partition_point(|&k| k <= group.0);
            for k in begin..end {
                try_positions(k, group, out);
            }
        }
    }
    out.sort_unstable();
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
        let matchers =
            Matchers { modules: &modules, paraphrases: None, beam_size: 40, max_candidates: DEFAULT_MAX_CANDIDATES };
        let lines = ["the cat sat on the mat", "on the mat the cat sat"];
        let interned = super::super::features::InternedLines::new(&lines);
        let function_words = Default::default();
        let sources = super::super::features::FeatureSources {
            modules: &modules,
            stemmer: None,
            synonyms: None,
            paraphrases: None,
            function_words: &function_words,
            char_based: false,
        };
        let words = WordTable::build(&interned.words, &sources);
        let mut scratch = AlignScratch::default();
        let best = align(interned.line(0), interned.line(1), &words, &matchers, &mut scratch);
        assert_eq!(count_and_chunks(best), (6, 6, 2));
    }
}
