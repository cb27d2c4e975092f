//! The version before the change, on disk: BASE is a directory laid out as the current
//! directory, or a git revision of the repository the current directory is in, written out
//! with `git archive` into a temporary directory (the user's work tree and the repository's
//! state are never touched) and removed when the review is done.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where the base side's CONFIG and inputs are. `config` is `None` when the base has no such
/// file (the change adds it); inputs the base lacks are left out.
pub struct Base {
    pub config: Option<String>,
    pub inputs: Vec<String>,
    _checkout: Option<TempDir>,
}

/// Finds CONFIG and the inputs inside BASE, resolved the way they are in the current version.
pub fn locate(base: &str, config: &str, inputs: &[String]) -> Result<Base, String> {
    let (root, strip, checkout) = if Path::new(base).is_dir() {
        outside_inputs(Path::new(base), inputs)?;
        (PathBuf::from(base), current_dir()?, None)
    } else {
        let top = git_toplevel(base)?;
        let checkout = TempDir::new()?;
        archive(&top, base, checkout.path())?;
        (checkout.path().to_path_buf(), top, Some(checkout))
    };
    let place = |p: &str| -> Result<String, String> {
        let rel = relative_to(Path::new(p), &strip)?;
        Ok(root.join(rel).to_string_lossy().into_owned())
    };
    let config = Some(place(config)?).filter(|c| Path::new(c).exists());
    let mut placed = Vec::new();
    for input in inputs {
        let p = place(input)?;
        if Path::new(&p).exists() {
            placed.push(p);
        }
    }
    Ok(Base {
        config,
        inputs: placed,
        _checkout: checkout,
    })
}

/// A BASE directory inside an input would be read as part of the current version.
fn outside_inputs(base: &Path, inputs: &[String]) -> Result<(), String> {
    let base = base
        .canonicalize()
        .map_err(|e| format!("--base {}: {e}", base.display()))?;
    for input in inputs {
        if Path::new(input)
            .canonicalize()
            .is_ok_and(|i| base.starts_with(i))
        {
            return Err(format!(
                "--base {} lies inside the input {input}: its files would be read as part of the change; keep it outside them",
                base.display()
            ));
        }
    }
    Ok(())
}

fn current_dir() -> Result<PathBuf, String> {
    std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .map_err(|e| format!("cannot read the current directory: {e}"))
}

/// `path` (relative to the current directory, or absolute) relative to `root`, a canonical
/// directory it must lie in.
fn relative_to(path: &Path, root: &Path) -> Result<PathBuf, String> {
    let whole = current_dir()?.join(path);
    let whole = whole
        .canonicalize()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    whole
        .strip_prefix(root)
        .map(Path::to_path_buf)
        .map_err(|_| {
            format!(
                "{} is outside {}: the base can only hold paths under it",
                path.display(),
                root.display()
            )
        })
}

/// The root of the git repository the current directory is in, once `rev` is known to name a
/// commit there.
fn git_toplevel(rev: &str) -> Result<PathBuf, String> {
    let not_base = |why: String| {
        format!(
            "--base {rev:?} is neither a directory nor a git revision of this repository ({why})"
        )
    };
    let top = git(&["rev-parse", "--show-toplevel"]).map_err(not_base)?;
    git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{rev}^{{commit}}"),
    ])
    .map_err(|_| not_base("no such revision".into()))?;
    PathBuf::from(top.trim())
        .canonicalize()
        .map_err(|e| not_base(e.to_string()))
}

fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(if err.is_empty() {
            "git failed".into()
        } else {
            err
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Writes the tree of `rev` into `dest` (`git archive | tar -x`).
fn archive(top: &Path, rev: &str, dest: &Path) -> Result<(), String> {
    let mut git = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["archive", "--format=tar", rev])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git archive: {e}"))?;
    let Some(tar_in) = git.stdout.take() else {
        return Err("git archive gave no output".into());
    };
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dest)
        .arg("-f")
        .arg("-")
        .stdin(Stdio::from(tar_in))
        .status();
    let git_ok = git.wait().is_ok_and(|s| s.success());
    match tar {
        Ok(s) if s.success() && git_ok => Ok(()),
        Ok(_) => Err(format!(
            "could not write out revision {rev:?} (git archive | tar -x)"
        )),
        Err(e) => Err(format!("cannot run tar: {e}")),
    }
}

/// A directory of our own under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("tailor-review-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(TempDir(path))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
