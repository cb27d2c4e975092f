use super::*;
use serde_json::json;
use tailor_cluster::ClusterGroup;

use tailor_testkit::string_map as m;

fn cluster(name: &str, labels: &[(&str, &str)], groups: &[(&str, &[(&str, &str)])]) -> Cluster {
    Cluster {
        name: name.into(),
        labels: m(labels),
        groups: groups
            .iter()
            .map(|(n, l)| ClusterGroup {
                name: n.to_string(),
                labels: m(l),
            })
            .collect(),
        ..Cluster::default()
    }
}

fn matches(entry: Value, c: &Cluster) -> bool {
    target_matches(&entry, "targetCustomizations[0]", c).unwrap()
}

// ---- no criteria ----

#[test]
fn no_criteria_never_matches() {
    let c = cluster("one", &[("env", "prod")], &[("all", &[])]);
    assert!(!matches(json!({}), &c));
    assert!(!matches(
        json!({"name": "x", "doNotDeploy": true, "helm": {}}),
        &c
    ));
    assert!(!matches(json!({"clusterSelector": null}), &c));
    assert!(!matches(
        json!({"clusterName": "", "clusterGroup": "", "clusterGroupSelector": null}),
        &c
    ));
    assert!(!TargetCriteria::default().has_criteria());
}

// ---- clusterName ----

#[test]
fn cluster_name_matches_name_or_display_name_label() {
    let c = cluster("c-abc12", &[(DISPLAY_NAME_LABEL, "prod-eu")], &[]);
    assert!(matches(json!({"clusterName": "c-abc12"}), &c));
    assert!(matches(json!({"clusterName": "prod-eu"}), &c));
    assert!(!matches(json!({"clusterName": "other"}), &c));
    let plain = cluster("local", &[], &[]);
    assert!(!matches(json!({"clusterName": "prod-eu"}), &plain));
    assert!(matches(json!({"clusterName": "local"}), &plain));
}

// ---- clusterSelector ----

#[test]
fn cluster_selector_empty_matches_everything_absent_is_no_criterion() {
    let c = cluster("one", &[], &[]);
    assert!(matches(json!({"clusterSelector": {}}), &c));
    assert!(!matches(json!({"clusterSelector": null}), &c));
}

#[test]
fn cluster_selector_uses_raw_labels() {
    let c = cluster(
        "one",
        &[("env", "prod"), ("management.cattle.io/x", "y")],
        &[],
    );
    assert!(matches(
        json!({"clusterSelector": {"matchLabels": {"env": "prod"}}}),
        &c
    ));
    assert!(!matches(
        json!({"clusterSelector": {"matchLabels": {"env": "dev"}}}),
        &c
    ));
    assert!(matches(
        json!({"clusterSelector": {"matchLabels": {"management.cattle.io/x": "y"}}}),
        &c
    ));
    assert!(matches(
        json!({"clusterSelector": {"matchExpressions": [{"key": "region", "operator": "DoesNotExist"}]}}),
        &c
    ));
}

// ---- clusterGroup ----

#[test]
fn cluster_group_tests_membership() {
    let c = cluster("one", &[], &[("my-group", &[]), ("b", &[])]);
    assert!(matches(json!({"clusterGroup": "my-group"}), &c));
    assert!(!matches(json!({"clusterGroup": "other-group"}), &c));
    // A cluster in no group never matches a clusterGroup.
    assert!(!matches(
        json!({"clusterGroup": "my-group"}),
        &cluster("one", &[], &[])
    ));
}

// ---- clusterGroupSelector ----

#[test]
fn cluster_group_selector_tests_group_labels() {
    let c = cluster(
        "one",
        &[("tier", "silver")],
        &[("gold", &[("tier", "gold")]), ("eu", &[("region", "eu")])],
    );
    assert!(matches(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
    // The cluster's own labels are not what is tested.
    assert!(!matches(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "silver"}}}),
        &c
    ));
    assert!(matches(json!({"clusterGroupSelector": {}}), &c));
}

