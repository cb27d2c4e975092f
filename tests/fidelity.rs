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

/// A Flux Kustomization functionConfig with `spec` (indented four spaces) and the items.
fn flux(items: &str, spec: &str) -> String {
    format!("{RL}items:\n{items}functionConfig:\n  apiVersion: kustomize.toolkit.fluxcd.io/v1\n  kind: Kustomization\n  metadata:\n    name: apps\n    namespace: flux-system\n  spec:\n{spec}")
}

const APP: &str = "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: app\n  data:\n    region: ${region}\n";
const VARS: &str = "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cluster-vars\n    namespace: flux-system\n  data:\n    region: eu-west-1\n";

#[test]
fn flux_controller_rules() {
    let from =
        "    postBuild:\n      substituteFrom:\n      - {kind: ConfigMap, name: cluster-vars}\n";
    check(vec![
        Case {
            name: "a Secret's stringData is a source, winning over data",
            input: flux(
                &format!("{APP}- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s\n    namespace: flux-system\n  data:\n    region: b2xk\n  stringData:\n    region: new\n"),
                "    postBuild:\n      substituteFrom:\n      - {kind: Secret, name: s}\n",
            ),
            code: 0,
            contains: &["region: new"],
            lacks: &["- apiVersion: v1\n  kind: Secret"],
        },
        Case {
            name: "sources are looked up as read: targetNamespace and namePrefix do not move them",
            input: flux(&format!("{APP}{VARS}"), &format!("    targetNamespace: apps\n    namePrefix: p-\n{from}")),
            code: 0,
            contains: &["name: p-app", "namespace: apps", "region: eu-west-1"],
            lacks: &["    name: cluster-vars\n"],
        },
        Case {
            name: "a source sharing a built object's identity: the local-config one is the source",
            input: flux(
                &format!("{APP}- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cluster-vars\n    namespace: flux-system\n    labels:\n      kustomize.toolkit.fluxcd.io/substitute: disabled\n  data:\n    built: \"yes\"\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cluster-vars\n    namespace: flux-system\n    annotations:\n      config.kubernetes.io/local-config: \"true\"\n  data:\n    region: eu-west-1\n"),
                from,
            ),
            code: 0,
            contains: &["region: eu-west-1", "built: \"yes\""],
            lacks: &["local-config"],
        },
        Case {
            name: "two unmarked objects of a source's identity are an error that says what to do",
            input: flux(&format!("{APP}{VARS}{VARS}"), from),
            code: 1,
            contains: &["2 items are ConfigMap \"cluster-vars\"; mark the one that is the cluster's"],
            lacks: &[],
        },
        Case {
            name: "a missing source is not read when nothing is substituted",
            input: flux(
                "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: app\n    labels:\n      kustomize.toolkit.fluxcd.io/substitute: disabled\n  data:\n    region: ${region}\n",
                from,
            ),
            code: 0,
            contains: &["region: ${region}"],
            lacks: &[],
        },
        Case {
            name: "commonMetadata comes after substitution",
            input: flux(
                &format!("{APP}{VARS}"),
                &format!("    commonMetadata:\n      labels:\n        env: ${{region}}\n      annotations:\n        kustomize.toolkit.fluxcd.io/substitute: disabled\n{from}"),
            ),
            code: 0,
            contains: &["region: eu-west-1", "env: ${region}"],
            lacks: &[],
        },
        Case {
            name: "spec.ignore and substituteStrategy WithVariables are accepted",
            input: flux(APP, "    ignore: |\n      /manifests\n    postBuild:\n      substituteStrategy: WithVariables\n      substitute: {region: x}\n"),
            code: 0,
            contains: &["region: x"],
            lacks: &[],
        },
        Case {
            name: "spec.decryption with a SOPS-encrypted Secret is an error, never passed on encrypted",
            input: flux(
                "- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: token\n  data:\n    key: ENC[AES256_GCM,data:x,type:str]\n  sops:\n    age: []\n",
                "    decryption:\n      provider: sops\n",
            ),
            code: 1,
            contains: &["v1/Secret/token is encrypted with SOPS and spec.decryption asks to decrypt it: tailor holds no keys"],
            lacks: &[],
        },
        Case {
            name: "spec.decryption with plain Secrets passes",
            input: flux(
                "- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: token\n  stringData:\n    key: v\n",
                "    decryption:\n      provider: sops\n",
            ),
            code: 0,
            contains: &["key: v"],
            lacks: &[],
        },
        Case {
            name: "spec.buildMetadata is refused, saying why",
            input: flux(APP, "    buildMetadata: [originAnnotations]\n"),
            code: 1,
            contains: &["spec.buildMetadata: the controller records where each resource came from in the source tree"],
            lacks: &[],
        },
    ]);
}

#[test]
fn flux_envsubst_works_line_by_line() {
    let run = |input: &str| {
        let r = common::run_tailor_env(&["envsubst"], &[("X", "1")], input);
        (r.code, r.stdout, r.stderr)
    };
    assert_eq!(run("a: ${X}"), (0, "a: 1\n".into(), String::new()));
    assert_eq!(
        run("a: ${X}\r\nb\r\n"),
        (0, "a: 1\nb\n".into(), String::new())
    );
    assert_eq!(run(""), (0, String::new(), String::new()));
    let (code, out, err) = run("ok\n${Y:-a\nb}\n");
    assert_eq!((code, out.as_str()), (1, "ok\n"));
    assert_eq!(err, "✗ unable to parse substitution within function\n");
}
