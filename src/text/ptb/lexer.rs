//! A longest-match lexer reproducing the Stanford PTBTokenizer of CoreNLP 3.4.1 (PTBLexer.flex,
//! default options: ptb3Escaping, untokenizable=firstDelete) as pycocoevalcap runs it.
//!
//! Like JFlex, every rule proposes a match at the current position; the longest one wins (the text
//! of a trailing context `r/s` counts toward the length), ties go to the rule listed first. Rules
//! are written as small hand matchers over `char`s. Behaviour was learned from the flex spec and by
//! probing the 3.4.1 jar; the quirks are deliberate (e.g. `cannot` → `can not`, `(` → `-LRB-`,
//! `"P.I.N.K."` keeps its periods, `A. He` drops the period of a one-letter acronym).

use super::rules::*;
use super::scan::*;
use super::token::Emit;
use super::web::*;

pub(super) struct Candidate {
    /// Characters matched including trailing context (decides the longest match).
    total: usize,
    /// Characters consumed as the token (the rest is pushed back).
    token: usize,
    emit: Emit,
}

/// Tokenizes `chars[start..end]`; characters after `end` (the next line) serve only as lookahead.
pub(super) fn lex(chars: &[char], end: usize) -> Vec<String> {
    let t = Text { c: chars };
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < end {
        let candidate = best_candidate(&t, i);
        let token = &chars[i..i + candidate.token];
        match candidate.emit {
            Emit::Text => {
                let text: String = token.iter().filter(|&&c| c != '\u{AD}').collect();
                // A lone soft hyphen comes out as a hyphen.
                tokens.push(if text.is_empty() { "-".to_string() } else { text });
            }
            Emit::Replace(text) => tokens.push(text),
            Emit::Quotes { probably_left } => tokens.push(map_quotes(token, probably_left)),
            Emit::Skip => {}
        }
        i += candidate.token.max(1);
    }
    tokens
}

