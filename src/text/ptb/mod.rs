//! The Stanford PTB tokenizer as pycocoevalcap runs it (CoreNLP 3.4.1 `PTBTokenizer -preserveLines
//! -lowerCase`, then pycocoevalcap's punctuation filter), natively.
//!
//! pycocoevalcap writes every caption as one line of a file; the lexer sees the next line as
//! lookahead (e.g. `plan b.` followed by a caption starting `A …` loses its period), so
//! [`coco_tokenize_lines`] tokenizes a whole batch in that order, exactly as the jar would.

mod lexer;
mod rules;
mod scan;
mod tables;
mod token;
mod web;

use rayon::prelude::*;

/// pycocoevalcap/tokenizer/ptbtokenizer.py `PUNCTUATIONS`: tokens dropped after tokenization.
/// The list is upper case, so the lower-cased `-lrb-` etc. survive (a known quirk).
pub const COCO_PUNCTUATIONS: [&str; 17] =
    ["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--", "...", ";"];

/// How many characters of the following lines the lexer may look at (its longest trailing context
/// is a newline run plus a short word).
const LOOKAHEAD: usize = 64;

/// Lexer input for one line: the line, then the following lines (newline-separated) as lookahead.
fn line_chars<S: AsRef<str>>(line: &str, following: &[S]) -> (Vec<char>, usize) {
    let mut chars: Vec<char> = line.chars().map(|c| if c == '\n' { ' ' } else { c }).collect();
    let end = chars.len();
    for next in following {
        if chars.len() >= end + LOOKAHEAD {
            break;
        }
        chars.push('\n');
        chars.extend(next.as_ref().chars().take(LOOKAHEAD).map(|c| if c == '\n' { ' ' } else { c }));
    }
    (chars, end)
}

/// The lower-cased PTB tokens of one line (before pycocoevalcap's filter). `following` are the
/// next lines of the same batch (used only as lookahead).
pub fn ptb_tokens<S: AsRef<str>>(line: &str, following: &[S]) -> Vec<String> {
    let (chars, end) = line_chars(line, following);
    lexer::lex(&chars, end).into_iter().map(|token| token.to_lowercase()).collect()
}

/// One caption as pycocoevalcap returns it: PTB tokens minus its punctuation list, joined by spaces.
pub fn coco_tokenize<S: AsRef<str>>(line: &str, following: &[S]) -> String {
    let tokens = ptb_tokens(line, following);
    let kept: Vec<&str> = tokens.iter().map(String::as_str).filter(|t| !COCO_PUNCTUATIONS.contains(t)).collect();
    kept.join(" ")
}

/// Tokenizes a batch of captions in file order (each sees the next as lookahead), in parallel.
pub fn coco_tokenize_lines<S: AsRef<str> + Sync>(lines: &[S]) -> Vec<String> {
    (0..lines.len())
        .into_par_iter()
        .map(|i| coco_tokenize(lines[i].as_ref(), &lines[i + 1..lines.len().min(i + 1 + LOOKAHEAD)]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(line: &str) -> String {
        ptb_tokens::<&str>(line, &[]).join(" ")
    }

    #[test]
    fn clitics_and_assimilations() {
        assert_eq!(tok("it's can't won't I'm they've."), "it 's ca n't wo n't i 'm they 've .");
        // At the very end of the text the jar reads `'ve` as an opening quote.
        assert_eq!(tok("they've"), "they ` ve");
        assert_eq!(tok("cannot gonna 'tis"), "can not gon na 't is");
    }

    #[test]
    fn hyphens_brackets_and_quotes() {
        assert_eq!(tok("a t-shirt (red) tree- --x"), "a t-shirt -lrb- red -rrb- tree - -- x");
        assert_eq!(tok("\"P.I.N.K.\" on"), "`` p.i.n.k. '' on");
        assert_eq!(
            coco_tokenize::<&str>("A (red) \"P.I.N.K.\" t-shirt, ok...", &[]),
            "a -lrb- red -rrb- p.i.n.k. t-shirt ok"
        );
    }

    #[test]
    fn acronym_before_a_sentence_start_loses_its_period() {
        assert_eq!(tok("plan b. The end"), "plan b . the end");
        assert_eq!(tok("plan b. the end"), "plan b. the end");
        assert_eq!(ptb_tokens("plan b.", &["", "A dog"]).join(" "), "plan b .");
    }
}
