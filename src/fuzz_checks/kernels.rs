//! Metric-kernel targets: option bits and a hypothesis with its references in, every invariant of the
//! metric checked on the result.

use super::{assert_in_range, FuzzInput};
use crate::metrics::bleu::{coco as bleu_coco, nltk as bleu_nltk};
use crate::metrics::bleu::{BleuScoring, Smoothing, StatsOptions, Summation};
use crate::metrics::chrf::{self, ChrfConfig};
use crate::metrics::cider::{cider_scores, CiderOptions};
use crate::metrics::pairwise;
use crate::metrics::qa::{score_answer, MlqaLanguage, QaNormalizer};
use crate::metrics::rouge::coco::rouge_l_coco;
use crate::metrics::rouge::rouge155::{rouge155_segment, Measure155, MultiRef, Rouge155Options};
use crate::metrics::rouge::{
    lcs_length, rouge_score_batch, rouge_score_segment, rouge_score_segment_tokens, summary_lcs_hits_rouge_score,
    RougeScoreOptions, TokenizedText, Variant,
};
use crate::metrics::ter::{self, translation_edit_rate, TerNormalizer};
use crate::text::pystr::split_tokens;
use crate::text::rouge::rouge155::Rouge155TextOptions;
use crate::text::rouge::RougeTokenizer;
use crate::text::sacrebleu::BleuTokenizer;

/// At most this many references per input (the rest of the input stays in the last one).
const MAX_REFS: usize = 4;

/// sacreBLEU BLEU statistics and scores, NLTK and COCO BLEU on the same texts.
pub fn bleu(data: &[u8]) {
    let input = FuzzInput::decode(data, 1 + MAX_REFS);
    let (hyp, refs) = input.hypothesis_and_references();
    let tokenizer = BleuTokenizer::ALL[input.bits(0, 3) % BleuTokenizer::ALL.len()];
    let max_order = 1 + input.bits(3, 2) + input.bits(5, 1) * 4;
    let options = StatsOptions::new(tokenizer, max_order).unwrap();
    let stats = options.segment_stats(hyp, &refs).unwrap();
    // sacreBLEU tokenizes `line.rstrip()`.
    let hyp_len = split_tokens(&tokenizer.tokenize(crate::metrics::bleu::rstrip(hyp))).count() as i64;
    assert_eq!(stats[0], hyp_len, "hyp_len on {input:?}");
    for n in 0..max_order {
        let (matches, total) = (stats[2 + n], stats[2 + max_order + n]);
        assert_eq!(total, (hyp_len - n as i64).max(0), "order {} total on {input:?}", n + 1);
        assert!((0..=total).contains(&matches), "order {} matches {matches} > {total} on {input:?}", n + 1);
    }
    let reversed: Vec<&str> = refs.iter().rev().copied().collect();
    assert_eq!(
        stats,
        options.segment_stats(hyp, &reversed).unwrap(),
        "reference order changes BLEU stats on {input:?}"
    );
    for smoothing in [Smoothing::None, Smoothing::Floor, Smoothing::AddK, Smoothing::Exp] {
        for effective_order in [false, true] {
            let scoring =
                BleuScoring::new(max_order, smoothing, None, effective_order, None, Summation::Sequential).unwrap();
            let score = scoring.score(&stats).unwrap();
            assert_in_range("BLEU", score.score, 0.0, 100.0 + 1e-9, &input);
            assert_in_range("BLEU BP", score.bp, 0.0, 1.0, &input);
        }
    }
    // Identity: a hypothesis of at least max_order tokens against itself scores exactly 100.
    let own = options.segment_stats(hyp, &[hyp]).unwrap();
    if hyp_len >= max_order as i64 {
        let scoring = BleuScoring::new(max_order, Smoothing::Exp, None, false, None, Summation::Sequential).unwrap();
        // sacreBLEU's exp(mean(log 100%)) is 100 up to rounding (e.g. 100.00000000000004).
        let score = scoring.score(&own).unwrap().score;
        assert!((score - 100.0).abs() < 1e-9, "BLEU of a text against itself = {score} on {input:?}");
    }
    // The pairwise matrix (its own n-gram profiles) equals sentence BLEU on every (hypothesis, reference) pair.
    let scoring = BleuScoring::new(max_order, Smoothing::Exp, None, true, None, Summation::Sequential).unwrap();
    let matrix = pairwise::bleu_matrix(&[hyp], Some(&refs[..]), tokenizer, &scoring).unwrap();
    for (reference, pair) in refs.iter().zip(&matrix) {
        let single = scoring.score(&options.segment_stats(hyp, &[reference]).unwrap()).unwrap().score;
        assert_eq!(*pair, single, "bleu_matrix vs sentence BLEU against {reference:?} on {input:?}");
    }
    // NLTK and COCO BLEU: their rows and scores stay in range.
    let split = |t: &str| -> Vec<String> { split_tokens(t).map(str::to_string).collect() };
    let nltk_rows = bleu_nltk::batch_stats(&[split(hyp)], &[refs.iter().map(|r| split(r)).collect()], 4).unwrap();
    let smoothing =
        bleu_nltk::FloatSmoothing::parse(["method0", "method1", "method3", "method4"][input.bits(6, 2)], 0.1, 5.0)
            .unwrap();
    for score in bleu_nltk::float_scores(&nltk_rows, 4, &[0.25; 4], smoothing, input.bits(8, 1) == 1, true) {
        assert_in_range("NLTK BLEU", score, 0.0, 1.0, &input);
    }
    let coco_row = bleu_coco::image_stats(hyp, &refs).unwrap();
    for option in ["closest", "shortest", "average"] {
        let (corpus, per_image) =
            bleu_coco::scores(&[coco_row], 4, bleu_coco::RefLength::parse(option).unwrap()).unwrap();
        for score in corpus.iter().chain(per_image.iter().flatten()) {
            assert_in_range("COCO BLEU", *score, 0.0, 1.0 + 1e-9, &input);
        }
    }
}

