//! The core's one error type; `python/errors.rs` turns it into Python exceptions.

use std::fmt;

/// Everything the core can refuse. Each variant maps to one Python exception type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An option value that is out of range or unknown (→ `ValueError`).
    InvalidOption(String),
    /// Inputs whose shapes disagree, e.g. hypotheses and references of different lengths (→ `ValueError`).
    ShapeMismatch(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidOption(msg) | Error::ShapeMismatch(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// `Ok` when there are as many reference sets as hypotheses, else a `ShapeMismatch` saying both counts.
    pub fn check_reference_sets(n_hyps: usize, n_refs: usize) -> Result<()> {
        if n_hyps != n_refs {
            return Err(Error::ShapeMismatch(format!("{n_hyps} hypotheses but {n_refs} reference sets")));
        }
        Ok(())
    }

    /// The same error, its message prefixed with the segment it is about.
    pub fn at_segment(self, segment: usize) -> Error {
        match self {
            Error::InvalidOption(msg) => Error::InvalidOption(format!("segment {segment}: {msg}")),
            Error::ShapeMismatch(msg) => Error::ShapeMismatch(format!("segment {segment}: {msg}")),
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
