//! Fleet's values tests (`target/target_test.go`, `options/calculate_test.go` TestMergeChain),
//! and cases derived from `builder.go` `preprocessHelmValues` by hand.

use serde_json::{json, Value};

use super::*;
use crate::parse_fleet_yaml;

fn cluster(v: Value) -> Cluster {
    Cluster::from_json(&v, "spec.cluster").unwrap()
}

/// The values for `cluster` of the bundle `fleet_yaml`.
fn values_of(fleet_yaml: &str, c: &Cluster, fleet: &FleetCluster) -> Result<Value, String> {
    let config = parse_fleet_yaml::<()>(fleet_yaml).unwrap();
    match cluster_values(
        &config,
        c,
        fleet,
        &[],
        &Budget::unlimited(),
        &ValuesCache::default(),
    )? {
        ClusterValues::Values { values, .. } => Ok(values.map_or(Value::Null, Value::Object)),
        ClusterValues::NotDeployed(why) => Err(why),
    }
}

fn labelled() -> Cluster {
    cluster(
        json!({"name": "my-cluster", "labels": {"name": "local", "envType": "dev"},
                   "annotations": {"testAnnotation": "test"}}),
    )
}

fn fleet_cluster() -> FleetCluster {
    FleetCluster {
        namespace: "dev-clusters".into(),
        template_values: json!({
            "topLevel": "foo",
            "nested": {"secondTier": {"thirdTier": "bar"}},
            "items": ["one", "two"],
            "list": ["alpha", "beta", "omega"],
        })
        .as_object()
        .cloned()
        .unwrap(),
    }
}

/// TestMergeChain: AllMatches merges base -> edge -> extra with MergeMaps.
#[test]
fn customizations_merge_values_key_by_key() {
    let yaml = "helm:\n  releaseName: base-release\n  values: {source: base, edge: 'false', extra: 'false'}\n\
                targetCustomizationMode: AllMatches\ntargetCustomizations:\n\
                - {name: edge, clusterSelector: {matchLabels: {edge: 'true'}}, helm: {values: {source: edge, edge: 'true'}}}\n\
                - {name: extra, clusterSelector: {matchLabels: {extra: 'true'}}, helm: {values: {source: extra, extra: 'true'}}}\n";
    let both = cluster(json!({"name": "c", "labels": {"edge": "true", "extra": "true"}}));
    assert_eq!(
        values_of(yaml, &both, &FleetCluster::default()).unwrap(),
        json!({"source": "extra", "edge": "true", "extra": "true"})
    );
    // FirstMatch: the first matching customization only, merged over the bundle's values;
    // nested maps merge, lists and scalars are replaced, a null stays null.
    let yaml = "helm:\n  values: {a: {x: 1, w: 2}, l: [1, 2], z: 1}\n\
                targetCustomizations:\n\
                - {name: one, clusterName: c, helm: {values: {a: {w: 3}, l: [9], z: null}}}\n\
                - {name: two, clusterName: c, helm: {values: {a: {z: 4}}}}\n";
    let c = cluster(json!({"name": "c"}));
    assert_eq!(
        values_of(yaml, &c, &FleetCluster::default()).unwrap(),
        json!({"a": {"x": 1, "w": 3}, "l": [9], "z": null})
    );
}

/// TestProcessLabelValues.
#[test]
fn legacy_cluster_label_strings_are_replaced() {
    let yaml = "namespace: default\nhelm:\n  releaseName: labels\n  values:\n    clusterName: global.fleet.clusterLabels.name\n    missing: global.fleet.clusterLabels.nope\n    customStruct:\n      - name: global.fleet.clusterLabels.name\n        key1: value1\n      - element1: global.fleet.clusterLabels.envType\n      - global.fleet.clusterLabels.name\n";
    assert_eq!(
        values_of(yaml, &labelled(), &FleetCluster::default()).unwrap(),
        json!({
            "clusterName": "local",
            "missing": "",
            "customStruct": [
                {"name": "local", "key1": "value1"},
                {"element1": "dev"},
                // A bare string in a list is not looked at.
                "global.fleet.clusterLabels.name",
            ],
        })
    );
}

