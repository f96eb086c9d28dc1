//! The one binding of every segment metric (`metrics::segment::SegmentMetric`): `_core.SegmentScorer(name,
//! options)` builds the metric by name from the Python metric's options dict (read once, into the core's
//! options struct), then scores batches with one input path, one GIL release on the caller's thread count,
//! one NumPy conversion. In the spirit of pydantic-core's `CombinedValidator` (one enum over every
//! implementation, built by name: `src/validators/mod.rs`), written for our trait.

use numpy::{Element, IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::error::Error;
use crate::metrics::bleu::{SacreBleu, StatsOptions};
use crate::metrics::character::Character;
use crate::metrics::charcut::CharcutConfig;
use crate::metrics::chrf::ChrfConfig;
use crate::metrics::chrf_nltk::ChrfNltk;
use crate::metrics::gleu::Gleu;
use crate::metrics::qa::Qa;
use crate::metrics::ribes::Ribes;
use crate::metrics::rouge::RougeScoreOptions;
use crate::metrics::segment::{batch_rows, score_rows, segment_scores, SegmentMetric};
use crate::metrics::ter::TerNormalizer;
use crate::metrics::wer::{ErrorRate, ErrorRateConfig, Measure, Unit};

use super::arrays::matrix;
use super::bleu::tokenizer_and_scoring;
use super::chrf::chrf_config;
use super::errors::catch_panics;
use super::segment_options;
use super::segment_words::{self, reading_tokens, TokenBatch};
use super::strings::Lines;
use super::threads::run_kernel;

/// The NumPy dtype name of a row element.
pub(crate) trait StatDtype: Element + Copy + Send + Sync {
    const DTYPE: &'static str;
}

impl StatDtype for i64 {
    const DTYPE: &'static str = "int64";
}

impl StatDtype for f64 {
    const DTYPE: &'static str = "float64";
}

// ------------------------------------------------------------------ options, read from the metric's dict

/// jiwer's text options of the WER family (`remove_multiple_spaces` None: the unit's jiwer default); also
/// read by `_core.error_rate_alignment`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct ErrorRateOptions {
    remove_multiple_spaces: Option<bool>,
    strip: bool,
}

impl ErrorRateOptions {
    /// The text configuration of `unit`.
    pub(crate) fn config(self, unit: Unit) -> ErrorRateConfig {
        let remove_multiple_spaces = self.remove_multiple_spaces.unwrap_or(unit == Unit::Words);
        ErrorRateConfig { unit, remove_multiple_spaces, strip: self.strip }
    }

    fn build(self, unit: Unit, measure: Measure) -> ErrorRate {
        ErrorRate { config: self.config(unit), measure }
    }
}

/// CharCut's options.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CharcutOptions {
    match_size: usize,
    alt_norm: bool,
}

// ------------------------------------------------------------------ the metrics, built by name

/// Every segment metric the scorer can be: one variant per kernel.
enum AnySegmentMetric {
    Bleu(SacreBleu),
    Chrf(ChrfConfig),
    Ter(TerNormalizer),
    ErrorRate(ErrorRate),
    Charcut(CharcutConfig),
    Character(Character),
    Gleu(Gleu),
    Ribes(Ribes),
    ChrfNltk(ChrfNltk),
    Qa(Qa),
    Rouge(RougeScoreOptions),
}

/// `$body` with `$metric` bound to the variant's metric (monomorphised per variant).
macro_rules! with_metric {
    ($any:expr, $metric:ident => $body:expr) => {
        match $any {
            AnySegmentMetric::Bleu($metric) => $body,
            AnySegmentMetric::Chrf($metric) => $body,
            AnySegmentMetric::Ter($metric) => $body,
            AnySegmentMetric::ErrorRate($metric) => $body,
            AnySegmentMetric::Charcut($metric) => $body,
            AnySegmentMetric::Character($metric) => $body,
            AnySegmentMetric::Gleu($metric) => $body,
            AnySegmentMetric::Ribes($metric) => $body,
            AnySegmentMetric::ChrfNltk($metric) => $body,
            AnySegmentMetric::Qa($metric) => $body,
            AnySegmentMetric::Rouge($metric) => $body,
        }
    };
}

