//! ROUGE tokenizers and stemmers.
//!
//! - `rouge_score`: google-research rouge_score 0.1.2 (`rouge_score/tokenize.py`): Python's
//!   `str.lower()`, every character outside `[a-z0-9]` is a separator, NLTK's Porter stemmer on
//!   tokens longer than 3 characters.
//! - `unicode` (our default): the same tokens on ASCII text, but letters, marks and digits of every
//!   script are kept, and Han / Hiragana / Katakana characters are one token each.

pub mod ids;
pub mod rouge155;

use std::sync::LazyLock;

use regex::Regex;

use crate::error::{Error, Result};

pub use crate::text::porter::porter_stem;
pub use ids::SegmentInterner;

/// Which tokenizer turns a text into ROUGE tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeTokenizer {
    /// rouge_score 0.1.2's ASCII-only tokenizer.
    RougeScore,
    /// Unicode-aware: same tokens as `RougeScore` on ASCII input, meaningful tokens for every script.
    Unicode,
    /// Like `Unicode`, but Han/Kana runs stay whole: for text already segmented into words by
    /// spaces (e.g. by jieba), whose word boundaries it keeps.
    UnicodeWords,
}

impl RougeTokenizer {
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rouge_score" => Ok(Self::RougeScore),
            "unicode" => Ok(Self::Unicode),
            "unicode_words" => Ok(Self::UnicodeWords),
            other => Err(Error::InvalidOption(format!(
                "unknown ROUGE tokenizer {other:?} (expected \"unicode\", \"unicode_words\" or \"rouge_score\")"
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::RougeScore => "rouge_score",
            Self::Unicode => "unicode",
            Self::UnicodeWords => "unicode_words",
        }
    }

    /// The tokens of `text`; with `stem`, NLTK's Porter stemmer on (ASCII) tokens longer than 3.
    pub fn tokenize(&self, text: &str, stem: bool) -> Vec<String> {
        let mut tokens = match self {
            Self::RougeScore => rouge_score_tokens(text),
            Self::Unicode => unicode_tokens(text, &UNICODE_TOKEN),
            Self::UnicodeWords => unicode_tokens(text, &UNICODE_WORD),
        };
        if stem {
            for token in tokens.iter_mut() {
                // rouge_score stems only words longer than 3 characters (`tokenize.py`).
                if token.len() > 3 && token.is_ascii() {
                    *token = cached_porter_stem(token);
                }
            }
            // rouge_score drops tokens that no longer match `^[a-z0-9]+$` (never happens for Porter output).
            tokens.retain(|token| !token.is_empty());
        }
        tokens
    }

    /// The pattern that finds tokens in lowercased text (`None` for rouge_score's tokenizer).
    pub(crate) fn unicode_pattern(&self) -> Option<&'static Regex> {
        match self {
            Self::RougeScore => None,
            Self::Unicode => Some(&UNICODE_TOKEN),
            Self::UnicodeWords => Some(&UNICODE_WORD),
        }
    }

    /// Calls `f(text, start, end)` for each unstemmed token, in order: the token is
    /// `text[start..end]` of the `text` passed to `f` (the lowercased input, or the token itself).
    /// The same tokens as `tokenize(text, false)`, without a string per token.
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(&str, usize, usize)) {
        let Some(pattern) = self.unicode_pattern() else {
            for token in rouge_score_tokens(text) {
                f(&token, 0, token.len());
            }
            return;
        };
        let lower = text.to_lowercase();
        for m in pattern.find_iter(&lower) {
            f(&lower, m.start(), m.end());
        }
    }
}

/// A word of at most 16 bytes (no NUL) packed into an integer: a cache key compared without
/// following a pointer.
fn pack(word: &[u8]) -> Option<u128> {
    if word.len() > 16 || word.contains(&0) {
        return None;
    }
    let mut bytes = [0u8; 16];
    bytes[..word.len()].copy_from_slice(word);
    Some(u128::from_le_bytes(bytes))
}

fn unpack(packed: u128, out: &mut String) {
    for byte in packed.to_le_bytes() {
        if byte == 0 {
            break;
        }
        out.push(byte as char);
    }
}

