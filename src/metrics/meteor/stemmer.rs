//! The jar's stemmers (`Constants.newStemmer`): Snowball for most languages (with the jar's 2010
//! Snowball behaviour where newer versions differ), the lookup table for Arabic (`ar-bw-red`).

use std::sync::Arc;

use super::lookup_stemmer::LookupStems;
use super::params::Language;

/// The Snowball stemmer the jar uses for a language (`Constants.newStemmer`).
fn snowball(language: Language) -> Option<rust_stemmers::Algorithm> {
    use rust_stemmers::Algorithm as A;
    use Language::*;
    Some(match language {
        English => A::English,
        French => A::French,
        German => A::German,
        Spanish => A::Spanish,
        Portuguese => A::Portuguese,
        Russian => A::Russian,
        Danish => A::Danish,
        Romanian => A::Romanian,
        Hungarian => A::Hungarian,
        Turkish => A::Turkish,
        Finnish => A::Finnish,
        Dutch => A::Dutch,
        Italian => A::Italian,
        Norwegian => A::Norwegian,
        Swedish => A::Swedish,
        Czech | ArabicBuckwalterReduced | Other => return None,
    })
}

/// The jar's stemmer for a language: Snowball (the 2010 versions compiled into meteor-1.5.jar),
/// or for Arabic (`ar-bw-red`) its lookup table.
pub struct MeteorStemmer {
    kind: StemmerKind,
    language: Language,
}

enum StemmerKind {
    Snowball(rust_stemmers::Stemmer),
    Lookup(Arc<LookupStems>),
}

impl MeteorStemmer {
    pub fn stem(&self, word: &str) -> String {
        let stemmer = match &self.kind {
            StemmerKind::Snowball(stemmer) => stemmer,
            StemmerKind::Lookup(table) => return table.stem(word).to_string(),
        };
        let stem = stemmer.stem(word).into_owned();
        // Newer Snowball German turns "-nisse(n)" into "-nis"; the jar's version keeps "-niss".
        if self.language == Language::German && stem.ends_with("nis") {
            let word = word.replace('ß', "ss");
            if ["e", "em", "en", "ern", "er", "es"]
                .iter()
                .any(|ending| word.strip_suffix(ending).is_some_and(|rest| rest.ends_with("niss")))
            {
                return stem + "s";
            }
        }
        stem
    }
}

/// The language's Snowball stemmer, or None when the jar has none (or needs a table: Arabic).
pub fn stemmer_for(language: Language) -> Option<MeteorStemmer> {
    snowball(language).map(|algorithm| MeteorStemmer {
        kind: StemmerKind::Snowball(rust_stemmers::Stemmer::create(algorithm)),
        language,
    })
}

/// The language's stemmer with the lookup table Arabic needs (ignored by the other languages).
pub fn stemmer_with_table(language: Language, table: Option<&Arc<LookupStems>>) -> Option<MeteorStemmer> {
    match (language, table) {
        (Language::ArabicBuckwalterReduced, Some(table)) => {
            Some(MeteorStemmer { kind: StemmerKind::Lookup(table.clone()), language })
        }
        _ => stemmer_for(language),
    }
}
