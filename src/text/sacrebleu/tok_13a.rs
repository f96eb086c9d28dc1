//! `13a` (sacrebleu/tokenizers/tokenizer_13a.py) and the regex post-tokenizer it shares with `zh`
//! (sacrebleu/tokenizers/tokenizer_re.py), equivalent to mteval-v13a.pl.

use std::borrow::Cow;
use std::iter::once;

use super::stages::{join_words, Pair, Spacing, Surround};

/// The first `TokenizerRegexp` class `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: ASCII space and punctuation except
/// `'`, `,`, `-` and `.`.
#[inline]
fn is_split_punctuation(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

#[inline]
fn is_ascii_digit(c: char) -> bool {
    c.is_ascii_digit()
}

#[inline]
fn is_period_or_comma(c: char) -> bool {
    c == '.' || c == ','
}

/// `TokenizerRegexp.__call__`: four substitutions then `' '.join(line.split())`, appended to `out`.
#[inline]
pub(crate) fn regexp_post_tokenize(chars: impl Iterator<Item = char>, out: &mut String) {
    let punctuation = Surround::new(chars, is_split_punctuation);
    // period and comma, unless preceded by a digit: ([^0-9])([\.,]) -> \1 \2
    let after_non_digit = Pair::new(punctuation, |c| !is_ascii_digit(c), is_period_or_comma, Spacing::AfterEach);
    // period and comma, unless followed by a digit: ([\.,])([^0-9]) -> ' \1 \2'
    let before_non_digit = Pair::new(after_non_digit, is_period_or_comma, |c| !is_ascii_digit(c), Spacing::BeforeEach);
    // dash after a digit: ([0-9])(-) -> '\1 \2 '
    let dash = Pair::new(before_non_digit, is_ascii_digit, |c| c == '-', Spacing::AfterEach);
    join_words(dash, out);
}

/// The language-independent replacements of `Tokenizer13a.__call__`, in its order; borrows when none applies.
fn unescape(line: &str) -> Cow<'_, str> {
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

/// `Tokenizer13a()(line)`, appended to `out`.
pub(crate) fn tokenize_13a(line: &str, out: &mut String) {
    let text = unescape(line);
    // sacreBLEU pads the line with one space on each side before the regexes (as mteval-v13a does).
    regexp_post_tokenize(once(' ').chain(text.chars()).chain(once(' ')), out);
}
