//! Resource identity as kustomize's kyaml `resid` package models it: group/version/kind,
//! name, namespace, "effective" namespace, and which types are certainly cluster-scoped.

use tailor_yaml::Node;

/// `_non_namespaceable_`: the effective namespace of a cluster-scoped id (kyaml resid).
pub(crate) const TOTALLY_NOT_A_NAMESPACE: &str = "_non_namespaceable_";
const DEFAULT_NAMESPACE: &str = "default";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Gvk {
    pub group: String,
    pub version: String,
    pub kind: String,
}

/// A group/version/kind selector: empty fields match anything (kyaml `Gvk.IsSelected`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GvkSel<'a> {
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
}

impl Gvk {
    /// kyaml `ParseGroupVersion`: split at the first `/`; the old plugin apiVersion `builtin`
    /// is a group, anything else without a slash is a version.
    pub fn new(api_version: &str, kind: &str) -> Gvk {
        let (group, version) = match api_version.split_once('/') {
            Some((g, v)) => (g, v),
            None if api_version == "builtin" => ("builtin", ""),
            None => ("", api_version),
        };
        Gvk {
            group: group.to_string(),
            version: version.to_string(),
            kind: kind.to_string(),
        }
    }

    pub fn of(node: &Node) -> Gvk {
        Gvk::new(scalar_field(node, "apiVersion"), scalar_field(node, "kind"))
    }

    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    pub fn is_selected(&self, sel: &GvkSel) -> bool {
        (sel.group.is_empty() || self.group == sel.group)
            && (sel.version.is_empty() || self.version == sel.version)
            && (sel.kind.is_empty() || self.kind == sel.kind)
    }

    /// kyaml `IsCertainlyClusterScoped`: true only for types the built-in OpenAPI data knows
    /// to be cluster-scoped, keyed by the exact apiVersion. Unknown types (CRDs, newer API
    /// versions) count as namespaced — kustomize does not read `scope:` from CRDs in the input.
    pub fn is_cluster_scoped(&self) -> bool {
        // kyaml's table, shared with kustomize's patch targets (crate::patch).
        crate::patch::is_cluster_scoped(&self.api_version(), &self.kind)
    }
}

/// A resource id: gvk, name and the namespace as written (`""` when absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ResId {
    pub gvk: Gvk,
    pub name: String,
    pub namespace: String,
}

impl ResId {
    /// kustomize `Resource.CurId`.
    pub fn of(node: &Node) -> ResId {
        ResId {
            gvk: Gvk::of(node),
            name: meta_field(node, "name").to_string(),
            namespace: meta_field(node, "namespace").to_string(),
        }
    }

    /// kyaml `EffectiveNamespace`: cluster-scoped ids share a sentinel; `""` means `default`.
    pub fn effective_namespace(&self) -> &str {
        if self.gvk.is_cluster_scoped() {
            TOTALLY_NOT_A_NAMESPACE
        } else if self.namespace.is_empty() || self.namespace == DEFAULT_NAMESPACE {
            DEFAULT_NAMESPACE
        } else {
            &self.namespace
        }
    }

    pub fn is_ns_equal(&self, other: &ResId) -> bool {
        self.effective_namespace() == other.effective_namespace()
    }

    /// kyaml `ResId.Equals`.
    pub fn equals(&self, other: &ResId) -> bool {
        self.is_ns_equal(other) && self.name == other.name && self.gvk == other.gvk
    }
}

impl std::fmt::Display for ResId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let av = self.gvk.api_version();
        let kind = if self.gvk.kind.is_empty() {
            "[noKind]"
        } else {
            &self.gvk.kind
        };
        if self.namespace.is_empty() {
            write!(f, "{av} {kind} {}", self.name)
        } else {
            write!(f, "{av} {kind} {}/{}", self.namespace, self.name)
        }
    }
}

/// A top-level field's text; kyaml reads apiVersion and kind as plain strings.
pub(crate) fn scalar_field<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get(key).and_then(text).unwrap_or("")
}

pub(crate) fn meta_field<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get_path(&["metadata", key])
        .and_then(text)
        .unwrap_or("")
}

/// A scalar's text as go-yaml's `Node.Value` holds it; null reads as the empty string, as
/// kyaml's `GetString` does for a missing or null field.
pub(crate) fn text(node: &Node) -> Option<&str> {
    if node.is_null() {
        return Some("");
    }
    node.as_scalar()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_group_version() {
        assert_eq!(Gvk::new("apps/v1", "Deployment").group, "apps");
        assert_eq!(Gvk::new("v1", "Pod").version, "v1");
        assert_eq!(Gvk::new("v1", "Pod").group, "");
        assert_eq!(Gvk::new("builtin", "X").group, "builtin");
        assert_eq!(Gvk::new("a/b/c", "X").version, "b/c");
    }

    #[test]
    fn cluster_scope_is_by_exact_api_version() {
        assert!(Gvk::new("v1", "Namespace").is_cluster_scoped());
        assert!(Gvk::new("rbac.authorization.k8s.io/v1", "ClusterRole").is_cluster_scoped());
        // kustomize v5.5.0 does not know these, so it treats them as namespaced
        assert!(!Gvk::new("rbac.authorization.k8s.io/v1alpha1", "ClusterRole").is_cluster_scoped());
        assert!(!Gvk::new("flowcontrol.apiserver.k8s.io/v1", "FlowSchema").is_cluster_scoped());
        assert!(!Gvk::new("v2", "Namespace").is_cluster_scoped());
        assert!(!Gvk::new("example.com/v1", "Widget").is_cluster_scoped());
    }

    #[test]
    fn effective_namespace() {
        let id = |av: &str, k: &str, ns: &str| ResId {
            gvk: Gvk::new(av, k),
            name: "x".into(),
            namespace: ns.into(),
        };
        assert_eq!(id("v1", "ConfigMap", "").effective_namespace(), "default");
        assert_eq!(
            id("v1", "ConfigMap", "default").effective_namespace(),
            "default"
        );
        assert_eq!(id("v1", "ConfigMap", "a").effective_namespace(), "a");
        assert_eq!(
            id("v1", "Namespace", "a").effective_namespace(),
            TOTALLY_NOT_A_NAMESPACE
        );
        assert!(id("v1", "ConfigMap", "").equals(&id("v1", "ConfigMap", "default")));
    }

    #[test]
    fn selection_treats_empty_as_wildcard() {
        let g = Gvk::new("apps/v1", "Deployment");
        assert!(g.is_selected(&GvkSel::default()));
        assert!(g.is_selected(&GvkSel {
            kind: "Deployment",
            ..Default::default()
        }));
        assert!(!g.is_selected(&GvkSel {
            group: "extensions",
            kind: "Deployment",
            ..Default::default()
        }));
    }
}