/// TestProcessTemplateValues (without `list 1 2 3 | toJson`: sprig's list is not implemented,
/// see below).
#[test]
fn values_and_template_values_are_templated_with_the_cluster() {
    let yaml = r#"namespace: default
helm:
  releaseName: labels
  templateValues:
    mapData: |
      ${- range $key := .ClusterValues.items }
      "${ $key }":
        nested: "true"
      ${- end}
    listData: |
      ${- range $key := .ClusterValues.items }
      - "${ $key }":
        nested: "true"
      ${- end}
    overridden: "from-template"
  values:
    overridden: "from-values"
    clusterName: "${ .ClusterLabels.name }"
    fromAnnotation: "${ .ClusterAnnotations.testAnnotation }"
    clusterNamespace: "${ .ClusterNamespace }"
    fleetClusterName: "${ .ClusterName }"
    reallyLongClusterName: kubernets.io/cluster/${ index .ClusterLabels "envType" }
    missingLabel: |-
      ${ if hasKey .ClusterLabels "missing" }${ .ClusterLabels.missing }${ else }missing${ end}
    customStruct:
      - name: "${ .ClusterValues.topLevel }"
        key1: value1
      - element2: "${ .ClusterValues.nested.secondTier.thirdTier }"
      - "element3_${ .ClusterLabels.envType }": "${ .ClusterLabels.name }"
    funcs:
      upper: "${ .ClusterValues.topLevel | upper }_test"
      join: '${ .ClusterValues.list | join "," }'
    retyped: ${ len .ClusterValues.items }
"#;
    assert_eq!(
        values_of(yaml, &labelled(), &fleet_cluster()).unwrap(),
        json!({
            "overridden": "from-template",
            "clusterName": "local",
            "fromAnnotation": "test",
            "clusterNamespace": "dev-clusters",
            "fleetClusterName": "my-cluster",
            "reallyLongClusterName": "kubernets.io/cluster/dev",
            "missingLabel": "missing",
            "customStruct": [
                {"name": "foo", "key1": "value1"},
                {"element2": "bar"},
                {"element3_dev": "local"},
            ],
            "funcs": {"upper": "FOO_test", "join": "alpha,beta,omega"},
            // The rendered text is read back as YAML: scalars take their types again.
            "retyped": 2,
            "mapData": {"one": {"nested": "true"}, "two": {"nested": "true"}},
            "listData": [{"one": null, "nested": "true"}, {"two": null, "nested": "true"}],
        })
    );
}

/// TestDisablePreProcessFlagEnabled: the legacy label substitution still runs, the templates
/// do not.
#[test]
fn disable_pre_process_leaves_templates_literal() {
    let yaml = "helm:\n  disablePreprocess: true\n  values:\n    clusterName: \"${ .ClusterName }\"\n    syntaxError: \"${ non_existent_function }\"\n    legacy: global.fleet.clusterLabels.name\n";
    assert_eq!(
        values_of(yaml, &labelled(), &FleetCluster::default()).unwrap(),
        json!({"clusterName": "${ .ClusterName }", "syntaxError": "${ non_existent_function }", "legacy": "local"})
    );
}

#[test]
fn without_labels_nothing_is_templated() {
    let yaml = "helm:\n  values:\n    clusterName: \"${ .ClusterName }\"\n";
    let bare = cluster(json!({"name": "c"}));
    assert_eq!(
        values_of(yaml, &bare, &FleetCluster::default()).unwrap(),
        json!({"clusterName": "${ .ClusterName }"})
    );
    // Labels Fleet cleans for export do not count; fleet.cattle.io/ ones are put back.
    let cattle = cluster(
        json!({"name": "c", "labels": {"x.cattle.io/a": "1", "kubectl.kubernetes.io/b": "2"}}),
    );
    assert_eq!(
        values_of(yaml, &cattle, &FleetCluster::default()).unwrap(),
        json!({"clusterName": "${ .ClusterName }"})
    );
    let fleet_label = cluster(json!({"name": "c", "labels": {"fleet.cattle.io/x": "1"}}));
    assert_eq!(
        values_of(
            "helm:\n  values:\n    x: '${ index .ClusterLabels \"fleet.cattle.io/x\" }'\n    name: \"${ .ClusterName }\"\n",
            &fleet_label,
            &FleetCluster::default()
        )
        .unwrap(),
        json!({"x": 1, "name": "c"})
    );
    // No helm at all: Helm gets no values.
    assert_eq!(
        values_of("namespace: x\n", &labelled(), &FleetCluster::default()).unwrap(),
        Value::Null
    );
}

