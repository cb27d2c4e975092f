//! Regression tests, through the binary, for the differences from the upstreams that their own
//! suites showed (issue 15): each case is an input, the exit code, and a message or output the
//! upstream's behaviour implies.
mod common;

use common::run_tailor;

const RL: &str = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n";

struct Case {
    name: &'static str,
    input: String,
    code: i32,
    /// Texts the output (stdout and stderr) must contain.
    contains: &'static [&'static str],
    /// Texts it must not contain.
    lacks: &'static [&'static str],
}

fn check(cases: Vec<Case>) {
    let mut failures = Vec::new();
    for c in &cases {
        let r = run_tailor(&[], &c.input);
        let all = format!("{}\n--- stderr\n{}", r.stdout, r.stderr);
        let mut why = Vec::new();
        if r.code != c.code {
            why.push(format!("exit {} (want {})", r.code, c.code));
        }
        for want in c.contains {
            if !all.contains(want) {
                why.push(format!("lacks {want:?}"));
            }
        }
        for not in c.lacks {
            if all.contains(not) {
                why.push(format!("contains {not:?}"));
            }
        }
        if !why.is_empty() {
            failures.push(format!("--- {}: {}\n{all}", c.name, why.join("; ")));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn kpt_and_kustomize_conventions() {
    check(vec![
        Case {
            name: "a local-config ConfigMap is a replacement source",
            input: format!("{RL}items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: src\n    annotations:\n      config.kubernetes.io/local-config: \"true\"\n  data:\n    env: prod\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\nfunctionConfig:\n  apiVersion: fn.kpt.dev/v1alpha1\n  kind: ApplyReplacements\n  metadata: {{name: r}}\n  replacements:\n  - source: {{kind: ConfigMap, name: src, fieldPath: data.env}}\n    targets:\n    - select: {{kind: Deployment}}\n      fieldPaths: [metadata.labels.env]\n      options: {{create: true}}\n"),
            code: 0,
            contains: &["  metadata:\n    name: web\n    labels:\n      env: prod\n"],
            lacks: &[],
        },
        Case {
            name: "the Kptfile is a replacement source",
            input: format!("{RL}items:\n- apiVersion: kpt.dev/v1\n  kind: Kptfile\n  metadata:\n    name: pkg\n  info:\n    description: shop\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\nfunctionConfig:\n  apiVersion: fn.kpt.dev/v1alpha1\n  kind: ApplyReplacements\n  metadata: {{name: r}}\n  replacements:\n  - source: {{kind: Kptfile, name: pkg, fieldPath: info.description}}\n    targets:\n    - select: {{kind: ConfigMap}}\n      fieldPaths: [data.app]\n      options: {{create: true}}\n"),
            code: 0,
            contains: &["data:\n    app: shop"],
            lacks: &[],
        },
        Case {
            name: "a replacement that empties metadata.name is an error",
            input: format!("{RL}items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    empty: \"\"\nfunctionConfig:\n  apiVersion: builtin\n  kind: ReplacementTransformer\n  metadata: {{name: r}}\n  replacements:\n  - source: {{kind: ConfigMap, name: a, fieldPath: data.empty}}\n    targets:\n    - select: {{kind: ConfigMap}}\n      fieldPaths: [metadata.name]\n"),
            code: 1,
            contains: &["missing metadata.name in object v1/ConfigMap/ after replacements"],
            lacks: &[],
        },
        Case {
            name: "ApplyReplacements ignores an unknown field as kpt does, with a warning",
            input: format!("{RL}items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: a}}\n  data: {{x: \"1\", y: \"2\"}}\nfunctionConfig:\n  apiVersion: fn.kpt.dev/v1alpha1\n  kind: ApplyReplacements\n  metadata: {{name: r}}\n  replacements:\n  - source: {{kind: ConfigMap, name: a, fieldPath: data.x}}\n    targets:\n    - select: {{kind: ConfigMap}}\n      fieldPaths: [data.y]\n      options: {{creat: true}}\n"),
            code: 0,
            contains: &[
                "unknown field \"creat\" is ignored, as kpt's ApplyReplacements does (did you mean \"create\"?)",
                "severity: warning",
            ],
            lacks: &[],
        },
    ]);
}
