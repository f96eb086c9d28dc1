//! sacreBLEU's tercom normalizer/tokenizer (`sacrebleu/tokenizers/tokenizer_ter.py`), minus the
//! lowercasing, which the caller does with Python's `str.lower()` (the reference's own rule).
//!
//! Each regular expression of the reference is a fixed-width pattern; the scans below reproduce
//! Python `re.sub`'s left-to-right, non-overlapping replacement.

use crate::text::pystr::split_tokens;

/// The tokenizer options (sacreBLEU `TercomTokenizer`; read from the Python metric's options dict by name).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "python", derive(pyo3::FromPyObject), pyo3(from_item_all))]
pub struct TerNormalizer {
    pub normalized: bool,
    pub no_punct: bool,
    pub asian_support: bool,
}

/// tercom's "punctuation to tokenize": `[{-~[-\` -&(-+:-@/]` (ASCII punctuation and the space,
/// except `'`, `,`, `-`, `.`).
fn is_western_punct(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// CJK characters split down to single characters (the union of the reference's ranges).
/// The hiragana/katakana rules of the reference are anchored at `^` and can never match after
/// the general normalization padded the line with a space, so they do nothing here either.
fn is_asian_char(c: char) -> bool {
    matches!(c,
        '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}'
        | '\u{31c0}'..='\u{31ef}' | '\u{2e80}'..='\u{2eff}'
        | '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}'
        | '\u{3200}'..='\u{3f22}')
}

/// `TercomTokenizer.ASIAN_PUNCT` and `FULL_WIDTH_PUNCT`.
fn is_asian_punct(c: char) -> bool {
    matches!(c,
        '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff61}'..='\u{ff65}' | '\u{30fb}'
        | '\u{ff0e}' | '\u{ff0c}' | '\u{ff1f}' | '\u{ff1a}' | '\u{ff1b}' | '\u{ff01}' | '\u{ff02}'
        | '\u{ff08}' | '\u{ff09}')
}

/// `_remove_punct`'s class `[\.,\?:;!\"\(\)]`.
fn is_removable_punct(c: char) -> bool {
    matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')')
}

/// Pads every character selected by `pick` with a space on both sides.
fn pad(chars: &[char], pick: impl Fn(char) -> bool) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + 8);
    for &c in chars {
        if pick(c) {
            out.extend([' ', c, ' ']);
        } else {
            out.push(c);
        }
    }
    out
}

/// `re.sub(r"(A)(B)", replacement, …)` for a two-character pattern whose characters satisfy
/// `first` and `second`; `emit` writes the replacement of a match.
fn sub_pairs(
    chars: &[char],
    first: impl Fn(char) -> bool,
    second: impl Fn(char) -> bool,
    emit: impl Fn(&mut Vec<char>, char, char),
) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && first(chars[i]) && second(chars[i + 1]) {
            emit(&mut out, chars[i], chars[i + 1]);
            i += 2;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// `_normalize_general_and_western`.
fn normalize_general(line: &str) -> Vec<char> {
    let line = line.replace("\n-", "").replace('\n', " ");
    let line = line.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    let padded = format!(" {line} ");
    let chars: Vec<char> = padded.chars().collect();
    let chars = pad(&chars, is_western_punct);
    // possessives: "'s " → " 's "; the reference's "'s$" can never match (the line ends in a space).
    let text: String = chars.into_iter().collect();
    let text = text.replace("'s ", " 's ");
    let chars: Vec<char> = text.chars().collect();
    let is_digit = |c: char| c.is_ascii_digit();
    let is_period_comma = |c: char| c == '.' || c == ',';
    // period and comma unless preceded by a digit: ([^0-9])([\.,]) → "\1 \2 "
    let chars = sub_pairs(&chars, |c| !is_digit(c), is_period_comma, |out, a, b| out.extend([a, ' ', b, ' ']));
    // period and comma unless followed by a digit: ([\.,])([^0-9]) → " \1 \2"
    let chars = sub_pairs(&chars, is_period_comma, |c| !is_digit(c), |out, a, b| out.extend([' ', a, ' ', b]));
    // dash preceded by a digit: ([0-9])(-) → "\1 \2 "
    sub_pairs(&chars, is_digit, |c| c == '-', |out, a, b| out.extend([a, ' ', b, ' ']))
}

impl TerNormalizer {
    /// The tokens of one (already right-stripped and, unless case-sensitive, lowercased) line.
    pub fn tokens(&self, line: &str) -> Vec<String> {
        if line.is_empty() {
            return Vec::new();
        }
        let mut chars: Vec<char> = if self.normalized { normalize_general(line) } else { line.chars().collect() };
        if self.normalized && self.asian_support {
            chars = pad(&chars, |c| is_asian_char(c) || is_asian_punct(c));
        }
        if self.no_punct {
            chars.retain(|&c| !is_removable_punct(c));
            if self.asian_support {
                chars.retain(|&c| !is_asian_punct(c));
            }
        }
        let text: String = chars.into_iter().collect();
        split_tokens(&text).map(str::to_string).collect()
    }

    /// The tokens of a reference line. sacreBLEU 2.6.0 preprocesses references twice (once in
    /// `Metric._cache_references`, again in `TER._extract_reference_info`), so the tokenizer runs
    /// on its own output; lowercasing again changes nothing (Python's `str.lower` is idempotent).
    pub fn reference_tokens(&self, line: &str) -> Vec<String> {
        self.tokens(&self.tokens(line).join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(line: &str, normalized: bool, no_punct: bool, asian_support: bool) -> String {
        TerNormalizer { normalized, no_punct, asian_support }.tokens(line).join(" ")
    }

    #[test]
    fn western_normalization() {
        assert_eq!(
            tok("he's here, 3.5 a.b 1,000 5-6 &amp;lt;", true, false, false),
            "he 's here , 3.5 a . b 1,000 5 - 6 <"
        );
        assert_eq!(tok("x\n-y\nz", true, false, false), "xy z");
    }

    #[test]
    fn punctuation_removal() {
        assert_eq!(tok("a, b. (c)! 「d」", false, true, true), "a b c 「d」".replace(['「', '」'], ""));
        assert_eq!(tok("a, b.", false, false, false), "a, b.");
    }

    #[test]
    fn references_are_tokenized_twice() {
        let normalizer = TerNormalizer { normalized: true, ..Default::default() };
        assert_eq!(normalizer.tokens("0's\r0"), vec!["0's", "0"]);
        assert_eq!(normalizer.reference_tokens("0's\r0"), vec!["0", "'s", "0"]);
    }

    #[test]
    fn asian_split() {
        assert_eq!(tok("我们好。", true, false, true), "我 们 好 。");
        assert_eq!(tok("我们好", true, false, false), "我们好");
    }
}
