//! Rust results as NumPy arrays.

use numpy::ndarray::Array2;
use numpy::{Element, IntoPyArray, PyArray2};
use pyo3::prelude::*;

/// A NumPy matrix returned to Python.
pub(crate) type Matrix<'py, T> = Bound<'py, numpy::PyArray2<T>>;

/// Row-major `values` as a `(rows, cols)` NumPy array; the kernels fill exactly `rows * cols` values
/// (a mismatch is a bug: it panics, and the panic becomes Python's RuntimeError).
pub(crate) fn matrix<T: Element>(py: Python<'_>, rows: usize, cols: usize, values: Vec<T>) -> Bound<'_, PyArray2<T>> {
    Array2::from_shape_vec((rows, cols), values).expect("row-major values have the declared shape").into_pyarray(py)
}
