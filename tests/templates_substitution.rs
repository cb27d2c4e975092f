//! Golden tests of the template expansion (KubeStellar) and substitution (Flux postBuild)
//! stages through the whole function, and of the `envsubst` / `expand` shell tools.
mod common;

use common::{repo_root, run_tailor};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(repo_root().join("tests/fixtures/templates").join(name)).unwrap()
}

fn snapshot(name: &str, args: &[&str], input: &str) -> common::Run {
    let r = run_tailor(args, input);
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        r.code, r.stdout, r.stderr
    );
    insta::assert_snapshot!(name, text);
    r
}

#[test]
fn kubestellar_cluster_log_forwarder_example() {
    let r = snapshot("clf_example", &[], &fixture("kubestellar-clf.yaml"));
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("url: \"https://my.loki.server.com/virgo-1001-dead-beef\""),
        "{}",
        r.stdout
    );
    // Keys stay, values expand; `location-group` is not an identifier, so not a property.
    assert!(
        r.stdout.contains("\"{{ .key }}\": 'eu-west-7'"),
        "{}",
        r.stdout
    );
}

#[test]
fn expansion_needs_the_annotation_exactly() {
    let r = snapshot("not_triggered", &[], &fixture("not-triggered.yaml"));
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout.matches("{{ .clusterName }}").count(),
        3,
        "{}",
        r.stdout
    );
}

#[test]
fn template_errors_fail_the_run_with_go_messages() {
    let r = snapshot("template_errors", &[], &fixture("errors.yaml"));
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains(r#"map has no entry for key \"registry\""#)
            || r.stdout.contains(r#"map has no entry for key "registry""#),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("template: virgo/Deployment.apps(shop/web).spec.template.spec.containers[0].args[0]:1: unexpected EOF"), "{}", r.stdout);
}

#[test]
fn templates_without_a_destination_are_an_error() {
    let input = fixture("errors.yaml").replace("    clusterName: virgo\n", "");
    let r = run_tailor(&[], &input);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("no destination cluster is named"),
        "{}",
        r.stdout
    );
}

#[test]
fn flux_post_build_substitution() {
    let r = snapshot("post_build", &[], &fixture("postbuild.yaml"));
    assert_eq!(r.code, 0, "{}", r.stdout);
}

#[test]
fn flux_kustomization_function_config() {
    let r = snapshot(
        "flux_kustomization",
        &[],
        &fixture("flux-kustomization.yaml"),
    );
    assert_eq!(r.code, 0);
    let strict = fixture("flux-kustomization.yaml")
        .replace("substitute: {env: prod}", "substitute: {other: x}");
    let r = run_tailor(&[], &strict);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains(r#"post build failed for ''ConfigMap.v1.[noGrp]/app'': envsubst error: variable substitution failed: variable not set (strict mode): \"env\""#)
        || r.stdout.contains(r#"variable not set (strict mode): "env""#), "{}", r.stdout);
    let lax = strict.replace(
        "substitute: {other: x}",
        "substitute: {other: x}\n      strict: false",
    );
    let r = run_tailor(&[], &lax);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("env: null") || r.stdout.contains("env:\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn post_build_config_errors_name_the_field() {
    let bad = fixture("postbuild.yaml").replace("quote: '\"'", "quote: 3");
    let r = run_tailor(&[], &bad);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("path: spec.postBuild.substitute.quote"),
        "{}",
        r.stdout
    );
    let missing =
        fixture("postbuild.yaml").replace("name: not-there, optional: true", "name: not-there");
    let r = run_tailor(&[], &missing);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains(r#"ConfigMap/not-there'' error: configmaps "not-there" not found"#),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("path: spec.postBuild.substituteFrom[2]"),
        "{}",
        r.stdout
    );
}

fn run_tool(args: &[&str], env: &[(&str, &str)], stdin: &str) -> common::Run {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(common::tailor_bin());
    cmd.args(args).env_clear();
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    common::Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn envsubst_tool_is_flux_envsubst() {
    let r = run_tool(
        &["envsubst"],
        &[("REGION", "eu")],
        "r: ${REGION} t: ${TIER:=gold} u: ${UNSET} $$x $y\n",
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "r: eu t: gold u:  $x $y\n"),
        "{}",
        r.stderr
    );
    let r = run_tool(&["envsubst", "--strict"], &[], "a: ${UNSET}\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr.trim_end(),
        "✗ variable not set (strict mode): \"UNSET\""
    );
    let r = run_tool(&["envsubst", "--strict"], &[], "a: ${UNSET:-fallback}\n");
    assert_eq!((r.code, r.stdout.as_str()), (0, "a: fallback\n"));
    let r = run_tool(&["envsubst"], &[], "a: ${oops\n");
    assert_eq!(r.code, 1);
    let r = run_tool(&["envsubst", "--bogus"], &[], "");
    assert_eq!(r.code, 2);
}

#[test]
fn expand_tool_is_go_text_template() {
    let dir = common::temp_dir("expand");
    let props = dir.join("props.yaml");
    std::fs::write(&props, "clusterName: virgo\nclusterHash: 1001-dead-beef\n").unwrap();
    let props = props.to_str().unwrap();
    let r = run_tool(
        &["expand", "--properties", props],
        &[],
        "https://my.loki.server.com/{{ .clusterName }}-{{.clusterHash}}",
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "https://my.loki.server.com/virgo-1001-dead-beef")
    );
    // Go's message on stderr; unlike Go's Execute, nothing on stdout (no half file behind a
    // redirect).
    let r = run_tool(
        &["expand", "--name", "t", "-p", "a=1"],
        &[],
        "x={{.a}} y={{.b}} z",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr.trim_end(),
        "template: t:1:13: executing \"t\" at <.b>: map has no entry for key \"b\""
    );
    let r = run_tool(&["expand", "--name", "t"], &[], "{{ + }}");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr.trim_end(),
        "template: t:1: illegal number syntax: \"+\""
    );
    let r = run_tool(&["expand", "--property", "novalue"], &[], "");
    assert_eq!(r.code, 2);
}
