//! A Fleet Helm bundle through the binary: the chart rendered per destination with the values
//! Fleet passes that cluster (FirstMatch and AllMatches merging, `docs/semantics/fleet.md`
//! §2a, §5), the release name and namespace as Fleet's agent picks them (rancher/fleet
//! a03565936549761d8fc6d6d936b25b431ed57ff6 `internal/helmdeployer/install.go` `getOpts`),
//! doNotDeploy, and charts Fleet downloads read from `--chart-dir`. Expected values are worked
//! out by hand from those rules.
mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{run_tailor, run_tailor_env, write_tree};

const CLUSTERS: &str = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: dev, labels: {env: dev}}\n  - {name: prod-us, labels: {env: prod, region: us}}\n  - {name: prod-eu, labels: {env: prod, region: eu}}\n";

const CHART_YAML: &str = "apiVersion: v2\nname: web\nversion: 1.2.0\n";
const CHART_VALUES: &str = "tier: base\nsize: small\n";
const CHART_CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cfg\ndata:\n  ns: {{ .Release.Namespace | quote }}\n  tier: {{ .Values.tier | quote }}\n  size: {{ .Values.size | quote }}\n";

/// A bundle (`bundle/`, its chart in `bundle/chart/`) with `fleet_yaml`, and the config.
fn bundle(tag: &str, fleet_yaml: &str) -> common::TempDir {
    write_tree(
        tag,
        &[
            ("tailor.yaml", CLUSTERS),
            ("bundle/fleet.yaml", fleet_yaml),
            ("bundle/chart/Chart.yaml", CHART_YAML),
            ("bundle/chart/values.yaml", CHART_VALUES),
            ("bundle/chart/templates/cm.yaml", CHART_CM),
        ],
    )
}

fn render(dir: &Path, extra: &[&str]) -> common::Run {
    let config = dir.join("tailor.yaml").display().to_string();
    let bundle = dir.join("bundle").display().to_string();
    let mut args = vec![config.as_str(), bundle.as_str()];
    args.extend_from_slice(extra);
    run_tailor(&args, "")
}

/// Each cluster's output, by name.
fn by_cluster(stdout: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for part in stdout.split("# tailor.dev/cluster: ").skip(1) {
        let (name, rest) = part.split_once('\n').unwrap();
        out.entry(name.to_string())
            .or_insert_with(String::new)
            .push_str(rest);
    }
    out
}

/// The `data` the chart's ConfigMap shows: `ns`, `tier`, `size`.
fn data(doc: &str) -> (String, String, String) {
    let field = |k: &str| {
        doc.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{k}: ")))
            .unwrap_or_else(|| panic!("no {k} in {doc}"))
            .trim_matches('"')
            .to_string()
    };
    (field("ns"), field("tier"), field("size"))
}

const CUSTOMIZED: &str = "helm:\n  chart: chart\n  releaseName: web\n  values: {tier: root}\ntargetCustomizations:\n- name: prod\n  clusterSelector: {matchLabels: {env: prod}}\n  helm: {values: {size: large}}\n- name: eu\n  clusterSelector: {matchLabels: {region: eu}}\n  helm: {values: {tier: eu}}\n";

#[test]
fn first_match_gives_each_cluster_the_first_customizations_values() {
    let dir = bundle("helm-first", CUSTOMIZED);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    let t = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    // dev: the bundle's values over the chart's; prod-eu: only "prod" (the first match).
    assert_eq!(data(&out["dev"]), t("default", "root", "small"));
    assert_eq!(data(&out["prod-us"]), t("default", "root", "large"));
    assert_eq!(data(&out["prod-eu"]), t("default", "root", "large"));
    assert!(out["dev"].contains("name: web-cfg"), "{}", out["dev"]);
}

#[test]
fn all_matches_merges_every_matching_customizations_values_in_order() {
    let fleet = format!("targetCustomizationMode: AllMatches\n{CUSTOMIZED}");
    let dir = bundle("helm-all", &fleet);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    let t = |a: &str, b: &str, c: &str| (a.to_string(), b.to_string(), c.to_string());
    assert_eq!(data(&out["prod-us"]), t("default", "root", "large"));
    assert_eq!(data(&out["prod-eu"]), t("default", "eu", "large"));
    assert_eq!(data(&out["dev"]), t("default", "root", "small"));
}

