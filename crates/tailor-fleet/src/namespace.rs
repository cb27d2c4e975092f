//! Fleet's `namespace` and `defaultNamespace` (`docs/semantics/fleet.md` §4).
//!
//! - `namespace` (Go `TargetNamespace`): the agent's post-renderer overwrites
//!   `metadata.namespace` on every object and fails the deployment on a cluster-scoped object
//!   ("invalid cluster scoped object ... consider using "defaultNamespace", not "namespace" in
//!   fleet.yaml").
//! - `defaultNamespace`: Helm's release namespace, which Helm gives namespaced objects that
//!   have no `metadata.namespace`. Objects with a namespace keep it; cluster-scoped objects
//!   stay cluster-scoped.
//!
//! Fleet asks the downstream cluster's RESTMapper whether a kind is cluster-scoped. Offline,
//! tailor uses a table of built-in cluster-scoped kinds plus the CRDs found in the input
//! (`spec.scope: Cluster`); any other kind counts as namespaced. (Fleet fails on a kind the
//! cluster does not know; tailor cannot tell and treats it as namespaced.)
//! When neither field is set nothing is changed: Helm would put namespaced objects in
//! `default`, but that is the cluster's default too.

use std::collections::BTreeSet;
use std::fmt;

use tailor_yaml::Node;

/// `(group, kind)` of every built-in cluster-scoped kind.
const BUILTIN_CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "ComponentStatus"),
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
    ),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("apiregistration.k8s.io", "APIService"),
    ("authentication.k8s.io", "SelfSubjectReview"),
    ("authentication.k8s.io", "TokenReview"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"),
    ("authorization.k8s.io", "SubjectAccessReview"),
    ("certificates.k8s.io", "CertificateSigningRequest"),
    ("certificates.k8s.io", "ClusterTrustBundle"),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
    ("internal.apiserver.k8s.io", "StorageVersion"),
    ("networking.k8s.io", "IngressClass"),
    ("networking.k8s.io", "IPAddress"),
    ("networking.k8s.io", "ServiceCIDR"),
    ("node.k8s.io", "RuntimeClass"),
    ("policy", "PodSecurityPolicy"),
    ("extensions", "PodSecurityPolicy"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("resource.k8s.io", "DeviceClass"),
    ("resource.k8s.io", "ResourceSlice"),
    ("scheduling.k8s.io", "PriorityClass"),
    ("storage.k8s.io", "CSIDriver"),
    ("storage.k8s.io", "CSINode"),
    ("storage.k8s.io", "StorageClass"),
    ("storage.k8s.io", "VolumeAttachment"),
    ("storage.k8s.io", "VolumeAttributesClass"),
    ("storagemigration.k8s.io", "StorageVersionMigration"),
];

fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

/// Which kinds are cluster-scoped: the built-in table plus CRDs declared with
/// `spec.scope: Cluster`; CRDs declared `Namespaced` override a built-in entry of the same
/// group and kind (they cannot exist in practice, but the input is the authority).
#[derive(Debug, Clone, Default)]
pub struct Scopes {
    cluster: BTreeSet<(String, String)>,
    namespaced: BTreeSet<(String, String)>,
}

impl Scopes {
    /// The built-in table plus the CRDs among `items`.
    pub fn from_items(items: &[Node]) -> Scopes {
        let mut s = Scopes::default();
        for item in items {
            if item.get_str("kind") != Some("CustomResourceDefinition")
                || group_of(item.get_str("apiVersion").unwrap_or("")) != "apiextensions.k8s.io"
            {
                continue;
            }
            let (Some(group), Some(kind)) = (
                item.get_path(&["spec", "group"]).and_then(Node::as_str),
                item.get_path(&["spec", "names", "kind"])
                    .and_then(Node::as_str),
            ) else {
                continue;
            };
            let key = (group.to_string(), kind.to_string());
            match item.get_path(&["spec", "scope"]).and_then(Node::as_str) {
                Some("Cluster") => {
                    s.cluster.insert(key);
                }
                Some("Namespaced") => {
                    s.namespaced.insert(key);
                }
                _ => {}
            }
        }
        s
    }

    /// Is an object of this apiVersion/kind cluster-scoped?
    pub fn is_cluster_scoped(&self, api_version: &str, kind: &str) -> bool {
        let key = (group_of(api_version).to_string(), kind.to_string());
        if self.namespaced.contains(&key) {
            return false;
        }
        self.cluster.contains(&key)
            || BUILTIN_CLUSTER_SCOPED
                .iter()
                .any(|(g, k)| *g == key.0 && *k == key.1)
    }
}

/// A namespace error naming the resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamespaceError {
    /// Position of the object in the slice.
    pub index: usize,
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub message: String,
}

