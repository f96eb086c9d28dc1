//! Answer normalisers of the official QA evaluation scripts: SQuAD (v1.1/v2.0 `normalize_answer`),
//! MLQA (`mlqa_evaluation_v1.py`, per-language articles and Unicode punctuation) and CMRC 2018
//! (`cmrc2018_evaluate.py`, mixed Chinese/Latin segmentation).
//!
//! Character classes come from CPython's tables (`tables.rs`, through `pystr.rs`), so `\b`,
//! `str.split()` and the punctuation sets agree with the scripts on every Unicode input.

use super::pystr::is_py_word;
use super::tables::UNICODE_PUNCT;
use crate::error::{Error, Result};
use crate::text::pystr::{python_strip, split_tokens};
use crate::text::ranges::contains as in_ranges;

/// MLQA's punctuation: Unicode general category P* plus ASCII `string.punctuation`.
pub fn is_unicode_punct(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    in_ranges(UNICODE_PUNCT, c)
}

/// `re.sub(r'\b(w1|w2|…)\b', ' ', text)` for alternatives made only of word characters.
fn replace_bounded_words(text: &str, words: &[&str]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev_is_word = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if !prev_is_word && is_py_word(c) {
            // Alternatives are tried in order; at most one can end on a boundary, so order is moot.
            let matched = words.iter().find(|word| {
                rest.starts_with(**word) && rest[word.len()..].chars().next().is_none_or(|next| !is_py_word(next))
            });
            if let Some(word) = matched {
                out.push(' ');
                rest = &rest[word.len()..];
                // The matched word ends with a word character.
                prev_is_word = true;
                continue;
            }
        }
        out.push(c);
        prev_is_word = is_py_word(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn join_tokens<'a, I: Iterator<Item = &'a str>>(tokens: I) -> String {
    let mut out = String::new();
    for token in tokens {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(token);
    }
    out
}

/// SQuAD's `normalize_answer` (evaluate-v1.1.py and evaluate-v2.0.py are identical here):
/// lower, drop `string.punctuation`, replace `\b(a|an|the)\b` by a space, collapse whitespace.
pub fn normalize_squad(text: &str) -> String {
    let lowered = text.to_lowercase();
    let no_punct: String = lowered.chars().filter(|c| !c.is_ascii_punctuation()).collect();
    let no_articles = replace_bounded_words(&no_punct, &["a", "an", "the"]);
    join_tokens(split_tokens(&no_articles))
}

/// The languages of MLQA's evaluation script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MlqaLanguage {
    En,
    Es,
    Hi,
    Vi,
    De,
    Ar,
    Zh,
}

impl MlqaLanguage {
    pub fn parse(code: &str) -> Result<Self> {
        Ok(match code {
            "en" => Self::En,
            "es" => Self::Es,
            "hi" => Self::Hi,
            "vi" => Self::Vi,
            "de" => Self::De,
            "ar" => Self::Ar,
            "zh" => Self::Zh,
            other => {
                return Err(Error::InvalidOption(format!(
                    "unknown MLQA language {other:?}; expected one of en, es, hi, vi, de, ar, zh"
                )))
            }
        })
    }
}

/// The CJK range MLQA and CMRC segment character by character (`[\u4e00-\u9fa5]`).
fn is_cjk_segment_char(c: char) -> bool {
    ('\u{4e00}'..='\u{9fa5}').contains(&c)
}

/// MLQA's `mixed_segmentation`: CJK characters (and punctuation) alone, other runs split on whitespace.
fn mlqa_mixed_segmentation(text: &str) -> Vec<&str> {
    let mut segments = Vec::new();
    let mut run_start = 0;
    for (index, c) in text.char_indices() {
        if is_cjk_segment_char(c) || is_unicode_punct(c) {
            segments.extend(split_tokens(&text[run_start..index]));
            segments.push(&text[index..index + c.len_utf8()]);
            run_start = index + c.len_utf8();
        }
    }
    segments.extend(split_tokens(&text[run_start..]));
    segments
}

/// MLQA's `normalize_answer(s, lang)` (mlqa_evaluation_v1.py).
pub fn normalize_mlqa(text: &str, language: MlqaLanguage) -> String {
    let lowered = text.to_lowercase();
    let no_punct: String = lowered.chars().filter(|&c| !is_unicode_punct(c)).collect();
    let no_articles = match language {
        MlqaLanguage::En => replace_bounded_words(&no_punct, &["a", "an", "the"]),
        MlqaLanguage::Es => replace_bounded_words(&no_punct, &["un", "una", "unos", "unas", "el", "la", "los", "las"]),
        MlqaLanguage::Vi => replace_bounded_words(&no_punct, &["của", "là", "cái", "chiếc", "những"]),
        MlqaLanguage::De => replace_bounded_words(
            &no_punct,
            &["ein", "eine", "einen", "einem", "eines", "einer", "der", "die", "das", "den", "dem", "des"],
        ),
        // The script's pattern `\sال^|ال` can only ever match its second branch.
        MlqaLanguage::Ar => no_punct.replace("ال", " "),
        MlqaLanguage::Hi | MlqaLanguage::Zh => no_punct,
    };
    match language {
        MlqaLanguage::Zh => join_tokens(
            mlqa_mixed_segmentation(&no_articles).into_iter().filter(|token| !python_strip(token).is_empty()),
        ),
        _ => join_tokens(split_tokens(&no_articles)),
    }
}

/// CMRC 2018's punctuation list (`sp_char`); its two-character entry `……` can never match a character.
fn is_cmrc_punct(c: char) -> bool {
    matches!(
        c,
        '-' | ':'
            | '_'
            | '*'
            | '^'
            | '/'
            | '\\'
            | '~'
            | '`'
            | '+'
            | '='
            | '，'
            | '。'
            | '：'
            | '？'
            | '！'
            | '“'
            | '”'
            | '；'
            | '’'
            | '《'
            | '》'
            | '·'
            | '、'
            | '「'
            | '」'
            | '（'
            | '）'
            | '－'
            | '～'
            | '『'
            | '』'
    )
}

/// CMRC 2018's `remove_punctuation`: lower, strip, drop `sp_char` (its exact-match normaliser).
pub fn normalize_cmrc(text: &str) -> String {
    let lowered = text.to_lowercase();
    python_strip(&lowered).chars().filter(|&c| !is_cmrc_punct(c)).collect()
}

/// `nltk.word_tokenize` on one run: NLTK's word tokenizer (its punkt sentence splitting is not
/// reproduced; answers are single sentences).
fn word_tokenize(run: &str, out: &mut Vec<String>) {
    out.extend(super::nltk_word::nltk_word_tokenize(run));
}

/// CMRC 2018's `mixed_segmentation(text, rm_punc=True)`: CJK characters one by one, other runs as
/// words (NLTK's word tokenizer), `sp_char` removed.
pub fn segment_cmrc(text: &str) -> Vec<String> {
    let lowered = text.to_lowercase();
    let mut segments = Vec::new();
    let mut run = String::new();
    for c in python_strip(&lowered).chars() {
        if is_cmrc_punct(c) {
            continue;
        }
        if is_cjk_segment_char(c) {
            if !run.is_empty() {
                word_tokenize(&run, &mut segments);
                run.clear();
            }
            segments.push(c.to_string());
        } else {
            run.push(c);
        }
    }
    if !run.is_empty() {
        word_tokenize(&run, &mut segments);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squad_normalisation_matches_the_script() {
        assert_eq!(normalize_squad("The  Cat's \"hat\"!"), "cats hat");
        assert_eq!(normalize_squad("an apple, a theory; the end"), "apple theory end");
        assert_eq!(normalize_squad("Athens and the-an"), "athens and thean");
        assert_eq!(normalize_squad("   "), "");
        assert_eq!(normalize_squad("a\u{1c}b"), "b");
    }

    #[test]
    fn articles_need_word_boundaries() {
        // `é` is a word character, so "aé" is not an article.
        assert_eq!(normalize_squad("aé a_ _a a1"), "aé a1");
        assert_eq!(replace_bounded_words("a_ _a", &["a"]), "a_ _a");
        assert_eq!(replace_bounded_words("theater the", &["a", "an", "the"]), "theater  ");
    }

    #[test]
    fn mlqa_languages() {
        assert_eq!(normalize_mlqa("Die Katze, der Hund.", MlqaLanguage::De), "katze hund");
        assert_eq!(normalize_mlqa("¿Las casas?", MlqaLanguage::Es), "casas");
        assert_eq!(normalize_mlqa("北京大学2008年", MlqaLanguage::Zh), "北 京 大 学 2008 年");
        assert_eq!(normalize_mlqa("الكتاب", MlqaLanguage::Ar), "كتاب");
        assert!(MlqaLanguage::parse("xx").is_err());
    }

    #[test]
    fn cmrc_segmentation() {
        assert_eq!(segment_cmrc("《北京》 iPhone 6s，"), vec!["北", "京", "iphone", "6s"]);
        assert_eq!(normalize_cmrc(" 「北京」 "), "北京");
    }
}
