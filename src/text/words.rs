//! Lines → word ids for the word-level MT metrics (GLEU, NIST, RIBES, diversity): a tokenizer chosen
//! by name, then Python's `str.split()`, then ids shared by the whole corpus.

use std::borrow::Cow;

use rayon::prelude::*;

use super::nist::{tokenize_nist, tokenize_nist_substituted};
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
    /// The rest of `NISTTokenizer().tokenize(line)` once its `lang_independent_sub` has run (the caller
    /// ran it, then `str.lower()`, as NLTK does for `lowercase=True`): name `"nist-substituted"`.
    NistSubstituted,
    /// A sacreBLEU tokenizer, then `split()` (`13a`: HF evaluate's `google_bleu`).
    Bleu(BleuTokenizer),
}

impl WordTokenizer {
    /// `"none"` (whitespace split), `"nist"`, or a sacreBLEU tokenizer name (`"13a"`, `"intl"`, `"zh"`, …).
    pub fn from_name(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Self::Split,
            "nist" => Self::Nist,
            "nist-substituted" => Self::NistSubstituted,
            other => Self::Bleu(BleuTokenizer::from_name(other).map_err(|_| {
                crate::error::Error::InvalidOption(format!(
                    "unknown tokenizer {other:?}; valid names: none, nist, 13a, intl, zh, zh-fixed, char"
                ))
            })?),
        })
    }

    /// The tokenized line, words separated by whitespace (`buffer` holds it unless the line is taken as it is).
    fn tokenize<'a>(&self, line: &'a str, buffer: &'a mut String) -> &'a str {
        buffer.clear();
        match self {
            Self::Split => return line,
            Self::Nist => tokenize_nist(line, buffer),
            Self::NistSubstituted => tokenize_nist_substituted(line, buffer),
            Self::Bleu(tokenizer) => tokenizer.tokenize_into(line, buffer),
        }
        buffer
    }

    /// The tokenized line, borrowed when the line is taken as it is.
    fn tokenized<'a>(&self, line: &'a str) -> Cow<'a, str> {
        if *self == Self::Split {
            return Cow::Borrowed(line);
        }
        let mut buffer = String::new();
        self.tokenize(line, &mut buffer);
        Cow::Owned(buffer)
    }
}

/// Appends the ids of the words of `text` (a tokenized line) to `out`.
#[inline]
fn push_ids(interner: &mut TokenInterner, text: &str, out: &mut Vec<u32>) {
    let base = text.as_ptr() as usize;
    // A word's offset in its line lets the interner read it with one wide load.
    out.extend(split_tokens(text).map(|word| {
        let start = word.as_ptr() as usize - base;
        interner.id_in(text, start, start + word.len())
    }));
}

/// The interning keys of the words of `text` (a tokenized line), see [`TokenInterner::key_in`].
fn word_keys(text: &str) -> Vec<u128> {
    let base = text.as_ptr() as usize;
    split_tokens(text)
        .map(|word| {
            let start = word.as_ptr() as usize - base;
            TokenInterner::key_in(text, start, start + word.len())
        })
        .collect()
}

/// Per-thread work space of [`map_segments`] and of the word metrics' text path: the segment's ids,
/// numbered from 0 in each segment (a hypothesis and its references share ids).
#[derive(Debug, Default)]
pub struct SegmentIds {
    interner: TokenInterner,
    buffer: String,
    hyp: Vec<u32>,
    refs: Vec<Vec<u32>>,
}

impl SegmentIds {
    /// The word ids of `hyp` and of each of `refs`, tokenized by `tokenizer`, numbered afresh.
    ///
    /// ```
    /// use nlgmetrics::text::words::{SegmentIds, WordTokenizer};
    /// let mut ids = SegmentIds::default();
    /// let (hyp, refs) = ids.number("a b a", &["b c"], WordTokenizer::Split);
    /// assert_eq!((hyp, refs), (&[0, 1, 0][..], &[vec![1, 2]][..]));
    /// ```
    pub fn number<R: AsRef<str>>(&mut self, hyp: &str, refs: &[R], tokenizer: WordTokenizer) -> (&[u32], &[Vec<u32>]) {
        let Self { interner, buffer, hyp: hyp_ids, refs: ref_ids } = self;
        interner.clear();
        hyp_ids.clear();
        push_ids(interner, tokenizer.tokenize(hyp, buffer), hyp_ids);
        if ref_ids.len() < refs.len() {
            ref_ids.resize(refs.len(), Vec::new());
        }
        for (line, ids) in refs.iter().zip(ref_ids.iter_mut()) {
            ids.clear();
            push_ids(interner, tokenizer.tokenize(line.as_ref(), buffer), ids);
        }
        (hyp_ids, &ref_ids[..refs.len()])
    }
}

