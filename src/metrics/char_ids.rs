//! Dense ids of code points for one pair of texts, so per-symbol tables (bit masks, counters) stay as
//! small as the pair's alphabet.

use rustc_hash::FxHashMap;

/// Dense ids of code points: a table below U+0100 (most Latin text), a map above.
///
/// ```
/// use nlgmetrics::metrics::char_ids::CharIds;
/// let mut ids = CharIds::with_reserved(1); // id 0 left for the caller (e.g. a separator)
/// assert_eq!((ids.id('a'), ids.id('é'), ids.id('a'), ids.id('語')), (1, 2, 1, 3));
/// assert_eq!(ids.count(), 4);
/// ```
pub struct CharIds {
    latin: [u32; 256],
    other: FxHashMap<char, u32>,
    count: u32,
}

impl CharIds {
    /// Ids from `reserved` on (those below are the caller's).
    pub fn with_reserved(reserved: u32) -> Self {
        Self { latin: [u32::MAX; 256], other: FxHashMap::default(), count: reserved }
    }

    /// The id of `c`, a new one on its first occurrence.
    #[inline]
    pub fn id(&mut self, c: char) -> u32 {
        let slot = if (c as u32) < 256 { &mut self.latin[c as usize] } else { self.other.entry(c).or_insert(u32::MAX) };
        if *slot == u32::MAX {
            *slot = self.count;
            self.count += 1;
        }
        *slot
    }

    /// Ids given so far (reserved ones included): every id is below it.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// Code points of `" ".join(words)` as ids.
    pub fn joined<'a>(&mut self, words: impl Iterator<Item = &'a str>, capacity: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(capacity);
        for (k, word) in words.enumerate() {
            if k > 0 {
                out.push(self.id(' '));
            }
            for c in word.chars() {
                out.push(self.id(c));
            }
        }
        out
    }
}
