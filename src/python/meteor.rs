//! Bindings for `metrics::meteor`: a configured scorer, shared resources, batch scoring.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::{catch_panics, guard};

use super::threads::released;
use rayon::prelude::*;

use super::strings::Lines;
use crate::error::Error;
use crate::metrics::meteor::{
    params, Formula, Language, LookupStems, Meteor, MeteorOptions, Module, Normalization, ParaphraseTable,
    SegmentStats, SynonymDictionary, Task, STATS_LEN,
};

/// A parsed WordNet synonym dictionary (shared between scorers).
#[pyclass(module = "nlgmetrics._core", name = "MeteorSynonyms", frozen)]
pub struct PySynonyms(Arc<SynonymDictionary>);

#[pymethods]
impl PySynonyms {
    #[new]
    fn new(py: Python<'_>, synsets: String, exceptions: String) -> PyResult<Self> {
        guard(|| Ok(PySynonyms(Arc::new(released(py, || SynonymDictionary::parse(&synsets, &exceptions))?))))
    }

    /// Read the two gzip'd files (synsets, exceptions) and parse them; with `cache_path`, the
    /// synsets come from that binary cache when it is valid (memory-mapped), and the cache is
    /// written after a parse (a failed cache write is not an error).
    #[staticmethod]
    #[pyo3(signature = (synsets_gz, exceptions_gz, cache_path=None))]
    fn load(
        py: Python<'_>,
        synsets_gz: PathBuf,
        exceptions_gz: PathBuf,
        cache_path: Option<PathBuf>,
    ) -> PyResult<Self> {
        let read = |path: &PathBuf| -> Result<String, Error> {
            let mut text = String::new();
            let file = std::fs::File::open(path)
                .map_err(|e| Error::InvalidOption(format!("cannot read {}: {e}", path.display())))?;
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::io::BufReader::new(file)), &mut text)
                .map_err(|e| Error::InvalidOption(format!("cannot read {}: {e}", path.display())))?;
            Ok(text)
        };
        let (dictionary, rejected) = released(py, || -> Result<_, Error> {
            let exceptions = read(&exceptions_gz)?;
            through_cache(
                cache_path.as_deref(),
                |cache| SynonymDictionary::from_cache(cache, &exceptions),
                || Ok(SynonymDictionary::parse(&read(&synsets_gz)?, &exceptions)),
                |dictionary, cache| dictionary.write_cache(cache),
            )
        })??;
        warn_rebuilt(py, rejected)?;
        Ok(PySynonyms(Arc::new(dictionary)))
    }
}

/// A resource read from its binary cache when that is valid, else built (and the cache rewritten;
/// a failed cache write is not an error). The second value is why an existing cache was refused
/// (corrupted, truncated, foreign or of another format version: the header's magic, version and
/// checksum are checked), for a warning.
fn through_cache<T>(
    cache: Option<&std::path::Path>,
    read_cache: impl FnOnce(&std::path::Path) -> Result<T, Error>,
    build: impl FnOnce() -> Result<T, Error>,
    write_cache: impl FnOnce(&T, &std::path::Path) -> Result<(), Error>,
) -> Result<(T, Option<String>), Error> {
    let mut rejected = None;
    if let Some(cache) = cache.filter(|c| c.is_file()) {
        match read_cache(cache) {
            Ok(value) => return Ok((value, None)),
            Err(error) => rejected = Some(format!("{error}; rebuilt it")),
        }
    }
    let value = build()?;
    if let Some(cache) = cache {
        let _ = write_cache(&value, cache);
    }
    Ok((value, rejected))
}

/// A `RuntimeWarning` saying a cache file was refused and rebuilt.
fn warn_rebuilt(py: Python<'_>, rejected: Option<String>) -> PyResult<()> {
    match rejected {
        Some(message) => {
            // A message with an interior NUL cannot be a C string: drop from there (it is only a warning).
            let message = message.split('\0').next().unwrap_or_default();
            let message = std::ffi::CString::new(message).unwrap_or_default();
            PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(), &message, 1)
        }
        None => Ok(()),
    }
}

/// A loaded paraphrase table (shared between scorers).
#[pyclass(module = "nlgmetrics._core", name = "MeteorParaphrases", frozen)]
pub struct PyParaphrases(Arc<ParaphraseTable>);

