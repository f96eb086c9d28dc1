//! CharCut (Lardilleux & Lepage 2017) exactly as the `charcut` package 1.1.1 computes it
//! (`charcut/charcut.py` `compare_segments`, `score_pair`), the code HF evaluate's `charcut_mt` calls.
//!
//! Both texts are stripped (`str.strip()`, as `load_input_files` does), then: every common substring
//! found word-wise (`\W` characters are single tokens; the longest common prefix and suffix are kept
//! whatever their length) and character-wise inside words (runs of non-word characters shared by the
//! words on both sides), at least `min_match` characters long, one entry per distinct string (the
//! character-wise one wins, as the reference's dict does); greedily retained longest first
//! (`order_key`), each time dropping the positions now covered; the rest are deletions and insertions.
//! Matches outside the alignment `difflib.SequenceMatcher` finds between the two orders of the
//! matches are shifts, turned back into a deletion and an insertion when `exp(len) < |distance|`.
//! Cost = deleted + inserted + shifted characters, bounded by `len(cand) + len(ref)` (or `2·len(cand)`).

use rustc_hash::FxHashMap;

use crate::error::{Error, Result};
use crate::metrics::char_ids::CharIds;
use crate::metrics::map_pairs;
use crate::metrics::qa::pystr::is_py_word;
use crate::metrics::segment::{Refs, SegmentMetric};
use crate::text::pystr::python_strip;

const PARALLEL_THRESHOLD: usize = 16;
const NONE: i64 = -1;

/// Most positions (8 bytes each) the common-substring search may hold: 24 million in its work arena and
/// as many in the matches found, about 384 MiB together (up to twice that while a vector grows). The
/// reference keeps every common substring with all its positions, which is quadratic in a repetitive
/// text (`"a a a …"` of 10,000 words needed 2.2 GB in one allocation and aborted the interpreter): a
/// pair over the limit is refused before the memory is taken. Real sentences and paragraphs use a few
/// thousand positions.
pub const MAX_POSITIONS: usize = 24 << 20;

/// The error of a pair whose common substrings need more than [`MAX_POSITIONS`].
fn too_many_positions(cand: &[char], reference: &[char]) -> Error {
    Error::InvalidOption(format!(
        "CharCut's common substrings of this pair ({} and {} characters) need more than {} million positions \
         (~{} MiB; the text repeats itself too much), more than the limit: shorten or split the segment",
        cand.len(),
        reference.len(),
        MAX_POSITIONS >> 20,
        (2 * MAX_POSITIONS * std::mem::size_of::<usize>()) >> 20
    ))
}

/// One operation of the reference's lists: `(alo, blo, substring, distance)`; `-1` marks the absent
/// side. The substring is `cand[alo..alo+len]`, or `ref[blo..blo+len]` for an insertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub alo: i64,
    pub blo: i64,
    pub len: usize,
    pub dist: i64,
}

/// A common substring of `len` characters: its text is `cand[pos1[0]..pos1[0]+len]`. Its positions
/// (in characters) live in [`Matches::positions`]: `n1` in the candidate from `from`, then `n2` in the reference.
#[derive(Clone, Copy, Debug)]
struct Match {
    len: usize,
    from: usize,
    n1: usize,
    n2: usize,
}

/// Every common substring found, positions in one arena (no allocation per match).
#[derive(Default)]
struct Matches {
    list: Vec<Match>,
    positions: Vec<usize>,
}

impl Matches {
    fn push(&mut self, len: usize, pos1: impl Iterator<Item = usize>, pos2: impl Iterator<Item = usize>) -> Match {
        let from = self.positions.len();
        self.positions.extend(pos1);
        let n1 = self.positions.len() - from;
        self.positions.extend(pos2);
        let found = Match { len, from, n1, n2: self.positions.len() - from - n1 };
        self.list.push(found);
        found
    }

    fn pos1(&self, m: &Match) -> &[usize] {
        &self.positions[m.from..m.from + m.n1]
    }

    fn pos2(&self, m: &Match) -> &[usize] {
        &self.positions[m.from + m.n1..m.from + m.n1 + m.n2]
    }
}

