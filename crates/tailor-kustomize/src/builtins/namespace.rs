//! kustomize's NamespaceTransformer (`namespace:`), with the default field specs
//! (`api/konfig/builtinpluginconsts/namespace.go`) and `setRoleBindingSubjects: defaultOnly`.

use tailor_yaml::Node;

use crate::builtins::fieldspec::{set_string, split_path, walk, FieldSpec};
use crate::builtins::tracker::NameTracker;
use crate::builtins::{describe, Error};
use tailor_kube::resid::{Gvk, GvkSel, ResId};

/// The default namespace field specs after the filter drops the ones it handles itself:
/// `metadata/namespace` (set only on namespaced kinds, below) and RoleBinding /
/// ClusterRoleBinding `subjects` (the `defaultOnly` subject rule, below). `metadata/name` of
/// a `Namespace` applies only when its apiVersion is exactly `v1`.
const NAMESPACE_SPECS: &[FieldSpec<'static>] = &[
    FieldSpec {
        gvk: GvkSel {
            group: "",
            version: "",
            kind: "Namespace",
        },
        path: "metadata/name",
        create: true,
    },
    FieldSpec {
        gvk: GvkSel {
            group: "apiregistration.k8s.io",
            version: "",
            kind: "APIService",
        },
        path: "spec/service/namespace",
        create: true,
    },
    FieldSpec {
        gvk: GvkSel {
            group: "apiextensions.k8s.io",
            version: "",
            kind: "CustomResourceDefinition",
        },
        path: "spec/conversion/webhook/clientConfig/service/namespace",
        create: false,
    },
];

/// Sets `namespace` as kustomize's `namespace:` does, recording previous ids in `tracker`.
/// An empty namespace does nothing.
pub fn set_namespace_tracked(
    resources: &mut [Node],
    namespace: &str,
    tracker: &mut NameTracker,
) -> Result<(), Error> {
    tracker.check_len(resources)?;
    if namespace.is_empty() {
        return Ok(());
    }
    for i in 0..resources.len() {
        let node = &mut resources[i];
        // kustomize leaves empty objects alone
        if node.pairs().is_none_or(|p| p.is_empty()) {
            continue;
        }
        tracker.store_previous_id(i, node);
        apply(node, namespace)
            .map_err(|e| Error::new(format!("namespace transformation failed: {e}")))?;
        let id = ResId::of(&resources[i]);
        let clashes = resources
            .iter()
            .filter(|r| r.is_mapping() && ResId::of(r).equals(&id))
            .count();
        if clashes != 1 {
            return Err(Error::new(format!(
                "namespace transformation produces ID conflict: {clashes} resources are {}",
                id.describe()
            )));
        }
    }
    Ok(())
}

fn apply(node: &mut Node, namespace: &str) -> Result<(), String> {
    let gvk = Gvk::of(node);
    let api_version = gvk.api_version();
    let mut set = |n: &mut Node| {
        set_string(n, namespace);
        Ok(())
    };
    let fail = |node: &Node, path: &str, e: String| format!("{}: {path}: {e}", describe(node));
    if !gvk.is_cluster_scoped() {
        walk(node, &split_path("metadata/namespace"), true, &mut set)
            .map_err(|e| fail(node, "metadata/namespace", e))?;
    }
    if gvk.kind == "RoleBinding" || gvk.kind == "ClusterRoleBinding" {
        set_default_subjects(node, namespace).map_err(|e| fail(node, "subjects", e))?;
    }
    for spec in NAMESPACE_SPECS {
        if spec.path == "metadata/name" && api_version != "v1" {
            continue;
        }
        if !spec.matches(&gvk) {
            continue;
        }
        walk(node, &split_path(spec.path), spec.create, &mut set)
            .map_err(|e| fail(node, spec.path, e))?;
    }
    Ok(())
}

/// `defaultOnly`: only subjects named `default` get the namespace (any subject kind).
fn set_default_subjects(node: &mut Node, namespace: &str) -> Result<(), String> {
    let Some(subjects) = node.get_mut("subjects") else {
        return Ok(());
    };
    if subjects.is_null() {
        return Ok(());
    }
    let Some(items) = subjects.items_mut() else {
        return Err("wrong node kind: expected a sequence".to_string());
    };
    for subject in items {
        let named_default = subject
            .get("name")
            .is_some_and(|n| !n.is_null() && n.as_scalar() == Some("default"));
        if !named_default {
            continue;
        }
        if let Some(ns) = subject.entry_or_insert("namespace", || Node::string("")) {
            set_string(ns, namespace);
        }
    }
    Ok(())
}
