//! The one abstraction of a segment metric: a fixed-width row of statistics per segment (hypothesis and its
//! references), a score per row, and one parallel driver that fills a batch's rows.
//!
//! A corpus score is a function of the column sums of the rows, and a resample's score the same function of
//! its resampled sums, so one `score_row` serves sentence, corpus and bootstrap scores. The shape follows
//! pydantic-core's one `Validator` trait (`src/validators/mod.rs`): the bindings build one implementation by
//! name and never need code of their own per metric (`python/segment.rs`).

use rayon::prelude::*;

use crate::error::{Error, Result};

/// How many references a segment takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refs {
    /// One or more (the best, or an average, as the metric says).
    Many,
    /// Exactly one (jiwer's measures, CharacTER, CharCut).
    One,
}

/// A metric whose corpus number is a function of per-segment statistics rows.
pub trait SegmentMetric: Sync {
    /// Row element: `i64` for counts, `f64` where the reference adds floats (TER's mean reference length).
    type Stat: Copy + Default + Send + Sync;
    /// Per-thread work space reused across segments (`()` where none).
    type Scratch: Default + Send;
    /// The metric's name, as the Python `Metric.name` that builds it.
    const NAME: &'static str;
    /// How many references a segment takes.
    const REFS: Refs = Refs::Many;
    /// Below this many segments a batch runs on the calling thread (no thread-pool hand-off).
    const PARALLEL_FROM: usize = 32;

    /// Columns of a statistics row.
    fn width(&self) -> usize;

    /// Writes the statistics of one segment into `row` (`width()` long, zeroed).
    fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [Self::Stat], scratch: &mut Self::Scratch)
        -> Result<()>;

    /// The score of one row: a corpus sum, or a bootstrap resample's sum.
    fn score_row(&self, row: &[Self::Stat]) -> f64;

    /// The sentence score of one segment's row (as `score_row`, except where the reference scores a
    /// sentence differently: sacreBLEU's `sentence_bleu` always uses the effective order).
    fn segment_score(&self, row: &[Self::Stat]) -> f64 {
        self.score_row(row)
    }

    /// Checks the whole batch before any segment is scored (CharacTER refuses a reference without words
    /// first, naming it); shapes are checked already.
    fn check_batch(&self, _hyps: &[&str], _refs: &[&[&str]]) -> Result<()> {
        Ok(())
    }

    /// Whether a segment may have no reference at all (`Refs::Many` only): an option of the metrics whose
    /// reference scores that (SQuAD v2's unanswerable questions, NLTK's GLEU and RIBES on no reference).
    fn allows_no_reference(&self) -> bool {
        false
    }
}

/// The error for a reference set the metric cannot take: none (unless `allows_no_reference`), or several
/// for a one-reference metric; `ref_counts` are the references of each segment.
fn check_reference_counts<M: SegmentMetric>(metric: &M, ref_counts: impl Iterator<Item = usize>) -> Result<()> {
    let wrong = |count: usize| match M::REFS {
        Refs::Many => count == 0 && !metric.allows_no_reference(),
        Refs::One => count != 1,
    };
    match ref_counts.enumerate().find(|&(_, count)| wrong(count)) {
        None => Ok(()),
        Some((index, _)) if M::REFS == Refs::Many => Err(Error::ShapeMismatch(format!(
            "references[{index}] is empty: every hypothesis needs at least one reference"
        ))),
        Some((index, count)) => Err(Error::ShapeMismatch(format!(
            "references[{index}] has {count} references: {} takes exactly one reference per hypothesis",
            M::NAME
        ))),
    }
}

/// The shape checks of every batch: as many reference sets as hypotheses, each as many as the metric takes.
pub(crate) fn check_shapes<M: SegmentMetric>(
    metric: &M,
    hyps: usize,
    refs: usize,
    ref_counts: impl Iterator<Item = usize>,
) -> Result<()> {
    if hyps != refs {
        return Err(Error::ShapeMismatch(format!("references has {refs} entries but there are {hyps} hypotheses")));
    }
    check_reference_counts(metric, ref_counts)
}

