//! `13a` (sacrebleu/tokenizers/tokenizer_13a.py) and the regex post-tokenizer it shares with `zh`
//! (sacrebleu/tokenizers/tokenizer_re.py), equivalent to mteval-v13a.pl.

use std::borrow::Cow;
use std::iter::once;

#[cfg(any(test, feature = "fuzzing"))]
use super::stages::Surround;
use super::stages::{join_words_utf8, Pair, Spacing};
use crate::text::pystr::whitespace_len;

/// The first `TokenizerRegexp` class `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII space and punctuation except
/// `'`, `,`, `-` and `.`.
#[inline]
const fn is_split_punctuation(byte: u8) -> bool {
    matches!(byte, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

#[inline]
fn is_ascii_digit(byte: u8) -> bool {
    byte.is_ascii_digit()
}

#[inline]
fn is_period_or_comma(byte: u8) -> bool {
    byte == b'.' || byte == b','
}

/// `TokenizerRegexp.__call__` over the UTF-8 bytes of a line: four substitutions then
/// `' '.join(line.split())`, appended to `out`. Every class is ASCII, so bytes give the same matches as chars.
/// The literal pipeline: the oracle `tokenize_words` is tested against.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn regexp_post_tokenize(bytes: impl Iterator<Item = u8>, out: &mut String) {
    let punctuation = Surround::new(bytes, is_split_punctuation);
    dot_comma_dash_passes(punctuation, out);
}

/// The last three `TokenizerRegexp` substitutions and the whitespace join.
#[inline]
fn dot_comma_dash_passes(bytes: impl Iterator<Item = u8>, out: &mut String) {
    // period and comma, unless preceded by a digit: ([^0-9])([\.,]) -> \1 \2
    let after_non_digit = Pair::new(bytes, |b| !is_ascii_digit(b), is_period_or_comma, Spacing::AfterEach);
    // period and comma, unless followed by a digit: ([\.,])([^0-9]) -> ' \1 \2'
    let before_non_digit = Pair::new(after_non_digit, is_period_or_comma, |b| !is_ascii_digit(b), Spacing::BeforeEach);
    // dash after a digit: ([0-9])(-) -> '\1 \2 '
    let dash = Pair::new(before_non_digit, is_ascii_digit, |b| b == b'-', Spacing::AfterEach);
    join_words_utf8(dash, out);
}

/// The language-independent replacements of `Tokenizer13a.__call__`, in its order; borrows when none applies.
fn unescape(line: &str) -> Cow<'_, str> {
    // Every replacement needs a `<`, `\n` or `&`; one vectorised pass rules them all out (the usual case).
    let may_apply = line.bytes().fold(false, |found, byte| found | matches!(byte, b'<' | b'\n' | b'&'));
    if !may_apply {
        return Cow::Borrowed(line);
    }
    let mut text = Cow::Borrowed(line);
    if text.contains("<skipped>") {
        text = Cow::Owned(text.replace("<skipped>", ""));
    }
    if text.contains('\n') {
        text = Cow::Owned(text.replace("-\n", "").replace('\n', " "));
    }
    if text.contains('&') {
        // Sequential, like sacreBLEU: "&amp;lt;" becomes "<".
        for (entity, replacement) in [("&quot;", "\""), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")] {
            if text.contains(entity) {
                text = Cow::Owned(text.replace(entity, replacement));
            }
        }
    }
    text
}