/// `iter_common_substrings`: walks the trie of common token sequences that start at the given
/// positions; `visit(offset, ok1, ok2)` sees every node (positions whose next `offset + 1` tokens agree,
/// each list ascending; `visit` returns false to stop: the matches found are over the limit). Tokens
/// are dense ids below `alphabet`. Position lists live in one arena; each node holds ranges into it,
/// its children are bucketed by their next token (a counting sort). False when the walk stopped, or
/// the arena would grow past [`MAX_POSITIONS`].
fn common_substrings(
    seq1: &[u32],
    seq2: &[u32],
    alphabet: usize,
    start1: Vec<usize>,
    start2: Vec<usize>,
    mut visit: impl FnMut(usize, &[usize], &[usize]) -> bool,
) -> bool {
    let split = start1.len();
    let mut arena = start1;
    arena.extend(start2);
    arena.reserve(8 * arena.len());
    let mut todo = vec![(0, split, arena.len(), 0usize)];
    let (mut count1, mut count2) = (vec![0usize; alphabet], vec![0usize; alphabet]);
    let mut touched: Vec<u32> = Vec::with_capacity(alphabet);
    let mut children: Vec<(usize, usize, usize)> = Vec::with_capacity(alphabet);
    while let Some((from, middle, to, offset)) = todo.pop() {
        if middle - from == 1 && to - middle == 1 {
            // one position a side: the chain of its common continuations, no bucketing
            let (p, q) = (arena[from], arena[middle]);
            let mut depth = offset;
            while p + depth < seq1.len() && q + depth < seq2.len() && seq1[p + depth] == seq2[q + depth] {
                if !visit(depth, &[p], &[q]) {
                    return false;
                }
                depth += 1;
            }
            continue;
        }
        touched.clear();
        for &position in &arena[from..middle] {
            if let Some(&token) = seq1.get(position + offset) {
                if count1[token as usize] == 0 {
                    touched.push(token);
                }
                count1[token as usize] += 1;
            }
        }
        for &position in &arena[middle..to] {
            if let Some(&token) = seq2.get(position + offset) {
                if count1[token as usize] > 0 {
                    count2[token as usize] += 1;
                }
            }
        }
        // a child per token on both sides; count1/count2 become its write cursors
        children.clear();
        let mut end = arena.len();
        for &token in &touched {
            let t = token as usize;
            if count2[t] > 0 {
                children.push((end, end + count1[t], end + count1[t] + count2[t]));
                (count1[t], count2[t]) = (end, end + count1[t]);
                end += children.last().map_or(0, |c| c.2 - c.0);
            } else {
                count1[t] = usize::MAX; // no child: its positions are skipped
            }
        }
        if end > MAX_POSITIONS {
            return false; // refused before the memory is taken
        }
        arena.resize(end, 0);
        for k in from..middle {
            let position = arena[k];
            if let Some(&token) = seq1.get(position + offset) {
                let cursor = &mut count1[token as usize];
                if *cursor != usize::MAX {
                    arena[*cursor] = position;
                    *cursor += 1;
                }
            }
        }
        for k in middle..to {
            let position = arena[k];
            if let Some(&token) = seq2.get(position + offset) {
                let t = token as usize;
                if count2[t] != 0 {
                    arena[count2[t]] = position;
                    count2[t] += 1;
                }
            }
        }
        for &token in &touched {
            (count1[token as usize], count2[token as usize]) = (0, 0);
        }
        for &(child, child_middle, child_end) in &children {
            if !visit(offset, &arena[child..child_middle], &arena[child_middle..child_end]) {
                return false;
            }
            todo.push((child, child_middle, child_end, offset + 1));
        }
    }
    true
}

/// Token ids shared by both texts.
#[derive(Default)]
struct Tokens<'a> {
    ids: FxHashMap<&'a [char], u32>,
}

impl<'a> Tokens<'a> {
    fn id(&mut self, token: &'a [char]) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(token).or_insert(next)
    }
}

