//! Behaviour tests of the filter: selectors, options, the live source, properties, the
//! kustomize-loop guard, speed and robustness.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{json, Value as Json};
use tailor_kustomize::replacements::{apply, parse_replacements, Error};
use tailor_testkit::string_map;
use tailor_testkit::yaml::docs;
use tailor_testkit::Rng;
use tailor_yaml::{emit_node, EmitOptions, Node};

fn run_with(resources: &str, config: &str, props: &[(&str, &str)]) -> Result<Vec<Node>, Error> {
    let mut res = docs(resources);
    let list = docs(config).remove(0);
    let r = parse_replacements(&list)?;
    apply(&mut res, &r, &string_map(props))?;
    Ok(res)
}

fn run(resources: &str, config: &str) -> Result<Vec<Node>, Error> {
    run_with(resources, config, &[])
}

fn data(nodes: &[Node]) -> Vec<Json> {
    nodes.iter().map(|n| n.to_json().unwrap()).collect()
}

const CMS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: v\n  b: old\n  n: 8080\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  labels: {skip: yes}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n  labels: {skip: yes}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n";

#[test]
fn live_source_sees_earlier_writes() {
    let out = run(
        CMS,
        "- source: {kind: ConfigMap, fieldPath: data.a}\n  targets:\n  - select: {kind: ConfigMap}\n    fieldPaths: [data.a, data.b]\n    options: {delimiter: /, index: -1}\n",
    )
    .unwrap();
    assert_eq!(
        out[0].get_path(&["data", "a"]).unwrap().as_str(),
        Some("v/v")
    );
    assert_eq!(
        out[0].get_path(&["data", "b"]).unwrap().as_str(),
        Some("v/v/old")
    );
}

#[test]
fn reject_entry_ors_its_two_halves() {
    let out = run(
        CMS,
        "- source: {kind: ConfigMap, fieldPath: data.a}\n  targets:\n  - select: {}\n    reject: [{kind: Secret, labelSelector: skip=yes}]\n    fieldPaths: [metadata.annotations.x]\n    options: {create: true}\n",
    )
    .unwrap();
    let touched: Vec<bool> = out
        .iter()
        .map(|n| n.get_path(&["metadata", "annotations", "x"]).is_some())
        .collect();
    assert_eq!(touched, [true, false, false, false, true]);
}

#[test]
fn default_namespace_selects_unnamespaced_objects() {
    let out = run(
        CMS,
        "- source: {kind: Namespace, namespace: default}\n  targets:\n  - select: {namespace: default, kind: ConfigMap}\n    fieldPaths: [data.ns]\n    options: {create: true}\n",
    )
    .unwrap();
    assert_eq!(
        out[0].get_path(&["data", "ns"]).unwrap().as_str(),
        Some("ns")
    );
}

#[test]
fn selection_errors_are_kustomize_messages() {
    let e = run(CMS, "- source: {kind: Secret, fieldPath: data.x, options: {delimiter: '-', index: 1}}\n  targets: [{select: {}}]\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "multiple matches for selector Secret.[noVer].[noGrp]/[noName].[noNs]:data.x:-(1), create=false"
    );
    let e = run(
        CMS,
        "- source: {group: apps, name: nope, namespace: ns1}\n  targets: [{select: {}}]\n",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "nothing selected by [noKind].[noVer].apps/nope.ns1"
    );
    let e = run(
        CMS,
        "- source: {kind: ConfigMap, fieldPath: data.zz}\n  targets: [{select: {}}]\n",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "fieldPath `data.zz` is missing for replacement source ConfigMap.[noVer].[noGrp]/[noName].[noNs]"
    );
    let e = run(
        CMS,
        "- source: {kind: ConfigMap}\n  targets: [{fieldPaths: [x]}]\n",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "target must specify resources to select");
    let e = run(
        CMS,
        "- source: {kind: ConfigMap}\n  targets: [{select: {labelSelector: 'a b'}}]\n",
    )
    .unwrap_err();
    assert!(
        e.to_string().starts_with("unable to parse requirement"),
        "{e}"
    );
}

#[test]
fn scalar_writes_keep_the_target_type() {
    let out = run(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  s: x\n  q: 'y'\n  n: 1\n",
        "- sourceValue: '8080'\n  targets:\n  - select: {}\n    fieldPaths: [data.s, data.q, data.n, data.c]\n    options: {create: true}\n",
    )
    .unwrap();
    assert_eq!(
        data(&out)[0]["data"],
        json!({"s": "8080", "q": "8080", "n": 8080, "c": 8080})
    );
    let text = emit_node(&out[0], EmitOptions::default());
    assert!(
        text.contains("s: \"8080\"") && text.contains("q: '8080'"),
        "{text}"
    );
    let e = run(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  n: 1\n",
        "- sourceValue: abc\n  targets:\n  - select: {}\n    fieldPaths: [data.n]\n",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "map[string]interface {}(nil): yaml: cannot decode !!str `abc` as a !!int"
    );
}

#[test]
fn cluster_properties_as_sources() {
    let cfg = "- source: {property: region, options: {delimiter: '-', index: 0}}\n  targets:\n  - select: {kind: ConfigMap}\n    fieldPaths: [data.region]\n    options: {create: true}\n";
    let out = run_with(CMS, cfg, &[("region", "eu-west")]).unwrap();
    assert_eq!(
        out[0].get_path(&["data", "region"]).unwrap().as_str(),
        Some("eu")
    );
    let e = run_with(CMS, cfg, &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "replacement source property \"region\" needs a destination cluster, and none is named: set spec.cluster or spec.clusters"
    );
    let e = run_with(CMS, cfg, &[("regoin", "eu"), ("env", "prod")]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown cluster property \"region\" in replacement source (did you mean \"regoin\"?); the destination's properties are env, regoin"
    );
}