/// `TokenizerRegexp()(text)` after `text`'s chars matching `is_spaced_out` were surrounded by spaces
/// (zh's CJK characters; 13a passes `None`), appended to `out`; `padded` says `text` was meant to be
/// surrounded by one space on each side (13a) — the result is then the same as if it were.
///
/// Why this equals the four `re.sub` passes: the first pass puts spaces around every char of its class,
/// so the text falls into separators (whitespace, those chars, spaced-out chars) and words between them.
/// The other three passes only involve `.` `,` `-` and digits; a separator is none of these, can only be
/// consumed as the non-digit half of a match with a word's edge char, and so the passes act on each word
/// independently, seeing a neutral space before and after it (unless it touches the text's start or end).
/// Words without `.` `,` only meet `([0-9])(-)`, and a lone final `.`/`,` is always split off; other
/// words run through the literal passes (`cargo test` compares all of this with the literal chain).
#[inline]
pub(crate) fn tokenize_words(text: &str, padded: bool, is_spaced_out: Option<fn(char) -> bool>, out: &mut String) {
    let bytes = text.as_bytes();
    let line_start = out.len();
    let mut index = 0;
    // Spaced-out chars (zh) are all >= U+2001, i.e. have a lead byte >= 0xE2.
    let spaced_out_lead = if is_spaced_out.is_some() { 0xE2 } else { 0x100 };
    // The length of the separator char at `index` (whitespace, split punctuation or spaced-out), or 0.
    let separator_len = |index: usize| -> (usize, bool) {
        let byte = bytes[index];
        match BYTE_CLASS[byte as usize] {
            WORD | DOT_COMMA_DASH => (0, false),
            SPLIT => (1, true),
            WHITESPACE => (1, false),
            _ => {
                let whitespace = whitespace_len(bytes, index);
                if whitespace > 0 {
                    return (whitespace, false);
                }
                if u16::from(byte) >= spaced_out_lead {
                    let c = text[index..].chars().next().unwrap_or(' ');
                    if is_spaced_out.is_some_and(|is_spaced_out| is_spaced_out(c)) {
                        return (c.len_utf8(), true);
                    }
                }
                (0, false)
            }
        }
    };
    while index < bytes.len() {
        let (length, is_token) = separator_len(index);
        if length > 0 {
            if is_token {
                if out.len() > line_start {
                    out.push(' ');
                }
                out.push_str(&text[index..index + length]);
            }
            index += length;
            continue;
        }
        // A word: up to the next whitespace, split punctuation or spaced-out char.
        let start = index;
        let (mut periods_commas, mut dashes) = (0usize, 0usize);
        while index < bytes.len() {
            // The common case first: a run of plain word bytes, measured 16 bytes at a time with one
            // branch per chunk (a branch per byte mispredicts at every word end).
            loop {
                let Some(chunk) = bytes.get(index..index + 16) else {
                    while index < bytes.len() && BYTE_CLASS[bytes[index] as usize] == WORD {
                        index += 1;
                    }
                    break;
                };
                let mut stops = 0u32;
                for (offset, &byte) in chunk.iter().enumerate() {
                    stops |= u32::from(BYTE_CLASS[byte as usize] != WORD) << offset;
                }
                if stops == 0 {
                    index += 16;
                } else {
                    index += stops.trailing_zeros() as usize;
                    break;
                }
            }
            let Some(&byte) = bytes.get(index) else { break };
            match BYTE_CLASS[byte as usize] {
                WORD => index += 1,
                DOT_COMMA_DASH => {
                    if byte == b'-' {
                        dashes += 1;
                    } else {
                        periods_commas += 1;
                    }
                    index += 1;
                }
                SPLIT | WHITESPACE => break,
                _ => {
                    if separator_len(index).0 > 0 {
                        break;
                    }
                    index += 1; // a lead byte; its continuation bytes are WORD
                }
            }
        }
        if out.len() > line_start {
            out.push(' ');
        }
        let word = &text[start..index];
        let after = padded || index < bytes.len();
        let last = word.as_bytes()[word.len() - 1];
        if periods_commas == 0 {
            // Only `([0-9])(-)` can apply.
            split_digit_dashes(word, dashes, out);
        } else if periods_commas == 1 && after && (last == b'.' || last == b',') {
            // One final period/comma before a neighbour: split off (pass 2 if a non-digit precedes it,
            // else pass 3 with the neighbour); the rest only sees `([0-9])(-)`.
            split_digit_dashes(&word[..word.len() - 1], dashes, out);
            if word.len() > 1 {
                out.push(' ');
            }
            out.push(last as char);
        } else {
            let before = padded || start > 0;
            if word.len() <= SHORT_WORD {
                dot_comma_dash_passes_short(word.as_bytes(), before, after, out);
            } else {
                let pad_before = once(b' ').take(usize::from(before));
                let pad_after = once(b' ').take(usize::from(after));
                dot_comma_dash_passes(pad_before.chain(word.bytes()).chain(pad_after), out);
            }
        }
    }
}

