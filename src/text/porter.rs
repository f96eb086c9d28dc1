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

/// `PorterStemmer._consonant_flags`, one flag at a time (no allocation: conditions run often).
fn consonant_flags(word: &[char]) -> impl Iterator<Item = bool> + '_ {
    word.iter().scan(false, |previous, &c| {
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
fn measure(stem: &[char]) -> usize {
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

fn contains_vowel(stem: &[char]) -> bool {
    consonant_flags(stem).any(|consonant| !consonant)
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
    let mut end = word.len();
    for c in suffix.chars().rev() {
        if end == 0 || word[end - 1] != c {
            return false;
        }
        end -= 1;
    }
    true
}

/// Replaces the last `cut` characters of `word` by `ending`.
fn replace_end(word: &mut Vec<char>, cut: usize, ending: &str) {
    word.truncate(word.len() - cut);
    word.extend(ending.chars());
}

/// A rule's condition, given the stem (the word without the suffix) and the whole word.
type Condition<'a> = &'a dyn Fn(&[char], &[char]) -> bool;

/// `_apply_rule_list`, in place: the first rule whose suffix matches decides (condition false →
/// unchanged).
fn apply_rules(word: &mut Vec<char>, rules: &[(&str, &str, Option<Condition<'_>>)]) {
    for (suffix, replacement, condition) in rules {
        let cut = if *suffix == "*d" && ends_double_consonant(word) {
            2
        } else if ends_with(word, suffix) {
            suffix.chars().count()
        } else {
            continue;
        };
        if condition.map_or(true, |c| c(&word[..word.len() - cut], word)) {
            replace_end(word, cut, replacement);
        }
        return;
    }
}

fn positive(stem: &[char], _word: &[char]) -> bool {
    measure(stem) > 0
}

fn step1a(word: &mut Vec<char>) {
    if ends_with(word, "ies") && word.len() == 4 {
        return replace_end(word, 3, "ie");
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

fn step1b(word: &mut Vec<char>) {
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
    let last = word.last().copied().unwrap_or(' ');
    let last_string = last.to_string();
    let not_lsz = move |_: &[char], _: &[char]| !matches!(last, 'l' | 's' | 'z');
    let cvc = |s: &[char], _: &[char]| measure(s) == 1 && ends_cvc(s);
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

fn step1c(word: &mut Vec<char>) {
    let condition = |stem: &[char], _: &[char]| stem.len() > 1 && is_consonant(stem, stem.len() - 1);
    apply_rules(word, &[("y", "i", Some(&condition))])
}

fn step2(word: &mut Vec<char>) {
    if ends_with(word, "alli") && measure(&word[..word.len() - 4]) > 0 {
        replace_end(word, 4, "al");
        return step2(word);
    }
    let p: Condition<'_> = &positive;
    let logi = |_: &[char], word: &[char]| measure(&word[..word.len() - 3]) > 0;
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

fn step3(word: &mut Vec<char>) {
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

fn step4(word: &mut Vec<char>) {
    let gt1 = |stem: &[char], _: &[char]| measure(stem) > 1;
    let ion = |stem: &[char], _: &[char]| measure(stem) > 1 && matches!(stem.last(), Some('s') | Some('t'));
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

fn step5a(word: &mut Vec<char>) {
    if ends_with(word, "e") {
        let stem = &word[..word.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            word.pop();
        }
    }
}

fn step5b(word: &mut Vec<char>) {
    let condition = |_: &[char], word: &[char]| measure(&word[..word.len() - 1]) > 1;
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
    let mut stem: Vec<char> = lower.chars().collect();
    for step in [step1a, step1b, step1c, step2, step3, step4, step5a, step5b] {
        step(&mut stem);
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
