//! BLEU (Papineni et al. 2002) segment statistics and scores.
