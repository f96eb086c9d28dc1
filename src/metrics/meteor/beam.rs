//! The aligner's beam search (`Aligner.resolve` in cmu-mtlab/meteor), allocation-free.
//!
//! A path (`PartialAlignment`) is a small `Copy` state plus a bitset of used words (hypothesis
//! bits, then reference bits) kept in a pool with one fixed-size slot per path; the matches a path
//! chose live in a shared arena as a linked list. An expansion is queued as (state, parent path,
//! candidate) and only the `beam_size` kept ones get their bitset and arena node: memory per
//! position is O(beam × candidates) small records, not bitsets (the jar copies two boolean arrays per
//! expansion, so "a a a …" of 3,000 words took gigabytes). Ranking sorts unique keys (score, chunks,
//! distance, position in the queue), which orders exactly as the jar's stable `Collections.sort`
//! with `PARTIAL_COMPARE_TOTAL`; only the `beam_size` best are selected and sorted.

use super::types::{Candidates, Match, Matchers};

/// One search path, without its used-word bits.
#[derive(Clone, Copy)]
struct State {
    /// Arena index of the last match this path chose, or [`NO_MATCH`].
    last: u32,
    matches1: i32,
    matches2: i32,
    chunks: i32,
    idx: usize,
    last_match_end: i64,
    distance: i32,
}

const NO_MATCH: u32 = u32::MAX;

impl State {
    /// Weighted coverage accumulates in Java `int` fields: `int += double` truncates the sum.
    /// With a non-negative count and a search weight of 1 or 0.5 the sum is exact, so it equals
    /// the count plus the truncated weighted length ([`weighted_lengths`], computed once per match).
    fn add_weighted(&mut self, (add1, add2): (i32, i32)) {
        self.matches1 += add1;
        self.matches2 += add2;
    }

    /// `PARTIAL_COMPARE_TOTAL` as an ascending key: more weighted matches, fewer chunks, less
    /// distance; `position` (the place in the queue) reproduces the stable sort's tie order.
    /// Packed into one integer (each field biased to an order-preserving u32) so sorting compares once.
    fn rank(&self, position: usize) -> u128 {
        let biased = |v: i64| (v.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 ^ 0x8000_0000) as u128;
        biased(-(self.matches1 as i64 + self.matches2 as i64)) << 96
            | biased(self.chunks as i64) << 64
            | biased(self.distance as i64) << 32
            | position as u128
    }

    /// Take match `m` as the next one (chunk, position and distance bookkeeping of the jar).
    fn advance_over(&mut self, m: &Match) {
        if self.last_match_end != -1 && m.match_start as i64 != self.last_match_end {
            self.chunks += 1;
        }
        self.idx = (m.start + m.length) as usize;
        self.last_match_end = (m.match_start + m.match_length) as i64;
    }
}

/// What a match adds to a path's weighted coverage of each line (see [`State::add_weighted`]).
fn weighted_lengths(m: &Match, weight: f64) -> (i32, i32) {
    debug_assert!(weight == 1.0 || weight == 0.5);
    ((m.match_length as f64 * weight) as i32, (m.length as f64 * weight) as i32)
}

/// Paths with their used-word bitsets (`width` words per path).
#[derive(Default)]
struct Queue {
    states: Vec<State>,
    bits: Vec<u64>,
}

impl Queue {
    fn clear(&mut self) {
        self.states.clear();
        self.bits.clear();
    }

    fn push(&mut self, state: State, bits: &[u64]) {
        self.states.push(state);
        self.bits.extend_from_slice(bits);
    }
}

/// An expansion waiting for the ranking: the new state, the path it extends (index into the
/// current queue) and the candidate it adds (index into `Candidates::sorted`, or [`NO_MATCH`]).
#[derive(Clone, Copy)]
struct Pending {
    state: State,
    parent: u32,
    candidate: u32,
}

/// Reusable buffers of the search.
#[derive(Default)]
pub struct BeamScratch {
    current: Queue,
    previous: Queue,
    next: Vec<Pending>,
    order: Vec<u128>,
    /// Per candidate, its [`weighted_lengths`].
    gains: Vec<(i32, i32)>,
    start_bits: Vec<u64>,
    arena: Vec<(Match, u32)>,
}

fn set_bits(bits: &mut [u64], from: usize, count: usize) {
    for k in from..from + count {
        bits[k / 64] |= 1 << (k % 64);
    }
}

fn bit(bits: &[u64], k: usize) -> bool {
    bits[k / 64] >> (k % 64) & 1 == 1
}

/// Used-word mask of a match: hypothesis words, then reference words after `n1`.
fn mask_of(m: &Match, n1: usize, out: &mut [u64]) {
    set_bits(out, m.match_start as usize, m.match_length as usize);
    set_bits(out, n1 + m.start as usize, m.length as usize);
}

/// Whether a match uses a word already used in `bits`.
fn overlaps(m: &Match, n1: usize, bits: &[u64]) -> bool {
    let any = |from: usize, count: usize| (from..from + count).any(|k| bit(bits, k));
    any(m.match_start as usize, m.match_length as usize) || any(n1 + m.start as usize, m.length as usize)
}

