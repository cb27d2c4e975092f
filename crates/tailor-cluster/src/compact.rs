//! A destination as a run keeps it until the destination is tailored: a fan-out to 20,000
//! clusters keeps 20,000 of them for the whole run, and a [`ClusterSpec`]'s maps cost about
//! 540 bytes each however few entries they hold (a `BTreeMap` leaf). [`CompactSpec`] holds
//! the same fields as sorted boxed slices (about a fifth of that); [`CompactSpec::spec`] gives
//! the [`ClusterSpec`] back, equal to the one it was made from, when the destination runs.

use tailor_kube::StringMap;

use crate::model::{ClusterGroup, ClusterSpec};

/// A map's entries in key order.
type Pairs = Box<[(Box<str>, Box<str>)]>;

/// A [`ClusterSpec`] kept compactly (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactSpec {
    name: Box<str>,
    labels: Pairs,
    annotations: Pairs,
    groups: Box<[(Box<str>, Pairs)]>,
    properties: Pairs,
    strict_match_labels: Option<bool>,
    kube_version: Option<Box<str>>,
    api_versions: Box<[Box<str>]>,
}

impl From<ClusterSpec> for CompactSpec {
    fn from(spec: ClusterSpec) -> CompactSpec {
        CompactSpec {
            name: spec.name.into_boxed_str(),
            labels: pairs(spec.labels),
            annotations: pairs(spec.annotations),
            groups: spec
                .groups
                .into_iter()
                .map(|g| (g.name.into_boxed_str(), pairs(g.labels)))
                .collect(),
            properties: pairs(spec.properties),
            strict_match_labels: spec.strict_match_labels,
            kube_version: spec.kube_version.map(String::into_boxed_str),
            api_versions: spec
                .api_versions
                .into_iter()
                .map(String::into_boxed_str)
                .collect(),
        }
    }
}

impl CompactSpec {
    /// The destination's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Kratix strictMatchLabels, when given.
    pub fn strict_match_labels(&self) -> Option<bool> {
        self.strict_match_labels
    }

    /// The spec this was made from.
    pub fn spec(&self) -> ClusterSpec {
        ClusterSpec {
            name: self.name.to_string(),
            labels: map(&self.labels),
            annotations: map(&self.annotations),
            groups: self
                .groups
                .iter()
                .map(|(name, labels)| ClusterGroup {
                    name: name.to_string(),
                    labels: map(labels),
                })
                .collect(),
            properties: map(&self.properties),
            strict_match_labels: self.strict_match_labels,
            kube_version: self.kube_version.as_deref().map(str::to_string),
            api_versions: self.api_versions.iter().map(|v| v.to_string()).collect(),
        }
    }
}

fn pairs(map: StringMap) -> Pairs {
    map.into_iter()
        .map(|(k, v)| (k.into_boxed_str(), v.into_boxed_str()))
        .collect()
}

fn map(pairs: &Pairs) -> StringMap {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gives_back_the_spec_it_was_made_from() {
        let full = ClusterSpec::from_json(
            &json!({
                "name": "virgo",
                "labels": {"env": "prod", "region": "eu"},
                "annotations": {"owner": "team-a"},
                "groups": [{"name": "prod", "labels": {"tier": "gold"}}, {"name": "eu"}],
                "properties": {"clusterHash": "1001-dead-beef"},
                "strictMatchLabels": false,
                "kubeVersion": "v1.30.2",
                "apiVersions": ["monitoring.coreos.com/v1"]
            }),
            "spec.cluster",
        )
        .unwrap();
        for spec in [full, ClusterSpec::named("v")] {
            let compact = CompactSpec::from(spec.clone());
            assert_eq!(compact.name(), spec.name);
            assert_eq!(compact.strict_match_labels(), spec.strict_match_labels);
            // Groups stay in the order written.
            assert_eq!(compact.spec(), spec);
        }
    }
}
