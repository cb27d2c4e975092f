//! `--output-dir DIR [--clean]`: checked before anything is read, written whole or not at all.
//!
//! - DIR must be given (`--output-dir ''`, what an unset `$OUT` gives, is refused by the
//!   command line), must not lie inside an input directory, and must not hold an input or the
//!   CONFIG file: all on resolved paths ([`crate::safe_paths::resolve`]), symlinks included.
//! - Without `--clean`, DIR must be empty or absent: a user's file in it is never touched.
//! - With `--clean`, DIR is replaced only when it holds nothing but what tailor writes
//!   (directories and `*.yaml`, `*.yml`, `*.json` and `Kptfile` files, no symlink), and not
//!   the working directory: a README, a `.git` or a script in it is refused, named.
//! - The output is written into a new directory beside DIR (so on the same file system), then
//!   renamed into place; with `--clean` the old DIR is first renamed aside and removed only
//!   after the new one is in place. A failure (a full disk, a file where a directory must go,
//!   a name too long) removes the new directory and leaves DIR as it was. A fan-out writes
//!   each destination into that new directory as soon as it is finished (`dir_sink`), so
//!   memory holds a few destinations rather than all; a run that fails removes it just so.
//!
//! - Every file is synced to disk as it is written, then the directories holding them, before
//!   the rename; the parent after it ([`durable`]): once tailor exits 0 the output outlives a
//!   crash or a power cut.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::safe_paths::{resolve, within};

mod dir_sink;
pub mod durable;
mod syncer;

pub use dir_sink::DirSink;

/// How a line for the user reaches stderr (the binary's, which escapes what the input put in
/// it): said when the output is in place but something after went wrong.
pub type Say = fn(&str);

/// Why tailor must not write `dir` for a run reading `inputs` (files, directories, `-`) with
/// the CONFIG file `config` (`-`: stdin), if it must not.
pub fn check(dir: &Path, inputs: &[String], config: &str, clean: bool) -> Result<(), String> {
    let shown = dir.display();
    let out = resolve(dir).map_err(|e| format!("--output-dir {shown}: {e}"))?;
    if out.exists() && !out.is_dir() {
        return Err(format!(
            "--output-dir {shown} is not a directory; give a directory (it is created when absent)"
        ));
    }
    for input in inputs.iter().filter(|i| *i != "-") {
        let Ok(inp) = resolve(Path::new(input)) else {
            continue;
        };
        if inp.is_dir() && within(&out, &inp) {
            return Err(format!(
                "--output-dir {shown} lies inside the input directory {input}: the next run would read the output as input; write it elsewhere"
            ));
        }
        if within(&inp, &out) {
            return Err(format!(
                "--output-dir {shown} holds the input {input}: writing the output there would replace it; write it elsewhere"
            ));
        }
    }
    if config != "-" && resolve(Path::new(config)).is_ok_and(|c| within(&c, &out)) {
        return Err(format!(
            "--output-dir {shown} holds the CONFIG file {config}: writing the output there would replace it; write it elsewhere"
        ));
    }
    let non_empty = std::fs::read_dir(&out).is_ok_and(|mut d| d.next().is_some());
    if !non_empty {
        return Ok(());
    }
    if !clean {
        return Err(format!(
            "--output-dir {shown}: the directory is not empty; pass --clean to empty it first (files of destinations no longer rendered would stay otherwise)"
        ));
    }
    if std::env::current_dir().is_ok_and(|cwd| resolve(&cwd).is_ok_and(|c| within(&c, &out))) {
        return Err(format!(
            "--output-dir {shown} --clean would remove the current directory; write the output to a directory of its own"
        ));
    }
    if let Some(foreign) = first_foreign(&out, &out) {
        return Err(format!(
            "--output-dir {shown} --clean: it holds {foreign:?}, which tailor never writes, so it is not replaced; move that away or write the output to a directory of its own"
        ));
    }
    Ok(())
}