#[test]
fn cluster_labels_fill_fleets_templated_values_unless_pre_processing_is_off() {
    let fleet =
        "helm:\n  chart: chart\n  values: {tier: \"${ .ClusterLabels.env }-${ .ClusterName }\"}\n";
    let dir = bundle("helm-tpl", fleet);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    assert_eq!(data(&out["prod-eu"]).1, "prod-prod-eu");
    let fleet = "helm:\n  chart: chart\n  disablePreProcess: true\n  values: {tier: \"${ .ClusterName }\"}\n";
    let dir = bundle("helm-notpl", fleet);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&by_cluster(&r.stdout)["dev"]).1, "${ .ClusterName }");
}

#[test]
fn release_name_and_namespace_follow_fleets_agent() {
    // namespace: the release's namespace and every object's.
    let dir = bundle(
        "helm-ns",
        "namespace: shop\nhelm: {chart: ./chart, releaseName: store}\n",
    );
    let r = render(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&r.stdout).0, "shop");
    assert!(r.stdout.contains("name: store-cfg"), "{}", r.stdout);
    assert!(r.stdout.contains("namespace: shop"), "{}", r.stdout);
    // defaultNamespace alone is the release namespace too.
    let dir = bundle(
        "helm-defns",
        "defaultNamespace: web\nhelm: {chart: chart}\n",
    );
    let r = render(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&r.stdout).0, "web");
    // Without releaseName, the bundle's name (its directory's); without a namespace, default.
    let dir = bundle("helm-noname", "helm: {chart: chart}\n");
    let r = render(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&r.stdout).0, "default");
    assert!(r.stdout.contains("name: bundle-cfg"), "{}", r.stdout);
}

#[test]
fn do_not_deploy_leaves_the_cluster_without_the_chart() {
    let fleet = "helm: {chart: chart}\ntargetCustomizations:\n- name: eu\n  clusterSelector: {matchLabels: {region: eu}}\n  doNotDeploy: true\n";
    let dir = bundle("helm-skip", fleet);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    assert!(!out.contains_key("prod-eu"), "{}", r.stdout);
    assert!(out.contains_key("prod-us"), "{}", r.stdout);
    assert!(
        r.stderr.contains("cluster \"prod-eu\" is skipped"),
        "{}",
        r.stderr
    );
}

const REMOTE: &str = "helm:\n  repo: https://charts.example.com\n  chart: web\n  version: 1.2.0\n  values: {tier: remote}\n";

