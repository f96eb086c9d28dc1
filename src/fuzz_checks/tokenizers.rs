//! Tokenizer targets: one text in, every variant of the tokenizer run on it.

use std::collections::HashMap;

use super::text_of;
use crate::metrics::qa::nltk_word::nltk_word_tokenize;
use crate::metrics::qa::normalize::{normalize_cmrc, normalize_mlqa, normalize_squad, segment_cmrc};
use crate::metrics::qa::MlqaLanguage;
use crate::metrics::ter::TerNormalizer;
use crate::text::porter::porter_stem;
use crate::text::ptb::{coco_tokenize, coco_tokenize_lines, ptb_tokens};
use crate::text::pystr::{is_python_whitespace, split_tokens};
use crate::text::rouge::rouge155::{
    morph_stem, porter155, read_text_lcs_sentences, read_text_tokens, Rouge155TextOptions,
};
use crate::text::rouge::{RougeTokenizer, SegmentInterner};
use crate::text::sacrebleu::{intl, tok_13a, zh, BleuTokenizer};

/// Checks what every space-joined sacreBLEU tokenizer promises, then returns the output.
fn space_joined_output(tokenizer: BleuTokenizer, line: &str) -> String {
    let out = tokenizer.tokenize(line);
    // Two bulk writers build the String through `as_mut_vec`: the bytes must still be UTF-8.
    assert!(std::str::from_utf8(out.as_bytes()).is_ok(), "{} wrote invalid UTF-8 on {line:?}", tokenizer.name());
    assert_eq!(out, tokenizer.tokenize(line), "{} not deterministic on {line:?}", tokenizer.name());
    if !out.is_empty() {
        for token in out.split(' ') {
            assert!(
                !token.is_empty() && !token.chars().any(is_python_whitespace),
                "{} output {out:?} is not ' '.join(split()) on {line:?}",
                tokenizer.name()
            );
        }
    }
    let mut buffer = String::new();
    let mut tokens = Vec::new();
    tokenizer.for_each_token(line, &mut buffer, |token| tokens.push(token.to_string()));
    assert_eq!(tokens, split_tokens(&out).collect::<Vec<_>>(), "{} for_each_token on {line:?}", tokenizer.name());
    out
}

/// sacreBLEU `Tokenizer13a.__call__`'s replacements before its regexes, written literally.
fn sacrebleu_13a_unescape(line: &str) -> String {
    let mut text = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
    if text.contains('&') {
        text = text.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    }
    text
}

/// `13a`: equal to the literal sacreBLEU pass chain.
pub fn tok_13a(data: &[u8]) {
    let line = text_of(data);
    let fast = space_joined_output(BleuTokenizer::Thirteen, &line);
    let mut literal = String::new();
    tok_13a::regexp_post_tokenize(format!(" {} ", sacrebleu_13a_unescape(&line)).bytes(), &mut literal);
    assert_eq!(fast, literal, "13a differs from the literal passes on {line:?}");
}

/// `intl`: equal to the literal pass chain.
pub fn tok_intl(data: &[u8]) {
    let line = text_of(data);
    let fast = space_joined_output(BleuTokenizer::Intl, &line);
    let mut literal = String::new();
    intl::tokenize_intl_literal(&line, &mut literal);
    assert_eq!(fast, literal, "intl differs from the literal passes on {line:?}");
}

/// `zh` and `zh-fixed`: equal to the literal pass chain.
pub fn tok_zh(data: &[u8]) {
    let line = text_of(data);
    for (tokenizer, fixed) in [(BleuTokenizer::Zh, false), (BleuTokenizer::ZhFixed, true)] {
        let fast = space_joined_output(tokenizer, &line);
        let mut literal = String::new();
        zh::tokenize_zh_literal(&line, fixed, &mut literal);
        assert_eq!(fast, literal, "{} differs from the literal passes on {line:?}", tokenizer.name());
    }
}

/// `char` (`" ".join(line)`) and `none`.
pub fn tok_char(data: &[u8]) {
    let line = text_of(data);
    let expected: Vec<String> = line.chars().map(String::from).collect();
    assert_eq!(BleuTokenizer::Char.tokenize(&line), expected.join(" "), "char on {line:?}");
    assert_eq!(BleuTokenizer::None.tokenize(&line), line, "none on {line:?}");
}

/// PTB (pycocoevalcap): deterministic, no empty token, the batch equal to line by line.
pub fn tok_ptb(data: &[u8]) {
    let text = text_of(data);
    let lines: Vec<&str> = text.split('\n').collect();
    let batch = coco_tokenize_lines(&lines);
    assert_eq!(batch.len(), lines.len());
    for (k, line) in lines.iter().enumerate() {
        let following = &lines[k + 1..];
        let tokens = ptb_tokens(line, following);
        assert!(tokens.iter().all(|t| !t.is_empty()), "empty PTB token in {tokens:?} of {line:?}");
        assert_eq!(tokens, ptb_tokens(line, following), "PTB not deterministic on {line:?}");
        assert_eq!(batch[k], coco_tokenize(line, following), "batch vs single PTB on {line:?}");
        // Tokens joined by single spaces (a token may hold other whitespace, e.g. U+000B, as the Java lexer's do).
        assert!(
            !batch[k].contains("  ") && batch[k].trim_matches(' ') == batch[k],
            "coco caption {:?} of {line:?}",
            batch[k]
        );
    }
}

