//! `kubectl kustomize` (kustomize v5.5.0, the reference the transformers are compared with)
//! for the differential tests.
//!
//! [`require`] is the gate every such test starts with: CI installs kubectl, so a missing one
//! must be visible, not a silent pass. [`kustomize`] builds one directory under [`TIMEOUT`],
//! because generated cases can make kustomize loop and a hung build must end the case, not the
//! test run. The timeout is enforced here rather than with coreutils `timeout`, so it works
//! wherever kubectl does and a hang is told apart from a failure without guessing exit codes.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long one kubectl run may take (the copies this replaced used `timeout 20`).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct Build {
    pub stdout: String,
    pub stderr: String,
    /// `None` when the run was killed at the timeout.
    pub status: Option<ExitStatus>,
}

impl Build {
    /// Exited with status 0 (within the timeout).
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    /// Killed because it ran past the timeout.
    pub fn timed_out(&self) -> bool {
        self.status.is_none()
    }
}

/// Whether `kubectl version --client` runs and succeeds.
pub fn available() -> bool {
    run(
        Command::new("kubectl").args(["version", "--client"]),
        TIMEOUT,
    )
    .is_ok_and(|b| b.success())
}

/// True when kubectl is available; otherwise prints a loud SKIP naming `test` (to stderr, and a
/// one-line summary to stdout) and returns false, so the caller returns early:
///
/// ```no_run
/// if !tailor_testkit::kubectl::require("differential_against_kubectl_kustomize") {
///     return;
/// }
/// ```
pub fn require(test: &str) -> bool {
    if available() {
        return true;
    }
    eprintln!("{}", skip_banner(test));
    println!("SKIPPED: {test}: kubectl not found");
    false
}

fn skip_banner(test: &str) -> String {
    let rule = "=".repeat(72);
    format!(
        "\n{rule}\nSKIPPED: {test}: kubectl not found\n\
         The comparison against `kubectl kustomize` (kustomize v5.5.0) did NOT run;\n\
         scripts/install-tools.sh installs kubectl, and CI must have it.\n{rule}\n"
    )
}

/// `kubectl kustomize <dir>`, killed after [`TIMEOUT`].
///
/// Panics when kubectl cannot be started at all: callers check [`require`] first, so that is
/// a broken environment, not a case result.
pub fn kustomize(dir: &Path) -> Build {
    run(Command::new("kubectl").arg("kustomize").arg(dir), TIMEOUT)
        .unwrap_or_else(|e| panic!("run `kubectl kustomize {}`: {e}", dir.display()))
}

/// Runs `cmd` with stdin closed and both outputs captured, killing it after `limit`.
fn run(cmd: &mut Command, limit: Duration) -> std::io::Result<Build> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Read both pipes while waiting: a child that fills a pipe buffer would otherwise block
    // forever and look like a hang.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_until(&mut child, Instant::now() + limit);
    let build = Build {
        stdout: collect(stdout),
        stderr: collect(stderr),
        status: status?,
    };
    Ok(build)
}

/// The exit status, or `None` after killing the child at `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> std::io::Result<Option<ExitStatus>> {
    // Poll with a short, growing sleep: most kubectl builds end within a few hundred ms.
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            // A read error keeps what was read so far; the exit status tells what happened.
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

fn collect(reader: JoinHandle<Vec<u8>>) -> String {
    String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn captures_both_outputs_and_the_exit_status() {
        let b = run(&mut sh("echo out; echo err >&2; exit 3"), TIMEOUT).unwrap();
        assert_eq!(b.stdout, "out\n");
        assert_eq!(b.stderr, "err\n");
        assert_eq!(b.status.and_then(|s| s.code()), Some(3));
        assert!(!b.success());
        assert!(!b.timed_out());
    }

    #[test]
    fn success_is_exit_zero() {
        let b = run(&mut sh("printf done"), TIMEOUT).unwrap();
        assert!(b.success());
        assert_eq!(b.stdout, "done");
    }

    #[test]
    fn output_larger_than_a_pipe_buffer_does_not_block() {
        // 1 MiB on each stream: far past the 64 KiB pipe buffer.
        let b = run(
            &mut sh("head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"),
            TIMEOUT,
        )
        .unwrap();
        assert!(b.success());
        assert_eq!((b.stdout.len(), b.stderr.len()), (1 << 20, 1 << 20));
    }

    #[test]
    fn a_hang_is_killed_at_the_limit() {
        let started = Instant::now();
        let b = run(
            &mut sh("echo before; exec sleep 30"),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(b.timed_out());
        assert!(!b.success());
        assert_eq!(b.stdout, "before\n");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_build() {
        let e = run(&mut Command::new("tailor-testkit-no-such-program"), TIMEOUT).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn the_skip_banner_names_the_test_and_says_it_did_not_run() {
        let text = skip_banner("my_test");
        assert!(
            text.contains("SKIPPED: my_test: kubectl not found"),
            "{text}"
        );
        assert!(text.contains("did NOT run"), "{text}");
        assert!(text.contains("scripts/install-tools.sh"), "{text}");
    }

    #[test]
    fn kustomize_builds_a_directory_and_reports_a_bad_one() {
        if !require("kustomize_builds_a_directory_and_reports_a_bad_one") {
            return;
        }
        let dir = std::env::temp_dir().join(format!("tailor-testkit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("cm.yaml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("kustomization.yaml"),
            "resources: [cm.yaml]\nnamePrefix: p-\n",
        )
        .unwrap();
        let ok = kustomize(&dir);
        assert!(ok.success(), "{}", ok.stderr);
        assert!(ok.stdout.contains("name: p-a"), "{}", ok.stdout);

        std::fs::write(
            dir.join("kustomization.yaml"),
            "resources: [missing.yaml]\n",
        )
        .unwrap();
        let bad = kustomize(&dir);
        assert!(!bad.success() && !bad.timed_out());
        assert!(bad.stdout.is_empty());
        assert!(bad.stderr.contains("missing.yaml"), "{}", bad.stderr);
        std::fs::remove_dir_all(&dir).ok();
    }
}