thread_local! {
    /// Per-thread memo of Porter stems of short ASCII words (a corpus repeats its words).
    static STEM_CACHE: std::cell::RefCell<rustc_hash::FxHashMap<u128, u128>> = Default::default();
}

/// Bound on the memo so a stream of distinct words cannot grow it without limit.
const STEM_CACHE_LIMIT: usize = 1 << 20;

/// `porter_stem`, memoised for ASCII words of up to 16 bytes (Porter stems are never longer).
fn cached_porter_stem(word: &str) -> String {
    let Some(key) = pack(word.as_bytes()) else {
        return porter_stem(word);
    };
    STEM_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let mut out = String::with_capacity(word.len());
        if let Some(&stem) = cache.get(&key) {
            unpack(stem, &mut out);
            return out;
        }
        let stem = porter_stem(word);
        if let Some(packed) = pack(stem.as_bytes()) {
            if cache.len() >= STEM_CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, packed);
        }
        stem
    })
}

/// rouge_score's tokens: runs of `[a-z0-9]` in `text.lower()`.
///
/// Python's `str.lower()` maps exactly two non-ASCII characters to ASCII letters: U+212A KELVIN
/// SIGN → "k", and U+0130 (İ) → "i" + U+0307 (a combining mark, hence a separator after the "i").
fn rouge_score_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        match c {
            'a'..='z' | '0'..='9' => current.push(c),
            'A'..='Z' => current.push(c.to_ascii_lowercase()),
            '\u{212A}' => current.push('k'),
            '\u{130}' => {
                current.push('i');
                tokens.push(std::mem::take(&mut current));
            }
            _ => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

/// One Han, Hiragana or Katakana character, or a run of letters / marks / digits of other scripts.
static UNICODE_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\p{Han}\p{Hiragana}\p{Katakana}]|[[\p{L}\p{M}\p{N}]--[\p{Han}\p{Hiragana}\p{Katakana}]]+")
        .expect("valid regex")
});

/// A run of letters / marks / digits of any script (Han included): words of pre-segmented text.
static UNICODE_WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[\p{L}\p{M}\p{N}]+").expect("valid regex"));

fn unicode_tokens(text: &str, pattern: &Regex) -> Vec<String> {
    let lower = text.to_lowercase();
    pattern.find_iter(&lower).map(|m| m.as_str().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rouge_score_drops_non_ascii_and_lowercases() {
        let tokens = RougeTokenizer::RougeScore.tokenize("The cat's café, 42!", false);
        assert_eq!(tokens, vec!["the", "cat", "s", "caf", "42"]);
        assert_eq!(RougeTokenizer::RougeScore.tokenize("İstanbul \u{212A}m", false), vec!["i", "stanbul", "km"]);
    }

    #[test]
    fn unicode_keeps_every_script_and_splits_cjk() {
        let tokens = RougeTokenizer::Unicode.tokenize("Straße 北京大学 Привет, मैं", false);
        assert_eq!(tokens, vec!["straße", "北", "京", "大", "学", "привет", "मैं"]);
    }

    #[test]
    fn unicode_words_keeps_segmented_han_words() {
        let tokens = RougeTokenizer::UnicodeWords.tokenize("北京 大学 的 Students", false);
        assert_eq!(tokens, vec!["北京", "大学", "的", "students"]);
    }

    #[test]
    fn unicode_equals_rouge_score_on_ascii() {
        let text = "The quick-brown FOX jumped over 2 lazy dogs; it's running!";
        for stem in [false, true] {
            assert_eq!(RougeTokenizer::Unicode.tokenize(text, stem), RougeTokenizer::RougeScore.tokenize(text, stem));
        }
    }

    #[test]
    fn stems_only_long_tokens() {
        assert_eq!(RougeTokenizer::RougeScore.tokenize("dies cats ran", true), vec!["die", "cat", "ran"]);
        assert_eq!(RougeTokenizer::RougeScore.tokenize("was has", true), vec!["was", "has"]);
    }
}
