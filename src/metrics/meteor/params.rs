//! METEOR 1.5's languages, tasks, default modules, parameters (α β γ δ) and module weights.
//!
//! Values from cmu-mtlab/meteor `src/edu/cmu/meteor/util/Constants.java` (tables PARAM_*/WEIGHT_*,
//! `getParameters`, `getModuleWeights`, `getModules`).

use crate::error::{Error, Result};

/// The languages the jar knows, in its numbering order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    English,
    Czech,
    French,
    Spanish,
    German,
    ArabicBuckwalterReduced,
    Portuguese,
    Russian,
    Danish,
    Romanian,
    Hungarian,
    Turkish,
    Finnish,
    Dutch,
    Italian,
    Norwegian,
    Swedish,
    Other,
}

impl Language {
    /// `Constants.normLanguageName`: full names and short codes, case-insensitive.
    pub fn parse(name: &str) -> Result<Language> {
        use Language::*;
        Ok(match name.to_lowercase().as_str() {
            "english" | "en" => English,
            "czech" | "cz" | "cs" => Czech,
            "french" | "fr" => French,
            "german" | "de" => German,
            "spanish" | "es" => Spanish,
            "arabic-buckwalter-reduced" | "ar-bw-red" => ArabicBuckwalterReduced,
            "portuguese" | "pt" => Portuguese,
            "russian" | "ru" => Russian,
            "danish" | "da" => Danish,
            "romanian" | "ro" => Romanian,
            "hungarian" | "hu" => Hungarian,
            "turkish" | "tr" => Turkish,
            "finnish" | "fi" => Finnish,
            "dutch" | "nl" => Dutch,
            "italian" | "it" => Italian,
            "norwegian" | "no" => Norwegian,
            "swedish" | "se" | "sv" => Swedish,
            "other" | "xx" => Other,
            _ => {
                return Err(Error::InvalidOption(format!(
                    "unknown METEOR language {name:?}: expected one of en cz fr es de pt ru da ro hu tr fi nl it no se other"
                )))
            }
        })
    }

    /// The jar's file-name form (`Constants.getLanguageName`).
    pub fn name(self) -> &'static str {
        use Language::*;
        match self {
            English => "english",
            Czech => "czech",
            French => "french",
            Spanish => "spanish",
            German => "german",
            ArabicBuckwalterReduced => "arabic-buckwalter-reduced",
            Portuguese => "portuguese",
            Russian => "russian",
            Danish => "danish",
            Romanian => "romanian",
            Hungarian => "hungarian",
            Turkish => "turkish",
            Finnish => "finnish",
            Dutch => "dutch",
            Italian => "italian",
            Norwegian => "norwegian",
            Swedish => "swedish",
            Other => "other",
        }
    }

    /// The jar's short code (`Constants.getLanguageShortName`), used in paraphrase file names.
    pub fn short_name(self) -> &'static str {
        use Language::*;
        match self {
            English => "en",
            Czech => "cz",
            French => "fr",
            Spanish => "es",
            German => "de",
            ArabicBuckwalterReduced => "ar-bw-red",
            Portuguese => "pt",
            Russian => "ru",
            Danish => "da",
            Romanian => "ro",
            Hungarian => "hu",
            Turkish => "tr",
            Finnish => "fi",
            Dutch => "nl",
            Italian => "it",
            Norwegian => "no",
            Swedish => "se",
            Other => "other",
        }
    }

    /// Row in the per-language tables (`None` for `other`).
    fn table_row(self) -> Option<usize> {
        (self != Language::Other).then_some(self as usize)
    }

    /// Languages with tuned parameters and a `-norm` normalizer (`Constants.isSupported`).
    pub fn is_fully_supported(self) -> bool {
        use Language::*;
        matches!(self, English | Czech | French | Spanish | German | Russian)
    }
}

/// The jar's tasks (`Constants.getTaskID`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Task {
    Adequacy,
    Rank,
    Hter,
    Utility,
    LanguageIndependent,
    Tune,
    Universal,
}

impl Task {
    pub fn parse(name: &str) -> Result<Task> {
        use Task::*;
        Ok(match name.to_lowercase().as_str() {
            "default" | "rank" => Rank,
            "adq" => Adequacy,
            "hter" => Hter,
            "util" => Utility,
            "li" => LanguageIndependent,
            "tune" => Tune,
            "universal" => Universal,
            _ => {
                return Err(Error::InvalidOption(format!(
                    "unknown METEOR task {name:?}: expected one of rank adq hter util li tune universal"
                )))
            }
        })
    }

    pub fn name(self) -> &'static str {
        use Task::*;
        match self {
            Adequacy => "adq",
            Rank => "rank",
            Hter => "hter",
            Utility => "util",
            LanguageIndependent => "li",
            Tune => "tune",
            Universal => "universal",
        }
    }

    /// The task a language gets when none is named (`Constants.getDefaultTask`).
    pub fn default_for(language: Language) -> Task {
        if language.is_fully_supported() {
            Task::Rank
        } else {
            Task::LanguageIndependent
        }
    }
}

/// Matching modules, in the jar's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Module {
    Exact,
    Stem,
    Synonym,
    Paraphrase,
}

