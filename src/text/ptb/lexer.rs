//! A longest-match lexer reproducing the Stanford PTBTokenizer of CoreNLP 3.4.1 (PTBLexer.flex,
//! default options: ptb3Escaping, untokenizable=firstDelete) as pycocoevalcap runs it.
//!
//! Like JFlex, every rule proposes a match at the current position; the longest one wins (the text
//! of a trailing context `r/s` counts toward the length), ties go to the rule listed first. Rules
//! are written as small hand matchers over `char`s. Behaviour was learned from the flex spec and by
//! probing the 3.4.1 jar; the quirks are deliberate (e.g. `cannot` → `can not`, `(` → `-LRB-`,
//! `"P.I.N.K."` keeps its periods, `A. He` drops the period of a one-letter acronym).

use super::tables::{DIGIT, JAR_SYMBOL, JAR_THING, JAR_WORD};

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let cp = c as u32;
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A character that joins words in the 3.4.1 lexer (probed table), or the soft hyphen.
fn is_word_char(c: char) -> bool {
    c == '\u{AD}' || in_ranges(JAR_WORD, c)
}

/// LETTER: the jar's word characters that are not decimal digits.
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    is_word_char(c) && !in_ranges(DIGIT, c)
}

/// DIGIT: decimal digits (general category Nd) the jar knows.
fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(DIGIT, c) && is_word_char(c)
}

fn is_alnum(c: char) -> bool {
    is_letter(c) || is_digit(c)
}

/// `[\p{Alpha}\p{Digit}]` as THING sees it (narrower than LETTER: no combining marks etc.).
fn is_thing_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    // The probe also joined THING's own hyphens; they separate parts, they are not part characters.
    !matches!(c, '\u{58A}' | '\u{2010}' | '\u{2011}') && in_ranges(JAR_THING, c)
}

/// SPACE: characters skipped between tokens on a line.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{A0}' | '\u{2000}'..='\u{200A}' | '\u{3000}')
}

/// NEWLINE characters (pycocoevalcap only ever passes `\n` between captions).
fn is_newline(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{B}' | '\u{C}' | '\u{85}')
}

fn is_space_nl(c: char) -> bool {
    is_space(c) || is_newline(c)
}

/// What a matched rule emits.
#[derive(Debug, Clone)]
enum Emit {
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

struct Candidate {
    /// Characters matched including trailing context (decides the longest match).
    total: usize,
    /// Characters consumed as the token (the rest is pushed back).
    token: usize,
    emit: Emit,
}

struct Text<'a> {
    c: &'a [char],
}

impl<'a> Text<'a> {
    fn at(&self, i: usize) -> Option<char> {
        self.c.get(i).copied()
    }

    fn is(&self, i: usize, pred: impl Fn(char) -> bool) -> bool {
        self.at(i).map_or(false, pred)
    }

    /// Caseless ASCII literal at `i` (the scanner is %caseless for literals).
    fn lit(&self, i: usize, literal: &str) -> bool {
        let mut j = i;
        for expected in literal.chars() {
            match self.at(j) {
                Some(c) if c.to_ascii_lowercase() == expected.to_ascii_lowercase() => j += 1,
                _ => return false,
            }
        }
        true
    }

    fn run(&self, i: usize, pred: impl Fn(char) -> bool) -> usize {
        let mut j = i;
        while self.is(j, &pred) {
            j += 1;
        }
        j - i
    }

    /// APOS = ['\u0092\u2019´] | &apos;
    fn apos(&self, i: usize) -> usize {
        match self.at(i) {
            Some('\'' | '\u{92}' | '\u{2019}') => 1,
            Some('&') if self.lit(i, "&apos;") => 6,
            _ => 0,
        }
    }

    /// APOSETCETERA = APOS | [`\u0091\u2018\u201B]
    fn apos_etc(&self, i: usize) -> usize {
        match self.at(i) {
            Some('`' | '\u{91}' | '\u{2018}' | '\u{201B}') => 1,
            _ => self.apos(i),
        }
    }

    /// WORD = LETTER (LETTER|DIGIT)* ([.!?] LETTER (LETTER|DIGIT)*)*
    fn word(&self, i: usize) -> usize {
        if !self.is(i, is_letter) {
            return 0;
        }
        let mut j = i + 1 + self.run(i + 1, is_alnum);
        while self.is(j, |c| matches!(c, '.' | '!' | '?')) && self.is(j + 1, is_letter) {
            j += 2 + self.run(j + 2, is_alnum);
        }
        j - i
    }

