//! Golden tests of the KRM protocol: input forms, results, errors, fan-out, inventory.
mod common;

use common::run_tailor;

fn snapshot(name: &str, args: &[&str], input: &str) {
    let r = run_tailor(args, input);
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        r.code, r.stdout, r.stderr
    );
    insta::assert_snapshot!(name, text);
}

const CM: &str =
    "  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: v\n";

#[test]
fn resource_list_versions() {
    for v in ["v1", "v1beta1", "v1alpha1"] {
        let input = format!(
            "apiVersion: config.kubernetes.io/{v}\nkind: ResourceList\nitems:\n-{}",
            &CM[1..]
        );
        let r = run_tailor(&[], &input);
        assert_eq!(r.code, 0, "{v}: {}", r.stderr);
        assert!(r.stdout.starts_with("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n"), "{v}: {}", r.stdout);
    }
}

#[test]
fn kind_list_json_and_flow() {
    snapshot("list_kind", &[], "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n");
    snapshot(
        "json_input",
        &[],
        r#"{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","annotations":{"n":"0"}},"data":{"on":"yes"}}]}"#,
    );
}

#[test]
fn empty_and_missing_items() {
    snapshot("no_items", &[], "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n");
    snapshot("empty_input", &[], "");
}

/// A `*List` is a container, as kpt and kubectl keep it: untouched it comes back as it was;
/// the stages tailor its items where they are (the built-in strip here).
#[test]
fn lists_stay_containers() {
    snapshot("configmaplist", &[], "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMapList\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: one\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: two\n");
    snapshot("configmaplist_stripped", &[], "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# the exported settings\n- apiVersion: v1\n  kind: List\n  metadata:\n    resourceVersion: \"\"\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: one # first\n      uid: 8d4e1a4c\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: two\n");
}

#[test]
fn bad_input_is_an_error_result() {
    snapshot(
        "malformed_yaml",
        &[],
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- a: b\n  c: [d\n",
    );
    snapshot(
        "item_not_a_map",
        &[],
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- just a string\n",
    );
    snapshot(
        "items_not_a_list",
        &[],
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {a: b}\n",
    );
    snapshot("unknown_config_kind", &[], &format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n-{}functionConfig:\n  apiVersion: example.com/v1\n  kind: Mystery\n  metadata:\n    name: x\n", &CM[1..]));
    snapshot("wrong_shape_config", &[], &format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n-{}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: x\n  spec:\n    cluster: {{labels: {{env: prod}}}}\n    strip: yes-please\n    bogus: 1\n", &CM[1..]));
}

#[test]
fn fan_out_prefixes_paths() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    annotations:\n      config.kubernetes.io/path: 'cm.yaml'\n      internal.config.kubernetes.io/path: 'cm.yaml'\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: fan\n  spec:\n    clusters:\n    - name: virgo\n    - name: leo\n";
    snapshot("fan_out", &[], input);
}

#[test]
fn inventory_items_are_consumed() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: cluster.open-cluster-management.io/v1\n  kind: ManagedCluster\n  metadata:\n    name: virgo\n    labels:\n      env: prod\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: virgo\n    namespace: customization-properties\n  data:\n    clusterHash: 1001-dead-beef\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: app\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n  data:\n    clusterName: virgo\n";
    let r = run_tailor(&[], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("ManagedCluster"), "{}", r.stdout);
    assert!(
        !r.stdout.contains("customization-properties\n  data"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("name: app"));
}

#[test]
fn help_and_version() {
    let r = run_tailor(&["--help"], "");
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Usage:"));
    let r = run_tailor(&["--version"], "");
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("tailor "));
    let r = run_tailor(&["--bogus"], "");
    assert_eq!(r.code, 2);
}

#[test]
fn same_input_same_bytes() {
    let input =
        std::fs::read_to_string(common::repo_root().join("tests/fixtures/pkg/svc.yaml")).unwrap();
    let a = run_tailor(&["tests/fixtures/tailor-empty.yaml", "-"], &input);
    let b = run_tailor(&["tests/fixtures/tailor-empty.yaml", "-"], &input);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(
        a.stdout, input,
        "an untouched stream comes back byte for byte"
    );
}

#[test]
fn replacements_with_cluster_property() {
    let input =
        std::fs::read_to_string(common::repo_root().join("tests/fixtures/replacements-rl.yaml"))
            .unwrap();
    snapshot("replacements_ok", &[], &input);
    let missing = input.replace("name: settings, fieldPath", "name: nope, fieldPath");
    snapshot("replacements_missing_source", &[], &missing);
}

#[test]
fn apply_replacements_kind() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: src\n  data:\n    v: \"42\"\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: dst\n  data:\n    v: old\nfunctionConfig:\n  apiVersion: fn.kpt.dev/v1alpha1\n  kind: ApplyReplacements\n  metadata:\n    name: r\n  replacements:\n  - source: {kind: ConfigMap, name: src, fieldPath: data.v}\n    targets:\n    - select: {name: dst}\n      fieldPaths: [data.v]\n";
    snapshot("apply_replacements", &[], input);
}