/// chrF / chrF++: range, identity, β = 1 symmetry, reference-order invariance.
pub fn chrf(data: &[u8]) {
    let input = FuzzInput::decode(data, 1 + MAX_REFS);
    let (hyp, refs) = input.hypothesis_and_references();
    let config = ChrfConfig {
        char_order: input.bits(0, 3),
        word_order: input.bits(3, 2),
        beta: [1.0, 2.0, 3.0, 0.5][input.bits(5, 2)],
        whitespace: input.bits(7, 1) == 1,
        eps_smoothing: input.bits(8, 1) == 1,
    };
    if config.validate().is_err() {
        assert_eq!(config.char_order + config.word_order, 0);
        return;
    }
    let stats = chrf::segment_stats(hyp, &refs, &config);
    assert_eq!(stats.len(), config.stats_width());
    for triple in stats.chunks_exact(3) {
        assert!(triple[2] <= triple[0].min(triple[1]), "chrF matches {triple:?} on {input:?}");
    }
    let score = chrf::f_score(&stats, config.beta, config.eps_smoothing);
    assert_in_range("chrF", score, 0.0, 100.0 + 1e-9, &input);
    // The pairwise matrix (precomputed profiles) equals sentence chrF on every (hypothesis, reference) pair.
    let matrix = pairwise::chrf_matrix(&[hyp], Some(&refs[..]), &config).unwrap();
    for (reference, pair) in refs.iter().zip(&matrix) {
        let single = chrf::f_score(&chrf::segment_stats(hyp, &[reference], &config), config.beta, config.eps_smoothing);
        assert_eq!(*pair, single, "chrf_matrix vs sentence chrF against {reference:?} on {input:?}");
    }
    let reversed: Vec<&str> = refs.iter().rev().copied().collect();
    let score_reversed =
        chrf::f_score(&chrf::segment_stats(hyp, &reversed, &config), config.beta, config.eps_smoothing);
    assert_eq!(score, score_reversed, "reference order changes chrF on {input:?}");
    // Identity: 100 when the text has a character n-gram of every order and a word n-gram of every order.
    let own = chrf::f_score(&chrf::segment_stats(hyp, &[hyp], &config), config.beta, config.eps_smoothing);
    let chars = hyp.chars().filter(|&c| config.whitespace || !crate::text::pystr::is_python_whitespace(c)).count();
    let words = chrf::chrf_words(hyp).len();
    if chars >= config.char_order && words >= config.word_order && chars + words > 0 {
        assert!((own - 100.0).abs() < 1e-9, "chrF of a text against itself = {own} on {input:?}");
    }
    if config.beta == 1.0 {
        let swapped = chrf::f_score(&chrf::segment_stats(refs[0], &[hyp], &config), 1.0, config.eps_smoothing);
        let direct = chrf::f_score(&chrf::segment_stats(hyp, &refs[..1], &config), 1.0, config.eps_smoothing);
        assert!((swapped - direct).abs() < 1e-9, "chrF beta=1 not symmetric: {direct} vs {swapped} on {input:?}");
    }
}