/// `word_split`: maximal runs of `\w` and single `\W` characters, with their start positions.
fn word_tokens<'a>(text: &'a [char], tokens: &mut Tokens<'a>) -> (Vec<u32>, Vec<usize>) {
    let (mut ids, mut starts) = (Vec::with_capacity(text.len() / 2 + 1), Vec::with_capacity(text.len() / 2 + 1));
    let mut at = 0;
    while at < text.len() {
        let end =
            if is_py_word(text[at]) { at + text[at..].iter().take_while(|c| is_py_word(**c)).count() } else { at + 1 };
        ids.push(tokens.id(&text[at..end]));
        starts.push(at);
        at = end;
    }
    (ids, starts)
}

/// `char_split`: per word, the non-word run before it, the word and the run after it (runs are shared
/// by two words), a separator between words. Returns characters as dense ids, the separators id `side`
/// (0 or 1, reserved in `char_ids`: one side's separators never equal the other's, so no common
/// substring spans a separator), original positions, start flags.
fn char_groups(text: &[char], side: u32, char_ids: &mut CharIds) -> (Vec<u32>, Vec<usize>, Vec<bool>) {
    // CHAR_RE.split: [non-word run, word, non-word run, word, ..., non-word run], runs possibly empty
    let mut words = Vec::with_capacity(text.len() / 2 + 1);
    let mut at = 0;
    while at < text.len() {
        let word = is_py_word(text[at]);
        let end = at + text[at..].iter().take_while(|c| is_py_word(**c) == word).count();
        if word {
            words.push((at, end));
        }
        at = end;
    }
    let pieces: Vec<(usize, usize)> = if words.is_empty() {
        vec![(0, 0), (0, text.len()), (text.len(), text.len())] // only non-word characters
    } else {
        let mut pieces = Vec::with_capacity(2 * words.len() + 1);
        pieces.push((0, words[0].0));
        for (k, &(from, to)) in words.iter().enumerate() {
            pieces.push((from, to));
            pieces.push((to, words.get(k + 1).map_or(text.len(), |next| next.0)));
        }
        pieces
    };
    let capacity = 2 * text.len() + pieces.len();
    let (mut ids, mut positions, mut starts) =
        (Vec::with_capacity(capacity), Vec::with_capacity(capacity), Vec::with_capacity(capacity));
    for i in (0..pieces.len().saturating_sub(2)).step_by(2) {
        if i > 0 {
            ids.push(side);
            positions.push(usize::MAX);
            starts.push(false);
        }
        for (j, &(from, to)) in pieces[i..i + 3].iter().enumerate() {
            ids.extend(text[from..to].iter().map(|&c| char_ids.id(c)));
            positions.extend(from..to);
            starts.extend(std::iter::repeat_n(j != 2, to - from));
        }
    }
    (ids, positions, starts)
}

