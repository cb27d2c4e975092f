//! Matching of every criterion and their combinations, and FirstMatch/AllMatches decisions
//! (`docs/semantics/fleet.md` §1, §2 and §7's test facts).

use serde_json::{json, Value};
use tailor_cluster::Cluster;

use super::*;

fn cluster(v: Value) -> Cluster {
    Cluster::from_json(&v, "spec.cluster").unwrap()
}

fn config(mode: &str, entries: Value) -> FleetConfig {
    FleetConfig::<()>::from_tailor_spec(
        &json!({"targetCustomizationMode": mode, "targetCustomizations": entries}),
        "spec",
    )
    .unwrap()
}

/// Names of the matching entries.
fn hits(entries: Value, c: &Cluster) -> Vec<String> {
    let cfg = config("AllMatches", entries);
    cfg.matching(c)
        .into_iter()
        .map(|i| cfg.customizations[i].name.clone())
        .collect()
}

fn one(entry: Value, c: &Cluster) -> bool {
    let mut e = entry;
    e["name"] = json!("e");
    !hits(json!([e]), c).is_empty()
}

#[test]
fn no_criteria_never_matches_and_empty_selector_matches_all() {
    let c = cluster(json!({"name": "a", "labels": {"env": "dev"}}));
    assert!(!one(json!({}), &c));
    assert!(!one(json!({"clusterSelector": null}), &c));
    assert!(!one(json!({"clusterName": ""}), &c));
    assert!(!one(json!({"namespace": "x"}), &c));
    assert!(one(json!({"clusterSelector": {}}), &c));
    assert!(one(
        json!({"clusterSelector": {}}),
        &cluster(json!({"name": "b"}))
    ));
}

#[test]
fn cluster_name_matches_name_or_display_name() {
    let c = cluster(json!({"name": "c-xyz",
        "labels": {"management.cattle.io/cluster-display-name": "pretty"}}));
    assert!(one(json!({"clusterName": "c-xyz"}), &c));
    assert!(one(json!({"clusterName": "pretty"}), &c));
    assert!(!one(json!({"clusterName": "other"}), &c));
    assert!(!one(
        json!({"clusterName": "pretty"}),
        &cluster(json!({"name": "c-xyz"}))
    ));
}

#[test]
fn cluster_selector_match_labels_and_expressions() {
    let c = cluster(json!({"name": "a", "labels": {"env": "prod", "region": "eu"}}));
    assert!(one(
        json!({"clusterSelector": {"matchLabels": {"env": "prod"}}}),
        &c
    ));
    assert!(!one(
        json!({"clusterSelector": {"matchLabels": {"env": "dev"}}}),
        &c
    ));
    for (op, values, want) in [
        ("In", json!(["prod", "test"]), true),
        ("NotIn", json!(["prod"]), false),
        ("Exists", json!(null), true),
        ("DoesNotExist", json!(null), false),
    ] {
        let mut e = json!({"key": "env", "operator": op});
        if !values.is_null() {
            e["values"] = values;
        }
        assert_eq!(
            one(json!({"clusterSelector": {"matchExpressions": [e]}}), &c),
            want,
            "{op}"
        );
    }
    // NotIn and DoesNotExist hold for a missing key.
    assert!(one(
        json!({"clusterSelector": {"matchExpressions": [
        {"key": "zone", "operator": "NotIn", "values": ["a"]},
        {"key": "zone", "operator": "DoesNotExist"}]}}),
        &c
    ));
}

