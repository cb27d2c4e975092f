//! Reading configuration out of `serde_json::Value`s, panic-free, with errors that name the
//! field (`spec.targetCustomizations[2].namespace: expected a string, got number`). Every
//! config reader goes through these, so type errors and unknown-field errors read the same
//! everywhere. Absent and `null` mean the same thing, as in Go's decoders.

use serde_json::{Map, Value};

use crate::diag::FieldError;
use crate::StringMap;

/// The word used in errors for a value's JSON type.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

/// The word Go's `encoding/json` uses for a value's JSON type in its type errors (kustomize and
/// Flux pass those on).
pub fn go_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Go's `json: cannot unmarshal <type of v> into Go value of type <go_type>`.
pub fn go_unmarshal_error(v: &Value, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go value of type {go_type}",
        go_type_name(v)
    )
}

/// Two lists of names (fields, kinds) laid end to end, at compile time, so a list that extends
/// another names the shared ones once: `const ALL: &[&str] = &concat_names::<2, 1, 3>(BASE,
/// ["c"]);`. `N` must be `A + B` (checked when the constant is evaluated).
pub const fn concat_names<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    assert!(A + B == N, "concat_names: N must be A + B");
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// `path.key`, or just `key` at the root.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `path[i]`.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// `expected a string, got number (quote the value)`.
pub fn wrong_type(path: &str, expected: &str, got: &Value) -> FieldError {
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
pub fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, FieldError> {
    v.as_object().ok_or_else(|| wrong_type(path, "a map", v))
}

/// A field of a map; absent and `null` are both `None`.
pub fn field<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => Some(v),
    }
}

fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// An optional string.
pub fn string<'a>(v: Option<&'a Value>, path: &str) -> Result<Option<&'a str>, FieldError> {
    match present(v) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong_type(path, "a string", other)),
    }
}

/// An optional string where `""` also means unset (Go's zero value).
pub fn nonempty_string(v: Option<&Value>, path: &str) -> Result<Option<String>, FieldError> {
    Ok(string(v, path)?
        .filter(|s| !s.is_empty())
        .map(str::to_string))
}

/// An optional boolean.
pub fn boolean(v: Option<&Value>, path: &str) -> Result<Option<bool>, FieldError> {
    match present(v) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(wrong_type(path, "a boolean", other)),
    }
}

/// An optional integer.
pub fn integer(v: Option<&Value>, path: &str) -> Result<Option<i64>, FieldError> {
    match present(v) {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| FieldError::new(path, format!("expected an integer, got {n}"))),
        Some(other) => Err(wrong_type(path, "an integer", other)),
    }
}

/// An optional list (empty when absent).
pub fn list<'a>(v: Option<&'a Value>, path: &str) -> Result<&'a [Value], FieldError> {
    match present(v) {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(wrong_type(path, "a list", other)),
    }
}

/// A list of strings.
pub fn string_list(v: Option<&Value>, path: &str) -> Result<Vec<String>, FieldError> {
    list(v, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(wrong_type(&index(path, i), "a string", other)),
        })
        .collect()
}

/// An optional map.
pub fn object<'a>(
    v: Option<&'a Value>,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>, FieldError> {
    match present(v) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(wrong_type(path, "a map", other)),
    }
}

/// A required string, such as an item of a list of strings.
pub fn string_item<'a>(v: &'a Value, path: &str) -> Result<&'a str, FieldError> {
    v.as_str().ok_or_else(|| wrong_type(path, "a string", v))
}

/// An optional `map[string]string` as written (its order kept); every value must be a string.
pub fn string_object<'a>(
    v: Option<&'a Value>,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>, FieldError> {
    let Some(m) = object(v, path)? else {
        return Ok(None);
    };
    for (k, val) in m {
        if !val.is_string() {
            return Err(wrong_type(&join(path, k), "a string", val));
        }
    }
    Ok(Some(m))
}

/// A `map[string]string` (labels, annotations, data), sorted; absent is empty.
pub fn string_map(v: Option<&Value>, path: &str) -> Result<StringMap, FieldError> {
    Ok(string_object(v, path)?
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default())
}

/// The map at `path` with only the `accepted` keys, or an error naming the first other key
/// (with the nearest accepted name when there is one), so a typo (`matchLabel`) is caught
/// instead of silently meaning "no criterion". With `fold_case`, keys are matched to their
/// accepted spelling case-insensitively first, as Go's `encoding/json` does, and a later
/// spelling of the same field wins, as it does there.
pub fn known_fields(
    v: &Value,
    path: &str,
    accepted: &[&str],
    fold_case: bool,
) -> Result<Map<String, Value>, FieldError> {
    let map = as_object(v, path)?;
    let mut out = Map::new();
    for (key, val) in map {
        let canonical = match accepted.iter().find(|a| **a == key) {
            Some(a) => Some(*a),
            None if fold_case => accepted
                .iter()
                .find(|a| a.eq_ignore_ascii_case(key))
                .copied(),
            None => None,
        };
        match canonical {
            Some(c) => {
                out.insert(c.to_string(), val.clone());
            }
            None => return Err(unknown_field(path, key, accepted)),
        }
    }
    Ok(out)
}

