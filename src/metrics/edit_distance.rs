//! Levenshtein distance and alignment on dense symbol ids, reproducing rapidfuzz 3.x
//! `Levenshtein.distance` / `Levenshtein.editops` / `Levenshtein.opcodes` (the C++ core that jiwer 4.0
//! and python-Levenshtein call), including which of several equally short alignments is returned.
//!
//! The algorithm follows rapidfuzz-cpp `rapidfuzz/distance/Levenshtein_impl.hpp`: Hyyrö's bit-parallel
//! matrix (Hyyrö 2003; block form of Myers 1999) over `s1`, the back-trace of Hyyrö, "A Note on
//! Bit-Parallel Alignment Computation" (2004) (`recover_alignment`), common prefix and suffix removed
//! first, and Hirschberg's split once the recorded matrix would exceed 1 MiB
//! (`levenshtein_align_hirschberg`): the split picks the smallest `s1` position of least total cost.
//! Time O(⌈|s1|/64⌉·|s2|); memory at most ~1 MiB of matrix plus O(|s1|+|s2|).

/// One edit turning `s1` (the source, e.g. the reference) into `s2` (e.g. the hypothesis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditKind {
    /// `s1[src]` replaced by `s2[dest]`.
    Replace,
    /// `s2[dest]` inserted before `s1[src]`.
    Insert,
    /// `s1[src]` deleted.
    Delete,
}

/// An edit operation with rapidfuzz's positions (`Editop(tag, src_pos, dest_pos)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditOp {
    pub kind: EditKind,
    pub src_pos: usize,
    pub dest_pos: usize,
}

/// A block of the alignment, as rapidfuzz's `Opcode` (tag, i1, i2, j1, j2): `None` kind means equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcode {
    pub kind: Option<EditKind>,
    pub src_start: usize,
    pub src_end: usize,
    pub dest_start: usize,
    pub dest_end: usize,
}

const WORD: usize = 64;

/// Bit masks of the positions of each symbol in `s1`, one row of `words` u64 per symbol.
struct PatternMasks {
    words: usize,
    masks: Vec<u64>,
}

impl PatternMasks {
    fn new(s1: &[u32], alphabet: usize) -> Self {
        let words = s1.len().div_ceil(WORD).max(1);
        let mut masks = vec![0u64; alphabet * words];
        for (position, &symbol) in s1.iter().enumerate() {
            masks[symbol as usize * words + position / WORD] |= 1u64 << (position % WORD);
        }
        Self { words, masks }
    }

    #[inline]
    fn get(&self, word: usize, symbol: u32) -> u64 {
        self.masks[symbol as usize * self.words + word]
    }
}

/// One row of Hyyrö's block recurrence (rapidfuzz `levenshtein_hyrroe2003_block`) over the words of
/// `vp`/`vn`, `pm(word)` the symbol's mask in each word and `last` the pattern's last bit in the last
/// word: updates the deltas and returns the horizontal carries out of the last word.
#[inline(always)]
fn block_row(pm: impl Fn(usize) -> u64, vp: &mut [u64], vn: &mut [u64], last: u64) -> (u64, u64) {
    let words = vp.len();
    let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
    for word in 0..words {
        let x = pm(word) | hn_carry;
        let d0 = (((x & vp[word]).wrapping_add(vp[word])) ^ vp[word]) | x | vn[word];
        let mut hp = vn[word] | !(d0 | vp[word]);
        let mut hn = d0 & vp[word];
        let (hp_in, hn_in) = (hp_carry, hn_carry);
        if word + 1 < words {
            hp_carry = hp >> 63;
            hn_carry = hn >> 63;
        } else {
            hp_carry = u64::from(hp & last != 0);
            hn_carry = u64::from(hn & last != 0);
        }
        hp = (hp << 1) | hp_in;
        hn = (hn << 1) | hn_in;
        vp[word] = hn | !(d0 | hp);
        vn[word] = hp & d0;
    }
    (hp_carry, hn_carry)
}

