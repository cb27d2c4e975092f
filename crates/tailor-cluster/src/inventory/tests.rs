use super::*;
use serde_json::json;

use tailor_testkit::string_map as m;

fn managed(name: &str, labels: Value, annotations: Value) -> Value {
    json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
           "metadata": {"name": name, "labels": labels, "annotations": annotations}})
}

fn props_cm(name: &str, data: Value, binary: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": "customization-properties"},
           "data": data, "binaryData": binary})
}

fn fleet_cluster(ns: &str, name: &str, labels: Value) -> Value {
    json!({"apiVersion": "fleet.cattle.io/v1alpha1", "kind": "Cluster",
           "metadata": {"name": name, "namespace": ns, "labels": labels}})
}

fn fleet_group(ns: &str, name: &str, labels: Value, selector: Value) -> Value {
    json!({"apiVersion": "fleet.cattle.io/v1alpha1", "kind": "ClusterGroup",
           "metadata": {"name": name, "namespace": ns, "labels": labels},
           "spec": {"selector": selector}})
}

fn destination(name: &str, labels: Value, strict: Value) -> Value {
    json!({"apiVersion": "platform.kratix.io/v1alpha1", "kind": "Destination",
           "metadata": {"name": name, "labels": labels},
           "spec": {"strictMatchLabels": strict, "path": "x"}})
}

fn inv(items: &[Value]) -> Inventory {
    Inventory::from_items(items).unwrap()
}

fn err(items: &[Value]) -> String {
    Inventory::from_items(items).unwrap_err().to_string()
}

// ---- recognition ----

#[test]
fn recognises_each_kind() {
    assert_eq!(
        inventory_kind(&managed("a", json!({}), json!({}))),
        Some(InventoryKind::ManagedCluster)
    );
    assert_eq!(
        inventory_kind(&fleet_cluster("ns", "a", json!({}))),
        Some(InventoryKind::FleetCluster)
    );
    assert_eq!(
        inventory_kind(&fleet_group("ns", "g", json!({}), json!({}))),
        Some(InventoryKind::FleetClusterGroup)
    );
    assert_eq!(
        inventory_kind(&destination("a", json!({}), json!(false))),
        Some(InventoryKind::Destination)
    );
    assert_eq!(
        inventory_kind(&props_cm("a", json!({}), json!({}))),
        Some(InventoryKind::PropertiesConfigMap)
    );
}

#[test]
fn ordinary_objects_are_not_inventory() {
    for v in [
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "default"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}),
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a"}}),
        json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "Cluster", "metadata": {"name": "a"}}),
        json!({"apiVersion": "fleet.cattle.io/v1alpha1", "kind": "Bundle"}),
        json!({"apiVersion": "platform.kratix.io/v1alpha1", "kind": "Promise"}),
        json!({"kind": "ManagedCluster"}),
        json!("not an object"),
        json!(null),
        json!({"apiVersion": 1, "kind": []}),
    ] {
        assert!(!is_inventory(&v), "{v}");
    }
}

#[test]
fn non_inventory_items_are_ignored() {
    let i = inv(&[
        json!({"apiVersion": "apps/v1", "kind": "Deployment"}),
        json!(42),
    ]);
    assert!(i.is_empty());
    assert_eq!(i.resolve("x"), None);
}

// ---- KubeStellar precedence ----

#[test]
fn kubestellar_docs_example() {
    // docs/semantics/kubestellar.md §3.8: inventory virgo +
    // customization-properties/virgo data.clusterHash.
    let i = inv(&[
        managed("virgo", json!({}), json!({})),
        props_cm(
            "virgo",
            json!({"clusterHash": "1001-dead-beef"}),
            json!(null),
        ),
    ]);
    let c = i.resolve("virgo").unwrap();
    assert_eq!(
        c.properties,
        m(&[("clusterHash", "1001-dead-beef"), ("clusterName", "virgo")])
    );
}

