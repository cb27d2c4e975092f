//! What tailor does to the user's files and streams (`docs/host-contract.md`, "Files and
//! streams"), through the binary: every write error is a non-zero exit naming the file or
//! stream, `--output-dir` and `--clean` never touch an input, the CONFIG or a user's file, and
//! a failed write leaves the previous output as it was.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{read_tree, tailor_bin, temp_dir};

const CONFIG: &str = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  commonMetadata: {labels: {team: a}}\n";

fn config_map(name: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n")
}

/// A work directory holding `cfg.yaml` (CONFIG) and a package `pkg/` of one ConfigMap.
fn workspace(tag: &str) -> common::TempDir {
    let dir = temp_dir(tag);
    std::fs::write(dir.join("cfg.yaml"), CONFIG).unwrap();
    write(&dir, "pkg/a.yaml", &config_map("a"));
    dir
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// tailor with `args`, run in `cwd`, stdout to `stdout` (a pipe when `None`), stdin empty.
fn tailor_in(cwd: &Path, args: &[&str], stdout: Option<std::fs::File>) -> Ran {
    let mut cmd = Command::new(tailor_bin());
    cmd.args(args).current_dir(cwd).stdin(Stdio::null());
    cmd.stdout(stdout.map_or_else(Stdio::piped, Stdio::from));
    let out = cmd.output().expect("spawn tailor");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn dev_full() -> Option<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()
}

#[test]
fn every_stdout_mode_fails_on_a_full_disk_naming_stdout() {
    let Some(_) = dev_full() else {
        eprintln!("SKIPPED: no /dev/full");
        return;
    };
    let dir = workspace("dev-full");
    let list = format!(
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {}",
        config_map("a").replace('\n', "\n  ")
    );
    std::fs::write(dir.join("list.yaml"), list).unwrap();
    let modes: &[&[&str]] = &[
        &["cfg.yaml", "pkg"],
        &["cfg.yaml", "pkg", "-o", "resource-list"],
        &["diff", "cfg.yaml", "pkg"],
        &["schema"],
        &["--help"],
        &["--version"],
        &["completion", "bash"],
        &["cfg.yaml", "pkg", "--explain"],
    ];
    for args in modes {
        let ran = tailor_in(&dir, args, dev_full());
        assert_eq!(ran.code, 1, "{args:?}: {}", ran.stderr);
        assert!(
            ran.stderr
                .ends_with("tailor: writing stdout: No space left on device (os error 28)\n"),
            "{args:?}: {}",
            ran.stderr
        );
        assert!(!ran.stderr.contains("panicked"), "{args:?}");
    }
    // The KRM function, a ResourceList on stdin.
    let out = Command::new(tailor_bin())
        .stdin(std::fs::File::open(dir.join("list.yaml")).unwrap())
        .stdout(dev_full().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tailor: writing stdout: No space"));
}

#[test]
fn a_closed_pipe_ends_quietly_and_never_with_zero() {
    let dir = workspace("epipe");
    let big: String = (0..4000)
        .map(|i| format!("---\n{}", config_map(&format!("c{i}"))))
        .collect();
    write(&dir, "pkg/big.yaml", &big);
    let mut child = Command::new(tailor_bin())
        .args(["cfg.yaml", "pkg"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `| head -c 10`: read a little, then close the pipe.
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Runs tailor in `dir` expecting a refusal: the exit code and the exact stderr, and every file
/// under `dir` as it was.
fn refused(dir: &Path, args: &[&str], code: i32, stderr: &str) {
    let before = read_tree(dir);
    let ran = tailor_in(dir, args, None);
    assert_eq!((ran.code, ran.stderr.as_str()), (code, stderr), "{args:?}");
    assert_eq!(ran.stdout, "", "{args:?}");
    assert_eq!(read_tree(dir), before, "{args:?} changed files");
}

#[test]
fn an_empty_output_dir_is_refused() {
    let dir = workspace("empty-out");
    refused(
        &dir,
        &["cfg.yaml", "pkg", "--output-dir", ""],
        2,
        "tailor: --output-dir needs a directory, not an empty string (is its variable unset?)\nRun `tailor --help` for usage.\n",
    );
}

#[test]
fn clean_never_removes_an_input_the_config_or_the_current_directory() {
    let dir = temp_dir("clean-inputs");
    std::fs::write(dir.join("cfg.yaml"), CONFIG).unwrap();
    write(&dir, "manifests/base/a.yaml", &config_map("a"));
    write(&dir, "manifests/other/b.yaml", &config_map("b"));
    refused(
        &dir,
        &["cfg.yaml", "manifests/base", "--output-dir", "manifests", "--clean"],
        1,
        "[error] --output-dir manifests holds the input manifests/base: writing the output there would replace it; write it elsewhere\n",
    );
    refused(
        &dir.join("manifests"),
        &["../cfg.yaml", "base", "--output-dir", ".", "--clean"],
        1,
        "[error] --output-dir . holds the input base: writing the output there would replace it; write it elsewhere\n",
    );
    refused(
        &dir,
        &["manifests/other/b.yaml", "manifests/base", "--output-dir", "manifests/other", "--clean"],
        1,
        "[error] --output-dir manifests/other holds the CONFIG file manifests/other/b.yaml: writing the output there would replace it; write it elsewhere\n",
    );
    // Inputs elsewhere: the current directory is still not removed.
    let pkg = dir.join("manifests/base");
    let pkg = pkg.to_str().unwrap();
    let cfg = dir.join("cfg.yaml");
    write(&dir, "work/old.yaml", &config_map("old"));
    refused(
        &dir.join("work"),
        &[cfg.to_str().unwrap(), pkg, "--output-dir", ".", "--clean"],
        1,
        "[error] --output-dir . --clean would remove the current directory; write the output to a directory of its own\n",
    );
}

#[test]
fn clean_never_removes_a_file_tailor_does_not_write() {
    let dir = workspace("clean-foreign");
    write(&dir, "out/prod/old.yaml", &config_map("old"));
    write(&dir, "out/prod/notes.md", "mine\n");
    refused(
        &dir,
        &["cfg.yaml", "pkg", "--output-dir", "out", "--clean"],
        1,
        "[error] --output-dir out --clean: it holds \"prod/notes.md\", which tailor never writes, so it is not replaced; move that away or write the output to a directory of its own\n",
    );
    refused(
        &dir,
        &["cfg.yaml", "pkg", "--output-dir", "out"],
        1,
        "[error] --output-dir out: the directory is not empty; pass --clean to empty it first (files of destinations no longer rendered would stay otherwise)\n",
    );
    std::fs::remove_file(dir.join("out/prod/notes.md")).unwrap();
    let ran = tailor_in(
        &dir,
        &["cfg.yaml", "pkg", "--output-dir", "out", "--clean"],
        None,
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let out: Vec<String> = read_tree(&dir.join("out")).into_keys().collect();
    assert_eq!(out, ["a.yaml"]);
}

#[test]
fn output_inside_input_is_found_through_symlinks_both_ways() {
    let dir = workspace("symlinked-out");
    std::os::unix::fs::symlink("pkg", dir.join("link")).unwrap();
    refused(
        &dir,
        &["cfg.yaml", "pkg", "--output-dir", "link/out"],
        1,
        "[error] --output-dir link/out lies inside the input directory pkg: the next run would read the output as input; write it elsewhere\n",
    );
    refused(
        &dir,
        &["cfg.yaml", "link", "--output-dir", "pkg/out"],
        1,
        "[error] --output-dir pkg/out lies inside the input directory link: the next run would read the output as input; write it elsewhere\n",
    );
    // A symlink in the output directory to an input is no file tailor writes.
    write(&dir, "out/old.yaml", &config_map("old"));
    std::os::unix::fs::symlink("../pkg/a.yaml", dir.join("out/a.yaml")).unwrap();
    refused(
        &dir,
        &["cfg.yaml", "pkg/a.yaml", "--output-dir", "out", "--clean"],
        1,
        "[error] --output-dir out --clean: it holds \"a.yaml\", which tailor never writes, so it is not replaced; move that away or write the output to a directory of its own\n",
    );
    // An input whose path leads into the output directory through a symlink.
    write(&dir, "out2/in/b.yaml", &config_map("b"));
    std::os::unix::fs::symlink("out2/in", dir.join("in")).unwrap();
    refused(
        &dir,
        &["cfg.yaml", "in", "--output-dir", "out2", "--clean"],
        1,
        "[error] --output-dir out2 holds the input in: writing the output there would replace it; write it elsewhere\n",
    );
}

/// A stream whose objects go to `paths` (kpt's path annotation).
fn stream_to(paths: &[&str]) -> String {
    paths
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "---\n{}  annotations:\n    config.kubernetes.io/path: {p}\n",
                config_map(&format!("c{i}"))
            )
        })
        .collect()
}

/// `tailor cfg.yaml - --output-dir out [--clean]` in `dir` with `stdin`.
fn write_out(dir: &Path, stdin: &str, clean: bool) -> common::Run {
    let mut args = vec!["cfg.yaml", "-", "--output-dir", "out"];
    if clean {
        args.push("--clean");
    }
    common::run_command(
        Command::new(tailor_bin()).args(&args).current_dir(dir),
        stdin,
    )
}

#[test]
fn a_failed_write_leaves_the_previous_output_whole() {
    let dir = workspace("atomic");
    let first = write_out(&dir, &stream_to(&["a.yaml", "sub/b.yaml"]), false);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let before = read_tree(&dir);
    let long = format!("{}.yaml", "n".repeat(300));
    let cases = [
        (
            stream_to(&["x.yaml", "x.yaml/y.yaml"]),
            "[error] --output-dir out: writing x.yaml (a directory, to hold x.yaml/y.yaml): File exists (os error 17); out is left as it was\n".to_string(),
        ),
        (
            stream_to(&["a.yaml", &long]),
            format!("[error] --output-dir out: writing {long}: File name too long (os error 36); out is left as it was\n"),
        ),
    ];
    for (stdin, stderr) in &cases {
        let ran = write_out(&dir, stdin, true);
        assert_eq!((ran.code, ran.stderr.as_str()), (1, stderr.as_str()));
        // The old output, whole; no half-written file, no directory left beside it.
        assert_eq!(read_tree(&dir), before);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains("tailor")), "{names:?}");
    }
    // Into a directory that did not exist: still nothing left behind.
    std::fs::remove_dir_all(dir.join("out")).unwrap();
    let ran = write_out(&dir, &cases[1].0, false);
    assert_eq!(ran.code, 1);
    assert!(!dir.join("out").exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "cfg.yaml and pkg only"
    );
}

#[test]
fn cluster_names_are_checked_as_directory_names_before_anything_is_written() {
    let dir = workspace("cluster-dirs");
    let cases = [
        (
            "{name: ok}, {name: ./ok}",
            "./ok",
            "a name with a slash is a path, not one directory",
        ),
        (
            "{name: ok}, {name: ok/}",
            "ok/",
            "a name with a slash is a path, not one directory",
        ),
        (
            "{name: ok}, {name: '.'}",
            ".",
            "names the output directory or its parent, not a directory of its own",
        ),
        (
            "{name: ok}, {name: '..'}",
            "..",
            "names the output directory or its parent, not a directory of its own",
        ),
    ];
    for (clusters, name, why) in cases {
        let config = format!(
            "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: m}}\nspec:\n  clusters: [{clusters}]\n"
        );
        std::fs::write(dir.join("fan.yaml"), config).unwrap();
        let stderr = format!(
            "[error] cluster {name:?} cannot name its output directory ({why}): each destination's files go under a directory of its name; give it a plain name like \"prod-eu\"\n"
        );
        refused(
            &dir,
            &["fan.yaml", "pkg", "--output-dir", "out"],
            1,
            &stderr,
        );
        // The same refusal where kpt would write the files (paths recorded for kpt fn sink).
        let ran = tailor_in(&dir, &["fan.yaml", "pkg", "-o", "resource-list"], None);
        assert_eq!((ran.code, ran.stderr.as_str()), (1, stderr.as_str()));
        assert!(!ran.stdout.contains("ok/a.yaml"), "{}", ran.stdout);
    }
}

/// `Dev/` and `dev/` are one directory on macOS and Windows: one destination's files would
/// overwrite the other's there. Refused under `--output-dir` on every OS (the output must be
/// portable), naming both, with nothing written; other cases pass.
#[test]
fn clusters_that_differ_only_in_case_are_refused_under_output_dir() {
    let dir = workspace("cluster-case");
    let config = |clusters: &str| {
        format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {{name: m}}\nspec:\n  clusters: [{clusters}]\n")
    };
    std::fs::write(
        dir.join("fan.yaml"),
        config("{name: Dev}, {name: prod}, {name: dev}"),
    )
    .unwrap();
    refused(
        &dir,
        &["fan.yaml", "pkg", "--output-dir", "out"],
        1,
        "[error] --output-dir out: clusters \"Dev\" and \"dev\" differ only in case: their directories Dev/ and dev/ are one on a case-insensitive file system (macOS, Windows), where one would overwrite the other; give them names that differ otherwise\n",
    );
    std::fs::write(dir.join("fan.yaml"), config("{name: dev-a}, {name: dev-b}")).unwrap();
    let ran = tailor_in(&dir, &["fan.yaml", "pkg", "--output-dir", "out"], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let written: Vec<String> = read_tree(&dir.join("out")).into_keys().collect();
    assert_eq!(written, ["dev-a/a.yaml", "dev-b/a.yaml"]);
}

#[test]
fn text_from_the_input_is_escaped_on_stderr() {
    let dir = workspace("escape");
    // An object name that would set the terminal's title, erase the line and span lines.
    write(
        &dir,
        "pkg/a.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"evil\\e]0;pwned\\a\\r\\e[2Kline1\\nline2\"\n  annotations:\n    control.kubestellar.io/expand-templates: \"yes\"\n",
    );
    let ran = tailor_in(&dir, &["cfg.yaml", "pkg"], None);
    assert_eq!(ran.code, 0);
    assert_eq!(
        ran.stderr,
        "[warning] v1/ConfigMap/evil\\u{1b}]0;pwned\\u{7}\\r\\u{1b}[2Kline1\\nline2 metadata.annotations.control.kubestellar.io/expand-templates: control.kubestellar.io/expand-templates is \"yes\": KubeStellar expands only the exact string \"true\". Not expanded\n"
    );
    // A file name, in an error.
    let evil = "x\u{1b}]0;t\u{7}\r.yaml";
    write(
        &dir,
        &format!("bad/{evil}"),
        "apiVersion: v1\nkind: ConfigMap\n",
    );
    let ran = tailor_in(&dir, &["cfg.yaml", "bad"], None);
    assert_eq!(ran.code, 1);
    assert_eq!(
        ran.stderr,
        "[error] x\\u{1b}]0;t\\u{7}\\r.yaml:1 metadata.name: document 0: resource must have `metadata.name`\n"
    );
    // The KRM function's results on stderr (kpt shows them).
    let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: m}\n  spec: {}\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: \"n\\e[31m\"\n    annotations:\n      control.kubestellar.io/expand-templates: \"yes\"\n";
    let ran = common::run_tailor(&[], list);
    assert!(
        ran.stderr
            .starts_with("[warning] v1/ConfigMap/n\\u{1b}[31m "),
        "{}",
        ran.stderr
    );
    assert!(!ran.stderr.trim_end().contains(|c: char| c.is_control()));
}

#[test]
fn an_input_directory_reads_no_symlink_out_of_it_and_no_special_file() {
    let dir = workspace("tree-files");
    write(&dir, "secret/s.yaml", &config_map("secret"));
    std::os::unix::fs::symlink("../secret/s.yaml", dir.join("pkg/s.yaml")).unwrap();
    let real = dir.canonicalize().unwrap();
    refused(
        &dir,
        &["cfg.yaml", "pkg"],
        1,
        &format!(
            "[error] pkg: s.yaml: a symlink to {}/secret/s.yaml, outside the directory: only files inside it are read\n",
            real.display()
        ),
    );
    std::fs::remove_file(dir.join("pkg/s.yaml")).unwrap();
    // A symlink inside the tree is read.
    std::os::unix::fs::symlink("a.yaml", dir.join("pkg/same.yaml")).unwrap();
    let ran = tailor_in(&dir, &["cfg.yaml", "pkg"], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    std::fs::remove_file(dir.join("pkg/same.yaml")).unwrap();
    // A named pipe would hang the run.
    let fifo = Command::new("mkfifo").arg(dir.join("pkg/f.yaml")).status();
    if fifo.is_ok_and(|s| s.success()) {
        // Not `refused`: reading the tree would hang on the pipe as tailor did.
        let ran = tailor_in(&dir, &["cfg.yaml", "pkg"], None);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (
                1,
                "[error] pkg: f.yaml: a named pipe (FIFO), not a regular file: not read\n"
            )
        );
    }
}

#[test]
fn fleet_values_files_stay_inside_the_bundle() {
    let dir = temp_dir("values-files");
    std::fs::write(
        dir.join("cfg.yaml"),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  cluster: {name: dev}\n",
    )
    .unwrap();
    write(&dir, "secret/values.yaml", "password: hunter2\n");
    let absolute = dir.join("secret/values.yaml");
    let real = dir.canonicalize().unwrap();
    let cases = [
        (
            "../secret/values.yaml".to_string(),
            format!(
                "leads to {}/secret/values.yaml, outside the bundle",
                real.display()
            ),
        ),
        (
            absolute.display().to_string(),
            "an absolute path".to_string(),
        ),
    ];
    for (entry, why) in cases {
        write(
            &dir,
            "bundle/fleet.yaml",
            &format!("helm:\n  chart: ./chart\n  valuesFiles:\n  - {entry}\n"),
        );
        let stderr = format!(
            "[error] fleet.yaml helm.valuesFiles: {entry}: {why}; a values file must lie inside the bundle directory\n"
        );
        refused(&dir, &["fleet-values", "cfg.yaml", "bundle"], 1, &stderr);
    }
}

#[test]
fn a_stale_path_annotation_in_a_file_does_not_move_its_object() {
    let dir = workspace("stale-path");
    let stale = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n  annotations:\n    config.kubernetes.io/path: elsewhere/x.yaml\n    config.kubernetes.io/index: '3'\n";
    write(&dir, "pkg/s.yaml", stale);
    let ran = tailor_in(&dir, &["cfg.yaml", "pkg", "--output-dir", "out"], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let files: Vec<String> = read_tree(&dir.join("out")).into_keys().collect();
    assert_eq!(files, ["a.yaml", "s.yaml"]);
    // As kpt fn source records it: the file and the index it was read from.
    let ran = tailor_in(&dir, &["cfg.yaml", "pkg", "-o", "resource-list"], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout.contains("config.kubernetes.io/path: 's.yaml'"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("config.kubernetes.io/index: '0'"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("elsewhere"), "{}", ran.stdout);
    // In a fan-out, each copy goes under its cluster, by its file.
    std::fs::write(
        dir.join("fan.yaml"),
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  clusters: [{name: a}, {name: b}]\n",
    )
    .unwrap();
    let ran = tailor_in(&dir, &["fan.yaml", "pkg", "--output-dir", "fan"], None);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let files: Vec<String> = read_tree(&dir.join("fan")).into_keys().collect();
    assert_eq!(files, ["a/a.yaml", "a/s.yaml", "b/a.yaml", "b/s.yaml"]);
}
