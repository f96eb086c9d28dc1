//! METEOR 1.5's `-norm` normalizer (a Moses-tokenizer derivative) and the jar's whitespace splitting.
//!
//! Behaviour learned from cmu-mtlab/meteor `src/edu/cmu/meteor/util/Normalizer.java`; regular
//! expressions are rewritten for the `regex` crate with Java's ASCII meanings of `\s` and
//! `\p{Digit}` spelled out. Applied rule by rule in the jar's order, each a left-to-right
//! non-overlapping replacement like Java's `replaceAll`.

use std::sync::OnceLock;

use regex::Regex;
use rustc_hash::FxHashMap;

use super::params::Language;

/// The jar's Latin + Cyrillic letter ranges (`alpha`), and with digits (`alnum`).
const ALPHA: &str = "A-Za-zŠŽšžŸÀ-ÖØ-öø-žЀ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ";
const ALNUM: &str = "0-9A-Za-zŠŽšžŸÀ-ÖØ-öø-žЀ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ";

/// Nonbreaking-prefix kinds (`Constants.NBP_ANY`, `NBP_NUM_ONLY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrefixKind {
    Any,
    NumericOnly,
}

/// A language's nonbreaking prefixes, parsed from the jar's `nonbreaking/<language>.prefixes` lines.
#[derive(Debug, Default, Clone)]
pub struct NonbreakingPrefixes {
    prefixes: FxHashMap<String, PrefixKind>,
}

impl NonbreakingPrefixes {
    /// Parse the raw lines as the jar does: first whitespace token, `#` comments skipped,
    /// `#NUMERIC_ONLY#` as second token marks numeric-only prefixes; later lines win.
    pub fn from_lines<S: AsRef<str>>(lines: &[S]) -> Self {
        let mut prefixes = FxHashMap::default();
        for line in lines {
            let mut tokens = java_tokens(line.as_ref());
            let Some(prefix) = tokens.next() else { continue };
            if prefix.starts_with('#') {
                continue;
            }
            let kind = if tokens.next() == Some("#NUMERIC_ONLY#") { PrefixKind::NumericOnly } else { PrefixKind::Any };
            prefixes.insert(prefix.to_string(), kind);
        }
        NonbreakingPrefixes { prefixes }
    }

    fn get(&self, prefix: &str) -> Option<PrefixKind> {
        self.prefixes.get(prefix).copied()
    }
}

/// Java's `StringTokenizer` default delimiters: space, tab, newline, carriage return, form feed.
pub fn java_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', '\t', '\n', '\r', '\u{c}']).filter(|token| !token.is_empty())
}

/// Java's `String.trim()`: strips every char <= U+0020 from both ends.
fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Java's `String.length()`: UTF-16 code units.
pub fn java_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

struct Rules {
    multi_dot: Regex,
    multi_dot2: Regex,
    comma: Regex,
    comma2: Regex,
    comma3: Regex,
    quote_norm: Regex,
    quote_norm2: Regex,
    rm_dash: Regex,
    cont_en: Regex,
    cont_en2: Regex,
    cont_en3: Regex,
    cont_en4: Regex,
    cont_en5: Regex,
    cont_fr2: Regex,
    punct_strip: Regex,
    has_alpha: Regex,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let re = |pattern: String| Regex::new(&pattern).expect("METEOR normalizer pattern");
        Rules {
            // Java's \s (no UNICODE_CHARACTER_CLASS) is [ \t\n\x0B\f\r].
            multi_dot: re(r"\.(\.+)".into()),
            multi_dot2: re(r"DOTMULTI\.([^.])".into()),
            comma: re(r"([^0-9]),([^0-9])".into()),
            comma2: re(r"([0-9]),([^0-9])".into()),
            comma3: re(r"([^0-9]),([0-9])".into()),
            quote_norm: re("[`‘’]".into()),
            quote_norm2: re("[“”]|''".into()),
            rm_dash: re(format!(r"([{ALNUM}.])-([{ALNUM}])")),
            cont_en: re(format!("([^{ALPHA}])'([^{ALPHA}])")),
            cont_en2: re(format!("([^{ALPHA}0-9])'([{ALPHA}])")),
            cont_en3: re(format!("([{ALPHA}])'([^{ALPHA}])")),
            cont_en4: re(format!("([{ALPHA}])'([{ALPHA}])")),
            cont_en5: re("([0-9])'(s)".into()),
            cont_fr2: re(format!("([^{ALPHA}])'([{ALPHA}])")),
            punct_strip: re(format!("[^{ALNUM}]")),
            has_alpha: re(format!("[{ALPHA}]")),
        }
    })
}

