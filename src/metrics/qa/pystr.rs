//! Python `re`'s `\w` for str patterns, from CPython's tables (`tables.rs`). Shared by the normalisers
//! (`normalize.rs`) and NLTK's word tokenizer (`nltk_word.rs`), so neither imports the other for it.
//! Python's whitespace (`str.split()`, `str.strip()`) is `crate::text::pystr`.

use super::tables::PY_WORD;
use crate::text::ranges::contains as in_ranges;

/// Python `re`'s `\w` for str patterns: `str.isalnum()` or `_`.
pub fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(PY_WORD, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_word_characters() {
        assert!(is_py_word('é') && is_py_word('_') && is_py_word('٣'));
        assert!(!is_py_word('-') && !is_py_word('\u{200b}'));
    }
}