/// The names the scorer is built by (each the Python `Metric.name` that uses it).
const NAMES: &[&str] = &[
    "bleu",
    "chrf",
    "ter",
    "wer",
    "mer",
    "wil",
    "wip",
    "cer",
    "charcut",
    "character",
    "gleu",
    "ribes",
    "chrf_nltk",
    "squad",
    "rouge",
];

impl AnySegmentMetric {
    fn build(name: &str, options: &Bound<'_, PyDict>) -> PyResult<Self> {
        let error_rate = |unit, measure| -> PyResult<Self> {
            Ok(Self::ErrorRate(options.extract::<ErrorRateOptions>()?.build(unit, measure)))
        };
        Ok(match name {
            "bleu" => {
                let (tokenizer, scoring) = tokenizer_and_scoring(options)?;
                Self::Bleu(SacreBleu::new(StatsOptions::new(tokenizer, scoring.max_order)?, scoring))
            }
            "chrf" => Self::Chrf(chrf_config(options)?),
            "ter" => Self::Ter(options.extract()?),
            "wer" => error_rate(Unit::Words, Measure::ErrorRate)?,
            "mer" => error_rate(Unit::Words, Measure::MatchErrorRate)?,
            "wil" => error_rate(Unit::Words, Measure::InformationLost)?,
            "wip" => error_rate(Unit::Words, Measure::InformationPreserved)?,
            "cer" => error_rate(Unit::Characters, Measure::ErrorRate)?,
            "charcut" => {
                let CharcutOptions { match_size, alt_norm } = options.extract()?;
                Self::Charcut(CharcutConfig { match_size, alt_norm })
            }
            "character" => Self::Character(Character),
            "gleu" => Self::Gleu(segment_words::gleu(options)?),
            "ribes" => Self::Ribes(segment_words::ribes(options)?),
            "chrf_nltk" => Self::ChrfNltk(segment_options::chrf_nltk(options)?),
            "squad" => Self::Qa(segment_options::qa(options)?),
            "rouge" => Self::Rouge(segment_options::rouge(options)?),
            other => {
                return Err(PyValueError::new_err(format!(
                    "no segment metric {other:?}; expected one of {}",
                    NAMES.join(", ")
                )))
            }
        })
    }

    /// The metric as a reader of token lists or ids, when its options say so (`tokenize="tokens"`/`"ids"`).
    fn token_input(&self) -> Option<&dyn TokenBatch> {
        match self {
            Self::Gleu(metric) => reading_tokens(metric),
            Self::Ribes(metric) => reading_tokens(metric),
            _ => None,
        }
    }
}

// ------------------------------------------------------------------ the generic bodies

/// Rows and sentence scores of one batch: inputs borrowed (lists of str, or Arrow columns), the GIL
/// released once, on `threads`.
fn segment_stats<'py, M>(
    py: Python<'py>,
    metric: &M,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)>
where
    M: SegmentMetric,
    M::Stat: StatDtype,
{
    let lines = Lines::extract(hypotheses, references)?;
    let (hyps, refs) = lines.borrow()?;
    let (rows, scores) = run_kernel(py, threads, || {
        let rows = batch_rows(metric, &hyps, &refs)?;
        let scores = segment_scores(metric, &rows)?;
        Ok((rows, scores))
    })?;
    Ok((matrix(py, hyps.len(), metric.width(), rows).into_any(), scores.into_pyarray(py)))
}

/// Fewer rows than this are scored on the calling thread, the GIL held (microseconds of work).
const SMALL_SCORE_ROWS: usize = 64;

/// The score of every row of `sums` (a 2-D array of the metric's row dtype and width).
fn sum_scores<'py, M>(
    py: Python<'py>,
    metric: &M,
    sums: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>>
where
    M: SegmentMetric,
    M::Stat: StatDtype,
{
    let width = metric.width();
    let array = sums
        .downcast::<PyArray2<M::Stat>>()
        .map_err(|_| PyTypeError::new_err(format!("{} sums must be a 2-D {} NumPy array", M::NAME, M::Stat::DTYPE)))?;
    if array.shape()[1] != width {
        return Err(Error::ShapeMismatch(format!(
            "{} sums must have {width} columns, got {}",
            M::NAME,
            array.shape()[1]
        ))
        .into());
    }
    let readonly = array.try_readonly()?;
    let rows: Vec<M::Stat> = match readonly.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => readonly.as_array().iter().copied().collect(),
    };
    // A corpus row or a few resamples: scored here, without waking (or building) a thread pool.
    let scores = if rows.len() / width < SMALL_SCORE_ROWS {
        catch_panics(|| score_rows(metric, &rows))??
    } else {
        run_kernel(py, threads, || score_rows(metric, &rows))?
    };
    Ok(scores.into_pyarray(py))
}