#[pymethods]
impl PyParaphrases {
    /// Load from the binary cache when it exists, else parse the gzip'd table (and write the cache
    /// when a cache path is given; a failed cache write is not an error).
    #[staticmethod]
    #[pyo3(signature = (gzip_path, cache_path=None))]
    fn load(py: Python<'_>, gzip_path: PathBuf, cache_path: Option<PathBuf>) -> PyResult<Self> {
        let (table, rejected) = released(py, || {
            through_cache(
                cache_path.as_deref(),
                ParaphraseTable::read_cache,
                || ParaphraseTable::from_gzip(&gzip_path),
                |table, cache| table.write_cache(cache),
            )
        })??;
        warn_rebuilt(py, rejected)?;
        Ok(PyParaphrases(Arc::new(table)))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}

/// The jar's Arabic (`ar-bw-red`) stem lookup table (shared between scorers).
#[pyclass(module = "nlgmetrics._core", name = "MeteorStemTable", frozen)]
pub struct PyStemTable(Arc<LookupStems>);

#[pymethods]
impl PyStemTable {
    /// Parse the gzip'd table (`stem/arabic-buckwalter-reduced.gz`, as read from meteor-1.5.jar).
    #[staticmethod]
    fn from_gzip_bytes(py: Python<'_>, data: Vec<u8>) -> PyResult<Self> {
        let table = released(py, || -> Result<LookupStems, Error> {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(data.as_slice()), &mut text)
                .map_err(|e| Error::InvalidOption(format!("cannot read the METEOR Arabic stem table: {e}")))?;
            Ok(LookupStems::parse(&text))
        })??;
        Ok(PyStemTable(Arc::new(table)))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}

/// `(language short name, task name, [α, β, γ, δ], default modules, default weights, tuned)`.
type TaskDefaults = (String, String, [f64; 4], Vec<String>, Vec<f64>, bool);

/// (α β γ δ), default modules and weights of a language/task.
#[pyfunction]
#[pyo3(signature = (language, task=None))]
fn meteor_task_defaults(language: &str, task: Option<&str>) -> PyResult<TaskDefaults> {
    guard(|| {
        let language = Language::parse(language)?;
        // No task: the language's own default (rank when tuned, else li), as the jar's setLanguage.
        let task = match task {
            Some(name) => Task::parse(name)?,
            None => Task::default_for(language),
        };
        let (parameters, weights) = params::task_tables(language, task);
        let modules = params::default_modules(language, task);
        let weights = weights[..modules.len()].to_vec();
        Ok((
            language.short_name().to_string(),
            task.name().to_string(),
            parameters,
            modules.iter().map(|m| m.name().to_string()).collect(),
            weights,
            task == Task::Utility,
        ))
    })
}

/// The language's file-name form (e.g. "english" for "en").
#[pyfunction]
fn meteor_language_name(language: &str) -> PyResult<String> {
    guard(|| Ok(Language::parse(language)?.name().to_string()))
}

/// Stem words as the jar's stem module does (for inspection and parity tests); Arabic needs its table.
#[pyfunction]
#[pyo3(signature = (language, words, stem_table=None))]
fn meteor_stem(
    language: &str,
    words: Vec<String>,
    stem_table: Option<PyRef<'_, PyStemTable>>,
) -> PyResult<Vec<String>> {
    guard(|| {
        let language = Language::parse(language)?;
        let stemmer = crate::metrics::meteor::stemmer_with_table(language, stem_table.as_ref().map(|t| &t.0))
            .ok_or_else(|| Error::InvalidOption(format!("no METEOR stemmer for language {:?}", language.name())))?;
        Ok(words.iter().map(|w| stemmer.stem(w)).collect())
    })
}

#[pyclass(module = "nlgmetrics._core", name = "MeteorScorer", frozen)]
pub struct PyMeteorScorer(Meteor);

fn stats_rows(array: &PyReadonlyArray2<'_, f64>) -> PyResult<Vec<SegmentStats>> {
    let view = array.as_array();
    if view.ncols() != STATS_LEN {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "METEOR statistics must have {STATS_LEN} columns, got {}",
            view.ncols()
        )));
    }
    Ok(view
        .rows()
        .into_iter()
        .map(|row| {
            let mut stats = [0.0; STATS_LEN];
            for (k, v) in row.iter().enumerate() {
                stats[k] = *v;
            }
            stats
        })
        .collect())
}

