//! Python's `str` whitespace, exactly: `str.isspace()`, `str.split()` and `str.strip()` with no argument.
//!
//! The references are Python scripts, and their tokens are `line.split()`: Python's whitespace differs
//! from Rust's `char::is_whitespace` (U+001C..U+001F are whitespace to Python), so every tokenizer and
//! metric that splits "as Python does" uses this module.
//!
//! ```
//! use nlgmetrics::text::pystr::{python_strip, split_tokens};
//! assert_eq!(split_tokens(" a\u{1c}b\u{a0}c  ").collect::<Vec<_>>(), ["a", "b", "c"]);
//! assert_eq!(python_strip("\u{3000} a b\u{1f}"), "a b");
//! ```

/// Python's `str.isspace()` for one char (what `str.split()` and `str.strip()` with no argument use).
/// Fixed since Python 3.0: bidi classes WS, B, S plus category Zs; includes U+001C..U+001F, unlike Rust's
/// `char::is_whitespace`, and excludes U+200B and U+180E.
#[inline]
pub fn is_python_whitespace(c: char) -> bool {
    match c {
        '\t'..='\r' | '\u{1c}'..=' ' => true,
        _ if (c as u32) < 0x85 => false,
        '\u{85}'
        | '\u{a0}'
        | '\u{1680}'
        | '\u{2000}'..='\u{200a}'
        | '\u{2028}'
        | '\u{2029}'
        | '\u{202f}'
        | '\u{205f}'
        | '\u{3000}' => true,
        _ => false,
    }
}

/// The byte length of the Python whitespace char starting at `bytes[index]`, or 0 if it is not one.
/// `bytes` must be valid UTF-8; continuation bytes (0x80..=0xBF) always give 0.
#[inline(always)]
pub(crate) fn whitespace_len(bytes: &[u8], index: usize) -> usize {
    let lead = bytes[index];
    if lead < 0x80 {
        return usize::from(lead == b' ' || (b'\t'..=b'\r').contains(&lead) || (0x1c..=0x1f).contains(&lead));
    }
    multibyte_whitespace_len(bytes, index)
}

/// [`whitespace_len`] of a non-ASCII lead byte (rare: kept out of the inlined ASCII path).
#[inline(never)]
fn multibyte_whitespace_len(bytes: &[u8], index: usize) -> usize {
    let next = |offset: usize| bytes.get(index + offset).copied().unwrap_or(0);
    match bytes[index] {
        0xC2 => 2 * usize::from(matches!(next(1), 0x85 | 0xA0)), // U+0085, U+00A0
        0xE1 => 3 * usize::from(next(1) == 0x9A && next(2) == 0x80), // U+1680
        0xE2 => match (next(1), next(2)) {
            (0x80, 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF) | (0x81, 0x9F) => 3, // U+2000..200A, 2028, 2029, 202F, 205F
            _ => 0,
        },
        0xE3 => 3 * usize::from(next(1) == 0x80 && next(2) == 0x80), // U+3000
        _ => 0,
    }
}

/// The first position from `position` on whose byte may begin a Python whitespace char (see
/// [`MAY_START_WHITESPACE`]), or `bytes.len()`. Eight bytes at a time: a byte below 0x21 or from
/// 0x80 up flags a candidate (the lowest flag is exact: a borrow only reaches higher bytes).
#[inline(always)]
fn next_space_candidate(bytes: &[u8], mut position: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(position..position + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let flags = (word.wrapping_sub(ONES * 0x21) | word) & HIGH;
        if flags == 0 {
            position += 8;
            continue;
        }
        let at = position + (flags.trailing_zeros() / 8) as usize;
        if MAY_START_WHITESPACE[bytes[at] as usize] {
            return at;
        }
        position = at + 1;
    }
    while position < bytes.len() && !MAY_START_WHITESPACE[bytes[position] as usize] {
        position += 1;
    }
    position
}

/// Bytes that can begin a Python whitespace char: ASCII whitespace and the lead bytes C2, E1, E2, E3.
pub(crate) const MAY_START_WHITESPACE: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(byte, 0x09..=0x0d | 0x1c..=0x20 | 0xC2 | 0xE1 | 0xE2 | 0xE3);
        byte += 1;
    }
    table
};

/// `line.strip()` with Python's whitespace set.
#[inline]
pub fn python_strip(line: &str) -> &str {
    line.trim_matches(is_python_whitespace)
}

/// Python's `str.split()` with no argument: the non-empty runs between Python whitespace.
pub fn split_tokens(text: &str) -> SplitTokens<'_> {
    SplitTokens { text, position: 0 }
}

/// The iterator of [`split_tokens`]: scans bytes, no allocation.
#[derive(Debug, Clone)]
pub struct SplitTokens<'a> {
    text: &'a str,
    position: usize,
}

impl<'a> Iterator for SplitTokens<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let mut position = self.position;
        loop {
            if position >= bytes.len() {
                self.position = position;
                return None;
            }
            match whitespace_len(bytes, position) {
                0 => break,
                width => position += width,
            }
        }
        let start = position;
        // Stepping one byte at a time is safe: whitespace_len is 0 on continuation bytes.
        while position < bytes.len() {
            position = next_space_candidate(bytes, position);
            if position >= bytes.len() || whitespace_len(bytes, position) > 0 {
                break;
            }
            position += 1;
        }
        self.position = position;
        Some(&self.text[start..position])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace_is_not_rusts() {
        // U+001C..U+001F are whitespace to Python's str.split(), not to Rust's char::is_whitespace.
        assert_eq!(split_tokens("  a\u{1f}b\u{a0}c\n\u{3000}d  ").collect::<Vec<_>>(), ["a", "b", "c", "d"]);
        assert_eq!(split_tokens("   ").count(), 0);
        assert!(!is_python_whitespace('\u{200b}') && !is_python_whitespace('\u{180e}'));
        // Agrees with Rust's White_Space everywhere else.
        for c in (0..0x11_0000).filter_map(char::from_u32) {
            let rust = c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
            assert_eq!(is_python_whitespace(c), rust, "{c:?}");
        }
    }
}
