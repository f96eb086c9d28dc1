//! Options of the segment metrics moved onto `_core.SegmentScorer` after the first six, read once from the
//! Python metric's options dict (each option declared once, here) into the core's metric.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::metrics::chrf_nltk::ChrfNltk;
use crate::metrics::nist::PythonSum;
use crate::metrics::qa::{Qa, QaMeasure, QaNormalizer};
use crate::metrics::rouge::RougeScoreOptions;
use crate::text::rouge::RougeTokenizer;

/// NLTK's `sum()` of floats in this interpreter: compensated from CPython 3.12 on.
pub(crate) fn python_sum(py: Python<'_>) -> PythonSum {
    if py.version_info() >= (3, 12) {
        PythonSum::Neumaier
    } else {
        PythonSum::Sequential
    }
}

/// NLTK chrF's options (`nlgmetrics.compat.nltk.chrf_score`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ChrfNltkOptions {
    min_len: usize,
    max_len: usize,
    beta: f64,
    ignore_whitespace: bool,
}

/// NLTK's chrF from its options dict.
pub(crate) fn chrf_nltk(options: &Bound<'_, PyDict>) -> PyResult<ChrfNltk> {
    let ChrfNltkOptions { min_len, max_len, beta, ignore_whitespace } = options.extract()?;
    Ok(ChrfNltk::new(min_len, max_len, beta, ignore_whitespace, python_sum(options.py()))?)
}

/// Exact match / F1's measure (`nlgmetrics.metrics.qa.QA`), beside its normalizer's options.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct QaOptions {
    measure: String,
}

/// A QA normalizer's options (`normalizer`, `language`): exact match / F1's, and those of `_core.qa_normalize`
/// and `_core.qa_tokens`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct QaNormalizerOptions {
    normalizer: String,
    language: Option<String>,
}

/// A QA normalizer from an options dict.
pub(crate) fn qa_normalizer(options: &Bound<'_, PyDict>) -> PyResult<QaNormalizer> {
    let QaNormalizerOptions { normalizer, language } = options.extract()?;
    Ok(QaNormalizer::parse(&normalizer, language.as_deref())?)
}

/// Exact match and F1 from their options dict.
pub(crate) fn qa(options: &Bound<'_, PyDict>) -> PyResult<Qa> {
    let QaNormalizerOptions { normalizer, language } = options.extract()?;
    let QaOptions { measure } = options.extract()?;
    Ok(Qa {
        normalizer: QaNormalizer::parse(&normalizer, language.as_deref())?,
        measure: QaMeasure::from_name(&measure)?,
    })
}

/// ROUGE's `rouge_score` preset options (`nlgmetrics.metrics.rouge`), the tokenizer's aside.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RougeOptions {
    variants: Vec<String>,
}

/// ROUGE's tokenizer options: `tokenizer` as the core reads it (text segmented by jieba or MeCab comes as
/// `"unicode_words"`) and `stemmer` (Porter on or off); shared by the preset and `_core.rouge_tokenize`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RougeTokenizerOptions {
    tokenizer: String,
    stemmer: bool,
}

/// ROUGE's tokenizer and whether it stems, from an options dict.
pub(crate) fn rouge_tokenizer(options: &Bound<'_, PyDict>) -> PyResult<(RougeTokenizer, bool)> {
    let RougeTokenizerOptions { tokenizer, stemmer } = options.extract()?;
    Ok((RougeTokenizer::from_name(&tokenizer)?, stemmer))
}

/// The `rouge_score` preset from its options dict.
pub(crate) fn rouge(options: &Bound<'_, PyDict>) -> PyResult<RougeScoreOptions> {
    let RougeOptions { variants } = options.extract()?;
    let RougeTokenizerOptions { tokenizer, stemmer } = options.extract()?;
    Ok(RougeScoreOptions {
        variants: super::rouge::parse_variants(&variants)?,
        tokenizer: RougeTokenizer::from_name(&tokenizer)?,
        stem: stemmer,
    })
}
