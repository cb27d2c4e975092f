//! kustomize field specs (`api/types/fieldspec.go`) and the walk that reaches the fields they
//! name (`api/filters/fieldspec/fieldspec.go`).
//!
//! A path is `/`-separated (`\/` escapes a slash); sequences met on the way are walked
//! element by element without a path segment of their own; a `[]` suffix only hints that the
//! field is a list (and forbids creating it).

use tailor_yaml::Node;

use tailor_kube::resid::{Gvk, GvkSel};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldSpec<'a> {
    pub gvk: GvkSel<'a>,
    pub path: &'a str,
    pub create: bool,
}

impl<'a> FieldSpec<'a> {
    pub const fn new(path: &'a str) -> FieldSpec<'a> {
        FieldSpec {
            gvk: GvkSel {
                group: "",
                version: "",
                kind: "",
            },
            path,
            create: false,
        }
    }

    /// kustomize `isMatchGVK`: kind, group and version must equal the spec's where set.
    pub fn matches(&self, gvk: &Gvk) -> bool {
        gvk.is_selected(&self.gvk)
    }
}

/// kustomize `splitPath`: split at `/` except where the previous segment ends in `\`.
pub(crate) fn split_path(path: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in path.split('/') {
        match out.last_mut() {
            Some(last) if last.ends_with('\\') => {
                last.pop();
                last.push('/');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// Where the walk stopped with an error, for messages that name the field.
pub(crate) type WalkError = String;

/// Walks `node` along `path` and calls `set` on every node the path reaches.
///
/// `create` makes missing (or null) fields on the way: mappings in the middle, an empty
/// string at the end (which `set` then overwrites). Without it, a missing or null field in
/// the middle ends the walk quietly; a null at the end is still handed to `set`, which
/// decides (the namespace setter overwrites it, name references leave it). A null field
/// marked `[]` becomes an empty list, as in kustomize (`initContainers: null` under an
/// `images:` transform comes out as `initContainers: []`).
pub(crate) fn walk(
    node: &mut Node,
    path: &[String],
    create: bool,
    set: &mut dyn FnMut(&mut Node) -> Result<(), WalkError>,
) -> Result<(), WalkError> {
    let Some((first, rest)) = path.split_first() else {
        return set(node);
    };
    if node.is_null() {
        return Ok(());
    }
    if let Some(items) = node.items_mut() {
        // the path has no segment for a list: each element continues with the same path
        for item in items {
            walk(item, path, create, set)?;
        }
        return Ok(());
    }
    if !node.is_mapping() {
        return Err("expected sequence or mapping node".to_string());
    }
    let (name, is_seq) = match first.strip_suffix("[]") {
        Some(n) => (n, true),
        None => (first.as_str(), false),
    };
    let create_here = create && !is_seq;
    let last = rest.is_empty();
    let child = if create_here {
        node.entry_or_insert(name, || {
            if last {
                Node::string("")
            } else {
                Node::mapping()
            }
        })
    } else {
        node.get_mut(name)
    };
    let Some(child) = child else {
        return Ok(());
    };
    if is_seq && child.is_null() {
        // kustomize turns a null list it was told to expect into an empty one (`[]`)
        let comments = child.extra.take().map(|e| e.comments);
        *child = Node::sequence(Vec::new());
        if let Some(c) = comments.filter(|c| !c.is_empty()) {
            *child.comments_mut() = c;
        }
    }
    walk(child, rest, create, set)
}

/// Replaces a scalar (or null) with a fresh string, keeping its comments; the emitter picks
/// the quoting, as kyaml's `SetEntry` writes an untyped-looking `!!str`.
pub(crate) fn set_string(node: &mut Node, value: &str) {
    let comments = node.extra.take().map(|e| e.comments);
    *node = Node::string(value);
    if let Some(c) = comments.filter(|c| !c.is_empty()) {
        *node.comments_mut() = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    fn doc(s: &str) -> Node {
        parse_stream(s).unwrap().remove(0).root
    }

    fn collect(node: &mut Node, path: &str, create: bool) -> Result<Vec<String>, String> {
        let mut seen = Vec::new();
        walk(node, &split_path(path), create, &mut |n| {
            seen.push(n.as_scalar().unwrap_or("<coll>").to_string());
            Ok(())
        })?;
        Ok(seen)
    }

    #[test]
    fn splits_escaped_slashes() {
        assert_eq!(
            split_path("metadata/annotations/nginx.ingress.kubernetes.io\\/auth-secret"),
            vec![
                "metadata",
                "annotations",
                "nginx.ingress.kubernetes.io/auth-secret"
            ]
        );
        assert_eq!(split_path("a/b[]/c"), vec!["a", "b[]", "c"]);
    }

    #[test]
    fn walks_through_sequences() {
        let mut n = doc("spec:\n  containers:\n  - image: a\n  - image: b\n  - name: x\n");
        assert_eq!(
            collect(&mut n, "spec/containers[]/image", false).unwrap(),
            vec!["a", "b"]
        );
        assert_eq!(
            collect(&mut n, "spec/containers/image", false).unwrap(),
            vec!["a", "b"]
        );
    }

    #[test]
    fn nulls_in_the_middle_end_the_walk_and_at_the_end_reach_set() {
        let mut n = doc("spec:\n  volumes: null\n  ref:\n    name: null\n");
        assert!(collect(&mut n, "spec/volumes/configMap/name", false)
            .unwrap()
            .is_empty());
        assert_eq!(
            collect(&mut n, "spec/ref/name", false).unwrap(),
            vec!["null"]
        );
    }

    #[test]
    fn creates_missing_and_null_fields() {
        let mut n = doc("spec:\n  service: null\n");
        walk(
            &mut n,
            &split_path("spec/service/namespace"),
            true,
            &mut |v| {
                set_string(v, "ns");
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            n.get_path(&["spec", "service", "namespace"])
                .unwrap()
                .as_str(),
            Some("ns")
        );
        let mut n = doc("kind: X\n");
        walk(&mut n, &split_path("metadata/namespace"), true, &mut |v| {
            set_string(v, "ns");
            Ok(())
        })
        .unwrap();
        assert_eq!(
            n.get_path(&["metadata", "namespace"]).unwrap().as_str(),
            Some("ns")
        );
    }

    #[test]
    fn does_not_create_list_hinted_fields() {
        let mut n = doc("spec: {}\n");
        walk(
            &mut n,
            &split_path("spec/containers[]/image"),
            true,
            &mut |_| panic!("must not be reached"),
        )
        .unwrap();
        assert!(n.get_path(&["spec", "containers"]).is_none());
    }

    #[test]
    fn a_null_list_hinted_field_becomes_an_empty_list() {
        let mut n = doc("spec:\n  initContainers: null\n  volumes: null\n");
        assert!(collect(&mut n, "spec/initContainers[]/image", false)
            .unwrap()
            .is_empty());
        assert!(collect(&mut n, "spec/volumes/name", false)
            .unwrap()
            .is_empty());
        assert_eq!(
            n.get_path(&["spec", "initContainers"]).unwrap().items(),
            Some(&[][..])
        );
        assert!(n.get_path(&["spec", "volumes"]).unwrap().is_null());
    }

    #[test]
    fn a_scalar_in_the_middle_is_an_error() {
        let mut n = doc("spec: text\n");
        assert_eq!(
            collect(&mut n, "spec/template/name", false).unwrap_err(),
            "expected sequence or mapping node"
        );
    }
}
