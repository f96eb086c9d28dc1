//! BLEU as pycocoevalcap 1.2 computes it (`pycocoevalcap/bleu/bleu_scorer.py`, `Bleu(4)`).
//!
//! Captions are split on Python's `str.split()` whitespace. Per image the scorer keeps the test
//! length, the reference lengths, and per order n the "guess" `max(0, testlen - n + 1)` and the
//! clipped "correct" matches. Scores add `tiny = 1e-15` to numerators and `small = 1e-9` to
//! denominators (so nothing divides by zero), and apply the brevity penalty only when
//! `ratio = (testlen + tiny) / (reflen + small) < 1`.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::ngram::{clipped_matches_all_orders, ngram_total, Vocab};
use crate::text::pystr::split_tokens;

/// pycocoevalcap's counting order: `cook_refs`/`cook_test` always count up to 4-grams.
pub const COOK_ORDER: usize = 4;
const SMALL: f64 = 1e-9;
const TINY: f64 = 1e-15;

/// How one image's reference length is chosen (`BleuScorer.compute_score(option=…)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefLength {
    /// The reference length nearest to the test length, the shorter one on ties (`Bleu` uses this).
    Closest,
    /// The shortest reference.
    Shortest,
    /// The mean reference length (a float).
    Average,
}

impl RefLength {
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "closest" => Ok(RefLength::Closest),
            "shortest" => Ok(RefLength::Shortest),
            "average" => Ok(RefLength::Average),
            other => Err(Error::InvalidOption(format!(
                "ref_length must be 'closest', 'shortest' or 'average', got {other:?}"
            ))),
        }
    }
}

/// Per-image statistics: `[testlen, closest_reflen, shortest_reflen, sum_reflen, n_refs,
/// guess_1..4, correct_1..4]`.
pub const ROW_WIDTH: usize = 5 + 2 * COOK_ORDER;

/// One image's statistics row from its caption and reference captions (whitespace-split here).
pub fn image_stats(test: &str, refs: &[impl AsRef<str>]) -> Result<[u64; ROW_WIDTH]> {
    if refs.is_empty() {
        return Err(Error::ShapeMismatch("an image has no reference caption".into()));
    }
    let mut vocab = Vocab::default();
    let test_ids = vocab.ids(split_tokens(test));
    let ref_ids: Vec<Vec<u32>> = refs.iter().map(|r| vocab.ids(split_tokens(r.as_ref()))).collect();
    let testlen = test_ids.len();
    let mut row = [0u64; ROW_WIDTH];
    row[0] = testlen as u64;
    // bleu_scorer.py: min((abs(l - testlen), l)) — the shorter reference on ties.
    row[1] = ref_ids.iter().map(Vec::len).min_by_key(|&l| (l.abs_diff(testlen), l)).unwrap_or(0) as u64;
    row[2] = ref_ids.iter().map(Vec::len).min().unwrap_or(0) as u64;
    row[3] = ref_ids.iter().map(Vec::len).sum::<usize>() as u64;
    row[4] = ref_ids.len() as u64;
    for n in 1..=COOK_ORDER {
        row[4 + n] = ngram_total(testlen, n) as u64;
    }
    clipped_matches_all_orders(&test_ids, &ref_ids, COOK_ORDER, &mut row[5 + COOK_ORDER..]);
    Ok(row)
}

/// Statistics rows for a batch of images, in parallel.
pub fn batch_stats<S: AsRef<str> + Sync>(tests: &[S], refs: &[Vec<S>]) -> Result<Vec<[u64; ROW_WIDTH]>> {
    if tests.len() != refs.len() {
        return Err(Error::ShapeMismatch(format!("{} captions but {} reference sets", tests.len(), refs.len())));
    }
    tests
        .par_iter()
        .zip(refs.par_iter())
        .enumerate()
        .map(|(index, (test, image_refs))| {
            image_stats(test.as_ref(), image_refs).map_err(|_| {
                Error::ShapeMismatch(format!("references[{index}] is empty: every image needs at least one reference"))
            })
        })
        .collect()
}

