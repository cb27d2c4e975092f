//! A `Tailor` functionConfig's `spec.clusters`, kept apart from the rest when it is turned into
//! JSON: a fan-out to 20,000 clusters would otherwise hold the whole list as JSON (about a
//! kilobyte a cluster) next to its YAML while the specs are read. Each entry is turned into
//! JSON when it is read and dropped after. A document with an alias anywhere is converted
//! whole (an entry may refer to an anchor outside it).
//!
//! A CONFIG file's text goes further ([`ReadClusters`]): each entry becomes its destination as
//! soon as the parser has its tree, and the tree is dropped, so the list's trees (about 1.3 KB
//! an entry) are never all held at once.

use serde_json::Value as Json;
use tailor_cluster::{ClusterSpec, CompactSpec};
use tailor_kube::Diagnostic;
use tailor_yaml::{Handoff, Node, Pair, Value};

/// An entry of `spec.clusters` read: `Err` when it cannot be JSON (the whole parse fails, as
/// converting the whole document would), else the destination or the error about it.
pub(super) type Outcome = Result<Result<CompactSpec, Diagnostic>, Diagnostic>;

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
fn entry_json(entry: &Node) -> Result<Json, String> {
    entry.to_json().map_err(|e| format!("functionConfig: {e}"))
}

/// Entry `i` of `spec.clusters` as a destination.
pub(super) fn cluster_entry(i: usize, entry: &Node) -> Outcome {
    let json = entry_json(entry).map_err(Diagnostic::error)?;
    Ok(destination(i, &json))
}

/// Entry `i` of `spec.clusters`, as JSON, as a destination (or the error naming its field).
pub(super) fn destination(i: usize, entry: &Json) -> Result<CompactSpec, Diagnostic> {
    ClusterSpec::from_json(entry, &format!("spec.clusters[{i}]")).map(CompactSpec::from)
}

/// The entries of a `Tailor`'s `spec.clusters` read as its text is parsed
/// ([`tailor_yaml::Handed::TailorClusters`]), each turned into its destination when the
/// parser hands its tree over, and the tree dropped.
#[derive(Default)]
pub struct ReadClusters {
    specs: Vec<CompactSpec>,
    /// The entries that are no destination, by index.
    errors: Vec<(usize, Diagnostic)>,
    /// The first entry that cannot be JSON: nothing after it is read.
    fatal: Option<Diagnostic>,
    /// How many entries were handed over.
    handed: usize,
    /// An entry came out of order or has an anchor or alias: these entries cannot stand for
    /// the list, which is read again from a whole tree.
    whole: bool,
}

impl ReadClusters {
    /// The parser's sink: reads the entry and takes its tree.
    pub(super) fn take(&mut self, h: Handoff) -> Option<Node> {
        self.whole |= h.index != self.handed || !h.self_contained;
        self.handed += 1;
        if !self.whole && self.fatal.is_none() {
            match cluster_entry(h.index, &h.node) {
                Ok(Ok(spec)) => self.specs.push(spec),
                Ok(Err(e)) => self.errors.push((h.index, e)),
                Err(e) => self.fatal = Some(e),
            }
        }
        None
    }

    /// Whether any entry was handed over.
    pub(super) fn any(&self) -> bool {
        self.handed > 0
    }

    /// Whether these entries stand for the `spec.clusters` of `rest`, the tree they were
    /// handed from (no other list took entries, nothing in it refers to an anchor): its list
    /// of placeholders is then emptied, as [`clusters_apart`] empties it.
    pub(super) fn settle(&self, rest: &mut Node) -> bool {
        if self.whole || rest.has_alias() {
            return false;
        }
        let list = rest.get_mut("spec").and_then(|s| s.get_mut("clusters"));
        match list.map(|l| &mut l.value) {
            Some(Value::Sequence(items)) if items.len() == self.handed => {
                items.clear();
                items.shrink_to_fit();
                true
            }
            _ => false,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.handed
    }

    /// Each entry read, in order, up to the first that cannot be JSON.
    pub(super) fn outcomes(self) -> impl Iterator<Item = Outcome> {
        let mut specs = self.specs.into_iter();
        let mut errors = self.errors.into_iter().peekable();
        let mut i = 0;
        let read = std::iter::from_fn(move || {
            let next = match errors.next_if(|(at, _)| *at == i) {
                Some((_, e)) => Err(e),
                None => Ok(specs.next()?),
            };
            i += 1;
            Some(Ok(next))
        });
        read.chain(self.fatal.map(Err))
    }
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
