//! sacreBLEU 2.6.0's tokenizers (`sacrebleu/tokenizers/`), selected by name, identical on every input.
//!
//! | name | sacreBLEU class | what it does |
//! |---|---|---|
//! | `none` | `NoneTokenizer` | the line unchanged |
//! | `13a` | `Tokenizer13a` | mteval-v13a: unescape `&quot;` `&amp;` `&lt;` `&gt;`, drop `<skipped>`, split ASCII punctuation |
//! | `intl` | `TokenizerV14International` | mteval-v14 international: split Unicode punctuation (not between digits) and symbols |
//! | `zh` | `TokenizerZh` | space out CJK characters, then `13a`'s regexes; reproduces sacrebleu issue #298 |
//! | `zh-fixed` | — (ours) | `zh` with the CJK Extension B / Compatibility Supplement ranges as intended |
//! | `char` | `TokenizerChar` | every character separated by a space |
//!
//! `zh` vs `zh-fixed` (sacrebleu issue #298): sacreBLEU types two supplementary-plane ranges with 4-digit
//! `\u` escapes, so `zh` treats U+2001..=U+2A6D (general punctuation such as `—` `“` `”` `…`, currency
//! signs, arrows, math operators, …) as Chinese characters and does NOT space out CJK Extension B
//! (U+20000..=U+2A6D6) or the Compatibility Supplement (U+2F800..=U+2FA1D). `zh-fixed` spaces out exactly
//! the ranges sacreBLEU's comments name. Scores with `zh-fixed` are not comparable with sacreBLEU's `zh`.
//!
//! How: `intl` is a chain of streaming one-char-look-ahead transducers (`stages`), each equal to one of
//! sacreBLEU's `re.sub` passes, writing straight into one output buffer. `13a` and `zh` scan UTF-8 bytes
//! and run those transducers only on the words that contain `.` `,` or `-` (see `tok_13a::tokenize_words`
//! for why that is the same); `cargo test` checks them against the literal pass chain on random text.
//! The `intl` Unicode classes come from the Python `regex` module via `tools/gen_unicode_tables.py`.

mod char_tok;
pub(crate) mod intl;
mod stages;
pub(crate) mod tok_13a;
#[rustfmt::skip]
mod unicode_tables;
pub(crate) mod zh;

pub use intl::{category, Category};
pub(crate) use tok_13a::tokenize_words;
pub use zh::{is_chinese_char_fixed, is_chinese_char_sacrebleu};

use crate::error::{Error, Result};
use crate::text::pystr::split_tokens;

/// The Python `regex` module version the `intl` category tables were generated from.
pub const INTL_TABLES_REGEX_VERSION: &str = unicode_tables::REGEX_MODULE_VERSION;

/// A sacreBLEU tokenizer. `tokenize` returns the tokenized line (tokens separated by single spaces, except
/// `none` and `char` which keep the input's whitespace), exactly as sacreBLEU's tokenizer `__call__` does;
/// callers split it with [`split_tokens`] (Python's `str.split()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BleuTokenizer {
    None,
    Thirteen,
    Intl,
    Zh,
    /// `zh` with the supplementary-plane CJK ranges sacreBLEU meant (not in sacreBLEU).
    ZhFixed,
    Char,
}

impl BleuTokenizer {
    /// Every tokenizer, in the order the names are listed to users.
    pub const ALL: [BleuTokenizer; 6] = [Self::None, Self::Thirteen, Self::Intl, Self::Zh, Self::ZhFixed, Self::Char];

    /// Looks a tokenizer up by its sacreBLEU name (`none`, `13a`, `intl`, `zh`, `char`) or `zh-fixed`.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::ALL.iter().copied().find(|tokenizer| tokenizer.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|tokenizer| tokenizer.name()).collect();
            Error::InvalidOption(format!("unknown tokenizer {name:?}; valid names: {}", names.join(", ")))
        })
    }

    /// The sacreBLEU name, as it appears in signatures.
    pub fn name(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Thirteen => "13a",
            Self::Intl => "intl",
            Self::Zh => "zh",
            Self::ZhFixed => "zh-fixed",
            Self::Char => "char",
        }
    }

    /// Tokenizes one line, like calling the sacreBLEU tokenizer object on it.
    pub fn tokenize(&self, line: &str) -> String {
        let mut out = String::with_capacity(line.len() + line.len() / 4 + 8);
        self.tokenize_into(line, &mut out);
        out
    }

    /// Appends the tokenized line to `out` (reuse one buffer across lines to avoid allocating).
    pub fn tokenize_into(&self, line: &str, out: &mut String) {
        match self {
            Self::None => out.push_str(line),
            Self::Thirteen => tok_13a::tokenize_13a(line, out),
            Self::Intl => intl::tokenize_intl(line, out),
            Self::Zh => zh::tokenize_zh(line, false, out),
            Self::ZhFixed => zh::tokenize_zh(line, true, out),
            Self::Char => char_tok::tokenize_char(line, out),
        }
    }

    /// True when the output is always `' '.join(line.split())` (13a, intl, zh): its tokens hold no
    /// whitespace and are separated by single ASCII spaces, so its `str.split()` is a split on `' '`.
    pub fn output_is_space_joined(&self) -> bool {
        matches!(self, Self::Thirteen | Self::Intl | Self::Zh | Self::ZhFixed)
    }

    /// Calls `on_token` for each token of the tokenized line (its `str.split()`), using `buffer` as scratch.
    pub fn for_each_token(&self, line: &str, buffer: &mut String, on_token: impl FnMut(&str)) {
        buffer.clear();
        self.tokenize_into(line, buffer);
        split_tokens(buffer).for_each(on_token);
    }
}

#[cfg(test)]
mod tests;
