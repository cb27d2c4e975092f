//! Writing `--output-dir`'s files so that they survive a crash or a power cut once tailor
//! exits 0. A rename is atomic against errors, but without a sync the new directory's files
//! may still be in the page cache when the rename reaches the disk: after a crash DIR could
//! name empty or truncated files. So every file and every directory that holds one (the new
//! directory too) is synced before the rename into place, several at once ([`Syncer`], whose
//! docs say why the order does not matter); the parent is synced after it, so the rename
//! itself lasts ([`sync_dir`]). What it costs is measured in `docs/host-contract.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::files::OutputFile;
use anyhow::{Context, Result};

pub use super::syncer::Syncer;

/// Writes `files` (path relative to `dir` → file) under the new directory `dir`, then syncs
/// them, the directories they are in and `dir`; an error names the file or directory relative
/// to `dir` (it is renamed into place later, so its own name means nothing to the user).
pub fn write_files(dir: &Path, files: BTreeMap<String, OutputFile<'_>>) -> Result<()> {
    write_files_then_sync(dir, files, Syncer::new())
}

/// [`write_files`] for the last files of a fan-out that gave `syncer` its destinations' files:
/// returns once everything written is synced.
pub fn write_files_then_sync(
    dir: &Path,
    files: BTreeMap<String, OutputFile<'_>>,
    syncer: Syncer,
) -> Result<()> {
    write_files_below(dir, files, &syncer)?;
    syncer.dir(dir.to_path_buf(), "the new directory".into())?;
    syncer.finish()
}

/// Writes `files` under `dir` and hands them and their directories (not `dir` itself) to
/// `syncer`: for a fan-out writing one destination at a time into `dir`.
pub fn write_files_below(
    dir: &Path,
    files: BTreeMap<String, OutputFile<'_>>,
    syncer: &Syncer,
) -> Result<()> {
    let mut made: BTreeSet<PathBuf> = BTreeSet::new();
    for (rel, file) in files {
        let rel_path = Path::new(&rel);
        if let Some(parent) = rel_path.parent().filter(|p| !p.as_os_str().is_empty()) {
            if !made.contains(parent) {
                fs::create_dir_all(dir.join(parent)).with_context(|| {
                    format!("writing {} (a directory, to hold {rel})", parent.display())
                })?;
                made.extend(parent.ancestors().map(Path::to_path_buf));
            }
        }
        let written = write_new(&dir.join(rel_path), file.text().as_bytes())
            .with_context(|| format!("writing {rel}"))?;
        syncer.file(written, rel)?;
    }
    for sub in made.into_iter().filter(|d| !d.as_os_str().is_empty()) {
        syncer.dir(dir.join(&sub), sub.display().to_string())?;
    }
    Ok(())
}

/// Creates `path` with `bytes`; the open file, to be synced.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<File> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    Ok(file)
}

/// Syncs a directory's entries (the names in it, a rename into it) to disk. Windows cannot
/// open a directory as a file, and NTFS journals its renames: there it does nothing.
pub fn sync_dir(path: &Path) -> io::Result<()> {
    if cfg!(windows) {
        return Ok(());
    }
    File::open(path)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tailor-durable-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn files_are_written_under_their_directories_and_errors_name_them() {
        let d = temp("write");
        let a = std::sync::Arc::new("a: 1\n".to_string());
        let mut files = BTreeMap::new();
        files.insert("dev/app/a.yaml".to_string(), OutputFile::Kept(&a));
        files.insert("top.yaml".to_string(), OutputFile::Kept(&a));
        write_files(&d, files).unwrap();
        assert_eq!(
            fs::read_to_string(d.join("dev/app/a.yaml")).unwrap(),
            "a: 1\n"
        );
        assert_eq!(fs::read_to_string(d.join("top.yaml")).unwrap(), "a: 1\n");
        // A file where a directory must go.
        let mut clash = BTreeMap::new();
        clash.insert("top.yaml/b.yaml".to_string(), OutputFile::Kept(&a));
        let err = write_files(&d, clash).unwrap_err();
        assert!(
            format!("{err:#}")
                .starts_with("writing top.yaml (a directory, to hold top.yaml/b.yaml): "),
            "{err:#}"
        );
        fs::remove_dir_all(&d).unwrap();
    }
}
