//! The PTB lexer's multi-character rules (apostrophe words, dates, fractions, smileys, abbreviations;
//! URLs, e-mail, SGML and file names are in `web.rs`) and its quote and symbol tables. Each `offer`s candidates
//! to the longest-match driver in `lexer.rs`, or returns a match length.

use super::scan::*;
use super::tables::JAR_SYMBOL;
use super::token::Emit;
use super::web::sgml;
use crate::text::ranges::contains as in_ranges;

/// Abbreviations that keep their period (PTBLexer ABBREV1, ABBREV2/4, ABBREV3); lowercase forms.
/// Entries marked by a leading `^` need an uppercase first letter (the spec's `[A]z` style classes).
pub(super) const ABBREV1: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "tues", "wed",
    "thu", "thurs", "fri", "ala", "ariz", "^az", "^ark", "calif", "colo", "conn", "ct", "dak", "^del", "fla", "ga",
    "^ill", "ind", "kan", "kans", "ky", "^la", "^mass", "md", "mich", "minn", "^miss", "mo", "mont", "neb", "nev",
    "okla", "^ore", "^pa", "penn", "tenn", "^tex", "va", "vt", "^wash", "wis", "wisc", "wyo", "inc", "co", "cos",
    "corp", "pty", "pte", "ptys", "ptes", "ppty", "ppte", "pptys", "pptes", "ltd", "plc", "rt", "bancorp", "bhd",
    "assn", "univ", "intl", "sys", "tel", "est", "ext", "sq", "jr", "bros", "ed.d", "ph.d", "esq", "etc", "al", "seq",
    "bldg",
];
pub(super) const ABBREV4: &[&str] = &[
    "mr", "mrs", "ms", "mx", "^miss", "dr", "drs", "prof", "profs", "sen", "sens", "rep", "reps", "atty", "attys",
    "lt", "col", "gen", "messrs", "gov", "govs", "adm", "rev", "maj", "sgt", "cpl", "pvt", "capt", "st", "ste", "ave",
    "pres", "lieut", "rt", "hon", "brig", "cmdr", "comdr", "pfc", "spc", "supt", "supts", "det", "mt", "ft", "adj",
    "adv", "asst", "assoc", "ens", "insp", "mlle", "mme", "msgr", "sfc", "sr", "vs", "alex", "wm", "jos", "cie",
    "a.k.a", "cf", "treas", "ph", "invt", "elec", "natl", "mfg", "mtg", "dept", "blvd", "rd",
];
pub(super) const ABBREV3: &[&str] = &[
    "ca", "fig", "figs", "prop", "no", "nos", "sec", "sect", "secs", "sects", "art", "arts", "para", "paras", "bldg",
    "pp", "op", "approx", "rs",
];
/// Words after which a sentence-final acronym gives back its period (first letter must be uppercase).
pub(super) const ACRONYM_FOLLOWERS: &[&str] = &[
    "about",
    "according",
    "additionally",
    "after",
    "an",
    "a",
    "as",
    "at",
    "but",
    "did",
    "during",
    "earlier",
    "he",
    "her",
    "here",
    "how",
    "however",
    "if",
    "in",
    "it",
    "last",
    "many",
    "more",
    "mr.",
    "ms.",
    "now",
    "once",
    "one",
    "other",
    "our",
    "she",
    "since",
    "so",
    "some",
    "such",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "we",
    "when",
    "while",
    "what",
    "who",
    "why",
    "yet",
    "you",
];

pub(super) fn listed(list: &[&str], word: &[char], first_upper: bool) -> bool {
    let same =
        |entry: &str| entry.len() == word.len() && entry.chars().zip(word).all(|(e, &w)| w.to_ascii_lowercase() == e);
    list.iter().any(|&entry| match entry.strip_prefix('^') {
        Some(rest) => first_upper && same(rest),
        None => same(entry),
    })
}