/// Runs Hyyrö's recurrence over every symbol of `s2` (rapidfuzz `levenshtein_hyrroe2003_block`, whole
/// band); `on_row(row, vp, vn)` sees the vertical deltas after each row. Returns the distance.
fn hyyro(pm: &PatternMasks, len1: usize, s2: &[u32], mut on_row: impl FnMut(usize, &[u64], &[u64])) -> usize {
    let words = pm.words;
    let last = 1u64 << ((len1 - 1) % WORD);
    let mut vp = vec![!0u64; words];
    let mut vn = vec![0u64; words];
    let mut dist = len1;
    for (row, &symbol) in s2.iter().enumerate() {
        let (hp_carry, hn_carry) = block_row(|word| pm.get(word, symbol), &mut vp, &mut vn, last);
        dist = dist + hp_carry as usize - hn_carry as usize;
        on_row(row, &vp, &vn);
    }
    dist
}

/// Levenshtein distance (unit costs) between two symbol sequences; symbols are below `alphabet`.
pub fn distance(s1: &[u32], s2: &[u32], alphabet: usize) -> usize {
    let (s1, s2) = strip_common_affix(s1, s2).1;
    if s1.is_empty() || s2.is_empty() {
        return s1.len() + s2.len();
    }
    // the distance is symmetric: the pattern is the side that makes fewer word steps (its 64-symbol
    // words times the other's length), in one scalar or a stack block when it fits
    let steps = |pattern: &[u32], text: &[u32]| pattern.len().div_ceil(WORD) * text.len();
    let (short, long) = if steps(s1, s2) <= steps(s2, s1) { (s1, s2) } else { (s2, s1) };
    if short.len() <= 64 {
        scalar_distance::<u64>(short, long, alphabet)
    } else if short.len() <= 128 {
        scalar_distance::<u128>(short, long, alphabet)
    } else {
        Pattern::new(short, alphabet).distance(long)
    }
}

