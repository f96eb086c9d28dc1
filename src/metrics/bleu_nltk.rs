//! Segment statistics of NLTK's BLEU (`nltk/translate/bleu_score.py`, NLTK 3.10.4).
//!
//! NLTK's corpus BLEU is a function of, per segment: the hypothesis length, the closest reference
//! length (ties go to the shorter reference), and for each order n the clipped n-gram matches and
//! the denominator `max(1, number of hypothesis n-grams)` (the `max(1, ·)` is NLTK's, per segment,
//! so it also inflates corpus denominators). The smoothing arithmetic lives in the Python layer,
//! where NLTK's mix of `Fraction` and `float` values can be reproduced exactly.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::ngram::{clipped_matches, count_ngrams, merge_max, NgramCounts, Vocab};

/// Column layout of one statistics row: `[hyp_len, closest_ref_len, matches_1..N, denominators_1..N]`.
pub fn row_width(max_order: usize) -> usize {
    2 + 2 * max_order
}

/// NLTK's `closest_ref_length`: the reference length nearest to `hyp_len`, the shorter one on ties.
pub fn closest_ref_length(ref_lengths: impl IntoIterator<Item = usize>, hyp_len: usize) -> Option<usize> {
    ref_lengths
        .into_iter()
        .min_by_key(|&ref_len| (ref_len.abs_diff(hyp_len), ref_len))
}

/// One statistics row for a hypothesis and its references, all as interned token ids.
///
/// Errors when there is no reference (NLTK itself fails with a bare `ValueError` from `min`).
pub fn segment_stats(hyp: &[u32], refs: &[Vec<u32>], max_order: usize) -> Result<Vec<u64>> {
    let ref_len = closest_ref_length(refs.iter().map(Vec::len), hyp.len())
        .ok_or_else(|| Error::ShapeMismatch("a hypothesis has no reference".into()))?;
    let mut row = vec![0u64; row_width(max_order)];
    row[0] = hyp.len() as u64;
    row[1] = ref_len as u64;
    for n in 1..=max_order {
        let hyp_counts = count_ngrams(hyp, n);
        let mut best: NgramCounts<'_> = NgramCounts::default();
        for reference in refs {
            merge_max(&mut best, &count_ngrams(reference, n));
        }
        row[1 + n] = clipped_matches(&hyp_counts, &best);
        // nltk: denominator = max(1, sum(counts.values())).
        row[1 + max_order + n] = (hyp.len() + 1).saturating_sub(n).max(1) as u64;
    }
    Ok(row)
}

/// Statistics rows for a batch of tokenized segments (tokens as strings), computed in parallel.
///
/// `hyps[i]` is scored against `refs[i]`; both are interned per segment (ids never leave it).
pub fn batch_stats<S: AsRef<str> + Sync>(hyps: &[Vec<S>], refs: &[Vec<Vec<S>>], max_order: usize) -> Result<Vec<Vec<u64>>> {
    if hyps.len() != refs.len() {
        return Err(Error::ShapeMismatch(format!(
            "{} hypotheses but {} reference sets",
            hyps.len(),
            refs.len()
        )));
    }
    hyps.par_iter()
        .zip(refs.par_iter())
        .enumerate()
        .map(|(index, (hyp, segment_refs))| {
            let mut vocab = Vocab::default();
            let hyp_ids = vocab.ids(hyp.iter().map(AsRef::as_ref));
            let ref_ids: Vec<Vec<u32>> = segment_refs
                .iter()
                .map(|reference| vocab.ids(reference.iter().map(AsRef::as_ref)))
                .collect();
            segment_stats(&hyp_ids, &ref_ids, max_order).map_err(|_| {
                Error::ShapeMismatch(format!("references[{index}] is empty: every hypothesis needs at least one reference"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn closest_length_prefers_the_shorter_reference_on_ties() {
        assert_eq!(closest_ref_length([13, 11], 12), Some(11));
        assert_eq!(closest_ref_length([11, 13], 12), Some(11));
        assert_eq!(closest_ref_length([11, 8, 6, 7], 7), Some(7));
        assert_eq!(closest_ref_length(Vec::<usize>::new(), 7), None);
    }

    #[test]
    fn the_the_the_example_from_nltk_docs() {
        // nltk modified_precision docstring: 2/7 for unigrams.
        let hyp = vec![toks("the the the the the the the")];
        let refs = vec![vec![toks("the cat is on the mat"), toks("there is a cat on the mat")]];
        let rows = batch_stats(&hyp, &refs, 2).unwrap();
        assert_eq!(rows[0], vec![7, 7, 2, 0, 7, 6]);
    }

    #[test]
    fn denominators_are_at_least_one() {
        let hyp = vec![toks("a b")];
        let refs = vec![vec![toks("a b c d e")]];
        let rows = batch_stats(&hyp, &refs, 4).unwrap();
        // hyp_len 2, closest ref 5, matches [2, 1, 0, 0], denominators [2, 1, 1, 1].
        assert_eq!(rows[0], vec![2, 5, 2, 1, 0, 0, 2, 1, 1, 1]);
        let empty: Vec<Vec<&str>> = vec![vec![]];
        let rows = batch_stats(&empty, &refs, 2).unwrap();
        assert_eq!(rows[0], vec![0, 5, 0, 0, 1, 1]);
    }

    #[test]
    fn missing_references_are_an_error() {
        let hyp = vec![toks("a")];
        let refs: Vec<Vec<Vec<&str>>> = vec![vec![]];
        assert!(batch_stats(&hyp, &refs, 1).is_err());
        assert!(batch_stats(&hyp, &[], 1).is_err());
    }
}
