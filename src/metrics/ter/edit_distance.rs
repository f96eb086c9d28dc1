//! Translation edit rate with shifts, as sacreBLEU 2.6.0 computes it (`sacrebleu/metrics/lib_ter.py`):
//! a beam-limited Levenshtein distance around the length-ratio diagonal, and a greedy search for
//! the block shift that lowers it most, with the same candidate order, tie-breaking and limits.
//!
//! sacreBLEU caches edit-distance rows in a trie of hypothesis prefixes; rows depend only on the
//! prefix (the hypothesis length never changes while shifting), so here a shifted candidate simply
//! restarts from the rows of the unshifted hypothesis it shares a prefix with.

use std::cmp::Ordering;

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: i64 = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

/// The edit operation that produced a cell (`lib_ter._OP_*`), hypothesis as rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Nop,
    Sub,
    /// Consumes a reference word.
    Ins,
    /// Consumes a hypothesis word.
    Del,
    Undefined,
}

/// The beam geometry, fixed for a hypothesis length.
struct Beam {
    n_ref: usize,
    n_hyp: usize,
    length_ratio: f64,
    width: i64,
}

impl Beam {
    fn new(n_hyp: usize, n_ref: usize) -> Self {
        let length_ratio = if n_hyp > 0 { n_ref as f64 / n_hyp as f64 } else { 1.0 };
        let width = if (BEAM_WIDTH as f64) < length_ratio / 2.0 {
            (length_ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        Beam { n_ref, n_hyp, length_ratio, width }
    }

    /// Columns `[min_j, max_j)` computed in row `i` (1-based).
    fn columns(&self, i: usize) -> (usize, usize) {
        let pseudo_diag = (i as f64 * self.length_ratio).floor() as i64;
        let min_j = (pseudo_diag - self.width).max(0) as usize;
        let mut max_j = (pseudo_diag + self.width).min(self.n_ref as i64 + 1).max(0) as usize;
        if i == self.n_hyp {
            max_j = self.n_ref + 1;
        }
        (min_j, max_j)
    }
}

/// One row of the beam-restricted table: cells `lo..lo + costs.len()`; every other cell is
/// unreachable (`INFINITY`, `Op::Undefined`), as in sacreBLEU's full table. Storing only the beam
/// keeps memory at O(n · beam) instead of O(n · m) (a 32,000-word pair needed 8.8 GB densely).
#[derive(Clone, Copy)]
struct RowView<'a> {
    lo: usize,
    costs: &'a [i64],
}

impl RowView<'_> {
    #[inline]
    fn cost(&self, j: usize) -> i64 {
        j.checked_sub(self.lo).and_then(|k| self.costs.get(k)).copied().unwrap_or(INFINITY)
    }
}

/// Fills row `i` (its beam columns `beam.columns(i)`, costs in `row`, optional ops) from the
/// previous row; returns the row's first column.
#[inline]
fn fill_row(
    beam: &Beam,
    i: usize,
    word: u32,
    reference: &[u32],
    prev: RowView<'_>,
    row: &mut Vec<i64>,
    mut ops: Option<&mut Vec<Op>>,
) -> usize {
    let (min_j, max_j) = beam.columns(i);
    row.clear();
    if let Some(ops) = ops.as_deref_mut() {
        ops.clear();
    }
    for j in min_j..max_j.max(min_j) {
        if j == 0 {
            row.push(prev.cost(0) + 1);
            if let Some(ops) = ops.as_deref_mut() {
                ops.push(Op::Del);
            }
            continue;
        }
        // Preference on ties: match/substitution, then deletion, then insertion (strictly lower wins).
        let diagonal = prev.cost(j - 1);
        let (sub_cost, sub_op) = if word == reference[j - 1] { (diagonal, Op::Nop) } else { (diagonal + 1, Op::Sub) };
        let left = if j > min_j { row[j - 1 - min_j] } else { INFINITY };
        let mut best = INFINITY;
        let mut best_op = Op::Undefined;
        for (cost, op) in [(sub_cost, sub_op), (prev.cost(j) + 1, Op::Del), (left + 1, Op::Ins)] {
            if best > cost {
                best = cost;
                best_op = op;
            }
        }
        row.push(best);
        if let Some(ops) = ops.as_deref_mut() {
            ops.push(best_op);
        }
    }
    min_j
}

/// The edit-distance table of one hypothesis (costs and ops), row `i` holding only its beam cells.
struct Matrix {
    width: usize,
    /// Row `i` is `costs[offsets[i]..offsets[i + 1]]`, starting at column `lo[i]`.
    offsets: Vec<usize>,
    lo: Vec<usize>,
    costs: Vec<i64>,
    ops: Vec<Op>,
}

