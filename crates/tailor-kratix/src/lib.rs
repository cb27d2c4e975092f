//! Kratix, as tailor follows it (`internal/controller/scheduler.go`,
//! `work-creator/lib/work_creator.go`; `docs/semantics/kratix.md`): which destinations a
//! workload's objects may be scheduled to.
//!
//! A workflow's `destinationSelectors` ([`KratixSchedule`]) split its output into workload
//! groups: an entry with `directory: X` (X not `.`) claims everything under the top-level
//! directory `X/` and uses only its own matchLabels; every other object is in the default
//! group `.`. A group goes to a destination when [`destination_selected`] says so. A
//! resource-request Work goes to one randomly chosen matching destination; tailor cannot choose
//! for Kratix, so "scheduled" here means "this destination is eligible". (Kratix also merges
//! a Promise's own selectors into the default group; tailor refuses a Promise where it
//! schedules, so only the workflow's selectors are modelled.)
//!
//! Matching:
//! - Non-empty matchLabels: a subset test (every key=value must be among the destination's
//!   labels; extra labels are fine). `strictMatchLabels` plays no part then.
//! - Empty matchLabels: every destination, except a strict one that has labels (a strict
//!   destination without labels stays eligible). strictMatchLabels is not label-set equality.
//! - Destinations labelled `kratix.io/dry-run: "true"` are never chosen for a normal Work; tailor
//!   never runs as a dry-run Work, so they are never selected.
//!
//! ```
//! use serde_json::json;
//! use tailor_cluster::Cluster;
//! use tailor_kratix::KratixSchedule;
//!
//! let schedule = KratixSchedule::from_json(
//!     &json!([
//!         {"matchLabels": {"env": "prod"}},
//!         {"directory": "db", "matchLabels": {"tier": "data"}},
//!     ]),
//!     "spec.destinationSelectors",
//! )?;
//! let prod = Cluster::from_json(&json!({"name": "virgo", "labels": {"env": "prod"}}), "c")?;
//! let data = Cluster::from_json(&json!({"name": "lyra", "labels": {"tier": "data"}}), "c")?;
//! // Objects under `db/` follow the `db` entry; everything else the default group `.`.
//! assert_eq!(schedule.group_for(Some("db/statefulset.yaml")), "db");
//! assert!(schedule.selects(Some("db/statefulset.yaml"), &data));
//! assert!(!schedule.selects(Some("db/statefulset.yaml"), &prod));
//! assert!(schedule.selects(Some("web/deployment.yaml"), &prod));
//! assert!(!schedule.selects(Some("web/deployment.yaml"), &data));
//! # Ok::<(), tailor_kube::FieldError>(())
//! ```

use serde_json::Value;

use tailor_cluster::Cluster;
use tailor_kube::json;
use tailor_kube::labels::LabelSelector;
use tailor_kube::FieldError;
use tailor_kube::StringMap;

/// The label that marks a dry-run Destination.
pub const DRY_RUN_LABEL: &str = "kratix.io/dry-run";

/// Does a Work with these (resolved, merged) matchLabels go to `cluster`?
pub fn destination_selected(
    match_labels: &StringMap,
    cluster: &Cluster,
    strict_match_labels: bool,
) -> bool {
    if cluster.labels.get(DRY_RUN_LABEL).map(String::as_str) == Some("true") {
        return false;
    }
    if match_labels.is_empty() {
        // Only a strict destination that has labels refuses label-less Works.
        return !strict_match_labels || cluster.labels.is_empty();
    }
    match_labels
        .iter()
        .all(|(k, v)| cluster.labels.get(k) == Some(v))
}

/// One entry of `destinationSelectors` (`/kratix/metadata/destination-selectors.yaml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DestinationSelector {
    /// The output directory this entry schedules, `filepath.Clean`ed (`"."` = everything else).
    pub directory: String,
    /// Labels the destination must carry.
    pub match_labels: StringMap,
}

impl DestinationSelector {
    /// [`destination_selected`] with this entry's labels and the cluster's own strictMatchLabels.
    pub fn selects(&self, cluster: &Cluster) -> bool {
        destination_selected(&self.match_labels, cluster, cluster.strict_match_labels)
    }