#[test]
fn precedence_binary_data_over_data_over_annotations_over_labels_over_cluster_name() {
    let i = inv(&[
        managed(
            "virgo",
            json!({"l": "label", "la": "label", "lad": "label", "ladb": "label"}),
            json!({"la": "annotation", "lad": "annotation", "ladb": "annotation"}),
        ),
        // binaryData "YmluYXJ5" = "binary"
        props_cm(
            "virgo",
            json!({"lad": "data", "ladb": "data"}),
            json!({"ladb": "YmluYXJ5"}),
        ),
    ]);
    let p = i.resolve("virgo").unwrap().properties;
    assert_eq!(p["l"], "label");
    assert_eq!(p["la"], "annotation");
    assert_eq!(p["lad"], "data");
    assert_eq!(p["ladb"], "binary");
    assert_eq!(p["clusterName"], "virgo");
}

#[test]
fn cluster_name_can_be_overridden_at_every_level() {
    let by_label = inv(&[managed("v", json!({"clusterName": "L"}), json!({}))]);
    assert_eq!(
        by_label.resolve("v").unwrap().properties["clusterName"],
        "L"
    );
    let by_annotation = inv(&[managed(
        "v",
        json!({"clusterName": "L"}),
        json!({"clusterName": "A"}),
    )]);
    assert_eq!(
        by_annotation.resolve("v").unwrap().properties["clusterName"],
        "A"
    );
    let by_data = inv(&[
        managed("v", json!({}), json!({"clusterName": "A"})),
        props_cm("v", json!({"clusterName": "D"}), json!(null)),
    ]);
    assert_eq!(by_data.resolve("v").unwrap().properties["clusterName"], "D");
    // The cluster's name itself never changes.
    assert_eq!(by_data.resolve("v").unwrap().name, "v");
}

#[test]
fn only_identifier_keys_become_properties() {
    let i = inv(&[
        managed(
            "v",
            json!({"kubernetes.io/os": "linux", "region": "eu", "location-group": "g"}),
            json!({"foo.bar": "x", "type": "y", "owner": "o"}),
        ),
        props_cm(
            "v",
            json!({"1a": "no", "ok_1": "yes"}),
            json!({"bad-key": "eA=="}),
        ),
    ]);
    let c = i.resolve("v").unwrap();
    assert_eq!(
        c.properties,
        m(&[
            ("clusterName", "v"),
            ("ok_1", "yes"),
            ("owner", "o"),
            ("region", "eu")
        ])
    );
    // Labels and annotations themselves are all kept.
    assert_eq!(c.labels.len(), 3);
    assert_eq!(c.annotations.len(), 3);
    // ConfigMap keys that are skipped are reported.
    assert_eq!(i.warnings().len(), 2, "{:?}", i.warnings());
    assert!(i.warnings()[0].starts_with(
        "items[1].data.1a: key \"1a\" is not a Go identifier, so it is not a property"
    ));
    assert!(i.warnings()[1].starts_with("items[1].binaryData.bad-key: key \"bad-key\""));
}

#[test]
fn errors_name_the_place_the_caller_gives() {
    let bad = json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": {"name": 7}});
    let mut i = Inventory::default();
    let plain = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    assert!(i.add_item(&plain, "items[0]").is_ok());
    let e = i.add_item(&bad, "items[0].items[3]").unwrap_err();
    assert_eq!(e.field, "items[0].items[3].metadata.name");
    // Without a place, paths are relative to the item.
    let e = i.add_item(&bad, "").unwrap_err();
    assert_eq!(
        e.to_string(),
        "metadata.name: expected a string, got number (quote the value)"
    );
}

#[test]
fn configmap_alone_is_enough_and_missing_pieces_are_skipped() {
    let i = inv(&[props_cm("v", json!({"a": "1"}), json!(null))]);
    let c = i.resolve("v").unwrap();
    assert_eq!(c.properties, m(&[("a", "1"), ("clusterName", "v")]));
    assert!(c.labels.is_empty());
    let i = inv(&[managed("v", json!({"a": "1"}), json!(null))]);
    assert_eq!(
        i.resolve("v").unwrap().properties,
        m(&[("a", "1"), ("clusterName", "v")])
    );
}

