//! Sentence-level scores of every candidate against every reference (minimum-Bayes-risk decoding,
//! reranking, diversity): each string is analysed once, then all pairs are scored in parallel.

use rayon::prelude::*;

use crate::error::Result;
use crate::metrics::chrf::{f_score, profiles, ChrfConfig, ChrfProfile};

/// Sentence chrF of every candidate against every reference: row-major `[i * n_refs + j]`.
pub fn chrf_matrix<S: AsRef<str> + Sync>(candidates: &[S], references: Option<&[S]>, config: &ChrfConfig) -> Result<Vec<f64>> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::chrf::segment_stats;

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
