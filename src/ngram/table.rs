//! A small open-addressing hash table for dense interning: cleared in O(1) between segments by a
//! generation tag, so per-segment work never pays for re-allocation.

/// A key of [`ProbeTable`]: spread into 64 well-mixed bits (the table uses the high ones).
pub(crate) trait ProbeKey: Copy + Eq + Default {
    fn spread(self) -> u64;
}

impl ProbeKey for u64 {
    #[inline]
    fn spread(self) -> u64 {
        (self ^ (self >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl ProbeKey for u128 {
    #[inline]
    fn spread(self) -> u64 {
        let low = (self as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (low ^ (low >> 32) ^ ((self >> 64) as u64)).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }
}

/// Key → `u32` map with linear probing, for the small per-segment maps: cleared in O(1) by bumping a
/// generation stamp, so one table serves every segment of a thread. At most half full.
#[derive(Debug, Default, Clone)]
pub(crate) struct ProbeTable<K> {
    pub(crate) keys: Vec<K>,
    pub(crate) values: Vec<u32>,
    /// A slot is occupied when its stamp equals `generation`.
    pub(crate) stamps: Vec<u32>,
    pub(crate) generation: u32,
    pub(crate) len: usize,
}

impl<K: ProbeKey> ProbeTable<K> {
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub(crate) fn home(&self, key: K) -> usize {
        // Capacity is a power of two >= 2, so the shift is below 64.
        (key.spread() >> (64 - self.keys.len().trailing_zeros())) as usize
    }

    /// The value of `key`, inserting `value` first if the key is new.
    #[inline(always)]
    pub(crate) fn get_or_insert(&mut self, key: K, value: u32) -> u32 {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut slot = self.home(key);
        loop {
            if self.stamps[slot] != self.generation {
                self.stamps[slot] = self.generation;
                self.keys[slot] = key;
                self.values[slot] = value;
                self.len += 1;
                return value;
            }
            if self.keys[slot] == key {
                return self.values[slot];
            }
            slot = (slot + 1) & mask;
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, key: K) -> Option<u32> {
        if self.keys.is_empty() {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut slot = self.home(key);
        loop {
            if self.stamps[slot] != self.generation {
                return None;
            }
            if self.keys[slot] == key {
                return Some(self.values[slot]);
            }
            slot = (slot + 1) & mask;
        }
    }

    #[cold]
    pub(crate) fn grow(&mut self) {
        let capacity = (self.keys.len() * 2).max(64);
        let old_generation = self.generation;
        let old = std::mem::take(self);
        *self = ProbeTable {
            keys: vec![K::default(); capacity],
            values: vec![0; capacity],
            stamps: vec![0; capacity],
            generation: 1,
            len: 0,
        };
        for slot in 0..old.keys.len() {
            if old.stamps[slot] == old_generation {
                self.get_or_insert(old.keys[slot], old.values[slot]);
            }
        }
    }
}
