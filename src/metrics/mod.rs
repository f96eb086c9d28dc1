//! One module per metric family. Each turns token ids into fixed-width segment statistics and
//! reduces summed statistics to a score, reproducing a named reference implementation.

pub mod bleu;
pub mod chrf;
pub mod chrf_nltk;
pub mod cider;
pub mod diversity;
pub mod gleu;
pub mod meteor;
pub mod nist;
pub mod pairwise;
pub mod qa;
pub mod ribes;
pub mod rouge;
pub mod ter;
