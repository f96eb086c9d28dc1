//! Diversity of a set of outputs: distinct-n and self-BLEU statistics.
//!
//! * distinct-n (Li et al. 2016, "A Diversity-Promoting Objective Function for Neural Conversation
//!   Models", §4.3): distinct n-grams / n-grams. Per output `[distinct_i, total_i]`, and the number
//!   of distinct n-grams of all outputs together (the corpus-level numerator).
//! * self-BLEU (Zhu et al. 2018, Texygen, `utils/metrics/SelfBleu.py`): each output scored by BLEU
//!   against all the *other* outputs as its references. Rows here are BLEU statistics in sacreBLEU's
//!   layout `[hyp_len, closest_ref_len, matches_1..N, totals_1..N]`; the Python layer scores them as
//!   sacreBLEU's `sentence_bleu` or NLTK's `sentence_bleu` (Texygen's variant).
//!
//! Self-BLEU in linear time: for each n-gram, the largest count in any one output, how many outputs
//! reach it, and the second largest. An output's "max over the others" is then the largest count
//! unless the output alone holds it (then the second largest): the same clipped counts as scoring
//! against the N − 1 others, without the N² work.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::ngram::{ngram_total, NgramIndex};

/// Per output: each distinct n-gram id (of any order ≤ `max_order`) with its count, ids ascending.
fn ngram_counts(outputs: &[Vec<u32>], max_order: usize) -> (NgramIndex, Vec<Vec<(u32, u32)>>) {
    let vocab_size = outputs.iter().flatten().max().map_or(0, |&id| id + 1);
    let mut index = NgramIndex::new(vocab_size);
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(outputs.len());
    for output in outputs {
        let mut mine = Vec::with_capacity(output.len() * max_order);
        index.insert_all(output, max_order, |_, _, id| mine.push(id));
        ids.push(mine);
    }
    let counts = ids
        .into_par_iter()
        .map(|mut mine| {
            mine.sort_unstable();
            let mut runs: Vec<(u32, u32)> = Vec::new();
            for id in mine {
                match runs.last_mut() {
                    Some((last, count)) if *last == id => *count += 1,
                    _ => runs.push((id, 1)),
                }
            }
            runs
        })
        .collect();
    (index, counts)
}

/// distinct-n statistics: per output `[distinct n-grams, n-grams]` (flattened), and the number of
/// distinct n-grams over all outputs together.
///
/// ```
/// use nlgmetrics::metrics::diversity::distinct_stats;
/// let (rows, corpus_distinct) = distinct_stats(&[vec![0, 1, 0, 1], vec![0, 1, 2]], 2);
/// assert_eq!(rows, vec![2, 3, 2, 2]); // "0 1", "1 0" of 3 bigrams; "0 1", "1 2" of 2
/// assert_eq!(corpus_distinct, 3);     // "0 1", "1 0", "1 2"
/// ```
pub fn distinct_stats(outputs: &[Vec<u32>], n: usize) -> (Vec<u64>, u64) {
    if n == 0 {
        return (vec![0; 2 * outputs.len()], 0);
    }
    let (index, counts) = ngram_counts(outputs, n);
    let order = n as u32;
    let mut seen = vec![false; index.len()];
    let mut corpus_distinct = 0u64;
    let mut rows = Vec::with_capacity(2 * outputs.len());
    for (output, runs) in outputs.iter().zip(&counts) {
        let mut distinct = 0u64;
        for &(id, _) in runs.iter().filter(|(id, _)| index.order_of(*id) == order) {
            distinct += 1;
            if !seen[id as usize] {
                seen[id as usize] = true;
                corpus_distinct += 1;
            }
        }
        rows.push(distinct);
        rows.push(ngram_total(output.len(), n) as u64);
    }
    (rows, corpus_distinct)
}

