//! Bindings for `metrics::rouge` and `text::rouge`: conversion, GIL release, errors only.

use numpy::{PyArray1, PyArray3, PyArrayMethods, PyReadonlyArray3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::threads::{released, run_released};

use rayon::prelude::*;

use crate::metrics::rouge::rouge155::{
    rouge155_bootstrap as rouge155_bootstrap_core, rouge155_segment, Measure155, MultiRef, Rouge155Options,
};
use crate::metrics::rouge::{rouge_score_segment_tokens, Counts, TokenizedText, Variant};
use crate::text::rouge::porter_stem;
use crate::text::rouge::rouge155::{morph_stem, Rouge155TextOptions};

/// A text tokenized in Python: `(tokens, tokens per sentence)`.
type PyTokenizedText = (Vec<String>, Vec<Vec<String>>);

pub(crate) fn parse_variants(variants: &[String]) -> PyResult<Vec<Variant>> {
    Ok(variants.iter().map(|name| Variant::parse(name)).collect::<crate::error::Result<Vec<_>>>()?)
}

/// The `rouge155` preset's options (`nlgmetrics.metrics.rouge`'s options dict; a limit of `None` is none).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Rouge155StatsOptions {
    variants: Vec<String>,
    stemmer: bool,
    wordnet_exceptions: bool,
    remove_stopwords: bool,
    word_limit: Option<usize>,
    byte_limit: Option<usize>,
    multi_ref: String,
    alpha: f64,
}

/// ROUGE-1.5.5's bootstrap options: resamples, confidence in percent, and whether the ids are SPL's.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Rouge155BootstrapOptions {
    samples: usize,
    confidence: f64,
    spl_ids: bool,
}

type StatArrays<'py> = (Bound<'py, PyArray3<f64>>, Bound<'py, PyArray3<f64>>);

/// Flat per-(segment, variant) scores as two `(segments, variants, 3)` arrays: counts and P/R/F.
fn to_arrays<'py>(
    py: Python<'py>,
    scores: &[(Counts, [f64; 3])],
    n_segments: usize,
    n_variants: usize,
) -> PyResult<StatArrays<'py>> {
    let shape = [n_segments, n_variants, 3];
    let mut counts = Vec::with_capacity(scores.len() * 3);
    let mut prf = Vec::with_capacity(scores.len() * 3);
    for (count, values) in scores {
        counts.extend_from_slice(&[count.hits, count.candidate_total, count.reference_total]);
        prf.extend_from_slice(values);
    }
    let counts = PyArray1::from_vec(py, counts).reshape(shape)?;
    let prf = PyArray1::from_vec(py, prf).reshape(shape)?;
    Ok((counts, prf))
}

/// Like `rouge_score_stats` for texts tokenized by the caller: each text is `(tokens, sentence_tokens)`.
#[pyfunction]
#[pyo3(signature = (predictions, references, variants))]
fn rouge_score_stats_tokens<'py>(
    py: Python<'py>,
    predictions: Vec<PyTokenizedText>,
    references: Vec<Vec<PyTokenizedText>>,
    variants: Vec<String>,
) -> PyResult<StatArrays<'py>> {
    let variants = parse_variants(&variants)?;
    if predictions.len() != references.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{} predictions but {} reference entries",
            predictions.len(),
            references.len()
        )));
    }
    let to_text = |(all, sentences): (Vec<String>, Vec<Vec<String>>)| TokenizedText { all, sentences };
    let predictions: Vec<TokenizedText> = predictions.into_iter().map(to_text).collect();
    let references: Vec<Vec<TokenizedText>> =
        references.into_iter().map(|refs| refs.into_iter().map(to_text).collect()).collect();
    let segments: Vec<_> = released(py, || -> crate::error::Result<Vec<_>> {
        let per_segment: Vec<_> = predictions
            .par_iter()
            .zip(references.par_iter())
            .enumerate()
            .map(|(k, (candidate, refs))| {
                rouge_score_segment_tokens(&variants, candidate, refs).map_err(|e| e.at_segment(k))
            })
            .collect::<crate::error::Result<_>>()?;
        Ok(per_segment.into_iter().flatten().collect())
    })??;
    to_arrays(py, &segments, predictions.len(), variants.len())
}

