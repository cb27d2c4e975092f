//! kustomize resource ids (`resid.ResId`): group/version/kind/name/namespace, the effective
//! namespace used for equality and selection, and the printed form used in messages.

use std::fmt;

use tailor_yaml::Node;

use crate::patch::schema::is_cluster_scoped;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResId {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

fn text(n: Option<&Node>) -> String {
    n.filter(|v| !v.is_null())
        .and_then(Node::as_scalar)
        .unwrap_or("")
        .to_string()
}

impl ResId {
    pub fn of(res: &Node) -> ResId {
        let av = text(res.get("apiVersion"));
        let (group, version) = match av.split_once('/') {
            Some((g, v)) => (g.to_string(), v.to_string()),
            None => (String::new(), av),
        };
        let meta = res.get("metadata");
        ResId {
            group,
            version,
            kind: text(res.get("kind")),
            name: text(meta.and_then(|m| m.get("name"))),
            namespace: text(meta.and_then(|m| m.get("namespace"))),
        }
    }

    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `EffectiveNamespace`: `_non_namespaceable_` for known cluster-scoped kinds, `default`
    /// for an empty namespace.
    pub fn effective_namespace(&self) -> String {
        if is_cluster_scoped(&self.api_version(), &self.kind) {
            return "_non_namespaceable_".into();
        }
        if self.namespace.is_empty() {
            return "default".into();
        }
        self.namespace.clone()
    }

    /// `ResId.Equals`: same group, version, kind, name and effective namespace.
    pub fn equals(&self, o: &ResId) -> bool {
        self.group == o.group
            && self.version == o.version
            && self.kind == o.kind
            && self.name == o.name
            && self.effective_namespace() == o.effective_namespace()
    }
}

impl fmt::Display for ResId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or = |s: &str, d: &'static str| {
            if s.is_empty() {
                d.to_string()
            } else {
                s.to_string()
            }
        };
        write!(
            f,
            "{}.{}.{}/{}.{}",
            or(&self.kind, "[noKind]"),
            or(&self.version, "[noVer]"),
            or(&self.group, "[noGrp]"),
            or(&self.name, "[noName]"),
            or(&self.namespace, "[noNs]")
        )
    }
}
