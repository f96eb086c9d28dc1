//! The `rouge155` preset: ROUGE-1.5.5.pl's per-document scores and its bootstrap averages.
//!
//! Follows `computeNGramScore`, `computeSkipBigramScore`, `computeLCSScore`, `computeWLCSScore`,
//! `computeAverages` and `bootstrapResampling` of ROUGE-1.5.5.pl, including: R and P rounded to 5
//! decimals before F is computed from them; summary-level union LCS with unigram clipping whose
//! precision denominator is the peer's unigram count; ROUGE-W's doubly weighted model length;
//! SU's unigrams skipping the last token; the reported average being the mean of the bootstrap
//! means (Perl's `srand(i)` + `rand` = drand48).

use rustc_hash::FxHashMap;

use super::lcs::{check_lcs_bytes, check_lcs_size, union_lcs_marks, LcsScratch};
use crate::error::{Error, Result};
use crate::ngram::{count_ngrams, Vocab};
use crate::text::rouge::rouge155::{read_text_lcs_sentences, read_text_tokens, Rouge155TextOptions};

/// A ROUGE-1.5.5 measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure155 {
    /// `-n`: ROUGE-N.
    N(usize),
    /// ROUGE-L (summary-level union LCS).
    L,
    /// `-w weight`: ROUGE-W.
    W(f64),
    /// `-2 d [-u]`: skip bigrams with at most `d` gaps (`None` = unlimited, `-2 -1`), plus unigrams with `-u`.
    S { max_skip: Option<usize>, unigrams: bool },
}

impl Measure155 {
    /// `rouge1`…`rouge9`, `rougeL` (= `rougeLsum`: 1.5.5's L is always summary-level),
    /// `rougeW-<weight>`, `rougeS<d>`, `rougeSU<d>`, `rougeS*`, `rougeSU*`.
    pub fn parse(name: &str) -> Result<Self> {
        let invalid = |why: &str| {
            Error::InvalidOption(format!(
                "invalid ROUGE variant {name:?}{why}: expected rouge1…rouge9, rougeL, rougeLsum, rougeW-<weight>, rougeS<d>, rougeSU<d>, rougeS* or rougeSU*"
            ))
        };
        let rest = name.strip_prefix("rouge").ok_or_else(|| invalid(""))?;
        match rest {
            "L" | "Lsum" => return Ok(Self::L),
            "S*" => return Ok(Self::S { max_skip: None, unigrams: false }),
            "SU*" => return Ok(Self::S { max_skip: None, unigrams: true }),
            _ => {}
        }
        if let [digit @ b'1'..=b'9'] = rest.as_bytes() {
            return Ok(Self::N((digit - b'0') as usize));
        }
        if let Some(weight) = rest.strip_prefix("W-") {
            let weight: f64 = weight.parse().map_err(|_| invalid(" (weight is not a number)"))?;
            if !(weight.is_finite() && weight > 0.0) {
                return Err(invalid(" (ROUGE-W weight must be greater than 0)"));
            }
            return Ok(Self::W(weight));
        }
        let (digits, unigrams) = match rest.strip_prefix("SU") {
            Some(d) => (d, true),
            None => (rest.strip_prefix('S').ok_or_else(|| invalid(""))?, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(""));
        }
        let max_skip = digits.parse().map_err(|_| invalid(""))?;
        Ok(Self::S { max_skip: Some(max_skip), unigrams })
    }
}

/// How several models (references) combine (`-f`), or rouge_score's best-F choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiRef {
    /// `-f A`: hits and counts summed over models.
    Average,
    /// `-f B`: the model with the best (5-decimal) recall.
    Best,
    /// Each model scored alone; the one with the highest F (first on ties).
    MaxF,
}

#[derive(Debug, Clone, Copy)]
pub struct Rouge155Options {
    pub text: Rouge155TextOptions,
    pub multi_ref: MultiRef,
    /// `-p`
    pub alpha: f64,
}

/// Perl's `sprintf("%7.5f", x)` read back as a number (Rust and glibc both round half to even).
pub fn round5(x: f64) -> f64 {
    format!("{x:.5}").parse().unwrap_or(0.0)
}

/// One text prepared for every measure.
struct Text155 {
    /// `readText` tokens (n-grams, skip bigrams, unigram clipping of L/W).
    tokens: Vec<u32>,
    /// `readText_LCS` sentences.
    sentences: Vec<Vec<u32>>,
}

