//! Normalizers and tokenizers: text → tokens.

pub mod porter;
pub mod ranges;
pub mod rouge;
pub mod sacrebleu;

pub use sacrebleu::BleuTokenizer;
pub mod ptb;
