//! Fleet target matching (`matcher/clustermatcher.go`, `target/query.go`;
//! `docs/semantics/fleet.md` §1a–1b).
//!
//! - Criteria are ANDed; a criterion exists only when its field is set (`clusterName` and
//!   `clusterGroup` non-empty, selectors non-null). An entry with no criteria never matches.
//! - `clusterName` matches the cluster's name or its `management.cattle.io/cluster-display-name`
//!   label.
//! - `clusterSelector` tests the cluster's raw labels; `{}` matches every cluster.
//! - Group criteria test the groups the cluster belongs to: the entry matches if **one** group
//!   satisfies every criterion (so `clusterGroup` and `clusterGroupSelector` must hold for the
//!   same group). A cluster in no group is tested once with group name `""` and no labels, so
//!   `clusterGroupSelector: {}` matches it and `clusterGroup: x` does not.

use serde_json::Value;

use tailor_cluster::Cluster;
use tailor_kube::json;
use tailor_kube::labels::{self as selector, LabelSelector};
use tailor_kube::FieldError as SelectorError;
use tailor_kube::StringMap;

/// Rancher's display-name label, which `clusterName` also matches.
pub const DISPLAY_NAME_LABEL: &str = "management.cattle.io/cluster-display-name";

/// The matching part of a Fleet target or targetCustomizations entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TargetCriteria {
    /// `clusterName`, when non-empty.
    pub cluster_name: Option<String>,
    /// `clusterSelector`, when non-null.
    pub cluster_selector: Option<LabelSelector>,
    /// `clusterGroup`, when non-empty.
    pub cluster_group: Option<String>,
    /// `clusterGroupSelector`, when non-null.
    pub cluster_group_selector: Option<LabelSelector>,
}

fn non_empty(
    map: &serde_json::Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>, SelectorError> {
    json::nonempty_string(map.get(key), &json::join(path, key))
}

impl TargetCriteria {
    /// Reads `clusterName`, `clusterSelector`, `clusterGroup` and `clusterGroupSelector` from an
    /// entry (its other fields are not looked at). Invalid selectors are errors naming the field,
    /// as Fleet fails the whole bundle on them.
    pub fn from_json(entry: &Value, field_path: &str) -> Result<TargetCriteria, SelectorError> {
        let map = json::as_object(entry, field_path)?;
        Ok(TargetCriteria {
            cluster_name: non_empty(map, "clusterName", field_path)?,
            cluster_selector: selector::optional_from_json(
                map.get("clusterSelector"),
                &json::join(field_path, "clusterSelector"),
            )?,
            cluster_group: non_empty(map, "clusterGroup", field_path)?,
            cluster_group_selector: selector::optional_from_json(
                map.get("clusterGroupSelector"),
                &json::join(field_path, "clusterGroupSelector"),
            )?,
        })
    }

    /// True when at least one criterion is set; an entry without any never matches.
    pub fn has_criteria(&self) -> bool {
        self.cluster_name.is_some()
            || self.cluster_selector.is_some()
            || self.cluster_group.is_some()
            || self.cluster_group_selector.is_some()
    }

    /// Fleet's `ClusterMatcher.Match`, tried for each group the cluster belongs to.
    pub fn matches(&self, cluster: &Cluster) -> bool {
        if !self.has_criteria() {
            return false;
        }
        if let Some(name) = &self.cluster_name {
            let display = cluster.labels.get(DISPLAY_NAME_LABEL);
            if *name != cluster.name && display != Some(name) {
                return false;
            }
        }
        if let Some(sel) = &self.cluster_selector {
            if !sel.matches(&cluster.labels) {
                return false;
            }
        }
        if cluster.groups.is_empty() {
            return self.group_matches("", &StringMap::new());
        }
        cluster
            .groups
            .iter()
            .any(|g| self.group_matches(&g.name, &g.labels))
    }

    /// Each criterion that is set, written as a user reads it, with whether it holds for
    /// `cluster` on its own (for `tailor --explain`; [`TargetCriteria::matches`] decides).
    pub fn explain(&self, cluster: &Cluster) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        if let Some(name) = &self.cluster_name {
            let display = cluster.labels.get(DISPLAY_NAME_LABEL);
            out.push((
                format!("clusterName {name}"),
                *name == cluster.name || display == Some(name),
            ));
        }
        if let Some(sel) = &self.cluster_selector {
            out.push((
                format!("clusterSelector {{{sel}}}"),
                sel.matches(&cluster.labels),
            ));
        }
        let in_a_group = |test: &dyn Fn(&str, &StringMap) -> bool| {
            if cluster.groups.is_empty() {
                test("", &StringMap::new())
            } else {
                cluster.groups.iter().any(|g| test(&g.name, &g.labels))
            }
        };
        if let Some(group) = &self.cluster_group {
            out.push((
                format!("clusterGroup {group}"),
                in_a_group(&|name, _| name == group),
            ));
        }
        if let Some(sel) = &self.cluster_group_selector {
            out.push((
                format!("clusterGroupSelector {{{sel}}}"),
                in_a_group(&|_, labels| sel.matches(labels)),
            ));
        }
        out
    }

    fn group_matches(&self, name: &str, labels: &StringMap) -> bool {
        self.cluster_group
            .as_deref()
            .map_or(true, |want| want == name)
            && self
                .cluster_group_selector
                .as_ref()
                .map_or(true, |sel| sel.matches(labels))
    }
}

/// Parses the criteria of `entry` and tests them against `cluster`.
pub fn target_matches(
    entry: &Value,
    field_path: &str,
    cluster: &Cluster,
) -> Result<bool, SelectorError> {
    TargetCriteria::from_json(entry, field_path).map(|c| c.matches(cluster))
}

#[cfg(test)]
mod tests;