    /// Parses a `destinationSelectors` list with Kratix's validation: every entry needs
    /// matchLabels, directories are cleaned, must be unique and must not be nested. Keys and
    /// values must be valid labels (they become a Kubernetes label selector).
    pub fn list_from_json(
        value: &Value,
        field_path: &str,
    ) -> Result<Vec<DestinationSelector>, FieldError> {
        let items = match value {
            Value::Null => return Ok(Vec::new()),
            Value::Array(items) => items,
            other => {
                return Err(FieldError::new(
                    field_path,
                    format!("expected a list, got {}", json::type_name(other)),
                ))
            }
        };
        // Read every entry first, then validate in Kratix's order (ParseDestinationSelectors):
        // all "no selectors" checks, then duplicate directories, then sub-directories.
        let mut out: Vec<DestinationSelector> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = json::index(field_path, i);
            let map = json::as_object(item, &at)?;
            json::check_fields(map, &at, &["directory", "matchLabels"])?;
            let labels_path = json::join(&at, "matchLabels");
            let match_labels = json::string_map(json::field(map, "matchLabels"), &labels_path)?;
            LabelSelector::from_match_labels(&match_labels, &labels_path)?;
            let directory = tailor_go::path::clean(
                json::string(map.get("directory"), &json::join(&at, "directory"))?.unwrap_or(""),
            );
            out.push(DestinationSelector {
                directory,
                match_labels,
            });
        }
        let dir_path = |i: usize| json::join(&json::index(field_path, i), "directory");
        if let Some(i) = out.iter().position(|s| s.match_labels.is_empty()) {
            return Err(FieldError::new(
                json::join(&json::index(field_path, i), "matchLabels"),
                format!("entry with index {i} has no selectors"),
            ));
        }
        for (i, s) in out.iter().enumerate() {
            if out
                .iter()
                .take(i)
                .any(|earlier| earlier.directory == s.directory)
            {
                return Err(FieldError::new(
                    dir_path(i),
                    format!("duplicate directory {:?}", s.directory),
                ));
            }
        }
        for (i, s) in out.iter().enumerate() {
            // filepath.Base(dir) != dir, on a cleaned path.
            if s.directory.contains('/') && s.directory != "/" {
                return Err(FieldError::new(
                    dir_path(i),
                    format!(
                        "invalid directory {:?}: sub-directories are not allowed",
                        s.directory
                    ),
                ));
            }
        }
        Ok(out)
    }
}

/// The default workload group's directory.
pub const ROOT_GROUP: &str = ".";

/// A parsed scheduling configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KratixSchedule {
    /// The workflow's `destinationSelectors` (validated as Kratix validates them).
    pub selectors: Vec<DestinationSelector>,
}

impl KratixSchedule {
    /// Reads a `destinationSelectors` list (Kratix's validation applies).
    pub fn from_json(value: &Value, field_path: &str) -> Result<KratixSchedule, FieldError> {
        Ok(KratixSchedule {
            selectors: DestinationSelector::list_from_json(value, field_path)?,
        })
    }