// ------------------------------------------------------------------ the Python class

/// A segment metric built by name from its options: `SegmentScorer("chrf", metric.options)`.
#[pyclass(module = "nlgmetrics._core", name = "SegmentScorer", frozen)]
pub struct SegmentScorer {
    name: String,
    metric: AnySegmentMetric,
}

#[pymethods]
impl SegmentScorer {
    #[new]
    fn new(name: &str, options: &Bound<'_, PyDict>) -> PyResult<Self> {
        Ok(Self { name: name.to_owned(), metric: AnySegmentMetric::build(name, options)? })
    }

    /// `(statistics (n, width), sentence scores (n,))` of a batch; `references[i]` is a str (one
    /// reference) or a sequence of str; either side may be Arrow (`ArrowStrings`, `ArrowReferences`).
    #[pyo3(signature = (hypotheses, references, threads=None))]
    fn segment_stats<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>)> {
        if let Some(metric) = self.metric.token_input() {
            return metric.token_stats(py, hypotheses, references, threads);
        }
        with_metric!(&self.metric, metric => segment_stats(py, metric, hypotheses, references, threads))
    }

    /// `segment_stats` of Python lists, with every check of `core.lists` made while the strs are read
    /// (`lists.rs`), scored in pieces of at least `rows_per_call` rows (Ctrl-C handled between pieces): `(statistics,
    /// sentence scores, the distinct numbers of references per hypothesis)`.
    #[pyo3(signature = (hypotheses, references, threads=None, *, max_chars, refuse_streams=false, rows_per_call=None))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn score_lists<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        threads: Option<usize>,
        max_chars: usize,
        refuse_streams: bool,
        rows_per_call: Option<usize>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f64>>, Vec<usize>)> {
        let rules = super::lists::ListRules { max_chars, refuse_streams };
        with_metric!(&self.metric, metric => super::lists::score_lists(py, metric, hypotheses, references, &rules, threads, rows_per_call))
    }

    /// Every check `score_lists` makes of a batch of Python lists, without scoring it: `(hypotheses, one new list
    /// of references per hypothesis or None when they were a list of str, the texts' UTF-8 bytes)` (`lists.rs`).
    #[pyo3(signature = (hypotheses, references, *, max_chars, refuse_streams=false))]
    #[allow(clippy::type_complexity)]
    fn check_lists<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        max_chars: usize,
        refuse_streams: bool,
    ) -> PyResult<(Bound<'py, PyList>, Option<Bound<'py, PyList>>, usize)> {
        let rules = super::lists::ListRules { max_chars, refuse_streams };
        with_metric!(&self.metric, metric => super::lists::check_for_later(py, metric, hypotheses, references, &rules))
    }

    /// The score of each row of summed statistics (a corpus, or bootstrap resamples), `(rows, width)`.
    #[pyo3(signature = (sums, threads=None))]
    fn score_rows<'py>(
        &self,
        py: Python<'py>,
        sums: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        with_metric!(&self.metric, metric => sum_scores(py, metric, sums, threads))
    }

    /// Columns of a statistics row.
    #[getter]
    fn width(&self) -> usize {
        with_metric!(&self.metric, metric => metric.width())
    }

    /// NumPy dtype name of the statistics ("int64" or "float64").
    #[getter]
    fn dtype(&self) -> &'static str {
        fn dtype_of<M: SegmentMetric>(_: &M) -> &'static str
        where
            M::Stat: StatDtype,
        {
            M::Stat::DTYPE
        }
        with_metric!(&self.metric, metric => dtype_of(metric))
    }

    /// The name it was built by.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("SegmentScorer({:?})", self.name)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SegmentScorer>()?;
    m.add("SEGMENT_METRICS", NAMES.to_vec())?;
    Ok(())
}