#[test]
fn configmap_labels_are_not_cluster_labels() {
    let mut cm = props_cm("v", json!({}), json!(null));
    cm["metadata"]["labels"] = json!({"x": "y"});
    let c = inv(&[cm]).resolve("v").unwrap();
    assert!(c.labels.is_empty());
    assert!(!c.properties.contains_key("x"));
}

#[test]
fn binary_data_is_decoded() {
    let i = inv(&[props_cm(
        "v",
        json!(null),
        json!({"hash": "MTAwMS1kZWFkLWJlZWY="}),
    )]);
    assert_eq!(i.resolve("v").unwrap().properties["hash"], "1001-dead-beef");
    assert!(i.warnings().is_empty());
}

#[test]
fn binary_data_that_is_not_utf8_is_replaced_and_reported() {
    let i = inv(&[props_cm("v", json!(null), json!({"raw": "//79"}))]);
    assert_eq!(
        i.resolve("v").unwrap().properties["raw"],
        "\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    assert_eq!(i.warnings().len(), 1);
    assert!(i.warnings()[0].starts_with("items[0].binaryData.raw: value is not UTF-8"));
}

#[test]
fn bad_binary_data_is_an_error() {
    assert_eq!(
        err(&[props_cm("v", json!(null), json!({"k": "!!"}))]),
        "items[0].binaryData.k: illegal base64 data at input byte 0 [ConfigMap customization-properties/v]"
    );
}

// ---- merging kinds ----

#[test]
fn kinds_with_the_same_name_merge_in_item_order() {
    let i = inv(&[
        managed("v", json!({"a": "ocm", "b": "ocm"}), json!({"x": "1"})),
        fleet_cluster("fleet-default", "v", json!({"b": "fleet", "c": "fleet"})),
        destination("v", json!({"c": "kratix"}), json!(true)),
    ]);
    let c = i.resolve("v").unwrap();
    assert_eq!(
        c.labels,
        m(&[("a", "ocm"), ("b", "fleet"), ("c", "kratix")])
    );
    assert_eq!(c.annotations, m(&[("x", "1")]));
    assert!(c.strict_match_labels);
    assert_eq!(i.cluster_names(), ["v"]);
}

#[test]
fn two_objects_of_one_kind_with_one_name_are_ambiguous() {
    let e = err(&[
        fleet_cluster("a", "v", json!({})),
        fleet_cluster("b", "v", json!({})),
    ]);
    assert_eq!(
        e,
        "items[1].metadata.name: a second Cluster.fleet.cattle.io named \"v\" (the first is Cluster.fleet.cattle.io a/v); a cluster name must identify one object of each kind"
    );
    assert!(err(&[
        props_cm("v", json!({}), json!(null)),
        props_cm("v", json!({}), json!(null))
    ])
    .contains("a second ConfigMap"));
    assert!(err(&[
        fleet_group("ns", "g", json!({}), json!({})),
        fleet_group("ns", "g", json!({}), json!({}))
    ])
    .contains("duplicate ClusterGroup.fleet.cattle.io ns/g"));
    // Same group name in two namespaces is fine.
    inv(&[
        fleet_group("a", "g", json!({}), json!({})),
        fleet_group("b", "g", json!({}), json!({})),
    ]);
}

#[test]
fn cluster_names_are_sorted() {
    let i = inv(&[
        managed("b", json!({}), json!({})),
        destination("a", json!({}), json!(null)),
        props_cm("c", json!({}), json!(null)),
    ]);
    assert_eq!(i.cluster_names(), ["a", "b", "c"]);
    assert!(i.contains("c"));
    assert!(!i.contains("d"));
}

// ---- Kratix ----

#[test]
fn destination_strict_match_labels() {
    assert!(
        !inv(&[destination("d", json!({}), json!(null))])
            .resolve("d")
            .unwrap()
            .strict_match_labels
    );
    assert!(
        !inv(&[destination("d", json!({}), json!(false))])
            .resolve("d")
            .unwrap()
            .strict_match_labels
    );
    assert!(
        inv(&[destination("d", json!({"strict": "true"}), json!(true))])
            .resolve("d")
            .unwrap()
            .strict_match_labels
    );
    assert!(err(&[destination("d", json!({}), json!("true"))])
        .starts_with("items[0].spec.strictMatchLabels: expected a boolean, got string"));
}

// ---- Fleet groups ----

#[test]
fn fleet_groups_by_selector_in_the_cluster_namespace() {
    let i = inv(&[
        fleet_cluster(
            "fleet-default",
            "one",
            json!({"env": "prod", "region": "eu"}),
        ),
        fleet_cluster("fleet-default", "two", json!({"env": "dev"})),
        fleet_group(
            "fleet-default",
            "prod",
            json!({"tier": "gold"}),
            json!({"matchLabels": {"env": "prod"}}),
        ),
        fleet_group("fleet-default", "all", json!({}), json!({})),
        fleet_group("fleet-default", "none", json!({}), json!(null)),
        fleet_group(
            "other-ns",
            "eu",
            json!({}),
            json!({"matchLabels": {"region": "eu"}}),
        ),
        fleet_group(
            "fleet-default",
            "not-dev",
            json!({}),
            json!({"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["dev"]}]}),
        ),
    ]);
    let one = i.resolve("one").unwrap();
    assert_eq!(
        one.groups
            .iter()
            .map(|g| g.name.as_str())
            .collect::<Vec<_>>(),
        ["all", "not-dev", "prod"]
    );
    assert_eq!(one.group("prod").unwrap().labels, m(&[("tier", "gold")]));
    let two = i.resolve("two").unwrap();
    assert_eq!(
        two.groups
            .iter()
            .map(|g| g.name.as_str())
            .collect::<Vec<_>>(),
        ["all"]
    );
}

#[test]
fn group_without_spec_has_no_members() {
    let mut g = fleet_group("ns", "g", json!({}), json!({}));
    g.as_object_mut().unwrap().remove("spec");
    let i = inv(&[fleet_cluster("ns", "c", json!({})), g]);
    assert!(i.resolve("c").unwrap().groups.is_empty());
}

#[test]
fn non_fleet_clusters_get_no_inventory_groups() {
    let i = inv(&[
        managed("c", json!({}), json!({})),
        fleet_group("", "all", json!({}), json!({})),
    ]);
    assert!(i.resolve("c").unwrap().groups.is_empty());
    // A Fleet Cluster without namespace sees groups without namespace.
    let i = inv(&[
        fleet_cluster("", "c", json!({})),
        fleet_group("", "all", json!({}), json!({})),
    ]);
    assert_eq!(i.resolve("c").unwrap().groups.len(), 1);
}

#[test]
fn invalid_group_selector_is_an_error() {
    let e = err(&[fleet_group(
        "ns",
        "g",
        json!({}),
        json!({"matchExpressions": [{"key": "a", "operator": "Foo"}]}),
    )]);
    assert_eq!(
        e,
        "items[0].spec.selector.matchExpressions[0].operator: unsupported operator \"Foo\" (expected In, NotIn, Exists or DoesNotExist) [ClusterGroup.fleet.cattle.io ns/g]"
    );
}

// ---- malformed items ----

#[test]
fn malformed_items_name_the_field() {
    assert_eq!(
        err(&[
            json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster"})
        ]),
        "items[0].metadata: required: inventory items need metadata.name"
    );
    assert_eq!(
        err(&[
            json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": {}})
        ]),
        "items[0].metadata.name: required: a ManagedCluster needs a name"
    );
    assert_eq!(
        err(&[
            json!({"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": []})
        ]),
        "items[0].metadata: expected a map, got list"
    );
    assert_eq!(
        err(&[json!({"apiVersion": "apps/v1", "kind": "Deployment"}), managed("v", json!({"n": 1}), json!({}))]),
        "items[1].metadata.labels.n: expected a string, got number (quote the value) [ManagedCluster v]"
    );
    assert_eq!(
        err(&[props_cm("v", json!({"n": true}), json!(null))]),
        "items[0].data.n: expected a string, got boolean (quote the value) [ConfigMap customization-properties/v]"
    );
    assert!(err(&[fleet_group("ns", "g", json!({}), json!("env=prod"))])
        .starts_with("items[0].spec.selector: expected a map, got string"));
}

// ---- inline spec.cluster merged with the inventory ----

fn spec(v: Value) -> ClusterSpec {
    ClusterSpec::from_json(&v, "spec.cluster").unwrap()
}

#[test]
fn inline_name_alone_resolves_from_inventory() {
    let i = inv(&[managed("virgo", json!({"env": "prod"}), json!({}))]);
    let c = i.resolve_spec(&spec(json!({"name": "virgo"})));
    assert_eq!(c, i.resolve("virgo").unwrap());
    assert_eq!(c.labels, m(&[("env", "prod")]));
}

#[test]
fn inline_without_inventory_entry_stands_alone() {
    let i = inv(&[managed("other", json!({"env": "prod"}), json!({}))]);
    let s = spec(json!({"name": "virgo", "labels": {"a": "b"}}));
    assert_eq!(i.resolve_spec(&s), s.to_cluster());
}

#[test]
fn inline_wins_level_by_level() {
    let i = inv(&[
        fleet_cluster("ns", "virgo", json!({"env": "prod", "region": "eu"})),
        managed(
            "virgo",
            json!({}),
            json!({"owner": "inventory", "note": "kept"}),
        ),
        props_cm(
            "virgo",
            json!({"region": "from-cm", "hash": "cm"}),
            json!(null),
        ),
        destination("virgo", json!({}), json!(true)),
    ]);
    let c = i.resolve_spec(&spec(json!({
        "name": "virgo",
        "labels": {"env": "staging", "region": "us"},
        "annotations": {"owner": "inline"},
        "properties": {"hash": "inline"},
        "strictMatchLabels": false
    })));
    assert_eq!(c.labels, m(&[("env", "staging"), ("region", "us")]));
    assert_eq!(c.annotations, m(&[("note", "kept"), ("owner", "inline")]));
    assert!(!c.strict_match_labels);
    // Inline label beats the inventory label...
    assert_eq!(c.properties["env"], "staging");
    // ...but the ConfigMap is a higher level than any label, as in KubeStellar.
    assert_eq!(c.properties["region"], "from-cm");
    // Inline properties beat the ConfigMap.
    assert_eq!(c.properties["hash"], "inline");
    assert_eq!(c.properties["owner"], "inline");
}

#[test]
fn inline_labels_change_fleet_group_membership_and_inline_groups_replace() {
    let i = inv(&[
        fleet_cluster("ns", "c", json!({"env": "prod"})),
        fleet_group(
            "ns",
            "prod",
            json!({"tier": "gold"}),
            json!({"matchLabels": {"env": "prod"}}),
        ),
        fleet_group(
            "ns",
            "dev",
            json!({}),
            json!({"matchLabels": {"env": "dev"}}),
        ),
        fleet_group("ns", "all", json!({"x": "inventory"}), json!({})),
    ]);
    let c = i.resolve_spec(&spec(json!({"name": "c", "labels": {"env": "dev"}, "groups": [{"name": "all", "labels": {"x": "inline"}}, {"name": "extra"}]})));
    assert_eq!(
        c.groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(),
        ["all", "dev", "extra"]
    );
    assert_eq!(c.group("all").unwrap().labels, m(&[("x", "inline")]));
}

#[test]
fn strict_match_labels_falls_back_to_the_destination() {
    let i = inv(&[destination("d", json!({}), json!(true))]);
    assert!(
        i.resolve_spec(&spec(json!({"name": "d"})))
            .strict_match_labels
    );
}
