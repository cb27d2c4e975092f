//! Keyed lookups for the merge: Go's `==` on decoded scalars as a hash key, so finding an item
//! of a list by its merge key, or a key of a map, costs O(1) instead of a scan. Without them
//! every merged list of n items costs n² (16,000 containers: a minute).

use std::collections::HashMap;

use serde_json::Value as Json;
use tailor_yaml::{Node, Pair, Value};

use super::key_of;

/// A decoded scalar as Go compares it (`go_eq`): numbers as float64 bits (`-0` as `0`),
/// `null` and a missing value alike.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum GoKey {
    Null,
    Bool(bool),
    Num(u64),
    Str(String),
}

/// The key of a value (`None`: missing, which Go compares as `nil`); `None` for maps, lists
/// and values that do not decode, which equal nothing.
pub(super) fn go_key(n: Option<&Node>) -> Option<GoKey> {
    let Some(n) = n else {
        return Some(GoKey::Null);
    };
    if matches!(n.value, Value::Mapping(_) | Value::Sequence(_)) {
        return None;
    }
    match n.to_json().ok()? {
        Json::Null => Some(GoKey::Null),
        Json::Bool(b) => Some(GoKey::Bool(b)),
        Json::Number(x) => {
            let f = x.as_f64()?;
            Some(GoKey::Num(if f == 0.0 { 0 } else { f.to_bits() }))
        }
        Json::String(s) => Some(GoKey::Str(s)),
        Json::Array(_) | Json::Object(_) => None,
    }
}

/// The key of a present value only (a missing value equals nothing).
pub(super) fn present_key(n: Option<&Node>) -> Option<GoKey> {
    n.and_then(|n| go_key(Some(n)))
}

/// The first position of each key in a list.
#[derive(Default)]
pub(super) struct FirstIndex(HashMap<GoKey, usize>);

impl FirstIndex {
    pub(super) fn of<'a>(
        items: impl IntoIterator<Item = &'a Node>,
        key: impl Fn(&Node) -> Option<GoKey>,
    ) -> FirstIndex {
        let mut index = FirstIndex::default();
        for (i, n) in items.into_iter().enumerate() {
            index.add(key(n), i);
        }
        index
    }

    pub(super) fn add(&mut self, key: Option<GoKey>, at: usize) {
        if let Some(k) = key {
            self.0.entry(k).or_insert(at);
        }
    }

    pub(super) fn get(&self, key: Option<&GoKey>) -> Option<usize> {
        key.and_then(|k| self.0.get(k).copied())
    }

    pub(super) fn contains(&self, key: Option<&GoKey>) -> bool {
        self.get(key).is_some()
    }
}

/// A map's pairs with an index by key: `get`, `take` and `set` as a scan would do them (the
/// first pair with the key; a new key goes last). A mapping with a duplicate key is scanned.
pub(super) struct Pairs {
    slots: Vec<Option<Pair>>,
    index: Option<HashMap<String, usize>>,
}

impl Pairs {
    pub(super) fn new(pairs: Vec<Pair>) -> Pairs {
        let mut index = HashMap::with_capacity(pairs.len());
        let mut unique = true;
        for (i, p) in pairs.iter().enumerate() {
            unique &= index.insert(key_of(p).to_string(), i).is_none();
        }
        Pairs {
            slots: pairs.into_iter().map(Some).collect(),
            index: unique.then_some(index),
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self
                .slots
                .iter()
                .position(|p| p.as_ref().is_some_and(|p| key_of(p) == key)),
        }
    }

    pub(super) fn get(&self, key: &str) -> Option<&Node> {
        let i = self.position(key)?;
        self.slots[i].as_ref().map(|p| &p.value)
    }

    pub(super) fn take(&mut self, key: &str) -> Option<Node> {
        let i = self.position(key)?;
        if let Some(index) = &mut self.index {
            index.remove(key);
        }
        self.slots[i].take().map(|p| p.value)
    }

    pub(super) fn set(&mut self, key: &str, value: Node) {
        match self.position(key) {
            Some(i) => {
                if let Some(p) = &mut self.slots[i] {
                    p.value = value;
                }
            }
            None => {
                if let Some(index) = &mut self.index {
                    index.insert(key.to_string(), self.slots.len());
                }
                self.slots.push(Some(Pair {
                    key: Node::string(key),
                    value,
                }));
            }
        }
    }

    pub(super) fn into_pairs(self) -> Vec<Pair> {
        self.slots.into_iter().flatten().collect()
    }
}
