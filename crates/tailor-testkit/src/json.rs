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

/// `v` with every number as an `f64`, so `8080` and `8080.0` (one side's integer, the other's
/// float) compare equal, as they do once printed as YAML.
pub fn numbers_as_f64(v: Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap_or(0.0)),
        Value::Array(a) => Value::Array(a.into_iter().map(numbers_as_f64).collect()),
        Value::Object(o) => {
            Value::Object(o.into_iter().map(|(k, v)| (k, numbers_as_f64(v))).collect())
        }
        other => other,
    }
}
