//! Streaming equivalents of the `re.sub` passes sacreBLEU chains, as char iterators.
//!
//! Each pass of a sacreBLEU tokenizer is a regex substitution whose pattern is one or two single-character
//! classes. `re.sub` scans left to right and never overlaps matches, so a pass is exactly a one-character
//! look-ahead transducer; chaining transducers replaces the intermediate strings with nothing at all.

use std::iter::Peekable;

/// A pipeline element: a char, possibly carrying a precomputed Unicode class (see `intl`).
pub(crate) trait Symbol: Copy {
    /// The ASCII space the substitutions insert.
    const SPACE: Self;
    fn char(self) -> char;
}

impl Symbol for char {
    const SPACE: Self = ' ';
    #[inline]
    fn char(self) -> char {
        self
    }
}

/// Up to three symbols waiting to be emitted.
#[derive(Clone, Copy)]
struct Pending<T: Symbol> {
    items: [T; 3],
    position: u8,
    length: u8,
}

impl<T: Symbol> Pending<T> {
    fn new() -> Self {
        Pending { items: [T::SPACE; 3], position: 0, length: 0 }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if self.position < self.length {
            let item = self.items[self.position as usize];
            self.position += 1;
            Some(item)
        } else {
            None
        }
    }

    #[inline]
    fn set(&mut self, items: [T; 3], length: u8) {
        self.items = items;
        self.position = 0;
        self.length = length;
    }
}

/// `re.sub(r'(CLASS)', r' \1 ', line)`: surrounds every matching char with spaces.
pub(crate) struct Surround<T: Symbol, I: Iterator<Item = T>, F: Fn(T) -> bool> {
    inner: I,
    matches: F,
    pending: Pending<T>,
}

impl<T: Symbol, I: Iterator<Item = T>, F: Fn(T) -> bool> Surround<T, I, F> {
    pub(crate) fn new(inner: I, matches: F) -> Self {
        Surround { inner, matches, pending: Pending::new() }
    }
}

impl<T: Symbol, I: Iterator<Item = T>, F: Fn(T) -> bool> Iterator for Surround<T, I, F> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if let Some(item) = self.pending.pop() {
            return Some(item);
        }
        let item = self.inner.next()?;
        if (self.matches)(item) {
            self.pending.set([item, T::SPACE, T::SPACE], 2);
            Some(T::SPACE)
        } else {
            Some(item)
        }
    }
}

/// Where a two-class substitution puts its spaces.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spacing {
    /// `r'\1 \2 '`
    AfterEach,
    /// `r' \1 \2'`
    BeforeEach,
}

/// `re.sub(r'(FIRST)(SECOND)', replacement, line)` for single-character classes FIRST and SECOND.
pub(crate) struct Pair<T: Symbol, I: Iterator<Item = T>, A: Fn(T) -> bool, B: Fn(T) -> bool> {
    inner: Peekable<I>,
    first: A,
    second: B,
    spacing: Spacing,
    pending: Pending<T>,
}

impl<T: Symbol, I: Iterator<Item = T>, A: Fn(T) -> bool, B: Fn(T) -> bool> Pair<T, I, A, B> {
    pub(crate) fn new(inner: I, first: A, second: B, spacing: Spacing) -> Self {
        Pair { inner: inner.peekable(), first, second, spacing, pending: Pending::new() }
    }
}

impl<T: Symbol, I: Iterator<Item = T>, A: Fn(T) -> bool, B: Fn(T) -> bool> Iterator for Pair<T, I, A, B> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if let Some(item) = self.pending.pop() {
            return Some(item);
        }
        let first = self.inner.next()?;
        if (self.first)(first) {
            if let Some(&second) = self.inner.peek() {
                if (self.second)(second) {
                    // The match consumes both chars: the next search starts after `second`.
                    self.inner.next();
                    return Some(match self.spacing {
                        Spacing::AfterEach => {
                            self.pending.set([T::SPACE, second, T::SPACE], 3);
                            first
                        }
                        Spacing::BeforeEach => {
                            self.pending.set([first, T::SPACE, second], 3);
                            T::SPACE
                        }
                    });
                }
            }
        }
        Some(first)
    }
}

/// Python's `str.isspace()` for one char (what `str.split()` and `str.strip()` with no argument use).
/// Fixed since Python 3.0: bidi classes WS, B, S plus category Zs; includes U+001C..U+001F, unlike Rust's
/// `char::is_whitespace`, and excludes U+200B and U+180E.
#[inline]
pub fn is_python_whitespace(c: char) -> bool {
    match c {
        '\t'..='\r' | '\u{1c}'..=' ' => true,
        _ if (c as u32) < 0x85 => false,
        '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}'
        | '\u{205f}' | '\u{3000}' => true,
        _ => false,
    }
}

/// `' '.join(line.split())` over a symbol stream, appended to `out`.
#[inline]
pub(crate) fn join_words<T: Symbol>(symbols: impl Iterator<Item = T>, out: &mut String) {
    let start = out.len();
    let mut in_gap = false;
    for symbol in symbols {
        let c = symbol.char();
        if is_python_whitespace(c) {
            in_gap = true;
        } else {
            if in_gap && out.len() > start {
                out.push(' ');
            }
            in_gap = false;
            out.push(c);
        }
    }
}

/// `line.strip()` with Python's whitespace set.
#[inline]
pub fn python_strip(line: &str) -> &str {
    line.trim_matches(is_python_whitespace)
}

/// Python's `str.split()` with no argument: the non-empty runs between Python whitespace.
pub fn split_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_python_whitespace).filter(|token| !token.is_empty())
}
