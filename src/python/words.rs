//! Bindings for `text::words`: hypotheses and references (text, token lists or ids) → corpus word ids.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::strings::{borrow_str, Lines};
use super::threads::released;
use crate::text::words::{scoped_ids, token_ids, CorpusIds, IdScope, WordTokenizer};

/// Word ids of a corpus. `tokenize` is a tokenizer name for lines of text (`"none"`, `"nist"`,
/// `"13a"`, …), `"tokens"` for lists of str tokens, or `"ids"` for lists of int ids (already interned).
/// The text is borrowed, and tokenized with the GIL released; `scope` says how widely ids are shared.
pub(crate) fn extract_corpus(
    py: Python<'_>,
    hypotheses: &Bound<'_, PyAny>,
    references: &Bound<'_, PyAny>,
    tokenize: &str,
    scope: IdScope,
) -> PyResult<CorpusIds> {
    match tokenize {
        "ids" => Ok((hypotheses.extract()?, references.extract()?)),
        "tokens" => {
            // The token strs are borrowed (kept alive by `hyp_items` / `ref_items`), not copied.
            let hyp_items: Vec<Vec<Bound<'_, PyAny>>> = items(hypotheses)?.iter().map(items).collect::<PyResult<_>>()?;
            let ref_items: Vec<Vec<Vec<Bound<'_, PyAny>>>> = items(references)?
                .iter()
                .map(|refs| items(refs)?.iter().map(items).collect::<PyResult<Vec<_>>>())
                .collect::<PyResult<_>>()?;
            let token = || "a token".to_owned();
            let hyps: Vec<Vec<&str>> = hyp_items.iter().map(|h| h.iter().map(|t| borrow_str(t, &token)).collect()).collect::<PyResult<_>>()?;
            let refs: Vec<Vec<Vec<&str>>> = ref_items
                .iter()
                .map(|rs| rs.iter().map(|r| r.iter().map(|t| borrow_str(t, &token)).collect()).collect::<PyResult<_>>())
                .collect::<PyResult<_>>()?;
            released(py, || token_ids(&hyps, &refs, scope))
        }
        name => {
            let tokenizer = WordTokenizer::from_name(name)?;
            let lines = Lines::extract(hypotheses, references)?;
            let (hyps, refs) = lines.borrow()?;
            released(py, || scoped_ids(&hyps, &refs, tokenizer, scope))
        }
    }
}

/// The word tokenizer named by `tokenize` when it names one (lines of text), `None` for `"tokens"` and `"ids"`.
pub(crate) fn text_tokenizer(tokenize: &str) -> PyResult<Option<WordTokenizer>> {
    Ok(match tokenize {
        "ids" | "tokens" => None,
        name => Some(WordTokenizer::from_name(name)?),
    })
}

/// The items of an iterable that is not a str (a token list given as one string is refused: TypeError).
fn items<'py>(value: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err("expected a sequence of tokens, got a str"));
    }
    // Lists and tuples read by index: no Python iterator object per sequence (they feed the GC).
    if let Ok(list) = value.downcast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = value.downcast::<pyo3::types::PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    value.iter()?.collect()
}

/// Word ids of a set of outputs alone (diversity metrics), `tokenize` as in [`extract_corpus`].
pub(crate) fn extract_outputs(py: Python<'_>, outputs: &Bound<'_, PyAny>, tokenize: &str) -> PyResult<Vec<Vec<u32>>> {
    let no_references = PyList::empty_bound(py);
    Ok(extract_corpus(py, outputs, &no_references, tokenize, IdScope::Corpus)?.0)
}
