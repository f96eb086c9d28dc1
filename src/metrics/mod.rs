//! One module per metric family. Each turns token ids into fixed-width segment statistics and
//! reduces summed statistics to a score, reproducing a named reference implementation.

pub mod bleu;
pub mod char_ids;
pub mod character;
pub mod charcut;
pub mod chrf;
pub mod chrf_nltk;
pub mod cider;
pub mod diversity;
pub mod edit_distance;
pub mod gleu;
pub mod meteor;
pub mod nist;
mod nist_corpus;
pub mod pairwise;
pub mod qa;
pub mod ribes;
pub mod rouge;
pub mod segment;
pub mod segment_words;
pub mod ter;
pub mod wer;

/// `score(hypothesis, reference)` of every pair (one reference per hypothesis), on rayon's threads
/// from `parallel_from` pairs on (small batches stay on the calling thread).
pub(crate) fn map_pairs<H, R, T, F>(
    hypotheses: &[H],
    references: &[R],
    parallel_from: usize,
    score: F,
) -> crate::error::Result<Vec<T>>
where
    H: AsRef<str> + Sync,
    R: AsRef<str> + Sync,
    T: Send,
    F: Fn(&str, &str) -> T + Sync,
{
    use rayon::prelude::*;
    if hypotheses.len() != references.len() {
        return Err(crate::error::Error::ShapeMismatch(format!(
            "references has {} entries but there are {} hypotheses",
            references.len(),
            hypotheses.len()
        )));
    }
    let pair = |(hyp, reference): (&H, &R)| score(hyp.as_ref(), reference.as_ref());
    Ok(if hypotheses.len() < parallel_from {
        hypotheses.iter().zip(references).map(pair).collect()
    } else {
        hypotheses.par_iter().zip(references.par_iter()).map(pair).collect()
    })
}
