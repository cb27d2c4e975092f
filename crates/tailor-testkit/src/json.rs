//! Random JSON configuration for the "no input may panic" tests of the config readers: maps
//! whose keys come from the reader's own vocabulary, so the generator reaches deep into it.

use serde_json::{json, Map, Value};

use crate::Rng;

/// A random value at most five levels deep: null, booleans, small numbers, strings from
/// `strings`, lists, and maps keyed from `keys`.
pub fn random_value(rng: &mut Rng, keys: &[&str], strings: &[&str]) -> Value {
    value(rng, keys, strings, 0)
}

fn value(rng: &mut Rng, keys: &[&str], strings: &[&str], depth: u32) -> Value {
    match rng.next_u64() % if depth > 3 { 5 } else { 7 } {
        0 => Value::Null,
        1 => json!(rng.next_u64() % 2 == 0),
        2 => json!(rng.next_u64() % 100),
        3 | 4 => json!(rng.pick(strings)),
        5 => Value::Array(
            (0..rng.next_u64() % 4)
                .map(|_| value(rng, keys, strings, depth + 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.next_u64() % 5 {
                let k = rng.pick(keys).to_string();
                m.insert(k, value(rng, keys, strings, depth + 1));
            }
            Value::Object(m)
        }
    }
}
