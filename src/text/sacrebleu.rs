//! sacreBLEU 2.6.0's tokenizers (`sacrebleu/tokenizers/`), selected by name.
//!
//! INTERFACE STUB: the tokenizer helper replaces the bodies; the signatures are the contract BLEU uses.

use crate::error::{Error, Result};

/// A sacreBLEU tokenizer. `tokenize` returns the tokenized line (tokens separated by single spaces),
/// exactly as sacreBLEU's tokenizer `__call__` does; callers split it on whitespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BleuTokenizer {
    None,
    Thirteen,
    Intl,
    Zh,
    Char,
}

impl BleuTokenizer {
    /// Looks a tokenizer up by its sacreBLEU name (`none`, `13a`, `intl`, `zh`, `char`).
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "none" => Ok(Self::None),
            "13a" => Ok(Self::Thirteen),
            "intl" => Ok(Self::Intl),
            "zh" => Ok(Self::Zh),
            "char" => Ok(Self::Char),
            other => Err(Error::InvalidOption(format!("unknown tokenizer {other:?}"))),
        }
    }

    /// The sacreBLEU name, as it appears in signatures.
    pub fn name(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Thirteen => "13a",
            Self::Intl => "intl",
            Self::Zh => "zh",
            Self::Char => "char",
        }
    }

    /// Tokenizes one line (stub: returns it unchanged until the tokenizers land).
    pub fn tokenize(&self, line: &str) -> String {
        line.to_string()
    }
}
