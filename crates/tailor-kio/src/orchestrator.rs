//! The annotations kpt and kustomize write on the items they hand a function and read back
//! from its answer (`config.kubernetes.io/*`, `internal.config.kubernetes.io/*`: the file an
//! item goes to, its place there, local-config, the host's ids). No stage may remove them:
//! a path annotation removed is a file moved (`qa/configmap_foo.yaml`), local-config removed
//! is an object deployed. Tailor sets some on purpose (a fan-out's `<cluster>/` paths), so
//! only a removed one comes back.
//!
//! The guard is [`Kept`], taken from an object's tree before a stage that rewrites trees
//! wholesale (the strip with its CustomTransforms, patches, Fleet overlays) changes it and
//! applied to the tree it hands back: at that point the tree as it was is at hand for
//! nothing, whereas restoring after the whole run would need every object's annotations
//! copied through it or its text parsed again, and the strip runs on objects as they are
//! read, before the run holds them.

use tailor_yaml::{Node, Pair};

/// Whether `key` is an annotation of the host's.
pub fn is_host_annotation(key: &str) -> bool {
    key.starts_with("config.kubernetes.io/") || key.starts_with("internal.config.kubernetes.io/")
}

/// What kpt writes on every item to find its file again (path, index, ids, sequence
/// indentation): bookkeeping about the item, not content of it.
const BOOKKEEPING: [&str; 10] = [
    "config.kubernetes.io/path",
    "config.kubernetes.io/index",
    "config.k8s.io/id",
    "internal.config.kubernetes.io/path",
    "internal.config.kubernetes.io/index",
    "internal.config.kubernetes.io/id",
    "internal.config.kubernetes.io/seqindent",
    "internal.config.kubernetes.io/package-path",
    "internal.config.kubernetes.io/annotations-migration-resource-id",
    "kustomize.config.k8s.io/id",
];

/// Removes the host's bookkeeping from a document that is used as content elsewhere (a
/// Fleet overlay file arrived as an item patches another object: its path must not become
/// the patched object's, which would move that object into the overlay's file). An
/// annotations map left empty goes too.
pub fn drop_bookkeeping(node: &mut Node) {
    let Some(meta) = node.get_mut("metadata") else {
        return;
    };
    let Some(annotations) = meta.get_mut("annotations") else {
        return;
    };
    for key in BOOKKEEPING {
        annotations.remove(key);
    }
    if annotations.pairs().is_some_and(<[Pair]>::is_empty) {
        meta.remove("annotations");
    }
}

/// The host's annotations of one object, as they were.
#[derive(Clone, Debug, Default)]
pub struct Kept(Vec<Pair>);

impl Kept {
    pub fn of(node: &Node) -> Kept {
        Kept(
            node.get_path(&["metadata", "annotations"])
                .and_then(Node::pairs)
                .unwrap_or_default()
                .iter()
                .filter(|p| p.key.as_scalar().is_some_and(is_host_annotation))
                .cloned()
                .collect(),
        )
    }

    /// Puts back into `node` those it lost, as they were written (after the others, in their
    /// order). An object a stage left without a `metadata` mapping is not one any more; the
    /// run reports it (the binary's stages).
    pub fn restore(self, node: &mut Node) {
        if self.0.is_empty() {
            return;
        }
        let missing: Vec<Pair> = {
            let now = node.get_path(&["metadata", "annotations"]);
            self.0
                .into_iter()
                .filter(|p| {
                    let key = p.key.as_scalar().unwrap_or("");
                    !now.is_some_and(|a| a.contains_key(key))
                })
                .collect()
        };
        if missing.is_empty() {
            return;
        }
        let Some(meta) = node.get_mut("metadata").filter(|m| m.is_mapping()) else {
            return;
        };
        let annotations = match meta.get("annotations") {
            Some(a) if !a.is_mapping() && !a.is_null() => {
                // A scalar or a list where the map was: the map comes back with the host's.
                meta.set("annotations", Node::mapping());
                meta.get_mut("annotations")
            }
            _ => meta.entry_or_insert("annotations", Node::mapping),
        };
        if let Some(pairs) = annotations.and_then(Node::pairs_mut) {
            pairs.extend(missing);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Node {
        tailor_yaml::parse_stream(text).unwrap().remove(0).root
    }

    fn emit(node: &Node) -> String {
        tailor_yaml::emit_node(node, tailor_yaml::EmitOptions::default())
    }

    const READ: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    x: 1\n    config.kubernetes.io/path: 'qa/foo.yaml'\n    internal.config.kubernetes.io/path: 'qa/foo.yaml'\n    config.kubernetes.io/local-config: \"true\"\n";

    #[test]
    fn bookkeeping_goes_and_the_rest_stays() {
        let mut node = doc(READ);
        drop_bookkeeping(&mut node);
        assert_eq!(
            emit(&node),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    x: 1\n    config.kubernetes.io/local-config: \"true\"\n"
        );
        let mut node = doc(
            "kind: A\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/index: '0'\n",
        );
        drop_bookkeeping(&mut node);
        assert_eq!(emit(&node), "kind: A\nmetadata:\n  name: a\n");
    }

    #[test]
    fn a_removed_map_comes_back_with_the_host_annotations_only() {
        let kept = Kept::of(&doc(READ));
        let mut node = doc("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n");
        kept.restore(&mut node);
        assert_eq!(
            emit(&node),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    config.kubernetes.io/path: 'qa/foo.yaml'\n    internal.config.kubernetes.io/path: 'qa/foo.yaml'\n    config.kubernetes.io/local-config: \"true\"\n"
        );
    }

    #[test]
    fn only_removed_ones_come_back_and_changed_ones_stay() {
        let kept = Kept::of(&doc(READ));
        let mut node = doc("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\n  annotations:\n    config.kubernetes.io/path: 'dev/qa/foo.yaml'\n");
        kept.restore(&mut node);
        let text = emit(&node);
        assert!(text.contains("config.kubernetes.io/path: 'dev/qa/foo.yaml'\n    internal.config.kubernetes.io/path: 'qa/foo.yaml'\n    config.kubernetes.io/local-config: \"true\"\n"), "{text}");
        assert!(!text.contains("x: 1"));
        // Without metadata the object is not one: nothing to put them in.
        let mut bare = doc("apiVersion: v1\nkind: ConfigMap\n");
        Kept::of(&doc(READ)).restore(&mut bare);
        assert_eq!(emit(&bare), "apiVersion: v1\nkind: ConfigMap\n");
    }
}