    /// NUM = DIGIT*([.:,]DIGIT+)+ | DIGIT+([.:,]DIGIT+)*
    fn num(&self, i: usize) -> usize {
        let lead = self.run(i, is_digit);
        let groups = |mut j: usize, seps: &[char]| {
            let mut count = 0;
            while self.is(j, |c| seps.contains(&c)) && self.is(j + 1, is_digit) {
                j += 1 + self.run(j + 1, is_digit);
                count += 1;
            }
            (j, count)
        };
        // 3.4.1: both alternatives accept ':' (so ":30" is a number).
        let (end_a, groups_a) = groups(i + lead, &['.', ':', ',']);
        let alt_a = if groups_a > 0 { end_a - i } else { 0 };
        let alt_b = if lead > 0 { groups(i + lead, &['.', ':', ',']).0 - i } else { 0 };
        alt_a.max(alt_b)
    }

    /// NUMBER = [-+]? NUM
    fn number(&self, i: usize) -> usize {
        let sign = usize::from(self.is(i, |c| c == '-' || c == '+'));
        let n = self.num(i + sign);
        if n == 0 {
            0
        } else {
            sign + n
        }
    }

    /// ACRO = [A-Za-z](\.[A-Za-z])*  (returns its length; `min_dots` = 1 for ACRO2)
    fn acro(&self, i: usize, min_dots: usize) -> usize {
        if !self.is(i, |c| c.is_ascii_alphabetic()) {
            return 0;
        }
        let mut j = i + 1;
        let mut dots = 0;
        while self.at(j) == Some('.') && self.is(j + 1, |c| c.is_ascii_alphabetic()) {
            j += 2;
            dots += 1;
        }
        if dots < min_dots {
            0
        } else {
            j - i
        }
    }

    /// THING (3.4.1) = ([dDoOlL]{APOSETC}[alnum])? [alnum]+ ({HYPHEN} ([dDoOlL]{APOSETC}[alnum])? [alnum]+)*
    fn thing(&self, i: usize) -> usize {
        let part = |j: usize| -> Vec<usize> {
            let mut starts = vec![j];
            if self.is(j, |c| matches!(c, 'd' | 'D' | 'o' | 'O' | 'l' | 'L')) {
                let a = self.apos_etc(j + 1);
                if a > 0 && self.is(j + 1 + a, is_thing_char) {
                    starts.push(j + 1 + a + 1);
                }
            }
            let mut ends = Vec::new();
            for s in starts {
                let run = self.run(s, is_thing_char);
                if run > 0 {
                    ends.push(s + run);
                }
            }
            ends
        };
        let mut frontier = part(i);
        let mut best = frontier.iter().copied().max().unwrap_or(i);
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &e in &frontier {
                if self.is(e, |c| matches!(c, '-' | '_' | '\u{58A}' | '\u{2010}' | '\u{2011}')) {
                    next.extend(part(e + 1));
                }
            }
            next.sort_unstable();
            next.dedup();
            if let Some(&m) = next.iter().max() {
                best = best.max(m);
            }
            frontier = next;
        }
        best - i
    }

    /// HTHING (3.4.1, ASCII classes) = [A-Za-z0-9][A-Za-z0-9.,\u00AD]* (-([A-Za-z0-9\u00AD]+ | ACRO2\.))+
    fn hthing(&self, i: usize) -> usize {
        if !self.is(i, |c| c.is_ascii_alphanumeric()) {
            return 0;
        }
        let mut j = i + 1 + self.run(i + 1, |c| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '\u{AD}'));
        let mut segments = 0;
        while self.at(j) == Some('-') {
            let s = j + 1;
            let run = self.run(s, |c| c.is_ascii_alphanumeric() || c == '\u{AD}');
            let plain = run;
            let acro = self.acro(s, 1);
            let acro = if acro > 0 && self.at(s + acro) == Some('.') { acro + 1 } else { 0 };
            let step = plain.max(acro);
            if step == 0 {
                break;
            }
            j = s + step;
            segments += 1;
        }
        if segments == 0 {
            0
        } else {
            j - i
        }
    }

    /// THING3 = [alnum]+(-[alpha]+){0,2}(\\?/[alnum]+(-[alpha]+){0,2}){1,2}
    fn thing3(&self, i: usize) -> usize {
        let piece = |j: usize| -> usize {
            // ASCII classes in 3.4.1.
            let run = self.run(j, |c| c.is_ascii_alphanumeric());
            if run == 0 {
                return 0;
            }
            let mut k = j + run;
            for _ in 0..2 {
                if self.at(k) == Some('-') && self.is(k + 1, |c| c.is_ascii_alphabetic()) {
                    k += 1 + self.run(k + 1, |c| c.is_ascii_alphabetic());
                } else {
                    break;
                }
            }
            k - j
        };
        let first = piece(i);
        if first == 0 {
            return 0;
        }
        let mut j = i + first;
        let mut slashes = 0;
        while slashes < 2 {
            let bs = usize::from(self.at(j) == Some('\\'));
            if self.at(j + bs) != Some('/') {
                break;
            }
            let p = piece(j + bs + 1);
            if p == 0 {
                break;
            }
            j += bs + 1 + p;
            slashes += 1;
        }
        if slashes == 0 {
            0
        } else {
            j - i
        }
    }

    /// REDAUX = {APOS}([msdMSD]|re|ve|ll)
    fn redaux(&self, i: usize) -> usize {
        let a = self.apos(i);
        if a == 0 {
            return 0;
        }
        let j = i + a;
        if self.lit(j, "re") || self.lit(j, "ve") || self.lit(j, "ll") {
            a + 2
        } else if self.is(j, |c| matches!(c, 'm' | 's' | 'd' | 'M' | 'S' | 'D')) {
            a + 1
        } else {
            0
        }
    }

    /// SREDAUX = n{APOSETC}t
    fn sredaux(&self, i: usize) -> usize {
        if !self.is(i, |c| c == 'n' || c == 'N') {
            return 0;
        }
        let a = self.apos_etc(i + 1);
        if a > 0 && self.is(i + 1 + a, |c| c == 't' || c == 'T') {
            a + 2
        } else {
            0
        }
    }
}