pub(super) fn ptb_quote(c: char, probably_left: bool) -> Option<&'static str> {
    // latexQuotes of 3.4.1: ASCII quotes by position, the CP1252/Unicode ones by their direction.
    Some(match c {
        '\'' => {
            if probably_left {
                "`"
            } else {
                "'"
            }
        }
        '"' => {
            if probably_left {
                "``"
            } else {
                "''"
            }
        }
        '\u{91}' | '\u{2018}' | '\u{201B}' | '\u{2039}' => "`",
        '\u{92}' | '\u{2019}' | '\u{203A}' => "'",
        '\u{93}' | '\u{201C}' | '\u{AB}' => "``",
        '\u{94}' | '\u{201D}' | '\u{BB}' => "''",
        _ => return None,
    })
}

/// handleQuotes(tok, probablyLeft) for a token made of quote characters / words with apostrophes.
pub(super) fn map_quotes(token: &[char], probably_left: bool) -> String {
    let text: String = token.iter().collect();
    let text = text.replace("&apos;", "'").replace("&quot;", "\"");
    let chars: Vec<char> = text.chars().collect();
    // Two-character double quotes ('' `' '`) become one double quote.
    // 3.4.1 leaves a two-character ASCII quote ('' `' '`) as it is.
    if chars.len() == 2 && matches!((chars[0], chars[1]), ('\'', '\'') | ('\'', '`') | ('`', '\'')) {
        return text;
    }
    if chars.len() == 2 && matches!(chars[0], '\u{91}' | '\u{2018}') && chars[1] == '\'' {
        return "``".into();
    }
    if chars.len() == 2 && matches!(chars[0], '\u{92}' | '\u{2019}') && chars[1] == '\'' {
        return "''".into();
    }
    chars.iter().map(|&c| ptb_quote(c, probably_left).map_or_else(|| c.to_string(), str::to_owned)).collect()
}

/// One-character symbol tokens: ASCII MISCSYMBOL, and the non-ASCII ones probed from the jar.
pub(super) fn is_misc_symbol(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '+' | '%' | '&' | '~' | '^' | '|' | '\\');
    }
    in_ranges(JAR_SYMBOL, c)
}

pub(super) fn is_quote_char(c: char) -> bool {
    matches!(c, '`' | '\u{2018}'..='\u{201F}' | '\u{91}'..='\u{94}' | '\u{2039}' | '\u{203A}' | '\u{AB}' | '\u{BB}')
}