impl Matrix {
    fn compute(beam: &Beam, hyp: &[u32], reference: &[u32]) -> Matrix {
        let width = reference.len() + 1;
        let mut matrix = Matrix {
            width,
            offsets: vec![0, width],
            lo: vec![0],
            costs: (0..width as i64).collect(),
            ops: vec![Op::Ins; width],
        };
        let (mut row, mut ops) = (Vec::new(), Vec::new());
        for i in 1..=hyp.len() {
            let lo = fill_row(beam, i, hyp[i - 1], reference, matrix.row(i - 1), &mut row, Some(&mut ops));
            matrix.costs.extend_from_slice(&row);
            matrix.ops.extend_from_slice(&ops);
            matrix.lo.push(lo);
            matrix.offsets.push(matrix.costs.len());
        }
        matrix
    }

    fn distance(&self) -> i64 {
        self.row(self.lo.len() - 1).cost(self.width - 1)
    }

    fn row(&self, i: usize) -> RowView<'_> {
        RowView { lo: self.lo[i], costs: &self.costs[self.offsets[i]..self.offsets[i + 1]] }
    }

    fn op(&self, i: usize, j: usize) -> Op {
        let lo = self.lo[i];
        let k = self.offsets[i] + j.wrapping_sub(lo);
        if j >= lo && k < self.offsets[i + 1] {
            self.ops[k]
        } else {
            Op::Undefined
        }
    }

    /// The alignment seen from the reference (sacreBLEU flips the trace, then `trace_to_alignment`):
    /// `align[r]` = hypothesis position of reference word r (-1 before the first), and error flags.
    fn alignment(&self, n_hyp: usize) -> Option<(Vec<i64>, Vec<u8>, Vec<u8>)> {
        let mut trace = Vec::new();
        let (mut i, mut j) = (n_hyp, self.width - 1);
        while i > 0 || j > 0 {
            let op = self.op(i, j);
            trace.push(op);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                Op::Undefined => return None,
            }
        }
        trace.reverse();
        let mut align = vec![0i64; self.width - 1];
        let (mut hyp_err, mut ref_err) = (Vec::new(), Vec::new());
        let (mut pos_hyp, mut pos_ref) = (-1i64, -1i64);
        for op in trace {
            match op {
                Op::Nop | Op::Sub => {
                    pos_hyp += 1;
                    pos_ref += 1;
                    align[pos_ref as usize] = pos_hyp;
                    let err = (op == Op::Sub) as u8;
                    hyp_err.push(err);
                    ref_err.push(err);
                }
                // A deletion of a hypothesis word is an insertion once the trace is flipped.
                Op::Del => {
                    pos_hyp += 1;
                    hyp_err.push(1);
                }
                Op::Ins => {
                    pos_ref += 1;
                    align[pos_ref as usize] = pos_hyp;
                    ref_err.push(1);
                }
                Op::Undefined => return None,
            }
        }
        Some((align, ref_err, hyp_err))
    }
}

/// Moves `words[start..start + length]` so that it starts before position `target`
/// (sacreBLEU `_perform_shift`, its three cases).
fn perform_shift(words: &[u32], start: usize, length: usize, target: usize, out: &mut Vec<u32>) {
    out.clear();
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + length..]);
    } else if target > start + length {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + length..target]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[target..]);
    } else {
        // Python slicing clamps `length + target` to the end of the list.
        let cut = (length + target).min(words.len());
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + length..cut]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[cut..]);
    }
}

/// Edit distance of a shifted hypothesis, reusing the base matrix rows of the shared prefix.
struct Scratch {
    prev: Vec<i64>,
    row: Vec<i64>,
}

fn shifted_distance(
    beam: &Beam,
    base: &Matrix,
    base_words: &[u32],
    shifted: &[u32],
    reference: &[u32],
    scratch: &mut Scratch,
) -> i64 {
    let shared = base_words.iter().zip(shifted).take_while(|(a, b)| a == b).count();
    if shared == shifted.len() {
        return base.distance();
    }
    let start = base.row(shared);
    scratch.prev.clear();
    scratch.prev.extend_from_slice(start.costs);
    let mut prev_lo = start.lo;
    for i in shared + 1..=shifted.len() {
        let prev = RowView { lo: prev_lo, costs: &scratch.prev };
        prev_lo = fill_row(beam, i, shifted[i - 1], reference, prev, &mut scratch.row, None);
        std::mem::swap(&mut scratch.prev, &mut scratch.row);
    }
    RowView { lo: prev_lo, costs: &scratch.prev }.cost(base.width - 1)
}

/// A shift candidate ranked like sacreBLEU's tuple: larger gain, then longer, then earlier start,
/// then earlier target.
#[derive(Clone, Copy)]
struct Candidate {
    gain: i64,
    length: usize,
    start_h: usize,
    target: usize,
}

