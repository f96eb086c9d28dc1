//! Per-segment BLEU statistics in sacreBLEU's layout:
//! `[hyp_len, ref_len, matches_1..=N, totals_1..=N]` (`sacrebleu/metrics/bleu.py`,
//! `_compute_segment_statistics`). Rows are summed column-wise for a corpus score.

use rayon::prelude::*;

use super::python_str::rstrip;
use crate::error::{Error, Result};
use crate::ngram::{ngram_total, NgramMatcher, TokenInterner};
use crate::text::pystr::split_tokens;
use crate::text::BleuTokenizer;

/// The largest n-gram order we accept (rows are `2 + 2 * max_order` wide).
pub const MAX_ORDER_LIMIT: usize = 100;

/// Below this many segments a batch runs on the calling thread (no thread-pool hand-off).
const PARALLEL_THRESHOLD: usize = 32;

/// Number of columns of a statistics row for `max_order`.
pub fn row_width(max_order: usize) -> usize {
    2 + 2 * max_order
}

/// Checks `max_order` is in `1..=MAX_ORDER_LIMIT`.
pub fn check_max_order(max_order: usize) -> Result<()> {
    if max_order == 0 || max_order > MAX_ORDER_LIMIT {
        return Err(Error::InvalidOption(format!(
            "max_order must be between 1 and {MAX_ORDER_LIMIT}, got {max_order}"
        )));
    }
    Ok(())
}

/// Per-thread work space for [`StatsOptions::segment_stats_into`]: tokenized text, ids, n-gram index.
#[derive(Debug, Default, Clone)]
pub struct SegmentScratch {
    hyp_text: String,
    ref_texts: Vec<String>,
    hyp_ids: Vec<u32>,
    ref_ids: Vec<Vec<u32>>,
    token_ends: Vec<u32>,
    interner: TokenInterner,
    matcher: NgramMatcher,
}

/// How segments are turned into statistics: the tokenizer and the highest n-gram order.
#[derive(Debug, Clone, Copy)]
pub struct StatsOptions {
    pub tokenizer: BleuTokenizer,
    pub max_order: usize,
}

impl StatsOptions {
    pub fn new(tokenizer: BleuTokenizer, max_order: usize) -> Result<Self> {
        check_max_order(max_order)?;
        Ok(Self { tokenizer, max_order })
    }

    /// The statistics row of one hypothesis against its references (at least one).
    pub fn segment_stats<R: AsRef<str>>(&self, hypothesis: &str, references: &[R]) -> Result<Vec<i64>> {
        let mut row = vec![0i64; row_width(self.max_order)];
        self.segment_stats_into(hypothesis, references, &mut row, &mut SegmentScratch::default())?;
        Ok(row)
    }

