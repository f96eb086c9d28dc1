//! Python's `str.rstrip()` on Rust strings: sacreBLEU calls `sent.rstrip()` before tokenizing
//! (`sacrebleu/metrics/bleu.py`, `_preprocess_segment`). Python's whitespace is not Rust's
//! `char::is_whitespace` (it also holds U+001C..U+001F); the tokenizers module defines it.

use crate::text::pystr::is_python_whitespace;

/// Python's `line.rstrip()`.
pub fn rstrip(line: &str) -> &str {
    line.trim_end_matches(is_python_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rstrip_matches_python() {
        assert_eq!(rstrip("\u{3000}a\u{1F}b  c\u{A0}\u{1C}\n"), "\u{3000}a\u{1F}b  c");
        assert_eq!(rstrip("a\u{200B}"), "a\u{200B}"); // zero-width space is not whitespace in Python
        assert_eq!(rstrip(" \t "), "");
    }
}
