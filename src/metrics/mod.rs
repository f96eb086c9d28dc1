//! One module per metric family. Each turns token ids into fixed-width segment statistics and
//! reduces summed statistics to a score, reproducing a named reference implementation.

pub mod bleu;
pub mod bleu_coco;
pub mod bleu_nltk;
pub mod chrf;
pub mod pairwise;
pub mod ter;
