//! Hashing for the layer's indexes (duplicate keys, property names, SameValueZero sets), seeded
//! at random once per process (std's SipHash: no file can be written to make keys collide).

use std::hash::{BuildHasher, Hash};
use std::sync::LazyLock;

/// The process's hash state (one seed, so that hashes stored as keys stay comparable).
static STATE: LazyLock<std::collections::hash_map::RandomState> = LazyLock::new(Default::default);

/// A map hashed with the process's seed (std's SipHash: see the module's note).
pub type FastMap<K, V> = std::collections::HashMap<K, V, std::collections::hash_map::RandomState>;

/// An empty [`FastMap`] with room for `n` entries.
pub fn map_with_capacity<K, V>(n: usize) -> FastMap<K, V> {
    FastMap::with_capacity_and_hasher(n, STATE.clone())
}

/// A value's hash under the process's seed.
pub fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    STATE.hash_one(value)
}

/// A JavaScript value as SameValueZero (`Set`, `Map`) compares it: `-0` is `0`, every NaN is
/// one value, and an object is its identity.
pub enum Svz<'a> {
    Null,
    Bool(bool),
    Number(f64),
    Str(&'a str),
    Object(usize),
}

/// A hash equal for any two values SameValueZero calls equal.
pub fn svz_hash(v: Svz<'_>) -> u64 {
    match v {
        Svz::Null => hash_of(&0u8),
        Svz::Bool(b) => hash_of(&(1u8, b)),
        Svz::Number(x) if x.is_nan() => hash_of(&(2u8, u64::MAX)),
        Svz::Number(x) => hash_of(&(2u8, if x == 0.0 { 0 } else { x.to_bits() })),
        Svz::Str(s) => hash_of(&(3u8, s)),
        Svz::Object(id) => hash_of(&(4u8, id)),
    }
}

/// A string key's hash under the process's seed.
pub fn hash_str(s: &str) -> u64 {
    hash_of(s)
}

/// An index from string keys to positions in an external entry list,
/// without cloning the keys (hash -> first position, plus collision chains).
#[derive(Debug, Clone, Default)]
pub struct KeyIndex {
    first: FastMap<u64, u32>,
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl KeyIndex {
    pub fn with_capacity(n: usize) -> Self {
        KeyIndex { first: map_with_capacity(n), next: Vec::with_capacity(n) }
    }

    /// Position of a key whose text (what [`Self::push`] hashed) is `text`, comparing
    /// candidates with `is_key`.
    pub fn find_by(&self, text: &str, is_key: impl Fn(usize) -> bool) -> Option<usize> {
        let mut i = *self.first.get(&hash_str(text))?;
        while i != NONE {
            if is_key(i as usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of one shape that differ in a few digits: the FxHash this replaced gave 400 equal
    /// hashes among these (`suppressed-0009899` and `suppressed-0009049`), so every lookup of
    /// such a key walked the whole key list.
    #[test]
    fn keys_that_differ_in_a_few_digits_do_not_collide() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..20_000 {
            for prefix in ["suppressed-", "unknown-", "x-key-"] {
                assert!(seen.insert(hash_str(&format!("{prefix}{i:07}"))), "{prefix}{i:07}");
            }
        }
    }

    #[test]
    fn key_index_finds_the_latest_push_of_a_key_and_misses_absent_ones() {
        let keys = ["a", "b", "a", "c"];
        let mut ix = KeyIndex::with_capacity(4);
        for k in keys {
            ix.push(k);
        }
        assert_eq!(ix.find_by("a", |i| keys[i] == "a"), Some(2));
        assert_eq!(ix.find_by("c", |i| keys[i] == "c"), Some(3));
        assert_eq!(ix.find_by("d", |i| keys[i] == "d"), None);
    }
}
