//! Kratix scheduling per item (`docs/semantics/kratix.md`): which workload group an item
//! belongs to, which labels that group requires, and whether the destination qualifies.
//!
//! - A `destinationSelectors` entry with `directory: X` (X not `.`) claims everything under
//!   the top-level directory `X/` of the output; such items form their own group that uses
//!   **only** that entry's matchLabels (Promise selectors are not added to it).
//! - Every other item is in the default group `.`: the `.` entry's matchLabels (the
//!   workflow's), then the Promise's selectors merged over them, so the Promise wins a clash.
//! - A Promise's own `destinationSelectors` list is squashed first-entry-wins.
//! - The destination decision is `tailor_cluster::destination_selected`: a subset test for
//!   non-empty labels; with empty labels every destination except a strict one that has
//!   labels; dry-run destinations never.
//!
//! A resource-request Work goes to one randomly chosen matching destination; tailor cannot
//! choose for Kratix, so "scheduled" here means "this destination is eligible".

use serde_json::Value;
use tailor_cluster::{destination_selected, Cluster, DestinationSelector, FieldError, StringMap};

use crate::overlay::clean_path;

/// The default workload group's directory.
pub const ROOT_GROUP: &str = ".";

/// A parsed scheduling configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KratixSchedule {
    /// The workflow's `destinationSelectors` (validated as Kratix validates them).
    pub selectors: Vec<DestinationSelector>,
    /// The Promise's selectors, already squashed.
    pub promise: StringMap,
}

/// `SquashPromiseScheduling`: the first entry that sets a key wins.
pub fn squash_promise_selectors(lists: &[StringMap]) -> StringMap {
    let mut out = StringMap::new();
    for m in lists {
        for (k, v) in m {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    out
}

impl KratixSchedule {
    /// Reads a `destinationSelectors` list (Kratix's validation applies).
    pub fn from_json(value: &Value, field_path: &str) -> Result<KratixSchedule, FieldError> {
        Ok(KratixSchedule {
            selectors: DestinationSelector::list_from_json(value, field_path)?,
            promise: StringMap::new(),
        })
    }

    /// The same schedule with Promise selectors (several lists are squashed first-wins).
    pub fn with_promise(mut self, lists: &[StringMap]) -> KratixSchedule {
        self.promise = squash_promise_selectors(lists);
        self
    }

    /// The workload group of an item: the claimed top-level directory of its path, or `"."`.
    pub fn group_for(&self, item_path: Option<&str>) -> &str {
        let Some(path) = item_path else {
            return ROOT_GROUP;
        };
        let clean = clean_path(path);
        let Some((top, _)) = clean.split_once('/') else {
            // A file directly in the output root belongs to the default group.
            return ROOT_GROUP;
        };
        self.selectors
            .iter()
            .find(|s| s.directory != ROOT_GROUP && s.directory == top)
            .map_or(ROOT_GROUP, |s| s.directory.as_str())
    }

    /// The labels a destination needs for an item at `item_path`.
    pub fn labels_for(&self, item_path: Option<&str>) -> StringMap {
        let group = self.group_for(item_path);
        let own = self
            .selectors
            .iter()
            .find(|s| s.directory == group)
            .map(|s| s.match_labels.clone())
            .unwrap_or_default();
        if group != ROOT_GROUP {
            return own;
        }
        let mut merged = own;
        merged.extend(self.promise.iter().map(|(k, v)| (k.clone(), v.clone())));
        merged
    }

    /// Does the item at `item_path` go to `cluster`?
    pub fn selects(&self, item_path: Option<&str>, cluster: &Cluster) -> bool {
        destination_selected(
            &self.labels_for(item_path),
            cluster,
            cluster.strict_match_labels,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn dest(labels: &[(&str, &str)], strict: bool) -> Cluster {
        Cluster {
            name: "d".into(),
            labels: m(labels),
            strict_match_labels: strict,
            ..Cluster::default()
        }
    }

    fn schedule(v: Value) -> KratixSchedule {
        KratixSchedule::from_json(&v, "spec.destinationSelectors").unwrap()
    }

    #[test]
    fn directory_entries_claim_their_top_level_directory() {
        let s = schedule(json!([
            {"matchLabels": {"env": "prod"}},
            {"directory": "db", "matchLabels": {"tier": "data"}}
        ]));
        assert_eq!(s.group_for(Some("db/statefulset.yaml")), "db");
        assert_eq!(s.group_for(Some("./db/x/y.yaml")), "db");
        assert_eq!(s.group_for(Some("db.yaml")), ".");
        assert_eq!(s.group_for(Some("dbx/a.yaml")), ".");
        assert_eq!(s.group_for(Some("web/a.yaml")), ".");
        assert_eq!(s.group_for(None), ".");
        let data = dest(&[("tier", "data")], false);
        let prod = dest(&[("env", "prod")], false);
        assert!(s.selects(Some("db/a.yaml"), &data));
        assert!(!s.selects(Some("db/a.yaml"), &prod));
        assert!(s.selects(Some("web/a.yaml"), &prod));
        assert!(!s.selects(Some("web/a.yaml"), &data));
    }

    #[test]
    fn directory_groups_do_not_get_promise_selectors() {
        let s = schedule(json!([{"directory": "db", "matchLabels": {"tier": "data"}}]))
            .with_promise(&[m(&[("env", "prod")])]);
        assert_eq!(s.labels_for(Some("db/a.yaml")), m(&[("tier", "data")]));
        assert_eq!(s.labels_for(Some("a.yaml")), m(&[("env", "prod")]));
    }

    #[test]
    fn promise_selectors_beat_the_workflows_on_a_clash() {
        let s = schedule(json!([{"matchLabels": {"env": "dev", "zone": "a"}}]))
            .with_promise(&[m(&[("env", "prod")])]);
        assert_eq!(s.labels_for(None), m(&[("env", "prod"), ("zone", "a")]));
        assert!(s.selects(None, &dest(&[("env", "prod"), ("zone", "a")], false)));
        assert!(!s.selects(None, &dest(&[("env", "dev"), ("zone", "a")], false)));
    }

    #[test]
    fn promise_lists_squash_first_wins() {
        let sq =
            squash_promise_selectors(&[m(&[("env", "prod")]), m(&[("env", "dev"), ("x", "1")])]);
        assert_eq!(sq, m(&[("env", "prod"), ("x", "1")]));
    }

    #[test]
    fn no_selectors_and_strict_destinations() {
        let s = KratixSchedule::default();
        assert!(s.selects(None, &dest(&[("a", "b")], false)));
        assert!(!s.selects(None, &dest(&[("a", "b")], true)));
        assert!(s.selects(None, &dest(&[], true)));
        // A claimed directory with labels: strict plays no part.
        let s = schedule(json!([{"directory": "db", "matchLabels": {"a": "b"}}]));
        assert!(s.selects(Some("db/x.yaml"), &dest(&[("a", "b"), ("c", "d")], true)));
        // Unclaimed items of that schedule have no labels: strict labelled destinations refuse.
        assert!(!s.selects(Some("x.yaml"), &dest(&[("a", "b")], true)));
    }

    #[test]
    fn dry_run_destinations_never() {
        let s = schedule(json!([{"matchLabels": {"env": "prod"}}]));
        assert!(!s.selects(
            None,
            &dest(&[("env", "prod"), ("kratix.io/dry-run", "true")], false)
        ));
    }
}
