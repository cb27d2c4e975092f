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
//!   a name too long) removes the new directory and leaves DIR as it was.
//!
//! The rename is atomic against errors, not against a crash: files are not synced.

use std::path::{Path, PathBuf};

use crate::safe_paths::{resolve, within};

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
        } else if !kind.is_file() || !tailor_kio::files::is_package_file(&name.to_string_lossy()) {
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
/// name the file relative to it) and puts it in place of `dir`, as the module doc says.
pub fn replace(dir: &Path, write: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let shown = dir.display();
    let fail = |what: String| format!("--output-dir {shown}: {what}; {shown} is left as it was");
    let target = resolve(dir).map_err(|e| fail(e.to_string()))?;
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(fail("not a directory tailor can replace".into()));
    };
    std::fs::create_dir_all(parent).map_err(|e| fail(format!("{}: {e}", parent.display())))?;
    let staging = beside(parent, name, "new");
    std::fs::create_dir(&staging).map_err(|e| fail(format!("{}: {e}", staging.display())))?;
    let put = write(&staging)
        .map_err(|e| format!("writing {e}"))
        .and_then(|()| put_in_place(&staging, &target));
    if let Err(e) = put {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(fail(e));
    }
    Ok(())
}

/// Renames `staging` to `target`: over an absent or empty `target` directly, else with the
/// old one renamed aside first, restored if the second rename fails, removed after.
fn put_in_place(staging: &Path, target: &Path) -> Result<(), String> {
    let empty = std::fs::read_dir(target).map_or(true, |mut d| d.next().is_none());
    if empty {
        return std::fs::rename(staging, target)
            .map_err(|e| format!("renaming the new output into place: {e}"));
    }
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err("not a directory tailor can replace".into());
    };
    let aside = beside(parent, name, "old");
    std::fs::rename(target, &aside)
        .map_err(|e| format!("moving the old output aside to {}: {e}", aside.display()))?;
    if let Err(e) = std::fs::rename(staging, target) {
        let _ = std::fs::rename(&aside, target);
        return Err(format!("renaming the new output into place: {e}"));
    }
    if let Err(e) = std::fs::remove_dir_all(&aside) {
        // The new output is in place; only the old copy is left behind.
        super::say(&format!(
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
        let err = replace(&out, |staging| {
            std::fs::write(staging.join("half.yaml"), "half").unwrap();
            Err("x.yaml: it broke".into())
        })
        .unwrap_err();
        assert!(err.contains(": writing x.yaml: it broke; "), "{err}");
        assert!(err.ends_with("is left as it was"), "{err}");
        assert_eq!(names(&d), ["out"]);
        assert_eq!(names(&out), ["old.yaml"]);
        replace(&out, |staging| {
            std::fs::write(staging.join("new.yaml"), "new").map_err(|e| e.to_string())
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
