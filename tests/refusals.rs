//! Issue 17, no silent wrong output: the table in `tests/refusals/cases.yaml`, each case a run
//! of the binary with its exit code and the exact lines a user sees; then what a table cannot
//! hold: a fan-out under `kpt fn render` twice, the same results whatever `TAILOR_THREADS`, and
//! the hints on a terminal.

mod common;

use std::path::Path;
use std::process::Command;

use common::upstream::yaml_to_json;
use common::{repo_root, run_tailor_env, tailor_bin, temp_dir, tool};
use serde_json::Value as Json;

fn strings(case: &Json, key: &str) -> Vec<String> {
    case.get(key)
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .map(|v| v.as_str().expect("a string").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs one case; `Err` says what differs.
fn check(case: &Json) -> Result<(), String> {
    let dir = temp_dir("refusal");
    let dir_text = dir.to_string_lossy().into_owned();
    let fill = |s: &str| s.replace("{dir}", &dir_text);
    if let Some(files) = case.get("files").and_then(Json::as_object) {
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, text.as_str().expect("file text")).expect("write");
        }
    }
    let args: Vec<String> = strings(case, "args").iter().map(|a| fill(a)).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stdin = fill(case.get("stdin").and_then(Json::as_str).unwrap_or(""));
    let r = run_tailor_env(&args, &[], &stdin);
    let mut problems = Vec::new();
    let want_code = case["code"].as_i64().expect("code") as i32;
    if r.code != want_code {
        problems.push(format!("exit code {}, want {want_code}", r.code));
    }
    let lines: Vec<&str> = r.stderr.lines().collect();
    let mut from = 0;
    for want in strings(case, "stderr").iter().map(|l| fill(l)) {
        match lines[from..].iter().position(|l| *l == want) {
            Some(k) => from += k + 1,
            None => problems.push(format!("stderr lacks the line (in order):\n  {want}")),
        }
    }
    if let Some(n) = case.get("stderr_lines").and_then(Json::as_u64) {
        if lines.len() as u64 != n {
            problems.push(format!("{} stderr lines, want {n}", lines.len()));
        }
    }
    if let Some(want) = case.get("stdout").and_then(Json::as_str) {
        if r.stdout != fill(want) {
            problems.push(format!("stdout is\n{}\nwant\n{}", r.stdout, fill(want)));
        }
    }
    for s in strings(case, "stdout_has") {
        if !r.stdout.contains(&fill(&s)) {
            problems.push(format!("stdout lacks {s:?}"));
        }
    }
    for s in strings(case, "stdout_lacks") {
        if r.stdout.contains(&fill(&s)) {
            problems.push(format!("stdout has {s:?}"));
        }
    }
    for p in strings(case, "exists") {
        if !dir.join(&p).exists() {
            problems.push(format!("{p} does not exist"));
        }
    }
    for p in strings(case, "absent") {
        if dir.join(&p).exists() {
            problems.push(format!("{p} exists"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\n--- stderr:\n{}",
            problems.join("\n"),
            r.stderr.replace(&dir_text, "{dir}")
        ))
    }
}

#[test]
fn refusal_table() {
    let path = repo_root().join("tests/refusals/cases.yaml");
    let text = std::fs::read_to_string(&path).expect("cases.yaml");
    let doc = yaml_to_json(&text).expect("cases.yaml parses");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c)
                .err()
                .map(|e| format!("--- {}:\n{e}", c["name"].as_str().unwrap_or("?")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

const FAN_OUT: &str = "apiVersion: tailor.dev/v1alpha1
kind: Tailor
metadata:
  name: t
  annotations:
    config.kubernetes.io/local-config: \"true\"
spec:
  clusters: [{name: dev, labels: {env: dev}}, {name: prod, labels: {env: prod}}]
  commonMetadata:
    labels: {team: web}
";

/// The results and the output are the same bytes with 1, 2 and 3 threads, for a fan-out that
/// succeeds and one that fails on every cluster.
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let items = |data: &str| {
        format!(
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm\n    annotations: {{control.kubestellar.io/expand-templates: \"true\"}}\n  data: {{k: \"{data}\"}}\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {{name: t}}\n  spec:\n    clusters: [{{name: a}}, {{name: b}}, {{name: c}}, {{name: d}}, {{name: e}}]\n"
        )
    };
    for (input, code) in [
        (items("{{ .clusterName }}"), 0),
        (items("{{ .nope.x }}"), 1),
    ] {
        let runs: Vec<_> = ["1", "2", "3"]
            .iter()
            .map(|t| run_tailor_env(&[], &[("TAILOR_THREADS", t)], &input))
            .collect();
        assert_eq!(runs[0].code, code, "{}", runs[0].stderr);
        if code == 1 {
            let errors = runs[0].stdout.matches("severity: error").count();
            assert_eq!(errors, 5, "one error per cluster: {}", runs[0].stdout);
        }
        for r in &runs[1..] {
            assert_eq!(r.code, runs[0].code);
            assert_eq!(r.stdout, runs[0].stdout);
            assert_eq!(r.stderr, runs[0].stderr);
        }
    }
}

/// A fan-out under `kpt fn render` keeps the Kptfile at the package root, and the package it
/// leaves renders again: the copies pass through (each carries its cluster's comment), with
/// a warning that the configuration was not applied to them.
#[test]
fn kpt_render_fan_out_leaves_a_package_that_renders_again() {
    let Some(kpt) = tool("kpt") else {
        return;
    };
    let dir = temp_dir("kpt-fan-out");
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(
        pkg.join("Kptfile"),
        format!(
            "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: {}\n    configPath: tailor.yaml\n",
            tailor_bin()
        ),
    )
    .expect("Kptfile");
    std::fs::write(pkg.join("tailor.yaml"), FAN_OUT).expect("config");
    std::fs::write(
        pkg.join("app.yaml"),
        "# the app\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  k: v\n",
    )
    .expect("app");
    let render = || {
        Command::new(&kpt)
            .args(["fn", "render", "--allow-exec"])
            .arg(&pkg)
            .output()
            .expect("kpt")
    };
    let first = render();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let files = |p: &Path| -> Vec<String> { common::read_tree(p).into_keys().collect() };
    let want = ["Kptfile", "dev/app.yaml", "prod/app.yaml", "tailor.yaml"];
    assert_eq!(files(&pkg), want);
    let dev = std::fs::read_to_string(pkg.join("dev/app.yaml")).expect("dev copy");
    assert!(
        dev.starts_with("# tailor.dev/cluster: dev\n# the app\n") && dev.contains("team: web"),
        "{dev}"
    );
    let tree = common::read_tree(&pkg);
    let second = render();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    assert!(
        stderr.contains("all 2 objects are copies an earlier fan-out tailored"),
        "{stderr}"
    );
    assert_eq!(
        common::read_tree(&pkg),
        tree,
        "the second render changed the package"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a terminal with nothing piped in, each command that reads stdin says so at once instead
/// of waiting. `script` gives the run a terminal.
#[test]
fn a_terminal_gets_a_hint_instead_of_a_silent_wait() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("\n!!! SKIPPED: `script` (util-linux) is absent: no terminal to test with !!!\n");
        return;
    }
    let dir = temp_dir("terminal");
    let config = dir.join("tailor.yaml");
    std::fs::write(&config, FAN_OUT).expect("config");
    let config = config.to_string_lossy().into_owned();
    for (args, hint) in [
        (vec![], "tailor: waiting for a ResourceList on stdin"),
        (
            vec![config.as_str()],
            "tailor CONFIG reads manifests from stdin",
        ),
        (
            vec!["envsubst"],
            "tailor envsubst: waiting for text on stdin",
        ),
        (
            vec!["expand"],
            "tailor expand: waiting for a template on stdin",
        ),
    ] {
        let command = std::iter::once(tailor_bin())
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        let out = Command::new("timeout")
            .args(["10", "script", "-qec", &command, "/dev/null"])
            .output()
            .expect("script");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(hint), "{command}: {text}");
        assert_eq!(out.status.code(), Some(2), "{command}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
