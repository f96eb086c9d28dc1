//! Character classes and the scanning primitives of the PTB lexer: each method returns the length
//! of the longest match of one PTBLexer.flex macro (WORD, NUM, THING, …) at a position.

use super::tables::{DIGIT, JAR_THING, JAR_WORD};
use crate::text::ranges::contains as in_ranges;

/// A character that joins words in the 3.4.1 lexer (probed table), or the soft hyphen.
pub(super) fn is_word_char(c: char) -> bool {
    c == '\u{AD}' || in_ranges(JAR_WORD, c)
}

/// LETTER: the jar's word characters that are not decimal digits.
pub(super) fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    is_word_char(c) && !in_ranges(DIGIT, c)
}

/// DIGIT: decimal digits (general category Nd) the jar knows.
pub(super) fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(DIGIT, c) && is_word_char(c)
}

pub(super) fn is_alnum(c: char) -> bool {
    is_letter(c) || is_digit(c)
}

/// `[\p{Alpha}\p{Digit}]` as THING sees it (narrower than LETTER: no combining marks etc.).
pub(super) fn is_thing_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    // The probe also joined THING's own hyphens; they separate parts, they are not part characters.
    !matches!(c, '\u{58A}' | '\u{2010}' | '\u{2011}') && in_ranges(JAR_THING, c)
}

/// SPACE: characters skipped between tokens on a line.
pub(super) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{A0}' | '\u{2000}'..='\u{200A}' | '\u{3000}')
}

/// NEWLINE characters (pycocoevalcap only ever passes `\n` between captions).
pub(super) fn is_newline(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{B}' | '\u{C}' | '\u{85}')
}

pub(super) fn is_space_nl(c: char) -> bool {
    is_space(c) || is_newline(c)
}

pub(super) struct Text<'a> {
    pub(super) c: &'a [char],
}

impl<'a> Text<'a> {
    pub(super) fn at(&self, i: usize) -> Option<char> {
        self.c.get(i).copied()
    }

    pub(super) fn is(&self, i: usize, pred: impl Fn(char) -> bool) -> bool {
        self.at(i).is_some_and(pred)
    }

    /// Caseless ASCII literal at `i` (the scanner is %caseless for literals).
    pub(super) fn lit(&self, i: usize, literal: &str) -> bool {
        let mut j = i;
        for expected in literal.chars() {
            match self.at(j) {
                Some(c) if c.eq_ignore_ascii_case(&expected) => j += 1,
                _ => return false,
            }
        }
        true
    }

    pub(super) fn run(&self, i: usize, pred: impl Fn(char) -> bool) -> usize {
        let mut j = i;
        while self.is(j, &pred) {
            j += 1;
        }
        j - i
    }

    /// APOS = ['\u0092\u2019´] | &apos;
    pub(super) fn apos(&self, i: usize) -> usize {
        match self.at(i) {
            Some('\'' | '\u{92}' | '\u{2019}') => 1,
            Some('&') if self.lit(i, "&apos;") => 6,
            _ => 0,
        }
    }

    /// APOSETCETERA = APOS | [`\u0091\u2018\u201B]
    pub(super) fn apos_etc(&self, i: usize) -> usize {
        match self.at(i) {
            Some('`' | '\u{91}' | '\u{2018}' | '\u{201B}') => 1,
            _ => self.apos(i),
        }
    }

    /// WORD = LETTER (LETTER|DIGIT)* ([.!?] LETTER (LETTER|DIGIT)*)*
    pub(super) fn word(&self, i: usize) -> usize {
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
    pub(super) fn num(&self, i: usize) -> usize {
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
    pub(super) fn number(&self, i: usize) -> usize {
        let sign = usize::from(self.is(i, |c| c == '-' || c == '+'));
        let n = self.num(i + sign);
        if n == 0 {
            0
        } else {
            sign + n
        }
    }

    /// ACRO = [A-Za-z](\.[A-Za-z])*  (returns its length; `min_dots` = 1 for ACRO2)
    pub(super) fn acro(&self, i: usize, min_dots: usize) -> usize {
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
    pub(super) fn thing(&self, i: usize) -> usize {
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
    pub(super) fn hthing(&self, i: usize) -> usize {
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
    pub(super) fn thing3(&self, i: usize) -> usize {
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
    pub(super) fn redaux(&self, i: usize) -> usize {
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
    pub(super) fn sredaux(&self, i: usize) -> usize {
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
