//! Issue 16, through the binary: what tailor says about a Fleet bundle it does not deploy as
//! Fleet would, or deploys with fields it does not model (the upstream suites,
//! `tests/upstream_fleet.rs`, hold the objects and the error words; these hold the messages,
//! the severities and where they go).
mod common;

use std::path::{Path, PathBuf};

use common::{run_tailor, temp_dir};

const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: ns}\n";

/// A bundle directory with `files`, and a Tailor config for cluster `c` (labels `env: dev`),
/// with the guard of the directory that holds them.
fn bundle(tag: &str, files: &[(&str, &str)]) -> (common::TempDir, PathBuf, PathBuf) {
    let dir = temp_dir(tag);
    let b = dir.join("bundle");
    common::write_files(&b, files);
    std::fs::create_dir_all(&b).unwrap();
    let config = dir.join("tailor.yaml");
    std::fs::write(
        &config,
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  cluster: {name: c, labels: {env: dev}}\n  strip: {builtin: false}\n",
    )
    .unwrap();
    (dir, config, b)
}

fn run(config: &Path, dir: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec![config.to_str().unwrap(), dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    run_tailor(&args, "")
}

#[test]
fn unknown_and_unmodeled_fleet_yaml_fields_are_warnings_that_reach_the_user() {
    let (_tmp, config, dir) = bundle(
        "fleet-warn",
        &[
            (
                "fleet.yaml",
                "namespace: ns\nbogus: 1\ndiff: {comparePatches: [{kind: ConfigMap, name: cm}]}\nnamespaceLabels: {team: a}\n",
            ),
            ("cm.yaml", CM),
        ],
    );
    let r = run(&config, &dir, &["-o", "resource-list"]);
    assert_eq!(r.code, 0, "{}{}", r.stderr, r.stdout);
    assert!(
        r.stderr.contains("fleet.yaml bogus: unknown field"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("fleet.yaml diff: Fleet's drift detection"),
        "{}",
        r.stderr
    );
    // Every warning is a result too (stderr shows at most four lines).
    assert!(r.stdout.contains("namespaceLabels"), "{}", r.stdout);
    assert_eq!(
        r.stdout.matches("severity: warning").count(),
        3,
        "{}",
        r.stdout
    );
}

#[test]
fn a_flux_field_in_fleet_yaml_is_an_error_naming_file_field_and_where_it_belongs() {
    let (_tmp, config, dir) = bundle(
        "fleet-flux-field",
        &[("fleet.yaml", "namePrefix: p-\n"), ("cm.yaml", CM)],
    );
    let r = run(&config, &dir, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let file = dir.join("fleet.yaml");
    assert!(
        r.stderr.contains(&format!(
            "{} namePrefix: Fleet has no field \"namePrefix\"",
            file.display()
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("Tailor spec (spec.namePrefix"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

#[test]
fn errors_come_before_warnings_on_stderr() {
    // A kustomization at the root is refused (a Helm chart is rendered since issue 28).
    let mut files = vec![("kustomization.yaml", "resources: []\n")];
    let fleet = "helm: {values: {a: 1}}\ntargetCustomizations:\n- {name: a, clusterName: a, diff: {comparePatches: [{kind: X}]}}\n- {name: b, clusterName: b, keepResources: true}\n- {name: c, clusterName: c, serviceAccount: s}\n";
    files.push(("fleet.yaml", fleet));
    let (_tmp, config, dir) = bundle("fleet-order", &files);
    let r = run(&config, &dir, &[]);
    assert_eq!(r.code, 1);
    let first = r.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("[error] cluster \"c\": the bundle has a kustomization.yaml"),
        "{}",
        r.stderr
    );
    assert!(first.contains("kustomize build"), "{first}");
    assert!(r.stderr.contains("[warning]"), "{}", r.stderr);
}

#[test]
fn a_kustomize_dir_of_the_matching_customization_names_that_entry_and_the_build() {
    let (_tmp, config, dir) = bundle(
        "fleet-kustomize",
        &[
            (
                "fleet.yaml",
                "targetCustomizations:\n- name: dev\n  clusterSelector: {matchLabels: {env: dev}}\n  kustomize: {dir: overlays/dev}\n",
            ),
            ("base/cm.yaml", CM),
            ("overlays/dev/kustomization.yaml", "resources: [../../base]\n"),
        ],
    );
    let r = run(&config, &dir, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("fleet.yaml targetCustomizations[0].kustomize.dir \"overlays/dev\""),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(&format!(
            "kustomize build {}/overlays/dev | tailor CONFIG -",
            dir.display()
        )),
        "{}",
        r.stderr
    );
}

#[test]
fn a_plain_directory_holding_a_chart_is_refused() {
    let dir = temp_dir("fleet-plain-chart");
    std::fs::create_dir_all(dir.join("chart/templates")).unwrap();
    std::fs::write(dir.join("chart/Chart.yaml"), "apiVersion: v2\nname: x\n").unwrap();
    std::fs::write(dir.join("chart/values.yaml"), "a: 1\n").unwrap();
    std::fs::write(
        dir.join("chart/templates/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Values.a }}}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("t.yaml"),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\n",
    )
    .unwrap();
    let r = run(&dir.join("t.yaml"), &dir.join("chart"), &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("Chart.yaml"), "{}", r.stderr);
    assert!(r.stderr.contains("helm template RELEASE"), "{}", r.stderr);
}

#[test]
fn kind_less_files_are_skipped_with_a_note_and_a_mixed_one_with_a_warning() {
    let (_tmp, config, dir) = bundle(
        "fleet-kindless",
        &[
            ("fleet.yaml", ""),
            ("values.yaml", "replicas: 1\n"),
            ("mixed.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n---\nx: 1\n"),
            ("noapi.yaml", "kind: ConfigMap\nmetadata: {name: n}\n"),
            ("cm.json", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"j\"}}"),
        ],
    );
    let r = run(&config, &dir, &["-o", "resource-list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"name\": \"j\""), "{}", r.stdout);
    assert!(!r.stdout.contains("name: m\n"), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("mixed.yaml: not deployed: document 1 has no kind"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("noapi.yaml: an object without apiVersion"),
        "{}",
        r.stderr
    );
    // The values file is a routine skip: an info result, not a warning.
    assert!(
        r.stderr.contains("[info] values.yaml: not deployed")
            && !r.stderr.contains("[warning] values.yaml"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("values.yaml: not deployed"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_bundle_gets_the_agents_keep_policy_on_crds_unless_delete_crd_resources() {
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: foos.example.com}\n";
    for (fleet, keep) in [("", true), ("deleteCRDResources: true\n", false)] {
        let (_tmp, config, dir) = bundle("fleet-crd", &[("fleet.yaml", fleet), ("crd.yaml", crd)]);
        let r = run(&config, &dir, &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout.contains("helm.sh/resource-policy"),
            keep,
            "{fleet}: {}",
            r.stdout
        );
    }
}

#[test]
fn override_targets_skip_unselected_clusters_with_an_info_result() {
    let (_tmp, config, dir) = bundle(
        "fleet-override",
        &[
            (
                "fleet.yaml",
                "overrideTargets:\n- clusterSelector: {matchLabels: {env: prod}}\n",
            ),
            ("cm.yaml", CM),
        ],
    );
    let r = run(&config, &dir, &["-o", "resource-list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("items: []"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("none of fleet.yaml''s overrideTargets selects it"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_helm_chart_in_a_tailor_spec_customization_is_refused_in_krm_mode() {
    let input = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm}\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: t}\n  spec:\n    cluster: {name: c, labels: {env: dev}}\n    targetCustomizations:\n    - name: dev\n      clusterSelector: {matchLabels: {env: dev}}\n      helm: {repo: https://charts.example.com, chart: app}\n";
    let r = run_tailor(&[], input);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("spec.targetCustomizations[0].helm.repo \"https://charts.example.com\""),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("--repo https://charts.example.com"),
        "{}",
        r.stderr
    );
}

#[test]
fn overlaid_files_are_read_as_raw_yaml_again() {
    // A strategic merge `$patch: delete` leaves `{}` (gone), a replacement without kind drops
    // its file with a warning, as Fleet's rawyaml reading after patch.Process does.
    let (_tmp, config, dir) = bundle(
        "fleet-overlay-raw",
        &[
            ("fleet.yaml", "yaml: {overlays: [o]}\n"),
            ("cm.yaml", CM),
            (
                "other.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: ns}\n",
            ),
            ("overlays/o/cm_patch.yaml", "$patch: delete\n"),
            ("overlays/o/other.yaml", "replicas: 1\n"),
        ],
    );
    let r = run(&config, &dir, &["-o", "resource-list"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("items: []"), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("other.yaml: not deployed after the overlays: document 0 has no kind"),
        "{}",
        r.stderr
    );
}
