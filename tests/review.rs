//! `tailor diff --base BASE`: the review of a change (issue 29), on the fan-out of
//! `tests/fixtures/review/` (FirstMatch and AllMatches; a customization, doNotDeploy, a
//! template and a Secret change), in every format, against a directory and a git revision.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_dir, repo_root, run_command, tailor_bin, temp_dir, Run};

const MODES: [&str; 2] = ["first-match", "all-matches"];
const FORMATS: [&str; 4] = ["text", "markdown", "json", "html"];
/// Every Secret value of the fixture, before and after.
const SECRET_VALUES: [&str; 4] = ["YWRtaW4=", "aHVudGVyMg==", "czNjcjN0IQ==", "dG9rZW4="];

fn fixture() -> PathBuf {
    repo_root().join("tests/fixtures/review")
}

/// Runs tailor in `dir` with `args` and `env`.
fn tailor_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    run_command(
        Command::new(tailor_bin())
            .current_dir(dir)
            .args(args)
            .envs(env.iter().copied()),
        "",
    )
}

/// The review of the fixture's change for `mode`, with `extra` arguments, run in `after/`.
fn review(mode: &str, extra: &[&str]) -> Run {
    let config = format!("{mode}.yaml");
    let mut args = vec!["diff", "--base", "../before", &config, "app"];
    args.extend_from_slice(extra);
    tailor_in(&fixture().join("after"), &args, &[])
}

#[test]
fn every_format_is_golden() {
    for mode in MODES {
        for format in FORMATS {
            let r = review(mode, &["--format", format]);
            assert_eq!(r.code, 0, "{mode} {format}: {}", r.stderr);
            assert!(!r.stdout.contains('\x1b'), "colour only on a terminal");
            insta::assert_snapshot!(format!("{mode}_{format}"), r.stdout);
        }
    }
}

#[test]
fn the_summary_counts_groups_and_receiving() {
    let text = review("first-match", &[]).stdout;
    assert!(
        text.starts_with("6 of 7 clusters change: 7 objects changed, 8 added, 4 removed; 2 start receiving the bundle; 1 stops receiving it\n1 cluster unchanged.\n"),
        "{text}"
    );
    assert!(text.contains("== the same change on 2 clusters: dev-1, dev-2 (2 changed) =="));
    assert!(text.contains("== dev-3 (4 removed) ==\nstops receiving the bundle"));
    assert!(text.contains("== lab (4 added) ==\nstarts receiving the bundle"));
    assert!(text.contains("== qa (4 added) ==\na new destination"));
    // The unchanged destination is counted, not printed.
    assert!(!text.contains("legacy"), "{text}");
    // AllMatches: prod-eu also gets the eu customization's new label.
    let all = review("all-matches", &[]).stdout;
    assert!(all.contains("+    tier: gold"), "{all}");
    assert!(!text.contains("tier: gold"), "{text}");
}

#[test]
fn secrets_are_masked_in_every_format_unless_asked() {
    for format in FORMATS {
        let masked = review("first-match", &["--format", format]).stdout;
        for value in SECRET_VALUES {
            assert!(!masked.contains(value), "{format} shows {value}");
        }
        assert!(
            masked.contains("*** (after)"),
            "{format}: the changed key is shown"
        );
        let shown = review("first-match", &["--format", format, "--show-secrets"]).stdout;
        assert!(shown.contains("czNjcjN0IQ=="), "{format} --show-secrets");
    }
    let text = review("first-match", &[]).stdout;
    assert!(text.contains("   username: '***'\n-  password: '*** (before)'\n+  password: '*** (after)'\n+  token: '***'\n"), "{text}");
}

