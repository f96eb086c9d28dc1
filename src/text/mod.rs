//! Normalizers and tokenizers: text → tokens.

pub mod sacrebleu;

pub use sacrebleu::BleuTokenizer;
pub mod ptb;