#[test]
fn cluster_group_selector_on_a_group_less_cluster() {
    let c = cluster("one", &[], &[]);
    // {} matches even with no group (nil labels), and so do "absence" operators.
    assert!(matches(json!({"clusterGroupSelector": {}}), &c));
    assert!(matches(
        json!({"clusterGroupSelector": {"matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["gold"]}]}}),
        &c
    ));
    assert!(!matches(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
}

// ---- combinations ----

#[test]
fn criteria_are_anded() {
    let c = cluster(
        "one",
        &[("env", "prod")],
        &[("my-group", &[("tier", "gold")])],
    );
    assert!(matches(
        json!({"clusterName": "one", "clusterGroup": "my-group"}),
        &c
    ));
    assert!(!matches(
        json!({"clusterName": "two", "clusterGroup": "my-group"}),
        &c
    ));
    assert!(!matches(
        json!({"clusterName": "one", "clusterGroup": "other"}),
        &c
    ));
    assert!(matches(
        json!({"clusterName": "one", "clusterSelector": {"matchLabels": {"env": "prod"}}}),
        &c
    ));
    assert!(!matches(
        json!({"clusterName": "one", "clusterSelector": {"matchLabels": {"env": "dev"}}}),
        &c
    ));
    assert!(!matches(
        json!({"clusterSelector": {}, "clusterGroup": "other"}),
        &c
    ));
    assert!(matches(
        json!({
            "clusterName": "one",
            "clusterSelector": {"matchLabels": {"env": "prod"}},
            "clusterGroup": "my-group",
            "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}
        }),
        &c
    ));
}

#[test]
fn group_criteria_must_hold_for_the_same_group() {
    let c = cluster(
        "one",
        &[],
        &[("a", &[("tier", "silver")]), ("b", &[("tier", "gold")])],
    );
    assert!(!matches(
        json!({"clusterGroup": "a", "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
    assert!(matches(
        json!({"clusterGroup": "b", "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
}

#[test]
fn empty_strings_are_no_criterion() {
    let c = cluster("one", &[], &[]);
    assert!(matches(
        json!({"clusterName": "", "clusterSelector": {}}),
        &c
    ));
    assert!(matches(
        json!({"clusterGroup": "", "clusterName": "one"}),
        &c
    ));
    let crit =
        TargetCriteria::from_json(&json!({"clusterName": "", "clusterGroup": ""}), "t").unwrap();
    assert_eq!(crit, TargetCriteria::default());
}

#[test]
fn fleet_bundlematch_examples() {
    // docs/semantics/fleet.md §7: customizations edge(edge=true), extra(extra=true), all({}).
    let edge = json!({"name": "edge", "clusterSelector": {"matchLabels": {"edge": "true"}}});
    let extra = json!({"name": "extra", "clusterSelector": {"matchLabels": {"extra": "true"}}});
    let all = json!({"name": "all", "clusterSelector": {}});
    let none = cluster("c", &[], &[]);
    let e = cluster("c", &[("edge", "true")], &[]);
    let both = cluster("c", &[("edge", "true"), ("extra", "true")], &[]);
    assert!(!matches(edge.clone(), &none) && !matches(extra.clone(), &none));
    assert!(matches(edge.clone(), &e) && !matches(extra.clone(), &e));
    assert!(matches(edge, &both) && matches(extra, &both));
    assert!(matches(all, &none));
}

// ---- errors ----

#[test]
fn invalid_criteria_are_errors_naming_the_field() {
    let c = cluster("one", &[], &[]);
    let e = |v: Value| {
        target_matches(&v, "spec.targetCustomizations[2]", &c)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e(json!({"clusterSelector": {"matchExpressions": [{"key": "a", "operator": "Foo", "values": ["x"]}]}})),
        "spec.targetCustomizations[2].clusterSelector.matchExpressions[0].operator: unsupported operator \"Foo\" (expected In, NotIn, Exists or DoesNotExist)"
    );
    assert_eq!(
        e(json!({"clusterGroupSelector": {"matchExpressions": [{"key": "a", "operator": "In"}]}})),
        "spec.targetCustomizations[2].clusterGroupSelector.matchExpressions[0].values: for 'in', 'notin' operators, values set can't be empty"
    );
    assert_eq!(
        e(json!({"clusterName": 3})),
        "spec.targetCustomizations[2].clusterName: expected a string, got number (quote the value)"
    );
    assert_eq!(
        e(json!({"clusterGroup": ["a"]})),
        "spec.targetCustomizations[2].clusterGroup: expected a string, got list"
    );
    assert_eq!(
        e(json!({"clusterSelector": "env=prod"})),
        "spec.targetCustomizations[2].clusterSelector: expected a map, got string"
    );
    assert_eq!(
        e(json!("x")),
        "spec.targetCustomizations[2]: expected a map, got string"
    );
}