pub(super) fn apoword(t: &Text<'_>, i: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
    // APOWORD tokens are emitted as written (3.4.1 does not normalise their quotes).
    let mut take = |n: usize| {
        if n > 0 {
            offer(n, n, Emit::Text);
        }
    };
    let a = t.apos(i);
    if a > 0 {
        // {APOS}n{APOS}?  {APOS}em  {APOS}[2-9]0s  {APOS}till?  {APOS}cause
        if t.lit(i + a, "n") {
            let b = t.apos(i + a + 1);
            take(a + 1 + b);
        }
        if t.lit(i + a, "em") {
            take(a + 2);
        }
        if t.is(i + a, |c| ('2'..='9').contains(&c)) && t.at(i + a + 1) == Some('0') && t.lit(i + a + 2, "s") {
            take(a + 3);
        }
        if t.lit(i + a, "till") {
            take(a + 4);
        } else if t.lit(i + a, "til") {
            take(a + 3);
        }
        if t.lit(i + a, "cause") {
            take(a + 5);
        }
    }
    // [lLdDjJ]{APOS}
    if t.is(i, |c| matches!(c, 'l' | 'L' | 'd' | 'D' | 'j' | 'J')) {
        let b = t.apos(i + 1);
        if b > 0 {
            take(1 + b);
        }
    }
    for stem in ["dunkin", "somethin", "ol"] {
        if t.lit(i, stem) {
            let b = t.apos(i + stem.len());
            if b > 0 {
                take(stem.len() + b);
            }
        }
    }
    if t.lit(i, "diff") {
        let b = t.apos_etc(i + 4);
        if b > 0 && t.lit(i + 4 + b, "rent") {
            take(4 + b + 4);
        }
    }
    // [A-HJ-XZn]{APOSETC}[:letter:]{2}[:letter:]*
    if t.is(i, |c| matches!(c, 'A'..='H' | 'J'..='X' | 'Z' | 'n')) {
        let b = t.apos_etc(i + 1);
        if b > 0 {
            let letters = t.run(i + 1 + b, is_letter);
            if letters >= 2 {
                take(1 + b + letters);
            }
        }
    }
    // [:letter:]+[aeiouyAEIOUY]{APOSETC}[aeiouA-Z][:letter:]*
    let letters = t.run(i, is_letter);
    if letters >= 2 && t.is(i + letters - 1, |c| "aeiouyAEIOUY".contains(c)) {
        let b = t.apos_etc(i + letters);
        if b > 0 && t.is(i + letters + b, |c| "aeiou".contains(c) || c.is_ascii_uppercase()) {
            let rest = t.run(i + letters + b + 1, is_letter);
            take(letters + b + 1 + rest);
        }
    }
    for fixed in ["nor'easter", "c'mon", "e'er", "s'mores", "ev'ry", "li'l", "nat'l"] {
        if t.lit(i, fixed) {
            take(fixed.len());
        }
    }
    if t.lit(i, "cont'd") {
        take(6 + usize::from(t.at(i + 6) == Some('.')));
    }
    if t.is(i, |c| c == 'O') {
        let b = t.apos_etc(i + 1);
        if b > 0 && t.lit(i + 1 + b, "o") {
            take(b + 2);
        }
    }
    // TBSPEC2 = {APOS}[0-9][0-9] / {SPACENL}
    if a > 0
        && t.is(i + a, |c| c.is_ascii_digit())
        && t.is(i + a + 1, |c| c.is_ascii_digit())
        && t.is(i + a + 2, is_space_nl)
    {
        offer(a + 3, a + 2, Emit::Text);
    }
    // DEGREES = °[CF]
    if t.at(i) == Some('\u{B0}') && t.is(i + 1, |c| c == 'C' || c == 'F') {
        offer(2, 2, Emit::Text);
    }
    // APOWORD2 = y{APOS} / [:letter:]
    if t.is(i, |c| c == 'y' || c == 'Y') {
        let b = t.apos(i + 1);
        if b > 0 && t.is(i + 1 + b, is_letter) {
            offer(2 + b, 1 + b, Emit::Quotes { probably_left: false });
        }
    }
}

/// DATE = DIGIT{1,2}[-/]DIGIT{1,2}[-/]DIGIT{2,4}
pub(super) fn date(t: &Text<'_>, i: usize) -> usize {
    let d1 = t.run(i, is_digit);
    if !(1..=2).contains(&d1) || !t.is(i + d1, |c| c == '-' || c == '/') {
        return 0;
    }
    let j = i + d1 + 1;
    let d2 = t.run(j, is_digit);
    if !(1..=2).contains(&d2) || !t.is(j + d2, |c| c == '-' || c == '/') {
        return 0;
    }
    let k = j + d2 + 1;
    let d3 = t.run(k, is_digit).min(4);
    if d3 < 2 {
        return 0;
    }
    k + d3 - i
}

/// FRAC = (DIGIT{1,4}[- \u00A0])?DIGIT{1,4}(\\?/|\u2044)DIGIT{1,4}
pub(super) fn frac(t: &Text<'_>, i: usize) -> usize {
    let simple = |j: usize| -> usize {
        let d = t.run(j, is_digit);
        if !(1..=4).contains(&d) {
            return 0;
        }
        let mut k = j + d;
        if t.at(k) == Some('\\') && t.at(k + 1) == Some('/') {
            k += 2;
        } else if t.is(k, |c| c == '/' || c == '\u{2044}') {
            k += 1;
        } else {
            return 0;
        }
        let d2 = t.run(k, is_digit).min(4);
        if d2 == 0 {
            0
        } else {
            k + d2 - j
        }
    };
    let mut best = simple(i);
    let d = t.run(i, is_digit);
    if (1..=4).contains(&d) && t.is(i + d, |c| matches!(c, '-' | ' ' | '\u{A0}')) {
        let rest = simple(i + d + 1);
        if rest > 0 {
            best = best.max(d + 1 + rest);
        }
    }
    best
}

