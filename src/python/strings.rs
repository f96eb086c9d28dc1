//! Python str arguments borrowed as `&str` (no copy per call), for batch bindings that release the GIL.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

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
    value.iter()?.collect()
}

/// The UTF-8 text of a Python str, borrowed: valid while `item` is alive (strs are immutable).
pub(crate) fn borrow_str<'a>(item: &'a Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<&'a str> {
    let text = item
        .downcast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{} must be str, got {}", what(), item.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?;
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

/// Hypotheses and references as Python objects; their text is then borrowed, not copied, and used
/// with the GIL released: holding these references keeps every str alive meanwhile.
pub(crate) struct Lines<'py> {
    hypotheses: Vec<Bound<'py, PyAny>>,
    references: Vec<Vec<Bound<'py, PyAny>>>,
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
        let hypotheses = sequence_items(hypotheses, hypotheses_name)?;
        let references = sequence_items(references, "references")?
            .iter()
            .enumerate()
            .map(|(index, refs)| sequence_items(refs, &format!("references[{index}]")))
            .collect::<PyResult<_>>()?;
        Ok(Self { hypotheses, references, hypotheses_name: hypotheses_name.to_owned() })
    }

    #[allow(clippy::type_complexity)]
    pub(crate) fn borrow(&self) -> PyResult<(Vec<&str>, Vec<Vec<&str>>)> {
        let hypotheses = self
            .hypotheses
            .iter()
            .enumerate()
            .map(|(index, item)| borrow_str(item, &|| format!("{}[{index}]", self.hypotheses_name)))
            .collect::<PyResult<_>>()?;
        let references = self
            .references
            .iter()
            .enumerate()
            .map(|(index, refs)| {
                refs.iter()
                    .enumerate()
                    .map(|(ref_index, item)| borrow_str(item, &|| format!("references[{index}][{ref_index}]")))
                    .collect::<PyResult<Vec<&str>>>()
            })
            .collect::<PyResult<_>>()?;
        Ok((hypotheses, references))
    }
}
