use serde_json::json;

use super::*;

fn spec(v: Value) -> Result<FleetConfig, String> {
    FleetConfig::<()>::from_tailor_spec(&v, "spec").map_err(|e| e[0].to_string())
}

#[test]
fn reads_mode_entries_and_root_options() {
    let c = FleetConfig::<crate::testing::Names>::from_tailor_spec(
        &json!({
            "targetCustomizationMode": "AllMatches",
            "namePrefix": "root-",
            "targetCustomizations": [
                {"name": "a", "clusterName": "virgo", "doNotDeploy": true},
                {"clusterGroup": "g", "namespace": "ns"}
            ],
            "strip": {"builtin": true}
        }),
        "spec",
    )
    .unwrap();
    assert_eq!(c.mode, Mode::AllMatches);
    assert_eq!(c.root.extra.prefix.as_deref(), Some("root-"));
    assert_eq!(c.customizations.len(), 2);
    assert_eq!(c.customizations[0].name, "a");
    assert!(c.customizations[0].do_not_deploy);
    assert_eq!(
        c.customizations[0].field_path,
        "spec.targetCustomizations[0]"
    );
    // Unnamed entries are named target%03d by position.
    assert_eq!(c.customizations[1].name, "target001");
    assert_eq!(c.customizations[1].options.namespace.as_deref(), Some("ns"));
}

#[test]
fn mode_values() {
    assert_eq!(spec(json!({})).unwrap().mode, Mode::FirstMatch);
    assert_eq!(
        spec(json!({"targetCustomizationMode": ""})).unwrap().mode,
        Mode::FirstMatch
    );
    assert_eq!(
        spec(json!({"targetCustomizationMode": "FirstMatch"}))
            .unwrap()
            .mode,
        Mode::FirstMatch
    );
    assert_eq!(
        spec(json!({"targetCustomizationMode": "allmatches"})).unwrap_err(),
        "spec.targetCustomizationMode: unsupported value \"allmatches\"; accepted values: FirstMatch, AllMatches"
    );
}

#[test]
fn unknown_entry_fields_name_the_path() {
    let e = spec(json!({"targetCustomizations": [{}, {}, {"clusterSelektor": {}}]})).unwrap_err();
    assert!(
        e.starts_with(
            "spec.targetCustomizations[2].clusterSelektor: unknown field (did you mean \"clusterSelector\"?); accepted fields: "
        ),
        "{e}"
    );
    // The Tailor dialect is case-sensitive and says what was probably meant.
    let e = spec(json!({"targetCustomizations": [{"clusterselector": {}}]})).unwrap_err();
    assert!(e.contains("(did you mean \"clusterSelector\"?)"), "{e}");
}

#[test]
fn invalid_selectors_and_types_are_errors() {
    let e = spec(
        json!({"targetCustomizations": [{"clusterSelector": {"matchExpressions":
        [{"key": "env", "operator": "Foo"}]}}]}),
    )
    .unwrap_err();
    assert!(
        e.starts_with("spec.targetCustomizations[0].clusterSelector.matchExpressions[0]"),
        "{e}"
    );
    assert_eq!(
        spec(json!({"targetCustomizations": [{"doNotDeploy": "yes"}]})).unwrap_err(),
        "spec.targetCustomizations[0].doNotDeploy: expected a boolean, got string"
    );
    assert_eq!(
        spec(json!({"targetCustomizations": {}})).unwrap_err(),
        "spec.targetCustomizations: expected a list, got map"
    );
    assert_eq!(
        spec(json!({"targetCustomizations": ["x"]})).unwrap_err(),
        "spec.targetCustomizations[0]: expected a map, got string"
    );
}

#[test]
fn fleet_yaml_of_the_multi_cluster_example() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/multi-cluster/fleet.yaml"
    ))
    .unwrap();
    let c = parse_fleet_yaml::<()>(&text).unwrap();
    assert_eq!(c.mode, Mode::FirstMatch);
    assert_eq!(
        c.root.namespace.as_deref(),
        Some("fleet-mc-manifest-example")
    );
    let names: Vec<_> = c.customizations.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["dev", "test", "prod"]);
    assert_eq!(
        c.customizations[2].options.yaml_overlays,
        ["servicelb", "scale3"]
    );
    assert!(c.notes.is_empty(), "{:?}", c.notes);
}

