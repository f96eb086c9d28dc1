//! Segment metrics on word ids (NLTK's GLEU and RIBES): lines of text are split into words by a tokenizer
//! and numbered per segment by the driver's per-thread scratch; token lists and int ids (NLTK's own
//! inputs, `compat.nltk`) are numbered by the caller and scored by [`batch_id_rows`], the same driver.

use crate::error::{Error, Result};
use crate::metrics::segment::{check_shapes, fill_rows, SegmentMetric};
use crate::text::words::{SegmentIds, WordTokenizer};

/// What a word metric reads: text split by a tokenizer, or words given already (`tokenize="tokens"`:
/// lists of str; `"ids"`: lists of int ids, Python's equality already applied by the caller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordInput {
    Text(WordTokenizer),
    Tokens,
    Ids,
}

impl WordInput {
    /// `"tokens"`, `"ids"`, or a tokenizer name ([`WordTokenizer::from_name`]).
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "tokens" => Self::Tokens,
            "ids" => Self::Ids,
            tokenizer => Self::Text(WordTokenizer::from_name(tokenizer)?),
        })
    }
}

/// A word metric's per-thread scratch: the segment's ids (text only) and the kernel's own work space.
#[derive(Debug, Default)]
pub struct WordScratch<W> {
    ids: SegmentIds,
    pub work: W,
}

/// A segment metric whose kernel reads word ids; its `SegmentMetric::segment_into` is [`words_segment_into`].
pub trait WordSegmentMetric: SegmentMetric<Scratch = WordScratch<Self::Work>> {
    /// The kernel's own per-thread work space.
    type Work: Default + Send;

    /// What the metric reads.
    fn input(&self) -> WordInput;

    /// Writes the statistics of one segment, given as word ids, into `row` (zeroed).
    fn ids_into(&self, hyp: &[u32], refs: &[Vec<u32>], row: &mut [Self::Stat], work: &mut Self::Work) -> Result<()>;
}

/// `segment_into` of a word metric: the line and its references tokenized and numbered in the thread's
/// scratch, then [`WordSegmentMetric::ids_into`]; an error for a metric built for token lists or ids.
pub fn words_segment_into<M: WordSegmentMetric>(
    metric: &M,
    hyp: &str,
    refs: &[&str],
    row: &mut [M::Stat],
    scratch: &mut WordScratch<M::Work>,
) -> Result<()> {
    let WordInput::Text(tokenizer) = metric.input() else {
        return Err(Error::InvalidOption(format!(
            "{} was built for token lists or ids, not for lines of text",
            M::NAME
        )));
    };
    let WordScratch { ids, work } = scratch;
    let (hyp, refs) = ids.number(hyp, refs, tokenizer);
    metric.ids_into(hyp, refs, row, work)
}

/// [`batch_rows`](crate::metrics::segment::batch_rows) for segments given as word ids (ids shared within
/// a segment at least): the same shape checks, buffer, threads and errors.
pub fn batch_id_rows<M: WordSegmentMetric>(
    metric: &M,
    hyps: &[Vec<u32>],
    refs: &[Vec<Vec<u32>>],
) -> Result<Vec<M::Stat>> {
    check_shapes(metric, hyps.len(), refs.len(), refs.iter().map(Vec::len))?;
    fill_rows(metric, hyps.len(), |index, row, scratch| {
        metric.ids_into(&hyps[index], &refs[index], row, &mut scratch.work)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::segment::batch_rows;

    /// Counts the hypothesis words found in the first reference.
    struct Found(WordInput);

    impl SegmentMetric for Found {
        type Stat = i64;
        type Scratch = WordScratch<()>;
        const NAME: &'static str = "found";

        fn width(&self) -> usize {
            1
        }

        fn segment_into(&self, hyp: &str, refs: &[&str], row: &mut [i64], scratch: &mut Self::Scratch) -> Result<()> {
            words_segment_into(self, hyp, refs, row, scratch)
        }

        fn score_row(&self, row: &[i64]) -> f64 {
            row[0] as f64
        }
    }

    impl WordSegmentMetric for Found {
        type Work = ();

        fn input(&self) -> WordInput {
            self.0
        }

        fn ids_into(&self, hyp: &[u32], refs: &[Vec<u32>], row: &mut [i64], _: &mut ()) -> Result<()> {
            row[0] = hyp.iter().filter(|id| refs[0].contains(id)).count() as i64;
            Ok(())
        }
    }

    #[test]
    fn text_and_ids_give_the_same_rows() {
        let text = Found(WordInput::from_name("none").unwrap());
        let rows = batch_rows(&text, &["a b c", "x"], &[vec!["c a"], vec!["y"]]).unwrap();
        let ids = batch_id_rows(&text, &[vec![0, 1, 2], vec![0]], &[vec![vec![2, 0]], vec![vec![1]]]).unwrap();
        assert_eq!(rows, [2, 0]);
        assert_eq!(rows, ids);
    }

    #[test]
    fn token_metrics_refuse_text_and_shapes_are_checked() {
        assert_eq!(WordInput::from_name("ids").unwrap(), WordInput::Ids);
        assert!(WordInput::from_name("no such tokenizer").is_err());
        let error = batch_rows(&Found(WordInput::Tokens), &["a"], &[vec!["a"]]).unwrap_err();
        assert_eq!(error.to_string(), "segment 0: found was built for token lists or ids, not for lines of text");
        let text = Found(WordInput::Text(WordTokenizer::Split));
        assert!(batch_id_rows(&text, &[vec![0]], &[]).is_err());
        let error = batch_id_rows(&text, &[vec![0]], &[vec![]]).unwrap_err();
        assert!(error.to_string().starts_with("references[0] is empty"), "{error}");
    }
}
