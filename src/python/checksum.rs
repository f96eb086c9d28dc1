//! zlib's CRC-32 of a byte buffer, the GIL released: `neural/weights.py` checks every tensor of a torch
//! checkpoint against its zip entry's CRC, and `zlib.crc32` read the 91 MB of a MiniLM COMET checkpoint in
//! 0.12 s, a quarter of the first call's fixed cost; `crc32fast` (carry-less multiplication) takes a tenth.

use numpy::PyReadonlyArray1;
use pyo3::prelude::*;

/// `zlib.crc32(data)` of a one-dimensional uint8 NumPy array (a memory map's slice, say).
#[pyfunction]
fn crc32(py: Python<'_>, data: PyReadonlyArray1<'_, u8>) -> PyResult<u32> {
    let bytes = data.as_slice()?; // a contiguous array, else NotContiguousError
    Ok(py.allow_threads(|| crc32fast::hash(bytes)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(crc32, m)?)
}