/// `(model count, hit, peer count, model score used by -f B)` of one model.
type ModelStats = (f64, f64, f64, f64);

fn skip_bigrams(tokens: &[u32], max_skip: Option<usize>, unigrams: bool) -> FxHashMap<(u32, u32), u32> {
    let mut grams: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    // Perl loops i over 0..$#m_tokens, so with -u the last token's unigram is never counted.
    for i in 0..tokens.len().saturating_sub(1) {
        if unigrams {
            *grams.entry((tokens[i], u32::MAX)).or_insert(0) += 1;
        }
        let last = match max_skip {
            Some(d) => (i + d + 1).min(tokens.len() - 1),
            None => tokens.len() - 1,
        };
        for j in i + 1..=last {
            *grams.entry((tokens[i], tokens[j])).or_insert(0) += 1;
        }
    }
    grams
}

fn clipped<K: std::hash::Hash + Eq>(model: &FxHashMap<K, u32>, peer: &FxHashMap<K, u32>) -> f64 {
    model.iter().map(|(gram, &count)| count.min(peer.get(gram).copied().unwrap_or(0)) as f64).sum()
}

fn unigram_counts(tokens: &[u32]) -> FxHashMap<u32, i64> {
    let mut counts = FxHashMap::default();
    for &token in tokens {
        *counts.entry(token).or_insert(0) += 1;
    }
    counts
}

/// Union-LCS hit mask of one model sentence against every peer sentence (`lcs_inner` + `markLCS`).
fn lcs_mask<'s>(model_sentence: &[u32], peer: &[Vec<u32>], scratch: &'s mut LcsScratch) -> &'s [bool] {
    union_lcs_marks(model_sentence, peer.iter().map(Vec::as_slice), scratch)
}

/// Weighted-LCS hit mask (`wlcs_inner` + `markLCS`): same walk, float table with run lengths.
fn wlcs_mask(model_sentence: &[u32], peer: &[Vec<u32>], weight: f64) -> Vec<bool> {
    let m = model_sentence.len();
    let mut mask = vec![false; m];
    if m == 0 {
        return mask;
    }
    // k^weight for every run length k (pow is deterministic: the same values Perl's ** gives).
    let longest = peer.iter().map(Vec::len).max().unwrap_or(0).min(m) + 1;
    let powers: Vec<f64> = (0..=longest).map(|k| (k as f64).powf(weight)).collect();
    for peer_sentence in peer {
        let n = peer_sentence.len();
        let cols = n + 1;
        let mut c = vec![0.0f64; (m + 1) * cols];
        let mut l = vec![0u32; (m + 1) * cols];
        // 0 = diagonal, 1 = up, 2 = left
        let mut b = vec![0u8; (m + 1) * cols];
        for i in 1..=m {
            for j in 1..=n {
                let here = i * cols + j;
                if model_sentence[i - 1] == peer_sentence[j - 1] {
                    let k = l[(i - 1) * cols + j - 1];
                    // Perl: c + w(k+1) - w(k), left to right.
                    c[here] = c[(i - 1) * cols + j - 1] + powers[k as usize + 1] - powers[k as usize];
                    b[here] = 0;
                    l[here] = k + 1;
                } else if c[(i - 1) * cols + j] >= c[i * cols + j - 1] {
                    c[here] = c[(i - 1) * cols + j];
                    b[here] = 1;
                } else {
                    c[here] = c[i * cols + j - 1];
                    b[here] = 2;
                }
            }
        }
        let (mut i, mut j) = (m, n);
        while i != 0 && j != 0 {
            match b[i * cols + j] {
                0 => {
                    i -= 1;
                    j -= 1;
                    mask[i] = true;
                }
                1 => i -= 1,
                _ => j -= 1,
            }
        }
    }
    mask
}

