//! METEOR 1.5 (Denkowski & Lavie 2014), reproducing cmu-mtlab/meteor's `meteor-1.5.jar`:
//! normalization, the exact/stem/synonym/paraphrase aligner with its beam search, the 23 sufficient
//! statistics per segment, best-reference selection, and the system score from summed statistics.
//!
//! Pipeline: text → [`normalize`] → tokens → [`align`] → [`SegmentStats`] → [`ScoreParts`].

pub mod align;
mod beam;
mod blob;
pub mod features;
pub mod lookup_stemmer;
pub mod nltk;
pub mod normalize;
pub mod params;
pub mod paraphrase;
mod score;
mod stemmer;
pub mod synonyms;
pub mod types;

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::error::{Error, Result};
pub use align::Match;
use align::{align, count_and_chunks, AlignScratch, Matchers};
use features::{FeatureSources, InternedLines, WordTable};
pub use lookup_stemmer::LookupStems;
use normalize::{normalize_line, NonbreakingPrefixes};
pub use params::{Language, Module, Task};
pub use paraphrase::ParaphraseTable;
pub use score::{aggregate, score_stats, textbook_score, ScoreParts};
pub use stemmer::{stemmer_for, stemmer_with_table, MeteorStemmer};
pub use synonyms::SynonymDictionary;

/// Number of sufficient statistics per segment (`MeteorStats.STATS_LENGTH`).
pub const STATS_LEN: usize = 23;

/// Largest beam accepted (the jar's default is 40; the search keeps this many paths per word).
pub const MAX_BEAM_SIZE: usize = 100_000;

/// A hypothesis–reference pair with more candidate matches than `max_candidates`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyCandidates {
    pub reference: usize,
    pub limit: usize,
}

impl TooManyCandidates {
    /// The error for segment `segment`.
    pub fn error(&self, segment: usize) -> Error {
        let advice = if self.limit < align::MAX_CANDIDATES_LIMIT {
            format!(
                "Raise max_candidates (at most {}) to score it anyway, or shorten the segment.",
                align::MAX_CANDIDATES_LIMIT
            )
        } else {
            "Shorten or split the segment.".to_string()
        };
        Error::InvalidOption(format!(
            "METEOR segment {segment}: the hypothesis and reference {} have more than max_candidates={} candidate \
             matches (heavy repetition, e.g. the same word thousands of times); the alignment search over them \
             would take minutes and gigabytes. {advice}",
            self.reference, self.limit
        ))
    }
}
/// The statistics layout supports at most four module stages, as the jar's.
pub const MAX_MODULES: usize = 4;

/// The jar's sufficient statistics, in its `-ssOut` order: test length, reference length, test and
/// reference function words, then per stage (test content, reference content, test function,
/// reference function matches), chunks, test and reference matched words.
pub type SegmentStats = [f64; STATS_LEN];

pub const TEST_LENGTH: usize = 0;
pub const REF_LENGTH: usize = 1;
pub const TEST_FUNCTION_WORDS: usize = 2;
pub const REF_FUNCTION_WORDS: usize = 3;
pub const STAGE_OFFSET: usize = 4;
pub const CHUNKS: usize = 20;
pub const TEST_WORD_MATCHES: usize = 21;
pub const REF_WORD_MATCHES: usize = 22;

/// Text preprocessing (`Constants.NO_NORMALIZE`, `NORMALIZE_LC_ONLY`, `NORMALIZE_KEEP_PUNCT`, `NORMALIZE_NO_PUNCT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    None,
    LowerOnly,
    Tokenize,
    TokenizeNoPunct,
}

/// How statistics become a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formula {
    /// `MeteorScorer.computeMetrics` of METEOR 1.5 (δ-weighted content/function words, no
    /// fragmentation penalty for a perfect match, perfect segments' chunks not summed).
    Meteor15,
    /// The textbook form (Banerjee & Lavie 2005): P and R over all words, Fmean = PR/(αP+(1−α)R),
    /// Penalty = γ·(chunks/matches)^β, score = Fmean·(1−Penalty); every chunk counts.
    Textbook,
}

