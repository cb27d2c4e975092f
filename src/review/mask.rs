//! The text each side of an object is compared as. A `Secret`'s `data` and `stringData`
//! values are masked, as `flux diff` masks them: a value the other side has unchanged reads
//! `***` on both, a changed one `*** (before)` / `*** (after)`, so the diff still shows which
//! keys changed, were added or removed without showing a value.

use super::model::Held;
use tailor_kio::write::document_text;
use tailor_kio::Resource;
use tailor_yaml::{emit_node, EmitOptions, Node, Value};

const SECRET_FIELDS: [&str; 2] = ["data", "stringData"];

/// How a side keeps `item`: its text, or the tree of a Secret to be masked.
pub fn held(item: Resource, show: bool) -> Held {
    if !show && item.kind() == "Secret" && item.api_version() == "v1" {
        Held::Secret(item.into_node())
    } else {
        Held::Text(text(&item))
    }
}

/// The texts of an object before and after (empty where it does not exist), a Secret's
/// values masked against the other side's.
pub fn texts(old: Option<&Held>, new: Option<&Held>) -> (String, String) {
    let tree = |h: Option<&Held>| match h {
        Some(Held::Secret(n)) => Some(n.clone()),
        _ => None,
    };
    let (mut a, mut b) = (tree(old), tree(new));
    for field in SECRET_FIELDS {
        let theirs_b = b.as_ref().and_then(|n| n.get(field)).cloned();
        let theirs_a = a.as_ref().and_then(|n| n.get(field)).cloned();
        if let Some(n) = a.as_mut().and_then(|n| n.get_mut(field)) {
            mask(n, theirs_b.as_ref(), "before");
        }
        if let Some(n) = b.as_mut().and_then(|n| n.get_mut(field)) {
            mask(n, theirs_a.as_ref(), "after");
        }
    }
    let written = |held: Option<&Held>, masked: Option<Node>| match (held, masked) {
        (_, Some(n)) => emit_node(&n, EmitOptions::default()),
        (Some(Held::Text(t)), None) => t.clone(),
        _ => String::new(),
    };
    (written(old, a), written(new, b))
}

/// An object's document as a stream carries it, without the comment naming its destination
/// (the review names it), ending in a line break.
fn text(item: &Resource) -> String {
    let mut s = document_text(item);
    if let Some(rest) = s.strip_prefix(tailor_kio::annotations::CLUSTER_MARK) {
        s = rest.split_once('\n').map_or("", |(_, r)| r).to_string();
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Masks every value of the mapping `field`, comparing with the other side's `other`.
fn mask(field: &mut Node, other: Option<&Node>, side: &str) {
    let Value::Mapping(pairs) = &mut field.value else {
        // Not a mapping: nothing can be told apart, the whole value is hidden.
        *field = Node::string("***");
        return;
    };
    for pair in pairs {
        let key = pair.key.as_scalar().unwrap_or_default();
        let theirs = other.and_then(|o| o.get(key));
        let word = if theirs.is_none_or(|v| v.value == pair.value.value) {
            "***".to_string()
        } else {
            format!("*** ({side})")
        };
        let comments = pair.value.extra.clone();
        pair.value = Node::string(word);
        pair.value.extra = comments.filter(|e| !e.comments.is_empty()).map(|mut e| {
            e.tag = None;
            e.anchor = None;
            e
        });
    }
}
