//! Longest common subsequences: sentence-level ROUGE-L and rouge_score's summary-level ROUGE-Lsum.

/// Length of the longest common subsequence of `a` and `b`: bit-parallel (Hyyrö 2004), exact.
/// Ids are small dense integers (interned per segment), so match masks are indexed by id.
pub fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    if let Some((a, b)) = densify(a, b) {
        return lcs_length(&a, &b);
    }
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return 0;
    }
    let words = short.len().div_ceil(64);
    let max_id = short.iter().copied().max().unwrap_or(0) as usize;
    let mut masks = vec![0u64; (max_id + 1) * words];
    for (i, &symbol) in short.iter().enumerate() {
        masks[symbol as usize * words + i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; words];
    let zero = vec![0u64; words];
    for &symbol in long {
        let mask = if (symbol as usize) <= max_id {
            &masks[symbol as usize * words..][..words]
        } else {
            &zero[..]
        };
        let mut carry = 0u64;
        for w in 0..words {
            let u = v[w] & mask[w];
            let (sum, c1) = v[w].overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(carry);
            carry = (c1 | c2) as u64;
            v[w] = sum | (v[w] & !mask[w]);
        }
    }
    let mut zeros = 0usize;
    for (w, &word) in v.iter().enumerate() {
        let bits = (short.len() - w * 64).min(64);
        let valid = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!word & valid).count_ones() as usize;
    }
    zeros
}

/// Ids above this are remapped before array-indexed counting (callers normally pass dense ids).
const DENSE_ID_LIMIT: u32 = 1 << 20;

/// `a` and `b` with ids renumbered densely, when some id is too large to index an array.
pub(crate) fn densify(a: &[u32], b: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    if a.iter().chain(b).all(|&id| id < DENSE_ID_LIMIT) {
        return None;
    }
    let mut ids: rustc_hash::FxHashMap<u32, u32> = Default::default();
    let mut renumber = |seq: &[u32]| -> Vec<u32> {
        seq.iter()
            .map(|&id| {
                let next = ids.len() as u32;
                *ids.entry(id).or_insert(next)
            })
            .collect()
    };
    let a = renumber(a);
    let b = renumber(b);
    Some((a, b))
}

/// Full LCS table (rows = `reference` + 1, columns = `candidate` + 1), row-major, reusing `table`.
fn fill_table(reference: &[u32], candidate: &[u32], table: &mut Vec<u32>) {
    let cols = candidate.len() + 1;
    table.clear();
    table.resize((reference.len() + 1) * cols, 0);
    for (i, &token) in reference.iter().enumerate() {
        let (above, below) = table.split_at_mut((i + 1) * cols);
        let previous = &above[i * cols..];
        let current = &mut below[..cols];
        for (j, &other) in candidate.iter().enumerate() {
            current[j + 1] = if token == other {
                previous[j] + 1
            } else {
                previous[j + 1].max(current[j])
            };
        }
    }
}