/// A METEOR 1.5 configuration as `nlgmetrics.metrics.meteor.meteor15.MeteorConfig.scorer_options()` gives it:
/// the jar's defaults resolved, every value checked in Python (the core refuses what it cannot score).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct MeteorConfigOptions {
    language: String,
    modules: Vec<String>,
    weights: Vec<f64>,
    parameters: [f64; 4],
    normalization: String,
    char_based: bool,
    beam_size: usize,
    max_candidates: usize,
    /// `"meteor15"` or `"textbook"`: the score's formula (the preset's `JarPreset.name`).
    formula: String,
}

impl MeteorConfigOptions {
    /// The core's options, with the word lists and the shared tables the scorer reads.
    fn build(self, resources: MeteorResources) -> Result<MeteorOptions, Error> {
        let formula = match self.formula.as_str() {
            "meteor15" => Formula::Meteor15,
            "textbook" => Formula::Textbook,
            other => return Err(Error::InvalidOption(format!("unknown METEOR formula {other:?}"))),
        };
        let normalization = match self.normalization.as_str() {
            "none" => Normalization::None,
            "lower" => Normalization::LowerOnly,
            "norm" => Normalization::Tokenize,
            "norm_nopunct" => Normalization::TokenizeNoPunct,
            other => return Err(Error::InvalidOption(format!("unknown METEOR normalization {other:?}"))),
        };
        let modules = self.modules.iter().map(|m| Module::parse(m)).collect::<Result<Vec<_>, _>>()?;
        Ok(MeteorOptions {
            formula,
            language: Language::parse(&self.language)?,
            modules,
            weights: self.weights,
            params: self.parameters,
            normalization,
            char_based: self.char_based,
            beam_size: self.beam_size,
            max_candidates: self.max_candidates,
            function_words: resources.function_words,
            nonbreaking_prefixes: resources.nonbreaking_prefixes,
            synonyms: resources.synonyms,
            paraphrases: resources.paraphrases,
            stem_table: resources.stem_table,
        })
    }
}

/// What a scorer reads besides its options: word lists and the tables loaded once and shared between scorers.
struct MeteorResources {
    function_words: Vec<String>,
    nonbreaking_prefixes: Vec<String>,
    synonyms: Option<Arc<SynonymDictionary>>,
    paraphrases: Option<Arc<ParaphraseTable>>,
    stem_table: Option<Arc<LookupStems>>,
}

#[pymethods]
impl PyMeteorScorer {
    /// A scorer of `options` (`MeteorConfig.scorer_options()`) with the resources it reads.
    #[new]
    #[pyo3(signature = (options, *, function_words, nonbreaking_prefixes, synonyms=None, paraphrases=None, stem_table=None))]
    fn new(
        options: &Bound<'_, PyDict>,
        function_words: Vec<String>,
        nonbreaking_prefixes: Vec<String>,
        synonyms: Option<PyRef<'_, PySynonyms>>,
        paraphrases: Option<PyRef<'_, PyParaphrases>>,
        stem_table: Option<PyRef<'_, PyStemTable>>,
    ) -> PyResult<Self> {
        guard(|| {
            let resources = MeteorResources {
                function_words,
                nonbreaking_prefixes,
                synonyms: synonyms.map(|s| s.0.clone()),
                paraphrases: paraphrases.map(|p| p.0.clone()),
                stem_table: stem_table.map(|t| t.0.clone()),
            };
            let options = options.extract::<MeteorConfigOptions>()?.build(resources)?;
            Ok(PyMeteorScorer(Meteor::new(options)?))
        })
    }