fn replace_all(pattern: &Regex, text: String, replacement: &str) -> String {
    match pattern.replace_all(&text, replacement) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(replaced) => replaced,
    }
}

/// `Normalizer.normalizeLine` for the western languages the jar supports (en, cz, fr, es, de, ru).
pub fn normalize_line(
    line: &str,
    language: Language,
    prefixes: &NonbreakingPrefixes,
    keep_punctuation: bool,
) -> String {
    let r = rules();
    let mut text = format!(" {line} ");
    // Each rule below runs only when the text holds a character its pattern needs (a rule that
    // cannot match leaves the text unchanged), which skips most of them on most lines.
    if text.bytes().any(|b| !is_kept_together(b)) {
        text = separate_other(&text);
    }

    // Escape runs of dots so they survive tokenization whole.
    if text.contains("..") {
        text = replace_all(&r.multi_dot, text, " DOTMULTI${1}");
    }
    while text.contains("DOTMULTI.") {
        text = replace_all(&r.multi_dot2, text, "DOTDOTMULTI ${1}");
        text = text.replace("DOTMULTI.", "DOTDOTMULTI");
    }

    // Commas split except inside numbers.
    if text.contains(',') {
        text = replace_all(&r.comma, text, "${1} , ${2}");
        text = replace_all(&r.comma2, text, "${1} , ${2}");
        text = replace_all(&r.comma3, text, "${1} , ${2}");
    }

    // Quote and dash normalization (the jar's additions to Moses).
    if text.contains(['`', '‘', '’']) {
        text = replace_all(&r.quote_norm, text, "'");
    }
    if text.contains(['“', '”']) || text.contains("''") {
        text = replace_all(&r.quote_norm2, text, " \" ");
    }
    if text.contains('–') {
        text = text.replace('–', "-");
    }
    if text.contains('-') {
        text = text.replace("--", "-");
        text = replace_all(&r.rm_dash, text, "${1} ${2}");
    }

    if text.contains('\'') {
        match language {
            Language::English => {
                text = replace_all(&r.cont_en, text, "${1} ' ${2}");
                text = replace_all(&r.cont_en2, text, "${1} ' ${2}");
                text = replace_all(&r.cont_en3, text, "${1} ' ${2}");
                text = replace_all(&r.cont_en4, text, "${1} '${2}");
                text = replace_all(&r.cont_en5, text, "${1} '${2}");
            }
            Language::French => {
                // The jar's r_cont_fr and r_cont_fr3 equal r_cont_en and r_cont_en3; fr4 equals en4.
                text = replace_all(&r.cont_en, text, "${1} ' ${2}");
                text = replace_all(&r.cont_fr2, text, "${1} ' ${2}");
                text = replace_all(&r.cont_en3, text, "${1} ' ${2}");
                text = replace_all(&r.cont_en4, text, "${1}' ${2}");
            }
            _ => text = text.replace('\'', " ' "),
        }
    }

    // Rebuild the line, splitting final dots unless the word is a nonbreaking prefix.
    let words: Vec<&str> = java_tokens(&text).collect();
    let mut rebuilt = String::with_capacity(text.len() + 8);
    for (index, word) in words.iter().enumerate() {
        let next = words.get(index + 1);
        if java_len(word) > 1 && word.ends_with('.') {
            let prefix = &word[..word.len() - 1];
            let kind = prefixes.get(prefix);
            let next_lower = next.is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
            let next_digit = next.is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()));
            if prefix.contains('.') && r.has_alpha.is_match(prefix) {
                // U.S. -> US: drop the dots of dotted abbreviations.
                rebuilt.push_str(&word.replace('.', ""));
            } else if kind == Some(PrefixKind::Any)
                || next_lower
                || (kind == Some(PrefixKind::NumericOnly) && next_digit)
            {
                rebuilt.push_str(word);
            } else {
                rebuilt.push_str(prefix);
                rebuilt.push_str(" .");
            }
        } else {
            rebuilt.push_str(word);
        }
        rebuilt.push(' ');
    }
    text = rebuilt;

    while text.contains("DOTDOTMULTI") {
        text = text.replace("DOTDOTMULTI", "DOTMULTI.");
    }
    if text.contains("DOTMULTI") {
        text = text.replace("DOTMULTI", ".");
    }

    if !keep_punctuation {
        text = replace_all(&r.punct_strip, text, " ");
    }
    java_trim(&collapse_spaces(&text)).to_string()
}

