//! NLTK 3.10.4's `PorterStemmer` in its default `NLTK_EXTENSIONS` mode (`nltk/stem/porter.py`):
//! the stemmer of rouge_score 0.1.2 and of NLTK's METEOR. Words are Unicode scalar sequences, like
//! Python strings, so non-ASCII words stem exactly as NLTK stems them.

fn is_vowel(c: char) -> bool {
    matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')
}

/// `PorterStemmer._is_consonant`.
fn is_consonant(word: &[char], mut i: usize) -> bool {
    if is_vowel(word[i]) {
        return false;
    }
    if word[i] == 'y' {
        let mut negate = false;
        while i > 0 && word[i] == 'y' {
            negate = !negate;
            i -= 1;
        }
        return (!is_vowel(word[i])) != negate;
    }
    true
}

/// `PorterStemmer._consonant_flags`.
fn consonant_flags(word: &[char]) -> Vec<bool> {
    let mut flags: Vec<bool> = Vec::with_capacity(word.len());
    for (i, &c) in word.iter().enumerate() {
        let flag = if is_vowel(c) {
            false
        } else if c == 'y' {
            i == 0 || !flags[i - 1]
        } else {
            true
        };
        flags.push(flag);
    }
    flags
}

/// Number of vowel→consonant transitions.
fn measure(stem: &[char]) -> usize {
    consonant_flags(stem).windows(2).filter(|w| !w[0] && w[1]).count()
}

fn contains_vowel(stem: &[char]) -> bool {
    !consonant_flags(stem).iter().all(|&c| c)
}

fn ends_double_consonant(word: &[char]) -> bool {
    let n = word.len();
    n >= 2 && word[n - 1] == word[n - 2] && is_consonant(word, n - 1)
}

fn ends_cvc(word: &[char]) -> bool {
    let n = word.len();
    (n >= 3
        && is_consonant(word, n - 3)
        && !is_consonant(word, n - 2)
        && is_consonant(word, n - 1)
        && !matches!(word[n - 1], 'w' | 'x' | 'y'))
        || (n == 2 && !is_consonant(word, 0) && is_consonant(word, 1))
}

fn ends_with(word: &[char], suffix: &str) -> bool {
    let suffix: Vec<char> = suffix.chars().collect();
    word.len() >= suffix.len() && word[word.len() - suffix.len()..] == suffix[..]
}

fn chars_of(text: &str) -> Vec<char> {
    text.chars().collect()
}

fn strip(word: &[char], suffix: &str) -> Vec<char> {
    word[..word.len() - suffix.chars().count()].to_vec()
}

fn join(stem: &[char], ending: &str) -> Vec<char> {
    let mut out = stem.to_vec();
    out.extend(ending.chars());
    out
}

type Condition<'a> = &'a dyn Fn(&[char]) -> bool;

/// `_apply_rule_list`: the first rule whose suffix matches decides (condition false → unchanged).
fn apply_rules(word: &[char], rules: &[(&str, &str, Option<Condition<'_>>)]) -> Vec<char> {
    for (suffix, replacement, condition) in rules {
        if *suffix == "*d" && ends_double_consonant(word) {
            let stem = &word[..word.len() - 2];
            return if condition.map_or(true, |c| c(stem)) {
                join(stem, replacement)
            } else {
                word.to_vec()
            };
        }
        if ends_with(word, suffix) {
            let stem = strip(word, suffix);
            return if condition.map_or(true, |c| c(&stem)) {
                join(&stem, replacement)
            } else {
                word.to_vec()
            };
        }
    }
    word.to_vec()
}

fn positive(stem: &[char]) -> bool {
    measure(stem) > 0
}

fn step1a(word: &[char]) -> Vec<char> {
    if ends_with(word, "ies") && word.len() == 4 {
        return join(&strip(word, "ies"), "ie");
    }
    apply_rules(
        word,
        &[
            ("sses", "ss", None),
            ("ies", "i", None),
            ("ss", "ss", None),
            ("s", "", None),
        ],
    )
}

fn step1b(word: &[char]) -> Vec<char> {
    if ends_with(word, "ied") {
        return join(&strip(word, "ied"), if word.len() == 4 { "ie" } else { "i" });
    }
    if ends_with(word, "eed") {
        let stem = strip(word, "eed");
        return if measure(&stem) > 0 {
            join(&stem, "ee")
        } else {
            word.to_vec()
        };
    }
    let mut intermediate = None;
    for suffix in ["ed", "ing"] {
        if ends_with(word, suffix) {
            let stem = strip(word, suffix);
            if contains_vowel(&stem) {
                intermediate = Some(stem);
                break;
            }
        }
    }
    let Some(stem) = intermediate else { return word.to_vec() };
    let last = stem.last().copied().unwrap_or(' ');
    let last_string = last.to_string();
    let not_lsz = move |_: &[char]| !matches!(last, 'l' | 's' | 'z');
    let cvc = |s: &[char]| measure(s) == 1 && ends_cvc(s);
    apply_rules(
        &stem,
        &[
            ("at", "ate", None),
            ("bl", "ble", None),
            ("iz", "ize", None),
            ("*d", &last_string, Some(&not_lsz)),
            ("", "e", Some(&cvc)),
        ],
    )
}

fn step1c(word: &[char]) -> Vec<char> {
    let condition = |stem: &[char]| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(&condition))])
}

fn step2(word: &[char]) -> Vec<char> {
    if ends_with(word, "alli") && positive(&strip(word, "alli")) {
        return step2(&join(&strip(word, "alli"), "al"));
    }
    let p: Condition<'_> = &positive;
    let logi = |_: &[char]| positive(&word[..word.len() - 3]);
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

fn step3(word: &[char]) -> Vec<char> {
    let p: Condition<'_> = &positive;
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

fn step4(word: &[char]) -> Vec<char> {
    let gt1 = |stem: &[char]| measure(stem) > 1;
    let ion = |stem: &[char]| measure(stem) > 1 && matches!(stem.last(), Some('s') | Some('t'));
    let g: Condition<'_> = &gt1;
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

fn step5a(word: &[char]) -> Vec<char> {
    if ends_with(word, "e") {
        let stem = strip(word, "e");
        let m = measure(&stem);
        if m > 1 || (m == 1 && !ends_cvc(&stem)) {
            return stem;
        }
    }
    word.to_vec()
}

fn step5b(word: &[char]) -> Vec<char> {
    let condition = |_: &[char]| measure(&word[..word.len() - 1]) > 1;
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
    let mut stem = chars_of(&lower);
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        stem = step(&stem);
    }
    stem.into_iter().collect()
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