/// `greedy_matching` up to the sorted list of all common substrings; an error when they need more than
/// [`MAX_POSITIONS`].
fn all_matches(cand: &[char], reference: &[char], min_match: usize) -> Result<Matches> {
    let size = cand.len() + reference.len();
    let mut found = Matches { list: Vec::with_capacity(2 * size), positions: Vec::with_capacity(4 * size) };
    // word-based matches, with the common prefix and suffix whatever their length; their texts are
    // distinct (a whole-token sequence has one tokenisation), so only the character-based ones look up
    let mut word_match_of: FxHashMap<&[char], usize> = FxHashMap::with_capacity_and_hasher(size, Default::default());
    let mut tokens = Tokens::default();
    let (words1, starts1) = word_tokens(cand, &mut tokens);
    let (words2, starts2) = word_tokens(reference, &mut tokens);
    let token_end =
        |starts: &[usize], text_len: usize, index: usize| starts.get(index + 1).copied().unwrap_or(text_len);
    let fits =
        |found: &Matches, ok1: &[usize], ok2: &[usize]| found.positions.len() + ok1.len() + ok2.len() <= MAX_POSITIONS;
    let complete = common_substrings(
        &words1,
        &words2,
        tokens.ids.len(),
        (0..words1.len()).collect(),
        (0..words2.len()).collect(),
        |offset, ok1, ok2| {
            if !fits(&found, ok1, ok2) {
                return false;
            }
            let first = ok1[0];
            let (from, to) = (starts1[first], token_end(&starts1, cand.len(), first + offset));
            let len = to - from;
            let (last1, last2) = (words1.len() as i64 - 1 - offset as i64, words2.len() as i64 - 1 - offset as i64);
            if len >= min_match {
                found.push(len, ok1.iter().map(|&p| starts1[p]), ok2.iter().map(|&p| starts2[p]));
            } else if ok1.contains(&0) && ok2.contains(&0) {
                found.push(len, [0].into_iter(), [0].into_iter());
            } else if last1 >= 0 && last2 >= 0 && ok1.contains(&(last1 as usize)) && ok2.contains(&(last2 as usize)) {
                found.push(len, [starts1[last1 as usize]].into_iter(), [starts2[last2 as usize]].into_iter());
            } else {
                return true;
            }
            word_match_of.insert(&cand[from..to], found.list.len() - 1);
            true
        },
    );
    if !complete {
        return Err(too_many_positions(cand, reference));
    }
    // character-based matches inside words; one with a word-based match's text replaces it (the
    // reference's dict keeps the later value)
    let mut char_ids = CharIds::with_reserved(2);
    let (chars1, origin1, is_start1) = char_groups(cand, 0, &mut char_ids);
    let (chars2, origin2, is_start2) = char_groups(reference, 1, &mut char_ids);
    let starts = |flags: &[bool]| flags.iter().enumerate().filter(|(_, s)| **s).map(|(i, _)| i).collect::<Vec<_>>();
    let mut replaced = Vec::new();
    let complete = common_substrings(
        &chars1,
        &chars2,
        char_ids.count(),
        starts(&is_start1),
        starts(&is_start2),
        |offset, ok1, ok2| {
            if !fits(&found, ok1, ok2) {
                return false;
            }
            if offset + 1 >= min_match {
                let from = origin1[ok1[0]];
                found.push(offset + 1, ok1.iter().map(|&p| origin1[p]), ok2.iter().map(|&p| origin2[p]));
                if let Some(&word_match) = word_match_of.get(&cand[from..from + offset + 1]) {
                    replaced.push(word_match);
                }
            }
            true
        },
    );
    if !complete {
        return Err(too_many_positions(cand, reference));
    }
    for index in replaced {
        found.list[index].len = 0; // dropped below
    }
    found.list.retain(|m| m.len > 0);
    // order_key: longest first, then len(pos1) == len(pos2) (False first), fewer positions, pos1; no
    // two entries tie on (length, pos1[0]) (that pair fixes the text), so pos1[0] settles pos1.
    // Packed into one integer per match, computed once: 64 bits when every field fits (lengths and
    // counts below 2^15, positions below 2^32), else 128.
    let positions = &found.positions;
    let fields =
        |m: &Match| (m.len as u128, u128::from(m.n1 == m.n2), (m.n1 + m.n2) as u128, positions[m.from] as u128);
    found.list = if size < 1 << 15 {
        sorted_by_key(&found.list, |m| {
            let (len, unbalanced, count, first) = fields(m);
            (((0x7fff - len) << 48) | (unbalanced << 47) | (count << 32) | first) as u64
        })
    } else {
        sorted_by_key(&found.list, |m| {
            let (len, unbalanced, count, first) = fields(m);
            ((u128::from(u32::MAX) - len) << 96) | (unbalanced << 64) | (count << 32) | first
        })
    };
    Ok(found)
}

/// The matches in the order of their keys (computed once each; keys are distinct).
fn sorted_by_key<K: Ord + Copy>(list: &[Match], key: impl Fn(&Match) -> K) -> Vec<Match> {
    let mut keyed: Vec<(K, u32)> = list.iter().enumerate().map(|(index, m)| (key(m), index as u32)).collect();
    keyed.sort_unstable_by_key(|entry| entry.0);
    keyed.iter().map(|&(_, index)| list[index as usize]).collect()
}