    /// Writes the statistics row of one segment into `row` (length `row_width(max_order)`), using
    /// `scratch` as work space (keep one per thread to avoid allocating per segment).
    pub fn segment_stats_into<R: AsRef<str>>(
        &self,
        hypothesis: &str,
        references: &[R],
        row: &mut [i64],
        scratch: &mut SegmentScratch,
    ) -> Result<()> {
        if references.is_empty() {
            return Err(Error::ShapeMismatch("every hypothesis needs at least one reference".into()));
        }
        let SegmentScratch { hyp_text, ref_texts, hyp_ids, ref_ids, token_ends: ends, interner, matcher } = scratch;
        // sacreBLEU's `_preprocess_segment` (the caller lowercases): right-strip, then tokenize.
        hyp_text.clear();
        self.tokenizer.tokenize_into(rstrip(hypothesis), hyp_text);
        if ref_texts.len() < references.len() {
            ref_texts.resize_with(references.len(), String::new);
            ref_ids.resize_with(references.len(), Vec::new);
        }
        for (text, reference) in ref_texts.iter_mut().zip(references) {
            text.clear();
            self.tokenizer.tokenize_into(rstrip(reference.as_ref()), text);
        }
        let ref_texts = &ref_texts[..references.len()];
        let ref_ids = &mut ref_ids[..references.len()];

        let space_joined = self.tokenizer.output_is_space_joined();
        interner.clear();
        let mut intern = |ids: &mut Vec<u32>, text: &str| {
            ids.clear();
            if space_joined && text.len() < u32::MAX as usize {
                // `text.split(' ')` without its empty pieces: the space positions are gathered first,
                // branch-free (a branch per byte would mispredict at every token end).
                let bytes = text.as_bytes();
                ends.clear();
                ends.resize(bytes.len() + 1, 0);
                let mut count = 0;
                for (index, &byte) in bytes.iter().enumerate() {
                    ends[count] = index as u32;
                    count += usize::from(byte == b' ');
                }
                ends[count] = bytes.len() as u32;
                let mut start = 0;
                for &end in &ends[..=count] {
                    let end = end as usize;
                    if end > start {
                        ids.push(interner.id_in(text, start, end));
                    }
                    start = end + 1;
                }
            } else {
                ids.extend(split_tokens(text).map(|token| interner.id(token)));
            }
        };
        intern(hyp_ids, hyp_text);
        for (ids, text) in ref_ids.iter_mut().zip(ref_texts) {
            intern(ids, text);
        }

        let max_order = self.max_order;
        row[0] = hyp_ids.len() as i64;
        row[1] = closest_ref_len(hyp_ids.len(), ref_ids.iter().map(Vec::len)) as i64;
        let mut matches = [0u64; 8];
        let mut matches_heap;
        let matches: &mut [u64] = if max_order <= 8 {
            &mut matches[..max_order]
        } else {
            matches_heap = vec![0u64; max_order];
            &mut matches_heap
        };
        matcher.clipped_matches_all_orders(hyp_ids, ref_ids, max_order, matches);
        for n in 1..=max_order {
            row[2 + n - 1] = matches[n - 1] as i64;
            row[2 + max_order + n - 1] = ngram_total(hyp_ids.len(), n) as i64;
        }
        Ok(())
    }

    /// The statistics rows of a batch, flattened row-major (`n_segments × row_width`).
    /// `references[i]` are the references of `hypotheses[i]`. Runs in parallel on the current
    /// rayon pool when the batch is large enough.
    pub fn corpus_stats<H, R>(&self, hypotheses: &[H], references: &[Vec<R>]) -> Result<Vec<i64>>
    where
        H: AsRef<str> + Sync,
        R: AsRef<str> + Sync,
    {
        if hypotheses.len() != references.len() {
            return Err(Error::ShapeMismatch(format!(
                "references has {} entries but there are {} hypotheses",
                references.len(),
                hypotheses.len()
            )));
        }
        if let Some(index) = references.iter().position(Vec::is_empty) {
            return Err(Error::ShapeMismatch(format!(
                "references[{index}] is empty: every hypothesis needs at least one reference"
            )));
        }
        let width = row_width(self.max_order);
        let mut rows = vec![0i64; hypotheses.len() * width];
        let fill = |scratch: &mut SegmentScratch, (index, row): (usize, &mut [i64])| {
            // Cannot fail: every reference list was checked non-empty above.
            let _ = self.segment_stats_into(hypotheses[index].as_ref(), &references[index], row, scratch);
        };
        if hypotheses.len() >= PARALLEL_THRESHOLD {
            rows.par_chunks_mut(width).enumerate().for_each_init(SegmentScratch::default, fill);
        } else {
            let mut scratch = SegmentScratch::default();
            rows.chunks_mut(width).enumerate().for_each(|item| fill(&mut scratch, item));
        }
        Ok(rows)
    }
}

/// The reference length closest to the hypothesis length; on a tie the shorter reference wins
/// (`sacrebleu/metrics/bleu.py`, `_get_closest_ref_len`).
pub fn closest_ref_len<I: IntoIterator<Item = usize>>(hyp_len: usize, ref_lens: I) -> usize {
    let mut best: Option<(usize, usize)> = None; // (difference, length)
    for ref_len in ref_lens {
        let diff = hyp_len.abs_diff(ref_len);
        best = match best {
            Some((best_diff, best_len)) if diff > best_diff || (diff == best_diff && ref_len >= best_len) => {
                Some((best_diff, best_len))
            }
            _ => Some((diff, ref_len)),
        };
    }
    best.map_or(0, |(_, len)| len)
}