/// Abbreviations that keep their period (PTBLexer ABBREV1, ABBREV2/4, ABBREV3); lowercase forms.
/// Entries marked by a leading `^` need an uppercase first letter (the spec's `[A]z` style classes).
const ABBREV1: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "tues",
    "wed", "thu", "thurs", "fri", "ala", "ariz", "^az", "^ark", "calif", "colo", "conn", "ct", "dak", "^del",
    "fla", "ga", "^ill", "ind", "kan", "kans", "ky", "^la", "^mass", "md", "mich", "minn", "^miss", "mo", "mont",
    "neb", "nev", "okla", "^ore", "^pa", "penn", "tenn", "^tex", "va", "vt", "^wash", "wis", "wisc", "wyo", "inc",
    "co", "cos", "corp", "pty", "pte", "ptys", "ptes", "ppty", "ppte", "pptys", "pptes", "ltd", "plc", "rt",
    "bancorp", "bhd", "assn", "univ", "intl", "sys", "tel", "est", "ext", "sq", "jr", "bros", "ed.d", "ph.d",
    "esq", "etc", "al", "seq", "bldg",
];
const ABBREV4: &[&str] = &[
    "mr", "mrs", "ms", "mx", "^miss", "dr", "drs", "prof", "profs", "sen", "sens", "rep", "reps", "atty", "attys",
    "lt", "col", "gen", "messrs", "gov", "govs", "adm", "rev", "maj", "sgt", "cpl", "pvt", "capt", "st", "ste",
    "ave", "pres", "lieut", "rt", "hon", "brig", "cmdr", "comdr", "pfc", "spc", "supt", "supts", "det", "mt", "ft",
    "adj", "adv", "asst", "assoc", "ens", "insp", "mlle", "mme", "msgr", "sfc", "sr", "vs", "alex", "wm", "jos",
    "cie", "a.k.a", "cf", "treas", "ph", "invt", "elec", "natl", "mfg", "mtg", "dept", "blvd", "rd",
];
const ABBREV3: &[&str] = &[
    "ca", "fig", "figs", "prop", "no", "nos", "sec", "sect", "secs", "sects", "art", "arts", "para", "paras",
    "bldg", "pp", "op", "approx", "rs",
];
/// Words after which a sentence-final acronym gives back its period (first letter must be uppercase).
const ACRONYM_FOLLOWERS: &[&str] = &[
    "about", "according", "additionally", "after", "an", "a", "as", "at", "but", "did", "during", "earlier", "he",
    "her", "here", "how", "however", "if", "in", "it", "last", "many", "more", "mr.", "ms.", "now", "once", "one",
    "other", "our", "she", "since", "so", "some", "such", "that", "the", "their", "then", "there", "these", "they",
    "this", "we", "when", "while", "what", "who", "why", "yet", "you",
];

