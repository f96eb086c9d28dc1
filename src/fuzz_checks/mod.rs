//! The invariants our fuzz targets check, one function per target, shared by `cargo fuzz` (fuzz/) and by
//! `cargo test`, which replays the kept corpus (fuzz/corpus/<target>/*) through the same functions.
//!
//! Every check panics (with the input in the message) when an invariant breaks: no panic inside the library,
//! scores finite and in range, determinism, identity (a text against itself scores perfectly), symmetry and
//! reference-order invariance where the metric has them, and fast paths equal to their literal oracles.
//!
//! Input layout (see [`FuzzInput`]): tokenizer targets read the whole input as one lossily decoded UTF-8
//! text; kernel targets read two option bytes, then texts separated by the byte 0xFF (never valid UTF-8, so
//! a separator is never part of a text).

mod kernels;
mod meteor;
mod tokenizers;

/// Longest input a check looks at, in bytes: keeps each execution (and the corpus replay) fast.
pub const MAX_INPUT: usize = 4096;

/// A check: one fuzz target's body.
pub type Check = fn(&[u8]);

/// Every fuzz target by name (fuzz/fuzz_targets/<name>.rs calls the function of the same name).
pub const TARGETS: &[(&str, Check)] = &[
    ("tok_13a", tokenizers::tok_13a),
    ("tok_intl", tokenizers::tok_intl),
    ("tok_zh", tokenizers::tok_zh),
    ("tok_char", tokenizers::tok_char),
    ("tok_ptb", tokenizers::tok_ptb),
    ("tok_rouge", tokenizers::tok_rouge),
    ("tok_rouge155", tokenizers::tok_rouge155),
    ("tok_meteor", meteor::tok_meteor),
    ("tok_ter", tokenizers::tok_ter),
    ("tok_qa", tokenizers::tok_qa),
    ("bleu", kernels::bleu),
    ("chrf", kernels::chrf),
    ("ter", kernels::ter),
    ("rouge", kernels::rouge),
    ("lcs", kernels::lcs),
    ("rouge155", kernels::rouge155),
    ("meteor", meteor::meteor),
    ("cider", kernels::cider),
    ("qa", kernels::qa),
];

pub use kernels::{bleu, chrf, cider, lcs, qa, rouge, rouge155, ter};
pub use meteor::{meteor, tok_meteor};
pub use tokenizers::{tok_13a, tok_char, tok_intl, tok_ptb, tok_qa, tok_rouge, tok_rouge155, tok_ter, tok_zh};

/// A decoded kernel input: option bits and texts.
#[derive(Debug)]
pub struct FuzzInput {
    /// Two option bytes, little-endian; each target reads the bits it needs.
    pub flags: u16,
    pub texts: Vec<String>,
}

impl FuzzInput {
    /// The first two bytes are options, the rest texts separated by 0xFF (at most `max_texts`; the last
    /// keeps any further separators decoded as U+FFFD).
    pub fn decode(data: &[u8], max_texts: usize) -> FuzzInput {
        Self::decode_capped(data, max_texts, MAX_INPUT)
    }

    /// `decode`, each text cut to at most `max_text_bytes` (at a character boundary): for kernels whose
    /// reference algorithm is super-linear, so that one execution stays in milliseconds.
    pub fn decode_capped(data: &[u8], max_texts: usize, max_text_bytes: usize) -> FuzzInput {
        let data = &data[..data.len().min(MAX_INPUT)];
        let flags = u16::from_le_bytes([data.first().copied().unwrap_or(0), data.get(1).copied().unwrap_or(0)]);
        let rest = data.get(2..).unwrap_or(&[]);
        let texts = rest
            .splitn(max_texts.max(1), |&b| b == 0xFF)
            .map(|part| {
                let mut text = String::from_utf8_lossy(part).into_owned();
                let mut end = text.len().min(max_text_bytes);
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
                text
            })
            .collect();
        FuzzInput { flags, texts }
    }

    /// Bits `shift..shift + width` of the flags.
    pub fn bits(&self, shift: u32, width: u32) -> usize {
        ((self.flags >> shift) & ((1 << width) - 1)) as usize
    }

    /// The hypothesis (first text) and the references (the others; an empty reference when there are none).
    pub fn hypothesis_and_references(&self) -> (&str, Vec<&str>) {
        let mut refs: Vec<&str> = self.texts.iter().skip(1).map(String::as_str).collect();
        if refs.is_empty() {
            refs.push("");
        }
        (self.texts[0].as_str(), refs)
    }
}

/// A tokenizer input: the whole input, lossily decoded.
pub fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_INPUT)]).into_owned()
}

/// Panics unless `x` is finite and in `low..=high`.
#[track_caller]
pub(crate) fn assert_in_range(what: &str, x: f64, low: f64, high: f64, input: &dyn std::fmt::Debug) {
    assert!(x.is_finite() && x >= low && x <= high, "{what} = {x} not in [{low}, {high}] on {input:?}");
}

#[cfg(test)]
mod replay;