/// An unsigned integer wide enough for a whole pattern (Hyyrö's recurrence on one scalar).
trait BitVector: Copy + Default {
    const ONES: Self;
    fn bit(position: usize) -> Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn not(self) -> Self;
    fn add(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    fn shl1(self) -> Self;
    fn any(self) -> bool;
}

macro_rules! bit_vector {
    ($t:ty) => {
        impl BitVector for $t {
            const ONES: Self = !0;
            fn bit(position: usize) -> Self {
                1 << position
            }
            fn or(self, other: Self) -> Self {
                self | other
            }
            fn and(self, other: Self) -> Self {
                self & other
            }
            fn not(self) -> Self {
                !self
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn xor(self, other: Self) -> Self {
                self ^ other
            }
            fn shl1(self) -> Self {
                self << 1
            }
            fn any(self) -> bool {
                self != 0
            }
        }
    };
}
bit_vector!(u64);
bit_vector!(u128);

/// Hyyrö's recurrence with the whole `pattern` (1..=bits of `B` symbols) in one scalar (rapidfuzz
/// `levenshtein_hyrroe2003`).
fn scalar_distance<B: BitVector>(pattern: &[u32], text: &[u32], alphabet: usize) -> usize {
    let mut masks = vec![B::default(); alphabet];
    for (position, &symbol) in pattern.iter().enumerate() {
        masks[symbol as usize] = masks[symbol as usize].or(B::bit(position));
    }
    let last = B::bit(pattern.len() - 1);
    let (mut vp, mut vn, mut dist) = (B::ONES, B::default(), pattern.len());
    for &symbol in text {
        let x = masks[symbol as usize];
        let d0 = x.and(vp).add(vp).xor(vp).or(x).or(vn);
        let hp = vn.or(d0.or(vp).not());
        let hn = d0.and(vp);
        dist = dist + usize::from(hp.and(last).any()) - usize::from(hn.and(last).any());
        let hp = hp.shl1().or(B::bit(0));
        let hn = hn.shl1();
        vp = hn.or(d0.or(hp).not());
        vn = hp.and(d0);
    }
    dist
}

/// [`hyyro`]'s distance with the pattern in exactly `N` words (`64·(N-1) < len ≤ 64·N`; `masks` as
/// [`PatternMasks`] lays them out), its state on the stack and the word loop unrolled.
fn block_distance<const N: usize>(masks: &[u64], len: usize, text: &[u32]) -> usize {
    let last = 1u64 << ((len - 1) % WORD);
    let (mut vp, mut vn, mut dist) = ([!0u64; N], [0u64; N], len);
    for &symbol in text {
        let pm = &masks[symbol as usize * N..symbol as usize * N + N];
        let (hp_carry, hn_carry) = block_row(|word| pm[word], &mut vp, &mut vn, last);
        dist = dist + hp_carry as usize - hn_carry as usize;
    }
    dist
}

/// A fixed first sequence, compiled once, measured against many second sequences (distance only:
/// the value does not depend on how ties are broken, so no affix is removed).
pub struct Pattern {
    masks: PatternMasks,
    len: usize,
}

impl Pattern {
    pub fn new(s1: &[u32], alphabet: usize) -> Self {
        Self { masks: PatternMasks::new(s1, alphabet), len: s1.len() }
    }

    /// Levenshtein distance from the pattern to `s2` (symbols below the pattern's alphabet).
    pub fn distance(&self, s2: &[u32]) -> usize {
        if self.len == 0 || s2.is_empty() {
            return self.len + s2.len();
        }
        let masks = &self.masks.masks;
        match self.masks.words {
            1 => {}
            2 => return block_distance::<2>(masks, self.len, s2),
            3 => return block_distance::<3>(masks, self.len, s2),
            4 => return block_distance::<4>(masks, self.len, s2),
            5 => return block_distance::<5>(masks, self.len, s2),
            6 => return block_distance::<6>(masks, self.len, s2),
            7 => return block_distance::<7>(masks, self.len, s2),
            8 => return block_distance::<8>(masks, self.len, s2),
            _ => return hyyro(&self.masks, self.len, s2, |_, _, _| {}),
        }
        self.column_distance(self.advance(self.start(), s2))
    }

    /// Whether the pattern fits one machine word (then `start`/`advance` apply).
    pub fn is_single_word(&self) -> bool {
        self.len >= 1 && self.masks.words == 1
    }

    /// The column before any symbol of `s2`.
    pub fn start(&self) -> Column {
        Column { vp: !0u64, vn: 0, rows: 0 }
    }

    /// The column after `s2` from `column` (rapidfuzz `levenshtein_hyrroe2003` on scalars, without its
    /// running distance: [`Pattern::column_distance`] reads it off the column); a single-word pattern
    /// only. Resuming from a shared prefix's column gives the same distance as starting over.
    pub fn advance(&self, column: Column, s2: &[u32]) -> Column {
        let Column { mut vp, mut vn, rows } = column;
        for &symbol in s2 {
            let x = self.masks.masks[symbol as usize];
            let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
            let hp = (vn | !(d0 | vp)) << 1 | 1;
            let hn = (d0 & vp) << 1;
            vp = hn | !(d0 | hp);
            vn = hp & d0;
        }
        Column { vp, vn, rows: rows + s2.len() }
    }

    /// The distance from the whole pattern to the symbols a column has seen: `D[rows][0] = rows` plus
    /// the column's vertical deltas over the pattern's positions.
    pub fn column_distance(&self, column: Column) -> usize {
        let mask = if self.len >= WORD { !0u64 } else { (1u64 << self.len) - 1 };
        column.rows + (column.vp & mask).count_ones() as usize - (column.vn & mask).count_ones() as usize
    }
}

/// Hyyrö's state after a prefix of the second sequence: the vertical deltas and the prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    vp: u64,
    vn: u64,
    rows: usize,
}

/// `D(s1[..i], s2)` for every `i` in `0..=len(s1)`: the last row of the matrix.
fn last_row_costs(s1: &[u32], s2: &[u32], alphabet: usize) -> Vec<usize> {
    let mut costs = Vec::with_capacity(s1.len() + 1);
    costs.push(s2.len());
    if s1.is_empty() {
        return costs;
    }
    if s2.is_empty() {
        costs.extend(1..=s1.len());
        return costs;
    }
    let pm = PatternMasks::new(s1, alphabet);
    let (mut vp, mut vn) = (Vec::new(), Vec::new());
    hyyro(&pm, s1.len(), s2, |row, row_vp, row_vn| {
        if row + 1 == s2.len() {
            vp = row_vp.to_vec();
            vn = row_vn.to_vec();
        }
    });
    let mut cost = s2.len();
    for i in 0..s1.len() {
        let bit = 1u64 << (i % WORD);
        cost = cost + usize::from(vp[i / WORD] & bit != 0) - usize::from(vn[i / WORD] & bit != 0);
        costs.push(cost);
    }
    costs
}

/// The common prefix length and the two middles (rapidfuzz `remove_common_affix`).
fn strip_common_affix<'a>(s1: &'a [u32], s2: &'a [u32]) -> (usize, (&'a [u32], &'a [u32])) {
    let prefix = s1.iter().zip(s2).take_while(|(a, b)| a == b).count();
    let (s1, s2) = (&s1[prefix..], &s2[prefix..]);
    let suffix = s1.iter().rev().zip(s2.iter().rev()).take_while(|(a, b)| a == b).count();
    (prefix, (&s1[..s1.len() - suffix], &s2[..s2.len() - suffix]))
}