/// `greedy_matching`: retained matches in order, then deletions, then insertions.
fn greedy_matching(cand: &[char], reference: &[char], min_match: usize) -> Result<Vec<Op>> {
    let found = all_matches(cand, reference, min_match)?;
    let (mut mask1, mut mask2) = (vec![true; cand.len()], vec![true; reference.len()]);
    // covered positions counted in Fenwick trees: a range is free when it holds none. (The prefix sums
    // were rebuilt after every retained match: O(n) each, 0.8 s for 10,000 words, minutes at the
    // segment limit.)
    let (mut covered1, mut covered2) = (Covered::new(cand.len()), Covered::new(reference.len()));
    let mut ops = Vec::new();
    // The reference drops, after each retained match, every match with no wholly uncovered position
    // left on a side, and retains the first survivor (again the same match, while it has uncovered
    // positions on both sides) at its first uncovered positions. Coverage only grows, so a match
    // dropped once stays dropped: one pass in order, each match checked while it would be the head,
    // retains the same matches.
    for m in &found.list {
        let len = m.len;
        while let Some(&i) = found.pos1(m).iter().find(|&&p| covered1.free(p, len)) {
            let Some(&j) = found.pos2(m).iter().find(|&&p| covered2.free(p, len)) else { break };
            ops.push(Op { alo: i as i64, blo: j as i64, len, dist: 0 });
            mask1[i..i + len].iter_mut().for_each(|free| *free = false);
            mask2[j..j + len].iter_mut().for_each(|free| *free = false);
            covered1.cover(i, len);
            covered2.cover(j, len);
        }
    }
    for (start, len) in residual_runs(&mask1) {
        ops.push(Op { alo: start as i64, blo: NONE, len, dist: 0 });
    }
    for (start, len) in residual_runs(&mask2) {
        ops.push(Op { alo: NONE, blo: start as i64, len, dist: 0 });
    }
    Ok(ops)
}

/// Covered positions of a text, as a Fenwick tree of counts: O(log n) to cover a position or to count
/// the covered ones in a range. A range is covered only when it was wholly free, so no position twice.
struct Covered {
    tree: Vec<u32>,
}

impl Covered {
    fn new(len: usize) -> Self {
        Self { tree: vec![0; len + 1] }
    }

    /// Covered positions before `end`.
    fn before(&self, end: usize) -> u32 {
        let (mut k, mut total) = (end, 0);
        while k > 0 {
            total += self.tree[k];
            k &= k - 1;
        }
        total
    }

    fn free(&self, start: usize, len: usize) -> bool {
        self.before(start + len) == self.before(start)
    }

    fn cover(&mut self, start: usize, len: usize) {
        for position in start..start + len {
            let mut k = position + 1;
            while k < self.tree.len() {
                self.tree[k] += 1;
                k += k & k.wrapping_neg();
            }
        }
    }
}

/// `residual_diff`: runs of uncovered positions as (start, length).
fn residual_runs(mask: &[bool]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < mask.len() {
        if mask[at] {
            let len = mask[at..].iter().take_while(|&&free| free).count();
            runs.push((at, len));
            at += len;
        } else {
            at += 1;
        }
    }
    runs
}

/// The text of an operation (the reference's `slice`).
fn op_text<'a>(op: &Op, cand: &'a [char], reference: &'a [char]) -> &'a [char] {
    if op.alo != NONE {
        &cand[op.alo as usize..op.alo as usize + op.len]
    } else {
        &reference[op.blo as usize..op.blo as usize + op.len]
    }
}

/// Python's ordering of `(alo, blo, substring, dist)` tuples.
fn op_order(x: &Op, y: &Op, cand: &[char], reference: &[char]) -> std::cmp::Ordering {
    x.alo
        .cmp(&y.alo)
        .then(x.blo.cmp(&y.blo))
        .then_with(|| op_text(x, cand, reference).cmp(op_text(y, cand, reference)))
        .then(x.dist.cmp(&y.dist))
}