/// Self-BLEU statistics rows, `2 + 2 * max_order` wide: output i against all outputs but i.
/// The closest reference length is the other outputs' length nearest to output i's, the shorter
/// on ties (sacreBLEU's and NLTK's rule). Needs at least two outputs.
pub fn self_bleu_stats(outputs: &[Vec<u32>], max_order: usize) -> Result<Vec<i64>> {
    if outputs.len() < 2 {
        return Err(Error::ShapeMismatch(format!("self-BLEU needs at least 2 outputs, got {}", outputs.len())));
    }
    if max_order == 0 {
        return Err(Error::InvalidOption("max_order must be at least 1".into()));
    }
    let (index, counts) = ngram_counts(outputs, max_order);
    // Per n-gram: largest count in one output, how many outputs have it, second largest.
    let mut top = vec![(0u32, 0u32, 0u32); index.len()];
    for runs in &counts {
        for &(id, count) in runs {
            let (first, holders, second) = &mut top[id as usize];
            if count > *first {
                *second = *first;
                *first = count;
                *holders = 1;
            } else if count == *first {
                *holders += 1;
            } else if count > *second {
                *second = count;
            }
        }
    }
    let mut lengths: BTreeMap<usize, usize> = BTreeMap::new();
    for output in outputs {
        *lengths.entry(output.len()).or_insert(0) += 1;
    }
    let width = 2 + 2 * max_order;
    let rows: Vec<Vec<i64>> = outputs
        .par_iter()
        .zip(counts.par_iter())
        .map(|(output, runs)| {
            let mut row = vec![0i64; width];
            row[0] = output.len() as i64;
            row[1] = closest_other_length(&lengths, output.len()) as i64;
            for &(id, count) in runs {
                let (first, holders, second) = top[id as usize];
                let others_max = if count == first && holders == 1 { second } else { first };
                row[1 + index.order_of(id) as usize] += i64::from(count.min(others_max));
            }
            for n in 1..=max_order {
                row[1 + max_order + n] = ngram_total(output.len(), n) as i64;
            }
            row
        })
        .collect();
    Ok(rows.into_iter().flatten().collect())
}

/// The length nearest to `own` among all lengths but one copy of `own` (the shorter on ties).
fn closest_other_length(lengths: &BTreeMap<usize, usize>, own: usize) -> usize {
    if lengths.get(&own).copied().unwrap_or(0) >= 2 {
        return own;
    }
    let below = lengths.range(..own).next_back().map(|(&len, _)| len);
    let above = lengths.range(own + 1..).next().map(|(&len, _)| len);
    match (below, above) {
        (Some(b), Some(a)) => {
            if own - b <= a - own {
                b
            } else {
                a
            }
        }
        (Some(b), None) => b,
        (None, Some(a)) => a,
        (None, None) => own, // unreachable with two or more outputs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ngram::{clipped_matches_all_orders, Vocab};

    #[test]
    fn self_bleu_rows_equal_scoring_against_the_others() {
        let mut next = crate::test_random::lcg(0xdead_beef_cafe_f00du64);
        for _ in 0..300 {
            let alphabet = 1 + next(5);
            let outputs: Vec<Vec<u32>> =
                (0..2 + next(6)).map(|_| (0..next(10)).map(|_| next(alphabet) as u32).collect()).collect();
            let max_order = 1 + next(4) as usize;
            let rows = self_bleu_stats(&outputs, max_order).unwrap();
            for (i, row) in rows.chunks(2 + 2 * max_order).enumerate() {
                let others: Vec<Vec<u32>> =
                    outputs.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, o)| o.clone()).collect();
                let mut matches = vec![0u64; max_order];
                clipped_matches_all_orders(&outputs[i], &others, max_order, &mut matches);
                let closest = others.iter().map(Vec::len).min_by_key(|&l| (l.abs_diff(outputs[i].len()), l)).unwrap();
                assert_eq!(row[1] as usize, closest);
                assert_eq!(
                    row[2..2 + max_order].iter().map(|&m| m as u64).collect::<Vec<_>>(),
                    matches,
                    "{outputs:?} {i}"
                );
            }
        }
    }

    #[test]
    fn distinct_counts_and_errors() {
        let mut vocab = Vocab::default();
        let outputs: Vec<Vec<u32>> = ["a b a b", "", "a b c"].iter().map(|s| vocab.ids(s.split_whitespace())).collect();
        let (rows, corpus) = distinct_stats(&outputs, 1);
        assert_eq!(rows, vec![2, 4, 0, 0, 3, 3]);
        assert_eq!(corpus, 3);
        assert!(self_bleu_stats(&outputs[..1], 4).is_err());
        assert!(self_bleu_stats(&outputs, 0).is_err());
    }
}
