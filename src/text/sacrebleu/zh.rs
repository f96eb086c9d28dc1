//! `zh` (sacrebleu/tokenizers/tokenizer_zh.py): space out CJK characters, then the `13a` regexes.
//!
//! sacreBLEU's `_UCODE_RANGES` writes two supplementary-plane ranges with 4-digit `\u` escapes
//! (`u'\u20000'`, `u'\u2a6d6'`, `u'\u2f800'`, `u'\u2fa1d'`), which Python reads as two-character strings
//! (sacrebleu issue #298). Its `start <= char <= end` string comparison therefore tests
//! U+2001..=U+2A6D (general punctuation, currency, letterlike and math symbols, arrows, box drawing, …:
//! all treated as "Chinese") and U+2F81..=U+2FA1, while CJK Extension B (U+20000..=U+2A6D6) and the CJK
//! Compatibility Supplement (U+2F800..=U+2FA1D) are NOT spaced out. `zh` reproduces that exactly;
//! `zh-fixed` uses the intended ranges.

#[cfg(any(test, feature = "fuzzing"))]
use super::stages::Surround;
#[cfg(any(test, feature = "fuzzing"))]
use super::tok_13a::regexp_post_tokenize;
use super::tok_13a::tokenize_words;
use crate::text::pystr::python_strip;

/// The ranges sacreBLEU 2.6.0 effectively tests (see the module doc for the two mis-typed ones).
const SACREBLEU_RANGES: [(u32, u32); 22] = [
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D), // written u'\u20000'..u'\u2a6d6' (meant: CJK Extension B)
    (0x2F81, 0x2FA1), // written u'\u2f800'..u'\u2fa1d' (meant: CJK Compatibility Supplement)
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
];

/// The same list with the two supplementary-plane ranges as their comments say they were meant.
const FIXED_RANGES: [(u32, u32); 22] = {
    let mut ranges = SACREBLEU_RANGES;
    ranges[6] = (0x20000, 0x2A6D6);
    ranges[7] = (0x2F800, 0x2FA1D);
    ranges
};

#[inline]
fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let code = c as u32;
    // Every range starts at or above U+2001: the common case exits here.
    code >= 0x2001 && ranges.iter().any(|&(start, end)| start <= code && code <= end)
}

/// sacreBLEU's `TokenizerZh._is_chinese_char`, typo included.
#[inline]
pub fn is_chinese_char_sacrebleu(c: char) -> bool {
    in_ranges(c, &SACREBLEU_RANGES)
}

/// `_is_chinese_char` with the intended CJK Extension B and Compatibility Supplement ranges.
#[inline]
pub fn is_chinese_char_fixed(c: char) -> bool {
    in_ranges(c, &FIXED_RANGES)
}

/// `TokenizerZh()(line)`, appended to `out`; `fixed` selects the corrected ranges.
pub(crate) fn tokenize_zh(line: &str, fixed: bool, out: &mut String) {
    let is_chinese: fn(char) -> bool = if fixed { is_chinese_char_fixed } else { is_chinese_char_sacrebleu };
    tokenize_words(python_strip(line), false, Some(is_chinese), out);
}

/// The literal sacreBLEU pipeline (space out, then all four regex passes): the oracle for `tokenize_zh`.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn tokenize_zh_literal(line: &str, fixed: bool, out: &mut String) {
    let is_chinese = if fixed { is_chinese_char_fixed } else { is_chinese_char_sacrebleu };
    let spaced: String = Surround::new(python_strip(line).chars(), is_chinese).collect();
    regexp_post_tokenize(spaced.bytes(), out);
}
