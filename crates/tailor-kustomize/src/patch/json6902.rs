//! RFC 6902 JSON Patch on node trees, with the behaviour of the library kustomize uses
//! (evanphx/json-patch v4): negative indices count from the end, `replace` of a missing map key
//! adds it, a path without a leading `/` addresses the last segment at the top, a missing
//! `value` means `null`, and the error texts are that library's.

use serde_json::{Map, Value as Json};
use tailor_kube::json::go_unmarshal_error;
use tailor_yaml::{from_json, Node, Value};

use crate::patch::Error;

/// One operation, kept as the object it was written as (fields are read as the library reads
/// them: `op`, `path`, `from`, `value`).
#[derive(Clone, Debug, PartialEq)]
pub struct Op(pub Map<String, Json>);

impl Op {
    fn kind(&self) -> &str {
        match self.0.get("op") {
            Some(Json::String(s)) => s,
            _ => "unknown",
        }
    }

    fn path(&self) -> Result<&str, String> {
        self.string_field("path", "operation missing path field: missing value")
    }

    fn from(&self) -> Result<&str, String> {
        self.string_field("from", "operation, missing from field: missing value")
    }

    /// A string field; absent and `null` are `missing`.
    fn string_field(&self, name: &str, missing: &str) -> Result<&str, String> {
        match self.0.get(name) {
            Some(Json::String(s)) => Ok(s),
            Some(Json::Null) | None => Err(missing.into()),
            Some(other) => Err(go_unmarshal_error(other, "string")),
        }
    }

    /// The value to write: absent and `null` both write `null`.
    fn value_node(&self) -> Node {
        from_json(self.0.get("value").unwrap_or(&Json::Null))
    }
}

/// Decodes an operation list from JSON (`DecodePatch`).
pub fn decode_ops(json: &Json) -> Result<Vec<Op>, Error> {
    match json {
        Json::Null => Ok(Vec::new()),
        Json::Array(items) => items
            .iter()
            .map(|i| match i {
                Json::Object(m) => Ok(Op(m.clone())),
                Json::Null => Ok(Op(Map::new())),
                other => Err(Error::new(go_unmarshal_error(other, "jsonpatch.Operation"))),
            })
            .collect(),
        other => Err(Error::new(go_unmarshal_error(other, "jsonpatch.Patch"))),
    }
}

/// Applies the operations in order; on error the target may be partly patched (callers that
/// need atomicity patch a copy, as [`crate::patch::apply_patches`] does).
pub fn json6902(target: &mut Node, ops: &[Op]) -> Result<(), Error> {
    for op in ops {
        apply_op(target, op).map_err(Error::new)?;
    }
    Ok(())
}

