//! The KRM functions catalog's conventions (issue 29): `functions/tailor/metadata.yaml`
//! holds to the catalog's metadata rules (`functions/metadata.schema.json`, with the
//! catalog commit they come from), its example packages are named and titled as the catalog
//! requires, and each runs as the catalog's test runner runs it: copied into a fresh git
//! repository, the function run twice by real kpt, then the `git diff` compared with
//! `.expected/diff.patch`, or the exit code with `.expected/config.yaml` and kpt's results
//! with `.expected/results.yaml`. `TAILOR_UPDATE_EXAMPLES=1` rewrites the expected files.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_dir, repo_root, temp_dir, tool};
use serde_json::Value;

const FUNCTION: &str = "tailor";

fn yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = tailor_yaml::parse_stream(&text)
        .expect("yaml")
        .remove(0)
        .root;
    doc.to_json().expect("json")
}

fn metadata() -> Value {
    yaml(&repo_root().join("functions/tailor/metadata.yaml"))
}

/// The example packages metadata.yaml lists, as directories of this repository.
fn packages() -> Vec<PathBuf> {
    let meta = metadata();
    let prefix = "https://github.com/tailor-dev/tailor/tree/main/";
    meta["examplePackageURLs"]
        .as_array()
        .expect("examplePackageURLs")
        .iter()
        .map(|u| {
            let url = u.as_str().expect("a URL");
            let rel = url
                .strip_prefix(prefix)
                .unwrap_or_else(|| panic!("{url} is not under {prefix}"));
            repo_root().join(rel)
        })
        .collect()
}

#[test]
fn metadata_follows_the_catalog_rules() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("functions/metadata.schema.json")).unwrap(),
    )
    .expect("schema json");
    let validator = jsonschema::draft7::new(&schema).expect("a draft-07 schema");
    let meta = metadata();
    let errors: Vec<String> = validator
        .iter_errors(&meta)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // The schema refuses what the catalog refuses.
    let mut bad = meta.clone();
    bad.as_object_mut().unwrap().remove("emails");
    bad["tags"] = serde_json::json!([]);
    bad["types"] = serde_json::json!(["generator"]);
    assert_eq!(validator.iter_errors(&bad).count(), 3);
    // sourceURL names the function's folder.
    let source = meta["sourceURL"].as_str().unwrap();
    assert!(source.ends_with("/functions/tailor"), "{source}");
    assert!(repo_root().join("functions/tailor/README.md").is_file());
}

/// verify-docs.py's example rules: `<function>-<name>` directories whose README title is
/// `# <function>: <Name>`, and (the runner's) `.expected/` kept out by `.krmignore`.
#[test]
fn example_packages_are_laid_out_as_the_catalog_expects() {
    let packages = packages();
    assert!(!packages.is_empty());
    for dir in &packages {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let short = name
            .strip_prefix(&format!("{FUNCTION}-"))
            .unwrap_or_else(|| panic!("{name} must start with {FUNCTION}-"));
        let readme = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
        let title = readme.lines().next().unwrap_or_default();
        assert!(
            title.starts_with(&format!("# {FUNCTION}: ")),
            "{name}: {title}"
        );
        assert!(
            title.to_lowercase().contains(&short.replace('-', " ")),
            "{name}: the title {title:?} names {short:?}"
        );
        assert!(dir.join("Kptfile").is_file(), "{name}: a kpt package");
        let ignore = std::fs::read_to_string(dir.join(".krmignore")).expect(".krmignore");
        assert!(ignore.lines().any(|l| l.trim() == ".expected"), "{name}");
        let expected = dir.join(".expected");
        assert!(
            expected.join("diff.patch").is_file() || expected.join("results.yaml").is_file(),
            "{name}: .expected/ holds diff.patch or results.yaml"
        );
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The kpt command of a test case: `kpt fn eval` with the config's `args` for
/// `testType: eval` (this build by `--exec` standing in for the image), else `kpt fn render`.
fn kpt_command(kpt: &Path, config: &Value, package: &Path, results: &Path) -> Command {
    let mut cmd = Command::new(kpt);
    cmd.arg("fn");
    if config["testType"] == "eval" {
        cmd.arg("eval")
            .arg(package)
            .args(["--exec", common::tailor_bin()]);
    } else {
        cmd.arg("render").arg(package).arg("--allow-exec");
    }
    cmd.arg("--results-dir").arg(results);
    if let Some(args) = config["args"].as_object() {
        cmd.arg("--");
        for (k, v) in args {
            cmd.arg(format!("{k}={}", v.as_str().expect("a string argument")));
        }
    }
    cmd
}

fn update() -> bool {
    std::env::var_os("TAILOR_UPDATE_EXAMPLES").is_some_and(|v| v == "1")
}

fn compare(what: &str, file: &Path, got: &str) -> Option<String> {
    if update() {
        std::fs::write(file, got).unwrap();
        return None;
    }
    let want = std::fs::read_to_string(file).unwrap_or_default();
    (want != got).then(|| {
        format!(
            "{what}: {} differs\n--- expected\n{want}\n--- got\n{got}",
            file.display()
        )
    })
}

/// One package as the catalog's runner runs it; what differs.
fn run_case(kpt: &Path, source: &Path) -> Vec<String> {
    let name = source.file_name().unwrap().to_string_lossy().into_owned();
    let expected = source.join(".expected");
    let config = if expected.join("config.yaml").is_file() {
        yaml(&expected.join("config.yaml"))
    } else {
        Value::Null
    };
    let exit_code = config["exitCode"].as_i64().unwrap_or(0);
    let runs = config["runCount"].as_u64().unwrap_or(2);
    let root = temp_dir(&format!("catalog-{name}"));
    let package = root.join(&name);
    copy_dir(source, &package);
    std::fs::remove_dir_all(package.join(".expected")).unwrap();
    git(&package, &["init", "-q"]);
    git(&package, &["add", "-A"]);
    git(&package, &["commit", "-qm", "package"]);
    let bin = Path::new(common::tailor_bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut problems = Vec::new();
    for run in 1..=runs {
        let results = root.join(format!("results-{run}"));
        std::fs::create_dir_all(&results).unwrap();
        let out = kpt_command(kpt, &config, &package, &results)
            .env("PATH", &path)
            .output()
            .expect("kpt");
        let code = i64::from(out.status.code().unwrap_or(-1));
        if code != exit_code {
            problems.push(format!(
                "{name}: run {run} exited {code}, expected {exit_code}\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        if exit_code != 0 {
            let got = std::fs::read_to_string(results.join("results.yaml")).expect("results.yaml");
            problems.extend(compare(&name, &expected.join("results.yaml"), &got));
        }
    }
    let diff = git(&package, &["diff"]);
    if exit_code == 0 {
        problems.extend(compare(&name, &expected.join("diff.patch"), &diff));
    } else if !diff.is_empty() {
        problems.push(format!(
            "{name}: a failed render changed the package:\n{diff}"
        ));
    }
    let _ = std::fs::remove_dir_all(&root);
    problems
}

#[test]
fn example_packages_give_their_expected_results_under_kpt() {
    let Some(kpt) = tool("kpt") else {
        return;
    };
    let problems: Vec<String> = packages().iter().flat_map(|p| run_case(&kpt, p)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