fn best_candidate(t: &Text<'_>, i: usize) -> Candidate {
    // No rule starts with whitespace: skip it without trying them (the hot path).
    if t.is(i, |c| is_space_nl(c) || matches!(c, '\0' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{FEFF}')) {
        return Candidate { total: 1, token: 1, emit: Emit::Skip };
    }
    let mut best: Option<Candidate> = None;
    let mut offer = |total: usize, token: usize, emit: Emit| {
        if total > 0 && token > 0 && best.as_ref().is_none_or(|b| total > b.total) {
            best = Some(Candidate { total, token, emit });
        }
    };
    let c = t.at(i).unwrap_or(' ');
    let word = t.word(i);

    // PROG_LANGS: c++ c# f#
    if t.lit(i, "c++") {
        offer(3, 3, Emit::Text);
    }
    if t.lit(i, "c#") || t.lit(i, "f#") {
        offer(2, 2, Emit::Text);
    }
    // ASSIMILATIONS3 / 2: split "cannot", "'twas", "gonna" … by pushing back their tail.
    if t.lit(i, "cannot") {
        offer(6, 3, Emit::Text);
    }
    let a = t.apos(i);
    if a > 0 && t.lit(i + a, "twas") {
        offer(a + 4, a + 1, Emit::Replace("'t".into()));
    }
    if a > 0 && t.lit(i + a, "tis") {
        offer(a + 3, a + 1, Emit::Replace("'t".into()));
    }
    for assimilation in ["gonna", "gotta", "lemme", "gimme", "wanna"] {
        if t.lit(i, assimilation) {
            offer(5, 3, Emit::Text);
        }
    }
    // SGML tags, spaces inside become non-breaking spaces.
    if c == '<' {
        let n = sgml(t, i);
        if n > 0 {
            let text: String = t.c[i..i + n].iter().map(|&c| if c == ' ' { '\u{A0}' } else { c }).collect();
            offer(n, n, Emit::Replace(text));
        }
    }
    // SPMDASH, SPAMP, SPPUNC entities.
    if matches!(c, '\u{96}' | '\u{97}' | '\u{2013}' | '\u{2014}' | '\u{2015}') {
        offer(1, 1, Emit::Replace("--".into()));
    }
    if c == '&' {
        for (entity, replacement) in
            [("&md;", Some("--")), ("&mdash;", Some("--")), ("&ndash;", Some("--")), ("&amp;", Some("&"))]
        {
            if t.lit(i, entity) {
                let n = entity.len();
                offer(n, n, Emit::Replace(replacement.unwrap().into()));
            }
        }
        for entity in ["&ht;", "&tl;", "&ur;", "&lr;", "&qc;", "&ql;", "&qr;", "&odq;", "&cdq;"] {
            if t.lit(i, entity) {
                offer(entity.len(), entity.len(), Emit::Text);
            }
        }
        if t.at(i + 1) == Some('#') {
            let d = t.run(i + 2, |c| c.is_ascii_digit());
            if d > 0 && t.at(i + 2 + d) == Some(';') {
                offer(d + 3, d + 3, Emit::Text);
            }
        }
    }
    // WORD followed by a clitic ('s 'll …) or n't: the word alone.
    if word > 0 {
        let r = t.redaux(i + word);
        if r > 0 {
            offer(word + r, word, Emit::Text);
        }
        // SWORD is ASCII-only in 3.4.1.
        let alpha = t.run(i, |c| c.is_ascii_alphabetic());
        if alpha >= 2 && t.is(i + alpha - 1, |c| c == 'n' || c == 'N') {
            let s = t.sredaux(i + alpha - 1);
            if s > 0 && t.is(i + alpha - 2, |c| c != 'n' && c != 'N') {
                offer(alpha - 1 + s, alpha - 1, Emit::Text);
            }
        }
        offer(word, word, Emit::Text);
    }
    // APOWORD and friends: words with an apostrophe that stay whole.
    apoword(t, i, &mut offer);
    // FULLURL, EMAIL, TWITTER.
    url_email_twitter(t, i, &mut offer);
    // REDAUX / SREDAUX followed by a non-letter.
    let r = t.redaux(i);
    if r > 0 && t.is(i + r, |c| !c.is_ascii_alphabetic()) {
        offer(r + 1, r, Emit::Quotes { probably_left: false });
    }
    let s = t.sredaux(i);
    if s > 0 && t.is(i + s, |c| !c.is_ascii_alphabetic()) {
        offer(s + 1, s, Emit::Quotes { probably_left: false });
    }
    // DATE, NUMBER, FRAC.
    if is_digit(c) || matches!(c, '-' | '+' | '.' | ',' | ':') {
        let date = date(t, i);
        offer(date, date, Emit::Text);
        let n = t.number(i);
        offer(n, n, Emit::Text);
        let f = frac(t, i);
        if f > 0 {
            let text: String = t.c[i..i + f].iter().map(|&c| if c == ' ' { '\u{A0}' } else { c }).collect();
            offer(f, f, Emit::Replace(text));
        }
    }
    match c {
        '\u{BC}' => offer(1, 1, Emit::Replace("1/4".into())),
        '\u{BD}' => offer(1, 1, Emit::Replace("1/2".into())),
        '\u{BE}' => offer(1, 1, Emit::Replace("3/4".into())),
        '\u{2153}' => offer(1, 1, Emit::Replace("1/3".into())),
        '\u{2154}' => offer(1, 1, Emit::Replace("2/3".into())),
        '\u{2155}'..='\u{215E}' => offer(1, 1, Emit::Text),
        _ => {}
    }
    // TBSPEC: -LRB- … kept as tokens, a few fixed forms.
    for special in [
        "-rrb-",
        "-lrb-",
        "-rcb-",
        "-lcb-",
        "-rsb-",
        "-lsb-",
        "c.d.s",
        "pro-",
        "anti-",
        "s&p-500",
        "s&amp;p-500",
        "s&ls",
        "s&amp;ls",
    ] {
        if t.lit(i, special) {
            let n = special.len();
            offer(n, n, Emit::Replace(t.c[i..i + n].iter().collect::<String>().replace("&amp;", "&")));
        }
    }
    for (head, tail) in [("cap", "n"), ("c", "est")] {
        if t.lit(i, head) {
            let a = t.apos(i + head.len());
            if a > 0 && t.lit(i + head.len() + a, tail) {
                let n = head.len() + a + tail.len();
                offer(n, n, Emit::Quotes { probably_left: false });
            }
        }
    }
    // DOLSIGN = [A-Z]*\$ | # ; DOLSIGN2 currency signs.
    let upper = t.run(i, |c| c.is_ascii_uppercase());
    if t.at(i + upper) == Some('$') {
        offer(upper + 1, upper + 1, Emit::Text);
    }
    match c {
        '#' => offer(1, 1, Emit::Text),
        '\u{A2}' => offer(1, 1, Emit::Replace("cents".into())),
        '\u{A3}' => offer(1, 1, Emit::Replace("#".into())),
        '\u{80}' | '\u{A4}' | '\u{20A0}' | '\u{20AC}' => offer(1, 1, Emit::Replace("$".into())),
        '\u{AD}' => offer(1, 1, Emit::Replace("-".into())),
        _ => {}
    }
    // Acronyms and abbreviations.
    abbreviations(t, i, word, &mut offer);
    // FILENAME (3.4.1) = [alnum]+([._][alnum]+)*\.{FILENAME_EXT} / ({SPACENL}|[.?!,"'<]), after the abbreviations.
    let filename = filename(t, i);
    if filename > 0 {
        offer(filename + 1, filename, Emit::Text);
    }
    // DBLQUOT, LESSTHAN, GREATERTHAN, SMILEY, brackets.
    let dbl = if c == '"' {
        1
    } else if t.lit(i, "&quot;") {
        6
    } else if c == '\'' && t.at(i + 1) == Some('\'') {
        2
    } else {
        0
    };
    if dbl > 0 {
        if t.is(i + dbl, |c| c.is_ascii_alphanumeric() || c == '$') {
            offer(dbl + 1, dbl, Emit::Quotes { probably_left: true });
        }
        offer(dbl, dbl, Emit::Quotes { probably_left: false });
    }
    if c == '\u{7F}' {
        offer(1, 1, Emit::Skip);
    }
    if c == '<' {
        offer(1, 1, Emit::Replace("<".into()));
    }
    if t.lit(i, "&lt;") {
        offer(4, 4, Emit::Replace("<".into()));
    }
    if c == '>' {
        offer(1, 1, Emit::Replace(">".into()));
    }
    if t.lit(i, "&gt;") {
        offer(4, 4, Emit::Replace(">".into()));
    }
    let smiley = smiley(t, i);
    if smiley > 0 && t.is(i + smiley, |c| !c.is_ascii_alphanumeric()) {
        let text: String = t.c[i..i + smiley]
            .iter()
            .map(|&c| match c {
                '(' => "-LRB-".to_string(),
                ')' => "-RRB-".to_string(),
                other => other.to_string(),
            })
            .collect();
        offer(smiley + 1, smiley, Emit::Replace(text));
    }
    let asian = asian_smiley(t, i);
    if asian > 0 {
        let text: String = t.c[i..i + asian]
            .iter()
            .map(|&c| match c {
                '(' => "-LRB-".to_string(),
                ')' => "-RRB-".to_string(),
                other => other.to_string(),
            })
            .collect();
        offer(asian, asian, Emit::Replace(text));
    }
    match c {
        '{' => offer(1, 1, Emit::Replace("-LCB-".into())),
        '}' => offer(1, 1, Emit::Replace("-RCB-".into())),
        '[' => offer(1, 1, Emit::Replace("-LSB-".into())),
        ']' => offer(1, 1, Emit::Replace("-RSB-".into())),
        '(' => offer(1, 1, Emit::Replace("-LRB-".into())),
        ')' => offer(1, 1, Emit::Replace("-RRB-".into())),
        _ => {}
    }
    // HYPHENS, LDOTS, FNMARKS, ASTS, INSENTP, [?!]+, sentence punctuation, '=', '/'.
    let hyphens = t.run(i, |c| c == '-');
    if hyphens > 0 {
        let emit = if (3..=4).contains(&hyphens) { Emit::Replace("--".into()) } else { Emit::Text };
        offer(hyphens, hyphens, emit);
    }
    // LDOTS: three to five periods (3.4.1); a longer run continues with single periods.
    let dots = t.run(i, |c| c == '.').min(5);
    if dots >= 3 {
        offer(dots, dots, Emit::Replace("...".into()));
    }
    if matches!(c, '\u{85}' | '\u{2026}') {
        offer(1, 1, Emit::Replace("...".into()));
    }
    let spaced = spaced_dots(t, i);
    if spaced > 0 {
        offer(spaced, spaced, Emit::Replace("...".into()));
    }
    for mark in ['@', '#', '_', '*', '?', '!'] {
        if c == mark {
            let n = t.run(i, |x| x == mark || (matches!(mark, '?' | '!') && matches!(x, '?' | '!')));
            offer(n, n, Emit::Text);
        }
    }
    if c == '\\' && t.at(i + 1) == Some('*') {
        let mut n = 0;
        while n < 3 && t.at(i + 2 * n) == Some('\\') && t.at(i + 2 * n + 1) == Some('*') {
            n += 1;
        }
        offer(2 * n, 2 * n, Emit::Text);
    }
    if matches!(
        c,
        ',' | ';'
            | ':'
            | '\u{3001}'
            | '.'
            | '\u{A1}'
            | '\u{BF}'
            | '\u{37E}'
            | '\u{589}'
            | '\u{61F}'
            | '\u{6D4}'
            | '\u{700}'..='\u{702}' | '\u{7FA}' | '\u{3002}' | '=' | '/'
    ) {
        offer(1, 1, Emit::Text);
    }
    // HTHING (hyphenated words, optionally with a final period before , ; :), THING, THINGA, THING3.
    let h = t.hthing(i);
    if h > 0 {
        offer(h, h, Emit::Text);
        if t.at(i + h) == Some('.') && t.is(i + h + 1, |c| matches!(c, ',' | ';' | ':' | '\u{3001}')) {
            offer(h + 2, h + 1, Emit::Text);
        }
    }
    let th = t.thing3(i);
    offer(th, th, Emit::Text);
    let thing = t.thing(i);
    if thing > 0 {
        offer(thing, thing, Emit::Quotes { probably_left: false });
    }
    let thinga = thinga(t, i);
    if thinga > 0 {
        offer(thinga, thinga, Emit::Replace(t.c[i..i + thinga].iter().collect::<String>().replace("&amp;", "&")));
        if t.at(i + thinga) == Some('.') && t.is(i + thinga + 1, |c| matches!(c, ',' | ';' | ':' | '\u{3001}')) {
            offer(
                thinga + 2,
                thinga + 1,
                Emit::Replace(t.c[i..=i + thinga].iter().collect::<String>().replace("&amp;", "&")),
            );
        }
    }
    // QUOTES: a quote before a letter + non-space is an opening quote.
    // QUOTES = {APOS} | [`\u2018-\u201F…]{1,2}
    let class_run = if is_quote_char(c) { 1 + usize::from(t.is(i + 1, is_quote_char)) } else { 0 };
    let q = t.apos(i).max(class_run);
    if q > 0 {
        // 3.4.1: only an ASCII ' or ` before an ASCII letter and a non-space reads as an opening quote.
        if matches!(c, '\'' | '`') && t.is(i + q, |c| c.is_ascii_alphabetic()) && t.is(i + q + 1, |c| !is_space_nl(c)) {
            offer(q + 2, q, Emit::Quotes { probably_left: true });
        }
        offer(q, q, Emit::Quotes { probably_left: false });
    }
    let r = t.redaux(i);
    if r > 0 {
        offer(r, r, Emit::Quotes { probably_left: false });
    }
    let s = t.sredaux(i);
    if s > 0 {
        offer(s, s, Emit::Quotes { probably_left: false });
    }
    if t.lit(i, "<<") || t.lit(i, ">>") {
        offer(2, 2, Emit::Text);
    }
    if is_misc_symbol(c) {
        offer(1, 1, Emit::Text);
    }
    if t.lit(i, "&nbsp;") {
        offer(6, 6, Emit::Skip);
    }
    // Anything else: whitespace, or an untokenizable character (deleted).
    offer(1, 1, Emit::Skip);
    best.expect("the fallback rule always matches")
}
