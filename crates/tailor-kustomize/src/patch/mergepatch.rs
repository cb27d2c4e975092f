//! RFC 7386 JSON Merge Patch on node trees (Fleet's choice for kinds without a Go type): objects
//! merge key by key, `null` removes, anything else (arrays included) replaces. Kept entries keep
//! their position and presentation; new ones are appended.

use tailor_yaml::Node;

pub fn merge_patch(target: &mut Node, patch: &Node) {
    let Some(pairs) = patch.pairs() else {
        *target = patch.clone();
        return;
    };
    if !target.is_mapping() {
        *target = Node::mapping();
    }
    for p in pairs {
        let Some(key) = p.key.as_scalar() else {
            continue;
        };
        if p.value.is_null() {
            target.remove(key);
            continue;
        }
        match target.get_mut(key) {
            Some(existing) => merge_patch(existing, &p.value),
            None => {
                let mut fresh = Node::null();
                merge_patch(&mut fresh, &p.value);
                target.set(key, fresh);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn doc(s: &str) -> Node {
        parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn rfc7386_examples() {
        let cases = [
            ("{a: b}", "{a: c}", serde_json::json!({"a": "c"})),
            ("{a: b}", "{b: c}", serde_json::json!({"a": "b", "b": "c"})),
            ("{a: b}", "{a: null}", serde_json::json!({})),
            ("{a: b, b: c}", "{a: null}", serde_json::json!({"b": "c"})),
            ("{a: [b]}", "{a: c}", serde_json::json!({"a": "c"})),
            ("{a: c}", "{a: [b]}", serde_json::json!({"a": ["b"]})),
            (
                "{a: {b: c}}",
                "{a: {b: d, c: null}}",
                serde_json::json!({"a": {"b": "d"}}),
            ),
            ("{a: [{b: c}]}", "{a: [1]}", serde_json::json!({"a": [1]})),
            ("[a, b]", "[c, d]", serde_json::json!(["c", "d"])),
            ("{a: b}", "[c]", serde_json::json!(["c"])),
            (
                "{e: null}",
                "{a: 1}",
                serde_json::json!({"e": null, "a": 1}),
            ),
            ("[1, 2]", "{a: b, c: null}", serde_json::json!({"a": "b"})),
            (
                "{}",
                "{a: {bb: {ccc: null}}}",
                serde_json::json!({"a": {"bb": {}}}),
            ),
        ];
        for (t, p, want) in cases {
            let mut target = doc(t);
            merge_patch(&mut target, &doc(p));
            assert_eq!(target.to_json().unwrap(), want, "{t} + {p}");
        }
    }
}