#[test]
fn previous_names_select_targets() {
    let res = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: pre-pod-suf\n  annotations:\n    internal.config.kubernetes.io/previousNames: pod,pre-pod\n    internal.config.kubernetes.io/previousNamespaces: default,default\n    internal.config.kubernetes.io/previousKinds: Pod,Pod\nspec: {}\n";
    let out = run(res, "- sourceValue: x\n  targets:\n  - select: {name: pod}\n    fieldPaths: [spec.x]\n    options: {create: true}\n").unwrap();
    assert_eq!(out[0].get_path(&["spec", "x"]).unwrap().as_str(), Some("x"));
}

#[test]
fn self_mismatching_create_is_an_error_not_a_hang() {
    let e = run(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: []\n",
        "- sourceValue: img\n  targets:\n  - select: {}\n    fieldPaths: ['spec.containers.[name=^x$].image']\n    options: {create: true}\n",
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("unable to find or create field \"spec.containers.[name=^x$].image\" in replacement target: "), "{e}");
    assert!(e.to_string().contains("loop forever"));
}

#[test]
fn create_appends_elements_and_maps() {
    let out = run(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n",
        "- sourceValue: '8080'\n  targets:\n  - select: {}\n    fieldPaths: ['spec.containers.[name=b].ports.[containerPort=80].hostPort', spec.containers.1.args.0, 'spec.new.[=z]']\n    options: {create: true}\n",
    )
    .unwrap();
    assert_eq!(
        data(&out)[0]["spec"],
        json!({"containers": [{"name": "a"}, {"name": "b", "ports": [{"containerPort": 80, "hostPort": 8080}], "args": [8080]}], "new": [8080]})
    );
}

#[test]
fn six_thousand_pairs_are_fast() {
    let mut text = String::new();
    for i in 0..6000 {
        text += &format!("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-{i}\n  labels: {{app: app-{i}}}\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.25\n        env:\n        - name: SVC\n          value: x\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: app-{i}\nspec:\n  selector: {{app: app-{i}}}\n  ports:\n  - port: 80\n---\n");
    }
    text += "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {image: 'nginx:1.27', port: '8080'}\n";
    let mut res = docs(&text);
    let cfg = docs("- source: {kind: ConfigMap, name: settings, fieldPath: data.image}\n  targets:\n  - select: {kind: Deployment}\n    fieldPaths: ['spec.template.spec.containers.[name=app].image']\n- source: {kind: ConfigMap, name: settings, fieldPath: data.port}\n  targets:\n  - select: {kind: Service}\n    fieldPaths: [spec.ports.0.targetPort]\n    options: {create: true}\n").remove(0);
    let r = parse_replacements(&cfg).unwrap();
    let start = Instant::now();
    apply(&mut res, &r, &BTreeMap::new()).unwrap();
    let took = start.elapsed();
    println!("2 replacements over 6000 Deployment+Service pairs: {took:?}");
    assert_eq!(
        res[11998]
            .get_path(&["spec", "template", "spec", "containers"])
            .unwrap()
            .items()
            .unwrap()[0]
            .get_str("image"),
        Some("nginx:1.27")
    );
    assert_eq!(
        res[11999]
            .get_path(&["spec", "ports"])
            .unwrap()
            .items()
            .unwrap()[0]
            .to_json()
            .unwrap()["targetPort"],
        json!(8080)
    );
    let budget = if cfg!(debug_assertions) { 5.0 } else { 0.5 };
    assert!(took.as_secs_f64() < budget, "{took:?}");
}

/// No input may panic: pseudo-random paths, options and selectors over a fixed resource set.
#[test]
fn random_configs_never_panic() {
    let mut rng = Rng::xorshift64(0x1234_5678_9ABC_DEF1);
    const SEGS: &[&str] = &[
        "spec",
        "data",
        "a",
        "0",
        "1",
        "-1",
        "-",
        "*",
        "[name=a]",
        "[=x]",
        "[a.b]",
        "[name=(]",
        "[",
        "]",
        "",
        " ",
        "\\",
        "[name=^q$]",
        "containers",
        "9999999999999999999999",
        "+1",
        "metadata",
        "name",
        "[x",
    ];
    let resources = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: x, l: [x, y], m: {k: v}, n: ~, e: []}\nspec:\n  containers:\n  - name: a\n  - q\n  - ~\n";
    for _ in 0..3000 {
        let mut path = Vec::new();
        for _ in 0..1 + rng.below(4) {
            path.push(rng.pick(SEGS));
        }
        let p = path.join(".");
        let q = rng.pick(SEGS);
        let create = rng.coin();
        let delim = rng.pick(&["", "/", "."]);
        let index = rng.below(7) as i64 - 3;
        let cfg = format!(
            "- source: {{kind: ConfigMap, fieldPath: {}}}\n  targets:\n  - select: {{}}\n    fieldPaths: [{}]\n    options: {{create: {create}, delimiter: {}, index: {index}}}\n",
            serde_json::to_string(&format!("data.{q}")).unwrap(),
            serde_json::to_string(&p).unwrap(),
            serde_json::to_string(delim).unwrap(),
        );
        let _ = run(resources, &cfg);
    }
}
