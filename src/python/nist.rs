//! Bindings for `metrics::nist`: statistics rows with corpus-wide information weights, with each segment's
//! own beside them (from one tokenization), and the scores of rows. Options come as one dict ([`NistOptions`]).

use numpy::{PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::arrays::matrix;
use super::segment_options::python_sum;
use super::strings::utf8_pieces;
use super::threads::run_kernel;
use super::words::extract_corpus;
use crate::metrics::nist::{corpus_rows, corpus_score, row_width, rows, NistScore};
use crate::text::words::{corpus_ids, IdScope, WordTokenizer};

/// NIST's options (`nlgmetrics.metrics.nltk_mt.NIST`): `tokenize` as the core reads it (a tokenizer name, with
/// `"nist-substituted"` for NIST text lowercased in Python, or `"tokens"`/`"ids"` for token lists) and `n`.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct NistOptions {
    tokenize: String,
    n: usize,
}

/// NIST statistics rows `[info_1..n, ngrams_1..n, ref_len_1..n, hyp_len]` (float64, shape `(segments, 3n+1)`)
/// with corpus-wide information weights (`corpus_nist`); segments summed as this interpreter's `sum()`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, options, threads=None))]
fn nist_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let NistOptions { tokenize, n } = options.extract()?;
    let sum = python_sum(py);
    let (hyps, refs) = extract_corpus(py, hypotheses, references, &tokenize, IdScope::Corpus, threads)?;
    let rows = run_kernel(py, threads, || corpus_rows(&hyps, &refs, n, sum))?;
    Ok(matrix(py, hyps.len(), row_width(n), rows))
}

/// NIST score of each row of (summed) statistics (`3n + 1` columns for order `n`), and whether NLTK divides by zero
/// there (it raises `ZeroDivisionError`; the score is then mteval-v13a's: such orders add 0). `segments`: the number
/// of segments summed into each row (0 means an empty corpus).
#[pyfunction]
fn nist_row_scores(rows: PyReadonlyArray2<'_, f64>, segments: Vec<usize>) -> PyResult<(Vec<f64>, Vec<bool>)> {
    let view = rows.as_array();
    let n = view.ncols().saturating_sub(1) / 3;
    if n == 0 || view.ncols() != row_width(n) || segments.len() != view.nrows() {
        return Err(PyValueError::new_err(format!(
            "NIST rows need 3n+1 columns (n >= 1) and one segment count each, got {} columns and {} counts for {} rows",
            view.ncols(),
            segments.len(),
            view.nrows()
        )));
    }
    let scored: Vec<NistScore> =
        view.rows().into_iter().zip(&segments).map(|(row, &count)| corpus_score(&row.to_vec(), n, count)).collect();
    Ok((scored.iter().map(|s| s.score).collect(), scored.iter().map(|s| s.nltk_divides_by_zero).collect()))
}

/// Both at once, from one tokenization: corpus-weight rows (`corpus_nist`) and each segment's own
/// rows (`sentence_nist`), as `nist_stats` gives them with `weights="corpus"` and `"segment"`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, options, threads=None))]
#[allow(clippy::type_complexity)]
fn nist_corpus_and_sentence_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>)> {
    let NistOptions { tokenize, n } = options.extract()?;
    let sum = python_sum(py);
    let (hyps, refs) = extract_corpus(py, hypotheses, references, &tokenize, IdScope::Corpus, threads)?;
    let (corpus, sentence) = run_kernel(py, threads, || rows(&hyps, &refs, n, sum, true, true))?;
    let width = row_width(n);
    Ok((matrix(py, hyps.len(), width, corpus), matrix(py, hyps.len(), width, sentence)))
}

/// `nist_corpus_and_sentence_stats` of a NIST state's texts as they are kept (UTF-8 buffers and end
/// offsets; `ref_counts`: references per segment), without a Python str per line; `None` when the
/// buffers are not valid UTF-8 (the caller decodes them itself).
#[pyfunction]
#[pyo3(signature = (hyp_data, hyp_ends, ref_data, ref_ends, ref_counts, options, threads=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn nist_utf8_stats<'py>(
    py: Python<'py>,
    hyp_data: PyReadonlyArray1<'py, u8>,
    hyp_ends: PyReadonlyArray1<'py, i64>,
    ref_data: PyReadonlyArray1<'py, u8>,
    ref_ends: PyReadonlyArray1<'py, i64>,
    ref_counts: PyReadonlyArray1<'py, i64>,
    options: &Bound<'py, PyDict>,
    threads: Option<usize>,
) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>)>> {
    let NistOptions { tokenize, n } = options.extract()?;
    let sum = python_sum(py);
    let tokenizer = WordTokenizer::from_name(&tokenize)?;
    let (Some(hyps), Some(flat_refs)) = (
        utf8_pieces(hyp_data.as_slice()?, hyp_ends.as_slice()?)?,
        utf8_pieces(ref_data.as_slice()?, ref_ends.as_slice()?)?,
    ) else {
        return Ok(None);
    };
    let counts = ref_counts.as_slice()?;
    if counts.len() != hyps.len()
        || counts.iter().any(|&count| count < 0)
        || counts.iter().sum::<i64>() != flat_refs.len() as i64
    {
        return Err(PyValueError::new_err("ref_counts must give each hypothesis's number of references"));
    }
    let mut rest = flat_refs.as_slice();
    let refs: Vec<Vec<&str>> = counts
        .iter()
        .map(|&count| {
            let (segment, after) = rest.split_at(count as usize);
            rest = after;
            segment.to_vec()
        })
        .collect();
    let (corpus, sentence) = run_kernel(py, threads, || {
        let (hyp_ids, ref_ids) = corpus_ids(&hyps, &refs, tokenizer);
        rows(&hyp_ids, &ref_ids, n, sum, true, true)
    })?;
    let width = row_width(n);
    Ok(Some((matrix(py, hyps.len(), width, corpus), matrix(py, hyps.len(), width, sentence))))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nist_utf8_stats, m)?)?;
    m.add_function(wrap_pyfunction!(nist_corpus_and_sentence_stats, m)?)?;
    m.add_function(wrap_pyfunction!(nist_stats, m)?)?;
    m.add_function(wrap_pyfunction!(nist_row_scores, m)?)?;
    Ok(())
}
