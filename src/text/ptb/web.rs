//! The PTB lexer's web-text rules: URLs, e-mail addresses and Twitter names, SGML tags, file names.
//! Split from `rules.rs` (same contract: each `offer`s candidates to the longest-match driver in
//! `lexer.rs`, or returns a match length).

use super::scan::*;
use super::token::Emit;

pub(super) fn url_email_twitter(t: &Text<'_>, i: usize, offer: &mut impl FnMut(usize, usize, Emit)) {
    // FULLURL (3.4.1) = scheme://[^ \t\n\f\r"<>|(){}]+[^ \t\n\f\r"<>|.!?(){},-]
    for scheme in ["ftp", "svn", "svn+ssh", "http", "https", "mailto"] {
        if t.lit(i, scheme) && t.lit(i + scheme.len(), "://") {
            let start = i + scheme.len() + 3;
            let run = t.run(start, |c| {
                !matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r' | '"' | '<' | '>' | '|' | '(' | ')' | '{' | '}')
            });
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
        let outside = |c: char| {
            matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r' | '"' | '<' | '>' | '|' | '(' | ')' | '\u{A0}' | '{' | '}')
        };
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
pub(super) fn sgml(t: &Text<'_>, i: usize) -> usize {
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

pub(super) fn likely_url(t: &Text<'_>, i: usize) -> usize {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{C}' | '\r');
    let mut end = 0;
    if t.lit(i, "www.") {
        // ([^ …"<>|.!?(){},]+\.)+[a-zA-Z]{2,4}
        let label =
            |c: char| !space(c) && !matches!(c, '"' | '<' | '>' | '|' | '.' | '!' | '?' | '(' | ')' | '{' | '}' | ',');
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
                && !(','..='_').contains(&c)
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

pub(super) const FILENAME_EXT: &[&str] = &[
    "bat", "bmp", "bz2", "c", "class", "cgi", "cpp", "dll", "doc", "docx", "exe", "gif", "gz", "h", "htm", "html",
    "jar", "java", "jpeg", "jpg", "mov", "mp3", "pdf", "php", "pl", "png", "ppt", "ps", "py", "sql", "tar", "txt",
    "wav", "x", "xml", "zip", "3gp", "wma", "wmv", "avi", "flv", "mp4", "mpg",
];

/// FILENAME with its trailing context: the longest `name.ext` followed by a space or `.?!,"'<`.
pub(super) fn filename(t: &Text<'_>, i: usize) -> usize {
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
                if t.lit(j + 1, ext)
                    && t.is(end, |c| is_space_nl(c) || matches!(c, '.' | '?' | '!' | ',' | '"' | '\'' | '<'))
                {
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