/// The reference positions of one LCS, chosen exactly as rouge_score's `_backtrack_norec`:
/// from the bottom-right, take a match; else move left only when that cell is strictly larger.
pub(crate) fn lcs_reference_positions(
    reference: &[u32],
    candidate: &[u32],
    table: &mut Vec<u32>,
    positions: &mut Vec<usize>,
) {
    fill_table(reference, candidate, table);
    let cols = candidate.len() + 1;
    let (mut i, mut j) = (reference.len(), candidate.len());
    while i > 0 && j > 0 {
        if reference[i - 1] == candidate[j - 1] {
            positions.push(i - 1);
            i -= 1;
            j -= 1;
        } else if table[i * cols + j - 1] > table[(i - 1) * cols + j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

/// rouge_score's summary-level LCS hits (`_summary_level_lcs`): for each reference sentence, the
/// union of its LCS positions with every candidate sentence; each union token counts once while
/// both summaries still have an unused occurrence of it (the ROUGE-1.5.5 double-count guard).
pub fn summary_lcs_hits_rouge_score(reference: &[Vec<u32>], candidate: &[Vec<u32>]) -> usize {
    if reference
        .iter()
        .chain(candidate)
        .flatten()
        .any(|&id| id >= DENSE_ID_LIMIT)
    {
        // Renumber every sentence through one map (join both summaries, then split them back).
        let flat_reference: Vec<u32> = reference.concat();
        let flat_candidate: Vec<u32> = candidate.concat();
        let (dense_reference, dense_candidate) =
            densify(&flat_reference, &flat_candidate).unwrap_or_default();
        let split = |flat: &[u32], shape: &[Vec<u32>]| -> Vec<Vec<u32>> {
            let mut at = 0;
            shape
                .iter()
                .map(|s| {
                    let part = flat[at..at + s.len()].to_vec();
                    at += s.len();
                    part
                })
                .collect()
        };
        return summary_lcs_hits_rouge_score(
            &split(&dense_reference, reference),
            &split(&dense_candidate, candidate),
        );
    }
    // Ids are small dense integers (interned per segment): count them in arrays.
    let size = reference
        .iter()
        .chain(candidate)
        .flatten()
        .copied()
        .max()
        .map_or(0, |m| m as usize + 1);
    let mut reference_counts = vec![0usize; size];
    let mut candidate_counts = vec![0usize; size];
    for &token in reference.iter().flatten() {
        reference_counts[token as usize] += 1;
    }
    for &token in candidate.iter().flatten() {
        candidate_counts[token as usize] += 1;
    }
    let mut table = Vec::new();
    let mut positions = Vec::new();
    let mut hits = 0;
    for sentence in reference {
        positions.clear();
        for candidate_sentence in candidate {
            lcs_reference_positions(sentence, candidate_sentence, &mut table, &mut positions);
        }
        positions.sort_unstable();
        positions.dedup();
        for &position in &positions {
            let token = sentence[position] as usize;
            if candidate_counts[token] > 0 && reference_counts[token] > 0 {
                hits += 1;
                candidate_counts[token] -= 1;
                reference_counts[token] -= 1;
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_ids_are_fine() {
        assert_eq!(lcs_length(&[u32::MAX, 5, 7], &[5, u32::MAX, 7]), 2);
        let reference = vec![vec![u32::MAX, 2, 3]];
        let candidate = vec![vec![u32::MAX, 3]];
        assert_eq!(summary_lcs_hits_rouge_score(&reference, &candidate), 2);
    }

    #[test]
    fn lcs_of_paper_example() {
        // "police killed the gunman" vs "police kill the gunman": LCS 3.
        assert_eq!(lcs_length(&[0, 1, 2, 3], &[0, 4, 2, 3]), 3);
        assert_eq!(lcs_length(&[], &[1]), 0);
    }

    /// Reference implementation of `lcs_length` (dynamic programme).
    fn lcs_length_dp(a: &[u32], b: &[u32]) -> usize {
        let mut previous = vec![0usize; b.len() + 1];
        let mut current = vec![0usize; b.len() + 1];
        for &x in a {
            for (j, &y) in b.iter().enumerate() {
                current[j + 1] = if x == y {
                    previous[j] + 1
                } else {
                    previous[j + 1].max(current[j])
                };
            }
            std::mem::swap(&mut previous, &mut current);
        }
        previous[b.len()]
    }

    #[test]
    fn bit_parallel_lcs_equals_the_dynamic_programme() {
        // Deterministic pseudo-random sequences over small alphabets, lengths across word boundaries.
        let mut state = 12345u64;
        let mut next = |modulus: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % modulus) as u32
        };
        for round in 0..300 {
            let alphabet = 2 + (round % 7) as u64;
            let (n, m) = (next(200) as usize, next(200) as usize);
            let a: Vec<u32> = (0..n).map(|_| next(alphabet)).collect();
            let b: Vec<u32> = (0..m).map(|_| next(alphabet)).collect();
            assert_eq!(lcs_length(&a, &b), lcs_length_dp(&a, &b), "round {round}");
        }
    }

    #[test]
    fn summary_level_example_from_the_rouge_paper() {
        // ROUGE paper §3.2: r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8; c2 = w1 w3 w8 w9 w5 → union 4.
        let reference = vec![vec![1, 2, 3, 4, 5]];
        let candidate = vec![vec![1, 2, 6, 7, 8], vec![1, 3, 8, 9, 5]];
        assert_eq!(summary_lcs_hits_rouge_score(&reference, &candidate), 4);
    }
}
