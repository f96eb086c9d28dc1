//! Expected strings below were produced by sacreBLEU 2.6.0's tokenizer classes (the reference), not by us.

use super::*;
use crate::text::pystr::{is_python_whitespace, python_strip, split_tokens};

fn check(name: &str, cases: &[(&str, &str)]) {
    let tokenizer = BleuTokenizer::from_name(name).unwrap();
    for (line, expected) in cases {
        assert_eq!(tokenizer.tokenize(line), *expected, "{name} on {line:?}");
    }
}

#[test]
fn thirteen_a_matches_sacrebleu() {
    check(
        "13a",
        &[
            ("Hello, world. It's 3.14 or 1,000-2,000!", "Hello , world . It's 3.14 or 1,000 - 2,000 !"),
            ("a&amp;quot;b &lt;tag&gt; &quot;x&quot;", "a & quot ; b < tag > \" x \""),
            ("x<skipped>y co-\nop\nnext", "xy coop next"),
            (".5 5. ,a a,", ". 5 5 . , a a ,"),
            ("e-mail 12-3 (a) [b] {c} $5 100%", "e-mail 12 - 3 ( a ) [ b ] { c } $ 5 100 %"),
            ("  \t\u{1c} x\u{3000}y\u{200b}z  ", "x y\u{200b}z"),
            ("a...b,,c--d", "a . . . b , , c--d"),
            ("", ""),
        ],
    );
}

#[test]
fn intl_matches_sacrebleu() {
    check(
        "intl",
        &[
            ("Hello, world. It's 3.14 or 1,000!", "Hello , world . It ' s 3.14 or 1,000!"),
            ("价格是1,000元。“好”", "价格是1,000元 。 “ 好 ”"),
            ("a+b=c $5 ©2020 ½", "a + b = c $ 5 © 2020 ½"),
            ("1.2.3 a.1 1.a", "1.2.3 a . 1 1 . a"),
            ("¿Qué? ¡Sí!", "¿ Qué ? ¡ Sí !"),
            ("\u{2028}x\u{85}y", "x y"),
        ],
    );
}

#[test]
fn zh_matches_sacrebleu_including_issue_298() {
    check(
        "zh",
        &[
            ("我爱北京天安门。", "我 爱 北 京 天 安 门 。"),
            ("  hello，世界 ", "hello ， 世 界"),
            ("a—b“c”d…e", "a — b “ c ” d … e"),
            ("\u{20000}x\u{2F800}", "\u{20000}x\u{2F800}"),
            ("3.5元, ok.", "3.5 元 , ok ."),
        ],
    );
}

#[test]
fn zh_fixed_uses_intended_ranges() {
    let fixed = BleuTokenizer::ZhFixed;
    assert_eq!(fixed.tokenize("\u{20000}x\u{2F800}"), "\u{20000} x \u{2F800}");
    assert_eq!(fixed.tokenize("a—b"), "a—b");
    assert!(is_chinese_char_sacrebleu('\u{2001}') && !is_chinese_char_sacrebleu('\u{2000}'));
    assert!(is_chinese_char_sacrebleu('\u{2A6D}') && !is_chinese_char_sacrebleu('\u{2A6E}'));
    assert!(!is_chinese_char_sacrebleu('\u{20000}') && is_chinese_char_fixed('\u{2A6D6}'));
    assert!(!is_chinese_char_fixed('\u{2A6D7}') && is_chinese_char_fixed('\u{2FA1D}'));
}

#[test]
fn char_and_none_match_sacrebleu() {
    check("char", &[("a b  c", "a   b     c"), ("", ""), ("汉字 x", "汉 字   x")]);
    check("none", &[("  a  b ", "  a  b ")]);
}

#[test]
fn python_whitespace_set() {
    // Python: [c for c in map(chr, range(0x110000)) if c.isspace()]
    let expected: Vec<u32> = vec![
        0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
        0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ];
    let found: Vec<u32> =
        (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&c| is_python_whitespace(c)).map(|c| c as u32).collect();
    assert_eq!(found, expected);
    let tokens: Vec<&str> = split_tokens("\u{1c}a\u{85}b\u{200b}c  \u{3000}").collect();
    assert_eq!(tokens, ["a", "b\u{200b}c"]);
    assert_eq!(split_tokens("").count(), 0);
    assert_eq!(python_strip("\u{1f} x \u{2029}"), "x");
}

#[test]
fn categories_follow_the_regex_module() {
    assert_eq!(category('5'), Category::Number);
    assert_eq!(category('٣'), Category::Number);
    assert_eq!(category('½'), Category::Number);
    assert_eq!(category(','), Category::Punctuation);
    assert_eq!(category('。'), Category::Punctuation);
    assert_eq!(category('$'), Category::Symbol);
    assert_eq!(category('a'), Category::Other);
    assert_eq!(category('\u{10FFFF}'), Category::Other);
    // Added after Unicode 14 (CPython 3.11's unicodedata), yet \p{N} for the regex module.
    assert_eq!(category('\u{11F50}'), Category::Number);
}

