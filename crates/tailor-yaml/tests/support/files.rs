//! The files under a directory, for the tests that run over the corpus and the fixtures
//! (`tests/handoff.rs`, `tests/reparse_documents.rs`; included with `#[path]`).

use std::path::{Path, PathBuf};

/// Every file under `dir` that `keep` takes (given the file and its directory), in sorted
/// order, depth first; nothing when `dir` cannot be read.
pub fn files_under(dir: &Path, keep: &dyn Fn(&Path, &Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, keep, out);
        } else if keep(&p, dir) {
            out.push(p);
        }
    }
}
