//! Resource identity as kustomize's kyaml `resid` package models it: group/version/kind,
//! name, namespace, "effective" namespace, which types are certainly cluster-scoped, and the
//! printed forms kustomize's messages use. One type for patches, replacements and the
//! built-in transformers, so every message names an object the same way.

use serde::Serialize;

use tailor_yaml::Node;

/// `_non_namespaceable_`: the effective namespace of a cluster-scoped id (kyaml resid).
pub const TOTALLY_NOT_A_NAMESPACE: &str = "_non_namespaceable_";
const DEFAULT_NAMESPACE: &str = "default";

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Gvk {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// A group/version/kind selector: empty fields match anything (kyaml `Gvk.IsSelected`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GvkSel<'a> {
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
        crate::schema::is_cluster_scoped(&self.api_version(), &self.kind)
    }
}

/// A resource id: gvk, name and the namespace as written (`""` when absent). As a selector
/// (kustomize's `IsSelectedBy`), empty fields match anything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ResId {
    #[serde(flatten)]
    pub gvk: Gvk,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
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

impl ResId {
    /// Every field empty (a selector that selects everything).
    pub fn is_empty(&self) -> bool {
        self.gvk == Gvk::default() && self.name.is_empty() && self.namespace.is_empty()
    }

    /// `apps/v1 Deployment ns/name`: how kustomize's transformers name an object.
    pub fn describe(&self) -> String {
        let av = self.gvk.api_version();
        let kind = if self.gvk.kind.is_empty() {
            "[noKind]"
        } else {
            &self.gvk.kind
        };
        if self.namespace.is_empty() {
            format!("{av} {kind} {}", self.name)
        } else {
            format!("{av} {kind} {}/{}", self.namespace, self.name)
        }
    }
}

impl std::fmt::Display for ResId {
    /// kustomize's `ResId.String()`: `Kind.Version.Group/Name.Namespace`, with `[noKind]`-style
    /// placeholders for empty fields.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn or<'a>(s: &'a str, d: &'a str) -> &'a str {
            if s.is_empty() {
                d
            } else {
                s
            }
        }
        write!(
            f,
            "{}.{}.{}/{}.{}",
            or(&self.gvk.kind, "[noKind]"),
            or(&self.gvk.version, "[noVer]"),
            or(&self.gvk.group, "[noGrp]"),
            or(&self.name, "[noName]"),
            or(&self.namespace, "[noNs]")
        )
    }
}

/// A top-level field's text; kyaml reads apiVersion and kind as plain strings.
pub fn scalar_field<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get(key).and_then(text).unwrap_or("")
}

pub fn meta_field<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get_path(&["metadata", key])
        .and_then(text)
        .unwrap_or("")
}

/// A scalar's text as go-yaml's `Node.Value` holds it; null reads as the empty string, as
/// kyaml's `GetString` does for a missing or null field.
pub fn text(node: &Node) -> Option<&str> {
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
    fn printed_forms() {
        let id = ResId {
            gvk: Gvk::new("apps/v1", "Deployment"),
            name: "web".into(),
            namespace: String::new(),
        };
        assert_eq!(id.to_string(), "Deployment.v1.apps/web.[noNs]");
        assert_eq!(id.describe(), "apps/v1 Deployment web");
        assert_eq!(
            ResId::default().to_string(),
            "[noKind].[noVer].[noGrp]/[noName].[noNs]"
        );
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