/// Texts to small-alphabet ids (byte % alphabet): repetitive inputs the LCS and TER searches find hard.
fn byte_ids(text: &str, alphabet: usize, cap: usize) -> Vec<u32> {
    text.bytes().take(cap).map(|b| (b as usize % alphabet) as u32).collect()
}

/// TER: tokens of the normalizer, edits bounded, identity 0, the score finite.
pub fn ter(data: &[u8]) {
    // tercom's shift search is super-linear (bounded separately, issue 13 item 1): short texts only.
    let input = FuzzInput::decode_capped(data, 1 + MAX_REFS, 300);
    let (hyp, refs) = input.hypothesis_and_references();
    let normalizer = TerNormalizer {
        normalized: input.bits(0, 1) == 1,
        no_punct: input.bits(1, 1) == 1,
        asian_support: input.bits(2, 1) == 1,
    };
    let hyp_len = normalizer.tokens(hyp).len() as u64;
    if let Ok(stats) = ter::segment_stats(hyp, &refs, &normalizer) {
        let longest_ref = refs.iter().map(|r| normalizer.reference_tokens(r).len() as u64).max().unwrap_or(0);
        assert!(stats.num_edits <= hyp_len + longest_ref, "TER edits {} on {input:?}", stats.num_edits);
        assert!(ter::score(stats.num_edits, stats.ref_length).is_finite());
    }
    // The edit-distance kernel itself, on small-alphabet word ids (many repeats, many shift candidates).
    let alphabet = 1 + input.bits(3, 3);
    let a = byte_ids(hyp, alphabet, 80);
    let b = byte_ids(refs[0], alphabet, 80);
    assert_eq!(translation_edit_rate(&a, &a), Ok((0, a.len())), "TER of a text against itself on {input:?}");
    if let Ok((edits, length)) = translation_edit_rate(&a, &b) {
        assert_eq!(length, b.len());
        assert!(edits as usize <= a.len() + b.len(), "TER edits {edits} on {a:?} / {b:?}");
    }
}

/// The textbook O(n·m) LCS length: the oracle for the bit-parallel one.
fn naive_lcs(a: &[u32], b: &[u32]) -> usize {
    let mut previous = vec![0usize; b.len() + 1];
    for x in a {
        let mut current = vec![0usize; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            current[j + 1] = if x == y { previous[j] + 1 } else { previous[j + 1].max(current[j]) };
        }
        previous = current;
    }
    previous[b.len()]
}

/// LCS kernels: equal to the textbook DP, symmetric; the union LCS bounded by the reference.
pub fn lcs(data: &[u8]) {
    let input = FuzzInput::decode(data, 3);
    let alphabet = 1 + input.bits(0, 6);
    let a = byte_ids(&input.texts[0], alphabet, 1000);
    let b = byte_ids(input.texts.get(1).map_or("", String::as_str), alphabet, 1000);
    let length = lcs_length(&a, &b);
    assert_eq!(length, naive_lcs(&a, &b), "LCS on {a:?} / {b:?}");
    assert_eq!(length, lcs_length(&b, &a), "LCS not symmetric on {a:?} / {b:?}");
    // Sentences: split the id streams at the largest id.
    let sentences =
        |ids: &[u32]| -> Vec<Vec<u32>> { ids.split(|&x| x == alphabet as u32 - 1).map(<[u32]>::to_vec).collect() };
    let (reference, candidate) = (sentences(&a), sentences(&b));
    let hits = summary_lcs_hits_rouge_score(&reference, &candidate);
    let reference_total: usize = reference.iter().map(Vec::len).sum();
    assert!(hits <= reference_total, "union LCS {hits} > {reference_total} on {a:?} / {b:?}");
    assert_eq!(
        summary_lcs_hits_rouge_score(&reference, &reference),
        reference_total,
        "union LCS of a text with itself"
    );
}

