//! Token interning: strings to dense `u32` ids.

use rustc_hash::FxHashMap;

use super::table::ProbeTable;

/// Maps token strings to dense ids, in order of first appearance.
///
/// ```
/// use nlgmetrics::ngram::Vocab;
/// let mut vocab = Vocab::default();
/// assert_eq!(vocab.ids("a b a".split(' ')), vec![0, 1, 0]);
/// ```
#[derive(Default, Debug, Clone)]
pub struct Vocab<'a> {
    ids: FxHashMap<&'a str, u32>,
}

impl<'a> Vocab<'a> {
    /// An empty vocabulary with room for `capacity` distinct tokens.
    pub fn with_capacity(capacity: usize) -> Self {
        Self { ids: FxHashMap::with_capacity_and_hasher(capacity, Default::default()) }
    }

    /// The id of `token`, assigning the next free id on first sight.
    pub fn id(&mut self, token: &'a str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(token).or_insert(next)
    }

    /// The ids of a token sequence.
    pub fn ids<I: IntoIterator<Item = &'a str>>(&mut self, tokens: I) -> Vec<u32> {
        tokens.into_iter().map(|token| self.id(token)).collect()
    }

    /// How many distinct tokens were seen.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// Token → id map (ids in order of first appearance) that keeps its allocation from one segment to
/// the next, since its keys borrow nothing: a token of up to 15 bytes is packed with its length into
/// one `u128` key (injective, and cheaper to hash than the string); longer tokens are keyed by a copy.
///
/// ```
/// use nlgmetrics::ngram::TokenInterner;
/// let mut interner = TokenInterner::default();
/// let ids: Vec<u32> = "a bb a a-very-long-token-indeed bb".split(' ').map(|t| interner.id(t)).collect();
/// assert_eq!(ids, vec![0, 1, 0, 2, 1]);
/// interner.clear();
/// assert_eq!(interner.id("bb"), 0);
/// ```
#[derive(Default, Debug, Clone)]
pub struct TokenInterner {
    short: ProbeTable<u128>,
    long: FxHashMap<String, u32>,
}

impl TokenInterner {
    /// Forgets every token (keeps the memory).
    pub fn clear(&mut self) {
        self.short.clear();
        self.long.clear();
    }

    /// The id of `token`, assigning the next free id on first sight.
    #[inline]
    pub fn id(&mut self, token: &str) -> u32 {
        self.id_in(token, 0, token.len())
    }

    /// The id of the token `text[start..end]` (char boundaries). The same as `id(&text[start..end])`;
    /// faster, as a short token is packed with one 16-byte read when `text` extends far enough.
    #[inline(always)]
    pub fn id_in(&mut self, text: &str, start: usize, end: usize) -> u32 {
        let next = (self.short.len + self.long.len()) as u32;
        match packed_key(text, start, end, 15) {
            Some(key) => self.short.get_or_insert(key, next),
            None => {
                let token = &text[start..end];
                if let Some(&id) = self.long.get(token) {
                    id
                } else {
                    self.long.insert(token.to_owned(), next);
                    next
                }
            }
        }
    }

    /// The key of the token `text[start..end]` for [`id_of_key`](Self::id_of_key): computed apart
    /// from the map (e.g. on other threads), so that numbering a corpus is only the lookups. A short
    /// token's key is its packed bytes (top byte = its length, at most 15); a longer one's is a
    /// marker (top byte 0xFF) with its offsets in `text`.
    ///
    /// ```
    /// use nlgmetrics::ngram::TokenInterner;
    /// let text = "bb a-very-long-token-indeed bb";
    /// let keys = [TokenInterner::key_in(text, 0, 2), TokenInterner::key_in(text, 3, 27), TokenInterner::key_in(text, 28, 30)];
    /// let mut interner = TokenInterner::default();
    /// let ids: Vec<u32> = keys.iter().map(|&key| interner.id_of_key(key, text)).collect();
    /// assert_eq!(ids, vec![0, 1, 0]);
    /// ```
    #[inline]
    pub fn key_in(text: &str, start: usize, end: usize) -> u128 {
        packed_key(text, start, end, 15).unwrap_or((LONG_TOKEN << 120) | ((start as u128) << 64) | end as u128)
    }

    /// The id of the token whose key [`key_in`](Self::key_in) gave for `text` (the same as `id_in`).
    #[inline]
    pub fn id_of_key(&mut self, key: u128, text: &str) -> u32 {
        if key >> 120 != LONG_TOKEN {
            let next = (self.short.len + self.long.len()) as u32;
            return self.short.get_or_insert(key, next);
        }
        let (start, end) = (((key >> 64) as u64 & ((1 << 56) - 1)) as usize, key as u64 as usize);
        self.id_in(text, start, end)
    }

    /// How many distinct tokens were seen since the last [`clear`](Self::clear).
    pub fn len(&self) -> usize {
        self.short.len + self.long.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Top byte of [`TokenInterner::key_in`]'s key for a token too long to pack (packed keys have at most 15 there).
const LONG_TOKEN: u128 = 0xFF;

/// The token `text[start..end]` packed into one `u128` when it has at most `max_len` (< 16) bytes:
/// its bytes in the low bytes, its length in byte `max_len` (injective for that `max_len`). Read
/// with one 16-byte load from the text where it extends far enough (no copy through memory).
#[inline(always)]
pub(crate) fn packed_key(text: &str, start: usize, end: usize, max_len: usize) -> Option<u128> {
    debug_assert!(max_len < 16);
    let len = end - start;
    if len > max_len {
        return None;
    }
    let bytes = text.as_bytes();
    let raw = if let Some(window) = bytes.get(start..start + 16) {
        u128::from_le_bytes(window.try_into().ok()?)
    } else if end >= 16 {
        // Near the end of the text: the 16 bytes that end with the token, shifted down (an empty
        // token shifts everything out).
        u128::from_le_bytes(bytes[end - 16..end].try_into().ok()?).checked_shr(8 * (16 - len) as u32).unwrap_or(0)
    } else {
        let mut window = [0u8; 16];
        window[..len].copy_from_slice(&bytes[start..end]);
        u128::from_le_bytes(window)
    };
    Some((raw & ((1u128 << (8 * len)) - 1)) | ((len as u128) << (8 * max_len)))
}
