//! `intl` (sacrebleu/tokenizers/tokenizer_intl.py, after mteval-v14.pl's international tokenization):
//! split punctuation not between digits, surround symbols with spaces.
//!
//! The classes \p{N}, \p{P}, \p{S} are those of the Python `regex` module sacreBLEU uses, frozen in the
//! generated `unicode_tables.rs` (its Unicode version is newer than CPython's `unicodedata` or Rust's).

use std::iter::once;

use super::stages::{join_words, AsChar, Pair, Spacing, Surround, Symbol};
use super::unicode_tables::{BLOCK_DATA, BLOCK_INDEX, BLOCK_SHIFT};
use crate::text::pystr::whitespace_len;

/// The general-category group of a char as the `regex` module sees it (N, P and S are disjoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Category {
    Other = 0,
    Number = 1,
    Punctuation = 2,
    Symbol = 3,
}

/// The `regex` module's \p{N} / \p{P} / \p{S} class of `c`.
#[inline]
pub fn category(c: char) -> Category {
    let code = c as u32;
    let block = BLOCK_INDEX[(code >> BLOCK_SHIFT) as usize] as usize;
    let offset = (code & ((1 << BLOCK_SHIFT) - 1)) as usize;
    let packed = BLOCK_DATA[(block << (BLOCK_SHIFT - 2)) + (offset >> 2)];
    match (packed >> ((offset & 3) * 2)) & 3 {
        1 => Category::Number,
        2 => Category::Punctuation,
        3 => Category::Symbol,
        _ => Category::Other,
    }
}

/// A char with its category looked up once, carried through the three passes.
#[derive(Clone, Copy)]
struct Classified {
    char: char,
    category: Category,
}

impl Symbol for Classified {
    const SPACE: Self = Classified { char: ' ', category: Category::Other };
}

impl AsChar for Classified {
    #[inline]
    fn char(self) -> char {
        self.char
    }
}

/// `TokenizerV14International()(line)`, appended to `out`.
///
/// Whitespace is not N, P or S, and can only be consumed as the non-number half of a match with a word's
/// edge char, so the three passes act on each whitespace-separated word independently, seeing a neutral
/// space on each side where the word has a neighbour. Words without P or S chars pass through unchanged.
pub(crate) fn tokenize_intl(line: &str, out: &mut String) {
    let bytes = line.as_bytes();
    let line_start = out.len();
    let mut index = 0;
    while index < bytes.len() {
        let whitespace = whitespace_len(bytes, index);
        if whitespace > 0 {
            index += whitespace;
            continue;
        }
        let start = index;
        let mut needs_passes = false;
        while index < bytes.len() {
            let byte = bytes[index];
            let width = if byte < 0x80 { 1 } else { utf8_width(byte) };
            if (byte <= b' ' || byte >= 0xC2) && whitespace_len(bytes, index) > 0 {
                break;
            }
            let c = if byte < 0x80 { byte as char } else { line[index..].chars().next().unwrap_or(' ') };
            needs_passes |= matches!(category(c), Category::Punctuation | Category::Symbol);
            index += width;
        }
        if out.len() > line_start {
            out.push(' ');
        }
        let word = &line[start..index];
        if needs_passes {
            let pad_before = once(' ').take(usize::from(start > 0));
            let pad_after = once(' ').take(usize::from(index < bytes.len()));
            intl_passes(pad_before.chain(word.chars()).chain(pad_after), out);
        } else {
            out.push_str(word);
        }
    }
}

/// The byte length of the UTF-8 sequence a lead byte starts.
#[inline]
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        _ => 2,
    }
}

/// sacreBLEU's three `regex.sub` passes and the whitespace join, as transducers.
fn intl_passes(chars: impl Iterator<Item = char>, out: &mut String) {
    let classified = chars.map(|c| Classified { char: c, category: category(c) });
    let not_number = |s: Classified| s.category != Category::Number;
    let punctuation = |s: Classified| s.category == Category::Punctuation;
    // (\P{N})(\p{P}) -> '\1 \2 '
    let after_non_number = Pair::new(classified, not_number, punctuation, Spacing::AfterEach);
    // (\p{P})(\P{N}) -> ' \1 \2'
    let before_non_number = Pair::new(after_non_number, punctuation, not_number, Spacing::BeforeEach);
    // (\p{S}) -> ' \1 '
    let symbols = Surround::new(before_non_number, |s: Classified| s.category == Category::Symbol);
    join_words(symbols, out);
}

/// The literal pipeline over the whole line: the oracle `tokenize_intl` is tested against.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn tokenize_intl_literal(line: &str, out: &mut String) {
    intl_passes(line.chars(), out);
}