/// SMILEY = [<>]?[:;=][\-o\*']?[\(\)DPdpO\\{@\|\[\]]
pub(super) fn smiley(t: &Text<'_>, i: usize) -> usize {
    let mut j = i;
    if t.is(j, |c| c == '<' || c == '>') {
        j += 1;
    }
    if !t.is(j, |c| matches!(c, ':' | ';' | '=')) {
        return 0;
    }
    j += 1;
    if t.is(j, |c| matches!(c, '-' | 'o' | '*' | '\'')) && t.is(j + 1, is_smiley_mouth) {
        return j + 2 - i;
    }
    if t.is(j, is_smiley_mouth) {
        return j + 1 - i;
    }
    0
}

pub(super) fn is_smiley_mouth(c: char) -> bool {
    matches!(c, '(' | ')' | 'D' | 'P' | 'd' | 'p' | 'O' | '\\' | '{' | '@' | '|' | '[' | ']')
}

/// SPACEDLDOTS = \.[ \u00A0](\.[ \u00A0])+\.
pub(super) fn spaced_dots(t: &Text<'_>, i: usize) -> usize {
    let mut j = i;
    let mut pairs = 0;
    while t.at(j) == Some('.') && t.is(j + 1, |c| c == ' ' || c == '\u{A0}') {
        j += 2;
        pairs += 1;
    }
    if pairs >= 2 && t.at(j) == Some('.') {
        j + 1 - i
    } else if pairs >= 3 {
        // Backtrack one pair: the last "." must close the run.
        j - 1 - i
    } else {
        0
    }
}

/// THINGA = [A-Z]+(([+&]|&amp;)[A-Z]+)+
pub(super) fn thinga(t: &Text<'_>, i: usize) -> usize {
    let upper = |j: usize| t.run(j, |c| c.is_ascii_uppercase());
    let first = upper(i);
    if first == 0 {
        return 0;
    }
    let mut j = i + first;
    let mut groups = 0;
    loop {
        let sep = if t.is(j, |c| c == '+' || c == '&') && !t.lit(j, "&amp;") {
            1
        } else if t.lit(j, "&amp;") {
            5
        } else {
            0
        };
        if sep == 0 {
            break;
        }
        let next = upper(j + sep);
        if next == 0 {
            break;
        }
        j += sep + next;
        groups += 1;
    }
    if groups == 0 {
        0
    } else {
        j - i
    }
}

