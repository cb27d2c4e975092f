//! The GitHub workflows and the Action's scripts are lint-clean (issue 29): `actionlint`
//! (with shellcheck for the `run:` scripts) on `.github/workflows/` and the workflow
//! examples, shellcheck on `action/*.sh`, and the release workflow builds, signs and attests
//! what it says. Both tools come from PyPI (`scripts/install-python-tools.sh`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{python_tool, repo_root, temp_dir};
use serde_json::Value;

fn workflows() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(".github/workflows"))
        .expect(".github/workflows")
        .map(|e| e.expect("entry").path())
        .collect();
    files.extend(
        [
            "examples/ci/github-workflow.yml",
            "examples/ci/review-workflow.yml",
        ]
        .iter()
        .map(|p| root.join(p)),
    );
    files.sort();
    files
}

/// Runs `tool` with `args` and shellcheck on PATH; (exit code, output).
fn lint(tool: &Path, args: &[PathBuf], dir: &Path) -> (i32, String) {
    let bin = tool.parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .expect("lint");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn workflows_are_actionlint_clean() {
    let (Some(actionlint), Some(_)) = (python_tool("actionlint"), python_tool("shellcheck")) else {
        return;
    };
    let mut args = vec![PathBuf::from("-no-color")];
    args.extend(workflows());
    let (code, out) = lint(&actionlint, &args, &repo_root());
    assert_eq!(code, 0, "{out}");
    // It does find problems: an unquoted variable (shellcheck) and an unknown context.
    let dir = temp_dir("actionlint");
    let bad = dir.join("bad.yml");
    std::fs::write(
        &bad,
        "on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo $x ${{ github.nope }}\n",
    )
    .unwrap();
    let (code, out) = lint(&actionlint, &[PathBuf::from("-no-color"), bad], &dir);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("SC2086") && out.contains("nope"), "{out}");
}

#[test]
fn the_action_scripts_are_shellcheck_clean() {
    let Some(shellcheck) = python_tool("shellcheck") else {
        return;
    };
    let root = repo_root();
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(root.join("action"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sh"))
        .collect();
    scripts.push(root.join("scripts/install-python-tools.sh"));
    scripts.sort();
    assert!(scripts.len() >= 5, "{scripts:?}");
    let (code, out) = lint(&shellcheck, &scripts, &root);
    assert_eq!(code, 0, "{out}");
}

fn yaml(path: &str) -> Value {
    let text = std::fs::read_to_string(repo_root().join(path)).expect(path);
    let doc = tailor_yaml::parse_stream(&text)
        .expect("yaml")
        .remove(0)
        .root;
    doc.to_json().expect("json")
}

fn uses(job: &Value) -> Vec<String> {
    job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["uses"].as_str())
        .map(|u| u.split('@').next().unwrap().to_string())
        .collect()
}

fn runs(job: &Value) -> String {
    job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the release promises: static musl binaries for amd64 and arm64, one multi-arch
/// image from them, cosign keyless signatures (an OIDC token, no key), an SBOM and build
/// provenance for both.
#[test]
fn the_release_builds_signs_and_attests_what_it_says() {
    let wf = yaml(".github/workflows/release.yml");
    let jobs = &wf["jobs"];
    let targets: Vec<&str> = jobs["binaries"]["strategy"]["matrix"]["include"]
        .as_array()
        .expect("matrix")
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        ["x86_64-unknown-linux-musl", "aarch64-unknown-linux-musl"]
    );
    let build = runs(&jobs["binaries"]);
    assert!(
        build.contains("--locked") && build.contains("statically linked"),
        "{build}"
    );
    let cargo_build = jobs["binaries"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Build")
        .expect("the Build step");
    assert_eq!(
        cargo_build["env"]["RUSTFLAGS"],
        "-C target-feature=+crt-static"
    );
    for job in ["release", "image"] {
        assert_eq!(
            jobs[job]["permissions"]["id-token"], "write",
            "{job}: keyless signing"
        );
        assert!(runs(&jobs[job]).contains("cosign sign"), "{job}");
        assert!(
            uses(&jobs[job]).contains(&"actions/attest-build-provenance".to_string()),
            "{job}"
        );
    }
    let release = uses(&jobs["release"]);
    assert!(release.contains(&"anchore/sbom-action".to_string()));
    assert!(release.contains(&"actions/attest-sbom".to_string()));
    assert!(runs(&jobs["release"]).contains("SHA256SUMS"));
    let image = jobs["image"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "build")
        .expect("the image build step");
    assert_eq!(image["with"]["platforms"], "linux/amd64,linux/arm64");
    assert_eq!(image["with"]["sbom"], true);
    assert_eq!(image["with"]["provenance"], "mode=max");
    let dockerfile = image["with"]["file"].as_str().unwrap();
    let text = std::fs::read_to_string(repo_root().join(dockerfile)).unwrap();
    assert!(text.contains("dist/image/tailor-${TARGETARCH}"), "{text}");
    // The asset names are the ones the Action installs.
    let install = std::fs::read_to_string(repo_root().join("action/install.sh")).unwrap();
    for target in targets {
        assert!(install.contains(target), "action/install.sh knows {target}");
    }
}