fn listed(list: &[&str], word: &[char], first_upper: bool) -> bool {
    let same = |entry: &str| entry.len() == word.len() && entry.chars().zip(word).all(|(e, &w)| w.to_ascii_lowercase() == e);
    list.iter().any(|&entry| match entry.strip_prefix('^') {
        Some(rest) => first_upper && same(rest),
        None => same(entry),
    })
}

fn ptb_quote(c: char, probably_left: bool) -> Option<&'static str> {
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
fn map_quotes(token: &[char], probably_left: bool) -> String {
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
fn is_misc_symbol(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '+' | '%' | '&' | '~' | '^' | '|' | '\\');
    }
    in_ranges(JAR_SYMBOL, c)
}

fn is_quote_char(c: char) -> bool {
    matches!(c, '`' | '\u{2018}'..='\u{201F}' | '\u{91}'..='\u{94}' | '\u{2039}' | '\u{203A}' | '\u{AB}' | '\u{BB}')
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
        if total > 0 && token > 0 && best.as_ref().map_or(true, |b| total > b.total) {
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
        for (entity, replacement) in [("&md;", Some("--")), ("&mdash;", Some("--")), ("&ndash;", Some("--")), ("&amp;", Some("&"))] {
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
    for special in ["-rrb-", "-lrb-", "-rcb-", "-lcb-", "-rsb-", "-lsb-", "c.d.s", "pro-", "anti-", "s&p-500", "s&amp;p-500", "s&ls", "s&amp;ls"] {
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
        let text: String = t.c[i..i + smiley].iter().map(|&c| match c {
            '(' => "-LRB-".to_string(),
            ')' => "-RRB-".to_string(),
            other => other.to_string(),
        }).collect();
        offer(smiley + 1, smiley, Emit::Replace(text));
    }
    let asian = asian_smiley(t, i);
    if asian > 0 {
        let text: String = t.c[i..i + asian].iter().map(|&c| match c {
            '(' => "-LRB-".to_string(),
            ')' => "-RRB-".to_string(),
            other => other.to_string(),
        }).collect();
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
    if matches!(c, ',' | ';' | ':' | '\u{3001}' | '.' | '\u{A1}' | '\u{BF}' | '\u{37E}' | '\u{589}' | '\u{61F}' | '\u{6D4}' | '\u{700}'..='\u{702}' | '\u{7FA}' | '\u{3002}' | '=' | '/') {
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
            offer(thinga + 2, thinga + 1, Emit::Replace(t.c[i..=i + thinga].iter().collect::<String>().replace("&amp;", "&")));
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

fn apoword(t: &Text<'_>, i: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
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
    if a > 0 && t.is(i + a, |c| c.is_ascii_digit()) && t.is(i + a + 1, |c| c.is_ascii_digit()) && t.is(i + a + 2, is_space_nl) {
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

fn url_email_twitter(t: &Text<'_>, i: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
    // FULLURL (3.4.1) = scheme://[^ \t\n\f\r"<>|(){}]+[^ \t\n\f\r"<>|.!?(){},-]
    for scheme in ["ftp", "svn", "svn+ssh", "http", "https", "mailto"] {
        if t.lit(i, scheme) && t.lit(i + scheme.len(), "://") {
            let start = i + scheme.len() + 3;
            let run = t.run(start, |c| !matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r' | '"' | '<' | '>' | '|' | '(' | ')' | '{' | '}'));
            let mut end = start + run;
            while end > start + 1 && t.is(end - 1, |c| matches!(c, '.' | '!' | '?' | '{' | '}' | ',' | '-')) {
                end -= 1;
            }
            if run >= 2 && end > start + 1 {
                offer(end - i, end - i, Emit::Text);
            }
        }
    }
    // LIKELYURL = (www\.([^ …|.!?(){},]+\.)+[a-zA-Z]{2,4} | ([^ …`'<>|.!?(){},-_$]+\.)+(com|net|org|edu)) (/path)?
    let likely = likely_url(t, i);
    if likely > 0 {
        offer(likely, likely, Emit::Text);
    }
    // EMAIL (3.4.1) = (&lt;|<)?[a-zA-Z0-9][^ \t\n\f\r"<>|()\u00A0{}]*@([^ …{}.\u00A0]+\.)*[^ …{}.\u00A0]+(&gt;|>)?
    let mut j = i;
    if t.at(j) == Some('<') {
        j += 1;
    } else if t.lit(j, "&lt;") {
        j += 4;
    }
    if t.is(j, |c| c.is_ascii_alphanumeric()) {
        let outside = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r' | '"' | '<' | '>' | '|' | '(' | ')' | '\u{A0}' | '{' | '}');
        let run = t.run(j + 1, |c| !outside(c));
        let mut best = 0;
        for at in (j + 1..j + 1 + run).rev() {
            if t.at(at) != Some('@') {
                continue;
            }
            let domain = t.run(at + 1, |c| !outside(c));
            let mut end = at + 1 + domain;
            while end > at + 1 && t.at(end - 1) == Some('.') {
                end -= 1;
            }
            let body: String = t.c[at + 1..end].iter().collect();
            if end > at + 1 && !body.starts_with('.') && !body.contains("..") {
                if t.at(end) == Some('>') {
                    end += 1;
                } else if t.lit(end, "&gt;") {
                    end += 4;
                }
                best = best.max(end - i);
            }
        }
        if best > 0 {
            offer(best, best, Emit::Text);
        }
    }
    // TWITTER (3.4.1) = @[a-zA-Z_][a-zA-Z_0-9]* | #LETTER+
    if t.at(i) == Some('@') && t.is(i + 1, |c| c.is_ascii_alphabetic() || c == '_') {
        let n = 2 + t.run(i + 2, |c| c.is_ascii_alphanumeric() || c == '_');
        offer(n, n, Emit::Text);
    }
    if t.at(i) == Some('#') && t.is(i + 1, is_letter) {
        let n = 1 + t.run(i + 1, is_letter);
        offer(n, n, Emit::Text);
    }
}

/// SGML1 tags, e.g. `<b>`, `<a href="x">`, `</a>`, `<!-- … -->`.
fn sgml(t: &Text<'_>, i: usize) -> usize {
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '.' | '-');
    let spaces = |j: usize| t.run(j, |c| c == ' ');
    let mut j = i + 1;
    match t.at(j) {
        Some('!' | '?') if t.is(j + 1, |c| c.is_ascii_alphabetic() || c == '-') => {
            j += 2 + t.run(j + 2, |c| c != '>' && c != '\r' && c != '\n');
        }
        Some('/') if t.is(j + 1, |c| c.is_ascii_alphabetic()) => {
            j += 2 + t.run(j + 2, name_char);
        }
        Some(c) if c.is_ascii_alphabetic() => {
            j += 1 + t.run(j + 1, name_char);
            loop {
                let s = spaces(j);
                if s == 0 || !t.is(j + s, |c| c.is_ascii_alphabetic()) {
                    break;
                }
                let mut k = j + s + 1 + t.run(j + s + 1, name_char);
                let s2 = spaces(k);
                if t.at(k + s2) == Some('=') {
                    let v = k + s2 + 1 + spaces(k + s2 + 1);
                    match t.at(v) {
                        Some(q @ ('\'' | '"')) => {
                            let body = t.run(v + 1, |c| c != q && c != '\n');
                            if t.at(v + 1 + body) != Some(q) {
                                break;
                            }
                            k = v + body + 2;
                        }
                        Some(c) if c.is_ascii_alphabetic() => k = v + 1 + t.run(v + 1, name_char),
                        _ => break,
                    }
                }
                j = k;
            }
            j += spaces(j);
            if t.at(j) == Some('/') {
                j += 1;
            }
        }
        _ => return 0,
    }
    j += spaces(j);
    if t.at(j) == Some('>') {
        j + 1 - i
    } else {
        0
    }
}

/// DATE = DIGIT{1,2}[-/]DIGIT{1,2}[-/]DIGIT{2,4}
fn date(t: &Text<'_>, i: usize) -> usize {
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
fn frac(t: &Text<'_>, i: usize) -> usize {
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
fn smiley(t: &Text<'_>, i: usize) -> usize {
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

fn is_smiley_mouth(c: char) -> bool {
    matches!(c, '(' | ')' | 'D' | 'P' | 'd' | 'p' | 'O' | '\\' | '{' | '@' | '|' | '[' | ']')
}

/// SPACEDLDOTS = \.[ \u00A0](\.[ \u00A0])+\.
fn spaced_dots(t: &Text<'_>, i: usize) -> usize {
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
fn thinga(t: &Text<'_>, i: usize) -> usize {
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

fn abbreviations(t: &Text<'_>, i: usize, word: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
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

fn likely_url(t: &Text<'_>, i: usize) -> usize {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r');
    let mut end = 0;
    if t.lit(i, "www.") {
        // ([^ …"<>|.!?(){},]+\.)+[a-zA-Z]{2,4}
        let label = |c: char| !space(c) && !matches!(c, '"' | '<' | '>' | '|' | '.' | '!' | '?' | '(' | ')' | '{' | '}' | ',');
        let mut j = i + 4;
        loop {
            let n = t.run(j, label);
            if n == 0 || t.at(j + n) != Some('.') {
                break;
            }
            j += n + 1;
            let tld = t.run(j, |c| c.is_ascii_alphabetic()).min(4);
            if tld >= 2 {
                end = end.max(j + tld - i);
            }
        }
    }
    {
        // ([^ …"`'<>|.!?(){},-_$]+\.)+(com|net|org|edu) — `,-_` is a range (U+002C..U+005F).
        let label = |c: char| {
            !space(c)
                && !matches!(c, '"' | '`' | '\'' | '<' | '>' | '|' | '.' | '!' | '?' | '(' | ')' | '{' | '}' | '$')
                && !(',' ..= '_').contains(&c)
        };
        let mut j = i;
        loop {
            let n = t.run(j, label);
            if n == 0 || t.at(j + n) != Some('.') {
                break;
            }
            j += n + 1;
            if ["com", "net", "org", "edu"].iter().any(|tld| t.lit(j, tld)) {
                end = end.max(j + 3 - i);
            }
        }
    }
    if end > 0 && t.at(i + end) == Some('/') {
        // (\/[^ …"<>|()]+[^ …"<>|.!?(){},-])?
        let start = i + end + 1;
        let run = t.run(start, |c| !space(c) && !matches!(c, '"' | '<' | '>' | '|' | '(' | ')'));
        let mut stop = start + run;
        while stop > start && t.is(stop - 1, |c| matches!(c, '.' | '!' | '?' | '{' | '}' | ',' | '-')) {
            stop -= 1;
        }
        if stop >= start + 2 {
            end = stop - i;
        }
    }
    end
}

/// ASIANSMILEY (the forms with an underscore or in parentheses), e.g. `^_^`, `(^-^)`.
fn asian_smiley(t: &Text<'_>, i: usize) -> usize {
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
        if t.is(i + 1, eye_no_dash) && t.at(i + 2) == Some('-') && t.is(i + 3, |c| eye_no_dash(c) || c == '`') && t.at(i + 4) == Some(')') {
            return 5;
        }
    }
    0
}

const FILENAME_EXT: &[&str] = &[
    "bat", "bmp", "bz2", "c", "class", "cgi", "cpp", "dll", "doc", "docx", "exe", "gif", "gz", "h", "htm", "html",
    "jar", "java", "jpeg", "jpg", "mov", "mp3", "pdf", "php", "pl", "png", "ppt", "ps", "py", "sql", "tar", "txt",
    "wav", "x", "xml", "zip", "3gp", "wma", "wmv", "avi", "flv", "mp4", "mpg",
];

/// FILENAME with its trailing context: the longest `name.ext` followed by a space or `.?!,"'<`.
fn filename(t: &Text<'_>, i: usize) -> usize {
    let alnum = |c: char| is_thing_char(c);
    let first = t.run(i, alnum);
    if first == 0 {
        return 0;
    }
    let mut best = 0;
    let mut j = i + first;
    loop {
        // Try ".ext" here.
        if t.at(j) == Some('.') {
            for ext in FILENAME_EXT {
                let end = j + 1 + ext.len();
                if t.lit(j + 1, ext) && t.is(end, |c| is_space_nl(c) || matches!(c, '.' | '?' | '!' | ',' | '"' | '\'' | '<')) {
                    best = best.max(end - i);
                }
            }
        }
        if t.is(j, |c| matches!(c, '.' | '_')) && t.is(j + 1, alnum) {
            j += 1 + t.run(j + 1, alnum);
        } else {
            break;
        }
    }
    best
}