impl Module {
    pub fn parse(name: &str) -> Result<Module> {
        Ok(match name.to_lowercase().as_str() {
            "exact" => Module::Exact,
            "stem" => Module::Stem,
            "synonym" => Module::Synonym,
            "paraphrase" => Module::Paraphrase,
            _ => {
                return Err(Error::InvalidOption(format!(
                    "unknown METEOR module {name:?}: expected exact, stem, synonym or paraphrase"
                )))
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Module::Exact => "exact",
            Module::Stem => "stem",
            Module::Synonym => "synonym",
            Module::Paraphrase => "paraphrase",
        }
    }

    /// Weight used while searching for the best alignment (MeteorScorer.loadConfiguration:
    /// exact 1.0, every other module 0.5), independent of the scoring weights.
    pub fn search_weight(self) -> f64 {
        if self == Module::Exact {
            1.0
        } else {
            0.5
        }
    }
}

const ZERO: [f64; 4] = [0.0; 4];

// Rows: en cz fr es de ar-bw-red pt ru da ro hu tr fi nl it no se.
const PARAM_ADQ: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [0.75, 1.40, 0.45, 0.70];
    t
};
const WEIGHT_ADQ: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [1.0, 1.0, 0.6, 0.8];
    t
};
const PARAM_RANK: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [0.85, 0.20, 0.60, 0.75];
    t[1] = [0.95, 0.20, 0.60, 0.80];
    t[2] = [0.90, 1.40, 0.60, 0.65];
    t[3] = [0.65, 1.30, 0.50, 0.80];
    t[4] = [0.95, 1.00, 0.55, 0.55];
    t[7] = [0.75, 1.40, 0.70, 0.50];
    t
};
const WEIGHT_RANK: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [1.0, 0.6, 0.8, 0.6];
    t[1] = [1.0, 0.4, 0.0, 0.0];
    t[2] = [1.0, 0.2, 0.4, 0.0];
    t[3] = [1.0, 0.8, 0.6, 0.0];
    t[4] = [1.0, 0.8, 0.2, 0.0];
    t[7] = [1.0, 0.5, 0.5, 0.0];
    t
};
const PARAM_HTER: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [0.40, 1.50, 0.35, 0.55];
    t
};
const WEIGHT_HTER: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [1.0, 0.2, 0.6, 0.8];
    t
};
const PARAM_UTIL: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [0.65, 0.1, 0.55, 0.65];
    t
};
const WEIGHT_UTIL: [[f64; 4]; 17] = {
    let mut t = [ZERO; 17];
    t[0] = [1.0, 0.0, 0.0, 0.8];
    t
};
const PARAM_LI: [f64; 4] = [0.75, 1.40, 0.70, 0.50];
const WEIGHT_LI: [f64; 4] = [1.0, 0.5, 0.5, 0.5];
const PARAM_TUNE: [f64; 4] = [0.5, 1.0, 0.5, 0.5];
const WEIGHT_TUNE: [f64; 4] = [1.0, 0.5, 0.5, 0.5];
const PARAM_UNIVERSAL: [f64; 4] = [0.70, 1.40, 0.30, 0.70];
const WEIGHT_UNIVERSAL: [f64; 4] = [1.0, 0.6, 0.0, 0.0];

/// (α, β, γ, δ) and the four module weights for a language and task, as `Constants` resolves
/// them: universal first, then `other`/li, tune, then the per-language table.
pub fn task_tables(language: Language, task: Task) -> ([f64; 4], [f64; 4]) {
    let row = language.table_row();
    match (task, row) {
        (Task::Universal, _) => (PARAM_UNIVERSAL, WEIGHT_UNIVERSAL),
        (Task::LanguageIndependent, _) | (_, None) => (PARAM_LI, WEIGHT_LI),
        (Task::Tune, _) => (PARAM_TUNE, WEIGHT_TUNE),
        (Task::Rank, Some(r)) => (PARAM_RANK[r], WEIGHT_RANK[r]),
        (Task::Hter, Some(r)) => (PARAM_HTER[r], WEIGHT_HTER[r]),
        (Task::Utility, Some(r)) => (PARAM_UTIL[r], WEIGHT_UTIL[r]),
        (Task::Adequacy, Some(r)) => (PARAM_ADQ[r], WEIGHT_ADQ[r]),
    }
}

/// The default modules (`Constants.getModules`).
pub fn default_modules(language: Language, task: Task) -> Vec<Module> {
    use Language::*;
    use Module::*;
    if task == Task::Universal {
        return vec![Exact, Paraphrase];
    }
    match language {
        English => vec![Exact, Stem, Synonym, Paraphrase],
        French | Spanish | German | Russian => vec![Exact, Stem, Paraphrase],
        Czech => vec![Exact, Paraphrase],
        Other => vec![Exact],
        _ => vec![Exact, Stem],
    }
}

/// True when a (language, task) pair has only the jar's all-zero placeholder parameters.
pub fn is_untuned(language: Language, task: Task) -> bool {
    task_tables(language, task).0 == ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_rank() {
        let (params, weights) = task_tables(Language::English, Task::Rank);
        assert_eq!(params, [0.85, 0.20, 0.60, 0.75]);
        assert_eq!(weights, [1.0, 0.6, 0.8, 0.6]);
        assert_eq!(default_modules(Language::English, Task::Rank).len(), 4);
    }

    #[test]
    fn other_languages_fall_back_to_li() {
        assert_eq!(task_tables(Language::Danish, Task::LanguageIndependent).0, PARAM_LI);
        assert_eq!(task_tables(Language::Other, Task::Rank).0, PARAM_LI);
        assert!(is_untuned(Language::Danish, Task::Rank));
        assert!(Language::parse("klingon").is_err());
    }
}
