//! Dense ids for the n-grams of a whole corpus, of every order at once.

use super::table::ProbeTable;

/// Marks an n-gram that is not in the index.
pub const NO_NGRAM: u32 = u32::MAX;

/// N-gram ids shared by every sequence of a corpus: a unigram's id is its token id; a longer
/// n-gram's id comes from its prefix's id and its last token (one injective `u64` key), so an
/// n-gram's prefix and order are one array read away and no n-gram is ever copied.
///
/// ```
/// use nlgmetrics::ngram::NgramIndex;
/// let mut index = NgramIndex::new(3);
/// let mut seen = vec![];
/// index.insert_all(&[0, 1, 0, 1], 2, |start, order, id| seen.push((start, order, id)));
/// // "0 1" gets id 3 (after the 3 token ids) both times it occurs; "1 0" gets 4.
/// assert_eq!(seen, vec![(0, 1, 0), (0, 2, 3), (1, 1, 1), (1, 2, 4), (2, 1, 0), (2, 2, 3), (3, 1, 1)]);
/// assert_eq!(index.prefix(3), Some(0));
/// ```
#[derive(Debug, Clone, Default)]
pub struct NgramIndex {
    vocab_size: u32,
    ids: ProbeTable<u64>,
    /// For ids ≥ `vocab_size`: the prefix's id (unigrams have none).
    prefix: Vec<u32>,
    /// For ids ≥ `vocab_size`: the order.
    order: Vec<u32>,
}

impl NgramIndex {
    /// An index over token ids `< vocab_size`.
    pub fn new(vocab_size: u32) -> Self {
        Self { vocab_size, ..Self::default() }
    }

    /// Forgets every n-gram and takes token ids `< vocab_size` (keeps the memory).
    pub fn reset(&mut self, vocab_size: u32) {
        self.vocab_size = vocab_size;
        self.ids.clear();
        self.prefix.clear();
        self.order.clear();
    }

    /// Number of ids handed out so far (token ids included).
    pub fn len(&self) -> usize {
        self.vocab_size as usize + self.prefix.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The id of `prefix_id` extended by `token`, created on first sight.
    #[inline]
    pub fn insert(&mut self, prefix_id: u32, token: u32) -> u32 {
        let next = self.len() as u32;
        let id = self.ids.get_or_insert(key(prefix_id, token), next);
        if id == next {
            self.prefix.push(prefix_id);
            self.order.push(self.order_of(prefix_id) + 1);
        }
        id
    }

    /// The id of `prefix_id` extended by `token`, or [`NO_NGRAM`].
    #[inline]
    pub fn get(&self, prefix_id: u32, token: u32) -> u32 {
        if prefix_id == NO_NGRAM {
            return NO_NGRAM;
        }
        self.ids.get(key(prefix_id, token)).unwrap_or(NO_NGRAM)
    }

    /// The (n−1)-gram an n-gram extends; `None` for unigrams.
    #[inline]
    pub fn prefix(&self, id: u32) -> Option<u32> {
        id.checked_sub(self.vocab_size).map(|offset| self.prefix[offset as usize])
    }

    /// The order of an n-gram id.
    #[inline]
    pub fn order_of(&self, id: u32) -> u32 {
        id.checked_sub(self.vocab_size).map_or(1, |offset| self.order[offset as usize])
    }

    /// Adds every n-gram of orders `1..=max_order` of `tokens`, calling `on_ngram(start, order, id)`
    /// position by position, order by order.
    pub fn insert_all(&mut self, tokens: &[u32], max_order: usize, mut on_ngram: impl FnMut(usize, usize, u32)) {
        for start in 0..tokens.len() {
            let mut id = tokens[start];
            if max_order > 0 {
                on_ngram(start, 1, id);
            }
            for (offset, &token) in tokens[start + 1..].iter().take(max_order.saturating_sub(1)).enumerate() {
                id = self.insert(id, token);
                on_ngram(start, offset + 2, id);
            }
        }
    }

    /// Like [`insert_all`](Self::insert_all) without adding: n-grams not in the index are [`NO_NGRAM`]
    /// (and so are their extensions); `is_known_token` says which unigrams count as present.
    pub fn lookup_all(
        &self,
        tokens: &[u32],
        max_order: usize,
        is_known_token: impl Fn(u32) -> bool,
        mut on_ngram: impl FnMut(usize, usize, u32),
    ) {
        for start in 0..tokens.len() {
            let mut id =
                if tokens[start] < self.vocab_size && is_known_token(tokens[start]) { tokens[start] } else { NO_NGRAM };
            if max_order > 0 {
                on_ngram(start, 1, id);
            }
            for (offset, &token) in tokens[start + 1..].iter().take(max_order.saturating_sub(1)).enumerate() {
                id = self.get(id, token);
                on_ngram(start, offset + 2, id);
            }
        }
    }
}

#[inline]
fn key(prefix_id: u32, token: u32) -> u64 {
    (u64::from(prefix_id) << 32) | u64::from(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_shared_and_lookups_do_not_insert() {
        let mut index = NgramIndex::new(4);
        let mut ids = vec![];
        index.insert_all(&[1, 2, 3], 3, |_, _, id| ids.push(id));
        assert_eq!(ids.len(), 6);
        assert_eq!(index.order_of(ids[2]), 3);
        let before = index.len();
        let mut found = vec![];
        index.lookup_all(&[1, 2, 0, 2, 3], 2, |_| true, |_, order, id| found.push((order, id)));
        assert_eq!(index.len(), before);
        assert_eq!(found[1], (2, ids[1])); // "1 2" is known
        assert_eq!(found[3], (2, NO_NGRAM)); // "2 0" is not
        assert_eq!(index.get(NO_NGRAM, 1), NO_NGRAM);
    }
}