/// Edit operations turning `s1` into `s2`, exactly as rapidfuzz's `Levenshtein.editops(s1, s2)`.
pub fn editops(s1: &[u32], s2: &[u32], alphabet: usize) -> Vec<EditOp> {
    let mut ops = Vec::new();
    align_hirschberg(s1, s2, alphabet, 0, 0, s1.len().max(s2.len()), &mut ops);
    ops
}

/// rapidfuzz `levenshtein_align_hirschberg`: direct back-trace below 1 MiB of matrix, else split `s2` in
/// half and recurse; `max` bounds the distance (it sets the band and so the size rule).
fn align_hirschberg(
    s1: &[u32],
    s2: &[u32],
    alphabet: usize,
    src: usize,
    dest: usize,
    max: usize,
    ops: &mut Vec<EditOp>,
) {
    let (prefix, (s1, s2)) = strip_common_affix(s1, s2);
    let (src, dest) = (src + prefix, dest + prefix);
    let max = max.min(s1.len().max(s2.len()));
    let full_band = s1.len().min(2 * max + 1);
    let matrix_bytes = 2 * full_band * s2.len() / 8;
    if matrix_bytes < 1024 * 1024 || s1.len() < 65 || s2.len() < 10 {
        align_direct(s1, s2, alphabet, src, dest, ops);
        return;
    }
    let s2_mid = s2.len() / 2;
    let left = last_row_costs(s1, &s2[..s2_mid], alphabet);
    let s1_reversed: Vec<u32> = s1.iter().rev().copied().collect();
    let s2_right_reversed: Vec<u32> = s2[s2_mid..].iter().rev().copied().collect();
    let right = last_row_costs(&s1_reversed, &s2_right_reversed, alphabet);
    // the first s1 position of least total cost (rapidfuzz `find_hirschberg_pos`, strict `<`)
    let (mut s1_mid, mut best) = (0, usize::MAX);
    for (i, &left_cost) in left.iter().enumerate() {
        let total = left_cost + right[s1.len() - i];
        if total < best {
            best = total;
            s1_mid = i;
        }
    }
    let (left_cost, right_cost) = (left[s1_mid], right[s1.len() - s1_mid]);
    align_hirschberg(&s1[..s1_mid], &s2[..s2_mid], alphabet, src, dest, left_cost, ops);
    align_hirschberg(&s1[s1_mid..], &s2[s2_mid..], alphabet, src + s1_mid, dest + s2_mid, right_cost, ops);
}