/// A configured METEOR scorer with its (shared, read-only) resources.
pub struct Meteor {
    pub formula: Formula,
    pub language: Language,
    pub modules: Vec<Module>,
    /// Scoring weight per module position.
    pub weights: Vec<f64>,
    /// α, β, γ, δ.
    pub params: [f64; 4],
    pub normalization: Normalization,
    pub char_based: bool,
    pub beam_size: usize,
    pub max_candidates: usize,
    prefixes: NonbreakingPrefixes,
    function_words: FxHashSet<String>,
    stemmer: Option<MeteorStemmer>,
    synonyms: Option<Arc<SynonymDictionary>>,
    paraphrases: Option<Arc<ParaphraseTable>>,
}

/// One segment's result: its statistics from the best reference, and that reference's alignment.
pub struct SegmentResult {
    pub stats: SegmentStats,
    pub score: f64,
    pub best_reference: usize,
    pub hypothesis_tokens: Vec<String>,
    pub reference_tokens: Vec<String>,
    pub matches: Vec<Match>,
}

/// Everything needed to build a [`Meteor`]; resources are given as parsed data.
pub struct MeteorOptions {
    pub formula: Formula,
    pub language: Language,
    pub modules: Vec<Module>,
    pub weights: Vec<f64>,
    pub params: [f64; 4],
    pub normalization: Normalization,
    pub char_based: bool,
    pub beam_size: usize,
    /// Most candidate matches per hypothesis–reference pair ([`align::DEFAULT_MAX_CANDIDATES`]);
    /// a pair with more is refused with an error naming its segment.
    pub max_candidates: usize,
    pub function_words: Vec<String>,
    pub nonbreaking_prefixes: Vec<String>,
    pub synonyms: Option<Arc<SynonymDictionary>>,
    pub paraphrases: Option<Arc<ParaphraseTable>>,
    /// The Arabic (`ar-bw-red`) stem table, from meteor-1.5.jar.
    pub stem_table: Option<Arc<LookupStems>>,
}

impl Meteor {
    pub fn new(options: MeteorOptions) -> Result<Meteor> {
        let invalid = |msg: String| Err(Error::InvalidOption(msg));
        if options.modules.is_empty() || options.modules.len() > MAX_MODULES {
            return invalid(format!("METEOR needs 1 to {MAX_MODULES} modules, got {}", options.modules.len()));
        }
        for (i, module) in options.modules.iter().enumerate() {
            if options.modules[..i].contains(module) {
                return invalid(format!("METEOR module {:?} is listed twice", module.name()));
            }
        }
        if options.weights.len() != options.modules.len() {
            return invalid(format!(
                "METEOR needs one weight per module: {} modules, {} weights",
                options.modules.len(),
                options.weights.len()
            ));
        }
        if options.beam_size == 0 || options.beam_size > MAX_BEAM_SIZE {
            return invalid(format!(
                "METEOR beam_size must be between 1 and {MAX_BEAM_SIZE}, got {}",
                options.beam_size
            ));
        }
        if options.max_candidates == 0 {
            return invalid("METEOR max_candidates must be at least 1".into());
        }
        let mut stemmer = None;
        for module in &options.modules {
            match module {
                Module::Stem => match stemmer_with_table(options.language, options.stem_table.as_ref()) {
                    Some(found) => stemmer = Some(found),
                    None if options.language == Language::ArabicBuckwalterReduced => {
                        return invalid("the METEOR stem module for ar-bw-red needs the jar's Arabic stem table".into())
                    }
                    None => return invalid(format!("no METEOR stemmer for language {:?}", options.language.name())),
                },
                Module::Synonym if options.synonyms.is_none() => {
                    return invalid(format!("no METEOR synonym data for language {:?}", options.language.name()))
                }
                Module::Paraphrase if options.paraphrases.is_none() => {
                    return invalid("the METEOR paraphrase module needs a paraphrase table".into())
                }
                _ => {}
            }
        }
        let needs_normalizer =
            matches!(options.normalization, Normalization::Tokenize | Normalization::TokenizeNoPunct);
        if needs_normalizer && !options.language.is_fully_supported() {
            return invalid(format!(
                "METEOR 1.5 has no normalizer for language {:?} (only en cz fr es de ru): pass norm=False (and lower=True)",
                options.language.name()
            ));
        }
        Ok(Meteor {
            formula: options.formula,
            language: options.language,
            modules: options.modules,
            weights: options.weights,
            params: options.params,
            normalization: options.normalization,
            char_based: options.char_based,
            beam_size: options.beam_size,
            max_candidates: options.max_candidates,
            prefixes: NonbreakingPrefixes::from_lines(&options.nonbreaking_prefixes),
            function_words: options.function_words.into_iter().collect(),
            stemmer,
            synonyms: options.synonyms,
            paraphrases: options.paraphrases,
        })
    }

