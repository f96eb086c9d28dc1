//! One module per metric family. Each turns token ids into fixed-width segment statistics and
//! reduces summed statistics to a score, reproducing a named reference implementation.

pub mod bleu;
pub mod chrf;
pub mod cider;
pub mod meteor;
pub mod pairwise;
pub mod qa;
pub mod rouge;
pub mod ter;
