//! Python's `str.rstrip()` and `str.split()` (no arguments) on Rust strings.
//!
//! sacreBLEU calls `sent.rstrip()` before tokenizing and `line.split()` to get tokens
//! (`sacrebleu/metrics/bleu.py`, `helpers.py`). Python's whitespace (`str.isspace`) is not Rust's
//! `char::is_whitespace`: it also holds U+001C..U+001F (bidi class B/S), so we list it explicitly.
//! TODO(tok): switch `split_tokens` to `crate::text::sacrebleu::split_tokens` once it lands.

/// True for exactly the characters for which Python's `str.isspace()` is true.
#[inline]
pub fn is_python_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{1C}'..='\u{1F}' | ' ' | '\u{85}' | '\u{A0}' | '\u{1680}'
            | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Python's `line.rstrip()`.
pub fn rstrip(line: &str) -> &str {
    line.trim_end_matches(is_python_whitespace)
}

/// Python's `line.split()`: maximal runs of non-whitespace characters.
pub fn split_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(is_python_whitespace).filter(|token| !token.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace_includes_information_separators() {
        assert!(is_python_whitespace('\u{1C}'));
        assert!(!'\u{1C}'.is_whitespace());
        assert!(!is_python_whitespace('\u{200B}'));
        assert!(!is_python_whitespace('a'));
    }

    #[test]
    fn split_and_rstrip_match_python() {
        let line = "\u{3000}a\u{1F}b  c\u{A0}\n";
        assert_eq!(split_tokens(line).collect::<Vec<_>>(), vec!["a", "b", "c"]);
        assert_eq!(rstrip(line), "\u{3000}a\u{1F}b  c");
        assert_eq!(split_tokens("").count(), 0);
        assert_eq!(split_tokens(" \t ").count(), 0);
    }
}
