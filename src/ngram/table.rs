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

/// One slot of a [`ProbeTable`]: key, value and stamp side by side, so a probe touches one cache
/// line (tables that outlive a segment, like a thread's vocabulary, are far larger than the cache).
#[derive(Debug, Default, Clone, Copy)]
struct Slot<K> {
    key: K,
    value: u32,
    /// The slot is occupied when its stamp equals the table's `generation`.
    stamp: u32,
}

/// Key → `u32` map with linear probing, for the small per-segment maps: cleared in O(1) by bumping a
/// generation stamp, so one table serves every segment of a thread. At most half full.
#[derive(Debug, Default, Clone)]
pub(crate) struct ProbeTable<K> {
    slots: Vec<Slot<K>>,
    pub(crate) generation: u32,
    pub(crate) len: usize,
}

impl<K: ProbeKey> ProbeTable<K> {
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|slot| slot.stamp = 0);
            self.generation = 1;
        }
    }

    #[inline]
    fn home(&self, key: K) -> usize {
        // Capacity is a power of two >= 64, so the shift is below 64.
        (key.spread() >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// The value of `key`, inserting `value` first if the key is new.
    #[inline(always)]
    pub(crate) fn get_or_insert(&mut self, key: K, value: u32) -> u32 {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let slot = &mut self.slots[index];
            if slot.stamp != self.generation {
                *slot = Slot { key, value, stamp: self.generation };
                self.len += 1;
                return value;
            }
            if slot.key == key {
                return slot.value;
            }
            index = (index + 1) & mask;
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, key: K) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let slot = &self.slots[index];
            if slot.stamp != self.generation {
                return None;
            }
            if slot.key == key {
                return Some(slot.value);
            }
            index = (index + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let capacity = (self.slots.len() * 2).max(64);
        let old_generation = self.generation;
        let old = std::mem::take(self);
        *self = ProbeTable { slots: vec![Slot::default(); capacity], generation: 1, len: 0 };
        for slot in old.slots {
            if slot.stamp == old_generation {
                self.get_or_insert(slot.key, slot.value);
            }
        }
    }
}