#[test]
fn template_errors_are_fleets() {
    let e = values_of(
        "helm:\n  values:\n    a: \"${ .ClusterLabels.nope }\"\n",
        &labelled(),
        &FleetCluster::default(),
    )
    .unwrap_err();
    assert!(
        e.starts_with(
            "cluster \"my-cluster\": failed to render helm values template: template: values:1:"
        ),
        "{e}"
    );
    assert!(e.ends_with("map has no entry for key \"nope\""), "{e}");
    // sprig's list functions are Fleet's (sprig.TxtFuncMap); Helm's own toYaml is not.
    let ok = values_of(
        "helm:\n  values:\n    list: ${ list 1 2 3 \"a\" | uniq | toJson }\n",
        &labelled(),
        &FleetCluster::default(),
    )
    .unwrap();
    assert_eq!(ok, json!({"list": [1, 2, 3, "a"]}));
    let e = values_of(
        "helm:\n  values:\n    a: '${ toYaml .ClusterLabels }'\n",
        &labelled(),
        &FleetCluster::default(),
    )
    .unwrap_err();
    assert!(e.contains("function \"toYaml\" not defined"), "{e}");
    let e = values_of(
        "helm:\n  values:\n    a: '${ getHostByName \"x\" }'\n",
        &labelled(),
        &FleetCluster::default(),
    )
    .unwrap_err();
    assert!(e.contains("function \"getHostByName\" not defined"), "{e}");
}

#[test]
fn clusters_without_the_bundle_have_no_values() {
    let yaml = "targetCustomizations:\n- {name: stop, clusterName: c, doNotDeploy: true}\n";
    let e = values_of(
        yaml,
        &cluster(json!({"name": "c"})),
        &FleetCluster::default(),
    )
    .unwrap_err();
    assert!(e.contains("doNotDeploy"), "{e}");
}

#[test]
fn values_print_as_helm_reads_them() {
    let v = json!({"b": 3.0, "a": {"z": "on", "w": 1.5}, "y": 1})
        .as_object()
        .cloned()
        .unwrap();
    assert_eq!(to_yaml(&v), "a:\n  w: 1.5\n  z: \"on\"\nb: 3\n\"y\": 1\n");
}

/// fleet.yaml is YAML 1.1 to Fleet: `y` and `n` keys are booleans, which become the keys
/// "true" and "false".
#[test]
fn yaml_1_1_keys() {
    assert_eq!(
        values_of(
            "helm:\n  values: {y: 1, n: 2}\n",
            &cluster(json!({"name": "c"})),
            &FleetCluster::default()
        )
        .unwrap(),
        json!({"true": 1, "false": 2})
    );
}

/// Fleet templates the values for every cluster: the text they generate and the nodes their
/// aliases expand to spend the run's budget, one budget for all the clusters.
#[test]
fn templating_and_aliases_spend_the_run_budget() {
    let config = parse_fleet_yaml::<()>(
        "helm:\n  values: {pad: 'x${ printf \"%0*d\" 1000 1 }'}\n  templateValues:\n    list: 'a: &a [x, x, x, x, x, x, x, x, x, x]\n\n      b: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]'\n",
    )
    .unwrap();
    let c = labelled();
    let fleet = FleetCluster::default();
    let values = |budget: &Budget| match cluster_values(
        &config,
        &c,
        &fleet,
        &[],
        budget,
        &ValuesCache::default(),
    ) {
        Ok(ClusterValues::Values { values, .. }) => Ok(values.unwrap()),
        Ok(ClusterValues::NotDeployed(why)) => panic!("{why}"),
        Err(e) => Err(e),
    };
    let v = values(&Budget::unlimited()).unwrap();
    assert_eq!(v["pad"].as_str().map(str::len), Some(1001));
    assert_eq!(v["list"]["b"].as_array().map(Vec::len), Some(10));
    // About 2 KB of text a cluster (the printf and the output): 5 clusters pass 8 KB.
    let bytes = Budget::new(8_000, u64::MAX);
    let e = (0..5).find_map(|_| values(&bytes).err()).expect("runs out");
    assert!(e.starts_with("cluster \"my-cluster\": "), "{e}");
    assert!(e.contains("spec.limits.maxRunOutputBytes"), "{e}");
    // 110 nodes a cluster expanded from aliases (10 aliases to a list of 10): the third
    // cluster passes 300 steps, with the template's own steps.
    let steps = Budget::new(u64::MAX, 300);
    let e = (0..3).find_map(|_| values(&steps).err()).expect("runs out");
    assert!(e.contains("spec.limits.maxRunEvaluationSteps"), "{e}");
    // The error names the budget, not the text that spent it.
    assert!(
        e.starts_with("cluster \"my-cluster\": the run exceeds"),
        "{e}"
    );
}