fn model_stats(measure: Measure155, model: &Text155, peer: &Text155, scratch: &mut LcsScratch) -> ModelStats {
    match measure {
        Measure155::N(n) => {
            let model_grams = count_ngrams(&model.tokens, n);
            let peer_grams = count_ngrams(&peer.tokens, n);
            let model_count = (model.tokens.len() + 1).saturating_sub(n) as f64;
            let peer_count = (peer.tokens.len() + 1).saturating_sub(n) as f64;
            let hit: f64 =
                model_grams.iter().map(|(g, &c)| c.min(peer_grams.get(g).copied().unwrap_or(0)) as f64).sum();
            let score = if model_count != 0.0 { round5(hit / model_count) } else { 0.0 };
            (model_count, hit, peer_count, score)
        }
        Measure155::S { max_skip, unigrams } => {
            let model_grams = skip_bigrams(&model.tokens, max_skip, unigrams);
            let peer_grams = skip_bigrams(&peer.tokens, max_skip, unigrams);
            let model_count = model_grams.values().sum::<u32>() as f64;
            let peer_count = peer_grams.values().sum::<u32>() as f64;
            let hit = clipped(&model_grams, &peer_grams);
            let score = if model_count != 0.0 { round5(hit / model_count) } else { 0.0 };
            (model_count, hit, peer_count, score)
        }
        Measure155::L => {
            let mut model_left = unigram_counts(&model.tokens);
            let mut peer_left = unigram_counts(&peer.tokens);
            let (mut hit, mut base) = (0.0f64, 0.0f64);
            for sentence in &model.sentences {
                base += sentence.len() as f64;
                let mask = lcs_mask(sentence, &peer.sentences, scratch);
                for (position, _) in mask.iter().enumerate().filter(|(_, &hit)| hit) {
                    let token = sentence[position];
                    let (Some(m), Some(p)) = (model_left.get_mut(&token), peer_left.get_mut(&token)) else {
                        continue;
                    };
                    if *m > 0 && *p > 0 {
                        hit += 1.0;
                        *m -= 1;
                        *p -= 1;
                    }
                }
            }
            let score = if base > 0.0 { hit / base } else { 0.0 };
            (base, hit, peer.tokens.len() as f64, score)
        }
        Measure155::W(weight) => {
            let mut model_left = unigram_counts(&model.tokens);
            let mut peer_left = unigram_counts(&peer.tokens);
            let (mut hit, mut base) = (0.0f64, 0.0f64);
            for sentence in &model.sentences {
                base += (sentence.len() as f64).powf(weight);
                let mask = wlcs_mask(sentence, &peer.sentences, weight);
                let mut run = 0u32;
                for position in 0..sentence.len() {
                    if !mask[position] {
                        continue;
                    }
                    let token = sentence[position];
                    let (Some(m), Some(p)) = (model_left.get_mut(&token), peer_left.get_mut(&token)) else {
                        continue;
                    };
                    if *m > 0 && *p > 0 {
                        run += 1;
                        // A run closes where the *mask* ends, even if a later masked token fails clipping.
                        if position + 1 < sentence.len() && !mask[position + 1] || position + 1 == sentence.len() {
                            hit += (run as f64).powf(weight);
                            run = 0;
                        }
                        *m -= 1;
                        *p -= 1;
                    }
                }
            }
            // Perl dies on a zero base ("Illegal division by zero"); we score 0.
            let score = if base > 0.0 { (hit / base).powf(1.0 / weight) } else { 0.0 };
            // computeWLCSScore weights the (already weighted) model base again, and the peer count.
            (base.powf(weight), hit, (peer.tokens.len() as f64).powf(weight), score)
        }
    }
}

/// Per-document `[R, P, F]` of one measure (5-decimal values, as ROUGE-1.5.5 prints with `-d`).
fn segment_measure(
    measure: Measure155,
    options: &Rouge155Options,
    peer: &Text155,
    models: &[Text155],
    scratch: &mut LcsScratch,
) -> [f64; 3] {
    let finish = |(count, hit, count_p): (f64, f64, f64)| -> [f64; 3] {
        let ratio = |x: f64| match measure {
            Measure155::W(weight) => x.powf(1.0 / weight),
            _ => x,
        };
        let recall = if count != 0.0 { round5(ratio(hit / count)) } else { 0.0 };
        let precision = if count_p != 0.0 { round5(ratio(hit / count_p)) } else { 0.0 };
        let alpha = options.alpha;
        let denominator = (1.0 - alpha) * precision + alpha * recall;
        let f = if denominator > 0.0 { round5((precision * recall) / denominator) } else { 0.0 };
        [recall, precision, f]
    };
    match options.multi_ref {
        MultiRef::Average => {
            let mut totals = (0.0, 0.0, 0.0);
            for model in models {
                let (count, hit, count_p, _) = model_stats(measure, model, peer, scratch);
                totals = (totals.0 + count, totals.1 + hit, totals.2 + count_p);
            }
            finish(totals)
        }
        MultiRef::Best => {
            let (mut best, mut totals) = (-1.0, (0.0, 0.0, 0.0));
            for model in models {
                let (count, hit, count_p, score) = model_stats(measure, model, peer, scratch);
                if score > best {
                    best = score;
                    totals = (count, hit, count_p);
                }
            }
            finish(totals)
        }
        MultiRef::MaxF => {
            let mut best: Option<[f64; 3]> = None;
            for model in models {
                let (count, hit, count_p, _) = model_stats(measure, model, peer, scratch);
                let scores = finish((count, hit, count_p));
                if best.is_none_or(|b| scores[2] > b[2]) {
                    best = Some(scores);
                }
            }
            best.unwrap_or([0.0; 3])
        }
    }
}