#[test]
fn unknown_name_lists_valid_names() {
    let error = BleuTokenizer::from_name("14a").unwrap_err().to_string();
    assert!(error.contains("14a") && error.contains("13a, intl, zh, zh-fixed, char"), "{error}");
    for tokenizer in BleuTokenizer::ALL {
        assert_eq!(BleuTokenizer::from_name(tokenizer.name()).unwrap(), tokenizer);
    }
}

#[test]
fn tokenize_into_appends_and_for_each_token_splits() {
    let mut out = String::from("x ");
    BleuTokenizer::Thirteen.tokenize_into("a,b", &mut out);
    assert_eq!(out, "x a , b");
    let mut buffer = String::new();
    let mut tokens = Vec::new();
    BleuTokenizer::Char.for_each_token("ab c", &mut buffer, |t| tokens.push(t.to_string()));
    assert_eq!(tokens, ["a", "b", "c"]);
}

#[test]
fn long_lines_do_not_overflow() {
    let line = "a,b.c-1-2 ".repeat(200_000);
    let out = BleuTokenizer::Thirteen.tokenize(&line);
    assert_eq!(split_tokens(&out).count(), 200_000 * 7); // a , b . c-1 - 2
    let out = BleuTokenizer::Intl.tokenize(&line);
    assert!(out.len() > line.len());
}

/// A small deterministic generator (no test-only dependency): xorshift64*.
struct Lines(u64);

impl Lines {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// A line of up to 24 chars drawn mostly from the chars the tokenizers decide on.
    fn line(&mut self) -> String {
        const ALPHABET: &[char] = &[
            '.',
            ',',
            '-',
            '.',
            ',',
            '-',
            '0',
            '7',
            '9',
            'a',
            'Z',
            ' ',
            ' ',
            '\t',
            '\n',
            '\'',
            '(',
            '$',
            '&',
            ';',
            '/',
            '~',
            '@',
            '`',
            '\u{7f}',
            '\u{0}',
            '\u{1c}',
            '\u{85}',
            '\u{a0}',
            '\u{2000}',
            '\u{2001}',
            '\u{2028}',
            '\u{3000}',
            '\u{200b}',
            'é',
            '中',
            '。',
            '—',
            '“',
            '…',
            '\u{2a6d}',
            '\u{2a6e}',
            '\u{20000}',
            '\u{2f800}',
            '٣',
            '½',
            '\u{ff0c}',
            '\u{1f600}',
        ];
        let length = (self.next_u64() % 25) as usize;
        (0..length).map(|_| ALPHABET[(self.next_u64() % ALPHABET.len() as u64) as usize]).collect()
    }
}

#[test]
fn word_split_equals_literal_regex_passes_13a_zh_intl() {
    let mut lines = Lines(0x9E3779B97F4A7C15);
    for _ in 0..60_000 {
        let line = lines.line();
        let mut literal = String::new();
        let padded = format!(" {line} ");
        tok_13a::regexp_post_tokenize(padded.bytes(), &mut literal);
        let mut fast = String::new();
        tok_13a::tokenize_words(&line, true, None, &mut fast);
        assert_eq!(fast, literal, "13a passes on {line:?}");
        let (mut literal, mut fast) = (String::new(), String::new());
        intl::tokenize_intl_literal(&line, &mut literal);
        intl::tokenize_intl(&line, &mut fast);
        assert_eq!(fast, literal, "intl on {line:?}");
        for fixed in [false, true] {
            let (mut literal, mut fast) = (String::new(), String::new());
            zh::tokenize_zh_literal(&line, fixed, &mut literal);
            zh::tokenize_zh(&line, fixed, &mut fast);
            assert_eq!(fast, literal, "zh (fixed: {fixed}) on {line:?}");
        }
    }
}

#[test]
fn split_tokens_matches_char_level_split() {
    let mut lines = Lines(42);
    for _ in 0..50_000 {
        let line = lines.line();
        let expected: Vec<&str> = line.split(is_python_whitespace).filter(|t| !t.is_empty()).collect();
        assert_eq!(split_tokens(&line).collect::<Vec<_>>(), expected, "{line:?}");
    }
    // Whitespace (and non-whitespace bytes that flag the eight-byte scan) at every offset of long words.
    for separator in
        ["\u{85}", "\u{a0}", "\u{3000}", "\u{2009}", "\u{1c}", "\t", " ", "ä", "\u{1}", "\u{2010}", "\u{e100}"]
    {
        for offset in 0..20 {
            let line = format!("{}{separator}{}x\u{c2}\u{a1}y{separator}", "a".repeat(offset), "b".repeat(19 - offset));
            let expected: Vec<&str> = line.split(is_python_whitespace).filter(|t| !t.is_empty()).collect();
            assert_eq!(split_tokens(&line).collect::<Vec<_>>(), expected, "{line:?}");
        }
    }
}