fn apply_op(doc: &mut Node, op: &Op) -> Result<(), String> {
    match op.kind() {
        "add" => {
            let path = op
                .path()
                .map_err(|_| "add operation failed to decode path: missing value".to_string())?;
            let (con, key) = find_object(doc, path).ok_or_else(|| {
                format!(
                    "add operation does not apply: doc is missing path: \"{path}\": missing value"
                )
            })?;
            add(con, &key, op.value_node())
                .map_err(|e| format!("error in add for path: '{path}': {e}"))
        }
        "remove" => {
            let path = op
                .path()
                .map_err(|_| "remove operation failed to decode path: missing value".to_string())?;
            let (con, key) = find_object(doc, path).ok_or_else(|| {
                format!("remove operation does not apply: doc is missing path: \"{path}\": missing value")
            })?;
            remove(con, &key)
                .map(|_| ())
                .map_err(|e| format!("error in remove for path: '{path}': {e}"))
        }
        "replace" => {
            let path = op
                .path()
                .map_err(|e| format!("replace operation failed to decode path: {e}"))?;
            if path.is_empty() {
                let v = op.value_node();
                if !v.is_mapping() && !v.is_sequence() {
                    return Err(
                        "replace operation value must be object or array: %!w(<nil>)".into(),
                    );
                }
                *doc = v;
                return Ok(());
            }
            let (con, key) = find_object(doc, path).ok_or_else(|| {
                format!(
                    "replace operation does not apply: doc is missing path: {path}: missing value"
                )
            })?;
            get(con, &key).map_err(|_| {
                format!(
                    "replace operation does not apply: doc is missing key: {path}: missing value"
                )
            })?;
            set(con, &key, op.value_node())
                .map_err(|e| format!("error in remove for path: '{path}': {e}"))
        }
        // The library's move and copy differ only in removing the source and in some texts.
        kind @ ("move" | "copy") => {
            let moving = kind == "move";
            let from = op
                .from()
                .map_err(|e| format!("{kind} operation failed to decode from: {e}"))?;
            let (con, key) = find_object(doc, from).ok_or_else(|| {
                format!("{kind} operation does not apply: doc is missing from path: {from}: missing value")
            })?;
            let val = match get(con, &key) {
                Ok(v) => v.cloned(),
                Err(e) if moving => return Err(format!("error in move for path: '{key}': {e}")),
                Err(e) => return Err(format!("error in copy for from: '{from}': {e}")),
            };
            if moving {
                remove(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
            }
            let path = op.path().map_err(|e| {
                let reason = if moving { e.as_str() } else { "missing value" };
                format!("{kind} operation failed to decode path: {reason}")
            })?;
            let (con, key) = find_object(doc, path).ok_or_else(|| {
                format!("{kind} operation does not apply: doc is missing destination path: {path}: missing value")
            })?;
            add(con, &key, val.unwrap_or_else(Node::null)).map_err(|e| {
                if moving {
                    format!("error in move for path: '{path}': {e}")
                } else {
                    format!("error while adding value during copy: {e}")
                }
            })
        }
        "test" => {
            let path = op
                .path()
                .map_err(|e| format!("test operation failed to decode path: {e}"))?;
            let failed = || format!("testing value {path} failed: test failed");
            let expected = op.0.get("value");
            if path.is_empty() {
                return match expected {
                    Some(v) if equal(doc, v) => Ok(()),
                    _ => Err(failed()),
                };
            }
            let (con, key) = find_object(doc, path).ok_or_else(|| {
                format!("test operation does not apply: is missing path: {path}: missing value")
            })?;
            let val =
                get(con, &key).map_err(|e| format!("error in test for path: '{path}': {e}"))?;
            // a null value is a nil node there, compared as missing
            let val = val.filter(|v| !v.is_null());
            match (val, expected) {
                (None, None | Some(Json::Null)) => Ok(()),
                (None, _) | (Some(_), None | Some(Json::Null)) => Err(failed()),
                (Some(v), Some(e)) if equal(v, e) => Ok(()),
                _ => Err(failed()),
            }
        }
        other => Err(format!("Unexpected kind: {other}")),
    }
}

fn equal(n: &Node, v: &Json) -> bool {
    match n.to_json() {
        Ok(j) => json_equal(&j, v),
        Err(_) => false,
    }
}

fn json_equal(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            x.to_string() == y.to_string() || x.as_f64() == y.as_f64() && x.is_f64() == y.is_f64()
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

fn decode_key(k: &str) -> String {
    k.replace("~1", "/").replace("~0", "~")
}

/// Go's `strconv.Atoi`.
fn atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("strconv.Atoi: parsing \"{s}\": invalid syntax"));
    }
    s.parse::<i64>()
        .map_err(|_| format!("strconv.Atoi: parsing \"{s}\": value out of range"))
}

fn invalid_index(i: i64) -> String {
    format!("Unable to access invalid index: {i}: invalid index referenced")
}

