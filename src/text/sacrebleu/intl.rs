//! `intl` (sacrebleu/tokenizers/tokenizer_intl.py, after mteval-v14.pl's international tokenization):
//! split punctuation not between digits, surround symbols with spaces.
//!
//! The classes \p{N}, \p{P}, \p{S} are those of the Python `regex` module sacreBLEU uses, frozen in the
//! generated `unicode_tables.rs` (its Unicode version is newer than CPython's `unicodedata` or Rust's).

use super::stages::{join_words, Pair, Spacing, Surround, Symbol};
use super::unicode_tables::{BLOCK_DATA, BLOCK_INDEX, BLOCK_SHIFT};

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
    #[inline]
    fn char(self) -> char {
        self.char
    }
}

/// `TokenizerV14International()(line)`, appended to `out`.
pub(crate) fn tokenize_intl(line: &str, out: &mut String) {
    let classified = line.chars().map(|c| Classified { char: c, category: category(c) });
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
