//! `tailor fleet-values`: the Helm values Fleet would pass per destination, checked against
//! cases derived by hand from Fleet's rules (`docs/semantics/fleet.md` §2a, §5):
//! `resources.go` folds `valuesFiles` into `values` with wrangler's `MergeMaps` (the bundle's
//! only when it names a chart), `options.Merge` merges a customization's values over the
//! bundle's, and `builder.go` `preprocessHelmValues` templates them with the cluster.
mod common;

use common::{run_tailor, write_tree};

fn values(dir: &std::path::Path, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "fleet-values".to_string(),
        dir.join("tailor.yaml").display().to_string(),
        dir.join("bundle").display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_tailor(&args, "")
}

const CLUSTERS: &str = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: dev, labels: {env: dev}}\n  - {name: prod, labels: {env: prod}}\n  - {name: none}\n";

#[test]
fn values_files_and_first_match_customizations_merge_by_fleets_rules() {
    let dir = write_tree(
        "values-merge",
        &[
            ("tailor.yaml", CLUSTERS),
            (
                "bundle/fleet.yaml",
                "helm:\n  chart: ./chart\n  releaseName: app\n  values:\n    replicas: 1\n    image: {repository: nginx, tag: \"1.25\"}\n    env: [a]\n  valuesFiles: [values/common.yaml]\n\
                 targetCustomizations:\n\
                 - name: prod\n  clusterSelector: {matchLabels: {env: prod}}\n  helm:\n    values:\n      replicas: 3\n      image: {tag: \"1.26\"}\n    valuesFiles: [values/prod.yaml]\n\
                 - name: dev\n  clusterSelector: {matchLabels: {env: dev}}\n  helm:\n    values: {debug: true}\n",
            ),
            ("bundle/values/common.yaml", "image: {pullPolicy: Always}\nenv: [b, c]\n"),
            ("bundle/values/prod.yaml", "resources: {limits: {cpu: 500m}}\nreplicas: 5\n"),
            ("bundle/chart/Chart.yaml", "apiVersion: v2\nname: app\nversion: 0.1.0\n"),
        ],
    );
    let r = values(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The bundle's values with common.yaml merged over them (lists replaced, maps merged);
    // prod's inline values with prod.yaml over them (the file wins), merged over the bundle's.
    assert_eq!(
        r.stdout,
        "# cluster dev (target customizations: dev)\n\
         debug: true\nenv:\n- b\n- c\nimage:\n  pullPolicy: Always\n  repository: nginx\n  tag: \"1.25\"\nreplicas: 1\n\
         ---\n\
         # cluster prod (target customizations: prod)\n\
         env:\n- b\n- c\nimage:\n  pullPolicy: Always\n  repository: nginx\n  tag: \"1.26\"\nreplicas: 5\nresources:\n  limits:\n    cpu: 500m\n\
         ---\n\
         # cluster none\n\
         env:\n- b\n- c\nimage:\n  pullPolicy: Always\n  repository: nginx\n  tag: \"1.25\"\nreplicas: 1\n"
    );
    // One cluster, ready for `helm template -f -`.
    let r = values(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r
        .stdout
        .starts_with("# cluster dev (target customizations: dev)\ndebug: true\n"));
    assert!(!r.stdout.contains("---"), "{}", r.stdout);
    // The same bundle, tailored, is a Helm chart that tailor renders per cluster (issue 28):
    // a chart without templates renders no object.
    let r = run_tailor(
        &[
            dir.join("tailor.yaml").to_str().unwrap(),
            dir.join("bundle").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("kind:"), "{}", r.stdout);
}

#[test]
fn template_values_and_templates_see_the_fleet_cluster() {
    let dir = write_tree(
        "values-template",
        &[
            ("tailor.yaml", "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\n"),
            (
                "bundle/fleet.yaml",
                "helm:\n  repo: https://charts.example.com\n  chart: app\n  values:\n    clusterName: ${ .ClusterName }\n    region: ${ .ClusterLabels.region }\n    namespace: ${ .ClusterNamespace }\n    size: ${ .ClusterValues.size }\n    legacy: global.fleet.clusterLabels.region\n    host: ${ .ClusterLabels.region }.${ .ClusterAnnotations.domain }\n    port: ${ .ClusterValues.port }\n    hidden: '${ hasKey .ClusterLabels \"foo.cattle.io/hidden\" }'\n    rancher: '${ index .ClusterLabels \"management.cattle.io/cluster-name\" }'\n\
                 \x20 templateValues:\n    zones: |\n      ${- range .ClusterValues.zones }\n      - ${ . | upper }\n      ${- end }\n    region: \"${ .ClusterLabels.region | title }\"\n",
            ),
            (
                "inventory.yaml",
                "apiVersion: fleet.cattle.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: eu1\n  namespace: fleet-default\n  labels: {region: eu, management.cattle.io/cluster-name: c-123, foo.cattle.io/hidden: x}\n  annotations: {domain: example.eu}\nspec:\n  templateValues: {size: large, port: 8443, zones: [a, b]}\n",
            ),
        ],
    );
    let inventory = dir.join("inventory.yaml");
    let r = values(&dir, &[inventory.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Labels cleaned for export (cattle.io/ keys go, management.cattle.io/ ones come back);
    // the values rendered as one template and read back (port is a number again); the
    // templateValues rendered one by one, overwriting `region`.
    assert_eq!(
        r.stdout,
        "# cluster eu1\n\
         clusterName: eu1\nhidden: false\nhost: eu.example.eu\nlegacy: eu\nnamespace: fleet-default\nport: 8443\nrancher: c-123\nregion: Eu\nsize: large\nzones:\n- A\n- B\n"
    );
}

#[test]
fn all_matches_merges_every_matching_customization_in_order() {
    let dir = write_tree(
        "values-allmatches",
        &[
            ("tailor.yaml", "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  cluster: {name: c, labels: {edge: \"true\", extra: \"true\"}}\n"),
            (
                "bundle/fleet.yaml",
                "targetCustomizationMode: AllMatches\nhelm:\n  values: {source: base, edge: \"false\", extra: \"false\"}\n\
                 targetCustomizations:\n\
                 - {name: edge, clusterSelector: {matchLabels: {edge: \"true\"}}, helm: {values: {source: edge, edge: \"true\"}}}\n\
                 - {name: extra, clusterSelector: {matchLabels: {extra: \"true\"}}, helm: {values: {source: extra, extra: \"true\"}}}\n",
            ),
        ],
    );
    let r = values(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // calculate_test.go TestMergeChain.
    assert_eq!(
        r.stdout,
        "# cluster c (target customizations: edge, extra)\nedge: \"true\"\nextra: \"true\"\nsource: extra\n"
    );
}

#[test]
fn the_bundles_values_files_are_read_only_with_a_chart() {
    // resources.go: the bundle's valuesFiles only when helm.chart or helm.repo is set (a
    // missing one is then an error); a target's whenever it has helm.
    let dir = write_tree(
        "values-files-quirk",
        &[
            ("tailor.yaml", CLUSTERS),
            (
                "bundle/fleet.yaml",
                "helm:\n  values: {a: 1}\n  valuesFiles: [missing.yaml]\n\
                 targetCustomizations:\n- name: dev\n  clusterName: dev\n  helm:\n    valuesFiles: [dev.yaml]\n",
            ),
            ("bundle/dev.yaml", "b: 2\n"),
        ],
    );
    let r = values(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "# cluster dev (target customizations: dev)\na: 1\nb: 2\n"
    );
    std::fs::remove_file(dir.join("bundle/dev.yaml")).unwrap();
    let r = values(&dir, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("targetCustomizations[0].helm.valuesFiles"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("reading values file"), "{}", r.stderr);
}

#[test]
fn clusters_without_the_bundle_template_errors_and_usage() {
    let dir = write_tree(
        "values-errors",
        &[
            ("tailor.yaml", CLUSTERS),
            (
                "bundle/fleet.yaml",
                "helm:\n  values: {name: \"${ .ClusterLabels.env }\"}\n\
                 targetCustomizations:\n- {name: skip, clusterName: prod, doNotDeploy: true}\n",
            ),
        ],
    );
    let r = values(&dir, &["--cluster", "dev"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "# cluster dev\nname: dev\n"),
        "{}",
        r.stderr
    );
    // `none` has no labels: nothing is templated, as in Fleet.
    let r = values(&dir, &["--cluster", "none"]);
    assert_eq!(r.stdout, "# cluster none\nname: ${ .ClusterLabels.env }\n");
    // prod is skipped: a comment in the listing, an error when asked for alone.
    let r = values(&dir, &[]);
    assert!(
        r.stdout
            .contains("# cluster prod: no values: cluster \"prod\" is skipped"),
        "{}",
        r.stdout
    );
    let r = values(&dir, &["--cluster", "prod"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("doNotDeploy"), "{}", r.stderr);
    let r = values(&dir, &["--cluster", "nope"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--cluster nope"), "{}", r.stderr);
    // A template error fails with Fleet's message, naming the cluster.
    std::fs::write(
        dir.join("bundle/fleet.yaml"),
        "helm:\n  values: {name: \"${ .ClusterLabels.region }\"}\n",
    )
    .unwrap();
    let r = values(&dir, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "cluster \"dev\": failed to render helm values template: template: values:1:"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("map has no entry for key \"region\""),
        "{}",
        r.stderr
    );
    // Usage errors exit 2.
    assert_eq!(run_tailor(&["fleet-values"], "").code, 2);
    assert_eq!(
        run_tailor(&["fleet-values", "a", "b", "--bogus"], "").code,
        2
    );
}