impl Candidate {
    fn beats(&self, other: &Candidate) -> bool {
        let ours = (self.gain, self.length as i64, -(self.start_h as i64), -(self.target as i64));
        let theirs = (other.gain, other.length as i64, -(other.start_h as i64), -(other.target as i64));
        ours.cmp(&theirs) == Ordering::Greater
    }
}

/// Why sacreBLEU would have failed on a segment (its trace hit an unfilled beam cell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeamFailure;

/// `(number of edits, reference length)` of a hypothesis against one reference, both as word ids
/// (sacreBLEU `translation_edit_rate`).
pub fn translation_edit_rate(hyp: &[u32], reference: &[u32]) -> Result<(u64, usize), BeamFailure> {
    if reference.is_empty() {
        return Ok((hyp.len() as u64, 0));
    }
    let beam = Beam::new(hyp.len(), reference.len());
    let mut words = hyp.to_vec();
    let mut shifts = 0u64;
    let mut checked = 0usize;
    let mut scratch = Scratch { prev: Vec::new(), row: Vec::new() };
    let mut shifted = Vec::with_capacity(hyp.len());
    loop {
        let base = Matrix::compute(&beam, &words, reference);
        let (align, ref_err, hyp_err) = base.alignment(words.len()).ok_or(BeamFailure)?;
        let pre_score = base.distance();
        let mut best: Option<Candidate> = None;
        'pairs: for start_h in 0..words.len() {
            // Only reference starts within MAX_SHIFT_DIST of start_h (sacreBLEU skips the others).
            for start_r in start_h.saturating_sub(MAX_SHIFT_DIST)..reference.len().min(start_h + MAX_SHIFT_DIST + 1) {
                let mut length = 0;
                while words[start_h + length] == reference[start_r + length] && length < MAX_SHIFT_SIZE {
                    length += 1;
                    // Only shift words that are wrong to a place where the reference is not matched.
                    let useful = hyp_err[start_h..start_h + length].iter().any(|&e| e != 0)
                        && ref_err[start_r..start_r + length].iter().any(|&e| e != 0);
                    let inside = {
                        let a = align[start_r];
                        start_h as i64 <= a && a < (start_h + length) as i64
                    };
                    if useful && !inside {
                        let mut prev_target: i64 = -1;
                        for offset in -1..length as i64 {
                            let position = start_r as i64 + offset;
                            let target = if position == -1 { 0 } else { align[position as usize] + 1 };
                            if target == prev_target {
                                continue;
                            }
                            prev_target = target;
                            let target = target as usize;
                            perform_shift(&words, start_h, length, target, &mut shifted);
                            let gain =
                                pre_score - shifted_distance(&beam, &base, &words, &shifted, reference, &mut scratch);
                            checked += 1;
                            let candidate = Candidate { gain, length, start_h, target };
                            if best.as_ref().is_none_or(|b| candidate.beats(b)) {
                                best = Some(candidate);
                            }
                        }
                        if checked >= MAX_SHIFT_CANDIDATES {
                            break 'pairs;
                        }
                    }
                    if words.len() == start_h + length || reference.len() == start_r + length {
                        break;
                    }
                }
            }
        }
        let gain = best.map_or(0, |b| b.gain);
        if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
            return Ok((shifts + pre_score as u64, reference.len()));
        }
        let b = best.expect("a positive gain has a candidate");
        perform_shift(&words, b.start_h, b.length, b.target, &mut shifted);
        std::mem::swap(&mut words, &mut shifted);
        shifts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_needs_no_edit() {
        assert_eq!(translation_edit_rate(&[1, 2, 3], &[1, 2, 3]), Ok((0, 3)));
    }

    #[test]
    fn a_block_shift_counts_once() {
        // "d e a b c" → "a b c d e": one shift of "d e"
        assert_eq!(translation_edit_rate(&[4, 5, 1, 2, 3], &[1, 2, 3, 4, 5]), Ok((1, 5)));
    }

    #[test]
    fn empty_sides() {
        assert_eq!(translation_edit_rate(&[], &[1, 2]), Ok((2, 2)));
        assert_eq!(translation_edit_rate(&[1, 2], &[]), Ok((2, 0)));
    }

    #[test]
    fn shifts_keep_words() {
        let mut out = Vec::new();
        perform_shift(&[0, 1, 2, 3, 4], 3, 2, 1, &mut out);
        assert_eq!(out, vec![0, 3, 4, 1, 2]);
        perform_shift(&[0, 1, 2, 3, 4], 0, 2, 4, &mut out);
        assert_eq!(out, vec![2, 3, 0, 1, 4]);
    }
}
