//! What tailor does to the user's files and streams (`docs/host-contract.md`, "Files and
//! streams"), through the binary: every write error is a non-zero exit naming the file or
//! stream, `--output-dir` and `--clean` never touch an input, the CONFIG or a user's file, and
//! a failed write leaves the previous output as it was.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{read_tree, tailor_bin, temp_dir};

const CONFIG: &str = "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: m}\nspec:\n  commonMetadata: {labels: {team: a}}\n";

fn config_map(name: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n")
}

/// A work directory holding `cfg.yaml` (CONFIG) and a package `pkg/` of one ConfigMap.
fn workspace(tag: &str) -> PathBuf {
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