/// The jar's `alnum` class (its Latin and Cyrillic letter ranges and digits), as in [`ALNUM`].
fn is_jar_alnum(c: char) -> bool {
    matches!(c,
        '0'..='9' | 'A'..='Z' | 'a'..='z' | 'Š' | 'Ž' | 'š' | 'ž' | 'Ÿ' | 'À'..='Ö' | 'Ø'..='ö' | 'ø'..='ž'
        | 'Ѐ'..='ӿ' | 'Ԁ'..='ԧ' | 'Ꙁ'..='ꙮ' | '꙾'..='ꚗ' | 'ᴀ'..='ᵿ')
}

/// The jar's first rule (`r_sep_other`): every character that is not alphanumeric, Java `\s` or
/// one of `.'`,-‘’` gets a space on each side. A per-character map, so a scan does what the
/// regular expression's non-overlapping single-character matches do.
fn separate_other(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_jar_alnum(c)
            || matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '.' | '\'' | '`' | ',' | '-' | '‘' | '’')
        {
            out.push(c);
        } else {
            out.push(' ');
            out.push(c);
            out.push(' ');
        }
    }
    out
}

/// ASCII bytes the first rule (`sep_other`) leaves alone: letters, digits, Java's `\s` and `.'`,-`.
/// Any other byte (other ASCII punctuation, or part of a non-ASCII character) may need a split.
fn is_kept_together(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(byte, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b'.' | b'\'' | b'`' | b',' | b'-')
}

/// The jar's last rule (`r_white`): every run of spaces and Unicode space characters becomes one space.
fn collapse_spaces(text: &str) -> String {
    let is_space =
        |c: char| matches!(c, ' ' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{a0}');
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if is_space(c) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english() -> NonbreakingPrefixes {
        NonbreakingPrefixes::from_lines(&["Mr", "No #NUMERIC_ONLY#", "#comment"])
    }

    #[test]
    fn splits_punctuation_and_contractions() {
        let out = normalize_line(
            "He said: \"I don't know...\" Mr. Smith, 1,000 U.S.-based.",
            Language::English,
            &english(),
            true,
        );
        assert_eq!(out, "He said : \" I don 't know ... \" Mr. Smith , 1,000 US based .");
    }

    #[test]
    fn separating_other_characters_equals_the_jar_pattern() {
        let pattern = Regex::new(&format!(r"([^{ALNUM} \t\n\x0B\x0C\r.'`,\-‘’])")).unwrap();
        let samples = [
            "a:b",
            "(x) \"y\" $5 % é ß ø ž ſ Ω ω ё Ԩ ꙯ ᴀ ᶀ 東京 😀",
            "\u{b}\u{c}\u{a0}\u{2003}–—‘’“”«»",
            "plain text, with. dots-and 'quotes'`",
        ];
        for sample in samples {
            assert_eq!(separate_other(sample), pattern.replace_all(sample, " ${1} "), "{sample:?}");
        }
        for code in (0u32..0x1_0000).chain(0x1F600..0x1F610) {
            if let Some(c) = char::from_u32(code) {
                let text = format!("a{c}b");
                assert_eq!(separate_other(&text), pattern.replace_all(&text, " ${1} "), "U+{code:04X}");
            }
        }
    }

    #[test]
    fn numeric_only_prefix() {
        let p = english();
        assert_eq!(normalize_line("No. 5", Language::English, &p, true), "No. 5");
        assert_eq!(normalize_line("No. More", Language::English, &p, true), "No . More");
    }

    #[test]
    fn strips_punctuation_when_asked() {
        assert_eq!(normalize_line("a, b!", Language::English, &english(), false), "a b");
    }
}
