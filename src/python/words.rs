//! Bindings for `text::words`: hypotheses and references (text, token lists or ids) → corpus word ids.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::strings::Lines;
use crate::text::words::{corpus_ids, token_ids, CorpusIds, WordTokenizer};

/// Word ids of a corpus. `tokenize` is a tokenizer name for lines of text (`"none"`, `"nist"`,
/// `"13a"`, …), `"tokens"` for lists of str tokens, or `"ids"` for lists of int ids (already interned).
/// The text is borrowed, and tokenized with the GIL released.
pub(crate) fn extract_corpus(py: Python<'_>, hypotheses: &Bound<'_, PyAny>, references: &Bound<'_, PyAny>, tokenize: &str) -> PyResult<CorpusIds> {
    match tokenize {
        "ids" => Ok((hypotheses.extract()?, references.extract()?)),
        "tokens" => {
            let hyps: Vec<Vec<String>> = hypotheses.extract()?;
            let refs: Vec<Vec<Vec<String>>> = references.extract()?;
            Ok(py.allow_threads(|| token_ids(&hyps, &refs)))
        }
        name => {
            let tokenizer = WordTokenizer::from_name(name)?;
            let lines = Lines::extract(hypotheses, references)?;
            let (hyps, refs) = lines.borrow()?;
            Ok(py.allow_threads(|| corpus_ids(&hyps, &refs, tokenizer)))
        }
    }
}

/// Word ids of a set of outputs alone (diversity metrics), `tokenize` as in [`extract_corpus`].
pub(crate) fn extract_outputs(py: Python<'_>, outputs: &Bound<'_, PyAny>, tokenize: &str) -> PyResult<Vec<Vec<u32>>> {
    let no_references = PyList::empty_bound(py);
    Ok(extract_corpus(py, outputs, &no_references, tokenize)?.0)
}
