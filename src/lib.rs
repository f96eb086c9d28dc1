//! nlgmetrics: exact, fast text-generation metrics.
//!
//! The crate is a pure-Rust core (`text`, `ngram`, `metrics`) with its own `cargo test`s, plus the
//! PyO3 bindings in `python/`, compiled only with the `python` feature (maturin turns it on).
//! Pipeline: text → tokens (`text`) → ids (`ngram`) → segment statistics (`metrics`) → score.

pub mod error;
pub mod metrics;
pub mod ngram;
pub mod text;

/// Invariants the fuzz targets check (fuzz/), replayed on the kept corpus by `cargo test`.
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzz_checks;

#[cfg(feature = "python")]
mod python;

#[cfg(test)]
mod test_random;