/// `re.sub(r'([0-9])(-)', r'\1 \2 ', word)` then the whitespace join, for a word without `.` or `,`:
/// every dash right after a digit becomes its own token.
#[inline]
fn split_digit_dashes(word: &str, dashes: usize, out: &mut String) {
    if dashes == 0 {
        out.push_str(word);
        return;
    }
    let bytes = word.as_bytes();
    let mut token_start = 0;
    for index in 1..bytes.len() {
        if bytes[index] == b'-' && bytes[index - 1].is_ascii_digit() {
            out.push_str(&word[token_start..index]);
            out.push_str(" -");
            token_start = index + 1;
            if token_start < bytes.len() {
                out.push(' ');
            }
        }
    }
    out.push_str(&word[token_start..]);
}

/// Words up to this many bytes take the stack-buffer route (each pass at most doubles the length).
const SHORT_WORD: usize = 62;
const SHORT_BUFFER: usize = 8 * (SHORT_WORD + 2);

/// One `re.sub(r'(FIRST)(SECOND)', …)` pass over a byte slice into `output`; returns the output length.
#[inline]
fn pair_pass(
    input: &[u8],
    output: &mut [u8; SHORT_BUFFER],
    first: impl Fn(u8) -> bool,
    second: impl Fn(u8) -> bool,
    spacing: Spacing,
) -> usize {
    let (mut read, mut written) = (0, 0);
    while read < input.len() {
        let byte = input[read];
        if read + 1 < input.len() && first(byte) && second(input[read + 1]) {
            let next = input[read + 1];
            let replacement = match spacing {
                Spacing::AfterEach => [byte, b' ', next, b' '],
                Spacing::BeforeEach => [b' ', byte, b' ', next],
            };
            output[written..written + 4].copy_from_slice(&replacement);
            written += 4;
            read += 2;
        } else {
            output[written] = byte;
            written += 1;
            read += 1;
        }
    }
    written
}

/// `dot_comma_dash_passes` for a short word, with a neutral space before/after it when it has neighbours,
/// on stack buffers.
fn dot_comma_dash_passes_short(word: &[u8], before: bool, after: bool, out: &mut String) {
    let mut input = [b' '; SHORT_WORD + 2];
    let offset = usize::from(before);
    input[offset..offset + word.len()].copy_from_slice(word);
    let input = &input[..offset + word.len() + usize::from(after)];
    let (mut first, mut second) = ([0u8; SHORT_BUFFER], [0u8; SHORT_BUFFER]);
    let length = pair_pass(input, &mut first, |b| !is_ascii_digit(b), is_period_or_comma, Spacing::AfterEach);
    let length =
        pair_pass(&first[..length], &mut second, is_period_or_comma, |b| !is_ascii_digit(b), Spacing::BeforeEach);
    let length = pair_pass(&second[..length], &mut first, is_ascii_digit, |b| b == b'-', Spacing::AfterEach);
    // SAFETY: the passes only insert ASCII spaces next to ASCII `.` `,` `-` or digits, never inside a
    // multi-byte char, so the tokens are valid UTF-8 slices of a valid word plus ASCII.
    let out = unsafe { out.as_mut_vec() };
    let mut separate = false;
    for token in first[..length].split(|&b| b == b' ').filter(|token| !token.is_empty()) {
        if separate {
            out.push(b' ');
        }
        out.extend_from_slice(token);
        separate = true;
    }
}

const WORD: u8 = 0;
const DOT_COMMA_DASH: u8 = 1;
const SPLIT: u8 = 2;
const WHITESPACE: u8 = 3;
const NON_ASCII_LEAD: u8 = 4;

/// Each byte's role for `tokenize_words`; continuation bytes (0x80..=0xBF) are WORD. NON_ASCII_LEAD
/// marks only the lead bytes that may begin a separator: Python whitespace (C2, E1, E2, E3) or a
/// spaced-out zh char (all >= U+2001: lead >= E2). Other chars (é, ß, Cyrillic …) are plain WORD bytes.
const BYTE_CLASS: [u8; 256] = {
    let mut classes = [WORD; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        classes[byte] = if matches!(b, b'.' | b',' | b'-') {
            DOT_COMMA_DASH
        } else if matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' ') {
            WHITESPACE
        } else if is_split_punctuation(b) {
            SPLIT
        } else if b == 0xC2 || b >= 0xE1 {
            NON_ASCII_LEAD
        } else {
            WORD
        };
        byte += 1;
    }
    classes
};

/// `Tokenizer13a()(line)`, appended to `out`.
pub(crate) fn tokenize_13a(line: &str, out: &mut String) {
    // sacreBLEU pads the line with one space on each side before the regexes (as mteval-v13a does).
    tokenize_words(&unescape(line), true, None, out);
}
