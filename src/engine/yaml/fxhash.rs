//! A small fast non-cryptographic hasher (FxHash) for internal maps.

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 56));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // murmur3 finalizer: hashbrown uses both the low and the high bits
        let mut h = self.hash;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
pub(crate) type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuild>;

/// Hash of a string key with [`FxHasher`].
pub(crate) fn hash_str(s: &str) -> u64 {
    use std::hash::Hash;
    let mut h = FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// An index from string keys to positions in an external entry list,
/// without cloning the keys (hash -> first position, plus collision chains).
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyIndex {
    first: FxHashMap<u64, u32>,
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl KeyIndex {
    pub fn with_capacity(n: usize) -> Self {
        KeyIndex { first: FxHashMap::with_capacity_and_hasher(n, Default::default()), next: Vec::with_capacity(n) }
    }

    /// Position of `key`, comparing candidates with `key_at`.
    pub fn find<'a>(&self, key: &str, key_at: impl Fn(usize) -> &'a str) -> Option<usize> {
        let mut i = *self.first.get(&hash_str(key))?;
        while i != NONE {
            if key_at(i as usize) == key {
                return Some(i as usize);
            }
            i = self.next[i as usize];
        }
        None
    }

    /// Register `key` at position `pos` (positions must be added in order 0, 1, 2, ...).
    pub fn push(&mut self, key: &str) {
        let pos = self.next.len() as u32;
        let h = hash_str(key);
        let prev = self.first.insert(h, pos).unwrap_or(NONE);
        // keep the chain: new entry points at the previous head
        self.next.push(prev);
    }
}
