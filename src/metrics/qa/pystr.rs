//! Python `str` semantics the QA scripts rely on: `str.isspace()`, `re`'s `\w`, `str.split()` and
//! `str.strip()`, from CPython's tables (`tables.rs`). Shared by the normalisers (`normalize.rs`) and
//! NLTK's word tokenizer (`nltk_word.rs`), so neither imports the other for them.

use super::tables::{PY_SPACE, PY_WORD};
use crate::text::ranges::contains as in_ranges;

/// Python `str.isspace()` (what `str.split()` splits on; includes U+001C..U+001F, unlike Rust).
pub fn is_py_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\x1c'..='\x1f');
    }
    in_ranges(PY_SPACE, c)
}

/// Python `re`'s `\w` for str patterns: `str.isalnum()` or `_`.
pub fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(PY_WORD, c)
}

/// Python `str.split()` with no argument.
pub fn py_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_py_space).filter(|token| !token.is_empty())
}

/// Python `str.strip()` with no argument.
pub fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace_and_word_characters() {
        // U+001C..U+001F are whitespace to Python's str.split(), not to Rust's char::is_whitespace.
        assert_eq!(py_split(" a\u{1c}b\u{a0}c  ").collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(py_strip("\u{3000} a b\u{1f}"), "a b");
        assert!(is_py_word('é') && is_py_word('_') && is_py_word('٣'));
        assert!(!is_py_word('-') && !is_py_space('\u{200b}'));
    }
}