/// `rouge155`-preset per-document scores (options as [`Rouge155StatsOptions`]): float64
/// `(segments, measures, 3)` of (R, P, F), 5 decimals.
#[pyfunction]
#[pyo3(signature = (predictions, references, options, threads=None))]
fn rouge155_stats<'py>(
    py: Python<'py>,
    predictions: Vec<String>,
    references: Vec<Vec<String>>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray3<f64>>> {
    let Rouge155StatsOptions {
        variants,
        stemmer: stem,
        wordnet_exceptions,
        remove_stopwords,
        word_limit,
        byte_limit,
        multi_ref,
        alpha,
    } = options.extract()?;
    let (word_limit, byte_limit) = (word_limit.unwrap_or(0), byte_limit.unwrap_or(0));
    let measures = variants.iter().map(|m| Measure155::parse(m)).collect::<crate::error::Result<Vec<_>>>()?;
    let multi_ref = match multi_ref.as_str() {
        "A" => MultiRef::Average,
        "B" => MultiRef::Best,
        "max" => MultiRef::MaxF,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "multi_ref must be 'A', 'B' or 'max', got {other:?}"
            )))
        }
    };
    if predictions.len() != references.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{} predictions but {} reference entries",
            predictions.len(),
            references.len()
        )));
    }
    let options = Rouge155Options {
        text: Rouge155TextOptions { stem, wordnet_exceptions, remove_stopwords, word_limit, byte_limit },
        multi_ref,
        alpha,
    };
    let segments: Vec<Vec<[f64; 3]>> = run_released(py, threads, || {
        predictions
            .par_iter()
            .zip(references.par_iter())
            .enumerate()
            .map(|(k, (peer, models))| rouge155_segment(&measures, &options, peer, models).map_err(|e| e.at_segment(k)))
            .collect::<crate::error::Result<_>>()
    })??;
    let shape = [segments.len(), measures.len(), 3];
    let flat: Vec<f64> = segments.iter().flatten().flatten().copied().collect();
    PyArray1::from_vec(py, flat).reshape(shape)
}

/// ROUGE-1.5.5's bootstrap for each measure (options as [`Rouge155BootstrapOptions`]):
/// `(measures, 3 [R, P, F], 3 [average, low, high])`.
#[pyfunction]
#[pyo3(signature = (scores, options, threads=None))]
fn rouge155_bootstrap<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray3<'py, f64>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray3<f64>>> {
    let Rouge155BootstrapOptions { samples, confidence, spl_ids } = options.extract()?;
    let array = scores.as_array();
    let (n_docs, n_measures, width) = array.dim();
    if width != 3 {
        return Err(pyo3::exceptions::PyValueError::new_err("scores must have shape (segments, measures, 3)"));
    }
    let per_measure: Vec<Vec<[f64; 3]>> = (0..n_measures)
        .map(|k| (0..n_docs).map(|i| [array[[i, k, 0]], array[[i, k, 1]], array[[i, k, 2]]]).collect())
        .collect();
    let results: Vec<[[f64; 3]; 3]> = run_released(py, threads, || {
        per_measure
            .par_iter()
            .map(|docs| rouge155_bootstrap_core(docs, samples, confidence, spl_ids))
            .collect::<crate::error::Result<Vec<_>>>()
    })??;
    let flat: Vec<f64> = results.iter().flatten().flatten().copied().collect();
    PyArray1::from_vec(py, flat).reshape([n_measures, 3, 3])
}

/// The ROUGE tokens of each text (options: `tokenizer` = "rouge_score" | "unicode", `stemmer`).
#[pyfunction]
fn rouge_tokenize(py: Python<'_>, texts: Vec<String>, options: &Bound<'_, PyDict>) -> PyResult<Vec<Vec<String>>> {
    let (tokenizer, stem) = super::segment_options::rouge_tokenizer(options)?;
    released(py, || texts.iter().map(|text| tokenizer.tokenize(text, stem)).collect())
}

/// NLTK's PorterStemmer (NLTK_EXTENSIONS mode) on each lower-case ASCII word.
#[pyfunction]
fn porter_stem_words(py: Python<'_>, words: Vec<String>) -> PyResult<Vec<String>> {
    released(py, || words.iter().map(|word| porter_stem(word)).collect())
}

/// ROUGE-1.5.5's `MorphStem` (WordNet-2.0 exceptions optional, then its Porter stemmer) on each word.
#[pyfunction]
#[pyo3(signature = (words, wordnet_exceptions))]
fn rouge155_stem_words(py: Python<'_>, words: Vec<String>, wordnet_exceptions: bool) -> PyResult<Vec<String>> {
    released(py, || words.iter().map(|word| morph_stem(word, wordnet_exceptions)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_score_stats_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_stats, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_stem_words, m)?)?;
    m.add_function(wrap_pyfunction!(rouge155_bootstrap, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem_words, m)?)?;
    Ok(())
}
