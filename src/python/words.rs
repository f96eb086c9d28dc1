//! Bindings for `text::words`: hypotheses and references (text, token lists or ids) → corpus word ids.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::strings::{borrow_str, Lines};
use super::threads::run_released;
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
    threads: Option<usize>,
) -> PyResult<CorpusIds> {
    match tokenize {
        "ids" => Ok((hypotheses.extract()?, references.extract()?)),
        "tokens" => {
            // Every token str is kept alive by `items` (one flat list) and borrowed, not copied.
            let (mut items, mut hyp_ends, mut ref_ends, mut ref_counts) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for hyp in sequence(hypotheses)? {
                push_items(&hyp, &mut items)?;
                hyp_ends.push(items.len());
            }
            for entry in sequence(references)? {
                let refs = sequence(&entry)?;
                ref_counts.push(refs.len());
                for reference in &refs {
                    push_items(reference, &mut items)?;
                    ref_ends.push(items.len());
                }
            }
            let token = || "a token".to_owned();
            let words: Vec<&str> = items.iter().map(|item| borrow_str(item, &token)).collect::<PyResult<_>>()?;
            let mut start = 0;
            let mut cut = |end: &usize| {
                let line = &words[start..*end];
                start = *end;
                line
            };
            let hyps: Vec<&[&str]> = hyp_ends.iter().map(&mut cut).collect();
            let flat_refs: Vec<&[&str]> = ref_ends.iter().map(&mut cut).collect();
            let mut first = 0;
            let refs: Vec<Vec<&[&str]>> = ref_counts
                .iter()
                .map(|&count| {
                    first += count;
                    flat_refs[first - count..first].to_vec()
                })
                .collect();
            run_released(py, threads, || token_ids(&hyps, &refs, scope))
        }
        name => {
            let tokenizer = WordTokenizer::from_name(name)?;
            let lines = Lines::extract(hypotheses, references)?;
            let (hyps, refs) = lines.borrow()?;
            run_released(py, threads, || scoped_ids(&hyps, &refs, tokenizer, scope))
        }
    }
}

/// The items of an iterable that is not a str (a token list given as one string is refused: TypeError).
fn sequence<'py>(value: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut out = Vec::new();
    push_items(value, &mut out)?;
    Ok(out)
}

/// Appends the items of `value` (as [`sequence`]) to `out`.
fn push_items<'py>(value: &Bound<'py, PyAny>, out: &mut Vec<Bound<'py, PyAny>>) -> PyResult<()> {
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err("expected a sequence of tokens, got a str"));
    }
    // Lists and tuples read by index: no Python iterator object per sequence (they feed the GC).
    if let Ok(list) = value.downcast::<PyList>() {
        out.extend(list.iter());
    } else if let Ok(tuple) = value.downcast::<pyo3::types::PyTuple>() {
        out.extend(tuple.iter());
    } else {
        for item in value.try_iter()? {
            out.push(item?);
        }
    }
    Ok(())
}

/// Word ids of a set of outputs alone (diversity metrics), `tokenize` as in [`extract_corpus`].
pub(crate) fn extract_outputs(
    py: Python<'_>,
    outputs: &Bound<'_, PyAny>,
    tokenize: &str,
    threads: Option<usize>,
) -> PyResult<Vec<Vec<u32>>> {
    let no_references = PyList::empty(py);
    Ok(extract_corpus(py, outputs, &no_references, tokenize, IdScope::Corpus, threads)?.0)
}
