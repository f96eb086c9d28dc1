//! ROUGE tokens straight to ids: a text is tokenized, stemmed and interned in one pass, without
//! building a string per token.
//!
//! Ids are dense per segment (0, 1, 2… in order of first appearance across the segment's texts),
//! so the metrics count in small arrays. Behind them, a per-thread vocabulary that outlives the
//! segment maps each token to the id of its final form (its Porter stem when stemming), so a word
//! is stemmed once per thread, not once per occurrence.

use rustc_hash::FxHashMap;

use crate::ngram::{packed_key, ProbeKey, ProbeTable};

use super::{porter_stem, RougeTokenizer};

/// Marks a token whose final form is empty (dropped, as rouge_score drops tokens its stemmer empties).
const DROPPED: u32 = u32::MAX;

/// When the thread's vocabulary grows past this many words (a table of 16 MiB), it is forgotten
/// between segments, so a stream of distinct words cannot grow it without bound.
const VOCABULARY_LIMIT: usize = 1 << 19;

/// Word → `u32` for words of up to 11 bytes, in 16-byte slots (key and value in one `u128`):
/// a thread's vocabulary of tens of thousands of words takes about a megabyte, so more of it
/// stays in the CPU cache than with wider slots. Linear probing, at most 3/4 full.
#[derive(Debug, Default, Clone)]
struct WordTable {
    /// Key in the low 96 bits (the bytes, then the length in byte 11, so never 0), value in the
    /// top 32; 0 = empty.
    slots: Vec<u128>,
    len: usize,
}

impl WordTable {
    const KEY_BITS: u128 = (1 << 96) - 1;

    /// The key of `text[start..end]`, when it has 1 to 11 bytes (0 marks an empty slot).
    #[inline]
    fn key(text: &str, start: usize, end: usize) -> Option<u128> {
        if start == end {
            return None;
        }
        packed_key(text, start, end, 11)
    }

    #[inline]
    fn home(&self, key: u128) -> usize {
        (key.spread() >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    #[inline]
    fn get(&self, key: u128) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let slot = self.slots[index];
            if slot == 0 {
                return None;
            }
            if slot & Self::KEY_BITS == key {
                return Some((slot >> 96) as u32);
            }
            index = (index + 1) & mask;
        }
    }

    /// Adds a key that is not in the table.
    fn insert(&mut self, key: u128, value: u32) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            let capacity = (self.slots.len() * 2).max(1024);
            let old = std::mem::replace(&mut self.slots, vec![0; capacity]);
            self.len = 0;
            for slot in old.into_iter().filter(|&slot| slot != 0) {
                self.insert(slot & Self::KEY_BITS, (slot >> 96) as u32);
            }
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        while self.slots[index] != 0 {
            index = (index + 1) & mask;
        }
        self.slots[index] = key | ((value as u128) << 96);
        self.len += 1;
    }
}

/// Token → segment id, for one tokenizer setting (stemmed or not). Keep one per thread.
///
/// ```
/// use nlgmetrics::text::rouge::{RougeTokenizer, SegmentInterner};
/// let mut interner = SegmentInterner::new(true);
/// interner.begin_segment();
/// let mut ids = Vec::new();
/// interner.push_ids(RougeTokenizer::RougeScore, "Cats chase the cat", &mut ids);
/// assert_eq!(ids, vec![0, 1, 2, 0]); // "cats" and "cat" share the stem "cat"
/// assert_eq!(interner.n_ids(), 3);
/// ```
#[derive(Debug, Clone)]
pub struct SegmentInterner {
    stem: bool,
    /// Token of up to 11 bytes → thread-wide id of its final form (or `DROPPED`).
    short_words: WordTable,
    /// Longer token → thread-wide form id.
    long_words: FxHashMap<String, u32>,
    /// Final form → thread-wide form id (only consulted for new words).
    forms: FxHashMap<String, u32>,
    /// Thread-wide form id → its id in the current segment: a small table, cleared per segment,
    /// that stays in the cache (a per-form array would not, once the vocabulary is large).
    segment_ids: ProbeTable<u64>,
    n_ids: u32,
    /// Work space for lowercasing a token.
    lowered: String,
}