/// Column-wise sum of flattened rows of `width` columns.
pub fn sum_rows(rows: &[i64], width: usize) -> Vec<i64> {
    let mut total = vec![0i64; width];
    for row in rows.chunks_exact(width) {
        for (slot, value) in total.iter_mut().zip(row) {
            *slot += value;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(max_order: usize) -> StatsOptions {
        StatsOptions::new(BleuTokenizer::None, max_order).unwrap()
    }

    #[test]
    fn floor_seed_example_counts() {
        // Seed example (issue 3): counts [5, 3, 1, 0], totals [8, 7, 6, 5].
        let row = none(4).segment_stats("the cat the cat is on the mat", &["the cat sat on the mat"]).unwrap();
        assert_eq!(row, vec![8, 6, 5, 3, 1, 0, 8, 7, 6, 5]);
    }

    #[test]
    fn closest_length_prefers_the_shorter_on_ties() {
        assert_eq!(closest_ref_len(5, [7, 3]), 3);
        assert_eq!(closest_ref_len(5, [3, 7]), 3);
        assert_eq!(closest_ref_len(5, [9, 6, 4]), 4);
        assert_eq!(closest_ref_len(0, [2, 1]), 1);
    }

    #[test]
    fn clipping_takes_the_max_over_references() {
        let row = none(2).segment_stats("a a a b", &["a b", "a a c"]).unwrap();
        // unigrams: a min(3, 2) + b 1 = 3; bigrams: "a a" 1 (ref 2), "a b" 1 (ref 1) = 2.
        assert_eq!(row, vec![4, 3, 3, 2, 4, 3]);
    }

    #[test]
    fn empty_hypothesis_and_references() {
        assert_eq!(none(2).segment_stats("", &[""]).unwrap(), vec![0, 0, 0, 0, 0, 0]);
        assert_eq!(none(1).segment_stats("  ", &["x y"]).unwrap(), vec![0, 2, 0, 0]);
        assert!(none(1).segment_stats::<&str>("x", &[]).is_err());
    }

    #[test]
    fn batch_rows_equal_single_rows_and_check_shapes() {
        let opts = none(4);
        let hyps: Vec<String> = (0..100).map(|i| format!("w{} a b c w{}", i % 7, i % 3)).collect();
        let refs: Vec<Vec<String>> = (0..100).map(|i| vec![format!("a b w{} c", i % 5), "c a".into()]).collect();
        let rows = opts.corpus_stats(&hyps, &refs).unwrap();
        for (i, row) in rows.chunks(row_width(4)).enumerate() {
            assert_eq!(row, &opts.segment_stats(&hyps[i], &refs[i]).unwrap()[..]);
        }
        assert!(opts.corpus_stats(&hyps[..3], &refs[..2]).is_err());
        let mut bad = refs.clone();
        bad[4].clear();
        assert!(opts.corpus_stats(&hyps, &bad).is_err());
        assert_eq!(sum_rows(&[1, 2, 3, 4], 2), vec![4, 6]);
    }

    #[test]
    fn space_joined_tokenizers_split_like_python() {
        let lines = [
            "",
            " ",
            "a",
            "  Hello,  world!\t\u{a0}x\u{3000}y\u{2028}z \u{85}w\u{1f}v\u{200b}u ",
            "Der „Bundesgesundheitsminister“ sagte: 3.5-4,2 % – (nicht) [ok] {x}\u{2009}y\u{202f}",
            "你好，世界。 日本語\u{3000}テキスト 한국어 \u{1680}ｘ",
        ];
        for tokenizer in BleuTokenizer::ALL.iter().filter(|t| t.output_is_space_joined()) {
            for line in lines {
                let out = tokenizer.tokenize(line);
                let fast: Vec<&str> = out.split(' ').filter(|t| !t.is_empty()).collect();
                assert_eq!(fast, split_tokens(&out).collect::<Vec<_>>(), "{tokenizer:?} {line:?}");
                assert!(!out.starts_with(' ') && !out.ends_with(' ') && !out.contains("  "), "{tokenizer:?} {line:?}");
            }
        }
    }

    #[test]
    fn max_order_is_checked() {
        assert!(StatsOptions::new(BleuTokenizer::None, 0).is_err());
        assert!(StatsOptions::new(BleuTokenizer::None, MAX_ORDER_LIMIT + 1).is_err());
    }
}
