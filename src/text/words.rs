//! Lines → word ids for the word-level MT metrics (GLEU, NIST, RIBES, diversity): a tokenizer chosen
//! by name, then Python's `str.split()`, then ids shared by the whole corpus.

use rayon::prelude::*;

use super::nist::tokenize_nist;
use super::pystr::split_tokens;
use super::BleuTokenizer;
use crate::error::Result;
use crate::ngram::TokenInterner;

/// How a line becomes words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordTokenizer {
    /// `line.split()`: what NLTK's callers do with plain text.
    Split,
    /// NLTK's `NISTTokenizer().tokenize(line)` (HF evaluate's `nist_mt`).
    Nist,
    /// A sacreBLEU tokenizer, then `split()` (`13a`: HF evaluate's `google_bleu`).
    Bleu(BleuTokenizer),
}

impl WordTokenizer {
    /// `"none"` (whitespace split), `"nist"`, or a sacreBLEU tokenizer name (`"13a"`, `"intl"`, `"zh"`, …).
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Self::Split,
            "nist" => Self::Nist,
            other => Self::Bleu(BleuTokenizer::from_name(other).map_err(|_| {
                crate::error::Error::InvalidOption(format!(
                    "unknown tokenizer {other:?}; valid names: none, nist, 13a, intl, zh, zh-fixed, char"
                ))
            })?),
        })
    }

    /// The tokenized line, words separated by whitespace.
    fn tokenize<'a>(&self, line: &'a str) -> std::borrow::Cow<'a, str> {
        let mut out = String::new();
        match self {
            Self::Split => return std::borrow::Cow::Borrowed(line),
            Self::Nist => tokenize_nist(line, &mut out),
            Self::Bleu(tokenizer) => tokenizer.tokenize_into(line, &mut out),
        }
        std::borrow::Cow::Owned(out)
    }
}

/// Hypotheses and their references as word ids.
pub type CorpusIds = (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>);

/// Whether word ids are shared by the whole corpus (NIST's weights, diversity) or numbered per
/// segment (metrics that compare a hypothesis with its own references only: small dense ids, in parallel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdScope {
    Corpus,
    Segment,
}

/// Tokenizes every line (in parallel) and numbers the words of the whole corpus (ids by first sight,
/// hypotheses first).
///
/// ```
/// use nlgmetrics::text::words::{corpus_ids, WordTokenizer};
/// let (hyps, refs) = corpus_ids(&["a b."], &[vec!["b a ."]], WordTokenizer::from_name("13a").unwrap());
/// assert_eq!(hyps, vec![vec![0, 1, 2]]);
/// assert_eq!(refs, vec![vec![vec![1, 0, 2]]]);
/// ```
pub fn corpus_ids<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(hyps: &[H], refs: &[Vec<R>], tokenizer: WordTokenizer) -> CorpusIds {
    scoped_ids(hyps, refs, tokenizer, IdScope::Corpus)
}

/// [`corpus_ids`], or with ids numbered per segment (`IdScope::Segment`, hypotheses and references
/// of one segment share ids; the segments are done in parallel).
pub fn scoped_ids<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(hyps: &[H], refs: &[Vec<R>], tokenizer: WordTokenizer, scope: IdScope) -> CorpusIds {
    if scope == IdScope::Segment && hyps.len() == refs.len() {
        return hyps
            .par_iter()
            .zip(refs.par_iter())
            .map_init(TokenInterner::default, |interner, (hyp, lines)| {
                // One interner per thread, emptied per segment (it keeps its memory).
                interner.clear();
                let mut ids_of = |line: &str| -> Vec<u32> { split_tokens(&tokenizer.tokenize(line)).map(|token| interner.id(token)).collect() };
                let hyp_ids = ids_of(hyp.as_ref());
                let ref_ids = lines.iter().map(|line| ids_of(line.as_ref())).collect();
                (hyp_ids, ref_ids)
            })
            .unzip();
    }
    let hyp_text: Vec<_> = hyps.par_iter().map(|line| tokenizer.tokenize(line.as_ref())).collect();
    let ref_text: Vec<Vec<_>> = refs.par_iter().map(|lines| lines.iter().map(|line| tokenizer.tokenize(line.as_ref())).collect()).collect();
    let mut interner = TokenInterner::default();
    let mut ids_of = |text: &str| -> Vec<u32> { split_tokens(text).map(|token| interner.id(token)).collect() };
    let hyp_ids = hyp_text.iter().map(|text| ids_of(text)).collect();
    let ref_ids = ref_text.iter().map(|texts| texts.iter().map(|text| ids_of(text)).collect()).collect();
    (hyp_ids, ref_ids)
}

/// Numbers pre-tokenized words (each token taken whole, as NLTK compares them).
pub fn token_ids<S: AsRef<str> + Sync>(hyps: &[Vec<S>], refs: &[Vec<Vec<S>>], scope: IdScope) -> CorpusIds {
    if scope == IdScope::Segment && hyps.len() == refs.len() {
        return hyps
            .par_iter()
            .zip(refs.par_iter())
            .map_init(TokenInterner::default, |interner, (hyp, references)| {
                interner.clear();
                let mut ids_of = |tokens: &[S]| -> Vec<u32> { tokens.iter().map(|token| interner.id(token.as_ref())).collect() };
                let hyp_ids = ids_of(hyp);
                let ref_ids = references.iter().map(|tokens| ids_of(tokens)).collect();
                (hyp_ids, ref_ids)
            })
            .unzip();
    }
    let mut interner = TokenInterner::default();
    let mut ids_of = |tokens: &[S]| -> Vec<u32> { tokens.iter().map(|token| interner.id(token.as_ref())).collect() };
    let hyp_ids = hyps.iter().map(|tokens| ids_of(tokens)).collect();
    let ref_ids = refs.iter().map(|texts| texts.iter().map(|tokens| ids_of(tokens)).collect()).collect();
    (hyp_ids, ref_ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizers_by_name() {
        assert_eq!(WordTokenizer::from_name("none").unwrap(), WordTokenizer::Split);
        assert_eq!(WordTokenizer::from_name("nist").unwrap(), WordTokenizer::Nist);
        assert!(WordTokenizer::from_name("moses").unwrap_err().to_string().contains("nist"));
        let (hyps, _) = corpus_ids(&["x\u{a0}y  x"], &[Vec::<&str>::new()], WordTokenizer::Split);
        assert_eq!(hyps, vec![vec![0, 1, 0]]); // U+00A0 is whitespace to str.split()
        for scope in [IdScope::Corpus, IdScope::Segment] {
            let (hyps, refs) = token_ids(&[vec!["a b", "a"]], &[vec![vec!["a"]]], scope);
            assert_eq!((hyps, refs), (vec![vec![0, 1]], vec![vec![vec![1]]]));
        }
        let lines = ["a b", "b c"];
        let references = vec![vec!["c"], vec!["a"]];
        let (_, per_segment) = scoped_ids(&lines, &references, WordTokenizer::Split, IdScope::Segment);
        assert_eq!(per_segment, vec![vec![vec![2]], vec![vec![2]]]); // numbered within each segment
    }
}