/// rouge_score preset: range, identity, symmetry (N, L), reference-order invariance, and the interner
/// path equal to scoring the tokenizer's own tokens.
pub fn rouge(data: &[u8]) {
    let input = FuzzInput::decode(data, 1 + MAX_REFS);
    let (hyp, refs) = input.hypothesis_and_references();
    let tokenizer =
        [RougeTokenizer::RougeScore, RougeTokenizer::Unicode, RougeTokenizer::UnicodeWords][input.bits(0, 2) % 3];
    let stem = input.bits(2, 1) == 1;
    let variants =
        vec![Variant::Ngram(1), Variant::Ngram(2), Variant::Ngram(1 + input.bits(3, 3)), Variant::L, Variant::Lsum];
    let options = RougeScoreOptions { variants: variants.clone(), tokenizer, stem };
    let scores = rouge_score_segment(&options, hyp, &refs).unwrap();
    for (counts, prf) in &scores {
        assert!(
            counts.hits <= counts.candidate_total.min(counts.reference_total) || counts.hits == 0.0,
            "{counts:?} on {input:?}"
        );
        for x in prf {
            assert_in_range("ROUGE", *x, 0.0, 1.0, &input);
        }
    }
    let tokenized = |text: &str| TokenizedText {
        all: tokenizer.tokenize(text, stem),
        sentences: text.split('\n').map(|line| tokenizer.tokenize(line, stem)).collect(),
    };
    let reference_tokens: Vec<TokenizedText> = refs.iter().map(|r| tokenized(r)).collect();
    let from_tokens = rouge_score_segment_tokens(&variants, &tokenized(hyp), &reference_tokens).unwrap();
    assert_eq!(scores, from_tokens, "interned vs token ROUGE on {input:?}");
    let batch = rouge_score_batch(&options, &[hyp], std::slice::from_ref(&refs)).unwrap();
    assert_eq!(scores, batch, "batch vs segment ROUGE on {input:?}");
    let reversed: Vec<&str> = refs.iter().rev().copied().collect();
    let f = |s: &[(crate::metrics::rouge::Counts, [f64; 3])]| -> Vec<f64> { s.iter().map(|(_, prf)| prf[2]).collect() };
    assert_eq!(f(&scores), f(&rouge_score_segment(&options, hyp, &reversed).unwrap()), "reference order on {input:?}");
    let own = rouge_score_segment(&options, hyp, &[hyp]).unwrap();
    for ((counts, prf), variant) in own.iter().zip(&variants) {
        if counts.candidate_total > 0.0 {
            assert_eq!(prf[2], 1.0, "{variant:?} of a text against itself on {input:?}");
        }
    }
    let swapped = rouge_score_segment(&options, refs[0], &[hyp]).unwrap();
    let direct = rouge_score_segment(&options, hyp, &refs[..1]).unwrap();
    for k in 0..4 {
        assert_eq!(swapped[k].1[2], direct[k].1[2], "{:?} F not symmetric on {input:?}", variants[k]);
    }
    let candidate: Vec<&str> = refs.iter().map(|r| r.trim_matches(' ')).collect();
    if let Ok(score) = rouge_l_coco(hyp.trim_matches(' '), &candidate, 1.2) {
        assert_in_range("COCO ROUGE-L", score, 0.0, 1.0 + 1e-12, &input);
    }
}