    /// The workload group of an item: the claimed top-level directory of its path, or `"."`.
    pub fn group_for(&self, item_path: Option<&str>) -> &str {
        let Some(path) = item_path else {
            return ROOT_GROUP;
        };
        let clean = tailor_go::path::clean(path);
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
        own
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

    use tailor_testkit::string_map as m;

    fn dest(labels: &[(&str, &str)], strict: bool) -> Cluster {
        Cluster {
            name: "d".into(),
            labels: m(labels),
            strict_match_labels: strict,
            ..Cluster::default()
        }
    }

    #[test]
    fn non_empty_selector_is_a_subset_test() {
        let d = dest(&[("env", "prod"), ("region", "eu")], false);
        assert!(destination_selected(&m(&[("env", "prod")]), &d, false));
        assert!(destination_selected(
            &m(&[("env", "prod"), ("region", "eu")]),
            &d,
            false
        ));
        assert!(!destination_selected(&m(&[("env", "dev")]), &d, false));
        assert!(!destination_selected(
            &m(&[("env", "prod"), ("zone", "a")]),
            &d,
            false
        ));
        assert!(!destination_selected(
            &m(&[("env", "prod")]),
            &dest(&[], false),
            false
        ));
    }

    #[test]
    fn strict_has_no_effect_with_non_empty_selector() {
        // Not label-set equality: extra destination labels are fine even when strict.
        let d = dest(&[("env", "prod"), ("strict", "true")], true);
        assert!(destination_selected(&m(&[("env", "prod")]), &d, true));
        assert!(!destination_selected(&m(&[("env", "dev")]), &d, true));
    }

    #[test]
    fn empty_selector_and_strict_match_labels() {
        let empty = StringMap::new();
        // Non-strict: everything.
        assert!(destination_selected(
            &empty,
            &dest(&[("a", "b")], false),
            false
        ));
        assert!(destination_selected(&empty, &dest(&[], false), false));
        // Strict with labels: dropped.
        assert!(!destination_selected(
            &empty,
            &dest(&[("strict", "true")], true),
            true
        ));
        // Strict without labels: still eligible.
        assert!(destination_selected(&empty, &dest(&[], true), true));
    }

    #[test]
    fn dry_run_destinations_are_never_selected() {
        let d = dest(&[(DRY_RUN_LABEL, "true"), ("env", "prod")], false);
        assert!(!destination_selected(&m(&[("env", "prod")]), &d, false));
        assert!(!destination_selected(&StringMap::new(), &d, false));
        let not_dry = dest(&[(DRY_RUN_LABEL, "false")], false);
        assert!(destination_selected(&StringMap::new(), &not_dry, false));
    }

    #[test]
    fn selects_uses_the_clusters_strict_flag() {
        let s = DestinationSelector {
            directory: ".".into(),
            match_labels: StringMap::new(),
        };
        assert!(!s.selects(&dest(&[("a", "b")], true)));
        assert!(s.selects(&dest(&[("a", "b")], false)));
    }

    #[test]
    fn parses_and_cleans_directories() {
        let v = json!([
            {"matchLabels": {"env": "prod"}},
            {"directory": "./db/", "matchLabels": {"tier": "data"}},
            {"directory": "x/../web", "matchLabels": {"tier": "web"}}
        ]);
        let s = DestinationSelector::list_from_json(&v, "spec.destinationSelectors").unwrap();
        assert_eq!(
            s.iter().map(|s| s.directory.as_str()).collect::<Vec<_>>(),
            [".", "db", "web"]
        );
        assert_eq!(s[0].match_labels, m(&[("env", "prod")]));
        assert!(DestinationSelector::list_from_json(&json!(null), "p")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn validation_errors_name_the_field() {
        let e = |v: Value| {
            DestinationSelector::list_from_json(&v, "spec.destinationSelectors")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e(json!([{"matchLabels": {}}])),
            "spec.destinationSelectors[0].matchLabels: entry with index 0 has no selectors"
        );
        assert_eq!(
            e(json!([{"directory": "a"}])),
            "spec.destinationSelectors[0].matchLabels: entry with index 0 has no selectors"
        );
        assert_eq!(
            e(json!([{"matchLabels": {"a": "1"}}, {"directory": ".", "matchLabels": {"b": "2"}}])),
            "spec.destinationSelectors[1].directory: duplicate directory \".\""
        );
        assert_eq!(
            e(json!([{"directory": "a/b", "matchLabels": {"a": "1"}}])),
            "spec.destinationSelectors[0].directory: invalid directory \"a/b\": sub-directories are not allowed"
        );
        assert!(e(json!([{"matchLabels": {"a": "not ok"}}]))
            .starts_with("spec.destinationSelectors[0].matchLabels.a: invalid label value"));
        assert_eq!(e(json!([{"matchLabels": {"a": 1}}])), "spec.destinationSelectors[0].matchLabels.a: expected a string, got number (quote the value)");
        assert_eq!(
            e(json!([{"matchlabels": {"a": "1"}}])),
            "spec.destinationSelectors[0].matchlabels: unknown field (did you mean \"matchLabels\"?); accepted fields: directory, matchLabels"
        );
        assert_eq!(
            e(json!({})),
            "spec.destinationSelectors: expected a list, got map"
        );
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

    #[test]
    fn random_json_never_panics() {
        const KEYS: &[&str] = &["directory", "matchLabels", "a", "kratix.io/dry-run"];
        const STRINGS: &[&str] = &["", ".", "a", "a/b", "../a", "/", "true", "not ok", "é"];
        let mut rng = tailor_testkit::Rng::xorshift64(0x9E37_79B9_7F4A_7C15);
        let cluster = dest(&[("a", "a")], true);
        for _ in 0..20_000 {
            let v = tailor_testkit::json::random_value(&mut rng, KEYS, STRINGS);
            let list = serde_json::Value::Array(vec![v.clone()]);
            for input in [&v, &list] {
                if let Ok(s) = KratixSchedule::from_json(input, "d") {
                    let _ = s.selects(Some("a/b.yaml"), &cluster);
                }
            }
        }
    }
}
