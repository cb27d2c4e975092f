//! Small, panic-free accessors over `serde_json::Value` that produce field-path errors.
//! Every parser in the crate goes through these, so type errors read the same everywhere.

use serde_json::{Map, Value};

use crate::error::FieldError;
use crate::StringMap;

/// The word used in errors for a value's JSON type.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

/// `path.key`, or just `key` at the root.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `path[i]`.
pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn wrong_type(path: &str, expected: &str, got: &Value) -> FieldError {
    let hint = match (expected, got) {
        ("a string", Value::Number(_) | Value::Bool(_)) => " (quote the value)",
        _ => "",
    };
    FieldError::new(
        path,
        format!("expected {expected}, got {}{hint}", type_name(got)),
    )
}

/// The value as a map, or an error naming `path`.
pub(crate) fn as_object<'a>(
    v: &'a Value,
    path: &str,
) -> Result<&'a Map<String, Value>, FieldError> {
    v.as_object().ok_or_else(|| wrong_type(path, "a map", v))
}

/// A field that is absent and a field that is `null` mean the same thing (as in Go's decoders).
pub(crate) fn field<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => Some(v),
    }
}

/// Rejects keys outside `accepted`, listing the accepted ones, so typos (`matchLabel`) are caught
/// instead of silently meaning "no criterion".
pub(crate) fn check_fields(
    map: &Map<String, Value>,
    path: &str,
    accepted: &[&str],
) -> Result<(), FieldError> {
    for key in map.keys() {
        if !accepted.contains(&key.as_str()) {
            return Err(FieldError::new(
                join(path, key),
                format!("unknown field; accepted fields: {}", accepted.join(", ")),
            ));
        }
    }
    Ok(())
}

/// An optional string field.
pub(crate) fn opt_str<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<&'a str>, FieldError> {
    match field(map, key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(wrong_type(&join(path, key), "a string", v)),
    }
}

/// An optional boolean field.
pub(crate) fn opt_bool(
    map: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<bool>, FieldError> {
    match field(map, key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(wrong_type(&join(path, key), "a boolean", v)),
    }
}

/// An optional list field.
pub(crate) fn opt_list<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a [Value], FieldError> {
    match field(map, key) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(v) => Err(wrong_type(&join(path, key), "a list", v)),
    }
}

/// A `map[string]string` (labels, annotations, data). Absent or null is empty.
pub(crate) fn string_map(v: Option<&Value>, path: &str) -> Result<StringMap, FieldError> {
    let Some(v) = v else {
        return Ok(StringMap::new());
    };
    if v.is_null() {
        return Ok(StringMap::new());
    }
    let map = as_object(v, path)?;
    let mut out = StringMap::new();
    for (k, val) in map {
        match val {
            Value::String(s) => {
                out.insert(k.clone(), s.clone());
            }
            other => return Err(wrong_type(&join(path, k), "a string", other)),
        }
    }
    Ok(out)
}

/// A required string in a list (`values[i]`).
pub(crate) fn list_str<'a>(v: &'a Value, path: &str) -> Result<&'a str, FieldError> {
    v.as_str().ok_or_else(|| wrong_type(path, "a string", v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn type_names() {
        assert_eq!(type_name(&json!(null)), "null");
        assert_eq!(type_name(&json!(true)), "boolean");
        assert_eq!(type_name(&json!(1)), "number");
        assert_eq!(type_name(&json!("x")), "string");
        assert_eq!(type_name(&json!([])), "list");
        assert_eq!(type_name(&json!({})), "map");
    }

    #[test]
    fn string_map_accepts_strings_and_null() {
        let m = string_map(Some(&json!({"b": "2", "a": "1"})), "labels").unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert!(string_map(Some(&json!(null)), "labels").unwrap().is_empty());
        assert!(string_map(None, "labels").unwrap().is_empty());
    }

    #[test]
    fn string_map_names_the_bad_entry() {
        let e = string_map(Some(&json!({"tier": 1})), "spec.labels").unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.labels.tier: expected a string, got number (quote the value)"
        );
        let e = string_map(Some(&json!(["x"])), "spec.labels").unwrap_err();
        assert_eq!(e.to_string(), "spec.labels: expected a map, got list");
    }

    #[test]
    fn unknown_fields_list_accepted_ones() {
        let v = json!({"name": "x", "nmae": "y"});
        let e = check_fields(v.as_object().unwrap(), "spec", &["name", "labels"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.nmae: unknown field; accepted fields: name, labels"
        );
    }

    #[test]
    fn optional_fields() {
        let v = json!({"s": "x", "b": true, "n": null, "l": [1], "bad": 3});
        let m = v.as_object().unwrap();
        assert_eq!(opt_str(m, "s", "p").unwrap(), Some("x"));
        assert_eq!(opt_str(m, "n", "p").unwrap(), None);
        assert_eq!(opt_str(m, "missing", "p").unwrap(), None);
        assert_eq!(opt_bool(m, "b", "p").unwrap(), Some(true));
        assert_eq!(opt_list(m, "l", "p").unwrap().len(), 1);
        assert_eq!(opt_str(m, "bad", "p").unwrap_err().field, "p.bad");
        assert!(opt_bool(m, "s", "p").is_err());
        assert!(opt_list(m, "s", "p").is_err());
        assert_eq!(join("", "a"), "a");
        assert_eq!(index("a", 2), "a[2]");
        assert!(list_str(&json!(1), "v[0]").is_err());
    }
}