/// `score(state, index, hypothesis ids, reference ids)` of every segment, in parallel: each segment is
/// tokenized and numbered on its own (ids shared by a hypothesis and its references only) into
/// per-thread buffers, so nothing corpus-sized is built. `init` makes a thread's `state`.
///
/// ```
/// use nlgmetrics::text::words::{map_segments, WordTokenizer};
/// let lengths = map_segments(&["a b a", "c"], &[vec!["b"], vec!["c d"]], WordTokenizer::Split, || (), |_, index, hyp, refs| {
///     (index, hyp.to_vec(), refs[0].clone())
/// });
/// assert_eq!(lengths, vec![(0, vec![0, 1, 0], vec![1]), (1, vec![0], vec![0, 1])]);
/// ```
pub fn map_segments<H, R, S, T, I, F>(
    hyps: &[H],
    refs: &[Vec<R>],
    tokenizer: WordTokenizer,
    init: I,
    score: F,
) -> Vec<T>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &[u32], &[Vec<u32>]) -> T + Sync + Send,
{
    let segments = hyps.len().min(refs.len());
    (0..segments)
        .into_par_iter()
        .map_init(
            || (SegmentIds::default(), init()),
            |(ids, state), index| {
                let (hyp, segment_refs) = ids.number(hyps[index].as_ref(), &refs[index], tokenizer);
                score(state, index, hyp, segment_refs)
            },
        )
        .collect()
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
pub fn corpus_ids<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    hyps: &[H],
    refs: &[Vec<R>],
    tokenizer: WordTokenizer,
) -> CorpusIds {
    scoped_ids(hyps, refs, tokenizer, IdScope::Corpus)
}

/// [`corpus_ids`], or with ids numbered per segment (`IdScope::Segment`, hypotheses and references
/// of one segment share ids; the segments are done in parallel).
pub fn scoped_ids<H: AsRef<str> + Sync, R: AsRef<str> + Sync>(
    hyps: &[H],
    refs: &[Vec<R>],
    tokenizer: WordTokenizer,
    scope: IdScope,
) -> CorpusIds {
    if scope == IdScope::Segment && hyps.len() == refs.len() {
        return map_segments(hyps, refs, tokenizer, || (), |_, _, hyp, refs| (hyp.to_vec(), refs.to_vec()))
            .into_iter()
            .unzip();
    }
    let hyp_text: Vec<Cow<str>> = hyps.par_iter().map(|line| tokenizer.tokenized(line.as_ref())).collect();
    let ref_text: Vec<Vec<Cow<str>>> =
        refs.par_iter().map(|lines| lines.iter().map(|line| tokenizer.tokenized(line.as_ref())).collect()).collect();
    // Splitting and packing the words runs in parallel; only the numbering (first sight first) is serial.
    let hyp_keys: Vec<Vec<u128>> = hyp_text.par_iter().map(|text| word_keys(text)).collect();
    let ref_keys: Vec<Vec<Vec<u128>>> =
        ref_text.par_iter().map(|texts| texts.iter().map(|text| word_keys(text)).collect()).collect();
    let mut interner = TokenInterner::default();
    let mut ids_of =
        |keys: &[u128], text: &str| -> Vec<u32> { keys.iter().map(|&key| interner.id_of_key(key, text)).collect() };
    let hyp_ids = hyp_keys.iter().zip(&hyp_text).map(|(keys, text)| ids_of(keys, text)).collect();
    let ref_ids = ref_keys
        .iter()
        .zip(&ref_text)
        .map(|(keys, texts)| keys.iter().zip(texts).map(|(keys, text)| ids_of(keys, text)).collect())
        .collect();
    (hyp_ids, ref_ids)
}

/// Numbers pre-tokenized words (each token taken whole, as NLTK compares them).
pub fn token_ids<S: AsRef<str> + Sync, H: AsRef<[S]> + Sync>(hyps: &[H], refs: &[Vec<H>], scope: IdScope) -> CorpusIds {
    if scope == IdScope::Segment && hyps.len() == refs.len() {
        return hyps
            .par_iter()
            .zip(refs.par_iter())
            .map_init(TokenInterner::default, |interner, (hyp, references)| {
                interner.clear();
                let mut ids_of =
                    |tokens: &[S]| -> Vec<u32> { tokens.iter().map(|token| interner.id(token.as_ref())).collect() };
                let hyp_ids = ids_of(hyp.as_ref());
                let ref_ids = references.iter().map(|tokens| ids_of(tokens.as_ref())).collect();
                (hyp_ids, ref_ids)
            })
            .unzip();
    }
    let mut interner = TokenInterner::default();
    let mut ids_of = |tokens: &[S]| -> Vec<u32> { tokens.iter().map(|token| interner.id(token.as_ref())).collect() };
    let hyp_ids = hyps.iter().map(|tokens| ids_of(tokens.as_ref())).collect();
    let ref_ids = refs.iter().map(|texts| texts.iter().map(|tokens| ids_of(tokens.as_ref())).collect()).collect();
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
        // Words longer than 15 bytes are keyed apart from the short ones; ids stay by first sight.
        let long = "a-word-of-more-than-fifteen-bytes";
        let line = format!("{long} b {long}x {long} b");
        let (hyps, refs) = corpus_ids(&[line.as_str()], &[vec![long, "b"]], WordTokenizer::Split);
        assert_eq!((hyps, refs), (vec![vec![0, 1, 2, 0, 1]], vec![vec![vec![0], vec![1]]]));
        let (_, per_segment) = scoped_ids(&lines, &references, WordTokenizer::Split, IdScope::Segment);
        assert_eq!(per_segment, vec![vec![vec![2]], vec![vec![2]]]); // numbered within each segment
    }
}