/// `findObject`: the container of the path's last segment, and that segment.
fn find_object<'a>(doc: &'a mut Node, path: &str) -> Option<(&'a mut Node, String)> {
    let split: Vec<&str> = path.split('/').collect();
    if split.len() < 2 {
        return None;
    }
    let key = decode_key(split[split.len() - 1]);
    let mut cur = doc;
    for part in &split[1..split.len() - 1] {
        let next = get_mut(cur, &decode_key(part))?;
        // a JSON null decodes to a nil node in the Go library: never a container
        if !(next.is_mapping() || next.is_sequence()) {
            return None;
        }
        cur = next;
    }
    Some((cur, key))
}

fn get_mut<'a>(con: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    if con.is_mapping() {
        return con.get_mut(key);
    }
    match &mut con.value {
        Value::Sequence(items) => {
            let idx = index_in(atoi(key).ok()?, items.len())?;
            items.get_mut(idx)
        }
        _ => None,
    }
}

fn index_in(idx: i64, len: usize) -> Option<usize> {
    let idx = if idx < 0 { idx + len as i64 } else { idx };
    (idx >= 0 && (idx as usize) < len).then_some(idx as usize)
}

/// `key` as the index of one of `len` items (negative ones count from the end), or the
/// library's error naming the index it rejected (as get and set check it).
fn existing_index(key: &str, len: usize) -> Result<usize, String> {
    let i = atoi(key)?;
    let len = len as i64;
    if i < -len {
        return Err(invalid_index(i));
    }
    let idx = if i < 0 { i + len } else { i };
    if idx >= len {
        return Err(invalid_index(idx));
    }
    Ok(idx as usize)
}

fn get<'a>(con: &'a Node, key: &str) -> Result<Option<&'a Node>, String> {
    match &con.value {
        Value::Sequence(items) => Ok(items.get(existing_index(key, items.len())?)),
        Value::Mapping(_) => Ok(con.get(key)),
        _ => Ok(None),
    }
}

fn add(con: &mut Node, key: &str, val: Node) -> Result<(), String> {
    match &mut con.value {
        Value::Sequence(items) => {
            if key == "-" {
                items.push(val);
                return Ok(());
            }
            let i = atoi(key)
                .map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
            let size = items.len() as i64 + 1;
            if i >= size {
                return Err(invalid_index(i));
            }
            if i < -size {
                return Err(invalid_index(i));
            }
            let idx = if i < 0 { i + size } else { i };
            items.insert(idx as usize, val);
            Ok(())
        }
        Value::Mapping(_) => {
            con.set(key, val);
            Ok(())
        }
        // go: assignment to a nil map panics; report it instead
        _ => Err(format!("cannot add key '{key}' to a null value")),
    }
}

fn set(con: &mut Node, key: &str, val: Node) -> Result<(), String> {
    match &mut con.value {
        Value::Sequence(items) => {
            let idx = existing_index(key, items.len())?;
            items[idx] = val;
            Ok(())
        }
        Value::Mapping(_) => {
            con.set(key, val);
            Ok(())
        }
        _ => Err(format!("cannot set key '{key}' in a null value")),
    }
}