pub(super) fn abbreviations(t: &Text<'_>, i: usize, word: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
    let first_upper = t.is(i, |c| c.is_ascii_uppercase());
    // ACRONYM = ACRO\. ; before a listed sentence-starting word a one-letter acronym loses its period.
    let acro = t.acro(i, 0);
    if acro > 0 && t.at(i + acro) == Some('.') {
        let len = acro + 1;
        let mut j = i + len;
        let spaces = t.run(j, is_space_nl);
        if spaces > 0 {
            j += spaces;
            if t.at(j) == Some('<') && sgml(t, j) > 0 && t.is(j + sgml(t, j), is_space_nl) {
                let total = j + sgml(t, j) + 1 - i;
                if len == 2 {
                    offer(total, 1, Emit::Text);
                } else {
                    let text: String = t.c[i..i + len].iter().collect();
                    offer(total, len - 1, Emit::Replace(text));
                }
            }
            if t.is(j, |c| c.is_ascii_uppercase()) {
                for follower in ACRONYM_FOLLOWERS {
                    if t.lit(j, follower) && t.is(j + follower.len(), is_space_nl) {
                        let total = j + follower.len() + 1 - i;
                        if len == 2 {
                            offer(total, 1, Emit::Text);
                        } else {
                            // Reduplication: the token keeps its period and the period is lexed again.
                            let text: String = t.c[i..i + len].iter().collect();
                            offer(total, len - 1, Emit::Replace(text));
                        }
                    }
                }
            }
        }
        // ABBREV2 via ACRO: the acronym with its period.
        offer(len, len, Emit::Text);
    }
    // Letter-only abbreviations (and Ed.D / Ph.D / a.k.a).
    let letters = t.run(i, |c| c.is_ascii_alphabetic());
    let mut stems: Vec<usize> = Vec::new();
    if letters > 0 {
        stems.push(letters);
    }
    for dotted in ["ed.d", "ph.d", "a.k.a"] {
        if t.lit(i, dotted) {
            stems.push(dotted.len());
        }
    }
    for stem in stems {
        if t.at(i + stem) != Some('.') {
            if t.is(i + stem, is_space) && listed(ABBREV4, &t.c[i..i + stem], first_upper) {
                offer(stem + 1, stem, Emit::Text);
            }
            continue;
        }
        let text = &t.c[i..i + stem];
        let len = stem + 1;
        // ABBREV3 before a number.
        if listed(ABBREV3, text, first_upper) || text == ['P', 't'] {
            let sp = usize::from(t.is(i + len, is_space_nl));
            if t.is(i + len + sp, is_digit) {
                offer(len + sp + 1, len, Emit::Text);
            }
        }
        // (pt[eyEY]|co)\./{SPACE}(ltd|lim)
        if (listed(&["pte", "pty", "co"], text, false))
            && t.is(i + len, is_space)
            && (t.lit(i + len + 1, "ltd") || t.lit(i + len + 1, "lim"))
        {
            offer(len + 4, len, Emit::Text);
        }
        if listed(ABBREV1, text, first_upper) {
            // Before a sentence start (SENTEND1) or at the end of the text the period is reduplicated.
            let with_period: String = t.c[i..i + len].iter().collect();
            let sentence_end = t.is(i + len, is_space_nl)
                && t.is(i + len + 1, |c| is_space_nl(c) || c.is_uppercase() || (c == '<' && sgml(t, i + len + 1) > 0));
            if t.at(i + len + 1).is_none() {
                offer(len, len - 1, Emit::Replace(with_period));
            } else if sentence_end {
                offer(len + 2, len - 1, Emit::Replace(with_period));
            } else {
                offer(len + 2, len, Emit::Text);
            }
        }
        if listed(ABBREV4, text, first_upper) {
            offer(len, len, Emit::Text);
        }
    }
    // WORD\./{INSENTP}: a word keeps its period before , ; :
    if word > 0 && t.at(i + word) == Some('.') && t.is(i + word + 1, |c| matches!(c, ',' | ';' | ':' | '\u{3001}')) {
        offer(word + 2, word + 1, Emit::Text);
    }
    // ACRO/{SPACENL}
    if acro > 0 && t.is(i + acro, is_space_nl) {
        offer(acro + 1, acro, Emit::Text);
    }
}

/// ASIANSMILEY (the forms with an underscore or in parentheses), e.g. `^_^`, `(^-^)`.
pub(super) fn asian_smiley(t: &Text<'_>, i: usize) -> usize {
    let eye = |c: char| matches!(c, '-' | '^' | 'x' | '=' | '~' | '<' | '>' | '\'');
    let eye_no_dash = |c: char| matches!(c, '^' | 'x' | '=' | '~' | '<' | '>' | '\'');
    if t.is(i, eye) && t.at(i + 1) == Some('_') && t.is(i + 2, eye) {
        return 3;
    }
    if t.at(i) == Some('(') {
        if t.is(i + 1, eye) {
            let mid = usize::from(t.is(i + 2, |c| c == '_' || c == '.'));
            if t.is(i + 2 + mid, eye) && t.at(i + 3 + mid) == Some(')') {
                return 4 + mid;
            }
        }
        if t.is(i + 1, eye_no_dash)
            && t.at(i + 2) == Some('-')
            && t.is(i + 3, |c| eye_no_dash(c) || c == '`')
            && t.at(i + 4) == Some(')')
        {
            return 5;
        }
    }
    0
}