fn ref_length(row: &[u64; ROW_WIDTH], option: RefLength) -> f64 {
    match option {
        RefLength::Closest => row[1] as f64,
        RefLength::Shortest => row[2] as f64,
        RefLength::Average => row[3] as f64 / row[4] as f64,
    }
}

/// The cumulative BLEU-1..n of one set of counts, as `BleuScorer.compute_score` computes it.
fn cumulative_scores(correct: &[u64], guess: &[u64], testlen: f64, reflen: f64, n: usize) -> Vec<f64> {
    let mut product = 1.0f64;
    let mut scores: Vec<f64> = (0..n)
        .map(|k| {
            product *= (correct[k] as f64 + TINY) / (guess[k] as f64 + SMALL);
            // Python computes `x ** (1. / (k + 1))` with libm's pow. The exponent is kept opaque so
            // that LLVM, once the loop is unrolled, cannot turn pow(x, 0.5) into sqrt(x), which
            // differs from pow in the last bit for some x.
            product.powf(std::hint::black_box(1.0 / (k as f64 + 1.0)))
        })
        .collect();
    let ratio = (testlen + TINY) / (reflen + SMALL);
    if ratio < 1.0 {
        let penalty = (1.0 - 1.0 / ratio).exp();
        for score in &mut scores {
            *score *= penalty;
        }
    }
    scores
}

/// Corpus and per-image scores: `(corpus[k], per_image[k][i])` for orders k = 1..n.
///
/// `n` may be 1..=4 (pycocoevalcap counts only up to 4-grams and fails beyond).
pub fn scores(rows: &[[u64; ROW_WIDTH]], n: usize, option: RefLength) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
    if n == 0 || n > COOK_ORDER {
        return Err(Error::InvalidOption(format!(
            "n must be between 1 and {COOK_ORDER} (pycocoevalcap counts up to 4-grams), got {n}"
        )));
    }
    let mut per_image = vec![Vec::with_capacity(rows.len()); n];
    let mut total_correct = [0u64; COOK_ORDER];
    let mut total_guess = [0u64; COOK_ORDER];
    let mut total_testlen = 0u64;
    // Summed as Python does: ints for closest/shortest, floats in order for average.
    let mut total_reflen = 0.0f64;
    let mut total_reflen_int = 0u64;
    for row in rows {
        let reflen = ref_length(row, option);
        total_testlen += row[0];
        match option {
            RefLength::Average => total_reflen += reflen,
            _ => total_reflen_int += reflen as u64,
        }
        let guess = &row[5..5 + COOK_ORDER];
        let correct = &row[5 + COOK_ORDER..];
        for k in 0..COOK_ORDER {
            total_guess[k] += guess[k];
            total_correct[k] += correct[k];
        }
        for (k, score) in cumulative_scores(correct, guess, row[0] as f64, reflen, n).into_iter().enumerate() {
            per_image[k].push(score);
        }
    }
    if option != RefLength::Average {
        total_reflen = total_reflen_int as f64;
    }
    let corpus = cumulative_scores(&total_correct, &total_guess, total_testlen as f64, total_reflen, n);
    Ok((corpus, per_image))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_count_up_to_four_grams() {
        let row = image_stats("a b c", &["a b c d", "a b"]).unwrap();
        // testlen 3; closest: |4-3|=1 vs |2-3|=1 → tie → 2; shortest 2; sum 6; 2 refs.
        assert_eq!(row, [3, 2, 2, 6, 2, 3, 2, 1, 0, 3, 2, 1, 0]);
    }

    #[test]
    fn identical_caption_scores_one_within_epsilons() {
        let rows = batch_stats(&["a b c d e"], &[vec!["a b c d e"]]).unwrap();
        let (corpus, per_image) = scores(&rows, 4, RefLength::Closest).unwrap();
        assert!((corpus[3] - 1.0).abs() < 1e-9);
        assert_eq!(per_image[3].len(), 1);
    }

    #[test]
    fn bad_options_and_shapes_are_errors() {
        assert!(RefLength::parse("longest").is_err());
        assert!(scores(&[], 5, RefLength::Closest).is_err());
        assert!(batch_stats(&["a"], &[vec![]]).is_err());
        assert!(batch_stats(&["a"], &[]).is_err());
    }
}