/// The first entry under `dir` (relative to `root`) that is no output of tailor's: anything
/// but a directory or a regular file of a name `kpt fn source` reads.
fn first_foreign(root: &Path, dir: &Path) -> Option<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Some(rel(root, dir));
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            return Some(rel(root, &path));
        };
        let name = entry.file_name();
        if kind.is_dir() {
            if let Some(found) = first_foreign(root, &path) {
                return Some(found);
            }
        } else if !kind.is_file() || !crate::files::is_package_file(&name.to_string_lossy()) {
            return Some(rel(root, &path));
        }
    }
    None
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Writes the output with `write` (given a new, empty directory to write into; its errors
/// name the file relative to it) and puts it in place of `dir`, as the module doc says. Any
/// error leaves `dir` as it was ([`not_written`] says so); what goes wrong once the output is
/// in place is told with `say`.
pub fn replace(dir: &Path, say: Say, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    stage_and_rename(dir, say, write).with_context(|| format!("--output-dir {}", dir.display()))
}

/// [`replace`], its errors not yet naming `--output-dir`.
fn stage_and_rename(dir: &Path, say: Say, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let staging = Staging::new(dir, say)?;
    write(staging.path())?;
    staging.commit()
}

/// The new directory an output is written into, beside DIR: put in place of DIR by
/// [`Staging::commit`], removed when dropped before that (DIR is then left as it was). A
/// fan-out writes each destination into it as it is finished.
pub struct Staging {
    target: PathBuf,
    path: PathBuf,
    committed: bool,
    say: Say,
}

impl Staging {
    /// A new, empty directory beside `dir` (its errors not yet naming `--output-dir`); what
    /// goes wrong once it is in place is told with `say`.
    pub fn new(dir: &Path, say: Say) -> Result<Staging> {
        let target = resolve(dir)?;
        let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
            bail!("not a directory tailor can replace");
        };
        fs::create_dir_all(parent).with_context(|| parent.display().to_string())?;
        let path = beside(parent, name, "new");
        fs::create_dir(&path).with_context(|| path.display().to_string())?;
        Ok(Staging {
            target,
            path,
            committed: false,
            say,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the new directory in place of DIR, as the module doc says.
    pub fn commit(mut self) -> Result<()> {
        put_in_place(&self.path, &self.target, self.say)?;
        self.committed = true;
        if let Some(parent) = self.target.parent() {
            sync_parent(parent, self.say);
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// The message for a [`replace`] of `dir` that failed with `error`.
pub fn not_written(dir: &Path, error: &anyhow::Error) -> String {
    format!("{error:#}; {} is left as it was", dir.display())
}

/// Syncs `parent`, where the new output was renamed, so the rename outlives a crash. The
/// output is in place whatever happens: a failure is only said.
fn sync_parent(parent: &Path, say: Say) {
    if let Err(e) = durable::sync_dir(parent) {
        say(&format!(
            "tailor: the output is written, but syncing its parent directory {} failed: {e}; a crash now could undo the rename",
            parent.display()
        ));
    }
}

/// Renames `staging` to `target`: over an absent or empty `target` directly, else with the
/// old one renamed aside first, restored if the second rename fails, removed after.
fn put_in_place(staging: &Path, target: &Path, say: Say) -> Result<()> {
    let empty = fs::read_dir(target).map_or(true, |mut d| d.next().is_none());
    if empty {
        return fs::rename(staging, target).context("renaming the new output into place");
    }
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        bail!("not a directory tailor can replace");
    };
    let aside = beside(parent, name, "old");
    fs::rename(target, &aside)
        .with_context(|| format!("moving the old output aside to {}", aside.display()))?;
    if let Err(e) = fs::rename(staging, target) {
        let _ = fs::rename(&aside, target);
        return Err(e).context("renaming the new output into place");
    }
    if let Err(e) = fs::remove_dir_all(&aside) {
        // The new output is in place; only the old copy is left behind.
        say(&format!(
            "tailor: the output is written, but the old one, moved to {}, could not be removed: {e}",
            aside.display()
        ));
    }
    Ok(())
}

/// A hidden name beside `name` in `parent`, unique to this run.
fn beside(parent: &Path, name: &std::ffi::OsStr, what: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    parent.join(format!(
        ".{}.tailor-{what}-{}-{nanos}",
        name.to_string_lossy(),
        std::process::id()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: &str) {}

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tailor-outdir-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    }

    #[test]
    fn a_failed_write_leaves_the_old_output_and_no_stray_directory() {
        let d = temp("fail");
        let out = d.join("out");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("old.yaml"), "old").unwrap();
        let err = replace(&out, quiet, |staging| {
            std::fs::write(staging.join("half.yaml"), "half").unwrap();
            Err(anyhow::anyhow!("it broke")).context("writing x.yaml")
        })
        .unwrap_err();
        let err = not_written(&out, &err);
        assert!(err.contains("out: writing x.yaml: it broke; "), "{err}");
        assert!(err.ends_with("is left as it was"), "{err}");
        assert_eq!(names(&d), ["out"]);
        assert_eq!(names(&out), ["old.yaml"]);
        replace(&out, quiet, |staging| {
            Ok(std::fs::write(staging.join("new.yaml"), "new")?)
        })
        .unwrap();
        assert_eq!(names(&d), ["out"]);
        assert_eq!(names(&out), ["new.yaml"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn clean_refuses_a_directory_holding_what_tailor_never_writes() {
        let d = temp("foreign");
        std::fs::create_dir_all(d.join("out/prod")).unwrap();
        std::fs::write(d.join("out/prod/a.yaml"), "").unwrap();
        let out = d.join("out");
        assert_eq!(first_foreign(&out, &out), None);
        std::fs::write(d.join("out/prod/README.md"), "").unwrap();
        assert_eq!(first_foreign(&out, &out).as_deref(), Some("prod/README.md"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