impl fmt::Display for NamespaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}/{}: {}",
            self.api_version, self.kind, self.name, self.message
        )
    }
}

impl std::error::Error for NamespaceError {}

fn ident(item: &Node) -> (String, String, String) {
    let s = |v: Option<&str>| v.unwrap_or("").to_string();
    (
        s(item.get_str("apiVersion")),
        s(item.get_str("kind")),
        s(item.get_path(&["metadata", "name"]).and_then(Node::as_str)),
    )
}

fn set_namespace(item: &mut Node, ns: &str) {
    let value = Node::string(ns);
    if let Some(meta) = item.entry_or_insert("metadata", Node::mapping) {
        if let Some(existing) = meta.get_mut("namespace") {
            // Keep the existing scalar's comments; only its text changes.
            if existing.is_scalar() && !existing.is_null() {
                existing.set_scalar_text(ns);
                return;
            }
        }
        meta.set("namespace", value);
    }
}

fn current_namespace(item: &Node) -> Option<&str> {
    item.get_path(&["metadata", "namespace"])
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
}

/// Fleet `namespace`: sets `metadata.namespace` to `namespace` on every object. Every
/// cluster-scoped object is an error (all are reported; nothing is changed when there is one).
pub fn force_namespace(
    items: &mut [Node],
    namespace: &str,
    scopes: &Scopes,
) -> Result<(), Vec<NamespaceError>> {
    let errors: Vec<NamespaceError> = items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let (api_version, kind, name) = ident(item);
            scopes.is_cluster_scoped(&api_version, &kind).then(|| NamespaceError {
                index,
                message: format!(
                    "invalid cluster scoped object [name={name} kind={kind} apiVersion={api_version}] found, consider using \"defaultNamespace\", not \"namespace\" (namespace {namespace:?} forbids cluster-scoped resources)"
                ),
                api_version,
                kind,
                name,
            })
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    for item in items.iter_mut() {
        set_namespace(item, namespace);
    }
    Ok(())
}

/// Fleet `defaultNamespace`: sets `metadata.namespace` on namespaced objects that have none.
pub fn default_namespace(items: &mut [Node], namespace: &str, scopes: &Scopes) {
    for item in items.iter_mut() {
        let (api_version, kind, _) = ident(item);
        if current_namespace(item).is_none() && !scopes.is_cluster_scoped(&api_version, &kind) {
            set_namespace(item, namespace);
        }
    }
}

/// Both rules as Fleet applies them: `namespace` when set (defaultNamespace then has no
/// visible effect, every object already has a namespace), else `defaultNamespace` when set.
pub fn apply_namespaces(
    items: &mut [Node],
    namespace: Option<&str>,
    default_ns: Option<&str>,
    scopes: &Scopes,
) -> Result<(), Vec<NamespaceError>> {
    match (namespace, default_ns) {
        (Some(ns), _) => force_namespace(items, ns, scopes),
        (None, Some(d)) => {
            default_namespace(items, d, scopes);
            Ok(())
        }
        (None, None) => Ok(()),
    }
}

#[cfg(test)]
mod tests;
