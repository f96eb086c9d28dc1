//! Bindings for `metrics::rouge` and `text::rouge`: conversion, GIL release, errors only.

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use rayon::prelude::*;

use crate::metrics::rouge::{rouge_score_batch, rouge_score_segment_tokens, Counts, RougeScoreOptions, TokenizedText, Variant};
use crate::text::rouge::{porter_stem, RougeTokenizer};

fn parse_variants(variants: &[String]) -> PyResult<Vec<Variant>> {
    Ok(variants
        .iter()
        .map(|name| Variant::parse(name))
        .collect::<crate::error::Result<Vec<_>>>()?)
}

/// `rouge_score`-preset statistics of a batch: `(counts, scores)`, both float64 arrays of shape
/// `(segments, variants, 3)`; counts = (hits, candidate total, reference total), scores = (P, R, F).
#[pyfunction]
#[pyo3(signature = (predictions, references, variants, tokenizer, stem))]
fn rouge_score_stats<'py>(
    py: Python<'py>,
    predictions: Vec<String>,
    references: Vec<Vec<String>>,
    variants: Vec<String>,
    tokenizer: &str,
    stem: bool,
) -> PyResult<(Bound<'py, PyArray3<f64>>, Bound<'py, PyArray3<f64>>)> {
    let options = RougeScoreOptions {
        variants: parse_variants(&variants)?,
        tokenizer: RougeTokenizer::from_name(tokenizer)?,
        stem,
    };
    let segments = py.allow_threads(|| rouge_score_batch(&options, &predictions, &references))?;
    to_arrays(py, &segments, options.variants.len())
}

type StatArrays<'py> = (Bound<'py, PyArray3<f64>>, Bound<'py, PyArray3<f64>>);

fn to_arrays<'py>(py: Python<'py>, segments: &[Vec<(Counts, [f64; 3])>], n_variants: usize) -> PyResult<StatArrays<'py>> {
    let shape = [segments.len(), n_variants, 3];
    let mut counts = Vec::with_capacity(shape.iter().product());
    let mut scores = Vec::with_capacity(shape.iter().product());
    for segment in segments {
        for (count, prf) in segment {
            counts.extend_from_slice(&[count.hits, count.candidate_total, count.reference_total]);
            scores.extend_from_slice(prf);
        }
    }
    let counts = PyArray1::from_vec_bound(py, counts).reshape(shape)?;
    let scores = PyArray1::from_vec_bound(py, scores).reshape(shape)?;
    Ok((counts, scores))
}

/// Like `rouge_score_stats` for texts tokenized by the caller: each text is `(tokens, sentence_tokens)`.
#[pyfunction]
#[pyo3(signature = (predictions, references, variants))]
fn rouge_score_stats_tokens<'py>(
    py: Python<'py>,
    predictions: Vec<(Vec<String>, Vec<Vec<String>>)>,
    references: Vec<Vec<(Vec<String>, Vec<Vec<String>>)>>,
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
    let segments: Vec<_> = py.allow_threads(|| {
        predictions
            .par_iter()
            .zip(references.par_iter())
            .map(|(candidate, refs)| rouge_score_segment_tokens(&variants, candidate, refs))
            .collect()
    });
    to_arrays(py, &segments, variants.len())
}

/// The ROUGE tokens of each text (`tokenizer` = "rouge_score" | "unicode").
#[pyfunction]
#[pyo3(signature = (texts, tokenizer, stem))]
fn rouge_tokenize(
    py: Python<'_>,
    texts: Vec<String>,
    tokenizer: &str,
    stem: bool,
) -> PyResult<Vec<Vec<String>>> {
    let tokenizer = RougeTokenizer::from_name(tokenizer)?;
    Ok(py.allow_threads(|| {
        texts
            .iter()
            .map(|text| tokenizer.tokenize(text, stem))
            .collect()
    }))
}

/// NLTK's PorterStemmer (NLTK_EXTENSIONS mode) on each lower-case ASCII word.
#[pyfunction]
fn porter_stem_words(py: Python<'_>, words: Vec<String>) -> Vec<String> {
    py.allow_threads(|| words.iter().map(|word| porter_stem(word)).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_score_stats, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_stats_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem_words, m)?)?;
    Ok(())
}
