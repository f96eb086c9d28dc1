//! Synthetic data for the property tests: a tiny deterministic generator (Knuth's MMIX LCG, high bits).

/// `next(bound)` gives the next pseudo-random value in `0..bound`; the same seed gives the same sequence.
pub(crate) fn lcg(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % bound
    }
}