/// `find_regular_matches`: the matches touched by difflib's matching blocks between the character
/// expansions of the matches sorted by cand position and by reference position. `matches` are sorted.
fn regular_matches(matches: &[Op]) -> Vec<bool> {
    // element (match, k) of the first order, and its index in the second order (elements are unique)
    let mut by_ref: Vec<usize> = (0..matches.len()).collect();
    by_ref.sort_by_key(|&m| matches[m].blo); // stable, as Python's sorted(key=...)
    let mut offset_in_b = vec![0usize; matches.len()];
    let mut total = 0;
    for &m in &by_ref {
        offset_in_b[m] = total;
        total += matches[m].len;
    }
    let mut owner = Vec::with_capacity(total);
    let mut b_index = Vec::with_capacity(total);
    for (m, op) in matches.iter().enumerate() {
        for k in 0..op.len {
            owner.push(m);
            b_index.push(offset_in_b[m] + k);
        }
    }
    let mut hit = vec![false; matches.len()];
    let mut queue = vec![(0, total, 0, total)];
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        // find_longest_match with unique elements and no junk: the first longest diagonal run
        let (mut best_i, mut best_j, mut best_k) = (alo, blo, 0);
        let mut run = 0;
        for i in alo..ahi {
            let j = b_index[i];
            if j < blo || j >= bhi {
                run = 0;
                continue;
            }
            run = if i > alo && j > blo && b_index[i - 1] == j - 1 && run > 0 { run + 1 } else { 1 };
            if run > best_k {
                (best_i, best_j, best_k) = (i + 1 - run, j + 1 - run, run);
            }
        }
        if best_k > 0 {
            for &m in &owner[best_i..best_i + best_k] {
                hit[m] = true;
            }
            if alo < best_i && blo < best_j {
                queue.push((alo, best_i, blo, best_j));
            }
            if best_i + best_k < ahi && best_j + best_k < bhi {
                queue.push((best_i + best_k, ahi, best_j + best_k, bhi));
            }
        }
    }
    hit
}

/// `eval_shift_distance`: characters between a shifted match and the closest crossing regular match.
fn shift_distance(shift: &Op, regular: &[Op], cand: &[char], reference: &[char]) -> Result<i64> {
    let mut crossing: Vec<&Op> = regular
        .iter()
        .filter(|m| (m.alo < shift.alo && m.blo > shift.blo) || (m.alo > shift.alo && m.blo < shift.blo))
        .collect();
    crossing.sort_by(|x, y| op_order(x, y, cand, reference));
    let (Some(first), Some(last)) = (crossing.first(), crossing.last()) else {
        return Err(Error::InvalidOption(
            "charcut 1.1.1 raises IndexError on this pair (a shift crosses no regular match)".into(),
        ));
    };
    Ok(if first.alo < shift.alo {
        -(shift.alo - first.alo)
    } else {
        last.alo + last.len as i64 - (shift.alo + shift.len as i64)
    })
}

/// `merge_adjacent_diffs`' helper: sorted (start, length) runs, adjacent ones joined.
fn merge_runs(mut runs: Vec<(i64, usize)>, text: &[char]) -> Vec<(i64, usize)> {
    // sorted((start, substr)): starts are distinct, so the text never decides
    runs.sort_by(|x, y| {
        x.0.cmp(&y.0).then_with(|| text[x.0 as usize..x.0 as usize + x.1].cmp(&text[y.0 as usize..y.0 as usize + y.1]))
    });
    let mut merged: Vec<(i64, usize)> = Vec::new();
    let (mut prev_start, mut prev_len) = (0i64, 0usize);
    for (start, len) in runs {
        if start == prev_start + prev_len as i64 {
            prev_len += len;
        } else {
            if prev_len > 0 {
                merged.push((prev_start, prev_len));
            }
            (prev_start, prev_len) = (start, len);
        }
    }
    if prev_len > 0 {
        merged.push((prev_start, prev_len));
    }
    merged
}

/// The display class of an operation (`add_css_classes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Insertion,
    Deletion,
    Shift,
    Match,
}

impl Style {
    pub fn css_class(self) -> &'static str {
        match self {
            Style::Insertion => "ins",
            Style::Deletion => "del",
            Style::Shift => "shift",
            Style::Match => "match",
        }
    }
}

/// An operation with its class and the number in its mouse-over id (`diff{n}`, `shift{n}`, `match{n}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StyledOp {
    pub op: Op,
    pub style: Style,
    pub id: i64,
}

