//! A fan-out renders once per distinct destination and copies the rendering for the others
//! (docs/design.md). That must change nothing a user sees: the objects, the files written, the
//! results on stderr and in the ResourceList are the same bytes as rendering every destination
//! on its own (`TAILOR_FAN_OUT_DEDUP=0`), whatever `TAILOR_THREADS`. `tests/examples.rs` checks
//! every example both ways; these are fan-outs built to share renderings, and to not share them
//! where a stage reads the cluster (templates, properties).

mod common;

use common::{read_tree, run_tailor_env, temp_dir};

const MANIFESTS: &[(&str, &str)] = &[
    (
        "deployment.yaml",
        "# the front end\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  annotations:\n    control.kubestellar.io/expand-templates: \"true\"\n    tailor.dev/region: '{{ .region }}'\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: registry.example.com/web:1.0\n        env:\n        - name: TIER\n          value: none\n",
    ),
    (
        "config.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  level: info\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  ports:\n  - port: 80 # http\n",
    ),
];

/// Nine clusters in four label groups (dev in eu, prod, test, unlabelled) with KubeStellar
/// properties; `test` is doNotDeploy, the unlabelled ones get the spec's own options.
const CLUSTERS: &str = "  clusters:
  - {name: dev-1, labels: {env: dev, region: eu}, properties: {region: eu, tier: bronze}}
  - {name: prod-1, labels: {env: prod}, properties: {region: us, tier: gold}}
  - {name: dev-2, labels: {env: dev, region: eu}, properties: {region: eu, tier: bronze}}
  - {name: test-1, labels: {env: test}}
  - {name: plain-1, properties: {region: none, tier: none}}
  - {name: prod-2, labels: {env: prod}, properties: {region: us, tier: gold}}
  - {name: dev-3, labels: {env: dev, region: eu}, properties: {region: eu, tier: silver}}
  - {name: plain-2, properties: {region: none, tier: none}}
  - {name: test-2, labels: {env: test}}
";

