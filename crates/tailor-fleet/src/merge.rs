//! The two generic merges Fleet's option merge is built from: wrangler's `data.MergeMaps`
//! and Fleet's `merge.ByKey` (`internal/merge/merge.go`).

use serde_json::{Map, Value};

/// wrangler `data.MergeMaps`: recursive only where **both** sides are maps; otherwise the
/// overlay value replaces (lists whole, type mismatches, and an explicit `null`, which sets
/// the key to null instead of deleting it). Base keys keep their order, new keys follow.
pub fn merge_maps(base: &Map<String, Value>, overlay: &Map<String, Value>) -> Map<String, Value> {
    let mut result = base.clone();
    merge_into(&mut result, overlay);
    result
}

/// [`merge_maps`] in place: `overlay` merged into `result`, whose maps are changed where they
/// are rather than copied again at each level.
pub fn merge_into(result: &mut Map<String, Value>, overlay: &Map<String, Value>) {
    for (k, v) in overlay {
        match (result.get_mut(k), v) {
            (Some(Value::Object(b)), Value::Object(o)) => merge_into(b, o),
            _ => {
                result.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Fleet `merge.ByKey`: an empty custom list keeps base, an empty base takes custom; otherwise
/// a custom entry whose key is already in base replaces that entry in place, a key seen
/// earlier in custom is dropped (the first wins), new keys are appended, and entries with an
/// empty key are always appended.
pub fn merge_by_key(
    base: &[Value],
    custom: &[Value],
    key: impl Fn(&Value) -> String,
) -> Vec<Value> {
    if custom.is_empty() {
        return base.to_vec();
    }
    if base.is_empty() {
        return custom.to_vec();
    }
    let mut result = base.to_vec();
    let mut positions: Vec<(String, usize)> = Vec::new();
    for (i, b) in base.iter().enumerate() {
        let k = key(b);
        if !k.is_empty() && !positions.iter().any(|(seen, _)| *seen == k) {
            positions.push((k, i));
        }
    }
    let mut seen_in_custom: Vec<String> = Vec::new();
    for c in custom {
        let k = key(c);
        if k.is_empty() {
            result.push(c.clone());
            continue;
        }
        if seen_in_custom.contains(&k) {
            continue;
        }
        seen_in_custom.push(k.clone());
        match positions.iter().find(|(seen, _)| *seen == k) {
            Some((_, at)) => result[*at] = c.clone(),
            None => {
                positions.push((k, result.len()));
                result.push(c.clone());
            }
        }
    }
    result
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(next) => cur = next,
            None => return "",
        }
    }
    cur.as_str().unwrap_or("")
}

/// `helm.valuesFrom` key: `configmap|ns|name|key` or `secret|ns|name|key`; `""` without a ref.
pub fn values_from_key(v: &Value) -> String {
    for (field, tag) in [("configMapKeyRef", "configmap"), ("secretKeyRef", "secret")] {
        if let Some(r) = v.get(field).filter(|r| r.is_object()) {
            return format!(
                "{tag}|{}|{}|{}",
                str_at(r, &["namespace"]),
                str_at(r, &["name"]),
                str_at(r, &["key"])
            );
        }
    }
    String::new()
}

/// `diff.comparePatches` key: `apiVersion|kind|namespace|name`.
pub fn compare_patch_key(v: &Value) -> String {
    format!(
        "{}|{}|{}|{}",
        str_at(v, &["apiVersion"]),
        str_at(v, &["kind"]),
        str_at(v, &["namespace"]),
        str_at(v, &["name"])
    )
}

/// `downstreamResources` key: `lower(kind)|name`.
pub fn downstream_key(v: &Value) -> String {
    format!(
        "{}|{}",
        str_at(v, &["kind"]).to_lowercase(),
        str_at(v, &["name"])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn merge_maps_recurses_only_into_two_maps() {
        let base = obj(json!({"a": {"x": 1, "y": 2}, "l": [1, 2], "t": {"m": 1}, "keep": 1}));
        let over = obj(json!({"a": {"y": 3, "z": 4}, "l": [9], "t": "scalar", "new": true}));
        assert_eq!(
            Value::Object(merge_maps(&base, &over)),
            json!({"a": {"x": 1, "y": 3, "z": 4}, "l": [9], "t": "scalar", "keep": 1, "new": true})
        );
    }

    #[test]
    fn merge_maps_null_sets_null() {
        let base = obj(json!({"a": {"x": 1}}));
        let over = obj(json!({"a": null}));
        assert_eq!(Value::Object(merge_maps(&base, &over)), json!({"a": null}));
    }

    fn k(v: &Value) -> String {
        v.get("k").and_then(Value::as_str).unwrap_or("").to_string()
    }

    #[test]
    fn by_key_cases_of_merge_test_go() {
        let e: Vec<Value> = vec![];
        let b = vec![json!({"k": "a", "v": 1}), json!({"k": "b", "v": 1})];
        // empty custom -> base; empty base -> custom
        assert_eq!(merge_by_key(&b, &e, k), b);
        assert_eq!(merge_by_key(&e, &b, k), b);
        // no collision -> append
        let c = vec![json!({"k": "c"})];
        assert_eq!(merge_by_key(&b, &c, k).len(), 3);
        // collision replaces in place, base order kept
        let c = vec![json!({"k": "new"}), json!({"k": "a", "v": 2})];
        assert_eq!(
            merge_by_key(&b, &c, k),
            vec![
                json!({"k": "a", "v": 2}),
                json!({"k": "b", "v": 1}),
                json!({"k": "new"})
            ]
        );
        // duplicate within custom: first wins
        let c = vec![json!({"k": "a", "v": 2}), json!({"k": "a", "v": 3})];
        assert_eq!(merge_by_key(&b, &c, k)[0], json!({"k": "a", "v": 2}));
        // empty keys always appended
        let b = vec![json!({"v": 1}), json!({"v": 2})];
        let c = vec![json!({"v": 2})];
        assert_eq!(merge_by_key(&b, &c, k).len(), 3);
    }

    #[test]
    fn keys() {
        assert_eq!(
            values_from_key(
                &json!({"configMapKeyRef": {"name": "cm", "namespace": "ns", "key": "k"}})
            ),
            "configmap|ns|cm|k"
        );
        assert_eq!(
            values_from_key(&json!({"secretKeyRef": {"name": "s"}})),
            "secret||s|"
        );
        assert_eq!(values_from_key(&json!({})), "");
        assert_eq!(
            compare_patch_key(
                &json!({"apiVersion": "v1", "kind": "Secret", "namespace": "ns", "name": "x"})
            ),
            "v1|Secret|ns|x"
        );
        assert_eq!(
            downstream_key(&json!({"kind": "Secret", "name": "sec"})),
            downstream_key(&json!({"kind": "secret", "name": "sec"}))
        );
    }
}