/// rapidfuzz `levenshtein_align` + `recover_alignment`: the whole matrix, then Hyyrö's back-trace.
fn align_direct(s1: &[u32], s2: &[u32], alphabet: usize, src: usize, dest: usize, ops: &mut Vec<EditOp>) {
    let start = ops.len();
    let (mut col, mut row) = (s1.len(), s2.len());
    if !s1.is_empty() && !s2.is_empty() {
        let pm = PatternMasks::new(s1, alphabet);
        let words = pm.words;
        let mut vp_rows = vec![0u64; words * s2.len()];
        let mut vn_rows = vec![0u64; words * s2.len()];
        hyyro(&pm, s1.len(), s2, |r, vp, vn| {
            vp_rows[r * words..(r + 1) * words].copy_from_slice(vp);
            vn_rows[r * words..(r + 1) * words].copy_from_slice(vn);
        });
        let bit = |rows: &[u64], r: usize, c: usize| rows[r * words + c / WORD] >> (c % WORD) & 1 != 0;
        // operations are found last to first
        while row > 0 && col > 0 {
            if bit(&vp_rows, row - 1, col - 1) {
                col -= 1;
                ops.push(EditOp { kind: EditKind::Delete, src_pos: col + src, dest_pos: row + dest });
            } else {
                row -= 1;
                if row > 0 && bit(&vn_rows, row - 1, col - 1) {
                    ops.push(EditOp { kind: EditKind::Insert, src_pos: col + src, dest_pos: row + dest });
                } else {
                    col -= 1;
                    if s1[col] != s2[row] {
                        ops.push(EditOp { kind: EditKind::Replace, src_pos: col + src, dest_pos: row + dest });
                    }
                }
            }
        }
    }
    while col > 0 {
        col -= 1;
        ops.push(EditOp { kind: EditKind::Delete, src_pos: col + src, dest_pos: row + dest });
    }
    while row > 0 {
        row -= 1;
        ops.push(EditOp { kind: EditKind::Insert, src_pos: col + src, dest_pos: row + dest });
    }
    ops[start..].reverse();
}

