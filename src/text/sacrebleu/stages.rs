//! Streaming equivalents of the `re.sub` passes sacreBLEU chains, as char iterators.
//!
//! Each pass of a sacreBLEU tokenizer is a regex substitution whose pattern is one or two single-character
//! classes. `re.sub` scans left to right and never overlaps matches, so a pass is exactly a one-character
//! look-ahead transducer; chaining transducers replaces the intermediate strings with nothing at all.

use std::iter::Peekable;

use crate::text::pystr::{is_python_whitespace, whitespace_len};

/// A pipeline element: a UTF-8 byte, a char, or a char carrying a precomputed Unicode class (see `intl`).
pub(crate) trait Symbol: Copy {
    /// The ASCII space the substitutions insert.
    const SPACE: Self;
}

/// A pipeline element that is a whole char.
pub(crate) trait AsChar: Symbol {
    fn char(self) -> char;
}

impl Symbol for char {
    const SPACE: Self = ' ';
}

impl AsChar for char {
    #[inline]
    fn char(self) -> char {
        self
    }
}

/// Bytes work when every class a pass tests is ASCII and the other side is "any char but …": a multi-byte
/// char's bytes are all >= 0x80, match nothing ASCII, and a pass never inserts a space inside a char.
impl Symbol for u8 {
    const SPACE: Self = b' ';
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

/// `' '.join(line.split())` over a symbol stream, appended to `out`.
#[inline]
pub(crate) fn join_words<T: AsChar>(symbols: impl Iterator<Item = T>, out: &mut String) {
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

/// `' '.join(line.split())` over the UTF-8 bytes of a text, appended to `out`.
/// The stream must be valid UTF-8 (true of every pipeline here: they only insert ASCII spaces between chars).
#[inline]
pub(crate) fn join_words_utf8(bytes: impl Iterator<Item = u8>, out: &mut String) {
    // SAFETY: we append whole chars of a valid UTF-8 stream and ASCII spaces, so `out` stays valid UTF-8.
    let out = unsafe { out.as_mut_vec() };
    let start = out.len();
    let mut in_gap = false;
    // A multi-byte char that may be whitespace (lead byte C2, E1, E2 or E3), held until it is complete.
    let mut held = [0u8; 3];
    let mut held_len = 0usize;
    let mut held_need = 0usize;
    let emit = |out: &mut Vec<u8>, in_gap: &mut bool, bytes: &[u8]| {
        if *in_gap && out.len() > start {
            out.push(b' ');
        }
        *in_gap = false;
        out.extend_from_slice(bytes);
    };
    for byte in bytes {
        if held_need > 0 {
            held[held_len] = byte;
            held_len += 1;
            if held_len == held_need {
                held_need = 0;
                if whitespace_len(&held[..held_len], 0) > 0 {
                    in_gap = true;
                } else {
                    emit(out, &mut in_gap, &held[..held_len]);
                }
            }
        } else if byte < 0x80 {
            if whitespace_len(&[byte], 0) > 0 {
                in_gap = true;
            } else {
                emit(out, &mut in_gap, &[byte]);
            }
        } else if matches!(byte, 0xC2 | 0xE1 | 0xE2 | 0xE3) {
            held[0] = byte;
            held_len = 1;
            held_need = if byte == 0xC2 { 2 } else { 3 };
        } else {
            emit(out, &mut in_gap, &[byte]);
        }
    }
    debug_assert!(held_need == 0, "truncated UTF-8 stream");
}