/// The beam search from the fixed matches; on return `matches` holds the fixed matches plus those
/// of the best path (indexed by reference start position). Reproduces the jar's quirk of charging
/// each expanded candidate's distance to the parent path (so later siblings and the skip path
/// inherit it). A used reference word at the path's frontier can only start a fixed match: the
/// search itself only ever sets matches at the current position and then jumps past them.
pub fn resolve(
    stage: &Candidates,
    matches: &mut [Option<Match>],
    n1: usize,
    matchers: &Matchers<'_>,
    scratch: &mut BeamScratch,
) {
    // Most segment pairs have at most 128 words: a fixed bitset width lets the compiler unroll
    // every bitset loop for them.
    match (n1 + matches.len()).div_ceil(64) {
        0 | 1 => resolve_with::<1>(stage, matches, n1, matchers, scratch),
        2 => resolve_with::<2>(stage, matches, n1, matchers, scratch),
        _ => resolve_with::<0>(stage, matches, n1, matchers, scratch),
    }
}

/// [`resolve`] with bitsets of `WIDTH` words (0: as many as the lines need).
fn resolve_with<const WIDTH: usize>(
    stage: &Candidates,
    matches: &mut [Option<Match>],
    n1: usize,
    matchers: &Matchers<'_>,
    scratch: &mut BeamScratch,
) {
    let n2 = matches.len();
    let width = if WIDTH == 0 { (n1 + n2).div_ceil(64).max(1) } else { WIDTH };
    let weight = |m: &Match| matchers.modules[m.stage as usize].search_weight();
    let BeamScratch { current, previous, next, order, gains, start_bits, arena } = scratch;
    arena.clear();

    gains.clear();
    gains.extend(stage.sorted.iter().map(|m| weighted_lengths(m, weight(m))));
    start_bits.clear();
    start_bits.resize(width, 0);
    for m in matches.iter().flatten() {
        mask_of(m, n1, start_bits);
    }

    current.clear();
    current.push(
        State { last: NO_MATCH, matches1: 0, matches2: 0, chunks: 0, idx: 0, last_match_end: -1, distance: 0 },
        start_bits,
    );
    next.clear();
    next.push(Pending { state: current.states[0], parent: 0, candidate: NO_MATCH });
    for position in 0..=n2 {
        // The best `beam_size` paths of the queue, best first; only they get bits and arena nodes.
        order.clear();
        order.extend(next.iter().enumerate().map(|(k, p)| p.state.rank(k)));
        if order.len() > matchers.beam_size {
            order.select_nth_unstable(matchers.beam_size - 1);
            order.truncate(matchers.beam_size);
        }
        order.sort_unstable();
        std::mem::swap(current, previous);
        current.clear();
        let parents = &*previous;
        for key in order.iter() {
            let Pending { mut state, parent, candidate } = next[*key as u32 as usize];
            let parent = parent as usize;
            current.push(state, &parents.bits[parent * width..(parent + 1) * width]);
            if candidate != NO_MATCH {
                let m = stage.sorted[candidate as usize];
                let slot = current.bits.len() - width;
                mask_of(&m, n1, &mut current.bits[slot..]);
                arena.push((m, state.last));
                state.last = (arena.len() - 1) as u32;
                *current.states.last_mut().expect("just pushed") = state;
            }
        }
        next.clear();

        for (p, &state) in current.states.iter().enumerate() {
            let mut path = state;
            let parent = p as u32;
            let bits = &current.bits[p * width..(p + 1) * width];
            if position == n2 {
                if path.last_match_end != -1 {
                    path.chunks += 1;
                }
                next.push(Pending { state: path, parent, candidate: NO_MATCH });
                continue;
            }
            if bit(bits, n1 + position) {
                if position < path.idx {
                    next.push(Pending { state: path, parent, candidate: NO_MATCH });
                } else if let Some(m) = matches[path.idx] {
                    path.add_weighted(weighted_lengths(&m, weight(&m)));
                    path.advance_over(&m);
                    path.distance += (m.start as i32 - m.match_start as i32).abs();
                    next.push(Pending { state: path, parent, candidate: NO_MATCH });
                }
                continue;
            }
            let first = stage.offsets[position] as usize;
            for (k, m) in stage.by_start(position).iter().enumerate() {
                if overlaps(m, n1, bits) {
                    continue;
                }
                let mut new_path = path;
                new_path.add_weighted(gains[first + k]);
                new_path.advance_over(m);
                path.distance += (m.start as i32 - m.match_start as i32).abs();
                next.push(Pending { state: new_path, parent, candidate: (first + k) as u32 });
            }
            if path.last_match_end != -1 {
                path.chunks += 1;
                path.last_match_end = -1;
            }
            path.idx += 1;
            next.push(Pending { state: path, parent, candidate: NO_MATCH });
        }
        if next.is_empty() {
            // The jar: "unexpected conditions - skipping matches until possible to continue".
            next.push(Pending { state: current.states[0], parent: 0, candidate: NO_MATCH });
        }
    }
    // The last position's expansions add no match: their states hold the whole path.
    let best = next
        .iter()
        .enumerate()
        .min_by_key(|(k, p)| p.state.rank(*k))
        .map(|(_, p)| p.state)
        .expect("the search queue is never empty");
    let mut node = best.last;
    while node != NO_MATCH {
        let (m, parent) = arena[node as usize];
        matches[m.start as usize] = Some(m);
        node = parent;
    }
}
