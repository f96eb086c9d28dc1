//! What a lexer rule emits for its match: shared by the rules (`rules.rs`), which propose matches,
//! and the lexer (`lexer.rs`), which keeps the longest and builds its token, so that imports go
//! one way: `lexer` → `rules` → `token`.

/// What a matched rule emits.
#[derive(Debug, Clone)]
pub(super) enum Emit {
    /// The matched text itself.
    Text,
    /// A replacement string.
    Replace(String),
    /// Nothing (whitespace, deleted characters).
    Skip,
    /// The matched text with its quotes normalised (`handleQuotes(text, probablyLeft)`), built only
    /// if the candidate wins.
    Quotes { probably_left: bool },
}
