//! Longest common subsequences: sentence-level ROUGE-L and rouge_score's summary-level ROUGE-Lsum.

use rustc_hash::FxHashMap;

/// Length of the longest common subsequence of `a` and `b` (two-row dynamic programme).
pub fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
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

/// Full LCS table (rows = `reference` + 1, columns = `candidate` + 1), row-major, reusing `table`.
fn fill_table(reference: &[u32], candidate: &[u32], table: &mut Vec<u32>) {
    let cols = candidate.len() + 1;
    table.clear();
    table.resize((reference.len() + 1) * cols, 0);
    for i in 1..=reference.len() {
        for j in 1..=candidate.len() {
            table[i * cols + j] = if reference[i - 1] == candidate[j - 1] {
                table[(i - 1) * cols + j - 1] + 1
            } else {
                table[(i - 1) * cols + j].max(table[i * cols + j - 1])
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
    let mut reference_counts: FxHashMap<u32, usize> = FxHashMap::default();
    let mut candidate_counts: FxHashMap<u32, usize> = FxHashMap::default();
    for &token in reference.iter().flatten() {
        *reference_counts.entry(token).or_insert(0) += 1;
    }
    for &token in candidate.iter().flatten() {
        *candidate_counts.entry(token).or_insert(0) += 1;
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
            let token = sentence[position];
            let in_candidate = candidate_counts.get_mut(&token);
            let in_reference = reference_counts.get_mut(&token);
            if let (Some(c), Some(r)) = (in_candidate, in_reference) {
                if *c > 0 && *r > 0 {
                    hits += 1;
                    *c -= 1;
                    *r -= 1;
                }
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_of_paper_example() {
        // "police killed the gunman" vs "police kill the gunman": LCS 3.
        assert_eq!(lcs_length(&[0, 1, 2, 3], &[0, 4, 2, 3]), 3);
        assert_eq!(lcs_length(&[], &[1]), 0);
    }

    #[test]
    fn summary_level_example_from_the_rouge_paper() {
        // ROUGE paper §3.2: r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8; c2 = w1 w3 w8 w9 w5 → union 4.
        let reference = vec![vec![1, 2, 3, 4, 5]];
        let candidate = vec![vec![1, 2, 6, 7, 8], vec![1, 3, 8, 9, 5]];
        assert_eq!(summary_lcs_hits_rouge_score(&reference, &candidate), 4);
    }
}
