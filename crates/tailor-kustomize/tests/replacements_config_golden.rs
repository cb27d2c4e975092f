//! Golden tests (insta) of the three config kinds' parsing, and of kustomize's messages for
//! malformed configs.

use std::collections::BTreeMap;

use tailor_kustomize::replacements::{
    parse_config, parse_replacements, parse_replacements_with, Dialect,
};
use tailor_yaml::{parse_stream, Node};

fn node(s: &str) -> Node {
    parse_stream(s).unwrap().remove(0).root
}

const TARGETS: &str = r#"
  - source:
      kind: ConfigMap
      name: cm
      namespace: default
      fieldPath: data.image
      options: {delimiter: ":", index: 1}
    targets:
    - select: {group: apps, kind: Deployment, labelSelector: "app=web"}
      reject:
      - {name: skip-me}
      - {annotationSelector: "tailor.dev/skip=true"}
      fieldPaths:
      - spec.template.spec.containers.[name=app].image
      - metadata.annotations.[example.com/version]
      options: {delimiter: ":", index: -1, create: true}
"#;

#[test]
fn apply_replacements_kpt() {
    let cfg = node(&format!(
        "apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:{TARGETS}"
    ));
    insta::assert_yaml_snapshot!(parse_config(&cfg, &BTreeMap::new()).unwrap());
}

#[test]
fn replacement_transformer_builtin_with_path_file() {
    let cfg = node(&format!(
        "apiVersion: builtin\nkind: ReplacementTransformer\nmetadata:\n  name: r\nreplacements:{TARGETS}  - path: more.yaml\n"
    ));
    let files = BTreeMap::from([(
        "more.yaml".to_string(),
        "source: {kind: Service, name: s, fieldPath: spec.ports.0.port}\ntargets:\n- select: {kind: Deployment}\n  fieldPaths: [spec.template.spec.containers.0.ports.0.containerPort]\n".to_string(),
    )]);
    insta::assert_yaml_snapshot!(parse_config(&cfg, &files).unwrap());
    let err = parse_config(&cfg, &BTreeMap::new()).unwrap_err();
    insta::assert_snapshot!(err.to_string(), @r#"replacements: path "more.yaml" names a file beside a kustomization, which a function cannot read: write its replacements inline"#);
}

#[test]
fn tailor_spec_with_extensions() {
    let cfg = node(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  replacements:\n  - source: {property: clusterHash}\n    targets:\n    - select: {kind: ConfigMap}\n      fieldPaths: [data.hash]\n      options: {create: true}\n  - sourceValue: \"2\"\n    targets:\n    - select: {kind: Deployment}\n      fieldPaths: [spec.replicas]\n",
    );
    insta::assert_yaml_snapshot!(parse_config(&cfg, &BTreeMap::new()).unwrap());
}

#[test]
fn malformed_configs_use_kustomize_messages() {
    let errs: Vec<String> = [
        (
            "- source: {kind: A}\n  targets:\n  - select:\n    - kind: B\n",
            Dialect::Kustomization,
        ),
        (
            "- source: {kind: A, apiVersion: v1}\n  targets: []\n",
            Dialect::Kustomization,
        ),
        (
            "- source: {kind: A}\n  sourceValue: x\n",
            Dialect::Kustomization,
        ),
        ("- source: {kind: 3}\n", Dialect::ReplacementTransformer),
        (
            "- targets:\n  - options: {index: x}\n",
            Dialect::ApplyReplacements,
        ),
        (
            "- path: a.yaml\n  source: {kind: A}\n",
            Dialect::Kustomization,
        ),
        ("- source: {property: p, kind: A}\n", Dialect::Tailor),
        ("replacements: {}\n", Dialect::Tailor),
    ]
    .iter()
    .map(|(text, d)| {
        parse_replacements_with(&node(text), *d, &BTreeMap::new())
            .unwrap_err()
            .to_string()
    })
    .collect();
    insta::assert_yaml_snapshot!(errs);
}

#[test]
fn lenient_readers_ignore_unknown_keys_and_keep_empty_targets() {
    let text = "- source: {kind: A, apiVersion: v1}\n  targets: []\n  path2: x\n";
    let kpt =
        parse_replacements_with(&node(text), Dialect::ApplyReplacements, &BTreeMap::new()).unwrap();
    assert_eq!(kpt[0].targets, Some(vec![]));
    assert!(parse_replacements(&node(text)).is_err());
    let case_insensitive =
        parse_replacements(&node("- SOURCE: {Kind: A, FieldPath: x}\n")).unwrap();
    assert_eq!(
        case_insensitive[0].source.as_ref().unwrap().id.gvk.kind,
        "A"
    );
}
