//! NLTK 3.10.4's `PorterStemmer` in its default `NLTK_EXTENSIONS` mode (`nltk/stem/porter.py`):
//! the stemmer of rouge_score 0.1.2 and of NLTK's METEOR. Words are Unicode scalar sequences, like
//! Python strings, so non-ASCII words stem exactly as NLTK stems them.

/// A letter of a word being stemmed: a byte for ASCII words (the common case, and faster), a
/// `char` otherwise.
trait Letter: Copy + PartialEq {
    fn get(self) -> char;
    /// The letter of an ASCII character (rule endings are ASCII).
    fn from_ascii(c: char) -> Self;
}

impl Letter for u8 {
    #[inline]
    fn get(self) -> char {
        self as char
    }
    #[inline]
    fn from_ascii(c: char) -> Self {
        c as u8
    }
}

impl Letter for char {
    #[inline]
    fn get(self) -> char {
        self
    }
    #[inline]
    fn from_ascii(c: char) -> Self {
        c
    }
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// `PorterStemmer._is_consonant`.
fn is_consonant<L: Letter>(word: &[L], mut i: usize) -> bool {
    if is_vowel(word[i].get()) {
        return false;
    }
    if word[i].get() == 'y' {
        let mut negate = false;
        while i > 0 && word[i].get() == 'y' {
            negate = !negate;
            i -= 1;
        }
        return is_vowel(word[i].get()) == negate;
    }
    true
}

/// `PorterStemmer._consonant_flags`, one flag at a time (no allocation: conditions run often).
fn consonant_flags<L: Letter>(word: &[L]) -> impl Iterator<Item = bool> + '_ {
    word.iter().scan(false, |previous, &letter| {
        let c = letter.get();
        let flag = if is_vowel(c) {
            false
        } else if c == 'y' {
            // A 'y' is a consonant at the start or after a vowel (i.e. after a non-consonant).
            !*previous
        } else {
            true
        };
        *previous = flag;
        Some(flag)
    })
}

/// Number of vowel→consonant transitions.
fn measure<L: Letter>(stem: &[L]) -> usize {
    let mut previous = true;
    let mut count = 0;
    for flag in consonant_flags(stem) {
        if !previous && flag {
            count += 1;
        }
        previous = flag;
    }
    count
}

fn contains_vowel<L: Letter>(stem: &[L]) -> bool {
    consonant_flags(stem).any(|consonant| !consonant)
}

fn ends_double_consonant<L: Letter>(word: &[L]) -> bool {
    let n = word.len();
    n >= 2 && word[n - 1] == word[n - 2] && is_consonant(word, n - 1)
}