/// Groups edit operations into opcodes with the equal blocks between them (rapidfuzz
/// `Opcodes(const Editops&)` in `details/types.hpp`): consecutive operations of one kind merge.
pub fn opcodes(ops: &[EditOp], src_len: usize, dest_len: usize) -> Vec<Opcode> {
    let mut blocks = Vec::new();
    let (mut src, mut dest) = (0, 0);
    let mut i = 0;
    while i < ops.len() {
        if src < ops[i].src_pos || dest < ops[i].dest_pos {
            blocks.push(Opcode {
                kind: None,
                src_start: src,
                src_end: ops[i].src_pos,
                dest_start: dest,
                dest_end: ops[i].dest_pos,
            });
            src = ops[i].src_pos;
            dest = ops[i].dest_pos;
        }
        let (src_start, dest_start, kind) = (src, dest, ops[i].kind);
        loop {
            match kind {
                EditKind::Replace => {
                    src += 1;
                    dest += 1;
                }
                EditKind::Insert => dest += 1,
                EditKind::Delete => src += 1,
            }
            i += 1;
            if !(i < ops.len() && ops[i].kind == kind && ops[i].src_pos == src && ops[i].dest_pos == dest) {
                break;
            }
        }
        blocks.push(Opcode { kind: Some(kind), src_start, src_end: src, dest_start, dest_end: dest });
    }
    if src < src_len || dest < dest_len {
        blocks.push(Opcode { kind: None, src_start: src, src_end: src_len, dest_start: dest, dest_end: dest_len });
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook O(n·m) distance, to check the bit-parallel one against.
    fn naive_distance(a: &[u32], b: &[u32]) -> usize {
        let mut prev: Vec<usize> = (0..=a.len()).collect();
        for (j, &y) in b.iter().enumerate() {
            let mut cur = vec![j + 1; a.len() + 1];
            for i in 1..=a.len() {
                cur[i] = (prev[i] + 1).min(cur[i - 1] + 1).min(prev[i - 1] + usize::from(a[i - 1] != y));
            }
            prev = cur;
        }
        prev[a.len()]
    }

    /// A tiny deterministic generator (synthetic data for property checks).
    fn lcg(state: &mut u64) -> u32 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*state >> 33) as u32
    }

    fn apply(s1: &[u32], s2: &[u32], ops: &[EditOp]) -> Vec<u32> {
        let mut out = Vec::new();
        let mut src = 0;
        for op in ops {
            out.extend_from_slice(&s1[src..op.src_pos]);
            src = op.src_pos;
            match op.kind {
                EditKind::Replace => {
                    out.push(s2[op.dest_pos]);
                    src += 1;
                }
                EditKind::Insert => out.push(s2[op.dest_pos]),
                EditKind::Delete => src += 1,
            }
        }
        out.extend_from_slice(&s1[src..]);
        out
    }

    #[test]
    fn rapidfuzz_docstring_example() {
        // rapidfuzz 3.14.6: Levenshtein.editops("qabxcd", "abycdf") = delete 0/0, replace 3/2, insert 6/5
        let (s1, s2) = ([0, 1, 2, 3, 4, 5], [1, 2, 6, 4, 5, 7]);
        let ops = editops(&s1, &s2, 8);
        assert_eq!(
            ops,
            vec![
                EditOp { kind: EditKind::Delete, src_pos: 0, dest_pos: 0 },
                EditOp { kind: EditKind::Replace, src_pos: 3, dest_pos: 2 },
                EditOp { kind: EditKind::Insert, src_pos: 6, dest_pos: 5 },
            ]
        );
        let codes = opcodes(&ops, 6, 6);
        let kinds: Vec<_> = codes.iter().map(|c| (c.kind, c.src_start, c.src_end, c.dest_start, c.dest_end)).collect();
        assert_eq!(
            kinds,
            vec![
                (Some(EditKind::Delete), 0, 1, 0, 0),
                (None, 1, 3, 0, 2),
                (Some(EditKind::Replace), 3, 4, 2, 3),
                (None, 4, 6, 3, 5),
                (Some(EditKind::Insert), 6, 6, 5, 6),
            ]
        );
    }

    #[test]
    fn single_word_columns_resume_and_read_the_distance() {
        let mut state = 11u64;
        for trial in 0..2000 {
            let alphabet = [2usize, 3, 7, 40][trial % 4];
            let len1 = 1 + (lcg(&mut state) % 64) as usize;
            let len2 = (lcg(&mut state) % 90) as usize;
            let s1: Vec<u32> = (0..len1).map(|_| lcg(&mut state) % alphabet as u32).collect();
            let s2: Vec<u32> = (0..len2).map(|_| lcg(&mut state) % alphabet as u32).collect();
            let pattern = Pattern::new(&s1, alphabet);
            let cut = (lcg(&mut state) as usize) % (len2 + 1);
            let column = pattern.advance(pattern.advance(pattern.start(), &s2[..cut]), &s2[cut..]);
            assert_eq!(pattern.column_distance(column), naive_distance(&s1, &s2), "{s1:?} {s2:?}");
            assert_eq!(pattern.distance(&s2), naive_distance(&s1, &s2));
        }
    }

    #[test]
    fn distance_and_alignment_are_minimal_and_valid() {
        let mut state = 7u64;
        for trial in 0..400 {
            let alphabet = [2usize, 3, 7, 40][trial % 4];
            let len1 = (lcg(&mut state) % 600) as usize;
            let len2 = (lcg(&mut state) % 600) as usize;
            let s1: Vec<u32> = (0..len1).map(|_| lcg(&mut state) % alphabet as u32).collect();
            let s2: Vec<u32> = (0..len2).map(|_| lcg(&mut state) % alphabet as u32).collect();
            let expected = naive_distance(&s1, &s2);
            assert_eq!(distance(&s1, &s2, alphabet), expected);
            assert_eq!(distance(&s2, &s1, alphabet), expected);
            assert_eq!(Pattern::new(&s2, alphabet).distance(&s1), expected);
            let ops = editops(&s1, &s2, alphabet);
            assert_eq!(ops.len(), expected);
            assert_eq!(apply(&s1, &s2, &ops), s2);
        }
    }

    #[test]
    fn hirschberg_split_keeps_the_alignment_minimal() {
        // 2200 x 2200 symbols: above rapidfuzz's 1 MiB matrix limit, so the split path runs
        let mut state = 11u64;
        let s1: Vec<u32> = (0..2200).map(|_| lcg(&mut state) % 4).collect();
        let mut s2 = s1.clone();
        for k in 0..60 {
            let at = (lcg(&mut state) as usize) % s2.len();
            if k % 3 == 0 {
                s2.remove(at);
            } else {
                s2[at] = lcg(&mut state) % 4;
            }
        }
        let ops = editops(&s1, &s2, 4);
        assert_eq!(ops.len(), distance(&s1, &s2, 4));
        assert_eq!(apply(&s1, &s2, &ops), s2);
    }

    #[test]
    fn empty_sides() {
        assert_eq!(editops(&[], &[], 1), vec![]);
        assert_eq!(editops(&[0, 0], &[], 1).len(), 2);
        assert_eq!(opcodes(&editops(&[], &[0], 1), 0, 1)[0].kind, Some(EditKind::Insert));
        assert_eq!(distance(&[], &[0, 0, 0], 1), 3);
    }
}
