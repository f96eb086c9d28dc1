//! Normalizers and tokenizers: text → tokens.

pub mod nist;
pub mod porter;
pub mod pystr;
pub mod ranges;
pub mod rouge;
pub mod sacrebleu;
pub mod words;

pub use sacrebleu::BleuTokenizer;
pub mod ptb;
