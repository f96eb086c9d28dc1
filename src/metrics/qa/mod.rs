//! Question answering: exact match and F1 as the official scripts compute them.
//!
//! - `squad`: evaluate-v1.1.py (F1 is 0 whenever no token is shared, even empty vs empty).
//! - `squad_v2`: evaluate-v2.0.py (gold answers that normalise to "" are dropped, an unanswerable
//!   question's only gold is ""; F1 is 1 when both sides have no tokens).
//! - `mlqa`: mlqa_evaluation_v1.py, per language.
//! - `cmrc`: cmrc2018_evaluate.py (character-level F1 through the longest common substring).
//!
//! `tables.rs` is generated from CPython's `unicodedata` (see its header); `pystr.rs` reads it for
//! Python's `str` semantics. Imports go one way: `normalize` → `nltk_word` → `pystr` → `tables`.

pub(crate) mod nltk_word;
pub mod normalize;
pub mod pystr;
pub mod squad;
mod tables;

use crate::error::{Error, Result};
use crate::metrics::segment::SegmentMetric;
pub use normalize::MlqaLanguage;
use normalize::{normalize_cmrc, normalize_mlqa, normalize_squad, segment_cmrc};

/// Which official script's normalisation and F1 rule to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QaNormalizer {
    Squad,
    SquadV2,
    Mlqa(MlqaLanguage),
    Cmrc,
}

impl QaNormalizer {
    /// `name` is `squad`, `squad_v2`, `mlqa` (needs `language`) or `cmrc`.
    pub fn parse(name: &str, language: Option<&str>) -> Result<Self> {
        let normalizer = match name {
            "squad" => Self::Squad,
            "squad_v2" => Self::SquadV2,
            "cmrc" => Self::Cmrc,
            "mlqa" => {
                let code = language.ok_or_else(|| {
                    Error::InvalidOption("normalizer 'mlqa' needs a language (en, es, hi, vi, de, ar, zh)".into())
                })?;
                return Ok(Self::Mlqa(MlqaLanguage::parse(code)?));
            }
            other => {
                return Err(Error::InvalidOption(format!(
                    "unknown normalizer {other:?}; expected 'squad', 'squad_v2', 'mlqa' or 'cmrc'"
                )))
            }
        };
        if language.is_some() {
            return Err(Error::InvalidOption(format!("normalizer {name:?} takes no language")));
        }
        Ok(normalizer)
    }

    /// The normalised answer string the exact-match test compares.
    pub fn normalize(&self, text: &str) -> String {
        match self {
            Self::Squad | Self::SquadV2 => normalize_squad(text),
            Self::Mlqa(language) => normalize_mlqa(text, *language),
            Self::Cmrc => normalize_cmrc(text),
        }
    }

    /// The units F1 counts: tokens of the normalised answer, or CMRC's mixed segments.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        match self {
            Self::Cmrc => segment_cmrc(text),
            _ => self.normalize(text).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect(),
        }
    }
}

/// Exact match (0 or 1) and F1 of one prediction, each the max over the gold answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnswerScore {
    pub exact: f64,
    pub f1: f64,
}

/// Size of the multiset intersection of two token lists (`sum((Counter(a) & Counter(b)).values())`).
fn common_token_count(a: &[String], b: &[String]) -> usize {
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    let mut b: Vec<&str> = b.iter().map(String::as_str).collect();
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

/// Length of the longest common contiguous run of segments (CMRC's `find_lcs`).
fn longest_common_substring(a: &[String], b: &[String]) -> usize {
    let mut previous = vec![0usize; b.len() + 1];
    let mut current = vec![0usize; b.len() + 1];
    let mut best = 0;
    for x in a {
        for (j, y) in b.iter().enumerate() {
            current[j + 1] = if x == y { previous[j] + 1 } else { 0 };
            best = best.max(current[j + 1]);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    best
}

/// `(2 * precision * recall) / (precision + recall)` in the scripts' operation order.
fn f1_from_counts(same: usize, predicted: usize, gold: usize) -> f64 {
    let precision = 1.0 * same as f64 / predicted as f64;
    let recall = 1.0 * same as f64 / gold as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// Scores one prediction against its gold answers (at least one) under `normalizer`.
pub fn score_answer<S: AsRef<str>>(prediction: &str, golds: &[S], normalizer: QaNormalizer) -> Result<AnswerScore> {
    // SQuAD v2.0 marks unanswerable questions by an empty answer list; every other script needs one.
    if golds.is_empty() && normalizer != QaNormalizer::SquadV2 {
        return Err(Error::ShapeMismatch("a question needs at least one gold answer".into()));
    }
    let mut golds: Vec<&str> = golds.iter().map(AsRef::as_ref).collect();
    if normalizer == QaNormalizer::SquadV2 {
        // evaluate-v2.0.py: drop golds that normalise to ""; unanswerable ⇒ the only gold is "".
        golds.retain(|gold| !normalize_squad(gold).is_empty());
        if golds.is_empty() {
            golds.push("");
        }
    }
    let normalized_prediction = normalizer.normalize(prediction);
    let prediction_tokens = normalizer.tokens(prediction);
    let mut best = AnswerScore { exact: 0.0, f1: 0.0 };
    for gold in golds {
        if normalizer.normalize(gold) == normalized_prediction {
            best.exact = 1.0;
        }
        let gold_tokens = normalizer.tokens(gold);
        let f1 = match normalizer {
            QaNormalizer::SquadV2 if gold_tokens.is_empty() || prediction_tokens.is_empty() => {
                if gold_tokens == prediction_tokens {
                    1.0
                } else {
                    0.0
                }
            }
            QaNormalizer::Cmrc => {
                let same = longest_common_substring(&gold_tokens, &prediction_tokens);
                if same == 0 {
                    0.0
                } else {
                    f1_from_counts(same, prediction_tokens.len(), gold_tokens.len())
                }
            }
            _ => {
                let same = common_token_count(&prediction_tokens, &gold_tokens);
                if same == 0 {
                    0.0
                } else {
                    f1_from_counts(same, prediction_tokens.len(), gold_tokens.len())
                }
            }
        };
        if f1 > best.f1 {
            best.f1 = f1;
        }
    }
    Ok(best)
}

/// The number a row's score is: the mean exact match or the mean F1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QaMeasure {
    ExactMatch,
    F1,
}

impl QaMeasure {
    /// `"exact_match"` or `"f1"`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "exact_match" => Ok(Self::ExactMatch),
            "f1" => Ok(Self::F1),
            other => Err(Error::InvalidOption(format!("measure must be 'f1' or 'exact_match', got {other:?}"))),
        }
    }
}

/// Exact match and F1 as a segment metric: rows `[exact, f1, 1]` (float64; a sum divided by its count is
/// a mean). SQuAD v2.0 marks an unanswerable question by an empty answer list, so under the `squad_v2`
/// normalizer (only) a segment may have no reference ([`SegmentMetric::allows_no_reference`]).
///
/// ```
/// use nlgmetrics::metrics::qa::{Qa, QaMeasure, QaNormalizer};
/// use nlgmetrics::metrics::segment::{batch_rows, score_rows};
/// let qa = Qa { normalizer: QaNormalizer::SquadV2, measure: QaMeasure::F1 };
/// let rows = batch_rows(&qa, &["the cat", ""], &[vec!["a cat"], vec![]]).unwrap();
/// assert_eq!(rows, vec![1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
/// assert_eq!(score_rows(&qa, &[1.0, 1.5, 2.0]).unwrap(), vec![0.75]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Qa {
    pub normalizer: QaNormalizer,
    pub measure: QaMeasure,
}