/// ROUGE-1.5.5: every measure in range under random options, deterministic.
pub fn rouge155(data: &[u8]) {
    let input = FuzzInput::decode(data, 1 + MAX_REFS);
    let (hyp, refs) = input.hypothesis_and_references();
    let models: Vec<String> = refs.iter().map(|r| r.to_string()).collect();
    let measures = [
        Measure155::N(1),
        Measure155::N(1 + input.bits(0, 2)),
        Measure155::L,
        Measure155::W(1.2),
        Measure155::S { max_skip: Some(input.bits(2, 3)), unigrams: input.bits(5, 1) == 1 },
        Measure155::S { max_skip: None, unigrams: true },
    ];
    let options = Rouge155Options {
        text: Rouge155TextOptions {
            stem: input.bits(6, 1) == 1,
            wordnet_exceptions: input.bits(7, 1) == 1,
            remove_stopwords: input.bits(8, 1) == 1,
            word_limit: input.bits(9, 2) * 3,
            byte_limit: input.bits(11, 2) * 7,
        },
        multi_ref: [MultiRef::Average, MultiRef::Best, MultiRef::MaxF][input.bits(13, 2) % 3],
        alpha: [0.5, 0.0, 1.0, 0.25][input.bits(15, 1) * 2],
    };
    let scores = rouge155_segment(&measures, &options, hyp, &models).unwrap();
    for rpf in &scores {
        for x in rpf {
            assert_in_range("ROUGE-1.5.5", *x, 0.0, 1.0 + 1e-9, &input);
        }
    }
    assert_eq!(
        scores,
        rouge155_segment(&measures, &options, hyp, &models).unwrap(),
        "ROUGE-1.5.5 not deterministic on {input:?}"
    );
}

/// CIDEr-D and CIDEr: finite, non-negative, CIDEr-D at most 10 per image.
pub fn cider(data: &[u8]) {
    let input = FuzzInput::decode(data, 6);
    let texts: Vec<String> = input.texts.iter().map(|t| t.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    // Two images: texts 0 and 1 are hypotheses, the others their references alternately.
    let hyps = vec![texts[0].clone(), texts.get(1).cloned().unwrap_or_default()];
    let mut refs = vec![Vec::new(), Vec::new()];
    for (k, text) in texts.iter().enumerate().skip(2) {
        refs[k % 2].push(text.clone());
    }
    for list in &mut refs {
        if list.is_empty() {
            list.push(String::new());
        }
    }
    let options = CiderOptions {
        n: 1 + input.bits(0, 2),
        sigma: [6.0, 1.0, 0.5, 100.0][input.bits(2, 2)],
        clipping: input.bits(4, 1) == 0,
        length_penalty: input.bits(5, 1) == 0,
    };
    let scores = cider_scores(&hyps, &refs, &options).unwrap();
    let high = if options.clipping { 10.0 + 1e-9 } else { f64::MAX };
    for score in &scores {
        assert_in_range("CIDEr", *score, 0.0, high, &input);
    }
    assert_eq!(scores, cider_scores(&hyps, &refs, &options).unwrap(), "CIDEr not deterministic on {input:?}");
}

/// EM/F1 under every normaliser: in range, EM of an answer with itself 1, F1 symmetric for one gold.
pub fn qa(data: &[u8]) {
    let input = FuzzInput::decode(data, 1 + MAX_REFS);
    let (prediction, golds) = input.hypothesis_and_references();
    let normalizer = match input.bits(0, 3) {
        0 => QaNormalizer::Squad,
        1 => QaNormalizer::SquadV2,
        2 => QaNormalizer::Cmrc,
        k => QaNormalizer::Mlqa(
            [MlqaLanguage::En, MlqaLanguage::Es, MlqaLanguage::Hi, MlqaLanguage::Vi, MlqaLanguage::Zh][k - 3],
        ),
    };
    let score = score_answer(prediction, &golds, normalizer).unwrap();
    assert!(score.exact == 0.0 || score.exact == 1.0, "EM {} on {input:?}", score.exact);
    assert_in_range("F1", score.f1, 0.0, 1.0, &input);
    assert_eq!(
        score_answer(prediction, &[prediction], normalizer).unwrap().exact,
        1.0,
        "EM of an answer with itself on {input:?}"
    );
    let direct = score_answer(prediction, &golds[..1], normalizer).unwrap().f1;
    let swapped = score_answer(golds[0], &[prediction], normalizer).unwrap().f1;
    assert!((direct - swapped).abs() < 1e-12, "F1 not symmetric ({direct} vs {swapped}) on {input:?}");
}
