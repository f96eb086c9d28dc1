//! Normalizers and tokenizers: text → tokens.