impl SegmentMetric for Qa {
    type Stat = f64;
    type Scratch = ();
    const NAME: &'static str = "squad";

    fn width(&self) -> usize {
        3
    }

    fn segment_into(&self, prediction: &str, golds: &[&str], row: &mut [f64], _: &mut ()) -> Result<()> {
        let AnswerScore { exact, f1 } = score_answer(prediction, golds, self.normalizer)?;
        row.copy_from_slice(&[exact, f1, 1.0]);
        Ok(())
    }

    fn score_row(&self, row: &[f64]) -> f64 {
        let column = if self.measure == QaMeasure::ExactMatch { 0 } else { 1 };
        row[column] / row[2]
    }

    fn allows_no_reference(&self) -> bool {
        self.normalizer == QaNormalizer::SquadV2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(prediction: &str, golds: &[&str], normalizer: QaNormalizer) -> AnswerScore {
        score_answer(prediction, golds, normalizer).unwrap()
    }

    #[test]
    fn squad_v1_takes_the_max_over_golds() {
        let s = score("the Denver Broncos", &["Broncos", "Denver Broncos"], QaNormalizer::Squad);
        assert_eq!(s, AnswerScore { exact: 1.0, f1: 1.0 });
        let s = score("Denver", &["Denver Broncos"], QaNormalizer::Squad);
        assert_eq!(s.exact, 0.0);
        assert_eq!(s.f1, (2.0 * 1.0 * 0.5) / 1.5);
    }

    #[test]
    fn empty_answers_differ_between_versions() {
        assert_eq!(score("the", &["a"], QaNormalizer::Squad), AnswerScore { exact: 1.0, f1: 0.0 });
        assert_eq!(score("", &[], QaNormalizer::SquadV2), AnswerScore { exact: 1.0, f1: 1.0 });
        assert_eq!(score("", &["!"], QaNormalizer::SquadV2), AnswerScore { exact: 1.0, f1: 1.0 });
        assert_eq!(score("x", &["!"], QaNormalizer::SquadV2), AnswerScore { exact: 0.0, f1: 0.0 });
    }

    #[test]
    fn cmrc_uses_the_longest_common_substring() {
        let s = score("北京大学", &["北京"], QaNormalizer::Cmrc);
        assert_eq!(s.exact, 0.0);
        assert_eq!(s.f1, f1_from_counts(2, 4, 2));
        assert_eq!(score("「北京」", &["北京"], QaNormalizer::Cmrc).exact, 1.0);
    }

    #[test]
    fn bad_options_and_shapes_are_errors() {
        assert!(QaNormalizer::parse("nope", None).is_err());
        assert!(QaNormalizer::parse("mlqa", None).is_err());
        assert!(QaNormalizer::parse("squad", Some("en")).is_err());
        use crate::metrics::segment::batch_rows;
        assert!(QaMeasure::from_name("bleu").is_err());
        let squad = Qa { normalizer: QaNormalizer::Squad, measure: QaMeasure::ExactMatch };
        assert!(batch_rows(&squad, &["a"], &[vec!["a"], vec!["b"]]).is_err());
        let error = batch_rows(&squad, &["a"], &[vec![]]).unwrap_err();
        assert!(error.to_string().starts_with("references[0] is empty"), "{error}");
        assert!(score_answer::<&str>("a", &[], QaNormalizer::Squad).is_err());
        assert_eq!(squad.score_row(&[1.0, 0.5, 4.0]), 0.25);
    }
}
