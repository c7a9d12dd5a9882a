//! [`SortedMap`]: the engine's ordered map, a vector of pairs sorted by key.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An ordered map kept as a vector of `(key, value)` pairs in increasing key order.
///
/// The engine's maps are small or filled in key order: checkpoints in flight (ids only grow),
/// channels with recorded state (grouped before they are stored), a subtask's word counts (word
/// ids are numbered in reading order, so a new word mostly lands at the end). A
/// binary search finds a key as quickly as a tree walk, a clone is one copy, and iteration is in
/// key order like a `BTreeMap`'s, which keeps traces deterministic. What it buys is size: each
/// `BTreeMap<K, V>` type brings its own copy of the B-tree code into the page's wasm (kilobytes),
/// while this compiles to a binary search and a vector insert.
///
/// Inserting a new key moves the larger ones, so filling it in random order costs O(n²) moves.
/// Build big maps in key order (each insert then appends) or keep them small.
///
/// Serialised as a map, exactly like a `BTreeMap` with the same entries.
#[derive(Clone, PartialEq, Eq)]
pub struct SortedMap<K, V> {
    /// Increasing keys, each once.
    entries: Vec<(K, V)>,
}

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in increasing key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        self.entries.iter().map(as_refs as fn(&(K, V)) -> (&K, &V))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Where `key` is (`Ok`) or would go (`Err`).
    fn position(&self, key: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key))
    }

    pub fn contains_key(&self, key: &K) -> bool {
        self.position(key).is_ok()
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        let at = self.position(key).ok()?;
        self.entries.get(at).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let at = self.position(key).ok()?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// Sets the value of `key`, returning the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(at) => self
                .entries
                .get_mut(at)
                .map(|(_, v)| std::mem::replace(v, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserted first as `V::default()` if absent (a `BTreeMap`'s
    /// `entry(key).or_default()`).
    pub fn get_or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let at = match self.position(&key) {
            Ok(at) => at,
            Err(at) => {
                self.entries.insert(at, (key, V::default()));
                at
            }
        };
        &mut self.entries[at].1
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        let at = self.position(key).ok()?;
        Some(self.entries.remove(at).1)
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The iterator of [`SortedMap::iter`].
pub type Iter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

fn as_refs<K, V>((k, v): &(K, V)) -> (&K, &V) {
    (k, v)
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for SortedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// Reads a serialised map; as with a `BTreeMap`, a repeated key keeps its last value.
struct MapVisitor<K, V>(PhantomData<(K, V)>);

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
    type Value = SortedMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = SortedMap::new();
        while let Some((key, value)) = access.next_entry()? {
            map.insert(key, value);
        }
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::SortedMap;

    /// The same operations on a `BTreeMap` and a `SortedMap` leave the same entries.
    #[test]
    fn behaves_like_a_btree_map() {
        let mut sorted = SortedMap::new();
        let mut tree = BTreeMap::new();
        let mut x = 7u32;
        for step in 0..2_000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let key = (x >> 16) % 64;
            match step % 4 {
                0 => assert_eq!(sorted.insert(key, step), tree.insert(key, step)),
                1 => assert_eq!(sorted.remove(&key), tree.remove(&key)),
                2 => *sorted.get_or_default(key) += 1,
                _ => {
                    if let Some(v) = sorted.get_mut(&key) {
                        *v += 3;
                    }
                }
            }
            if step % 4 == 2 {
                *tree.entry(key).or_default() += 1;
            } else if step % 4 == 3 {
                if let Some(v) = tree.get_mut(&key) {
                    *v += 3;
                }
            }
            assert_eq!(sorted.get(&key), tree.get(&key));
            assert_eq!(sorted.contains_key(&key), tree.contains_key(&key));
        }
        assert!(sorted.iter().eq(tree.iter()));
        assert_eq!(sorted.len(), tree.len());
        assert_eq!(format!("{sorted:?}"), format!("{tree:?}"));
    }

    #[test]
    fn serialises_like_a_btree_map() {
        let mut sorted = SortedMap::new();
        let mut tree = BTreeMap::new();
        for (k, v) in [(3u32, "c"), (1, "a"), (2, "b")] {
            sorted.insert(k, v.to_owned());
            tree.insert(k, v.to_owned());
        }
        let json = serde_json::to_string(&sorted).unwrap();
        assert_eq!(json, serde_json::to_string(&tree).unwrap());
        assert_eq!(json, r#"{"1":"a","2":"b","3":"c"}"#);
        let back: SortedMap<u32, String> =
            serde_json::from_str(r#"{"3":"x","1":"a","3":"c","2":"b"}"#).unwrap();
        assert_eq!(back, sorted);
    }
}