    /// Score every hypothesis against its references, in parallel.
    /// Returns (statistics (n, 23), segment scores (n,), best reference index (n,)).
    #[allow(clippy::type_complexity)]
    fn score_batch<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>)> {
        let lines = Lines::extract(hypotheses, references)?;
        let (hypotheses, references) = lines.borrow()?;
        if hypotheses.len() != references.len() {
            return Err(Error::ShapeMismatch(format!(
                "{} hypotheses but {} reference lists",
                hypotheses.len(),
                references.len()
            ))
            .into());
        }
        let meteor = &self.0;
        let results: Vec<(SegmentStats, f64, usize)> = released(py, || meteor.score_batch(&hypotheses, &references))??;
        let mut stats = Array2::<f64>::zeros((results.len(), STATS_LEN));
        for (i, (row, _, _)) in results.iter().enumerate() {
            for k in 0..STATS_LEN {
                stats[[i, k]] = row[k];
            }
        }
        let scores: Vec<f64> = results.iter().map(|r| r.1).collect();
        let best: Vec<i64> = results.iter().map(|r| r.2 as i64).collect();
        Ok((stats.into_pyarray(py), scores.into_pyarray(py), best.into_pyarray(py)))
    }

    /// Segment scores and the system score's (precision, recall, f1, fmean, frag_penalty, score),
    /// without NumPy (the command line prints these only, and so never imports NumPy). The same
    /// numbers as `score_batch` followed by `corpus`.
    fn score_corpus<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        references: &Bound<'py, PyAny>,
    ) -> PyResult<(Vec<f64>, [f64; 6])> {
        let lines = Lines::extract(hypotheses, references)?;
        let (hypotheses, references) = lines.borrow()?;
        if hypotheses.len() != references.len() {
            return Err(Error::ShapeMismatch(format!(
                "{} hypotheses but {} reference lists",
                hypotheses.len(),
                references.len()
            ))
            .into());
        }
        let meteor = &self.0;
        Ok(released(py, || -> Result<_, Error> {
            let results = meteor.score_batch(&hypotheses, &references)?;
            let total = meteor.aggregate(results.iter().map(|r| &r.0));
            let p = meteor.score(&total);
            Ok((results.iter().map(|r| r.1).collect(), [p.precision, p.recall, p.f1, p.fmean, p.frag_penalty, p.score]))
        })??)
    }

    /// (precision, recall, f1, fmean, frag_penalty, score) per row of statistics, shape (n, 6).
    fn score_rows<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        guard(|| {
            let rows = stats_rows(&stats)?;
            let mut out = Array2::<f64>::zeros((rows.len(), 6));
            for (i, row) in rows.iter().enumerate() {
                let p = self.0.score(row);
                for (k, v) in [p.precision, p.recall, p.f1, p.fmean, p.frag_penalty, p.score].into_iter().enumerate() {
                    out[[i, k]] = v;
                }
            }
            Ok(out.into_pyarray(py))
        })
    }

    /// Summed statistics (chunks of perfect segments skipped, as the jar) and their
    /// (precision, recall, f1, fmean, frag_penalty, score).
    fn corpus<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, [f64; 6])> {
        guard(|| {
            let rows = stats_rows(&stats)?;
            let total = self.0.aggregate(rows.iter());
            let p = self.0.score(&total);
            Ok((total.to_vec().into_pyarray(py), [p.precision, p.recall, p.f1, p.fmean, p.frag_penalty, p.score]))
        })
    }

    /// The preprocessed tokens of a line.
    fn tokenize(&self, line: &str) -> PyResult<Vec<String>> {
        catch_panics(|| {
            crate::metrics::meteor::normalize::java_tokens(&self.0.preprocess(line)).map(str::to_string).collect()
        })
    }

    /// One segment in detail: (hypothesis tokens, best reference tokens, best reference index,
    /// matches as (hyp_start, hyp_len, ref_start, ref_len, module position), statistics, score).
    #[allow(clippy::type_complexity)]
    fn align(
        &self,
        hypothesis: &str,
        references: Vec<String>,
    ) -> PyResult<(Vec<String>, Vec<String>, usize, Vec<(u32, u32, u32, u32, u8)>, Vec<f64>, f64)> {
        guard(|| {
            let refs: Vec<&str> = references.iter().map(String::as_str).collect();
            let r = self.0.segment(hypothesis, &refs)?;
            let matches =
                r.matches.iter().map(|m| (m.match_start, m.match_length, m.start, m.length, m.stage)).collect();
            Ok((r.hypothesis_tokens, r.reference_tokens, r.best_reference, matches, r.stats.to_vec(), r.score))
        })
    }
}

