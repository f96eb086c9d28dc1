//! One segment under the `rouge_score` preset: texts → ids → per-variant counts, in buffers that
//! each thread keeps from one segment to the next.

use std::cell::RefCell;

use crate::ngram::Vocab;
use crate::text::rouge::{RougeTokenizer, SegmentInterner};

use super::lcs::{check_lcs_size, lcs_length_with, summary_lcs_hits_with, LcsScratch, Sentences};
use super::ngram::{ngram_counts_with, NgramScratch};
use super::{Counts, RougeScoreOptions, TokenizedText, Variant};
use crate::error::Result;

/// A text's token ids: the whole text, and its sentences (`rougeLsum`).
#[derive(Debug, Default, Clone)]
pub(crate) struct TextIds {
    all: Vec<u32>,
    /// The sentences' tokens, concatenated, when they differ from `all` (texts tokenized by the
    /// caller); empty when the sentences are `all` cut at `sentence_ends` (our tokenizers).
    sentence_tokens: Vec<u32>,
    sentence_ends: Vec<usize>,
}

impl TextIds {
    fn clear(&mut self) {
        self.all.clear();
        self.sentence_tokens.clear();
        self.sentence_ends.clear();
    }

    fn sentences(&self) -> Sentences<'_> {
        let tokens = if self.sentence_tokens.is_empty() { &self.all } else { &self.sentence_tokens };
        Sentences { tokens, ends: &self.sentence_ends }
    }

    /// Tokenizes `text` into ids; with `split`, also into rouge_score's sentences, `text.split("\n")`
    /// (rouge_score drops the empty strings; here lines without tokens stay, as empty sentences,
    /// which change no count).
    fn fill(&mut self, text: &str, tokenizer: RougeTokenizer, split: bool, interner: &mut SegmentInterner) {
        self.clear();
        let line_ends = if split { Some(&mut self.sentence_ends) } else { None };
        interner.push_ids_by_line(tokenizer, text, &mut self.all, line_ends);
    }

    /// The ids of a text tokenized by the caller (whole text and sentences separately).
    fn from_tokens<'a>(text: &'a TokenizedText, vocab: &mut Vocab<'a>) -> Self {
        let mut ids = TextIds { all: text.all.iter().map(|t| vocab.id(t)).collect(), ..Default::default() };
        for sentence in &text.sentences {
            ids.sentence_tokens.extend(sentence.iter().map(|t| vocab.id(t)));
            ids.sentence_ends.push(ids.sentence_tokens.len());
        }
        if ids.sentence_tokens.is_empty() {
            // No sentence tokens at all: an empty sentence list must not fall back to `all`.
            ids.sentence_ends.clear();
        }
        ids
    }
}

/// Everything one thread reuses from segment to segment.
#[derive(Debug, Default)]
struct Workspace {
    /// Unstemmed and stemmed interners (index = `stem as usize`).
    interners: [Option<SegmentInterner>; 2],
    candidate: TextIds,
    references: Vec<TextIds>,
    lcs: LcsScratch,
    ngrams: NgramScratch,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Writes into `out` (one entry per variant) the counts and `[P, R, F]` of the reference with the
/// highest F per variant (first on ties, as `np.argmax` in rouge_score's `score_multi`).
pub(crate) fn score_segment_into<S: AsRef<str>>(
    options: &RougeScoreOptions,
    candidate: &str,
    references: &[S],
    out: &mut [(Counts, [f64; 3])],
) -> Result<()> {
    WORKSPACE.with_borrow_mut(|workspace| {
        let Workspace { interners, candidate: candidate_ids, references: reference_ids, lcs, ngrams } = workspace;
        let interner = interners[options.stem as usize].get_or_insert_with(|| SegmentInterner::new(options.stem));
        interner.begin_segment();
        let split = options.variants.contains(&Variant::Lsum);
        candidate_ids.fill(candidate, options.tokenizer, split, interner);
        if reference_ids.len() < references.len() {
            reference_ids.resize_with(references.len(), TextIds::default);
        }
        for (ids, text) in reference_ids.iter_mut().zip(references) {
            ids.fill(text.as_ref(), options.tokenizer, split, interner);
        }
        let mut scratch = Scratch { n_ids: interner.n_ids(), lcs, ngrams };
        scratch.score(&options.variants, candidate_ids, &reference_ids[..references.len()], out)
    })
}

/// `score_segment_into` for texts tokenized by the caller.
pub(crate) fn score_tokens_into(
    variants: &[Variant],
    candidate: &TokenizedText,
    references: &[TokenizedText],
    out: &mut [(Counts, [f64; 3])],
) -> Result<()> {
    let mut vocab = Vocab::default();
    let candidate = TextIds::from_tokens(candidate, &mut vocab);
    let references: Vec<TextIds> = references.iter().map(|text| TextIds::from_tokens(text, &mut vocab)).collect();
    WORKSPACE.with_borrow_mut(|workspace| {
        let mut scratch = Scratch { n_ids: vocab.len(), lcs: &mut workspace.lcs, ngrams: &mut workspace.ngrams };
        scratch.score(variants, &candidate, &references, out)
    })
}

/// The counting buffers and the segment's id range.
struct Scratch<'a> {
    n_ids: usize,
    lcs: &'a mut LcsScratch,
    ngrams: &'a mut NgramScratch,
}

impl Scratch<'_> {
    fn score(
        &mut self,
        variants: &[Variant],
        candidate: &TextIds,
        references: &[TextIds],
        out: &mut [(Counts, [f64; 3])],
    ) -> Result<()> {
        for variant in variants {
            for reference in references {
                match variant {
                    Variant::Ngram(_) => {}
                    Variant::L => {
                        let (c, r) = (candidate.all.len(), reference.all.len());
                        check_lcs_size(c.min(r), c.max(r), self.n_ids, false)?;
                    }
                    Variant::Lsum => {
                        let longest = |text: &TextIds| text.sentences().iter().map(<[u32]>::len).max().unwrap_or(0);
                        check_lcs_size(longest(candidate), longest(reference), self.n_ids, true)?;
                    }
                }
            }
        }
        for (variant, slot) in variants.iter().zip(out.iter_mut()) {
            let mut best: Option<(Counts, [f64; 3])> = None;
            for reference in references {
                let counts = Counts::from_usize(match variant {
                    Variant::Ngram(n) => ngram_counts_with(&candidate.all, &reference.all, *n, self.n_ids, self.ngrams),
                    Variant::L => (
                        lcs_length_with(&reference.all, &candidate.all, self.lcs),
                        candidate.all.len(),
                        reference.all.len(),
                    ),
                    Variant::Lsum => {
                        let (reference, candidate) = (reference.sentences(), candidate.sentences());
                        (
                            summary_lcs_hits_with(reference, candidate, self.n_ids, self.lcs),
                            candidate.total(),
                            reference.total(),
                        )
                    }
                });
                let prf = counts.rouge_score_prf();
                if best.is_none_or(|(_, best_prf)| prf[2] > best_prf[2]) {
                    best = Some((counts, prf));
                }
            }
            *slot = best.unwrap_or_default();
        }
        Ok(())
    }
}