fn ends_cvc<L: Letter>(word: &[L]) -> bool {
    let n = word.len();
    (n >= 3
        && is_consonant(word, n - 3)
        && !is_consonant(word, n - 2)
        && is_consonant(word, n - 1)
        && !matches!(word[n - 1].get(), 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(word, 0) && is_consonant(word, 1))
}

fn ends_with<L: Letter>(word: &[L], suffix: &str) -> bool {
    let mut end = word.len();
    for c in suffix.chars().rev() {
        if end == 0 || word[end - 1].get() != c {
            return false;
        }
        end -= 1;
    }
    true
}

/// Replaces the last `cut` characters of `word` by `ending`.
fn replace_end<L: Letter>(word: &mut Vec<L>, cut: usize, ending: &str) {
    word.truncate(word.len() - cut);
    word.extend(ending.chars().map(L::from_ascii));
}

/// A rule's condition, given the stem (the word without the suffix) and the whole word.
type Condition<'a, L> = &'a dyn Fn(&[L], &[L]) -> bool;

/// `_apply_rule_list`, in place: the first rule whose suffix matches decides (condition false →
/// unchanged).
fn apply_rules<L: Letter>(word: &mut Vec<L>, rules: &[(&str, &str, Option<Condition<'_, L>>)]) {
    for (suffix, replacement, condition) in rules {
        let cut = if *suffix == "*d" && ends_double_consonant(word) {
            2
        } else if ends_with(word, suffix) {
            suffix.chars().count()
        } else {
            continue;
        };
        if condition.is_none_or(|c| c(&word[..word.len() - cut], word)) {
            replace_end(word, cut, replacement);
        }
        return;
    }
}

fn positive<L: Letter>(stem: &[L], _word: &[L]) -> bool {
    measure(stem) > 0
}

fn step1a<L: Letter>(word: &mut Vec<L>) {
    if ends_with(word, "ies") && word.len() == 4 {
        return replace_end(word, 3, "ie");
    }
    apply_rules(word, &[("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None), ("s", "", None)])
}

fn step1b<L: Letter>(word: &mut Vec<L>) {
    if ends_with(word, "ied") {
        let ending = if word.len() == 4 { "ie" } else { "i" };
        return replace_end(word, 3, ending);
    }
    if ends_with(word, "eed") {
        if measure(&word[..word.len() - 3]) > 0 {
            replace_end(word, 3, "ee");
        }
        return;
    }
    let Some(cut) = ["ed", "ing"]
        .into_iter()
        .find(|suffix| ends_with(word, suffix) && contains_vowel(&word[..word.len() - suffix.len()]))
        .map(str::len)
    else {
        return;
    };
    word.truncate(word.len() - cut);
    let last = word.last().map_or(' ', |letter| letter.get());
    let last_string = last.to_string();
    let not_lsz = move |_: &[L], _: &[L]| !matches!(last, 'l' | 's' | 'z');
    let cvc = |s: &[L], _: &[L]| measure(s) == 1 && ends_cvc(s);
    apply_rules(
        word,
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &last_string, Some(&not_lsz)),
            ("", "e", Some(&cvc)),
        ],
    )
}

fn step1c<L: Letter>(word: &mut Vec<L>) {
    let condition = |stem: &[L], _: &[L]| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(&condition))])
}

fn step2<L: Letter>(word: &mut Vec<L>) {
    if ends_with(word, "alli") && measure(&word[..word.len() - 4]) > 0 {
        replace_end(word, 4, "al");
        return step2(word);
    }
    let p: Condition<'_, L> = &positive;
    let logi = |_: &[L], word: &[L]| measure(&word[..word.len() - 3]) > 0;
    apply_rules(
        word,
        &[
            ("ational", "ate", Some(p)),
            ("tional", "tion", Some(p)),
            ("enci", "ence", Some(p)),
            ("anci", "ance", Some(p)),
            ("izer", "ize", Some(p)),
            ("bli", "ble", Some(p)),
            ("alli", "al", Some(p)),
            ("entli", "ent", Some(p)),
            ("eli", "e", Some(p)),
            ("ousli", "ous", Some(p)),
            ("ization", "ize", Some(p)),
            ("ation", "ate", Some(p)),
            ("ator", "ate", Some(p)),
            ("alism", "al", Some(p)),
            ("iveness", "ive", Some(p)),
            ("fulness", "ful", Some(p)),
            ("ousness", "ous", Some(p)),
            ("aliti", "al", Some(p)),
            ("iviti", "ive", Some(p)),
            ("biliti", "ble", Some(p)),
            ("fulli", "ful", Some(p)),
            ("logi", "log", Some(&logi)),
        ],
    )
}

fn step3<L: Letter>(word: &mut Vec<L>) {
    let p: Condition<'_, L> = &positive;
    apply_rules(
        word,
        &[
            ("icate", "ic", Some(p)),
            ("ative", "", Some(p)),
            ("alize", "al", Some(p)),
            ("iciti", "ic", Some(p)),
            ("ical", "ic", Some(p)),
            ("ful", "", Some(p)),
            ("ness", "", Some(p)),
        ],
    )
}

fn step4<L: Letter>(word: &mut Vec<L>) {
    let gt1 = |stem: &[L], _: &[L]| measure(stem) > 1;
    let ion = |stem: &[L], _: &[L]| {
        measure(stem) > 1 && matches!(stem.last().map(|letter| letter.get()), Some('s') | Some('t'))
    };
    let g: Condition<'_, L> = &gt1;
    apply_rules(
        word,
        &[
            ("al", "", Some(g)),
            ("ance", "", Some(g)),
            ("ence", "", Some(g)),
            ("er", "", Some(g)),
            ("ic", "", Some(g)),
            ("able", "", Some(g)),
            ("ible", "", Some(g)),
            ("ant", "", Some(g)),
            ("ement", "", Some(g)),
            ("ment", "", Some(g)),
            ("ent", "", Some(g)),
            ("ion", "", Some(&ion)),
            ("ou", "", Some(g)),
            ("ism", "", Some(g)),
            ("ate", "", Some(g)),
            ("iti", "", Some(g)),
            ("ous", "", Some(g)),
            ("ive", "", Some(g)),
            ("ize", "", Some(g)),
        ],
    )
}

fn step5a<L: Letter>(word: &mut Vec<L>) {
    if ends_with(word, "e") {
        let stem = &word[..word.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            word.pop();
        }
    }
}

fn step5b<L: Letter>(word: &mut Vec<L>) {
    let condition = |_: &[L], word: &[L]| measure(&word[..word.len() - 1]) > 1;
    apply_rules(word, &[("ll", "l", Some(&condition))])
}

/// `nltk.stem.PorterStemmer().stem(word)` (NLTK_EXTENSIONS, lowercasing).
pub fn porter_stem(word: &str) -> String {
    let lower = word.to_lowercase();
    let irregular = match lower.as_str() {
        "sky" | "skies" => Some("sky"),
        "dying" => Some("die"),
        "lying" => Some("lie"),
        "tying" => Some("tie"),
        "news" => Some("news"),
        "innings" | "inning" => Some("inning"),
        "outings" | "outing" => Some("outing"),
        "cannings" | "canning" => Some("canning"),
        "howe" => Some("howe"),
        "proceed" => Some("proceed"),
        "exceed" => Some("exceed"),
        "succeed" => Some("succeed"),
        _ => None,
    };
    if let Some(stem) = irregular {
        return stem.to_string();
    }
    // The length test is on the word as given, before lowercasing.
    if word.chars().count() <= 2 {
        return lower;
    }
    if lower.is_ascii() {
        let stem = stem_letters(lower.into_bytes());
        // The steps only remove letters and append ASCII endings.
        String::from_utf8(stem).unwrap_or_default()
    } else {
        stem_letters(lower.chars().collect()).into_iter().collect()
    }
}

fn stem_letters<L: Letter>(mut word: Vec<L>) -> Vec<L> {
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        step(&mut word);
    }
    word
}

#[cfg(test)]
mod tests {
    use super::porter_stem;

    #[test]
    fn meteor_nltk_examples() {
        for (word, stem) in [("running", "run"), ("generalization", "gener"), ("dying", "die"), ("by", "by")] {
            assert_eq!(porter_stem(word), stem, "{word}");
        }
    }

    #[test]
    fn paper_examples() {
        for (word, stem) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("enjoy", "enjoy"),
            ("relational", "relat"),
            ("controll", "control"),
            ("cried", "cri"),
            ("died", "die"),
            ("yyyy", "yyyi"),
        ] {
            assert_eq!(porter_stem(word), stem, "{word}");
        }
    }
}