#[test]
fn a_downloaded_chart_without_a_chart_dir_names_the_helm_pull_that_fills_one() {
    let dir = bundle("helm-remote", REMOTE);
    let r = run_tailor_env(
        &[
            dir.join("tailor.yaml").to_str().unwrap(),
            dir.join("bundle").to_str().unwrap(),
        ],
        &[("TAILOR_HELM_CHART_DIR", "")],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "helm pull web --repo https://charts.example.com --version 1.2.0 --untar --untardir charts"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--chart-dir"), "{}", r.stderr);
    // An OCI chart: the command pulls the reference.
    let dir = bundle(
        "helm-oci",
        "helm: {chart: \"oci://ghcr.io/acme/charts/web\"}\n",
    );
    let r = render(&dir, &[]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("helm pull oci://ghcr.io/acme/charts/web --untar --untardir charts"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_downloaded_chart_is_read_from_the_chart_dir_flag_or_variable() {
    let dir = bundle("helm-pulled", REMOTE);
    let charts = write_tree(
        "helm-pulled-charts",
        &[
            ("web/Chart.yaml", CHART_YAML),
            ("web/values.yaml", CHART_VALUES),
            ("web/templates/cm.yaml", CHART_CM),
        ],
    );
    let charts_arg = charts.display().to_string();
    let r = render(&dir, &["--cluster", "dev", "--chart-dir", &charts_arg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&r.stdout).1, "remote");
    let r = run_tailor_env(
        &[
            dir.join("tailor.yaml").to_str().unwrap(),
            dir.join("bundle").to_str().unwrap(),
            "--cluster",
            "dev",
        ],
        &[("TAILOR_HELM_CHART_DIR", &charts_arg)],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(data(&r.stdout).1, "remote");
    // Another version in the chart directory is not the chart Fleet would deploy.
    let dir = bundle("helm-pulled-v", &REMOTE.replace("1.2.0", "2.0.0"));
    let r = render(&dir, &["--cluster", "dev", "--chart-dir", &charts_arg]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("helm.version asks for 2.0.0"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_chart_with_a_kustomization_stays_refused() {
    let dir = write_tree(
        "helm-kustomize",
        &[
            ("tailor.yaml", CLUSTERS),
            ("bundle/fleet.yaml", "helm: {chart: chart}\n"),
            ("bundle/kustomization.yaml", "resources: []\n"),
            ("bundle/chart/Chart.yaml", CHART_YAML),
            ("bundle/chart/templates/cm.yaml", CHART_CM),
        ],
    );
    let r = render(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("runs kustomize over the rendered chart"),
        "{}",
        r.stderr
    );
}

/// rancher/fleet-examples (commit f934ca4a27d4d33fe88a0f6ee35028b891a2ee1a, vendored in
/// tests/upstream/fleet/fleet-examples.yaml): `multi-cluster/helm`'s README says dev clusters
/// get only the redis leader (values `replication: false`), test clusters 3 frontend replicas,
/// prod clusters 3 replicas and a LoadBalancer Service, all in `fleet-mc-helm-example`; the
/// chart's values.yaml gives the rest (`replication: true`, `replicas: 1`, `NodePort`).
/// `single-cluster/helm`: `helm.values.replicas: 2` for every cluster, release `guestbook`,
/// namespace `fleet-helm-example`.
#[test]
fn fleet_examples_helm_bundles_render_per_cluster_as_their_readmes_say() {
    let suite = common::upstream::load_suite(
        &common::upstream::suite_dir("fleet").join("fleet-examples.yaml"),
    );
    let case = |name: &str| -> Vec<(String, String)> {
        let c = suite
            .cases
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no case {name}"));
        c["files"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (format!("bundle/{k}"), v.as_str().unwrap().to_string()))
            .collect()
    };
    let config = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: dev, labels: {env: dev}}\n  - {name: test, labels: {env: test}}\n  - {name: prod, labels: {env: prod}}\n  - {name: none}\n";
    let write = |tag: &str, name: &str| {
        let mut files = case(name);
        files.push(("tailor.yaml".into(), config.into()));
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        write_tree(tag, &refs)
    };
    let objects = |stdout: &str| -> BTreeMap<String, Vec<serde_json::Value>> {
        let mut out: BTreeMap<String, Vec<serde_json::Value>> = BTreeMap::new();
        for (cluster, text) in by_cluster(stdout) {
            out.insert(cluster, common::upstream::stream_to_json(&text).unwrap());
        }
        out
    };
    let find = |objs: &[serde_json::Value], kind: &str, name: &str| {
        objs.iter()
            .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
            .cloned()
    };

    let dir = write("fe-mc-helm", "multi-cluster/helm");
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = objects(&r.stdout);
    for (cluster, replicas, service_type, replication) in [
        ("dev", 1, "NodePort", false),
        ("test", 3, "NodePort", true),
        ("prod", 3, "LoadBalancer", true),
        ("none", 1, "NodePort", true),
    ] {
        let objs = &out[cluster];
        assert!(
            objs.iter()
                .all(|o| o["metadata"]["namespace"] == "fleet-mc-helm-example"),
            "{cluster}: {objs:?}"
        );
        let frontend = find(objs, "Deployment", "frontend").unwrap();
        assert_eq!(frontend["spec"]["replicas"], replicas, "{cluster}");
        let svc = find(objs, "Service", "frontend").unwrap();
        assert_eq!(svc["spec"]["type"], service_type, "{cluster}");
        assert_eq!(
            find(objs, "Deployment", "redis-slave").is_some(),
            replication,
            "{cluster}"
        );
        let slave_svc = find(objs, "Service", "redis-slave").unwrap();
        let role = if replication { "slave" } else { "master" };
        assert_eq!(slave_svc["spec"]["selector"]["role"], role, "{cluster}");
        assert_eq!(objs.len(), if replication { 6 } else { 5 }, "{cluster}");
    }

    let dir = write("fe-sc-helm", "single-cluster/helm");
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for (cluster, objs) in objects(&r.stdout) {
        let frontend = find(&objs, "Deployment", "frontend").unwrap();
        assert_eq!(frontend["spec"]["replicas"], 2, "{cluster}");
        assert!(
            objs.iter()
                .all(|o| o["metadata"]["namespace"] == "fleet-helm-example"),
            "{cluster}"
        );
    }
}

/// `helm.valuesFrom` as Fleet's agent reads it (rancher/fleet
/// 3b2c622ce176b11644abc7fb768f87c3ffb5a3ab `helmdeployer/install.go` `getValues`), from
/// ConfigMaps and Secrets given as an input file: a reference without a namespace reads the
/// release namespace (`defaultNamespace` here), the key defaults to `values.yaml`, the
/// ConfigMap is merged over `helm.values` and the Secret last. Worked out by hand: tier comes
/// from the ConfigMap in `shop` (not the decoy in `other`), size from the Secret in `vault`.
const VALUES_FROM: &str = "defaultNamespace: shop\nhelm:\n  chart: chart\n  values: {tier: root, size: fleet}\n  valuesFrom:\n  - configMapKeyRef: {name: cm}\n    secretKeyRef: {name: sec, namespace: vault, key: extra.yaml}\n";

/// `size: from-secret` in base64.
const SECRET_SIZE: &str = "c2l6ZTogZnJvbS1zZWNyZXQK";

fn values_from_inputs(config_map: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm, namespace: other}}\ndata:\n  values.yaml: 'tier: decoy'\n---\n{config_map}---\napiVersion: v1\nkind: Secret\nmetadata: {{name: sec, namespace: vault}}\ndata:\n  extra.yaml: {SECRET_SIZE}\n"
    )
}

const SHOP_CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: shop}\ndata:\n  values.yaml: |\n    tier: from-cm\n    size: from-cm\n";

#[test]
fn values_from_reads_config_maps_and_secrets_given_as_inputs() {
    let dir = bundle("helm-vfrom", VALUES_FROM);
    let inputs = dir.join("inputs.yaml");
    std::fs::write(&inputs, values_from_inputs(SHOP_CM)).unwrap();
    let r = render(&dir, &[inputs.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    for cluster in ["dev", "prod-us", "prod-eu"] {
        let got = data(&out[cluster]);
        assert_eq!(
            (got.1.as_str(), got.2.as_str()),
            ("from-cm", "from-secret"),
            "{cluster}"
        );
    }
    // The sources are cluster state the agent reads, never objects to deploy.
    assert!(!r.stdout.contains("kind: Secret"), "{}", r.stdout);
    assert!(!r.stdout.contains("name: cm\n"), "{}", r.stdout);
    // `tailor fleet-values` with the same inputs prints the values the chart rendered with.
    let config = dir.join("tailor.yaml").display().to_string();
    let bundle = dir.join("bundle").display().to_string();
    let fv = run_tailor(
        &[
            "fleet-values",
            &config,
            &bundle,
            inputs.to_str().unwrap(),
            "--cluster",
            "dev",
        ],
        "",
    );
    assert_eq!(fv.code, 0, "{}", fv.stderr);
    assert_eq!(
        fv.stdout,
        "# cluster dev\nsize: from-secret\ntier: from-cm\n"
    );
}

#[test]
fn a_missing_values_from_source_is_an_error_naming_the_field_and_the_object() {
    let dir = bundle("helm-vfrom-missing", VALUES_FROM);
    let inputs = dir.join("inputs.yaml");
    // Only the decoy in another namespace: the agent's lookup in `shop` fails.
    std::fs::write(&inputs, values_from_inputs("")).unwrap();
    let r = render(&dir, &[inputs.to_str().unwrap(), "--cluster", "dev"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "helm.valuesFrom[0].configMapKeyRef: configmaps \"cm\" not found in namespace \"shop\""
        ),
        "{}",
        r.stderr
    );
    // The object is there but its key is not: Fleet's own message.
    let no_key = SHOP_CM.replace("values.yaml", "other.yaml");
    std::fs::write(&inputs, values_from_inputs(&no_key)).unwrap();
    let r = render(&dir, &[inputs.to_str().unwrap(), "--cluster", "dev"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "key values.yaml is missing from configmap shop/cm, can't use it in valuesFrom"
        ),
        "{}",
        r.stderr
    );
}

/// The Fleet `Cluster` objects of the three destinations: `dev`'s carries annotations and
/// `spec.templateValues`.
const FLEET_CLUSTERS: &str = "apiVersion: fleet.cattle.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: dev\n  namespace: fleet-default\n  labels: {env: dev}\n  annotations: {team: blue}\nspec:\n  templateValues:\n    region: {name: eu-west}\n    replicas: 3\n";

/// One key of Fleet's values templating context, rendered for `dev` with its Fleet `Cluster`
/// object: what the chart's `tier` shows.
fn templated(tag: &str, helm_values: &str) -> common::Run {
    let fleet = format!("helm:\n  chart: chart\n{helm_values}");
    let dir = bundle(tag, &fleet);
    let inventory = dir.join("inventory.yaml");
    std::fs::write(&inventory, FLEET_CLUSTERS).unwrap();
    render(&dir, &[inventory.to_str().unwrap(), "--cluster", "dev"])
}

fn tier_of(r: &common::Run) -> String {
    assert_eq!(r.code, 0, "{}", r.stderr);
    data(&r.stdout).1
}

/// `processTemplateValues` (rancher/fleet `internal/cmd/controller/target/builder.go`): each
/// key of the context, worked out by hand from `FLEET_CLUSTERS`.
#[test]
fn fleets_values_template_context_per_key() {
    let cases = [
        ("${ .ClusterName }", "dev"),
        ("${ .ClusterNamespace }", "fleet-default"),
        ("${ .ClusterLabels.env }", "dev"),
        ("${ .ClusterAnnotations.team }", "blue"),
        ("${ .ClusterValues.region.name }", "eu-west"),
        ("${ index .ClusterValues \\\"replicas\\\" }", "3"),
        // sprig in `${ }`.
        (
            "${ .ClusterValues.region.name | upper | replace \\\"-\\\" \\\"_\\\" }",
            "EU_WEST",
        ),
    ];
    for (i, (template, want)) in cases.iter().enumerate() {
        let r = templated(
            &format!("helm-ctx-{i}"),
            &format!("  values: {{tier: \"{template}\"}}\n"),
        );
        assert_eq!(tier_of(&r), *want, "{template}");
    }
}

#[test]
fn template_values_overwrite_top_level_keys_and_disable_pre_process_keeps_the_text() {
    // helm.templateValues: each entry rendered and read as YAML, over `values`.
    let r = templated(
        "helm-tplvals",
        "  values: {tier: root}\n  templateValues:\n    tier: \"${ .ClusterValues.region.name }-${ .ClusterName }\"\n",
    );
    assert_eq!(tier_of(&r), "eu-west-dev");
    let r = templated(
        "helm-nopre",
        "  disablePreProcess: true\n  values: {tier: \"${ .ClusterValues.region.name }\"}\n",
    );
    assert_eq!(tier_of(&r), "${ .ClusterValues.region.name }");
}

#[test]
fn cluster_values_without_the_fleet_cluster_object_are_refused() {
    let dir = bundle(
        "helm-novals",
        "helm:\n  chart: chart\n  values: {tier: \"${ .ClusterValues.region }\"}\n",
    );
    let r = render(&dir, &["--cluster", "dev"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains(".ClusterValues") && r.stderr.contains("inventory input"),
        "{}",
        r.stderr
    );
    // A key the cluster's templateValues lack: Fleet's missingkey=error.
    let r = templated(
        "helm-missing-key",
        "  values: {tier: \"${ .ClusterValues.nope }\"}\n",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("nope"), "{}", r.stderr);
}

/// A chart that needs Kubernetes 1.27 or later and prints the version it renders for.
const VERSIONED_CHART: &str =
    "apiVersion: v2\nname: web\nversion: 1.2.0\nkubeVersion: \">=1.27.0-0\"\n";
const VERSION_CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube\ndata:\n  version: {{ .Capabilities.KubeVersion.Version | quote }}\n  minor: {{ .Capabilities.KubeVersion.Minor | quote }}\n  pdb: {{ if semverCompare \">=1.21-0\" .Capabilities.KubeVersion.Version }}policy/v1{{ else }}policy/v1beta1{{ end }}\n";

fn versioned_bundle(tag: &str, clusters: &str, chart_yaml: &str) -> common::TempDir {
    write_tree(
        tag,
        &[
            ("tailor.yaml", clusters),
            (
                "bundle/fleet.yaml",
                "helm:\n  chart: chart\n  releaseName: web\n",
            ),
            ("bundle/chart/Chart.yaml", chart_yaml),
            ("bundle/chart/templates/cm.yaml", VERSION_CM),
        ],
    )
}

#[test]
fn each_cluster_renders_for_its_own_kube_version_else_fleets_dry_run_default() {
    let clusters = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: old}\n  - {name: new, kubeVersion: v1.30.2}\n";
    let dir = versioned_bundle("helm-kube-version", clusters, CHART_YAML);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    assert!(
        out["old"].contains("version: \"v1.25.0\"\n  minor: \"25\"\n  pdb: policy/v1\n"),
        "{}",
        out["old"]
    );
    assert!(
        out["new"].contains("version: \"v1.30.2\"\n  minor: \"30\"\n"),
        "{}",
        out["new"]
    );
}

#[test]
fn a_chart_whose_kube_version_constraint_refuses_the_cluster_is_an_error() {
    let clusters = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: assumed}\n  - {name: given, kubeVersion: \"1.26\"}\n  - {name: fits, kubeVersion: v1.29.1}\n";
    let dir = versioned_bundle("helm-kube-refused", clusters, VERSIONED_CHART);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    // Assumed: the error says which version and how to give the cluster's own.
    assert!(
        r.stderr.contains("cluster \"assumed\": the chart of ")
            && r.stderr.contains("chart requires kubeVersion: >=1.27.0-0 which is incompatible with Kubernetes v1.25.0 (the cluster's kubeVersion is not given, so v1.25.0 is assumed"),
        "{}",
        r.stderr
    );
    // Given: Helm's refusal alone.
    let given = r
        .stderr
        .lines()
        .find(|l| l.contains("cluster \"given\""))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(
        given.ends_with("which is incompatible with Kubernetes v1.26.0"),
        "{given}"
    );
    assert!(!r.stderr.contains("\"fits\""), "{}", r.stderr);
}

#[test]
fn a_cluster_kube_version_that_is_not_a_version_is_a_config_error() {
    let clusters = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: a, kubeVersion: latest}\n";
    let dir = versioned_bundle("helm-kube-bad", clusters, CHART_YAML);
    let r = render(&dir, &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "spec.clusters[0].kubeVersion: invalid kube version 'latest': Invalid Semantic Version"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_cluster_that_lists_an_api_version_gets_what_a_chart_makes_for_it() {
    let clusters = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - {name: plain}\n  - {name: monitored, apiVersions: [monitoring.coreos.com/v1]}\n  - {name: by-kind, apiVersions: [monitoring.coreos.com/v1/ServiceMonitor]}\n";
    let monitor = "{{- if .Capabilities.APIVersions.Has \"monitoring.coreos.com/v1/ServiceMonitor\" }}\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: web\nspec:\n  endpoints:\n  - port: http\n{{- end }}\n";
    let dir = write_tree(
        "helm-api-versions",
        &[
            ("tailor.yaml", clusters),
            (
                "bundle/fleet.yaml",
                "helm:\n  chart: chart\n  releaseName: web\n",
            ),
            ("bundle/chart/Chart.yaml", CHART_YAML),
            ("bundle/chart/templates/monitor.yaml", monitor),
            ("bundle/chart/templates/cm.yaml", VERSION_CM),
        ],
    );
    let r = render(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = by_cluster(&r.stdout);
    // Helm's Has: a group/version/Kind entry answers for its kind, and a group/version one
    // does not (Helm's VersionSet holds the strings given).
    assert!(
        !out["plain"].contains("kind: ServiceMonitor"),
        "{}",
        out["plain"]
    );
    assert!(
        !out["monitored"].contains("kind: ServiceMonitor"),
        "{}",
        out["monitored"]
    );
    assert!(
        out["by-kind"].contains("kind: ServiceMonitor"),
        "{}",
        out["by-kind"]
    );
}

/// A bundle with a values file, `${ }` values among constant ones and two customizations,
/// over seven clusters (an octal-looking name and a numeric label among them): the output
/// equals the golden file recorded with the binary from before the values' cluster-independent
/// work was kept per run (`tests/fixtures/fleet-values-cache/expected.yaml`), on one thread
/// and on several.
#[test]
fn values_prepared_once_per_customization_render_as_before() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fleet-values-cache");
    let expected = std::fs::read_to_string(dir.join("expected.yaml")).unwrap();
    let expected_err = std::fs::read_to_string(dir.join("expected.stderr")).unwrap();
    let config = dir.join("tailor.yaml").display().to_string();
    let bundle = dir.join("bundle").display().to_string();
    for threads in ["1", "3"] {
        let r = run_tailor_env(
            &[config.as_str(), bundle.as_str()],
            &[("TAILOR_THREADS", threads)],
            "",
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stderr, expected_err);
        assert_eq!(r.stdout, expected, "{threads} threads");
    }
}
