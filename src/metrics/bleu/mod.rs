//! BLEU (Papineni et al. 2002) segment statistics and scores, as sacreBLEU 2.6.0 computes them.
//!
//! `stats`: text → one `[hyp_len, ref_len, matches_1..N, totals_1..N]` row per segment.
//! `score`: a (summed) row → score, precisions, brevity penalty, bit-identical to sacreBLEU.
//! The other presets live beside it: `nltk` (NLTK 3.10.4's statistics) and `coco` (pycocoevalcap 1.2).

pub mod coco;
pub mod nltk;
mod python_str;
pub mod sacrebleu;
pub mod score;
pub mod stats;

pub use python_str::rstrip;
pub use sacrebleu::SacreBleu;
pub use score::{BleuScore, BleuScoring, Smoothing, Summation};
pub use stats::{closest_ref_len, row_width, sum_rows, SegmentScratch, StatsOptions, MAX_ORDER_LIMIT};
