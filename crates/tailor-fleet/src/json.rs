//! Small helpers for reading configuration out of `serde_json::Value`s with errors that name
//! the field (`spec.targetCustomizations[2].namespace: expected a string, got number`).

use serde_json::{Map, Value};
use tailor_cluster::FieldError;

use crate::Dialect;

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

fn expected(path: &str, what: &str, got: &Value) -> FieldError {
    FieldError::new(path, format!("expected {what}, got {}", type_name(got)))
}

pub(crate) fn as_object<'a>(
    v: &'a Value,
    path: &str,
) -> Result<&'a Map<String, Value>, FieldError> {
    v.as_object().ok_or_else(|| expected(path, "a map", v))
}

/// A string field; null and absent are `None`, and so is `""` (Go's zero value means unset).
pub(crate) fn opt_string(v: Option<&Value>, path: &str) -> Result<Option<String>, FieldError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(expected(path, "a string", other)),
    }
}

pub(crate) fn opt_bool(v: Option<&Value>, path: &str) -> Result<bool, FieldError> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(expected(path, "a bool", other)),
    }
}

pub(crate) fn opt_int(v: Option<&Value>, path: &str) -> Result<i64, FieldError> {
    match v {
        None | Some(Value::Null) => Ok(0),
        Some(Value::Number(n)) => n
            .as_i64()
            .ok_or_else(|| FieldError::new(path, format!("expected an integer, got {n}"))),
        Some(other) => Err(expected(path, "an integer", other)),
    }
}

/// A list field; null and absent are empty.
pub(crate) fn opt_list(v: Option<&Value>, path: &str) -> Result<Vec<Value>, FieldError> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items.clone()),
        Some(other) => Err(expected(path, "a list", other)),
    }
}

/// A list of strings.
pub(crate) fn string_list(v: Option<&Value>, path: &str) -> Result<Vec<String>, FieldError> {
    opt_list(v, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(expected(&index(path, i), "a string", other)),
        })
        .collect()
}

/// A map field; null and absent are `None`.
pub(crate) fn opt_map(
    v: Option<&Value>,
    path: &str,
) -> Result<Option<Map<String, Value>>, FieldError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m.clone())),
        Some(other) => Err(expected(path, "a map", other)),
    }
}

/// A `map[string]string` field: every value must be a string.
pub(crate) fn opt_string_map(
    v: Option<&Value>,
    path: &str,
) -> Result<Option<Map<String, Value>>, FieldError> {
    let Some(m) = opt_map(v, path)? else {
        return Ok(None);
    };
    for (k, val) in &m {
        if !val.is_string() {
            return Err(expected(&join(path, k), "a string", val));
        }
    }
    Ok(Some(m))
}

/// Rejects keys outside `accepted`. In the Fleet dialect keys are first matched to their
/// canonical spelling case-insensitively, as `encoding/json` does when Fleet decodes
/// fleet.yaml; a later spelling of the same field wins, as it does there.
pub(crate) fn checked_object(
    v: &Value,
    path: &str,
    accepted: &[&str],
    dialect: Dialect,
) -> Result<Map<String, Value>, FieldError> {
    let map = as_object(v, path)?;
    let mut out = Map::new();
    for (key, val) in map {
        let canonical = match accepted.iter().find(|a| **a == key) {
            Some(a) => Some(*a),
            None if dialect == Dialect::FleetYaml => accepted
                .iter()
                .find(|a| a.eq_ignore_ascii_case(key))
                .copied(),
            None => None,
        };
        match canonical {
            Some(c) => {
                out.insert(c.to_string(), val.clone());
            }
            None => {
                let mut sorted = accepted.to_vec();
                sorted.sort_unstable();
                let hint = accepted
                    .iter()
                    .find(|a| a.eq_ignore_ascii_case(key))
                    .map(|a| format!(" (did you mean {a:?}?)"))
                    .unwrap_or_default();
                return Err(FieldError::new(
                    join(path, key),
                    format!(
                        "unknown field{hint}; accepted fields: {}",
                        sorted.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// The selector fields of a label selector, canonicalised for the Fleet dialect so that
/// `tailor_cluster`'s strict parser sees the spelling Fleet would have accepted.
pub(crate) fn canonical_selector(
    v: &Value,
    path: &str,
    dialect: Dialect,
) -> Result<Value, FieldError> {
    if dialect != Dialect::FleetYaml || !v.is_object() {
        return Ok(v.clone());
    }
    let mut m = checked_object(v, path, &["matchLabels", "matchExpressions"], dialect)?;
    if let Some(Value::Array(exprs)) = m.get("matchExpressions").cloned() {
        let base = join(path, "matchExpressions");
        let mut out = Vec::with_capacity(exprs.len());
        for (i, e) in exprs.iter().enumerate() {
            if e.is_object() {
                let c =
                    checked_object(e, &index(&base, i), &["key", "operator", "values"], dialect)?;
                out.push(Value::Object(c));
            } else {
                out.push(e.clone());
            }
        }
        m.insert("matchExpressions".into(), Value::Array(out));
    }
    Ok(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checked_object_is_strict_in_the_tailor_dialect() {
        let e = checked_object(
            &json!({"Namespace": "x"}),
            "spec",
            &["namespace"],
            Dialect::Tailor,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.Namespace: unknown field (did you mean \"namespace\"?); accepted fields: namespace"
        );
    }

    #[test]
    fn checked_object_folds_case_in_the_fleet_dialect() {
        let m = checked_object(
            &json!({"NameSpace": "a", "namespace": "b"}),
            "",
            &["namespace"],
            Dialect::FleetYaml,
        )
        .unwrap();
        // The later spelling wins, as with encoding/json.
        assert_eq!(m["namespace"], "b");
    }

    #[test]
    fn scalars_name_the_field() {
        assert_eq!(
            opt_string(Some(&json!(1)), "a.b").unwrap_err().to_string(),
            "a.b: expected a string, got number"
        );
        assert_eq!(opt_string(Some(&json!("")), "a").unwrap(), None);
        assert_eq!(
            opt_int(Some(&json!(1.5)), "t").unwrap_err().to_string(),
            "t: expected an integer, got 1.5"
        );
        assert_eq!(
            string_list(Some(&json!(["a", 1])), "l")
                .unwrap_err()
                .to_string(),
            "l[1]: expected a string, got number"
        );
        assert_eq!(
            opt_string_map(Some(&json!({"k": true})), "m")
                .unwrap_err()
                .to_string(),
            "m.k: expected a string, got bool"
        );
    }
}