/// [`known_fields`] for a map already in hand, without folding case.
pub fn check_fields(
    map: &Map<String, Value>,
    path: &str,
    accepted: &[&str],
) -> Result<(), FieldError> {
    match map.keys().find(|k| !accepted.contains(&k.as_str())) {
        Some(key) => Err(unknown_field(path, key, accepted)),
        None => Ok(()),
    }
}

/// `path.key: unknown field (did you mean "x"?); accepted fields: ...` (sorted).
pub fn unknown_field(path: &str, key: &str, accepted: &[&str]) -> FieldError {
    let mut sorted = accepted.to_vec();
    sorted.sort_unstable();
    let hint = suggest(key, accepted)
        .map(|a| format!(" (did you mean {a:?}?)"))
        .unwrap_or_default();
    FieldError::new(
        join(path, key),
        format!(
            "unknown field{hint}; accepted fields: {}",
            sorted.join(", ")
        ),
    )
}

/// The candidate a misspelt `name` most likely meant: the same name in another case, or the
/// closest one at most two edits away (one for short names).
pub fn suggest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = candidates.iter().find(|c| c.eq_ignore_ascii_case(name)) {
        return Some(c);
    }
    let limit = if name.chars().count() <= 4 { 1 } else { 2 };
    candidates
        .iter()
        .map(|c| (edit_distance(&name.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance with transpositions counted as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn name_lists_concatenate_at_compile_time() {
        const BASE: [&str; 2] = ["a", "b"];
        const ALL: &[&str] = &concat_names::<2, 1, 3>(BASE, ["c"]);
        assert_eq!(ALL, ["a", "b", "c"]);
    }

    #[test]
    fn go_type_errors_use_encoding_json_words() {
        let words: Vec<_> = [
            json!(null),
            json!(true),
            json!(1),
            json!("s"),
            json!([]),
            json!({}),
        ]
        .iter()
        .map(go_type_name)
        .collect();
        assert_eq!(
            words,
            ["null", "bool", "number", "string", "array", "object"]
        );
        assert_eq!(
            go_unmarshal_error(&json!([1]), "jsonpatch.Operation"),
            "json: cannot unmarshal array into Go value of type jsonpatch.Operation"
        );
    }

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
    fn scalars_name_the_field() {
        assert_eq!(
            string(Some(&json!(1)), "a.b").unwrap_err().to_string(),
            "a.b: expected a string, got number (quote the value)"
        );
        assert_eq!(nonempty_string(Some(&json!("")), "a").unwrap(), None);
        assert_eq!(string(Some(&json!(null)), "a").unwrap(), None);
        assert_eq!(
            integer(Some(&json!(1.5)), "t").unwrap_err().to_string(),
            "t: expected an integer, got 1.5"
        );
        assert_eq!(
            string_list(Some(&json!(["a", 1])), "l")
                .unwrap_err()
                .to_string(),
            "l[1]: expected a string, got number (quote the value)"
        );
        assert_eq!(
            string_map(Some(&json!({"k": true})), "m")
                .unwrap_err()
                .to_string(),
            "m.k: expected a string, got boolean (quote the value)"
        );
        let m = string_map(Some(&json!({"b": "2", "a": "1"})), "labels").unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert!(string_map(None, "labels").unwrap().is_empty());
    }

    #[test]
    fn unknown_fields_suggest_the_near_name() {
        let e =
            known_fields(&json!({"Namespace": "x"}), "spec", &["namespace"], false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "spec.Namespace: unknown field (did you mean \"namespace\"?); accepted fields: namespace"
        );
        let e = known_fields(
            &json!({"replacments": []}),
            "spec",
            &["replacements", "patches"],
            false,
        )
        .unwrap_err();
        assert!(e.message.contains("did you mean \"replacements\""), "{e}");
        let e = known_fields(&json!({"zzz": 1}), "", &["namespace"], false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "zzz: unknown field; accepted fields: namespace"
        );
        assert_eq!(suggest("Ingres", &["Ingress", "Service"]), Some("Ingress"));
        assert_eq!(suggest("pvc", &["PersistentVolumeClaim"]), None);
    }

    #[test]
    fn folding_case_takes_the_later_spelling() {
        let m = known_fields(
            &json!({"NameSpace": "a", "namespace": "b"}),
            "",
            &["namespace"],
            true,
        )
        .unwrap();
        assert_eq!(m["namespace"], "b");
    }
}
