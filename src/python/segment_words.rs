//! The word metrics of `_core.SegmentScorer` (NLTK's GLEU and RIBES): their options, read once from the
//! metric's dict, and their second input path: token lists or int ids (`tokenize="tokens"` or `"ids"`,
//! what `compat.nltk` passes), numbered per segment here and scored by the same driver as text.

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::metrics::gleu::{Gleu, GleuOrders};
use crate::metrics::ribes::{Ribes, RibesParams};
use crate::metrics::segment::segment_scores;
use crate::metrics::segment_words::{batch_id_rows, WordInput, WordSegmentMetric};
use crate::text::words::IdScope;

use super::arrays::matrix;
use super::segment::StatDtype;
use super::threads::run_kernel;
use super::words::extract_corpus;

/// `segment_stats` of a metric built for token lists or ids (`SegmentScorer.segment_stats` sends those here).
pub(crate) trait TokenBatch {
    /// `(statistics (n, width), sentence scores (n,))` of a batch of token lists (or id lists).
    fn token_stats<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)>;
}

impl<M> TokenBatch for M
where
    M: WordSegmentMetric,
    M::Stat: StatDtype,
{
    fn token_stats<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)> {
        let kind = if self.input() == WordInput::Ids { "ids" } else { "tokens" };
        let (hyps, refs) = extract_corpus(py, hypotheses, references, kind, IdScope::Segment, threads)?;
        let (rows, scores) = run_kernel(py, threads, || {
            let rows = batch_id_rows(self, &hyps, &refs)?;
            let scores = segment_scores(self, &rows)?;
            Ok((rows, scores))
        })?;
        Ok((matrix(py, hyps.len(), self.width(), rows).into_any(), scores.into_pyarray(py)))
    }
}

/// The metric as a token-list reader, when its options say it reads token lists or ids (else text).
pub(crate) fn reading_tokens<M: WordSegmentMetric + TokenBatch>(metric: &M) -> Option<&dyn TokenBatch> {
    match metric.input() {
        WordInput::Text(_) => None,
        WordInput::Tokens | WordInput::Ids => Some(metric),
    }
}

/// The optional `allow_no_reference` flag (absent: false): `compat.nltk` scores a segment without reference.
fn allow_no_reference(options: &Bound<'_, PyDict>) -> PyResult<bool> {
    options.get_item("allow_no_reference")?.map_or(Ok(false), |flag| flag.extract())
}

/// NLTK GLEU's options (`nlgmetrics.metrics.nltk_mt.GLEU`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct GleuOptions {
    tokenize: String,
    min_len: usize,
    max_len: usize,
}

/// GLEU from its options dict.
pub(crate) fn gleu(options: &Bound<'_, PyDict>) -> PyResult<Gleu> {
    let GleuOptions { tokenize, min_len, max_len } = options.extract()?;
    Ok(Gleu {
        orders: GleuOrders::new(min_len, max_len)?,
        input: WordInput::from_name(&tokenize)?,
        allow_no_reference: allow_no_reference(options)?,
    })
}

/// NLTK RIBES's options (`nlgmetrics.metrics.nltk_mt.RIBES`, with NLTK's `MAX_ALIGNMENT_LEN`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RibesOptions {
    tokenize: String,
    alpha: f64,
    beta: f64,
    max_alignment_len: usize,
}

/// RIBES from its options dict.
pub(crate) fn ribes(options: &Bound<'_, PyDict>) -> PyResult<Ribes> {
    let RibesOptions { tokenize, alpha, beta, max_alignment_len } = options.extract()?;
    Ok(Ribes {
        params: RibesParams { alpha, beta, max_alignment_len },
        input: WordInput::from_name(&tokenize)?,
        allow_no_reference: allow_no_reference(options)?,
    })
}
