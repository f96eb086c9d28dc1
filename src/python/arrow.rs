//! Arrow string columns read in place: an Arrow `string`/`large_string` array's offsets and data
//! buffers (as NumPy arrays over the Arrow memory, no copy) become `&str` slices for the batch kernels,
//! so no Python `str` is built per row. Offsets and UTF-8 are checked here, before any slice is made.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The offsets buffer of an Arrow string array: int32 (`string`) or int64 (`large_string`).
enum Offsets {
    Int32(Py<PyArray1<i32>>),
    Int64(Py<PyArray1<i64>>),
}

/// One Arrow string column: `offsets` (n + 1 entries, int32 or int64) and `data` (uint8) as NumPy
/// arrays, e.g. `np.frombuffer(array.buffers()[2], np.uint8)`. Nulls are resolved by the caller.
///
/// Row `i` is `data[offsets[i]:offsets[i + 1]]`. Built by `nlgmetrics.io.columns`; checked on
/// construction and again each time a kernel borrows it (the buffers may be writable).
#[pyclass(module = "nlgmetrics._core", name = "ArrowStrings", frozen)]
pub struct ArrowStrings {
    offsets: Offsets,
    data: Py<PyArray1<u8>>,
    rows: usize,
}

/// Borrowed buffers of one column, alive as long as the read-only views are.
pub(crate) struct ArrowView<'py> {
    offsets: OffsetsView<'py>,
    data: PyReadonlyArray1<'py, u8>,
    name: String,
}

enum OffsetsView<'py> {
    Int32(PyReadonlyArray1<'py, i32>),
    Int64(PyReadonlyArray1<'py, i64>),
}

fn contiguous<'a, T: numpy::Element>(array: &'a PyReadonlyArray1<'_, T>, what: &str) -> PyResult<&'a [T]> {
    array.as_slice().map_err(|_| PyValueError::new_err(format!("{what} must be a contiguous array")))
}

impl<'py> ArrowView<'py> {
    /// Row boundaries as byte positions in `data`, checked: non-decreasing and inside the buffer.
    fn bounds(&self) -> PyResult<Vec<usize>> {
        let data_len = self.data.len();
        let to_usize = |value: i64, index: usize| -> PyResult<usize> {
            usize::try_from(value).ok().filter(|&v| v <= data_len).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{}: Arrow offset {index} is {value}, outside the data buffer of {data_len} bytes",
                    self.name
                ))
            })
        };
        let bounds: Vec<usize> = match &self.offsets {
            OffsetsView::Int32(o) => contiguous(o, "offsets")?
                .iter()
                .enumerate()
                .map(|(i, &v)| to_usize(i64::from(v), i))
                .collect::<PyResult<_>>()?,
            OffsetsView::Int64(o) => {
                contiguous(o, "offsets")?.iter().enumerate().map(|(i, &v)| to_usize(v, i)).collect::<PyResult<_>>()?
            }
        };
        if let Some(row) = bounds.windows(2).position(|pair| pair[1] < pair[0]) {
            return Err(PyValueError::new_err(format!(
                "{}[{row}]: Arrow offsets decrease ({} then {})",
                self.name,
                bounds[row],
                bounds[row + 1]
            )));
        }
        Ok(bounds)
    }

    /// Every row as `&str` into the Arrow data, after checking offsets and UTF-8 (the whole span
    /// once, then that every offset falls on a character boundary).
    pub(crate) fn rows(&self) -> PyResult<Vec<&str>> {
        let bounds = self.bounds()?;
        let data = contiguous(&self.data, "data")?;
        let (Some(&first), Some(&last)) = (bounds.first(), bounds.last()) else {
            return Err(PyValueError::new_err(format!("{}: Arrow offsets must have at least one entry", self.name)));
        };
        let span = std::str::from_utf8(&data[first..last]).map_err(|error| {
            let byte = first + error.valid_up_to();
            // The row holding the first bad byte: the last row starting at or before it.
            let row =
                bounds.partition_point(|&start| start <= byte).saturating_sub(1).min(bounds.len().saturating_sub(2));
            PyValueError::new_err(format!(
                "{}[{row}] is not valid UTF-8 (byte {} of the row)",
                self.name,
                byte - bounds[row]
            ))
        })?;
        if let Some(row) = bounds.iter().position(|&b| !span.is_char_boundary(b - first)) {
            return Err(PyValueError::new_err(format!("{}[{row}]: Arrow offset splits a UTF-8 character", self.name)));
        }
        Ok(bounds.windows(2).map(|pair| &span[pair[0] - first..pair[1] - first]).collect())
    }
}

impl ArrowStrings {
    pub(crate) fn len(&self) -> usize {
        self.rows
    }

    /// Read-only views of the buffers; errors name the column `name` (e.g. "hypotheses").
    pub(crate) fn view<'py>(&self, py: Python<'py>, name: &str) -> PyResult<ArrowView<'py>> {
        let offsets = match &self.offsets {
            Offsets::Int32(o) => OffsetsView::Int32(o.bind(py).try_readonly()?),
            Offsets::Int64(o) => OffsetsView::Int64(o.bind(py).try_readonly()?),
        };
        Ok(ArrowView { offsets, data: self.data.bind(py).try_readonly()?, name: name.to_owned() })
    }
}