/// Per-measure `[R, P, F]` of one document against its references (models).
pub fn rouge155_segment(
    measures: &[Measure155],
    options: &Rouge155Options,
    peer: &str,
    models: &[String],
) -> Result<Vec<[f64; 3]>> {
    let needs_sentences = measures.iter().any(|m| matches!(m, Measure155::L | Measure155::W(_)));
    let read = |text: &str| {
        let tokens = read_text_tokens(text, &options.text);
        let sentences = if needs_sentences { read_text_lcs_sentences(text, &options.text) } else { Vec::new() };
        (tokens, sentences)
    };
    let raw_peer = read(peer);
    let raw_models: Vec<_> = models.iter().map(|m| read(m)).collect();
    fn intern<'a>(vocab: &mut Vocab<'a>, (tokens, sentences): &'a (Vec<String>, Vec<Vec<String>>)) -> Text155 {
        let tokens = tokens.iter().map(|t| vocab.id(t)).collect();
        let sentences = sentences.iter().map(|s| s.iter().map(|t| vocab.id(t)).collect()).collect();
        Text155 { tokens, sentences }
    }
    let mut vocab = Vocab::default();
    let peer = intern(&mut vocab, &raw_peer);
    let models: Vec<Text155> = raw_models.iter().map(|m| intern(&mut vocab, m)).collect();
    // The LCS tables grow with the product of the longest model and peer sentences.
    let longest = |text: &Text155| text.sentences.iter().map(Vec::len).max().unwrap_or(0);
    let longest_model = models.iter().map(longest).max().unwrap_or(0);
    for measure in measures {
        match measure {
            Measure155::L => check_lcs_size(longest(&peer), longest_model, vocab.len(), true)?,
            // Dense float, length and direction tables (13 bytes a cell), as ROUGE-1.5.5's.
            Measure155::W(_) => {
                let (m, n) = (longest_model, longest(&peer));
                check_lcs_bytes(n, m, (m + 1).saturating_mul(n + 1).saturating_mul(13))?
            }
            _ => {}
        }
    }
    let mut scratch = LcsScratch::default();
    Ok(measures.iter().map(|&m| segment_measure(m, options, &peer, &models, &mut scratch)).collect())
}

/// Perl's `srand(seed)` + `rand()`: drand48 (Perl ≥ 5.20 ships its own, identical everywhere).
struct PerlRand(u64);

impl PerlRand {
    fn new(seed: u32) -> Self {
        PerlRand(0x330E + ((seed as u64) << 16))
    }
    fn next(&mut self) -> f64 {
        self.0 = (self.0.wrapping_mul(0x5DEECE66D).wrapping_add(0xB)) & ((1u64 << 48) - 1);
        self.0 as f64 / (1u64 << 48) as f64
    }
}

