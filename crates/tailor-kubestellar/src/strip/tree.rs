//! Small helpers over the `tailor_yaml` tree that the strip code needs.

use tailor_yaml::{Node, ScalarKind, Value};

/// A YAML boolean (as go-yaml v3 reads it), if the node is one.
pub(crate) fn as_bool(node: &Node) -> Option<bool> {
    if node.scalar_kind() != Some(ScalarKind::Bool) {
        return None;
    }
    match node.as_scalar()? {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// Removes every entry with `key` from a mapping; true when something was removed.
pub(crate) fn remove_key(node: &mut Node, key: &str) -> bool {
    if !node.is_mapping() {
        return false;
    }
    node.remove(key).is_some()
}

/// A short description of a node's type for findings.
pub(crate) fn type_name(node: &Node) -> &'static str {
    match &node.value {
        Value::Mapping(_) => "a mapping",
        Value::Sequence(_) => "a list",
        Value::Alias(_) => "an alias",
        Value::Scalar(_) => match node.scalar_kind() {
            Some(ScalarKind::Null) => "null",
            Some(ScalarKind::Bool) => "a boolean",
            Some(ScalarKind::Int) => "an integer",
            Some(ScalarKind::Float) => "a number",
            Some(ScalarKind::Str) => "a string",
            _ => "a scalar",
        },
    }
}

/// The key of a mapping entry as text (non-scalar keys give `None`).
pub(crate) fn key_text(node: &Node) -> Option<&str> {
    node.as_scalar()
}

/// Quotes a map key for a field path when it is not a plain identifier.
pub(crate) fn path_key(prefix: &str, key: &str) -> String {
    let simple = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if simple {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    } else {
        format!("{prefix}[{}]", serde_json::Value::String(key.to_string()))
    }
}

/// True when a `<<` merge key of the mapping may supply `key` (an aliased merge source
/// cannot be checked here, so it counts).
pub(crate) fn merge_may_provide(node: &Node, key: &str) -> bool {
    let provides = |src: &Node| match &src.value {
        Value::Mapping(_) => src.contains_key(key),
        Value::Alias(_) => true,
        Value::Sequence(items) => items
            .iter()
            .any(|i| matches!(i.value, Value::Alias(_)) || i.contains_key(key)),
        Value::Scalar(_) => false,
    };
    node.pairs().is_some_and(|pairs| {
        pairs
            .iter()
            .any(|p| p.key.scalar_kind() == Some(ScalarKind::Merge) && provides(&p.value))
    })
}
