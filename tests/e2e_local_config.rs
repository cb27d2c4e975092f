//! A local-config ConfigMap as the source of replacements, the kpt catalog's most common
//! pattern, through the real tools: `kpt fn render` (a Kptfile pipeline), `kpt fn eval` and a
//! kustomize `transformers:` entry. Each test skips loudly when its tool is missing.
mod common;

use std::path::Path;
use std::process::Command;

use common::*;

const CONTEXT: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: package-context\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\ndata:\n  env: staging\n";
const DEPLOY: &str =
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n";
const REPLACEMENTS: &str = "replacements:\n- source:\n    kind: ConfigMap\n    name: package-context\n    fieldPath: data.env\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - metadata.labels.env\n    options:\n      create: true\n";

/// The ApplyReplacements config, local-config itself, with extra metadata lines.
fn apply_replacements(extra_metadata: &str) -> String {
    format!("apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: replace\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n{extra_metadata}{REPLACEMENTS}")
}

fn package(dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    std::fs::write(dir.join("context.yaml"), CONTEXT).expect("write");
    std::fs::write(dir.join("deploy.yaml"), DEPLOY).expect("write");
    std::fs::write(dir.join("replacements.yaml"), apply_replacements("")).expect("write");
}

fn assert_labelled(deploy: &str) {
    assert!(deploy.contains("labels:\n    env: staging"), "{deploy}");
}

#[test]
fn kpt_fn_render_with_a_local_config_source() {
    let Some(kpt) = tool("kpt") else { return };
    let dir = temp_dir("local-config-render");
    package(&dir);
    std::fs::write(
        dir.join("Kptfile"),
        format!("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\npipeline:\n  mutators:\n  - exec: {}\n    configPath: replacements.yaml\n", tailor_bin()),
    )
    .expect("Kptfile");
    common::run_ok(
        Command::new(&kpt)
            .args(["fn", "render", "--allow-exec"])
            .arg(&dir),
    );
    assert_labelled(&std::fs::read_to_string(dir.join("deploy.yaml")).expect("read"));
    // The source itself is left as it was.
    assert_eq!(
        std::fs::read_to_string(dir.join("context.yaml")).expect("read"),
        CONTEXT
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kpt_fn_eval_with_a_local_config_source() {
    let Some(kpt) = tool("kpt") else { return };
    let dir = temp_dir("local-config-eval");
    package(&dir);
    let config = dir.join("replacements.yaml");
    common::run_ok(
        Command::new(&kpt)
            .args(["fn", "eval"])
            .arg(&dir)
            .args(["--exec", tailor_bin(), "--fn-config"])
            .arg(&config),
    );
    assert_labelled(&std::fs::read_to_string(dir.join("deploy.yaml")).expect("read"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kustomize_transformer_with_a_local_config_source() {
    let Some(k) = tool("kustomize") else { return };
    let dir = temp_dir("local-config-kustomize");
    package(&dir);
    let function = format!(
        "    config.kubernetes.io/function: |\n      exec:\n        path: {}\n",
        tailor_bin()
    );
    std::fs::write(dir.join("replacements.yaml"), apply_replacements(&function)).expect("write");
    std::fs::write(
        dir.join("kustomization.yaml"),
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- context.yaml\n- deploy.yaml\ntransformers:\n- replacements.yaml\n",
    )
    .expect("write");
    let out = common::run_ok(
        Command::new(&k)
            .args(["build", "--enable-alpha-plugins", "--enable-exec"])
            .arg(&dir),
    );
    assert_labelled(&out);
    let _ = std::fs::remove_dir_all(&dir);
}
