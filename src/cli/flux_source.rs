//! A directory read for a Flux `Kustomization` is read as Flux reads its source: without the
//! files source-controller leaves out of the artifact (its defaults and every
//! `.sourceignore`), and with only the `.yaml`/`.yml` files kustomize-controller's generated
//! kustomization lists (`tailor_flux::sourceignore`).

use std::path::{Path, PathBuf};

use tailor_flux::sourceignore::{is_manifest_name, Ignore, IGNORE_FILE};

/// Keeps the files of `dir` (with paths relative to it) that Flux would build.
pub(crate) fn flux_files(
    dir: &Path,
    files: Vec<(PathBuf, String)>,
) -> Result<Vec<(PathBuf, String)>, String> {
    let mut ignore = Ignore::default();
    let root_real = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    load_ignore_files(&root_real, dir, &mut Vec::new(), &mut ignore)?;
    Ok(files
        .into_iter()
        .filter(|(_, rel)| {
            let path: Vec<&str> = rel.split('/').collect();
            path.last().is_some_and(|name| is_manifest_name(name)) && !ignore.excludes(&path, false)
        })
        .collect())
}

/// Adds the `.sourceignore` of `dir` and of every directory below it (not `.git`), each
/// scoped to its directory, parents first, as source-controller loads them. One is read under
/// the rules of the package's other files (`tailor_kube::tree::readable_file`): no symlink
/// out of the tree (`root_real`), no FIFO or device.
fn load_ignore_files(
    root_real: &Path,
    dir: &Path,
    domain: &mut Vec<String>,
    ignore: &mut Ignore,
) -> Result<(), String> {
    let file = dir.join(IGNORE_FILE);
    if file.symlink_metadata().is_ok() {
        tailor_kube::tree::readable_file(root_real, &file)
            .map_err(|why| format!("{}: {why}", file.display()))?;
        let text = tailor_kio::input::read_file(&file)?;
        ignore.add_file(&text, domain);
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .and_then(|d| d.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if name != ".git" && e.file_type().is_ok_and(|t| t.is_dir()) {
            domain.push(name);
            load_ignore_files(root_real, &e.path(), domain, ignore)?;
            domain.pop();
        }
    }
    Ok(())
}
