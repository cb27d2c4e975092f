//! `.pre-commit-hooks.yaml` (issue 29): the hook runs under real `pre-commit try-repo` in a
//! user's repository, with this build as the `tailor` on PATH, rendering every destination
//! with `--strict`: a clean configuration passes, one that makes tailor warn fails the commit
//! with the warning shown. pre-commit comes from the Python package registry
//! (`scripts/install-python-tools.sh`, run here when it is missing); the test is skipped,
//! loudly, only when pip itself is unavailable.

mod common;

use std::path::Path;
use std::process::Command;

use common::{copy_dir, repo_root, temp_dir, Run};

/// A user's repository: `examples/fan-out` laid out as the hook's default arguments expect
/// (`tailor.yaml`, `manifests/`), committed.
fn user_repo(dir: &Path, config_tail: &str) {
    let example = repo_root().join("examples/fan-out");
    copy_dir(&example.join("manifests"), &dir.join("manifests"));
    let config = std::fs::read_to_string(example.join("tailor.yaml")).unwrap();
    std::fs::write(dir.join("tailor.yaml"), config + config_tail).unwrap();
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "app",
        ],
    ] {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }
}

fn try_repo(pre_commit: &Path, repo: &Path, cache: &Path) -> Run {
    let bin = Path::new(common::tailor_bin()).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    common::run_command(
        Command::new(pre_commit)
            .arg("try-repo")
            .arg(repo_root())
            .args(["tailor-render", "--all-files", "--color", "never"])
            .current_dir(repo)
            .env("PATH", path)
            .env("PRE_COMMIT_HOME", cache),
        "",
    )
}

#[test]
fn the_hook_renders_every_destination_strictly_under_try_repo() {
    let Some(pre_commit) = common::python_tool("pre-commit") else {
        return;
    };
    let dir = temp_dir("pre-commit");
    let cache = dir.join("cache");

    let clean = dir.join("clean");
    user_repo(&clean, "");
    let r = try_repo(&pre_commit, &clean, &cache);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("tailor render --strict"), "{}", r.stdout);
    assert!(r.stdout.contains("Passed"), "{}", r.stdout);

    // A rule that matches nothing is a warning; --strict makes it fail the commit.
    let warns = dir.join("warns");
    user_repo(
        &warns,
        "  patches:\n  - target: {kind: Deployment, name: no-such-app}\n    patch: |\n      - {op: replace, path: /spec/replicas, value: 1}\n",
    );
    let plain = common::run_tailor(
        &[
            warns.join("tailor.yaml").to_str().unwrap(),
            warns.join("manifests").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(
        plain.code, 0,
        "without --strict it only warns: {}",
        plain.stderr
    );
    assert!(plain.stderr.contains("[warning]"), "{}", plain.stderr);
    let r = try_repo(&pre_commit, &warns, &cache);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("Failed"), "{}", r.stdout);
    assert!(r.stdout.contains("no-such-app"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hook that builds tailor with cargo runs the same command as the one that uses PATH.
#[test]
fn both_hooks_run_the_same_check() {
    let text = std::fs::read_to_string(repo_root().join(".pre-commit-hooks.yaml")).unwrap();
    let doc = tailor_yaml::parse_stream(&text).unwrap().remove(0).root;
    let hooks = doc.to_json().unwrap();
    let hooks = hooks.as_array().expect("a list of hooks");
    let find = |id: &str| {
        let mut hook = hooks
            .iter()
            .find(|h| h["id"] == id)
            .unwrap_or_else(|| panic!("hook {id}"))
            .clone();
        let map = hook.as_object_mut().unwrap();
        for key in ["id", "description", "language"] {
            map.remove(key);
        }
        hook
    };
    assert_eq!(find("tailor-render"), find("tailor-render-cargo"));
    assert_eq!(find("tailor-render")["entry"], "tailor --strict");
}