/// ROUGE tokenizers: tokens non-empty without whitespace; the interner's ids equal the tokens.
pub fn tok_rouge(data: &[u8]) {
    let text = text_of(data);
    for tokenizer in [RougeTokenizer::RougeScore, RougeTokenizer::Unicode, RougeTokenizer::UnicodeWords] {
        for stem in [false, true] {
            let tokens = tokenizer.tokenize(&text, stem);
            assert_eq!(tokens, tokenizer.tokenize(&text, stem), "not deterministic");
            for token in &tokens {
                assert!(
                    !token.is_empty() && !token.chars().any(char::is_whitespace),
                    "{:?} token {token:?} of {text:?}",
                    tokenizer.name()
                );
            }
            // The interner (packed short keys, per-segment ids) must give equal ids exactly to equal tokens.
            let mut interner = SegmentInterner::new(stem);
            for _round in 0..2 {
                interner.begin_segment();
                let (mut ids, mut line_ids, mut ends) = (Vec::new(), Vec::new(), Vec::new());
                interner.push_ids(tokenizer, &text, &mut ids);
                interner.begin_segment();
                interner.push_ids_by_line(tokenizer, &text, &mut line_ids, Some(&mut ends));
                assert_eq!(ids, line_ids, "{:?} ids by line on {text:?}", tokenizer.name());
                assert_eq!(ends.len(), text.split('\n').count());
                assert_eq!(ends.last().copied(), Some(ids.len()));
                assert_eq!(ids.len(), tokens.len(), "{:?} (stem {stem}) id count on {text:?}", tokenizer.name());
                let mut by_id: HashMap<u32, &str> = HashMap::new();
                let mut by_token: HashMap<&str, u32> = HashMap::new();
                for (id, token) in ids.iter().zip(&tokens) {
                    assert_eq!(
                        *by_id.entry(*id).or_insert(token),
                        token.as_str(),
                        "{:?}: one id, two tokens in {text:?}",
                        tokenizer.name()
                    );
                    assert_eq!(
                        *by_token.entry(token).or_insert(*id),
                        *id,
                        "{:?}: one token, two ids in {text:?}",
                        tokenizer.name()
                    );
                }
            }
        }
    }
    for word in text.split_whitespace().take(64) {
        let stem = porter_stem(word);
        assert_eq!(stem, porter_stem(word));
    }
}

/// ROUGE-1.5.5's text reading and stemmers under every option.
pub fn tok_rouge155(data: &[u8]) {
    let text = text_of(data);
    for bits in 0..16u8 {
        let options = Rouge155TextOptions {
            stem: bits & 1 != 0,
            wordnet_exceptions: bits & 2 != 0,
            remove_stopwords: bits & 4 != 0,
            word_limit: if bits & 8 != 0 { 1 + data.len() % 7 } else { 0 },
            byte_limit: if bits & 8 != 0 && data.len().is_multiple_of(2) { 1 + data.len() % 13 } else { 0 },
        };
        let tokens = read_text_tokens(&text, &options);
        let sentences = read_text_lcs_sentences(&text, &options);
        assert_eq!(tokens, read_text_tokens(&text, &options));
        assert!(tokens.iter().chain(sentences.iter().flatten()).all(|t| !t.is_empty()), "empty token from {text:?}");
    }
    for word in text.split_whitespace().take(64) {
        let _ = (porter155(word), morph_stem(word, true), morph_stem(word, false));
    }
}

/// tercom's normalizer under all 8 option combinations.
pub fn tok_ter(data: &[u8]) {
    let line = text_of(data);
    for bits in 0..8u8 {
        let normalizer =
            TerNormalizer { normalized: bits & 1 != 0, no_punct: bits & 2 != 0, asian_support: bits & 4 != 0 };
        let tokens = normalizer.tokens(&line);
        assert!(tokens.iter().all(|t| !t.is_empty() && !t.chars().any(is_python_whitespace)), "TER tokens {tokens:?}");
        assert_eq!(tokens, normalizer.tokens(&line));
        let _ = normalizer.reference_tokens(&line);
    }
}

/// QA answer normalisers (SQuAD, MLQA in every language, CMRC) and NLTK's word tokenizer.
pub fn tok_qa(data: &[u8]) {
    let text = text_of(data);
    let squad = normalize_squad(&text);
    assert!(!squad.contains("  ") && squad.trim() == squad, "SQuAD normalised {squad:?} of {text:?}");
    for language in [
        MlqaLanguage::En,
        MlqaLanguage::Es,
        MlqaLanguage::Hi,
        MlqaLanguage::Vi,
        MlqaLanguage::De,
        MlqaLanguage::Ar,
        MlqaLanguage::Zh,
    ] {
        let _ = normalize_mlqa(&text, language);
    }
    let _ = normalize_cmrc(&text);
    assert!(segment_cmrc(&text).iter().all(|s| !s.is_empty()), "empty CMRC segment of {text:?}");
    let words = nltk_word_tokenize(&text);
    assert!(words.iter().all(|w| !w.is_empty()), "empty NLTK token in {words:?} of {text:?}");
}
