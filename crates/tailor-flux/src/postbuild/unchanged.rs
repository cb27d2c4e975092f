//! A conservative test for data Flux's round trip cannot change, so that the round trip (print
//! with yaml.v2, envsubst, re-read as YAML 1.1, float64 numbers) can be skipped for it.
//!
//! Most resources a `postBuild` passes through have no `${` anywhere and only plain data:
//! names, labels, images, ports. For those the round trip is the identity, and it is most of
//! the substitution stage's time. The test accepts only data whose every value comes back
//! unchanged for a reason that does not depend on subtle printer behaviour:
//!
//! - null and booleans are printed as `null`, `true`, `false` and read back as such;
//! - integers up to 2^53 in magnitude survive float64;
//! - strings (and keys) of printable ASCII without space or `$` are never folded (yaml.v2
//!   folds only at spaces), hold nothing envsubst reacts to, and are quoted by the printer
//!   whenever YAML 1.1 would read them as anything but that string.
//!
//! Anything else (floats, big integers, spaces, tabs, non-ASCII, `$`) takes the real round
//! trip. `tests/unchanged.rs` checks on random data that whenever this test says "unchanged",
//! the real round trip agrees.

use serde_json::Value as Json;
use tailor_yaml::{Node, ScalarKind, Value};

/// Integers Go's float64 holds exactly.
const MAX_EXACT_INT: u64 = 1 << 53;

/// True when Flux's round trip is certain to give `data` back unchanged, with any variables.
pub fn round_trip_keeps(data: &Json) -> bool {
    match data {
        Json::Null | Json::Bool(_) => true,
        Json::Number(n) => {
            n.as_u64().is_some_and(|v| v <= MAX_EXACT_INT)
                || n.as_i64()
                    .is_some_and(|v| v.unsigned_abs() <= MAX_EXACT_INT)
        }
        Json::String(s) => plain_ascii(s),
        Json::Array(items) => items.iter().all(round_trip_keeps),
        Json::Object(map) => map
            .iter()
            .all(|(k, v)| plain_ascii(k) && round_trip_keeps(v)),
    }
}

/// [`round_trip_keeps`] decided on the tree, without converting it to JSON first (that
/// conversion is a good part of the cost being saved). Conservative in the same way, and
/// stricter: it accepts a tree only when its JSON form is data [`round_trip_keeps`] accepts
/// (`tests/unchanged.rs` checks that implication); anything else goes the long way.
pub fn tree_keeps(node: &Node) -> bool {
    match &node.value {
        Value::Scalar(s) => match node.scalar_kind() {
            Some(ScalarKind::Null | ScalarKind::Bool) => true,
            Some(ScalarKind::Int) => small_decimal(s),
            Some(ScalarKind::Str) => plain_ascii(s),
            _ => false,
        },
        Value::Sequence(items) => items.iter().all(tree_keeps),
        Value::Mapping(pairs) => pairs.iter().all(|p| {
            // A scalar key becomes its text; `<<` merges and takes the long way.
            p.key.as_scalar().is_some_and(plain_ascii)
                && p.key.scalar_kind() != Some(ScalarKind::Merge)
                && tree_keeps(&p.value)
        }),
        Value::Alias(_) => false,
    }
}

/// `0`, or up to 15 decimal digits without a leading zero, optionally negative: far inside
/// 2^53, and read the same way by every YAML dialect.
fn small_decimal(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty()
        && digits.len() <= 15
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

fn plain_ascii(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_graphic() && b != b'$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_data_is_kept() {
        assert!(round_trip_keeps(&json!({
            "apiVersion": "apps/v1",
            "metadata": {"name": "web", "labels": {"app": "web"}, "annotations": {"a": "yes"}},
            "spec": {"replicas": 3, "paused": false, "x": null, "ports": [{"port": 8080}]},
        })));
        assert!(round_trip_keeps(
            &json!({"n": 9007199254740992_u64, "m": -9007199254740992_i64})
        ));
    }

    #[test]
    fn anything_the_round_trip_might_touch_is_not() {
        for data in [
            json!({"a": "${x}"}),
            json!({"a": "$$"}),
            json!({"a": "two words"}),
            json!({"a": "tab\there"}),
            json!({"a": "line\nbreak"}),
            json!({"a": "café"}),
            json!({"a": 1.5}),
            json!({"a": 9007199254740993_u64}),
            json!({"a": -9007199254740993_i64}),
            json!({"a b": 1}),
            json!({"k": [{"deep": "x y"}]}),
        ] {
            assert!(!round_trip_keeps(&data), "{data}");
        }
    }
}