#[test]
fn fleet_yaml_keys_fold_case_and_legacy_targets_come_first() {
    let c = parse_fleet_yaml::<()>(
        "defaultnamespace: d\nTargetCustomizations:\n- name: b\n  ClusterSelector:\n    MatchLabels: {env: prod}\n\
         targets:\n- clusterName: x\n  Yaml: {Overlays: [o]}\nlabels: {a: b}\ndependsOn: [{name: x}]\n",
    )
    .unwrap();
    assert_eq!(c.root.default_namespace.as_deref(), Some("d"));
    let names: Vec<_> = c.customizations.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["target000", "b"]);
    assert_eq!(c.customizations[0].options.yaml_overlays, ["o"]);
    assert_eq!(c.customizations[1].field_path, "targetCustomizations[0]");
    assert!(c.customizations[1].criteria.cluster_selector.is_some());
    // labels and dependsOn change nothing Fleet deploys: no note.
    assert!(c.notes.is_empty(), "{:?}", c.notes);
}

#[test]
fn fleet_yaml_errors_name_the_field() {
    assert_eq!(
        parse_fleet_yaml::<()>("namespace: [a]\n").unwrap_err()[0].to_string(),
        "namespace: expected a string, got list"
    );
    // Unknown keys are dropped with a warning, as Fleet's decoder drops them.
    let c = parse_fleet_yaml::<()>("targetCustomizations:\n- clusterSelektor: {}\n").unwrap();
    assert_eq!(
        c.notes[0].to_string(),
        "fleet.yaml targetCustomizations[0].clusterSelektor: unknown field (did you mean \"clusterSelector\"?); Fleet ignores it, and so does tailor"
    );
    assert!(!c.notes[0].is_error());
    assert!(!parse_fleet_yaml::<()>("bogus: 1\n").unwrap().notes[0].is_error());
    assert!(parse_fleet_yaml::<()>("a: [\n").unwrap_err()[0]
        .to_string()
        .starts_with("fleet.yaml: yaml: "));
    // sigs.k8s.io/yaml reads the first document only.
    assert_eq!(
        parse_fleet_yaml::<()>("namespace: a\n---\nnamespace: b\n")
            .unwrap()
            .root
            .namespace
            .as_deref(),
        Some("a")
    );
    assert_eq!(
        parse_fleet_yaml::<()>("# nothing\n").unwrap(),
        FleetConfig::default()
    );
    assert_eq!(parse_fleet_yaml::<()>("").unwrap(), FleetConfig::default());
}

#[test]
fn fleet_yaml_helm_and_friends_are_reported_as_not_modeled() {
    let c = parse_fleet_yaml::<()>(
        "helm: {releaseName: r}\nkeepResources: true\nrolloutStrategy: {}\npaused: true\n\
         targetCustomizations:\n- {name: a, clusterName: a, helm: {values: {x: 1}}}\n",
    )
    .unwrap();
    let texts: Vec<String> = c.notes.iter().map(|n| n.to_string()).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[0].starts_with("fleet.yaml helm.releaseName, helm.values: Helm options"));
    assert!(texts[0].ends_with("(set in the bundle, targetCustomizations[0])"));
    assert!(texts[1].starts_with("fleet.yaml keepResources: "));
    assert!(texts[2].starts_with("fleet.yaml paused: "));
    assert!(c.notes.iter().all(|n| !n.is_error()));
}

#[test]
fn fleet_yaml_values_are_read_as_yaml_1_1() {
    let c = parse_fleet_yaml::<()>("helm:\n  values: {a: on, b: 0777}\n").unwrap();
    assert_eq!(
        c.root.helm.unwrap()["values"],
        serde_json::json!({"a": true, "b": 511})
    );
}

#[test]
fn override_targets_are_read_as_criteria() {
    let c = parse_fleet_yaml::<()>(
        "overrideTargets:\n- clusterName: one\n- ClusterSelector: {MatchLabels: {env: prod}}\n",
    )
    .unwrap();
    let t = c.override_targets.unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].cluster_name.as_deref(), Some("one"));
    assert!(t[1].cluster_selector.is_some());
    assert_eq!(parse_fleet_yaml::<()>("").unwrap().override_targets, None);
    assert_eq!(
        parse_fleet_yaml::<()>("overrideTargets: []\n")
            .unwrap()
            .override_targets,
        Some(vec![])
    );
}