impl SegmentInterner {
    /// An interner whose ids stand for Porter stems (rouge_score: tokens longer than 3 ASCII bytes)
    /// when `stem`, for the tokens themselves otherwise.
    pub fn new(stem: bool) -> Self {
        Self {
            stem,
            short_words: WordTable::default(),
            long_words: FxHashMap::default(),
            forms: FxHashMap::default(),
            segment_ids: ProbeTable::default(),
            n_ids: 0,
            lowered: String::new(),
        }
    }

    /// Starts a new segment: ids count from 0 again.
    pub fn begin_segment(&mut self) {
        if self.short_words.len + self.long_words.len() > VOCABULARY_LIMIT {
            *self = Self::new(self.stem);
        }
        self.n_ids = 0;
        self.segment_ids.clear();
    }

    /// How many distinct ids the current segment has used.
    pub fn n_ids(&self) -> usize {
        self.n_ids as usize
    }

    /// Appends the ids of the tokens of `text` (exactly `tokenizer.tokenize(text, stem)`) to `out`.
    pub fn push_ids(&mut self, tokenizer: RougeTokenizer, text: &str, out: &mut Vec<u32>) {
        self.push_ids_by_line(tokenizer, text, out, None);
    }

    /// `push_ids`, also appending to `line_ends` after each line of `text` (its pieces between
    /// "\n"s) the number of ids in `out` so far, when given. "\n" separates tokens in every
    /// tokenizer, so the lines' tokens are the text's tokens.
    pub fn push_ids_by_line(
        &mut self,
        tokenizer: RougeTokenizer,
        text: &str,
        out: &mut Vec<u32>,
        mut line_ends: Option<&mut Vec<usize>>,
    ) {
        let Some(scan) = Scan::for_text(tokenizer, text) else {
            match line_ends {
                Some(ends) => {
                    for line in text.split('\n') {
                        tokenizer.for_each_token(line, |token, start, end| self.push_id(token, start, end, out));
                        ends.push(out.len());
                    }
                }
                None => tokenizer.for_each_token(text, |token, start, end| self.push_id(token, start, end, out)),
            }
            return;
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        loop {
            while i < bytes.len() && BYTE_CLASS[bytes[i] as usize] & scan.word_bytes == 0 {
                if bytes[i] == b'\n' {
                    if let Some(ends) = line_ends.as_deref_mut() {
                        ends.push(out.len());
                    }
                }
                i += 1;
            }
            if i == bytes.len() {
                if let Some(ends) = line_ends {
                    ends.push(out.len());
                }
                return;
            }
            let start = i;
            let mut classes = 0;
            while i < bytes.len() && BYTE_CLASS[bytes[i] as usize] & scan.word_bytes != 0 {
                classes |= BYTE_CLASS[bytes[i] as usize];
                i += 1;
            }
            if classes & (UPPER | NON_ASCII) == 0 {
                self.push_id(text, start, i, out);
                continue;
            }
            let mut lowered = std::mem::take(&mut self.lowered);
            lowered.clear();
            if classes & NON_ASCII == 0 {
                lowered.push_str(&text[start..i]);
                lowered.make_ascii_lowercase();
                self.push_id(&lowered, 0, lowered.len(), out);
            } else {
                // A run between ASCII separators with other characters: lowercased on its own (the
                // same as in the whole text, which has no Σ), then matched by the tokenizer's pattern.
                lowered.extend(text[start..i].chars().flat_map(char::to_lowercase));
                for m in scan.pattern.into_iter().flat_map(|pattern| pattern.find_iter(&lowered)) {
                    self.push_id(&lowered, m.start(), m.end(), out);
                }
            }
            self.lowered = lowered;
        }
    }

    /// Appends the segment id of the token `text[start..end]` (unless its final form is empty).
    #[inline]
    fn push_id(&mut self, text: &str, start: usize, end: usize, out: &mut Vec<u32>) {
        let form = match WordTable::key(text, start, end) {
            Some(key) => match self.short_words.get(key) {
                Some(form) => form,
                None => {
                    let form = self.form_id(&text[start..end]);
                    self.short_words.insert(key, form);
                    form
                }
            },
            None => match self.long_words.get(&text[start..end]) {
                Some(&form) => form,
                None => {
                    let form = self.form_id(&text[start..end]);
                    self.long_words.insert(text[start..end].to_owned(), form);
                    form
                }
            },
        };
        if form == DROPPED {
            return;
        }
        let next = self.n_ids;
        let id = self.segment_ids.get_or_insert(form as u64, next);
        if id == next {
            self.n_ids += 1;
        }
        out.push(id);
    }

    /// The thread-wide form id of a new token: rouge_score stems only tokens longer than 3.
    #[cold]
    fn form_id(&mut self, token: &str) -> u32 {
        let stemmed;
        let form = if self.stem && token.len() > 3 && token.is_ascii() {
            stemmed = porter_stem(token);
            if stemmed.is_empty() {
                return DROPPED;
            }
            &stemmed
        } else {
            token
        };
        let next = self.forms.len() as u32;
        *self.forms.entry(form.to_owned()).or_insert(next)
    }
}

const SEPARATOR: u8 = 0;
const LOWER_OR_DIGIT: u8 = 1;
const UPPER: u8 = 2;
const NON_ASCII: u8 = 4;

/// Every byte's class for the byte scan: `[a-z0-9]`, `[A-Z]`, ASCII separator, or part of a
/// non-ASCII character.
static BYTE_CLASS: [u8; 256] = {
    let mut classes = [NON_ASCII; 256];
    let mut byte = 0;
    while byte < 128 {
        let b = byte as u8;
        classes[byte] = if b.is_ascii_lowercase() || b.is_ascii_digit() {
            LOWER_OR_DIGIT
        } else if b.is_ascii_uppercase() {
            UPPER
        } else {
            SEPARATOR
        };
        byte += 1;
    }
    classes
};

/// How a text is cut into tokens byte by byte: runs of `word_bytes` classes between the other
/// bytes, lowercased; runs with non-ASCII characters are then matched by `pattern`.
struct Scan {
    word_bytes: u8,
    pattern: Option<&'static regex::Regex>,
}

impl Scan {
    /// The byte scan for `text`, when it gives `tokenizer`'s tokens: always for ASCII text. For
    /// rouge_score's tokenizer, every non-ASCII character separates tokens, except the two that
    /// `str.lower()` turns into ASCII letters. The Unicode tokenizers' patterns never match an
    /// ASCII separator, and lowercasing is context-free except for Greek capital sigma (final form
    /// at a word's end), so runs between ASCII separators can be lowercased and matched one by one.
    fn for_text(tokenizer: RougeTokenizer, text: &str) -> Option<Self> {
        let ascii = Scan { word_bytes: LOWER_OR_DIGIT | UPPER, pattern: None };
        if text.is_ascii() {
            return Some(ascii);
        }
        match tokenizer.unicode_pattern() {
            None if !text.contains('\u{212A}') && !text.contains('\u{130}') => Some(ascii),
            None => None,
            Some(_) if text.contains('\u{3A3}') => None,
            Some(pattern) => Some(Scan { word_bytes: LOWER_OR_DIGIT | UPPER | NON_ASCII, pattern: Some(pattern) }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids `tokenize` implies: dense, in order of first appearance of each final form.
    fn expected_ids(tokens: &[String]) -> Vec<u32> {
        let mut seen: Vec<&str> = Vec::new();
        tokens
            .iter()
            .map(|t| match seen.iter().position(|s| s == t) {
                Some(p) => p as u32,
                None => {
                    seen.push(t);
                    (seen.len() - 1) as u32
                }
            })
            .collect()
    }

    #[test]
    fn ids_follow_the_tokenizer_on_every_path() {
        let texts = [
            "The CATS were running; the cat runs. 42 cats!",
            "İstanbul \u{212A}elvin Straße café Cafés running",
            "北京大学 students STUDENTS",
            "ΟΔΟΣ. Σίσυφος's ΣΑΣ'Α naïve Café-au-lait ΚΑΛΗΜΕΡΑ",
            "\u{0130}stanbul'da ǅemal x\u{0307}y ﬁnal ß Straße",
            "",
            "-- ,, ..",
        ];
        for tokenizer in [RougeTokenizer::RougeScore, RougeTokenizer::Unicode, RougeTokenizer::UnicodeWords] {
            for stem in [false, true] {
                let mut interner = SegmentInterner::new(stem);
                for _round in 0..2 {
                    // The second round reuses the thread-wide vocabulary.
                    for text in texts {
                        interner.begin_segment();
                        let mut ids = Vec::new();
                        interner.push_ids(tokenizer, text, &mut ids);
                        let tokens = tokenizer.tokenize(text, stem);
                        assert_eq!(ids, expected_ids(&tokens), "{tokenizer:?} stem={stem} {text:?}");
                        assert_eq!(interner.n_ids(), tokens.iter().collect::<std::collections::HashSet<_>>().len());
                    }
                }
            }
        }
    }

    #[test]
    fn byte_scan_equals_the_tokenizers_on_random_mixed_text() {
        // Pseudo-random texts over ASCII, Latin with diacritics, special case mappings, Greek
        // (with and without Σ), Cyrillic, CJK, combining marks and digits of other scripts.
        let pool: Vec<char> = "aZ9 -'.,\n\téÉßẞİıǅǆﬁΣσςΑΩάКиї北京ひカナ\u{0301}\u{0307}٣१\u{212A}Ⅻ".chars().collect();
        let mut state = 77u64;
        for round in 0..3000 {
            let mut text = String::new();
            for _ in 0..(round % 23) {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push(pool[(state >> 33) as usize % pool.len()]);
            }
            for tokenizer in [RougeTokenizer::RougeScore, RougeTokenizer::Unicode, RougeTokenizer::UnicodeWords] {
                let mut interner = SegmentInterner::new(round % 2 == 0);
                interner.begin_segment();
                let mut ids = Vec::new();
                interner.push_ids(tokenizer, &text, &mut ids);
                let tokens = tokenizer.tokenize(&text, round % 2 == 0);
                assert_eq!(ids, expected_ids(&tokens), "{tokenizer:?} {text:?}");
            }
        }
    }

    #[test]
    fn word_table_grows_and_keeps_every_word() {
        let mut table = WordTable::default();
        let words: Vec<String> = (0..5000u32).map(|i| format!("w{i}")).collect();
        for (value, word) in words.iter().enumerate() {
            let key = WordTable::key(word, 0, word.len()).unwrap();
            assert_eq!(table.get(key), None);
            table.insert(key, value as u32);
        }
        for (value, word) in words.iter().enumerate() {
            assert_eq!(table.get(WordTable::key(word, 0, word.len()).unwrap()), Some(value as u32));
        }
        assert_eq!(WordTable::key("twelve-bytes", 0, 12), None);
        assert_eq!(table.len, 5000);
    }

    #[test]
    fn line_ends_follow_the_newlines() {
        for tokenizer in [RougeTokenizer::RougeScore, RougeTokenizer::Unicode] {
            for text in ["a b\nc\n\nd e f", "\nA\n", "Straße\n北京 x\ny"] {
                let mut interner = SegmentInterner::new(false);
                interner.begin_segment();
                let (mut ids, mut ends) = (Vec::new(), Vec::new());
                interner.push_ids_by_line(tokenizer, text, &mut ids, Some(&mut ends));
                let mut expected = Vec::new();
                let mut total = 0;
                for line in text.split('\n') {
                    total += tokenizer.tokenize(line, false).len();
                    expected.push(total);
                }
                assert_eq!(ends, expected, "{tokenizer:?} {text:?}");
                assert_eq!(ids.len(), total);
            }
        }
    }

    #[test]
    fn ids_span_the_texts_of_a_segment() {
        let mut interner = SegmentInterner::new(false);
        interner.begin_segment();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        interner.push_ids(RougeTokenizer::RougeScore, "a b", &mut a);
        interner.push_ids(RougeTokenizer::RougeScore, "b c", &mut b);
        assert_eq!((a, b), (vec![0, 1], vec![1, 2]));
    }
}