fn remove(con: &mut Node, key: &str) -> Result<Node, String> {
    match &mut con.value {
        Value::Sequence(items) => {
            let i = atoi(key)?;
            let len = items.len() as i64;
            if i >= len {
                return Err(invalid_index(i));
            }
            if i < -len {
                return Err(invalid_index(i));
            }
            let idx = if i < 0 { i + len } else { i };
            Ok(items.remove(idx as usize))
        }
        Value::Mapping(_) => con
            .remove(key)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {key}: missing value")),
        _ => Err(format!(
            "Unable to remove nonexistent key: {key}: missing value"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tailor_yaml::parse_stream;

    fn doc(s: &str) -> Node {
        parse_stream(s).unwrap().remove(0).root
    }

    fn ops(v: Json) -> Vec<Op> {
        decode_ops(&v).unwrap()
    }

    fn run(d: &str, v: Json) -> Result<Json, String> {
        let mut n = doc(d);
        json6902(&mut n, &ops(v)).map_err(|e| e.to_string())?;
        Ok(n.to_json().unwrap())
    }

    #[test]
    fn add_remove_replace_move_copy_test() {
        let d = "a: {b: [1, 2, 3]}\nc: x\n";
        assert_eq!(
            run(d, json!([{"op": "add", "path": "/a/b/-", "value": 4}])).unwrap(),
            json!({"a": {"b": [1, 2, 3, 4]}, "c": "x"})
        );
        assert_eq!(
            run(d, json!([{"op": "add", "path": "/a/b/-1", "value": 9}])).unwrap(),
            json!({"a": {"b": [1, 2, 3, 9]}, "c": "x"})
        );
        assert_eq!(
            run(d, json!([{"op": "remove", "path": "/a/b/-1"}])).unwrap(),
            json!({"a": {"b": [1, 2]}, "c": "x"})
        );
        assert_eq!(
            run(d, json!([{"op": "replace", "path": "/d", "value": 1}])).unwrap(),
            json!({"a": {"b": [1, 2, 3]}, "c": "x", "d": 1})
        );
        assert_eq!(
            run(d, json!([{"op": "move", "from": "/c", "path": "/a/c"}])).unwrap(),
            json!({"a": {"b": [1, 2, 3], "c": "x"}})
        );
        assert_eq!(
            run(
                d,
                json!([{"op": "copy", "from": "/a/b/0", "path": "/a/b/0"}])
            )
            .unwrap(),
            json!({"a": {"b": [1, 1, 2, 3]}, "c": "x"})
        );
        assert!(run(
            d,
            json!([{"op": "test", "path": "/a/b", "value": [1, 2, 3]}])
        )
        .is_ok());
        assert_eq!(
            run(d, json!([{"op": "test", "path": "/c", "value": "y"}])).unwrap_err(),
            "testing value /c failed: test failed"
        );
        assert_eq!(
            run(d, json!([{"op": "add", "path": "no/slash", "value": 1}])).unwrap(),
            json!({"a": {"b": [1, 2, 3]}, "c": "x", "slash": 1})
        );
    }

    #[test]
    fn errors_read_like_the_go_library() {
        let d = "a: {b: [1]}\n";
        assert_eq!(
            run(d, json!([{"op": "remove", "path": "/x"}])).unwrap_err(),
            "error in remove for path: '/x': Unable to remove nonexistent key: x: missing value"
        );
        assert_eq!(
            run(d, json!([{"op": "add", "path": "/x/y", "value": 1}])).unwrap_err(),
            "add operation does not apply: doc is missing path: \"/x/y\": missing value"
        );
        assert_eq!(
            run(d, json!([{"op": "add", "path": "/a/b/5", "value": 1}])).unwrap_err(),
            "error in add for path: '/a/b/5': Unable to access invalid index: 5: invalid index referenced"
        );
        assert_eq!(
            run(d, json!([{"op": "replace", "path": "/a/b/3", "value": 1}])).unwrap_err(),
            "replace operation does not apply: doc is missing key: /a/b/3: missing value"
        );
        assert_eq!(
            run(d, json!([{"op": "frob", "path": "/a"}])).unwrap_err(),
            "Unexpected kind: frob"
        );
        assert!(decode_ops(&json!(["x"])).is_err());
        assert!(decode_ops(&json!({"op": "add"})).is_err());
    }

    #[test]
    fn untouched_parts_keep_presentation() {
        let mut n = doc("# head\na: \"1\"  # keep\nb: 2\n");
        json6902(
            &mut n,
            &ops(json!([{"op": "replace", "path": "/b", "value": 3}])),
        )
        .unwrap();
        let out = tailor_yaml::emit_node(&n, Default::default());
        assert!(
            out.contains("a: \"1\"  # keep") || out.contains("a: \"1\" # keep"),
            "{out}"
        );
        assert!(out.contains("b: 3"));
    }
}