#[pymethods]
impl ArrowStrings {
    #[new]
    fn new(py: Python<'_>, offsets: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = data
            .downcast::<PyArray1<u8>>()
            .map_err(|_| PyTypeError::new_err("ArrowStrings data must be a 1-D uint8 NumPy array"))?
            .clone()
            .unbind();
        let (offsets, entries) = if let Ok(o) = offsets.downcast::<PyArray1<i32>>() {
            (Offsets::Int32(o.clone().unbind()), o.len())
        } else if let Ok(o) = offsets.downcast::<PyArray1<i64>>() {
            (Offsets::Int64(o.clone().unbind()), o.len())
        } else {
            return Err(PyTypeError::new_err("ArrowStrings offsets must be a 1-D int32 or int64 NumPy array"));
        };
        if entries == 0 {
            return Err(PyValueError::new_err("ArrowStrings offsets must have at least one entry (n + 1 for n rows)"));
        }
        let column = ArrowStrings { offsets, data, rows: entries - 1 };
        column.view(py, "column")?.rows()?;
        Ok(column)
    }

    fn __len__(&self) -> usize {
        self.rows
    }

    /// The rows as Python strs (for tests and for metrics that preprocess text in Python).
    fn to_list(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let view = self.view(py, "column")?;
        Ok(view.rows()?.into_iter().map(str::to_owned).collect())
    }
}

/// References held as Arrow: `columns` (several string columns of n rows, one reference each) or a
/// list column (`list_offsets`, n + 1 entries into `values`, several references per row).
#[pyclass(module = "nlgmetrics._core", name = "ArrowReferences", frozen)]
pub struct ArrowReferences {
    columns: Vec<Py<ArrowStrings>>,
    list_offsets: Option<Vec<usize>>,
    rows: usize,
}

impl ArrowReferences {
    /// Each row's references as `&str`, borrowed from the views in `views` (made by `views`).
    pub(crate) fn rows<'a>(&self, views: &'a [ArrowView<'_>]) -> PyResult<Vec<Vec<&'a str>>> {
        let columns = views.iter().map(ArrowView::rows).collect::<PyResult<Vec<_>>>()?;
        match &self.list_offsets {
            Some(bounds) => {
                let values = &columns[0];
                Ok(bounds.windows(2).map(|pair| values[pair[0]..pair[1]].to_vec()).collect())
            }
            None => Ok((0..self.rows).map(|row| columns.iter().map(|column| column[row]).collect()).collect()),
        }
    }

    pub(crate) fn views<'py>(&self, py: Python<'py>) -> PyResult<Vec<ArrowView<'py>>> {
        self.columns
            .iter()
            .enumerate()
            .map(|(index, column)| {
                let name = if self.list_offsets.is_some() {
                    "references (list values)".to_owned()
                } else {
                    format!("references column {index}")
                };
                column.get().view(py, &name)
            })
            .collect()
    }
}

#[pymethods]
impl ArrowReferences {
    /// Several reference columns of equal length: row `i` has one reference from each.
    #[staticmethod]
    fn from_columns(columns: Vec<Py<ArrowStrings>>) -> PyResult<Self> {
        let Some(first) = columns.first() else {
            return Err(PyValueError::new_err("references: at least one reference column is needed"));
        };
        let rows = first.get().len();
        if let Some(index) = columns.iter().position(|c| c.get().len() != rows) {
            return Err(PyValueError::new_err(format!(
                "references column {index} has {} rows but column 0 has {rows}",
                columns[index].get().len()
            )));
        }
        Ok(ArrowReferences { columns, list_offsets: None, rows })
    }

    /// A list column: row `i` has the references `values[list_offsets[i]:list_offsets[i + 1]]`.
    #[staticmethod]
    fn from_lists(list_offsets: PyReadonlyArray1<'_, i64>, values: Py<ArrowStrings>) -> PyResult<Self> {
        let list_offsets = contiguous(&list_offsets, "list offsets")?;
        let n_values = values.get().len();
        let mut bounds = Vec::with_capacity(list_offsets.len());
        for (index, &offset) in list_offsets.iter().enumerate() {
            let bound = usize::try_from(offset).ok().filter(|&b| b <= n_values).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "references: list offset {index} is {offset}, outside the {n_values} values"
                ))
            })?;
            if bounds.last().is_some_and(|&previous| bound < previous) {
                return Err(PyValueError::new_err(format!("references[{}]: list offsets decrease", index - 1)));
            }
            bounds.push(bound);
        }
        if bounds.is_empty() {
            return Err(PyValueError::new_err(
                "references: list offsets must have at least one entry (n + 1 for n rows)",
            ));
        }
        let rows = bounds.len() - 1;
        Ok(ArrowReferences { columns: vec![values], list_offsets: Some(bounds), rows })
    }

    fn __len__(&self) -> usize {
        self.rows
    }

    /// The number of references of each row.
    fn counts(&self) -> Vec<usize> {
        match &self.list_offsets {
            Some(bounds) => bounds.windows(2).map(|pair| pair[1] - pair[0]).collect(),
            None => vec![self.columns.len(); self.rows],
        }
    }

    /// Per row, its references as Python strs.
    fn to_list(&self, py: Python<'_>) -> PyResult<Vec<Vec<String>>> {
        let views = self.views(py)?;
        Ok(self.rows(&views)?.into_iter().map(|refs| refs.into_iter().map(str::to_owned).collect()).collect())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ArrowStrings>()?;
    m.add_class::<ArrowReferences>()?;
    Ok(())
}