/// The statistics rows of a batch, row-major (`hyps.len() × width`): shapes checked, one buffer, one
/// scratch per thread, in parallel on the current rayon pool from `PARALLEL_FROM` segments on; an error
/// names its segment.
pub fn batch_rows<'a, M, R>(metric: &M, hyps: &[&'a str], refs: &[R]) -> Result<Vec<M::Stat>>
where
    M: SegmentMetric,
    R: AsRef<[&'a str]>,
{
    let refs: Vec<&[&str]> = refs.iter().map(AsRef::as_ref).collect();
    check_shapes(metric, hyps.len(), refs.len(), refs.iter().map(|entry| entry.len()))?;
    metric.check_batch(hyps, &refs)?;
    fill_rows(metric, hyps.len(), |index, row, scratch| metric.segment_into(hyps[index], refs[index], row, scratch))
}

/// `segments` rows of `metric.width()` columns, each filled by `fill(index, row, scratch)`: see
/// [`fill_rows_into`].
pub(crate) fn fill_rows<M, F>(metric: &M, segments: usize, fill: F) -> Result<Vec<M::Stat>>
where
    M: SegmentMetric,
    F: Fn(usize, &mut [M::Stat], &mut M::Scratch) -> Result<()> + Sync,
{
    let mut rows = vec![M::Stat::default(); segments * metric.width()];
    fill_rows_into(metric, &mut rows, 0, fill)?;
    Ok(rows)
}

/// Fills `rows` (zeroed, `segments × metric.width()`), row `index` by `fill(index, row, scratch)`: on the
/// calling thread below `M::PARALLEL_FROM` segments, else in parallel with one scratch per thread; the
/// error of the first failing segment (whatever the order the threads reach them in), named by its index
/// plus `first` (the rows' place in a larger batch).
pub(crate) fn fill_rows_into<M, F>(metric: &M, rows: &mut [M::Stat], first: usize, fill: F) -> Result<()>
where
    M: SegmentMetric,
    F: Fn(usize, &mut [M::Stat], &mut M::Scratch) -> Result<()> + Sync,
{
    let width = metric.width();
    if width == 0 {
        return Ok(());
    }
    let fill = |scratch: &mut M::Scratch, (index, row): (usize, &mut [M::Stat])| {
        fill(index, row, scratch).err().map(|error| (index, error))
    };
    let first_error = if rows.len() / width < M::PARALLEL_FROM {
        let mut scratch = M::Scratch::default();
        rows.chunks_mut(width).enumerate().find_map(|item| fill(&mut scratch, item))
    } else {
        rows.par_chunks_mut(width)
            .enumerate()
            .map_init(M::Scratch::default, fill)
            .flatten()
            .min_by_key(|(index, _)| *index)
    };
    match first_error {
        Some((index, error)) => Err(error.at_segment(first + index)),
        None => Ok(()),
    }
}

/// Rows scored at a time by one task of [`score_rows`] (scoring a row takes well under a microsecond).
const SCORE_ROWS_PER_TASK: usize = 256;

/// `score` of every row of a row-major matrix of `metric.width()` columns (`SegmentMetric::score_row` or
/// `segment_score`).
pub fn map_rows<M: SegmentMetric>(
    metric: &M,
    rows: &[M::Stat],
    score: impl Fn(&[M::Stat]) -> f64 + Sync + Send,
) -> Result<Vec<f64>> {
    let width = metric.width();
    if width == 0 || !rows.len().is_multiple_of(width) {
        return Err(Error::ShapeMismatch(format!("{} statistics rows have {width} columns", M::NAME)));
    }
    if rows.len() / width < SCORE_ROWS_PER_TASK {
        Ok(rows.chunks_exact(width).map(score).collect())
    } else {
        Ok(rows.par_chunks_exact(width).with_min_len(SCORE_ROWS_PER_TASK).map(score).collect())
    }
}

/// The score of every row (summed statistics: a corpus, or bootstrap resamples).
pub fn score_rows<M: SegmentMetric>(metric: &M, rows: &[M::Stat]) -> Result<Vec<f64>> {
    map_rows(metric, rows, |row| metric.score_row(row))
}

/// The sentence score of every segment's row.
pub fn segment_scores<M: SegmentMetric>(metric: &M, rows: &[M::Stat]) -> Result<Vec<f64>> {
    map_rows(metric, rows, |row| metric.segment_score(row))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts characters of the hypothesis and of the longest reference.
    struct Lengths;

    impl SegmentMetric for Lengths {
        type Stat = i64;
        type Scratch = ();
        const NAME: &'static str = "lengths";
        const PARALLEL_FROM: usize = 4;

        fn width(&self) -> usize {
            2
        }

        fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], _: &mut ()) -> Result<()> {
            if hyp == "bad" {
                return Err(Error::InvalidOption("refused".into()));
            }
            row[0] = hyp.len() as i64;
            row[1] = refs.iter().map(|r| r.len() as i64).max().unwrap_or(0);
            Ok(())
        }

        fn score_row(&self, row: &[i64]) -> f64 {
            row[0] as f64 / row[1].max(1) as f64
        }
    }

    #[test]
    fn rows_are_the_same_on_one_thread_and_in_parallel() {
        let hyps: Vec<String> = (0..50).map(|k| "x".repeat(k)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs: Vec<Vec<&str>> = (0..50).map(|k| vec!["ab", ["a", "abcd"][k % 2]]).collect();
        let all = batch_rows(&Lengths, &hyps, &refs).unwrap();
        let few = batch_rows(&Lengths, &hyps[..3], &refs[..3]).unwrap();
        assert_eq!(&all[..6], &few[..]);
        assert_eq!(&all[6..8], &[3, 4]); // segment 3: "xxx" against "ab" and "abcd"
        assert_eq!(score_rows(&Lengths, &all).unwrap()[3], 0.75);
    }

    #[test]
    fn errors_name_the_segment_and_the_shape() {
        let refs = vec![vec!["a"]; 5];
        let error = batch_rows(&Lengths, &["a", "b", "c", "bad", "e"], &refs).unwrap_err();
        assert_eq!(error.to_string(), "segment 3: refused");
        let error = batch_rows(&Lengths, &["a"], &[vec![]]).unwrap_err();
        assert!(error.to_string().starts_with("references[0] is empty"), "{error}");
        let error = batch_rows(&Lengths, &["a"], &refs).unwrap_err();
        assert_eq!(error.to_string(), "references has 5 entries but there are 1 hypotheses");
        assert!(score_rows(&Lengths, &[1, 2, 3]).is_err());
    }
}