/// Target customizations (and their mode) over [`CLUSTERS`]; a patch for an object that does
/// not exist warns for each destination that gets it.
fn customizations(mode: &str) -> String {
    format!(
        "  targetCustomizationMode: {mode}
  targetCustomizations:
  - name: test
    clusterSelector: {{matchLabels: {{env: test}}}}
    doNotDeploy: true
  - name: prod
    clusterSelector: {{matchLabels: {{env: prod}}}}
    images: [{{name: registry.example.com/web, newTag: \"2.0\"}}]
    patches:
    - target: {{kind: Deployment, name: web}}
      patch: |
        - op: replace
          path: /spec/replicas
          value: 3
  - name: eu
    clusterSelector: {{matchLabels: {{region: eu}}}}
    commonMetadata: {{labels: {{zone: eu}}}}
    patches:
    - target: {{kind: Deployment, name: missing}}
      patch: |
        - op: replace
          path: /spec/replicas
          value: 2
  - name: dev
    clusterSelector: {{matchLabels: {{env: dev}}}}
    images: [{{name: registry.example.com/web, newTag: \"2.1-rc\"}}]
"
    )
}

/// A `Tailor` config: the clusters, `extra` spec fields, templates on or off.
fn config(extra: &str, templates: bool) -> String {
    format!(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: dedupe\nspec:\n{CLUSTERS}  templates: {{enabled: {templates}}}\n  commonMetadata: {{labels: {{app: shop}}}}\n{extra}"
    )
}

/// A replacement from the `tier` property: every destination reads its own properties.
const FROM_PROPERTY: &str = "  replacements:
  - source: {property: tier}
    targets:
    - select: {kind: Deployment, name: web}
      fieldPaths:
      - spec.template.spec.containers.[name=web].env.[name=TIER].value
";

/// The package: CONFIG and manifests/ in a fresh directory; the Deployment's template
/// annotation is `{{ .region }}`, or [`TEMPLATE`]'s text from the config when it has it (the
/// Deployment asks for template expansion only when that text holds a template).
fn package(tag: &str, config: &str) -> common::TempDir {
    let dir = temp_dir(tag);
    std::fs::write(dir.join("tailor.yaml"), config).unwrap();
    std::fs::create_dir_all(dir.join("manifests")).unwrap();
    let template = config
        .lines()
        .find_map(|l| l.strip_prefix(TEMPLATE))
        .unwrap_or("{{ .region }}");
    for (name, text) in MANIFESTS {
        let mut text = text.replace("{{ .region }}", template);
        if !template.contains("{{") {
            // Flux variables only: no object asks for templates.
            text = text.replace(
                "    control.kubestellar.io/expand-templates: \"true\"\n",
                "",
            );
        }
        std::fs::write(dir.join("manifests").join(name), text).unwrap();
    }
    dir
}

/// A comment line in a config that sets the Deployment's template annotation.
const TEMPLATE: &str = "# template: ";

/// What one run shows: stdout, stderr, exit code and the files written under `out/`.
#[derive(Debug, PartialEq)]
struct Seen {
    stdout: String,
    stderr: String,
    code: i32,
    files: std::collections::BTreeMap<String, Vec<u8>>,
}

fn run(dir: &std::path::Path, args: &[&str], dedup: &str, threads: &str) -> Seen {
    let out = dir.join(format!("out-{dedup}-{threads}"));
    let config = dir.join("tailor.yaml");
    let manifests = dir.join("manifests");
    let mut argv = vec![config.to_str().unwrap(), manifests.to_str().unwrap()];
    let out_arg = out.to_str().unwrap().to_string();
    let writes = args.contains(&"--output-dir");
    argv.extend_from_slice(args);
    if writes {
        argv.push(&out_arg);
    }
    let env = [("TAILOR_FAN_OUT_DEDUP", dedup), ("TAILOR_THREADS", threads)];
    let r = run_tailor_env(&argv, &env, "");
    let files = if out.exists() {
        read_tree(&out)
    } else {
        Default::default()
    };
    Seen {
        stdout: r.stdout,
        stderr: r.stderr,
        code: r.code,
        files,
    }
}

/// Every output form, on one thread and on three, deduplicated and not: all the same.
fn same_both_ways(tag: &str, config: &str) -> Seen {
    same_both_ways_ending(tag, config, 0)
}

/// [`same_both_ways`] for a run that ends with exit `code`.
fn same_both_ways_ending(tag: &str, config: &str, code: i32) -> Seen {
    let dir = package(tag, config);
    let forms: [&[&str]; 3] = [&[], &["-o", "resource-list"], &["--output-dir"]];
    let mut first = None;
    for args in forms {
        let plain = run(&dir, args, "0", "1");
        assert_eq!(plain.code, code, "{tag} {args:?}: {}", plain.stderr);
        for (dedup, threads) in [("1", "1"), ("1", "3"), ("0", "3")] {
            let seen = run(&dir, args, dedup, threads);
            assert_eq!(
                seen, plain,
                "{tag} {args:?}: TAILOR_FAN_OUT_DEDUP={dedup} TAILOR_THREADS={threads}"
            );
        }
        first.get_or_insert(plain);
    }
    first.unwrap()
}

fn explained(config: &str, tag: &str) -> String {
    explained_ending(config, tag, 0)
}

/// The `--explain` summary line of a run that ends with exit `code`.
fn explained_ending(config: &str, tag: &str, code: i32) -> String {
    let dir = package(tag, config);
    let seen = run(&dir, &["--explain"], "1", "2");
    assert_eq!(seen.code, code, "{}", seen.stderr);
    seen.stdout.lines().last().unwrap_or_default().to_string()
}

#[test]
fn first_match_fan_out_is_the_same_deduplicated() {
    let config = config(&customizations("FirstMatch"), false);
    let seen = same_both_ways("dedupe-first", &config);
    // The groups render differently (and the test clusters get nothing).
    assert!(seen.stdout.contains("# tailor.dev/cluster: dev-3"));
    assert!(!seen.stdout.contains("# tailor.dev/cluster: test-1"));
    assert!(seen.stdout.contains("image: registry.example.com/web:2.0"));
    assert!(seen.stdout.contains("zone: eu") || seen.stdout.contains("2.1-rc"));
    assert_eq!(
        explained(&config, "dedupe-first-explain"),
        "fan-out: 9 destinations, 4 distinct renderings"
    );
}

#[test]
fn all_matches_fan_out_is_the_same_deduplicated() {
    let config = config(&customizations("AllMatches"), false);
    let seen = same_both_ways("dedupe-all", &config);
    // AllMatches: the eu clusters get eu's label and dev's image; the missing patch target
    // warns once, naming every destination that got it, in order.
    let list = run(
        &package("dedupe-all-list", &config),
        &["-o", "resource-list"],
        "1",
        "2",
    );
    assert!(
        list.stdout
            .contains("clusters \\\"dev-1\\\", \\\"dev-2\\\", \\\"dev-3\\\"")
            || list
                .stdout
                .contains("clusters \"dev-1\", \"dev-2\", \"dev-3\""),
        "{}",
        list.stdout
    );
    assert!(seen.stdout.contains("2.1-rc"));
    assert_eq!(
        explained(&config, "dedupe-all-explain"),
        "fan-out: 9 destinations, 4 distinct renderings"
    );
}

#[test]
fn templates_and_properties_render_each_destination() {
    for (tag, extra, templates) in [
        ("dedupe-templates", customizations("FirstMatch"), true),
        (
            "dedupe-properties",
            format!("{}{FROM_PROPERTY}", customizations("AllMatches")),
            false,
        ),
    ] {
        let config = config(&extra, templates);
        let seen = same_both_ways(tag, &config);
        if templates {
            assert!(
                seen.stdout.contains("tailor.dev/region: 'eu'")
                    || seen.stdout.contains("tailor.dev/region: eu")
            );
        } else {
            assert!(seen.stdout.contains("value: silver"), "{}", seen.stdout);
        }
        // The properties hold each cluster's name: every destination renders on its own (the
        // doNotDeploy ones too, to nothing).
        assert_eq!(
            explained(&config, &format!("{tag}-explain")),
            "fan-out: 9 destinations, 9 distinct renderings"
        );
    }
}

/// A destination whose template fails: the same errors, naming the same clusters, both ways.
#[test]
fn errors_are_the_same_deduplicated() {
    let config = config(&customizations("AllMatches"), true)
        .replace(", properties: {region: none, tier: none}", "");
    let seen = same_both_ways_ending("dedupe-errors", &config, 1);
    assert!(
        seen.stderr.contains("cluster \"plain-1\""),
        "{}",
        seen.stderr
    );
    assert!(seen.files.is_empty());
}

#[test]
fn a_value_other_than_0_or_1_is_an_error_naming_the_variable() {
    let dir = package("dedupe-env", &config(&customizations("FirstMatch"), false));
    let seen = run(&dir, &[], "yes", "1");
    assert_eq!(seen.code, 1);
    assert!(
        seen.stderr.contains("TAILOR_FAN_OUT_DEDUP=\"yes\""),
        "{}",
        seen.stderr
    );
    assert!(seen.stdout.is_empty());
}

/// Seven clusters whose properties split them by region: eu (three, two tiers), us (two), an
/// empty region and none at all. Their names set every one's properties apart.
const REGIONS: &str = "  clusters:
  - {name: eu-1, properties: {region: eu, tier: gold}}
  - {name: us-1, properties: {region: us, tier: gold}}
  - {name: eu-2, properties: {region: eu, tier: bronze}}
  - {name: blank-1, properties: {region: '', tier: gold}}
  - {name: us-2, properties: {region: us, tier: bronze}}
  - {name: eu-3, properties: {region: eu, tier: gold}}
  - {name: none-1, properties: {tier: gold}}
";

/// A `Tailor` config over [`REGIONS`] (less the clusters whose names contain one of `drop`),
/// without target customizations, the Deployment's annotation holding `template`; `extra` spec
/// fields.
fn by_region(drop: &[&str], template: &str, extra: &str) -> String {
    let clusters: String = REGIONS
        .lines()
        .filter(|l| !drop.iter().any(|d| l.contains(d)))
        .map(|l| format!("{l}\n"))
        .collect();
    format!("{TEMPLATE}{template}\napiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: dedupe\nspec:\n{clusters}{extra}")
}

#[test]
fn templates_reading_some_properties_share_a_rendering_per_value() {
    // `{{ .region }}` alone: eu, us and the empty region each render once.
    let config = by_region(&["none-1"], "{{ .region }}", "");
    let seen = same_both_ways("dedupe-region", &config);
    assert!(
        seen.stdout.contains("tailor.dev/region: 'eu'"),
        "{}",
        seen.stdout
    );
    assert!(
        seen.stdout.contains("tailor.dev/region: ''\n"),
        "{}",
        seen.stdout
    );
    assert_eq!(
        explained(&config, "dedupe-region-explain"),
        "fan-out: 6 destinations, 3 distinct renderings"
    );
    // Two properties: eu splits by tier.
    let config = by_region(&["none-1"], "{{ .region }}-{{ .tier }}", "");
    same_both_ways("dedupe-region-tier", &config);
    assert_eq!(
        explained(&config, "dedupe-region-tier-explain"),
        "fan-out: 6 destinations, 5 distinct renderings"
    );
}

#[test]
fn a_missing_property_fails_naming_each_destination_that_misses_it() {
    // none-1 has no region: its error names it, whatever the others share.
    let config = by_region(&[], "{{ .region }}", "").replace(
        "  - {name: eu-3",
        "  - {name: none-2, properties: {tier: gold}}\n  - {name: eu-3",
    );
    let seen = same_both_ways_ending("dedupe-region-missing", &config, 1);
    assert!(seen.stderr.contains("none-1/"), "{}", seen.stderr);
    assert!(seen.stderr.contains("none-2/"), "{}", seen.stderr);
}

#[test]
fn templates_that_read_the_name_or_any_property_render_each_destination() {
    for (tag, template) in [
        ("dedupe-name", "{{ .clusterName }}"),
        ("dedupe-index", "{{ index . \"region\" }}"),
        ("dedupe-dot", "{{ printf \"%v\" . }}"),
        ("dedupe-range", "{{ range $k, $v := . }}{{ $k }}{{ end }}"),
        // A function may fail in words that name the destination.
        ("dedupe-func", "{{ printf \"%s\" .region }}"),
    ] {
        let config = by_region(&["none-1"], template, "");
        same_both_ways(tag, &config);
        assert_eq!(
            explained(&config, &format!("{tag}-explain")),
            "fan-out: 6 destinations, 6 distinct renderings",
            "{template}"
        );
    }
}

/// Flux postBuild with an inline variable (the properties are variables too).
const POST_BUILD: &str = "  postBuild:
    substitute: {owner: team-a}
";

#[test]
fn post_build_and_replacements_share_a_rendering_per_value_they_read() {
    // No object asks for templates: the substitution reads the variables the objects name.
    let with_vars = |extra: &str| by_region(&["none-1"], "${region}-${tier:=none}-${owner}", extra);
    let config = with_vars(POST_BUILD);
    let seen = same_both_ways("dedupe-post-build", &config);
    assert!(seen.stdout.contains("eu-gold-team-a"), "{}", seen.stdout);
    assert_eq!(
        explained(&config, "dedupe-post-build-explain"),
        "fan-out: 6 destinations, 5 distinct renderings"
    );
    // Replacements from the `tier` property: gold and bronze. Templates are off: a stage after
    // one that may write (a replacement) may find anything, so with them on every
    // destination renders on its own.
    let config = with_vars(&format!("  templates: {{enabled: false}}\n{FROM_PROPERTY}"));
    let seen = same_both_ways("dedupe-replaced", &config);
    assert!(seen.stdout.contains("value: bronze"), "{}", seen.stdout);
    assert_eq!(
        explained(&config, "dedupe-replaced-explain"),
        "fan-out: 6 destinations, 2 distinct renderings"
    );
    let config = with_vars(FROM_PROPERTY);
    same_both_ways("dedupe-replaced-templates", &config);
    assert_eq!(
        explained(&config, "dedupe-replaced-templates-explain"),
        "fan-out: 6 destinations, 6 distinct renderings"
    );
}

#[test]
fn a_variable_missing_for_some_destinations_fails_for_each_of_them_alike() {
    // none-1 and none-2 miss the `region` variable (strict): they share a rendering, and the
    // error is reported for both, in the same words as when each renders on its own.
    let config = by_region(&[], "${region}", POST_BUILD).replace(
        "  - {name: eu-3",
        "  - {name: none-2, properties: {tier: gold}}\n  - {name: eu-3",
    );
    let seen = same_both_ways_ending("dedupe-post-build-missing", &config, 1);
    assert!(
        seen.stderr.contains("clusters \"none-2\", \"none-1\""),
        "{}",
        seen.stderr
    );
    assert!(seen.stderr.contains("variable not set"), "{}", seen.stderr);
    assert_eq!(
        explained_ending(&config, "dedupe-post-build-missing-explain", 0),
        "fan-out: 8 destinations, 4 distinct renderings"
    );
}
