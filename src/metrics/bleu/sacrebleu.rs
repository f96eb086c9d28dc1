//! sacreBLEU's BLEU as a [`SegmentMetric`]: the statistics options, the corpus scoring and the sentence
//! scoring (`sentence_bleu` always uses the effective order, whatever the corpus option says).

use super::score::BleuScoring;
use super::stats::{row_width, SegmentScratch, StatsOptions};
use crate::error::Result;
use crate::metrics::segment::SegmentMetric;

/// sacreBLEU's BLEU: how rows are made, how a (summed) row is scored, and how a sentence is.
#[derive(Debug, Clone)]
pub struct SacreBleu {
    pub stats: StatsOptions,
    pub scoring: BleuScoring,
    pub sentence_scoring: BleuScoring,
}

impl SacreBleu {
    /// `scoring` for corpus rows; sentences take the same with the effective order on.
    pub fn new(stats: StatsOptions, scoring: BleuScoring) -> Self {
        let sentence_scoring = BleuScoring { effective_order: true, ..scoring.clone() };
        Self { stats, scoring, sentence_scoring }
    }
}

impl SegmentMetric for SacreBleu {
    type Stat = i64;
    type Scratch = SegmentScratch;
    const NAME: &'static str = "bleu";

    fn width(&self) -> usize {
        row_width(self.stats.max_order)
    }

    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], scratch: &mut SegmentScratch) -> Result<()> {
        self.stats.segment_stats_into(hyp, refs, row, scratch)
    }

    fn score_row(&self, row: &[i64]) -> f64 {
        self.scoring.score_of_row(row).score
    }

    fn segment_score(&self, row: &[i64]) -> f64 {
        self.sentence_scoring.score_of_row(row).score
    }
}