#[test]
fn exit_codes_tell_a_ci_job_what_happened() {
    assert_eq!(review("first-match", &["--exit-code"]).code, 2);
    assert_eq!(review("first-match", &[]).code, 0);
    // The version against itself: nothing changes.
    let after = fixture().join("after");
    let same = tailor_in(
        &after,
        &[
            "diff",
            "--base",
            ".",
            "first-match.yaml",
            "app",
            "--exit-code",
        ],
        &[],
    );
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(same.stdout.starts_with("0 of 7 clusters change: 0 objects changed, 0 added, 0 removed\n7 clusters unchanged.\n"), "{}", same.stdout);
    // Errors, a bad command line included, are 1 with --exit-code.
    for args in [
        &[
            "diff",
            "--base",
            "no-such-base",
            "first-match.yaml",
            "app",
            "--exit-code",
        ][..],
        &[
            "diff",
            "--base",
            "../before",
            "first-match.yaml",
            "app",
            "--exit-code",
            "--format",
            "pdf",
        ],
        &[
            "diff",
            "--base",
            "../before",
            "first-match.yaml",
            "app",
            "--exit-code",
            "--bogus",
        ],
        &[
            "diff",
            "--base",
            "../before",
            "first-match.yaml",
            "--exit-code",
        ],
    ] {
        let r = tailor_in(&after, args, &[]);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
    // A base inside an input would be read as part of the change.
    let r = tailor_in(
        &fixture(),
        &["diff", "--base", "before", "after/first-match.yaml", "."],
        &[],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("lies inside the input"), "{}", r.stderr);
    let r = tailor_in(
        &after,
        &["diff", "--format", "json", "first-match.yaml", "app"],
        &[],
    );
    assert_eq!(r.code, 2, "--format without --base is a usage error");
    assert!(r.stderr.contains("give --base"), "{}", r.stderr);
}

#[test]
fn json_follows_its_documented_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("docs/review.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::draft7::new(&schema).expect("a valid draft-07 schema");
    for mode in MODES {
        let out = review(mode, &["--format", "json"]).stdout;
        let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{mode}: {errors:?}");
        assert_eq!(doc["summary"]["changed"], 6);
        assert_eq!(doc["unchanged"], serde_json::json!(["legacy"]));
    }
    // Something the schema forbids is caught.
    assert!(!validator.is_valid(&serde_json::json!({"apiVersion": "tailor.dev/review/v1"})));
}

/// A git repository holding the fixture's `before/` under `pkg/`, committed, with `after/`
/// in its work tree (not committed).
fn repo_with_change() -> common::TempDir {
    let repo = temp_dir("review-git");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&repo)
            .args(args)
            .output()
            .expect("git");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    copy_dir(&fixture().join("before"), &repo.join("pkg"));
    git(&["add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-q",
        "-m",
        "before",
    ]);
    std::fs::remove_dir_all(repo.join("pkg")).unwrap();
    copy_dir(&fixture().join("after"), &repo.join("pkg"));
    repo
}

#[test]
fn a_git_revision_is_the_base_wherever_the_command_runs() {
    let repo = repo_with_change();
    let tmp = temp_dir("review-tmp");
    let env = [("TMPDIR", tmp.to_str().unwrap())];
    let expected = review("first-match", &["--format", "json"]).stdout;
    let status = |repo: &Path| {
        Command::new("git")
            .current_dir(repo)
            .args(["status", "--porcelain"])
            .output()
            .unwrap()
            .stdout
    };
    let before = status(&repo);
    let in_pkg = tailor_in(
        &repo.join("pkg"),
        &[
            "diff",
            "--base",
            "HEAD",
            "first-match.yaml",
            "app",
            "--format",
            "json",
        ],
        &env,
    );
    assert_eq!(in_pkg.code, 0, "{}", in_pkg.stderr);
    assert_eq!(in_pkg.stdout, expected);
    let at_root = tailor_in(
        &repo,
        &[
            "diff",
            "--base",
            "HEAD",
            "pkg/first-match.yaml",
            "pkg/app",
            "--format",
            "json",
        ],
        &env,
    );
    assert_eq!(at_root.stdout, expected, "{}", at_root.stderr);
    // The user's work tree and the repository are as they were; the checkout is gone.
    assert_eq!(status(&repo), before);
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "temporary checkout left behind"
    );
    let wt = Command::new("git")
        .current_dir(&repo)
        .args(["worktree", "list"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(String::from_utf8_lossy(&wt).lines().count(), 1);
    let bad = tailor_in(
        &repo,
        &[
            "diff",
            "--base",
            "no-such-rev",
            "pkg/first-match.yaml",
            "pkg/app",
        ],
        &env,
    );
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr
            .contains("neither a directory nor a git revision"),
        "{}",
        bad.stderr
    );
    std::fs::remove_dir_all(&repo).ok();
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn a_base_without_the_package_means_every_destination_starts_receiving() {
    let empty = temp_dir("review-empty");
    let after = fixture().join("after");
    let base = empty.to_str().unwrap();
    let r = tailor_in(
        &after,
        &["diff", "--base", base, "first-match.yaml", "app"],
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("5 of 7 clusters change: 0 objects changed, 20 added, 0 removed; 5 start receiving the bundle\n2 clusters unchanged.\n"), "{}", r.stdout);
    std::fs::remove_dir_all(&empty).ok();
}
