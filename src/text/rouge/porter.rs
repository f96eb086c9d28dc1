//! NLTK 3.10.4's `PorterStemmer` in its default `NLTK_EXTENSIONS` mode (`nltk/stem/porter.py`),
//! the stemmer rouge_score 0.1.2 uses. Works on ASCII bytes: rouge_score only stems `[a-z0-9]+`
//! tokens, and our Unicode tokenizer only stems ASCII tokens (Porter is an English stemmer).

/// Irregular forms NLTK maps directly (its `pool`), checked before any rule.
const IRREGULAR: &[(&str, &str)] = &[
    ("sky", "sky"),
    ("skies", "sky"),
    ("dying", "die"),
    ("lying", "lie"),
    ("tying", "tie"),
    ("news", "news"),
    ("innings", "inning"),
    ("inning", "inning"),
    ("outings", "outing"),
    ("outing", "outing"),
    ("cannings", "canning"),
    ("canning", "canning"),
    ("howe", "howe"),
    ("proceed", "proceed"),
    ("exceed", "exceed"),
    ("succeed", "succeed"),
];

fn is_vowel(byte: u8) -> bool {
    matches!(byte, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Consonant flags: 'y' is a consonant at the start or after a vowel (NLTK's `_consonant_flags`).
fn consonant_flags(word: &[u8]) -> Vec<bool> {
    let mut flags: Vec<bool> = Vec::with_capacity(word.len());
    for (index, &byte) in word.iter().enumerate() {
        let flag = if is_vowel(byte) {
            false
        } else if byte == b'y' {
            index == 0 || !flags[index - 1]
        } else {
            true
        };
        flags.push(flag);
    }
    flags
}

fn is_consonant(word: &[u8], index: usize) -> bool {
    consonant_flags(&word[..=index])[index]
}

/// m in [C](VC){m}[V]: the number of vowel→consonant transitions.
fn measure(stem: &[u8]) -> usize {
    let flags = consonant_flags(stem);
    flags.windows(2).filter(|pair| !pair[0] && pair[1]).count()
}

fn contains_vowel(stem: &[u8]) -> bool {
    consonant_flags(stem).iter().any(|&consonant| !consonant)
}

fn ends_double_consonant(word: &[u8]) -> bool {
    let n = word.len();
    n >= 2 && word[n - 1] == word[n - 2] && is_consonant(word, n - 1)
}

/// Condition *o, with NLTK's extension for two-letter stems (vowel, consonant).
fn ends_cvc(word: &[u8]) -> bool {
    let n = word.len();
    if n >= 3 {
        let flags = consonant_flags(word);
        if flags[n - 3]
            && !flags[n - 2]
            && flags[n - 1]
            && !matches!(word[n - 1], b'w' | b'x' | b'y')
        {
            return true;
        }
    }
    n == 2 && {
        let flags = consonant_flags(word);
        !flags[0] && flags[1]
    }
}

fn positive_measure(stem: &[u8]) -> bool {
    measure(stem) > 0
}

fn measure_gt_1(stem: &[u8]) -> bool {
    measure(stem) > 1
}

type Condition<'c> = &'c dyn Fn(&[u8]) -> bool;

/// NLTK's `_apply_rule_list`: the first rule whose suffix matches decides, whether or not its
/// condition holds (a failed condition returns the word unchanged).
fn apply_rules(word: &[u8], rules: &[(&str, &str, Option<Condition>)]) -> Vec<u8> {
    for (suffix, replacement, condition) in rules {
        if word.ends_with(suffix.as_bytes()) {
            let stem = &word[..word.len() - suffix.len()];
            if condition.is_none_or(|holds| holds(stem)) {
                let mut out = stem.to_vec();
                out.extend_from_slice(replacement.as_bytes());
                return out;
            }
            return word.to_vec();
        }
    }
    word.to_vec()
}

fn replace_suffix(word: &[u8], suffix_len: usize, replacement: &str) -> Vec<u8> {
    let mut out = word[..word.len() - suffix_len].to_vec();
    out.extend_from_slice(replacement.as_bytes());
    out
}

fn step1a(word: &[u8]) -> Vec<u8> {
    if word.ends_with(b"ies") && word.len() == 4 {
        return replace_suffix(word, 3, "ie");
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

fn step1b(word: &[u8]) -> Vec<u8> {
    if word.ends_with(b"ied") {
        return replace_suffix(word, 3, if word.len() == 4 { "ie" } else { "i" });
    }
    if word.ends_with(b"eed") {
        let stem = &word[..word.len() - 3];
        return if measure(stem) > 0 {
            replace_suffix(word, 3, "ee")
        } else {
            word.to_vec()
        };
    }
    let mut intermediate: Option<&[u8]> = None;
    for suffix in [&b"ed"[..], &b"ing"[..]] {
        if word.ends_with(suffix) {
            let stem = &word[..word.len() - suffix.len()];
            if contains_vowel(stem) {
                intermediate = Some(stem);
                break;
            }
        }
    }
    let Some(stem) = intermediate else {
        return word.to_vec();
    };
    for (suffix, replacement) in [("at", "ate"), ("bl", "ble"), ("iz", "ize")] {
        if stem.ends_with(suffix.as_bytes()) {
            return replace_suffix(stem, suffix.len(), replacement);
        }
    }
    // "*d": a double consonant becomes single unless it is l, s or z (then the stem stays as is).
    if ends_double_consonant(stem) {
        let last = stem[stem.len() - 1];
        return if matches!(last, b'l' | b's' | b'z') {
            stem.to_vec()
        } else {
            stem[..stem.len() - 1].to_vec()
        };
    }
    if measure(stem) == 1 && ends_cvc(stem) {
        let mut out = stem.to_vec();
        out.push(b'e');
        return out;
    }
    stem.to_vec()
}

fn step1c(word: &[u8]) -> Vec<u8> {
    // NLTK: y → i only after a consonant that is not the whole stem.
    let condition = |stem: &[u8]| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(&condition))])
}

fn step2(word: &[u8]) -> Vec<u8> {
    if word.ends_with(b"alli") && positive_measure(&word[..word.len() - 4]) {
        return step2(&replace_suffix(word, 4, "al"));
    }
    let m: Condition = &positive_measure;
    // "logi" → "log" checks the measure of the word without its last three letters.
    let logi_word = word.to_vec();
    let logi = move |_stem: &[u8]| positive_measure(&logi_word[..logi_word.len() - 3]);
    apply_rules(
        word,
        &[
            ("ational", "ate", Some(m)),
            ("tional", "tion", Some(m)),
            ("enci", "ence", Some(m)),
            ("anci", "ance", Some(m)),
            ("izer", "ize", Some(m)),
            ("bli", "ble", Some(m)),
            ("alli", "al", Some(m)),
            ("entli", "ent", Some(m)),
            ("eli", "e", Some(m)),
            ("ousli", "ous", Some(m)),
            ("ization", "ize", Some(m)),
            ("ation", "ate", Some(m)),
            ("ator", "ate", Some(m)),
            ("alism", "al", Some(m)),
            ("iveness", "ive", Some(m)),
            ("fulness", "ful", Some(m)),
            ("ousness", "ous", Some(m)),
            ("aliti", "al", Some(m)),
            ("iviti", "ive", Some(m)),
            ("biliti", "ble", Some(m)),
            ("fulli", "ful", Some(m)),
            ("logi", "log", Some(&logi)),
        ],
    )
}

fn step3(word: &[u8]) -> Vec<u8> {
    let m: Condition = &positive_measure;
    apply_rules(
        word,
        &[
            ("icate", "ic", Some(m)),
            ("ative", "", Some(m)),
            ("alize", "al", Some(m)),
            ("iciti", "ic", Some(m)),
            ("ical", "ic", Some(m)),
            ("ful", "", Some(m)),
            ("ness", "", Some(m)),
        ],
    )
}

fn step4(word: &[u8]) -> Vec<u8> {
    let m: Condition = &measure_gt_1;
    let ion = |stem: &[u8]| measure(stem) > 1 && matches!(stem.last(), Some(b's' | b't'));
    apply_rules(
        word,
        &[
            ("al", "", Some(m)),
            ("ance", "", Some(m)),
            ("ence", "", Some(m)),
            ("er", "", Some(m)),
            ("ic", "", Some(m)),
            ("able", "", Some(m)),
            ("ible", "", Some(m)),
            ("ant", "", Some(m)),
            ("ement", "", Some(m)),
            ("ment", "", Some(m)),
            ("ent", "", Some(m)),
            ("ion", "", Some(&ion)),
            ("ou", "", Some(m)),
            ("ism", "", Some(m)),
            ("ate", "", Some(m)),
            ("iti", "", Some(m)),
            ("ous", "", Some(m)),
            ("ive", "", Some(m)),
            ("ize", "", Some(m)),
        ],
    )
}

fn step5a(word: &[u8]) -> Vec<u8> {
    if let Some(stem) = word.strip_suffix(b"e") {
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            return stem.to_vec();
        }
    }
    word.to_vec()
}

fn step5b(word: &[u8]) -> Vec<u8> {
    if word.ends_with(b"ll") && measure(&word[..word.len() - 1]) > 1 {
        return word[..word.len() - 1].to_vec();
    }
    word.to_vec()
}

/// Stems one lower-case ASCII word exactly as `nltk.stem.PorterStemmer().stem(word)`.
/// Words with non-ASCII characters are returned unchanged (callers never pass them).
///
/// ```
/// use nlgmetrics::text::rouge::porter_stem;
/// assert_eq!(porter_stem("running"), "run");
/// assert_eq!(porter_stem("skies"), "sky");
/// assert_eq!(porter_stem("generalization"), "gener");
/// ```
pub fn porter_stem(word: &str) -> String {
    if !word.is_ascii() {
        return word.to_string();
    }
    let lower = word.to_ascii_lowercase();
    if let Some((_, stem)) = IRREGULAR.iter().find(|(form, _)| *form == lower) {
        return (*stem).to_string();
    }
    if lower.len() <= 2 {
        return lower;
    }
    let mut stem = step1a(lower.as_bytes());
    stem = step1b(&stem);
    stem = step1c(&stem);
    stem = step2(&stem);
    stem = step3(&stem);
    stem = step4(&stem);
    stem = step5a(&stem);
    stem = step5b(&stem);
    // Only ASCII bytes were ever pushed, so this cannot fail.
    String::from_utf8(stem).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::porter_stem;

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
