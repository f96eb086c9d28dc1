//! METEOR targets: normalisation, and the scorer with exact, stem and WordNet synonym modules built from the
//! data files the Python package ships (python/nlgmetrics/data/meteor).

use std::io::Read;
use std::sync::{Arc, OnceLock};

use super::{assert_in_range, text_of, FuzzInput};
use crate::metrics::meteor::normalize::{java_len, java_tokens, normalize_line, NonbreakingPrefixes};
use crate::metrics::meteor::params::{task_tables, Language, Module, Task};
use crate::metrics::meteor::{Formula, Meteor, MeteorOptions, Normalization, SynonymDictionary, TEST_LENGTH};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/python/nlgmetrics/data/meteor/");

/// The strings of one language's array in the shipped JSON files (one string per line, as they are written).
fn json_strings(file: &str, language: &str) -> Vec<String> {
    let text = std::fs::read_to_string(format!("{DATA}{file}")).unwrap();
    let start = text.find(&format!("\"{language}\": [")).unwrap();
    text[start..]
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with(']'))
        .map(|line| {
            let quoted = line.trim_end_matches(',');
            quoted[1..quoted.len() - 1].replace("\\\"", "\"").replace("\\\\", "\\")
        })
        .collect()
}

fn gunzip(file: &str) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(format!("{DATA}{file}")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text
}

fn prefixes() -> &'static (Vec<String>, NonbreakingPrefixes) {
    static PREFIXES: OnceLock<(Vec<String>, NonbreakingPrefixes)> = OnceLock::new();
    PREFIXES.get_or_init(|| {
        let lines = json_strings("nonbreaking-prefixes.json", "english");
        let parsed = NonbreakingPrefixes::from_lines(&lines);
        (lines, parsed)
    })
}

/// English METEOR 1.5 scorers (exact, stem, synonym; no paraphrase table is shipped), one per normalisation,
/// plus the textbook formula.
fn scorers() -> &'static Vec<Meteor> {
    static SCORERS: OnceLock<Vec<Meteor>> = OnceLock::new();
    SCORERS.get_or_init(|| {
        let synonyms = Arc::new(SynonymDictionary::parse(
            &gunzip("wordnet-english.synsets.gz"),
            &gunzip("wordnet-english.exceptions.gz"),
        ));
        let (params, weights) = task_tables(Language::English, Task::Rank);
        let build = |normalization, formula| {
            Meteor::new(MeteorOptions {
                formula,
                language: Language::English,
                modules: vec![Module::Exact, Module::Stem, Module::Synonym],
                weights: weights[..3].to_vec(),
                params,
                normalization,
                char_based: false,
                beam_size: 40,
                max_candidates: crate::metrics::meteor::align::DEFAULT_MAX_CANDIDATES,
                function_words: json_strings("function-words.json", "english"),
                nonbreaking_prefixes: prefixes().0.clone(),
                synonyms: Some(synonyms.clone()),
                paraphrases: None,
                stem_table: None,
            })
            .unwrap()
        };
        vec![
            build(Normalization::Tokenize, Formula::Meteor15),
            build(Normalization::TokenizeNoPunct, Formula::Meteor15),
            build(Normalization::LowerOnly, Formula::Meteor15),
            build(Normalization::None, Formula::Textbook),
        ]
    })
}

/// METEOR's normaliser for every language it has one for, with and without punctuation.
pub fn tok_meteor(data: &[u8]) {
    let line = text_of(data);
    let languages =
        [Language::English, Language::Czech, Language::French, Language::Spanish, Language::German, Language::Russian];
    for language in languages {
        for keep_punctuation in [true, false] {
            let normalized = normalize_line(&line, language, &prefixes().1, keep_punctuation);
            assert_eq!(
                normalized,
                normalize_line(&line, language, &prefixes().1, keep_punctuation),
                "not deterministic"
            );
            assert!(java_tokens(&normalized).all(|t| !t.is_empty()));
        }
    }
    assert!(java_len(&line) >= line.chars().count());
    let _ = scorers()[0].preprocess(&line);
}

/// The scorer: score in [0, 1], statistics consistent, identity, reference-order invariance, batch = single.
pub fn meteor(data: &[u8]) {
    // The jar's alignment search is super-linear (bounded separately, issue 13 item 1): short texts only.
    let input = FuzzInput::decode_capped(data, 4, 400);
    let (hyp, refs) = input.hypothesis_and_references();
    let scorer = &scorers()[input.bits(0, 2)];
    let result = scorer.segment(hyp, &refs).unwrap();
    assert_in_range("METEOR", result.score, 0.0, 1.0, &input);
    assert_eq!(result.stats[TEST_LENGTH] as usize, result.hypothesis_tokens.len(), "METEOR test length on {input:?}");
    let parts = scorer.score(&result.stats);
    // The jar divides by lengths and match counts: NaN parts (as in Java) where one is 0; never out of range.
    for (name, x) in [
        ("precision", parts.precision),
        ("recall", parts.recall),
        ("fmean", parts.fmean),
        ("penalty", parts.frag_penalty),
    ] {
        assert!(x.is_nan() || (0.0..=1.0).contains(&x), "METEOR {name} = {x} on {input:?}");
    }
    let batch = scorer.score_batch(&[hyp], std::slice::from_ref(&refs)).unwrap();
    assert_eq!(
        (batch[0].0, batch[0].1, batch[0].2),
        (result.stats, result.score, result.best_reference),
        "batch vs segment METEOR on {input:?}"
    );
    let reversed: Vec<&str> = refs.iter().rev().copied().collect();
    assert_eq!(
        scorer.segment(hyp, &reversed).unwrap().score,
        result.score,
        "reference order changes METEOR on {input:?}"
    );
    let own = scorer.segment(hyp, &[hyp]).unwrap();
    if !own.hypothesis_tokens.is_empty() && scorer.formula == Formula::Meteor15 {
        assert_eq!(own.score, 1.0, "METEOR of a text against itself on {input:?}");
    }
}
