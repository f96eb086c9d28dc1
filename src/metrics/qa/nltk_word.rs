//! NLTK 3.10's `NLTKWordTokenizer.tokenize` (nltk/tokenize/destructive.py), which CMRC 2018's
//! evaluation script applies (through `nltk.word_tokenize`) to the non-Chinese runs of an answer.
//! The regex substitutions run in NLTK's order; the two with look-around are hand-written.

use std::sync::OnceLock;

use regex::Regex;

use super::pystr::is_py_word;
use crate::text::pystr::split_tokens;

struct Rules {
    starting: Vec<(Regex, &'static str)>,
    punctuation: Vec<(Regex, &'static str)>,
    parens: Regex,
    double_dashes: Regex,
    ending: Vec<(Regex, &'static str)>,
    contractions: Vec<(Regex, &'static str)>,
}

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let re = |pattern: &str| Regex::new(pattern).expect("valid NLTK rule");
        Rules {
            starting: vec![
                (re(r"([«“‘„]|[`]+)"), " $1 "),
                (re(r#"^""#), "``"),
                (re(r"(``)"), " $1 "),
                (re(r#"([ (\[{<])("|'{2})"#), "$1 `` "),
            ],
            punctuation: vec![
                // NLTK's `*+` is possessive; without it only whitespace placement differs.
                (re(r#"([^.])(\.)([\])}>"'»”’ ]*)\s*$"#), "$1 $2 $3 "),
                (re(r"([:,])([^\d])"), " $1 $2"),
                (re(r"([:,])$"), " $1 "),
                (re(r"\.{2,}"), " $0 "),
                (re(r"[;@#$%&]"), " $0 "),
                (re(r"[\u{2012}-\u{2015}]"), " $0 "),
                (re(r#"([^.])(\.)([\])}>"']*)\s*$"#), "$1 $2$3 "),
                (re(r"[?!]"), " $0 "),
                (re(r"([^'])' "), "$1 ' "),
                (re(r"[*]"), " $0 "),
            ],
            parens: re(r"[\]\[(){}<>]"),
            double_dashes: re(r"--"),
            ending: vec![
                (re(r"([»”’])"), " $1 "),
                (re(r"''"), " '' "),
                (re(r#"""#), " '' "),
                (re(r"\s+"), " "),
                (re(r"([^' ])('[sS]|'[mM]|'[dD]|') "), "$1 $2 "),
                (re(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), "$1 $2 "),
            ],
            contractions: vec![
                (re(r"(?i)\b(can)(not)\b"), " $1 $2 "),
                (re(r"(?i)\b(d)('ye)\b"), " $1 $2 "),
                (re(r"(?i)\b(gim)(me)\b"), " $1 $2 "),
                (re(r"(?i)\b(gon)(na)\b"), " $1 $2 "),
                (re(r"(?i)\b(got)(ta)\b"), " $1 $2 "),
                (re(r"(?i)\b(lem)(me)\b"), " $1 $2 "),
                (re(r"(?i)\b(more)('n)\b"), " $1 $2 "),
                // NLTK: `\b(wan)(na)(?=\s)`; the space is consumed and written back.
                (re(r"(?i)\b(wan)(na)(\s)"), " $1 $2 $3"),
                (re(r"(?i) ('t)(is)\b"), " $1 $2 "),
                (re(r"(?i) ('t)(was)\b"), " $1 $2 "),
            ],
        }
    })
}

/// NLTK: `(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)` → `\1 ` (an opening single quote).
fn split_opening_quotes(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if c != '\'' {
            continue;
        }
        let after_word = i > 0 && is_py_word(chars[i - 1]);
        let next_is_word = chars.get(i + 1).is_some_and(|&n| is_py_word(n));
        if after_word || !next_is_word {
            continue;
        }
        let clitic = ["re", "ve", "ll", "m", "t", "s", "d", "n"].iter().any(|suffix| {
            let n = suffix.len();
            chars.len() >= i + 1 + n
                && chars[i + 1..i + 1 + n].iter().zip(suffix.chars()).all(|(&a, b)| a.to_ascii_lowercase() == b)
                && chars.get(i + 1 + n).is_none_or(|&x| !is_py_word(x))
        });
        if !clitic {
            out.push(' ');
        }
    }
    out
}

/// The tokens `NLTKWordTokenizer().tokenize(text)` returns.
pub fn nltk_word_tokenize(text: &str) -> Vec<String> {
    let rules = rules();
    let mut text = text.to_string();
    for (pattern, replacement) in &rules.starting {
        text = pattern.replace_all(&text, *replacement).into_owned();
    }
    text = split_opening_quotes(&text);
    for (pattern, replacement) in &rules.punctuation {
        text = pattern.replace_all(&text, *replacement).into_owned();
    }
    text = rules.parens.replace_all(&text, " $0 ").into_owned();
    text = rules.double_dashes.replace_all(&text, " -- ").into_owned();
    text = format!(" {text} ");
    for (pattern, replacement) in &rules.ending {
        text = pattern.replace_all(&text, *replacement).into_owned();
    }
    for (pattern, replacement) in &rules.contractions {
        text = pattern.replace_all(&text, *replacement).into_owned();
    }
    split_tokens(&text).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nltk_docstring_example() {
        let text = "Good muffins cost $3.88 (roughly 3,36 euros)\nin New York.  Please buy me\ntwo of them.\nThanks.";
        let expected = [
            "Good", "muffins", "cost", "$", "3.88", "(", "roughly", "3,36", "euros", ")", "in", "New", "York.",
            "Please", "buy", "me", "two", "of", "them.", "Thanks", ".",
        ];
        assert_eq!(nltk_word_tokenize(text), expected);
    }

    #[test]
    fn quotes_and_contractions() {
        assert_eq!(
            nltk_word_tokenize("\"I can't\" 'quote' gonna"),
            ["``", "I", "ca", "n't", "''", "'", "quote", "'", "gon", "na"]
        );
    }
}
