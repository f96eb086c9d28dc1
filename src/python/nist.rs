//! Bindings for `metrics::nist`.

use numpy::{PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;

use super::arrays::matrix;
use super::strings::utf8_pieces;
use super::threads::run_released;
use super::words::extract_corpus;
use crate::metrics::nist::{corpus_rows, corpus_score, row_width, rows, sentence_rows, NistScore, PythonSum};
use crate::text::words::{corpus_ids, IdScope, WordTokenizer};

/// NIST statistics rows `[info_1..n, ngrams_1..n, ref_len_1..n, hyp_len]` (float64, shape `(segments, 3n+1)`):
/// with corpus-wide information weights (`weights="corpus"`, `corpus_nist`) or each segment's own
/// (`weights="segment"`, `sentence_nist`). `neumaier_sum`: Python ≥ 3.12's compensated `sum()`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, n, weights, neumaier_sum, threads=None))]
#[allow(clippy::too_many_arguments)]
fn nist_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    n: usize,
    weights: &str,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let sum = if neumaier_sum { PythonSum::Neumaier } else { PythonSum::Sequential };
    let per_segment = match weights {
        "corpus" => false,
        "segment" => true,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "weights must be 'corpus' or 'segment', got {other:?}"
            )))
        }
    };
    let (hyps, refs) = extract_corpus(
        py,
        hypotheses,
        references,
        tokenize,
        if per_segment { IdScope::Segment } else { IdScope::Corpus },
        threads,
    )?;
    let rows = run_released(py, threads, || {
        if per_segment {
            sentence_rows(&hyps, &refs, n, sum)
        } else {
            corpus_rows(&hyps, &refs, n, sum)
        }
    })??;
    Ok(matrix(py, hyps.len(), row_width(n), rows))
}

/// NIST score of each row of (summed) statistics, and whether NLTK divides by zero there (it raises
/// `ZeroDivisionError`; the score is then mteval-v13a's: such orders add 0). `segments`: the number
/// of segments summed into each row (0 means an empty corpus).
#[pyfunction]
fn nist_row_scores(
    rows: numpy::PyReadonlyArray2<'_, f64>,
    n: usize,
    segments: Vec<usize>,
) -> PyResult<(Vec<f64>, Vec<bool>)> {
    let view = rows.as_array();
    if view.ncols() != row_width(n) || segments.len() != view.nrows() {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "NIST rows for n={n} need {} columns and one segment count each",
            row_width(n)
        )));
    }
    let scored: Vec<NistScore> =
        view.rows().into_iter().zip(&segments).map(|(row, &count)| corpus_score(&row.to_vec(), n, count)).collect();
    Ok((scored.iter().map(|s| s.score).collect(), scored.iter().map(|s| s.nltk_divides_by_zero).collect()))
}

/// Both at once, from one tokenization: corpus-weight rows (`corpus_nist`) and each segment's own
/// rows (`sentence_nist`), as `nist_stats` gives them with `weights="corpus"` and `"segment"`.
#[pyfunction]
#[pyo3(signature = (hypotheses, references, tokenize, n, neumaier_sum, threads=None))]
#[allow(clippy::type_complexity)]
fn nist_corpus_and_sentence_stats<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    tokenize: &str,
    n: usize,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>)> {
    let sum = if neumaier_sum { PythonSum::Neumaier } else { PythonSum::Sequential };
    let (hyps, refs) = extract_corpus(py, hypotheses, references, tokenize, IdScope::Corpus, threads)?;
    let (corpus, sentence) = run_released(py, threads, || rows(&hyps, &refs, n, sum, true, true))??;
    let width = row_width(n);
    Ok((matrix(py, hyps.len(), width, corpus), matrix(py, hyps.len(), width, sentence)))
}

/// `nist_corpus_and_sentence_stats` of a NIST state's texts as they are kept (UTF-8 buffers and end
/// offsets; `ref_counts`: references per segment), without a Python str per line; `None` when the
/// buffers are not valid UTF-8 (the caller decodes them itself).
#[pyfunction]
#[pyo3(signature = (hyp_data, hyp_ends, ref_data, ref_ends, ref_counts, tokenize, n, neumaier_sum, threads=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn nist_utf8_stats<'py>(
    py: Python<'py>,
    hyp_data: PyReadonlyArray1<'py, u8>,
    hyp_ends: PyReadonlyArray1<'py, i64>,
    ref_data: PyReadonlyArray1<'py, u8>,
    ref_ends: PyReadonlyArray1<'py, i64>,
    ref_counts: PyReadonlyArray1<'py, i64>,
    tokenize: &str,
    n: usize,
    neumaier_sum: bool,
    threads: Option<usize>,
) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray2<f64>>)>> {
    let sum = if neumaier_sum { PythonSum::Neumaier } else { PythonSum::Sequential };
    let tokenizer = WordTokenizer::from_name(tokenize)?;
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
        return Err(pyo3::exceptions::PyValueError::new_err(
            "ref_counts must give each hypothesis's number of references",
        ));
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
    let (corpus, sentence) = run_released(py, threads, || {
        let (hyp_ids, ref_ids) = corpus_ids(&hyps, &refs, tokenizer);
        rows(&hyp_ids, &ref_ids, n, sum, true, true)
    })??;
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