/// `add_css_classes`.
fn styled(ops: &[Op]) -> Vec<StyledOp> {
    let mut match_alo = 0;
    ops.iter()
        .map(|op| {
            let (style, id) = if op.alo == NONE {
                (Style::Insertion, match_alo)
            } else if op.blo == NONE {
                (Style::Deletion, match_alo)
            } else if op.dist != 0 {
                (Style::Shift, op.alo)
            } else {
                match_alo = op.alo;
                (Style::Match, op.alo)
            };
            StyledOp { op: *op, style, id }
        })
        .collect()
}

/// The highlighted comparison of one pair: the candidate's and the reference's operations.
pub struct Comparison {
    pub cand: Vec<char>,
    pub reference: Vec<char>,
    pub cand_ops: Vec<StyledOp>,
    pub ref_ops: Vec<StyledOp>,
}

/// `compare_segments(cand.strip(), ref.strip(), min_match)`.
pub fn compare(cand: &str, reference: &str, min_match: usize) -> Result<Comparison> {
    if min_match == 0 {
        return Err(Error::InvalidOption("match_size must be at least 1".into()));
    }
    let cand: Vec<char> = python_strip(cand).chars().collect();
    let reference: Vec<char> = python_strip(reference).chars().collect();
    let base_ops = greedy_matching(&cand, &reference, min_match)?;
    let mut matches: Vec<Op> = base_ops.iter().filter(|op| op.alo != NONE && op.blo != NONE).copied().collect();
    matches.sort_by(|x, y| op_order(x, y, &cand, &reference));
    let hit = regular_matches(&matches);
    let regular: Vec<Op> = matches.iter().zip(&hit).filter(|(_, h)| **h).map(|(m, _)| *m).collect();
    // add_shift_distance
    let mut decorated = Vec::with_capacity(base_ops.len() + 2);
    for op in &base_ops {
        if op.alo == NONE || op.blo == NONE || regular.contains(op) {
            decorated.push(*op);
            continue;
        }
        let dist = shift_distance(op, &regular, &cand, &reference)?;
        if (op.len as f64).exp() >= dist.unsigned_abs() as f64 {
            decorated.push(Op { dist, ..*op });
        } else {
            decorated.push(Op { alo: NONE, ..*op });
            decorated.push(Op { blo: NONE, ..*op });
        }
    }
    // merge_adjacent_diffs: matches in order, then merged deletions, then merged insertions
    let mut clean: Vec<Op> = decorated.iter().filter(|op| op.alo != NONE && op.blo != NONE).copied().collect();
    let deletions = decorated.iter().filter(|op| op.blo == NONE).map(|op| (op.alo, op.len)).collect();
    clean.extend(merge_runs(deletions, &cand).into_iter().map(|(alo, len)| Op { alo, blo: NONE, len, dist: 0 }));
    let insertions: Vec<(i64, usize)> =
        decorated.iter().filter(|op| op.alo == NONE).map(|op| (op.blo, op.len)).collect();
    // an insertion's text is the reference's (a far shift's is the same string)
    clean.extend(merge_runs(insertions, &reference).into_iter().map(|(blo, len)| Op { alo: NONE, blo, len, dist: 0 }));
    let mut cand_ops: Vec<Op> = clean.iter().filter(|op| op.alo != NONE).copied().collect();
    cand_ops.sort_by(|x, y| op_order(x, y, &cand, &reference));
    let mut ref_ops: Vec<Op> = clean.iter().filter(|op| op.blo != NONE).copied().collect();
    ref_ops.sort_by_key(|op| op.blo);
    Ok(Comparison { cand_ops: styled(&cand_ops), ref_ops: styled(&ref_ops), cand, reference })
}

impl Comparison {
    /// `score_pair`: (cost, normaliser); the cost is bounded by the normaliser.
    pub fn cost(&self, alt_norm: bool) -> (u64, u64) {
        let total = |ops: &[StyledOp], style: Style| {
            ops.iter().filter(|s| s.style == style).map(|s| s.op.len as u64).sum::<u64>()
        };
        let cost = total(&self.cand_ops, Style::Deletion)
            + total(&self.ref_ops, Style::Insertion)
            + total(&self.cand_ops, Style::Shift);
        let div = if alt_norm { 2 * self.cand.len() } else { self.cand.len() + self.reference.len() } as u64;
        (cost.min(div), div)
    }