/// `computeAverages` without `-t`: the printed `(Average, CI low, CI high)` for R, P and F.
/// `scores` are the per-document values in input order. Perl resamples its instances sorted by
/// test ID as strings: with `-z SPL` file lists the IDs are "1.X", "2.X", … (`spl_ids`, so the
/// order is 1, 10, 100, …); with zero-padded IDs (e.g. an XML config) it is the input order.
pub fn rouge155_bootstrap(
    scores: &[[f64; 3]],
    samples: usize,
    confidence: f64,
    spl_ids: bool,
) -> Result<[[f64; 3]; 3]> {
    // The resampled means are held in memory: an unbounded count (2**40) would abort on allocation.
    if samples == 0 || samples > 10_000_000 {
        return Err(Error::InvalidOption(format!(
            "the number of bootstrap samples must be between 1 and 10,000,000, got {samples}"
        )));
    }
    if !(0.0..=100.0).contains(&confidence) {
        return Err(Error::InvalidOption(format!("confidence must be within 0 and 100, got {confidence}")));
    }
    // Perl sorts the instance keys "1.X", "2.X", … as strings.
    let mut order: Vec<usize> = (0..scores.len()).collect();
    if spl_ids {
        order.sort_by_cached_key(|&i| format!("{}.", i + 1));
    }
    let instances: Vec<[f64; 3]> = order.iter().map(|&i| scores[i]).collect();
    let n = instances.len();
    let mut means: [Vec<f64>; 3] =
        [Vec::with_capacity(samples), Vec::with_capacity(samples), Vec::with_capacity(samples)];
    for seed in 0..samples {
        let mut rng = PerlRand::new(seed as u32);
        let mut sum = [0.0f64; 3];
        for _ in 0..n {
            let index = (n as f64 * rng.next()) as usize;
            for k in 0..3 {
                sum[k] += instances[index][k];
            }
        }
        for k in 0..3 {
            means[k].push(if n > 0 { sum[k] / n as f64 } else { 0.0 });
        }
    }
    let r = samples as f64;
    let delta = r * ((100.0 - confidence) / 2.0) / 100.0;
    let upper_a = (r - delta - 1.0) as i64;
    let lower_a = delta as i64;
    let ratio = r - delta - 1.0 - upper_a as f64;
    let mut out = [[0.0; 3]; 3];
    for k in 0..3 {
        let sorted = &mut means[k];
        sorted.sort_by(|a, b| a.total_cmp(b));
        let at = |i: i64| {
            if i >= 0 && (i as usize) < sorted.len() {
                sorted[i as usize]
            } else {
                0.0
            }
        };
        let average = round5(sorted.iter().fold(0.0, |acc, x| acc + x) / r);
        let low = round5(at(lower_a) + (at(lower_a + 1) - at(lower_a)) * ratio);
        let high = round5(at(upper_a) + (at(upper_a + 1) - at(upper_a)) * ratio);
        out[k] = [average, low, high];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Rouge155Options {
        Rouge155Options { text: Rouge155TextOptions::default(), multi_ref: MultiRef::Average, alpha: 0.5 }
    }

    #[test]
    fn skip_bigrams_of_cat_in_the_hat() {
        // Issue seed: "cat in the hat" has 6 skip bigrams (unlimited distance).
        let grams = skip_bigrams(&[0, 1, 2, 3], None, false);
        assert_eq!(grams.values().sum::<u32>(), 6);
        // SU: + unigrams of all tokens but the last (ROUGE-1.5.5 quirk).
        assert_eq!(skip_bigrams(&[0, 1, 2, 3], None, true).values().sum::<u32>(), 9);
    }

    #[test]
    fn measure_names() {
        assert_eq!(Measure155::parse("rougeSU4").unwrap(), Measure155::S { max_skip: Some(4), unigrams: true });
        assert_eq!(Measure155::parse("rougeW-1.2").unwrap(), Measure155::W(1.2));
        assert_eq!(Measure155::parse("rougeLsum").unwrap(), Measure155::L);
        for bad in ["rougeW-0", "rougeW-x", "rougeS", "rougeSx", "rouge0", "rougeX", "rougeW-"] {
            assert!(Measure155::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn perl_rand_matches_drand48() {
        let mut rng = PerlRand::new(1);
        assert_eq!(rng.next(), 0.041630344771878214);
    }

    #[test]
    fn rounds_recall_and_precision_before_f() {
        let scores = rouge155_segment(
            &[Measure155::N(1)],
            &options(),
            "a b c d e f g h i j k l m n o p q r s",
            &["a".to_string()],
        )
        .unwrap();
        // R = 1, P = 1/19 = 0.05263 (rounded), F from the rounded values.
        assert_eq!(scores[0][0], 1.0);
        assert_eq!(scores[0][1], 0.05263);
        assert_eq!(scores[0][2], round5(0.05263 / (0.5 * 0.05263 + 0.5)));
    }
}
