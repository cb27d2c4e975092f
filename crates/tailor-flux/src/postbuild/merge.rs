//! Writes the result of Flux's round trip back into the author's tree: only values whose data
//! changed are rewritten, so comments, key order and quoting survive everywhere else. The data
//! of the result is exactly Flux's; only the presentation is the author's.

use serde_json::{Number, Value as Json};
use tailor_yaml::{Node, Pair, Style, Value};

use tailor_yaml::sigs::numbers::v2_number_text;

/// Makes `node` (whose data is `before`) carry the data `after`. Returns whether it changed.
pub fn apply(node: &mut Node, before: &Json, after: &Json) -> bool {
    if same_data(before, after) {
        return false;
    }
    match (&mut node.value, before, after) {
        (Value::Mapping(pairs), Json::Object(old), Json::Object(new))
            if !pairs.iter().any(|p| is_merge_key(&p.key)) =>
        {
            let mut seen = std::collections::HashSet::new();
            pairs.retain_mut(|pair| {
                let Some(key) = pair.key.as_scalar().map(str::to_string) else {
                    return true;
                };
                if !seen.insert(key.clone()) {
                    return true; // a later duplicate: not part of the data either way
                }
                match (old.get(&key), new.get(&key)) {
                    (Some(o), Some(n)) => {
                        apply(&mut pair.value, o, n);
                        true
                    }
                    (_, None) => false,
                    (None, Some(n)) => {
                        pair.value = to_node(n);
                        true
                    }
                }
            });
            for (k, v) in new {
                if !seen.contains(k) {
                    pairs.push(Pair {
                        key: Node::string(k.clone()),
                        value: to_node(v),
                    });
                }
            }
        }
        (Value::Sequence(items), Json::Array(old), Json::Array(new)) => {
            items.truncate(new.len());
            for (i, n) in new.iter().enumerate() {
                match (items.get_mut(i), old.get(i)) {
                    (Some(item), Some(o)) => {
                        apply(item, o, n);
                    }
                    _ => items.push(to_node(n)),
                }
            }
        }
        (Value::Scalar(_), _, Json::String(s)) if before.is_string() => node.set_string(s),
        _ => replace(node, to_node(after)),
    }
    node.span = Default::default();
    true
}

fn is_merge_key(key: &Node) -> bool {
    key.as_scalar() == Some("<<") && key.style == Style::Plain
}

/// Keeps the comments of the node being replaced; its tag and anchor no longer apply.
fn replace(node: &mut Node, new: Node) {
    let comments = node.comments().cloned();
    *node = new;
    if let Some(c) = comments.filter(|c| !c.is_empty()) {
        *node.comments_mut() = c;
    }
}

/// A fresh node for a value of the round trip's result; numbers print as Go printed them.
pub fn to_node(v: &Json) -> Node {
    match v {
        Json::Number(n) => Node::plain(v2_number_text(n)),
        Json::Array(a) => Node::sequence(a.iter().map(to_node).collect()),
        Json::Object(o) => Node::from_pairs(
            o.iter()
                .map(|(k, v)| Pair {
                    key: Node::string(k.clone()),
                    value: to_node(v),
                })
                .collect(),
        ),
        other => tailor_yaml::from_json(other),
    }
}

/// Data equality where an integer equals a float only if the float holds it exactly, so a
/// 2^53+1 that Flux rounded counts as changed.
pub fn same_data(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => same_number(x, y),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_data(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_data(v, w)))
        }
        _ => a == b,
    }
}

fn same_number(x: &Number, y: &Number) -> bool {
    let exact = |n: &Number| n.as_i64().map(i128::from).or(n.as_u64().map(i128::from));
    match (exact(x), exact(y)) {
        (Some(a), Some(b)) => a == b,
        (Some(i), None) | (None, Some(i)) => {
            let f = if exact(x).is_none() { x } else { y }
                .as_f64()
                .unwrap_or(f64::NAN);
            f.fract() == 0.0 && f.abs() < 1.8e19 && f as i128 == i
        }
        (None, None) => x.as_f64() == y.as_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn emit(n: &Node) -> String {
        tailor_yaml::emit_node(n, Default::default())
    }

    #[test]
    fn only_changed_values_are_rewritten() {
        let src = "# head\nb: 1 # keep\na: '${v}'\nc: [x, y]\n";
        let mut node = tailor_yaml::parse_stream(src).unwrap().remove(0).root;
        let before = node.to_json().unwrap();
        let after = json!({"a": "123", "b": 1.0, "c": ["x", "y"], "d": 2.0});
        assert!(apply(&mut node, &before, &after));
        assert_eq!(
            emit(&node),
            "# head\nb: 1 # keep\na: '123'\nc: [x, y]\nd: 2\n"
        );
    }

    #[test]
    fn rounded_integers_count_as_changed() {
        let mut node = tailor_yaml::parse_stream("n: 9007199254740993\n")
            .unwrap()
            .remove(0)
            .root;
        let before = node.to_json().unwrap();
        let after = json!({"n": 9007199254740992.0});
        assert!(apply(&mut node, &before, &after));
        assert_eq!(emit(&node), "n: 9007199254740992\n");
    }

    #[test]
    fn type_changes_replace_the_scalar() {
        let mut node = tailor_yaml::parse_stream("plain: ${v}\nq: \"${v}\"\n")
            .unwrap()
            .remove(0)
            .root;
        let before = node.to_json().unwrap();
        assert!(apply(
            &mut node,
            &before,
            &json!({"plain": true, "q": 511.0})
        ));
        assert_eq!(emit(&node), "plain: true\nq: 511\n");
    }
}
