//! Sentence-level scores of every candidate against every reference (minimum-Bayes-risk decoding,
//! reranking, diversity): each string is analysed once, then all pairs are scored in parallel.

use rayon::prelude::*;

use crate::error::Result;
use crate::metrics::bleu::{row_width, rstrip, BleuScoring};
use crate::metrics::chrf::{f_score, profiles, ChrfConfig, ChrfProfile, GroupNgrams, OrderCounts};
use crate::ngram::{ngram_total, Vocab};
use crate::text::pystr::split_tokens;
use crate::text::BleuTokenizer;

/// Sentence chrF of every candidate against every reference: row-major `[i * n_refs + j]`.
pub fn chrf_matrix<S: AsRef<str> + Sync>(
    candidates: &[S],
    references: Option<&[S]>,
    config: &ChrfConfig,
) -> Result<Vec<f64>> {
    config.validate()?;
    let cand_profiles;
    let ref_profiles_owned;
    let ref_profiles: &[ChrfProfile] = match references {
        Some(refs) => {
            // one id space for both sides: analyse them together
            let all: Vec<&str> = candidates.iter().map(|c| c.as_ref()).chain(refs.iter().map(|r| r.as_ref())).collect();
            let mut both = profiles(&all, config);
            ref_profiles_owned = both.split_off(candidates.len());
            cand_profiles = both;
            &ref_profiles_owned
        }
        None => {
            cand_profiles = profiles(candidates, config);
            &cand_profiles
        }
    };
    let n_refs = ref_profiles.len();
    let mut scores = vec![0.0f64; cand_profiles.len() * n_refs];
    if n_refs == 0 {
        return Ok(scores);
    }
    scores.par_chunks_mut(n_refs).zip(cand_profiles.par_iter()).for_each(|(row, cand)| {
        let mut stats = Vec::with_capacity(config.stats_width());
        for (slot, reference) in row.iter_mut().zip(ref_profiles) {
            cand.match_stats(reference, &mut stats);
            *slot = f_score(&stats, config.beta, config.eps_smoothing);
        }
    });
    Ok(scores)
}

/// The word n-gram counts of one string for sentence BLEU: its length and sorted counts per order.
struct BleuProfile {
    length: usize,
    orders: Vec<OrderCounts>,
}

/// Tokenizes (sacreBLEU: right-strip, then the tokenizer) and counts n-grams of every string,
/// with one id space for all of them.
fn bleu_profiles(texts: &[&str], tokenizer: BleuTokenizer, max_order: usize) -> Vec<BleuProfile> {
    let tokenized: Vec<String> = texts.par_iter().map(|text| tokenizer.tokenize(rstrip(text))).collect();
    let mut vocab = Vocab::default();
    let ids: Vec<Vec<u32>> = tokenized.iter().map(|text| vocab.ids(split_tokens(text))).collect();
    let grams = GroupNgrams::new(&ids, max_order);
    grams
        .ids
        .par_iter()
        .zip(ids.par_iter())
        .map(|(orders, tokens)| BleuProfile {
            length: tokens.len(),
            orders: orders.iter().map(|o| OrderCounts::new(o)).collect(),
        })
        .collect()
}

/// Sentence BLEU (sacreBLEU `sentence_bleu` with the given scoring) of every candidate against
/// every reference: row-major `[i * n_refs + j]`. Lines are lowercased by the caller if wanted.
pub fn bleu_matrix<S: AsRef<str> + Sync>(
    candidates: &[S],
    references: Option<&[S]>,
    tokenizer: BleuTokenizer,
    scoring: &BleuScoring,
) -> Result<Vec<f64>> {
    let max_order = scoring.max_order;
    let mut texts: Vec<&str> = candidates.iter().map(|c| c.as_ref()).collect();
    if let Some(refs) = references {
        texts.extend(refs.iter().map(|r| r.as_ref()));
    }
    let mut cand_profiles = bleu_profiles(&texts, tokenizer, max_order);
    let owned_refs = if references.is_some() { cand_profiles.split_off(candidates.len()) } else { Vec::new() };
    let ref_profiles: &[BleuProfile] = if references.is_some() { &owned_refs } else { &cand_profiles };
    let n_refs = ref_profiles.len();
    let mut scores = vec![0.0f64; cand_profiles.len() * n_refs];
    if n_refs == 0 {
        return Ok(scores);
    }
    let width = row_width(max_order);
    let failure = std::sync::Mutex::new(None);
    scores.par_chunks_mut(n_refs).zip(cand_profiles.par_iter()).for_each(|(row_scores, cand)| {
        let mut row = vec![0i64; width];
        for (slot, reference) in row_scores.iter_mut().zip(ref_profiles) {
            row[0] = cand.length as i64;
            row[1] = reference.length as i64;
            for n in 0..max_order {
                row[2 + n] = cand.orders[n].clipped_matches(&reference.orders[n]) as i64;
                row[2 + max_order + n] = ngram_total(cand.length, n + 1) as i64;
            }
            match scoring.score(&row) {
                Ok(score) => *slot = score.score,
                Err(error) => *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error),
            }
        }
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(error) => Err(error),
        None => Ok(scores),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{Smoothing, StatsOptions, Summation};
    use crate::metrics::chrf::segment_stats;

    #[test]
    fn bleu_matrix_matches_segment_stats() {
        let texts = ["the cat sat on the mat .", "a cat sat on a mat", "", "the the the", "cat"];
        let scoring = BleuScoring::new(4, Smoothing::Exp, None, true, None, Summation::Sequential).unwrap();
        let tokenizer = BleuTokenizer::Thirteen;
        let matrix = bleu_matrix(&texts, None, tokenizer, &scoring).unwrap();
        let options = StatsOptions::new(tokenizer, 4).unwrap();
        for (i, hyp) in texts.iter().enumerate() {
            for (j, rf) in texts.iter().enumerate() {
                let row = options.segment_stats(hyp, &[rf]).unwrap();
                assert_eq!(matrix[i * texts.len() + j], scoring.score(&row).unwrap().score, "{i} {j}");
            }
        }
    }

    #[test]
    fn pairwise_matches_segment_stats() {
        let config = ChrfConfig { word_order: 2, ..Default::default() };
        let texts = ["a b c", "a b d.", "", "x y"];
        let matrix = chrf_matrix(&texts, None, &config).unwrap();
        for (i, hyp) in texts.iter().enumerate() {
            for (j, rf) in texts.iter().enumerate() {
                let stats = segment_stats(hyp, &[rf], &config);
                assert_eq!(matrix[i * 4 + j], f_score(&stats, 2.0, false));
            }
        }
    }
}
