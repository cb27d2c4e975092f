//! A `Tailor` functionConfig's `spec.clusters`, kept apart from the rest when it is turned into
//! JSON: a fan-out to 20,000 clusters would otherwise hold the whole list as JSON (about a
//! kilobyte a cluster) next to its YAML while the specs are read. Each entry is turned into
//! JSON when it is read and dropped after. A document with an alias anywhere is converted
//! whole (an entry may refer to an anchor outside it).

use serde_json::Value as Json;
use tailor_yaml::{Node, Pair, Value};

/// The functionConfig without its `spec.clusters` entries (an empty list in their place),
/// and the entries.
pub(super) struct Apart<'n> {
    pub rest: Node,
    pub clusters: &'n [Node],
}

/// `fc` with its `spec.clusters` list apart; `None` when it has none, or has an alias.
pub(super) fn clusters_apart(fc: &Node) -> Option<Apart<'_>> {
    let list = fc.get("spec")?.get("clusters")?;
    let clusters = list.items()?;
    if fc.has_alias() {
        return None;
    }
    Some(Apart {
        rest: copy_without(fc, list),
        clusters,
    })
}

/// Entry `i` of a `spec.clusters` list kept apart, as JSON; the error as converting the whole
/// functionConfig reports it.
pub(super) fn entry_json(entry: &Node) -> Result<Json, String> {
    entry.to_json().map_err(|e| format!("functionConfig: {e}"))
}

/// A copy of `node` with the list `skip` (found by address) emptied.
fn copy_without(node: &Node, skip: &Node) -> Node {
    let value = if std::ptr::eq(node, skip) {
        Value::Sequence(Vec::new())
    } else {
        match &node.value {
            Value::Sequence(items) => {
                Value::Sequence(items.iter().map(|n| copy_without(n, skip)).collect())
            }
            Value::Mapping(pairs) => Value::Mapping(
                pairs
                    .iter()
                    .map(|p| Pair {
                        key: p.key.clone(),
                        value: copy_without(&p.value, skip),
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    };
    Node {
        value,
        style: node.style,
        extra: node.extra.clone(),
        span: node.span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Node {
        tailor_yaml::parse_stream(text).unwrap().remove(0).root
    }

    #[test]
    fn the_entries_come_apart_and_the_rest_is_unchanged() {
        let fc = doc("kind: Tailor\nspec:\n  clusters:\n  - name: a\n  - {name: b, labels: {x: '1'}}\n  images: []\n");
        let apart = clusters_apart(&fc).unwrap();
        assert_eq!(apart.clusters.len(), 2);
        let whole = fc.to_json().unwrap();
        let mut rest = apart.rest.to_json().unwrap();
        assert_eq!(rest["spec"]["clusters"], serde_json::json!([]));
        let entries: Vec<Json> = apart
            .clusters
            .iter()
            .map(|e| entry_json(e).unwrap())
            .collect();
        rest["spec"]["clusters"] = Json::Array(entries);
        assert_eq!(rest, whole);
    }

    #[test]
    fn a_document_with_an_alias_or_no_list_stays_whole() {
        let aliased = doc("spec:\n  x: &l {env: dev}\n  clusters:\n  - {name: a, labels: *l}\n");
        assert!(clusters_apart(&aliased).is_none());
        assert!(clusters_apart(&doc("spec:\n  clusters: {}\n")).is_none());
        assert!(clusters_apart(&doc("spec: {}\n")).is_none());
    }
}