/// NLTK's WordNet (the parts `meteor_score` uses), parsed from the dictionary files.
#[pyclass(module = "nlgmetrics._core", name = "NltkWordNet", frozen)]
pub struct PyNltkWordNet(Arc<crate::metrics::meteor::nltk::WordNet>);

#[pymethods]
impl PyNltkWordNet {
    /// `files`: (file name, text) of index.*, data.* and *.exc.
    #[new]
    fn new(py: Python<'_>, files: Vec<(String, String)>) -> PyResult<Self> {
        guard(|| Ok(PyNltkWordNet(Arc::new(released(py, || crate::metrics::meteor::nltk::WordNet::parse(&files))?))))
    }

    /// nltk's synonym set of a word (lemma names without "_", plus the word).
    fn synonyms(&self, word: &str) -> PyResult<Vec<String>> {
        catch_panics(|| {
            let mut names: Vec<String> = self.0.synonyms(word).into_iter().collect();
            names.sort();
            names
        })
    }
}

/// nltk's `meteor_score` parameters (the `nltk` preset's options).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct NltkMeteorOptions {
    alpha: f64,
    beta: f64,
    gamma: f64,
}

/// nltk's `meteor_score` per segment (tokens given, lowercased here as nltk's `str.lower`); `options`: `alpha`,
/// `beta`, `gamma`. Returns (scores (n,), statistics (n, 4): hypothesis length, best reference length, matches,
/// chunks).
#[pyfunction]
fn nltk_meteor_batch<'py>(
    py: Python<'py>,
    hypotheses: Vec<Vec<String>>,
    references: Vec<Vec<Vec<String>>>,
    wordnet: PyRef<'py, PyNltkWordNet>,
    options: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyArray1<f64>>, super::arrays::Matrix<'py, f64>)> {
    let NltkMeteorOptions { alpha, beta, gamma } = options.extract()?;
    let parameters = [alpha, beta, gamma];
    if hypotheses.len() != references.len() {
        return Err(Error::ShapeMismatch(format!(
            "{} hypotheses but {} reference lists",
            hypotheses.len(),
            references.len()
        ))
        .into());
    }
    let wordnet = wordnet.0.clone();
    let lower = |tokens: &Vec<String>| -> Vec<String> { tokens.iter().map(|t| t.to_lowercase()).collect() };
    let results: Vec<(f64, [f64; 4])> = released(py, || {
        hypotheses
            .par_iter()
            .zip(references.par_iter())
            .map(|(hyp, refs)| {
                let hyp = lower(hyp);
                let mut best: Option<(f64, [f64; 4])> = None;
                for reference in refs {
                    let reference = lower(reference);
                    let (score, matches, chunks) =
                        crate::metrics::meteor::nltk::single_score(&hyp, &reference, &wordnet, parameters);
                    if best.is_none_or(|(b, _)| score > b) {
                        best = Some((score, [hyp.len() as f64, reference.len() as f64, matches as f64, chunks as f64]));
                    }
                }
                best.unwrap_or((0.0, [hyp.len() as f64, 0.0, 0.0, 0.0]))
            })
            .collect()
    })?;
    let scores: Vec<f64> = results.iter().map(|r| r.0).collect();
    let mut stats = Array2::<f64>::zeros((results.len(), 4));
    for (i, (_, row)) in results.iter().enumerate() {
        for k in 0..4 {
            stats[[i, k]] = row[k];
        }
    }
    Ok((scores.into_pyarray(py), stats.into_pyarray(py)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNltkWordNet>()?;
    m.add_function(wrap_pyfunction!(nltk_meteor_batch, m)?)?;
    m.add("METEOR_MAX_CANDIDATES", crate::metrics::meteor::align::DEFAULT_MAX_CANDIDATES)?;
    m.add("METEOR_MAX_CANDIDATES_LIMIT", crate::metrics::meteor::align::MAX_CANDIDATES_LIMIT)?;
    m.add("METEOR_MAX_BEAM_SIZE", crate::metrics::meteor::MAX_BEAM_SIZE)?;
    m.add_class::<PySynonyms>()?;
    m.add_class::<PyParaphrases>()?;
    m.add_class::<PyStemTable>()?;
    m.add_class::<PyMeteorScorer>()?;
    m.add_function(wrap_pyfunction!(meteor_task_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_language_name, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_stem, m)?)?;
    Ok(())
}
