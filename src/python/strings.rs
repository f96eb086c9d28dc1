//! Python str arguments borrowed as `&str` (no copy per call), for batch bindings that release the GIL;
//! Arrow columns (see `arrow.rs`) are read in place through the same `Lines`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::arrow::{ArrowReferences, ArrowStrings, ArrowView};

extern "C" {
    // In the stable ABI only from 3.10 (so pyo3's abi3-py39 build does not declare it), but exported by
    // every CPython 3: the str's own cached UTF-8 text, created once per str, never copied per call.
    fn PyUnicode_AsUTF8AndSize(unicode: *mut ffi::PyObject, size: *mut ffi::Py_ssize_t) -> *const std::os::raw::c_char;
}

/// The items of a sequence argument (a list, tuple or other iterable, but not a str itself).
fn sequence_items<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{what} must be a sequence of str, not a str")));
    }
    value.try_iter()?.collect()
}

/// The UTF-8 text of a Python str, borrowed: valid while `item` is alive (strs are immutable).
pub(crate) fn borrow_str<'a>(item: &'a Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<&'a str> {
    let text = item.downcast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{} must be str, got {}",
            what(),
            item.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })?;
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live str (we hold a reference); the returned buffer lives as long as it does.
    let data = unsafe { PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size) };
    if data.is_null() {
        // E.g. UnicodeEncodeError for a lone surrogate (the Python layer names the line).
        return Err(PyErr::fetch(item.py()));
    }
    // SAFETY: CPython guarantees `size` bytes of valid UTF-8 at `data`.
    Ok(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(data.cast::<u8>(), size as usize)) })
}

/// Hypotheses as Python strs or as an Arrow column.
enum Hypotheses<'py> {
    Strs(Vec<Bound<'py, PyAny>>),
    Arrow(ArrowView<'py>),
}

/// References as Python strs (per row, a sequence) or as Arrow columns / a list column.
enum References<'py> {
    Strs(Vec<Vec<Bound<'py, PyAny>>>),
    Arrow(Bound<'py, ArrowReferences>, Vec<ArrowView<'py>>),
}

/// The text batch every batch kernel reads: hypotheses and references given as Python sequences of
/// str or as Arrow columns (`_core.ArrowStrings`, `_core.ArrowReferences`). Their text is borrowed,
/// not copied, and used with the GIL released: holding these references keeps it alive meanwhile.
pub(crate) struct Lines<'py> {
    hypotheses: Hypotheses<'py>,
    references: References<'py>,
    hypotheses_name: String,
}

impl<'py> Lines<'py> {
    pub(crate) fn extract(hypotheses: &Bound<'py, PyAny>, references: &Bound<'py, PyAny>) -> PyResult<Self> {
        Self::extract_named(hypotheses, references, "hypotheses")
    }

    /// `extract`, naming the hypotheses argument `hypotheses_name` in errors (e.g. "predictions").
    pub(crate) fn extract_named(
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
        hypotheses_name: &str,
    ) -> PyResult<Self> {
        let py = hypotheses.py();
        let hypotheses = match hypotheses.downcast::<ArrowStrings>() {
            Ok(column) => Hypotheses::Arrow(column.get().view(py, hypotheses_name)?),
            Err(_) => Hypotheses::Strs(sequence_items(hypotheses, hypotheses_name)?),
        };
        let references = match references.downcast::<ArrowReferences>() {
            Ok(arrow) => References::Arrow(arrow.clone(), arrow.get().views(py)?),
            // An entry that is a str is that hypothesis's one reference (no list built per segment in Python).
            Err(_) => References::Strs(
                sequence_items(references, "references")?
                    .into_iter()
                    .enumerate()
                    .map(|(index, refs)| match refs.is_instance_of::<PyString>() {
                        true => Ok(vec![refs]),
                        false => sequence_items(&refs, &format!("references[{index}]")),
                    })
                    .collect::<PyResult<_>>()?,
            ),
        };
        Ok(Self { hypotheses, references, hypotheses_name: hypotheses_name.to_owned() })
    }

    #[allow(clippy::type_complexity)]
    pub(crate) fn borrow(&self) -> PyResult<(Vec<&str>, Vec<Vec<&str>>)> {
        let hypotheses = match &self.hypotheses {
            Hypotheses::Arrow(view) => view.rows()?,
            Hypotheses::Strs(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| borrow_str(item, &|| format!("{}[{index}]", self.hypotheses_name)))
                .collect::<PyResult<_>>()?,
        };
        let references = match &self.references {
            References::Arrow(arrow, views) => arrow.get().rows(views)?,
            References::Strs(rows) => rows
                .iter()
                .enumerate()
                .map(|(index, refs)| {
                    refs.iter()
                        .enumerate()
                        .map(|(ref_index, item)| borrow_str(item, &|| format!("references[{index}][{ref_index}]")))
                        .collect::<PyResult<Vec<&str>>>()
                })
                .collect::<PyResult<_>>()?,
        };
        Ok((hypotheses, references))
    }
}

/// The strs of `texts` as one UTF-8 buffer and the end offset of each (a text state's layout,
/// `core.state.encode_texts`); `None` when an item is not a str or has no UTF-8 form (a lone
/// surrogate), which the caller encodes itself.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn encode_utf8<'py>(
    texts: &Bound<'py, PyList>,
) -> PyResult<Option<(Bound<'py, PyArray1<u8>>, Bound<'py, PyArray1<i64>>)>> {
    let py = texts.py();
    let items: Vec<Bound<'py, PyAny>> = texts.iter().collect();
    let mut pieces = Vec::with_capacity(items.len());
    for item in &items {
        match borrow_str(item, &String::new) {
            Ok(text) => pieces.push(text),
            Err(_) => return Ok(None), // the error is dropped: the caller's own encoder reports it
        }
    }
    let mut data = Vec::with_capacity(pieces.iter().map(|piece| piece.len()).sum());
    let mut ends = Vec::with_capacity(pieces.len());
    for piece in pieces {
        data.extend_from_slice(piece.as_bytes());
        ends.push(data.len() as i64);
    }
    Ok(Some((data.into_pyarray(py), ends.into_pyarray(py))))
}

/// The strs of a text state's UTF-8 buffer cut at `ends` (as [`encode_utf8`] lays them out), borrowed;
/// `None` when a piece is not valid UTF-8 (e.g. a surrogate kept with `surrogatepass`).
pub(crate) fn utf8_pieces<'a>(data: &'a [u8], ends: &[i64]) -> PyResult<Option<Vec<&'a str>>> {
    let mut pieces = Vec::with_capacity(ends.len());
    let mut start = 0;
    for &end in ends {
        let end = usize::try_from(end)
            .ok()
            .filter(|&end| start <= end && end <= data.len())
            .ok_or_else(|| PyValueError::new_err("text offsets must increase and stay within the text data"))?;
        match std::str::from_utf8(&data[start..end]) {
            Ok(piece) => pieces.push(piece),
            Err(_) => return Ok(None),
        }
        start = end;
    }
    Ok(Some(pieces))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_utf8, m)?)?;
    Ok(())
}
