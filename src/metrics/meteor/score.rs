//! METEOR's scores from sufficient statistics: METEOR 1.5's `MeteorScorer.computeMetrics` (with its
//! δ-weighted content/function words) and the textbook formula, per segment or summed over a corpus.

use super::{
    SegmentStats, CHUNKS, MAX_MODULES, REF_FUNCTION_WORDS, REF_LENGTH, REF_WORD_MATCHES, STAGE_OFFSET, STATS_LEN,
    TEST_FUNCTION_WORDS, TEST_LENGTH, TEST_WORD_MATCHES,
};

/// Per-segment (or corpus) derived values (`MeteorScorer.computeMetrics`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreParts {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub fmean: f64,
    pub frag_penalty: f64,
    pub score: f64,
}

impl ScoreParts {
    /// F1 and the score `fmean · (1 − penalty)`, clamped at 0 (NaN, from 0/0 on empty segments, is 0).
    fn new(precision: f64, recall: f64, fmean: f64, frag_penalty: f64) -> Self {
        let f1 = (2.0 * precision * recall) / (precision + recall);
        let raw = fmean * (1.0 - frag_penalty);
        let score = if raw.is_nan() { 0.0 } else { raw.max(0.0) };
        ScoreParts { precision, recall, f1, fmean, frag_penalty, score }
    }
}

/// The textbook parametrised METEOR (see [`Formula::Textbook`]); δ is not used.
pub fn textbook_score(stats: &SegmentStats, params: &[f64; 4], weights: &[f64]) -> ScoreParts {
    let [alpha, beta, gamma, _delta] = *params;
    let (mut test_matches, mut ref_matches) = (0.0, 0.0);
    for (i, weight) in weights[..weights.len().min(MAX_MODULES)].iter().enumerate() {
        let base = STAGE_OFFSET + 4 * i;
        test_matches += (stats[base] + stats[base + 2]) * weight;
        ref_matches += (stats[base + 1] + stats[base + 3]) * weight;
    }
    let precision = test_matches / stats[TEST_LENGTH];
    let recall = ref_matches / stats[REF_LENGTH];
    let fmean = (precision * recall) / (alpha * precision + (1.0 - alpha) * recall);
    let matches = (stats[TEST_WORD_MATCHES] + stats[REF_WORD_MATCHES]) / 2.0;
    let frag_penalty = gamma * (stats[CHUNKS] / matches).powf(beta);
    ScoreParts::new(precision, recall, fmean, frag_penalty)
}

/// Sum statistics as `MeteorStats.addStats`: chunks of perfect matches (all words matched in one
/// chunk) are not added.
pub fn aggregate<'a, I: IntoIterator<Item = &'a SegmentStats>>(rows: I) -> SegmentStats {
    let mut total = [0.0; STATS_LEN];
    for row in rows {
        for k in 0..STATS_LEN {
            if k != CHUNKS {
                total[k] += row[k];
            }
        }
        if !is_perfect(row) {
            total[CHUNKS] += row[CHUNKS];
        }
    }
    total
}

fn total_matches(stats: &SegmentStats) -> (f64, f64) {
    let (mut test, mut reference) = (0.0, 0.0);
    for stage in 0..MAX_MODULES {
        let base = STAGE_OFFSET + 4 * stage;
        test += stats[base];
        test += stats[base + 2];
        reference += stats[base + 1];
        reference += stats[base + 3];
    }
    (test, reference)
}

fn is_perfect(stats: &SegmentStats) -> bool {
    let (test, reference) = total_matches(stats);
    test == stats[TEST_LENGTH] && reference == stats[REF_LENGTH] && stats[CHUNKS] == 1.0
}

/// The score from statistics, parameters (α, β, γ, δ) and per-stage weights.
pub fn score_stats(stats: &SegmentStats, params: &[f64; 4], weights: &[f64]) -> ScoreParts {
    let [alpha, beta, gamma, delta] = *params;
    let test_weighted_length =
        (delta * (stats[TEST_LENGTH] - stats[TEST_FUNCTION_WORDS])) + ((1.0 - delta) * stats[TEST_FUNCTION_WORDS]);
    let ref_weighted_length =
        (delta * (stats[REF_LENGTH] - stats[REF_FUNCTION_WORDS])) + ((1.0 - delta) * stats[REF_FUNCTION_WORDS]);
    let stages = weights.len().min(MAX_MODULES);
    let (mut test_weighted, mut ref_weighted) = (0.0, 0.0);
    for (i, weight) in weights[..stages].iter().enumerate() {
        test_weighted += stats[STAGE_OFFSET + 4 * i] * weight * delta;
    }
    for (i, weight) in weights[..stages].iter().enumerate() {
        ref_weighted += stats[STAGE_OFFSET + 4 * i + 1] * weight * delta;
    }
    for (i, weight) in weights[..stages].iter().enumerate() {
        test_weighted += stats[STAGE_OFFSET + 4 * i + 2] * weight * (1.0 - delta);
    }
    for (i, weight) in weights[..stages].iter().enumerate() {
        ref_weighted += stats[STAGE_OFFSET + 4 * i + 3] * weight * (1.0 - delta);
    }
    let precision = test_weighted / test_weighted_length;
    let recall = ref_weighted / ref_weighted_length;
    let fmean = 1.0 / (((1.0 - alpha) / precision) + (alpha / recall));
    let frag = if is_perfect(stats) {
        0.0
    } else {
        stats[CHUNKS] / ((stats[TEST_WORD_MATCHES] + stats[REF_WORD_MATCHES]) / 2.0)
    };
    let frag_penalty = gamma * frag.powf(beta);
    ScoreParts::new(precision, recall, fmean, frag_penalty)
}