    /// The text of an operation.
    pub fn text(&self, op: &Op) -> String {
        op_text(op, &self.cand, &self.reference).iter().collect()
    }
}

/// Per-segment (cost, normaliser) rows `(n, 2)`, in parallel; the corpus score is their column ratio.
pub fn corpus_stats<H, R>(hypotheses: &[H], references: &[R], min_match: usize, alt_norm: bool) -> Result<Vec<u64>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
{
    let rows = map_pairs(hypotheses, references, PARALLEL_THRESHOLD, |hyp, reference| {
        compare(hyp, reference, min_match).map(|c| c.cost(alt_norm))
    })?;
    let mut out = Vec::with_capacity(2 * rows.len());
    for (index, row) in rows.into_iter().enumerate() {
        let (cost, div) = row.map_err(|e| Error::InvalidOption(format!("segment {index}: {e}")))?;
        out.extend([cost, div]);
    }
    Ok(out)
}

/// CharCut's options (charcut's `match_size` and `alt_norm`); a row is `[cost, normaliser]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharcutConfig {
    pub match_size: usize,
    pub alt_norm: bool,
}

impl SegmentMetric for CharcutConfig {
    type Stat = i64;
    type Scratch = ();
    const NAME: &'static str = "charcut";
    const REFS: Refs = Refs::One;
    const PARALLEL_FROM: usize = PARALLEL_THRESHOLD;

    fn width(&self) -> usize {
        2
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], _: &mut ()) -> Result<()> {
        let (cost, normaliser) = compare(hyp, refs[0], self.match_size)?.cost(self.alt_norm);
        row.copy_from_slice(&[cost as i64, normaliser as i64]);
        Ok(())
    }

    /// charcut's ratio, 0 where nothing is compared.
    fn score_row(&self, row: &[i64]) -> f64 {
        if row[1] > 0 {
            row[0] as f64 / row[1] as f64
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hf_evaluate_docstring_example() {
        // HF evaluate `charcut_mt` docstring: 0.1971153846153846 over these two pairs
        let hyps =
            ["this week the saudis denied information published in the new york times", "this is in fact an estimate"];
        let refs = [
            "saudi arabia denied this week information published in the american new york times",
            "this is actually an estimate",
        ];
        let stats = corpus_stats(&hyps, &refs, 3, false).unwrap();
        let (cost, div) = (stats[0] + stats[2], stats[1] + stats[3]);
        assert_eq!(cost as f64 / div as f64, 0.1971153846153846);
    }

    #[test]
    fn identical_and_empty() {
        assert_eq!(compare("  a cat ", "a cat", 3).unwrap().cost(false), (0, 10));
        assert_eq!(compare("", "", 3).unwrap().cost(false), (0, 0));
        assert_eq!(compare("abc", "", 3).unwrap().cost(false), (3, 3));
        assert!(compare("a", "a", 0).is_err());
    }

    #[test]
    fn repetitive_pair_over_the_position_limit_is_refused() {
        // synthetic: "a a a …" of 10,000 words vs 5,000 (the reference keeps ~100 million positions)
        let (cand, reference) = (vec!["a"; 10_000].join(" "), vec!["a"; 5_000].join(" "));
        let error = compare(&cand, &reference, 3).err().expect("refused");
        assert!(error.to_string().contains("more than the limit"), "{error}");
    }

    #[test]
    fn char_groups_duplicate_non_word_runs() {
        // charcut's docstring: 'ab, cd' -> a b , ␠ | , ␠ c d with start flags
        let text: Vec<char> = "ab, cd".chars().collect();
        let (ids, positions, starts) = char_groups(&text, 0, &mut CharIds::with_reserved(2));
        assert_eq!(ids.len(), 9);
        assert_eq!(positions, vec![0, 1, 2, 3, usize::MAX, 2, 3, 4, 5]);
        assert_eq!(starts, vec![true, true, false, false, false, true, true, true, true]);
    }
}