    /// Normalize and lowercase a line as `MeteorScorer.getMeteorStats` does.
    pub fn preprocess(&self, line: &str) -> String {
        match self.normalization {
            Normalization::None => line.to_string(),
            Normalization::LowerOnly => line.to_lowercase(),
            Normalization::Tokenize => normalize_line(line, self.language, &self.prefixes, true).to_lowercase(),
            Normalization::TokenizeNoPunct => normalize_line(line, self.language, &self.prefixes, false).to_lowercase(),
        }
    }

    fn matchers(&self) -> Matchers<'_> {
        Matchers {
            modules: &self.modules,
            paraphrases: self.paraphrases.as_deref(),
            beam_size: self.beam_size,
            max_candidates: self.max_candidates,
        }
    }

    fn feature_sources(&self) -> FeatureSources<'_> {
        FeatureSources {
            modules: &self.modules,
            stemmer: self.stemmer.as_ref(),
            synonyms: self.synonyms.as_deref(),
            paraphrases: self.paraphrases.as_deref(),
            function_words: &self.function_words,
            char_based: self.char_based,
        }
    }

    /// Statistics of one hypothesis against one reference (both as word-table indices); the
    /// alignment is left in `scratch.result`.
    fn pair_stats(
        &self,
        hyp: &[u32],
        reference: &[u32],
        words: &WordTable,
        matchers: &Matchers<'_>,
        scratch: &mut AlignScratch,
    ) -> SegmentStats {
        let best = align(hyp, reference, words, matchers, scratch);
        let info = |w: u32| &words.infos[w as usize];
        let mut stats = [0.0; STATS_LEN];
        for &word in hyp {
            let word = info(word);
            stats[TEST_LENGTH] += word.size;
            if word.function {
                stats[TEST_FUNCTION_WORDS] += word.size;
            }
        }
        for &word in reference {
            let word = info(word);
            stats[REF_LENGTH] += word.size;
            if word.function {
                stats[REF_FUNCTION_WORDS] += word.size;
            }
        }
        for m in best.iter().flatten() {
            let base = STAGE_OFFSET + 4 * m.stage as usize;
            for k in m.match_start..m.match_start + m.match_length {
                let word = info(hyp[k as usize]);
                stats[base + if word.function { 2 } else { 0 }] += word.size;
            }
            for k in m.start..m.start + m.length {
                let word = info(reference[k as usize]);
                stats[base + if word.function { 3 } else { 1 }] += word.size;
            }
        }
        let (matched1, matched2, chunks) = count_and_chunks(best);
        stats[CHUNKS] = chunks as f64;
        stats[TEST_WORD_MATCHES] = matched1 as f64;
        stats[REF_WORD_MATCHES] = matched2 as f64;
        stats
    }

    /// The statistics of the first reference with the strictly highest score
    /// (`MeteorScorer.getMeteorStats(String, ArrayList)`): (stats, score, reference index), or
    /// None without references. With `alignment`, that reference's matches are stored in it.
    fn best_reference<'r>(
        &self,
        hyp: &[u32],
        references: impl Iterator<Item = &'r [u32]>,
        words: &WordTable,
        matchers: &Matchers<'_>,
        scratch: &mut AlignScratch,
        mut alignment: Option<&mut Vec<Match>>,
    ) -> std::result::Result<Option<(SegmentStats, f64, usize)>, TooManyCandidates> {
        let mut best: Option<(SegmentStats, f64, usize)> = None;
        for (index, reference) in references.enumerate() {
            let stats = self.pair_stats(hyp, reference, words, matchers, scratch);
            if scratch.candidates.overflowed {
                return Err(TooManyCandidates { reference: index, limit: matchers.max_candidates });
            }
            let score = self.score(&stats).score;
            if best.as_ref().is_none_or(|b| score > b.1) {
                best = Some((stats, score, index));
                if let Some(out) = alignment.as_deref_mut() {
                    out.clear();
                    out.extend(scratch.result.iter().flatten());
                }
            }
        }
        Ok(best)
    }

    /// Score a hypothesis against its references: the statistics of the first reference with the
    /// strictly highest score, with that reference's alignment.
    pub fn segment(&self, hypothesis: &str, references: &[&str]) -> Result<SegmentResult> {
        let mut lines = Vec::with_capacity(references.len() + 1);
        lines.push(self.preprocess(hypothesis));
        lines.extend(references.iter().map(|r| self.preprocess(r)));
        let interned = InternedLines::new(&lines);
        let words = WordTable::build(&interned.words, &self.feature_sources());
        let tokens = |k: usize| -> Vec<String> {
            interned.line(k).iter().map(|&w| interned.words[w as usize].to_string()).collect()
        };
        let mut matches = Vec::new();
        let best = self
            .best_reference(
                interned.line(0),
                (1..lines.len()).map(|k| interned.line(k)),
                &words,
                &self.matchers(),
                &mut AlignScratch::default(),
                Some(&mut matches),
            )
            .map_err(|e| e.error(0))?;
        Ok(match best {
            Some((stats, score, index)) => SegmentResult {
                stats,
                score,
                best_reference: index,
                hypothesis_tokens: tokens(0),
                reference_tokens: tokens(index + 1),
                matches,
            },
            None => SegmentResult {
                stats: [0.0; STATS_LEN],
                score: 0.0,
                best_reference: 0,
                hypothesis_tokens: tokens(0),
                reference_tokens: Vec::new(),
                matches: Vec::new(),
            },
        })
    }

    /// Score every hypothesis against its references, in parallel: per segment (statistics of the
    /// best reference, its score, its index). Lines are preprocessed in parallel, their words
    /// interned once for the batch and each distinct word's features computed once.
    pub fn score_batch<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
        &self,
        hypotheses: &[H],
        references: &[Vec<R>],
    ) -> Result<Vec<(SegmentStats, f64, usize)>> {
        let mut first_reference = Vec::with_capacity(references.len() + 1);
        let mut texts: Vec<&str> = hypotheses.iter().map(AsRef::as_ref).collect();
        for refs in references {
            first_reference.push(texts.len());
            texts.extend(refs.iter().map(AsRef::as_ref));
        }
        first_reference.push(texts.len());
        let lines: Vec<String> = texts.par_iter().with_min_len(16).map(|line| self.preprocess(line)).collect();
        let interned = InternedLines::new(&lines);
        let words = WordTable::build(&interned.words, &self.feature_sources());
        let matchers = self.matchers();
        (0..hypotheses.len().min(references.len()))
            .into_par_iter()
            .with_min_len(8)
            .map_init(AlignScratch::default, |scratch, k| {
                let refs = (first_reference[k]..first_reference[k + 1]).map(|r| interned.line(r));
                let best = self.best_reference(interned.line(k), refs, &words, &matchers, scratch, None);
                Ok(best.map_err(|e| e.error(k))?.unwrap_or(([0.0; STATS_LEN], 0.0, 0)))
            })
            .collect()
    }

    /// `MeteorScorer.computeMetrics`, with the same floating-point operation order.
    pub fn score(&self, stats: &SegmentStats) -> ScoreParts {
        match self.formula {
            Formula::Meteor15 => score_stats(stats, &self.params, &self.weights),
            Formula::Textbook => textbook_score(stats, &self.params, &self.weights),
        }
    }

    /// Corpus statistics: summed as this formula's reference sums them.
    pub fn aggregate<'a, I: IntoIterator<Item = &'a SegmentStats>>(&self, rows: I) -> SegmentStats {
        match self.formula {
            Formula::Meteor15 => aggregate(rows),
            Formula::Textbook => {
                let mut total = [0.0; STATS_LEN];
                for row in rows {
                    for k in 0..STATS_LEN {
                        total[k] += row[k];
                    }
                }
                total
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english_exact() -> Meteor {
        let (params, weights) = params::task_tables(Language::English, Task::Rank);
        Meteor::new(MeteorOptions {
            formula: Formula::Meteor15,
            language: Language::English,
            modules: vec![Module::Exact, Module::Stem],
            weights: weights[..2].to_vec(),
            params,
            normalization: Normalization::Tokenize,
            char_based: false,
            beam_size: 40,
            max_candidates: align::DEFAULT_MAX_CANDIDATES,
            function_words: vec!["the".into(), "a".into()],
            nonbreaking_prefixes: vec![],
            synonyms: None,
            paraphrases: None,
            stem_table: None,
        })
        .unwrap()
    }

    #[test]
    fn identical_sentence_scores_fmean() {
        let meteor = english_exact();
        let result = meteor.segment("The cat sat.", &["the cat sat ."]).unwrap();
        assert_eq!(result.stats[CHUNKS], 1.0);
        assert!((result.score - 1.0).abs() < 1e-12);
    }

    #[test]
    fn stem_matches_and_empty_inputs() {
        let meteor = english_exact();
        let result = meteor.segment("cats running", &["a cat runs"]).unwrap();
        assert_eq!(result.stats[STAGE_OFFSET + 4 + 1], 2.0); // cats/cat, running/runs via stem
        assert_eq!(meteor.segment("", &[""]).unwrap().score, 0.0);
        assert_eq!(meteor.segment("x", &[]).unwrap().score, 0.0);
    }

    #[test]
    fn textbook_form_penalises_even_a_perfect_match() {
        let mut stats = [0.0; STATS_LEN];
        stats[TEST_LENGTH] = 4.0;
        stats[REF_LENGTH] = 4.0;
        stats[STAGE_OFFSET] = 4.0;
        stats[STAGE_OFFSET + 1] = 4.0;
        stats[CHUNKS] = 1.0;
        stats[TEST_WORD_MATCHES] = 4.0;
        stats[REF_WORD_MATCHES] = 4.0;
        let parts = textbook_score(&stats, &[0.9, 3.0, 0.5, 0.0], &[1.0]);
        assert_eq!(parts.fmean, 1.0);
        assert_eq!(parts.frag_penalty, 0.5 * (0.25f64).powf(3.0));
        assert_eq!(score_stats(&stats, &[0.9, 3.0, 0.5, 0.5], &[1.0]).score, 1.0);
    }

    #[test]
    fn rejects_bad_configuration() {
        let mut options = MeteorOptions {
            formula: Formula::Meteor15,
            language: Language::Danish,
            modules: vec![Module::Exact],
            weights: vec![1.0],
            params: [0.5; 4],
            normalization: Normalization::Tokenize,
            char_based: false,
            beam_size: 40,
            max_candidates: align::DEFAULT_MAX_CANDIDATES,
            function_words: vec![],
            nonbreaking_prefixes: vec![],
            synonyms: None,
            paraphrases: None,
            stem_table: None,
        };
        assert!(Meteor::new(options_clone(&options)).is_err());
        options.normalization = Normalization::LowerOnly;
        options.modules = vec![Module::Exact, Module::Exact];
        options.weights = vec![1.0, 1.0];
        assert!(Meteor::new(options).is_err());
    }

    fn options_clone(o: &MeteorOptions) -> MeteorOptions {
        MeteorOptions {
            formula: o.formula,
            language: o.language,
            modules: o.modules.clone(),
            weights: o.weights.clone(),
            params: o.params,
            normalization: o.normalization,
            char_based: o.char_based,
            beam_size: o.beam_size,
            max_candidates: o.max_candidates,
            function_words: o.function_words.clone(),
            nonbreaking_prefixes: o.nonbreaking_prefixes.clone(),
            synonyms: o.synonyms.clone(),
            paraphrases: o.paraphrases.clone(),
            stem_table: o.stem_table.clone(),
        }
    }
}