#[test]
fn cluster_group_and_group_selector() {
    let c = cluster(json!({"name": "a", "groups": [
        {"name": "prod", "labels": {"tier": "gold"}},
        {"name": "eu", "labels": {"geo": "eu"}}]}));
    assert!(one(json!({"clusterGroup": "prod"}), &c));
    assert!(one(json!({"clusterGroup": "eu"}), &c));
    assert!(!one(json!({"clusterGroup": "dev"}), &c));
    assert!(one(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
    assert!(!one(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "silver"}}}),
        &c
    ));
    // Both group criteria must hold for the same group.
    assert!(one(
        json!({"clusterGroup": "prod", "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
    assert!(!one(
        json!({"clusterGroup": "eu", "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &c
    ));
    // A group-less cluster: clusterGroupSelector {} matches, clusterGroup never does.
    let lone = cluster(json!({"name": "b"}));
    assert!(one(json!({"clusterGroupSelector": {}}), &lone));
    assert!(!one(json!({"clusterGroup": "prod"}), &lone));
    assert!(!one(
        json!({"clusterGroupSelector": {"matchLabels": {"tier": "gold"}}}),
        &lone
    ));
}

#[test]
fn criteria_are_anded() {
    let c = cluster(json!({"name": "virgo", "labels": {"env": "prod"},
        "groups": [{"name": "g", "labels": {"tier": "gold"}}]}));
    let all = json!({"clusterName": "virgo", "clusterSelector": {"matchLabels": {"env": "prod"}},
        "clusterGroup": "g", "clusterGroupSelector": {"matchLabels": {"tier": "gold"}}});
    assert!(one(all.clone(), &c));
    for (field, wrong) in [
        ("clusterName", json!("other")),
        ("clusterSelector", json!({"matchLabels": {"env": "dev"}})),
        ("clusterGroup", json!("h")),
        (
            "clusterGroupSelector",
            json!({"matchLabels": {"tier": "x"}}),
        ),
    ] {
        let mut e = all.clone();
        e[field] = wrong;
        assert!(!one(e, &c), "{field} must also hold");
    }
    assert!(one(
        json!({"clusterName": "virgo", "clusterGroup": "g"}),
        &c
    ));
    assert!(!one(
        json!({"clusterName": "virgo", "clusterGroup": "h"}),
        &c
    ));
    assert!(one(
        json!({"clusterSelector": {}, "clusterGroupSelector": {}}),
        &c
    ));
}

#[test]
fn bundlematch_allmatches_examples() {
    let entries = json!([
        {"name": "edge", "clusterSelector": {"matchLabels": {"edge": "true"}}},
        {"name": "extra", "clusterSelector": {"matchLabels": {"extra": "true"}}}
    ]);
    let none = cluster(json!({"name": "a"}));
    let edge = cluster(json!({"name": "a", "labels": {"edge": "true"}}));
    let both = cluster(json!({"name": "a", "labels": {"edge": "true", "extra": "true"}}));
    assert!(hits(entries.clone(), &none).is_empty());
    assert_eq!(hits(entries.clone(), &edge), ["edge"]);
    assert_eq!(hits(entries, &both), ["edge", "extra"]);
    let reversed = json!([
        {"name": "extra", "clusterSelector": {"matchLabels": {"extra": "true"}}},
        {"name": "edge", "clusterSelector": {"matchLabels": {"edge": "true"}}}
    ]);
    assert_eq!(hits(reversed, &both), ["extra", "edge"]);
    let with_all = json!([
        {"name": "edge", "clusterSelector": {"matchLabels": {"edge": "true"}}},
        {"name": "all", "clusterSelector": {}}
    ]);
    assert_eq!(hits(with_all, &edge), ["edge", "all"]);
}

#[test]
fn an_entry_matching_through_several_groups_counts_once() {
    let c = cluster(json!({"name": "a", "groups": [{"name": "x"}, {"name": "y"}]}));
    assert_eq!(
        hits(json!([{"name": "any", "clusterGroupSelector": {}}]), &c),
        ["any"]
    );
}

fn deploy<E: crate::Extra>(d: Decision<E>) -> (Vec<String>, Options<E>) {
    match d {
        Decision::Deploy { matched, options } => (matched, options),
        other => panic!("expected Deploy, got {other:?}"),
    }
}

fn skip(d: Decision) -> (Vec<String>, String, String) {
    match d {
        Decision::Skip {
            matched,
            by,
            reason,
        } => (matched, by, reason),
        other => panic!("expected Skip, got {other:?}"),
    }
}

#[test]
fn first_match_takes_the_first_and_replaces_nothing_else() {
    let cfg = config(
        "FirstMatch",
        json!([
            {"name": "one", "clusterName": "one", "helm": {"values": {"replicas": 1}}},
            {"name": "all", "clusterSelector": {}, "helm": {"values": {"replicas": 4}}}
        ]),
    );
    let (m, o) = deploy(cfg.resolve(&cluster(json!({"name": "one"}))));
    assert_eq!(m, ["one"]);
    assert_eq!(o.helm.unwrap()["values"], json!({"replicas": 1}));
    let (m, o) = deploy(cfg.resolve(&cluster(json!({"name": "two"}))));
    assert_eq!(m, ["all"]);
    assert_eq!(o.helm.unwrap()["values"], json!({"replicas": 4}));
}

#[test]
fn first_match_do_not_deploy_only_when_first() {
    // Broader match listed before the doNotDeploy entry: deployed.
    let cfg = config(
        "FirstMatch",
        json!([
            {"name": "all", "clusterSelector": {}},
            {"name": "stop", "clusterName": "one", "doNotDeploy": true}
        ]),
    );
    let (m, _) = deploy(cfg.resolve(&cluster(json!({"name": "one"}))));
    assert_eq!(m, ["all"]);
    // doNotDeploy first: skipped, with the reason naming the entry.
    let cfg = config(
        "",
        json!([
            {"name": "stop", "clusterName": "one", "doNotDeploy": true},
            {"name": "all", "clusterSelector": {}}
        ]),
    );
    let (m, by, reason) = skip(cfg.resolve(&cluster(json!({"name": "one"}))));
    assert_eq!((m, by.as_str()), (vec!["stop".to_string()], "stop"));
    assert_eq!(
        reason,
        "cluster \"one\" is skipped: the first matching customization \"stop\" (spec.targetCustomizations[0]) sets doNotDeploy (targetCustomizationMode FirstMatch)"
    );
    let (m, _) = deploy(cfg.resolve(&cluster(json!({"name": "two"}))));
    assert_eq!(m, ["all"]);
}

#[test]
fn all_matches_merges_in_order_and_any_do_not_deploy_skips() {
    let cfg = config(
        "AllMatches",
        json!([
            {"name": "one", "clusterName": "one", "helm": {"values": {"region": "us-west"}},
             "yaml": {"overlays": ["a"]}, "namespace": "first"},
            {"name": "all", "clusterSelector": {}, "helm": {"values": {"env": "prod"}},
             "yaml": {"overlays": ["b"]}, "namespace": "second"}
        ]),
    );
    let (m, o) = deploy(cfg.resolve(&cluster(json!({"name": "one"}))));
    assert_eq!(m, ["one", "all"]);
    assert_eq!(
        o.helm.clone().unwrap()["values"],
        json!({"region": "us-west", "env": "prod"})
    );
    assert_eq!(o.yaml_overlays, ["a", "b"]);
    assert_eq!(o.namespace.as_deref(), Some("second"));
    let (m, o) = deploy(cfg.resolve(&cluster(json!({"name": "two"}))));
    assert_eq!(m, ["all"]);
    assert_eq!(o.helm.unwrap()["values"], json!({"env": "prod"}));

    let cfg = config(
        "AllMatches",
        json!([
            {"name": "all", "clusterSelector": {}, "helm": {"values": {"env": "prod"}}},
            {"name": "one", "clusterName": "one", "doNotDeploy": true}
        ]),
    );
    let (m, by, reason) = skip(cfg.resolve(&cluster(json!({"name": "one"}))));
    assert_eq!(m, ["all", "one"]);
    assert_eq!(by, "one");
    assert!(reason.contains("AllMatches"), "{reason}");
    deploy(cfg.resolve(&cluster(json!({"name": "two"}))));
}

#[test]
fn root_options_are_the_base_of_both_modes() {
    for mode in ["FirstMatch", "AllMatches"] {
        let cfg = FleetConfig::<crate::testing::Names>::from_tailor_spec(
            &json!({"targetCustomizationMode": mode, "defaultNamespace": "base-ns",
                    "yaml": {"overlays": ["root"]}, "namePrefix": "r-",
                    "targetCustomizations": [{"name": "x", "clusterSelector": {},
                        "yaml": {"overlays": ["x"]}, "nameSuffix": "-x"}]}),
            "spec",
        )
        .unwrap();
        let (_, o) = deploy(cfg.resolve(&cluster(json!({"name": "a"}))));
        assert_eq!(o.default_namespace.as_deref(), Some("base-ns"), "{mode}");
        assert_eq!(o.yaml_overlays, ["root", "x"], "{mode}");
        assert_eq!(o.extra.prefix.as_deref(), Some("r-"));
        assert_eq!(o.extra.suffix.as_deref(), Some("-x"));
    }
}

#[test]
fn no_match_deploys_with_root_options() {
    let cfg = config(
        "FirstMatch",
        json!([{"name": "x", "clusterName": "x", "namespace": "n"}]),
    );
    let (m, o) = deploy(cfg.resolve(&cluster(json!({"name": "y"}))));
    assert!(m.is_empty());
    assert_eq!(o, cfg.root);
}

#[test]
fn timeout_reset_differs_between_modes() {
    // FirstMatch: Merge(root{30}, c{-1}) resets to 0. AllMatches pre-merges c onto {} (0)
    // and then leaves the root's 30 alone.
    let mk = |mode: &str| {
        FleetConfig::<()>::from_tailor_spec(
            &json!({"targetCustomizationMode": mode, "helm": {"timeoutSeconds": 30},
                    "targetCustomizations": [{"name": "x", "clusterSelector": {},
                        "helm": {"timeoutSeconds": -1}}]}),
            "spec",
        )
        .unwrap()
    };
    let a = cluster(json!({"name": "a"}));
    assert_eq!(
        deploy(mk("FirstMatch").resolve(&a)).1.helm.unwrap()["timeoutSeconds"],
        0
    );
    assert_eq!(
        deploy(mk("AllMatches").resolve(&a)).1.helm.unwrap()["timeoutSeconds"],
        30
    );
}

#[test]
fn namespace_labels_come_from_every_entry_matched_or_not() {
    let cfg = FleetConfig::<()>::from_tailor_spec(
        &json!({"namespaceLabels": {"a": "root", "r": "1"},
                "targetCustomizations": [
                    {"name": "x", "clusterName": "nope", "namespaceLabels": {"a": "x", "x": "1"}},
                    {"name": "y", "clusterSelector": {}, "namespaceLabels": {"a": "y"}}]}),
        "spec",
    )
    .unwrap();
    let (_, o) = deploy(cfg.resolve(&cluster(json!({"name": "c"}))));
    assert_eq!(
        o.not_merged["namespaceLabels"],
        json!({"a": "y", "r": "1", "x": "1"})
    );
}

fn fleet_yaml(text: &str) -> FleetConfig {
    crate::parse_fleet_yaml::<()>(text).unwrap()
}

fn applied(d: &Decision) -> Option<Vec<String>> {
    match d {
        Decision::Deploy { matched, .. } => Some(matched.clone()),
        _ => None,
    }
}

#[test]
fn override_targets_select_the_clusters_and_customizations_still_apply() {
    // read.go: overrideTargets become the targets and the restrictions.
    let cfg = fleet_yaml(
        "overrideTargets: [{clusterSelector: {matchLabels: {env: prod}}}]\n\
         targetCustomizations: [{name: all, clusterSelector: {}}]\n",
    );
    let prod = cluster(json!({"name": "p", "labels": {"env": "prod"}}));
    let dev = cluster(json!({"name": "d", "labels": {"env": "dev"}}));
    assert_eq!(applied(&cfg.resolve(&prod)), Some(vec!["all".to_string()]));
    assert!(matches!(cfg.resolve(&dev), Decision::Skip { by, .. } if by == "overrideTargets"));
}

#[test]
fn an_empty_override_targets_makes_the_entries_plain_targets() {
    // No restrictions: no entry is a customization (determineIsCustomization); the first
    // matching entry is the target, its doNotDeploy skips, and no match gets nothing.
    let cfg = fleet_yaml(
        "overrideTargets: []\n\
         targetCustomizations:\n- {name: stop, clusterName: a, doNotDeploy: true}\n- {name: dev, clusterSelector: {matchLabels: {env: dev}}, namespace: ns}\n",
    );
    let a = cluster(json!({"name": "a", "labels": {"env": "dev"}}));
    let b = cluster(json!({"name": "b", "labels": {"env": "dev"}}));
    let c = cluster(json!({"name": "c"}));
    assert!(matches!(cfg.resolve(&a), Decision::Skip { by, .. } if by == "stop"));
    match cfg.resolve(&b) {
        Decision::Deploy { matched, options } => {
            assert_eq!(matched, ["dev"]);
            assert_eq!(options.namespace.as_deref(), Some("ns"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(cfg.resolve(&c), Decision::Skip { .. }));
    // With no entries at all, the default target is the group "default".
    let cfg = fleet_yaml("overrideTargets: []\n");
    let grouped = cluster(json!({"name": "g", "groups": [{"name": "default"}]}));
    assert!(applied(&cfg.resolve(&grouped)).is_some());
    assert!(matches!(cfg.resolve(&c), Decision::Skip { .. }));
}

#[test]
fn helm_and_kustomize_fields_refuse_for_the_clusters_they_apply_to() {
    let cfg = config(
        "FirstMatch",
        json!([{"name": "dev", "clusterSelector": {"matchLabels": {"env": "dev"}},
                "kustomize": {"dir": "overlays/dev"}}]),
    );
    let dev = cluster(json!({"name": "d", "labels": {"env": "dev"}}));
    let prod = cluster(json!({"name": "p", "labels": {"env": "prod"}}));
    match cfg.resolve(&dev) {
        Decision::Refuse { matched, message } => {
            assert_eq!(matched, ["dev"]);
            assert!(
                message.contains("spec.targetCustomizations[0].kustomize.dir \"overlays/dev\""),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(applied(&cfg.resolve(&prod)).is_some());
}

#[test]
fn clusters_with_equal_decision_keys_get_the_same_decision() {
    let spec = json!({
        "targetCustomizationMode": "AllMatches",
        "targetCustomizations": [
            {"name": "prod", "clusterSelector": {"matchLabels": {"env": "prod"}}, "namespace": "prod"},
            {"name": "eu", "clusterSelector": {"matchLabels": {"region": "eu"}}, "doNotDeploy": true},
        ],
    });
    let config = FleetConfig::<()>::from_tailor_spec(&spec, "spec").unwrap();
    let a = cluster(json!({"name": "a", "labels": {"env": "prod", "x": "1"}}));
    let b = cluster(json!({"name": "b", "labels": {"env": "prod", "x": "2"}}));
    let c = cluster(json!({"name": "c", "labels": {"env": "prod", "region": "eu"}}));
    assert_eq!(config.decision_key(&a), config.decision_key(&b));
    assert_ne!(config.decision_key(&a), config.decision_key(&c));
    let options = |c: &Cluster| match config.resolve(c) {
        Decision::Deploy { options, .. } => Some(options),
        _ => None,
    };
    assert_eq!(options(&a), options(&b));
    assert!(options(&c).is_none());
}
