//! Fan-out runs some stages once for all destinations (strip, and the overlay stages when every
//! destination gets the same options) and reuses substitution outcomes that cannot depend on
//! the destination. Whatever it shares, each destination's copy must be exactly what a run for
//! that destination alone gives.

mod common;

use common::{run_tailor, run_tailor_env};
use tailor_yaml::{emit_node, parse_stream, EmitOptions, Node};

const ITEMS: &str = r#"- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # the front end
    namespace: shop
    annotations:
      control.kubestellar.io/expand-templates: "true"
      tailor.dev/cluster: '{{ .clusterName }}'
    managedFields:
    - manager: kubectl
  spec:
    replicas: 1
    template:
      spec:
        containers:
        - name: app
          image: registry.example.com/web:1.0
          env:
          - name: REGION
            value: ${region}
  status:
    readyReplicas: 1
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
    namespace: shop
    labels:
      role: settings
  data:
    big: 9007199254740993 # rounds in Flux's round trip
    level: info
- apiVersion: v1
  kind: Service
  metadata:
    name: web
    namespace: shop
  spec:
    type: ClusterIP
    clusterIP: 10.0.0.7
    ports:
    - port: 80
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cost
    namespace: shop
    labels:
      kustomize.toolkit.fluxcd.io/substitute: disabled
  data:
    price: $${amount}
"#;

const STAGES: &str = r#"  namePrefix: p-
  patches:
  - target:
      kind: Deployment
    patch: |
      - op: replace
        path: /spec/replicas
        value: 3
  commonMetadata:
    labels:
      owner: platform
  images:
  - name: registry.example.com/web
    newTag: "2.0"
  replacements:
  - source:
      property: tier
    targets:
    - select:
        kind: ConfigMap
        labelSelector: role=settings
      fieldPaths:
      - data.level
  postBuild:
    substitute:
      extra: x
"#;

fn cluster(name: &str, region: &str, tier: &str) -> String {
    format!("name: {name}\n  labels:\n    region: {region}\n  properties:\n    region: {region}\n    tier: {tier}\n")
}

fn list(spec_clusters: &str) -> String {
    let mut spec = String::from(spec_clusters);
    for line in STAGES.lines() {
        spec.push_str("  ");
        spec.push_str(line);
        spec.push('\n');
    }
    format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{ITEMS}functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: t\n  spec:\n{spec}")
}

/// The items of an output list, each emitted on its own, with the fan-out path annotations
/// (the only difference a fan-out copy may show) taken away.
fn items_of(output: &str) -> Vec<String> {
    let docs = parse_stream(output).expect("output parses");
    let root = &docs[0].root;
    let items = root.get("items").and_then(Node::items).unwrap_or(&[]);
    items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            if let Some(a) = item
                .get_mut("metadata")
                .and_then(|m| m.get_mut("annotations"))
            {
                a.remove("config.kubernetes.io/path");
                a.remove("internal.config.kubernetes.io/path");
                if a.pairs().is_some_and(<[_]>::is_empty) {
                    item.get_mut("metadata").map(|m| m.remove("annotations"));
                }
            }
            emit_node(&item, EmitOptions::default())
        })
        .collect()
}

#[test]
fn each_fan_out_copy_equals_a_run_for_that_destination_alone() {
    let clusters = [
        ("east", "us-east", "gold"),
        ("west", "us-west", "silver"),
        ("eu", "eu-central", "gold"),
    ];
    let mut spec = String::from("    clusters:\n");
    for (n, r, t) in clusters {
        spec.push_str("    - ");
        spec.push_str(&cluster(n, r, t).replace("\n  ", "\n      "));
    }
    let fanned = run_tailor(&[], &list(&spec));
    assert_eq!(fanned.code, 0, "{}", fanned.stderr);
    let fanned = items_of(&fanned.stdout);
    assert_eq!(fanned.len(), 4 * clusters.len());
    for (k, (n, r, t)) in clusters.into_iter().enumerate() {
        let single = run_tailor(
            &[],
            &list(&format!(
                "    cluster:\n      {}",
                cluster(n, r, t).replace("\n  ", "\n      ")
            )),
        );
        assert_eq!(single.code, 0, "{}", single.stderr);
        let single = items_of(&single.stdout);
        assert_eq!(single.len(), 4);
        for (i, alone) in single.iter().enumerate() {
            assert_eq!(&fanned[4 * k + i], alone, "cluster {n}, item {i}");
        }
        // The stages did run: the copy is tailored for its destination.
        let web = &single[0];
        assert!(web.contains(&format!("value: {r}")), "{web}");
        assert!(web.contains(&format!("tailor.dev/cluster: '{n}'")), "{web}");
        assert!(
            web.contains("replicas: 3") && web.contains("web:2.0"),
            "{web}"
        );
        assert!(single[1].contains(&format!("level: {t}")), "{}", single[1]);
        assert!(single[1].contains("big: 9007199254740992"), "{}", single[1]);
        assert!(single[3].contains("price: $${amount}"), "{}", single[3]);
        assert!(single.iter().all(|i| i.contains("owner: platform")));
        assert!(single
            .iter()
            .all(|i| i.contains("name: p-") && !i.contains("p-p-")));
    }
}

fn run_with_threads(threads: &str, input: &str) -> String {
    let run = run_tailor_env(&[], &[("TAILOR_THREADS", threads)], input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn fan_out_output_does_not_depend_on_the_number_of_threads() {
    let mut spec = String::from("    clusters:\n");
    for i in 0..7 {
        spec.push_str("    - ");
        spec.push_str(
            &cluster(
                &format!("c{i}"),
                &format!("r{}", i % 3),
                ["gold", "silver"][i % 2],
            )
            .replace("\n  ", "\n      "),
        );
    }
    let input = list(&spec);
    let one = run_with_threads("1", &input);
    for threads in ["2", "3", "7", "16"] {
        assert!(
            run_with_threads(threads, &input) == one,
            "TAILOR_THREADS={threads} changed the output"
        );
    }
    assert_eq!(one.matches("name: p-web").count(), 14);
}
