//! The one rule for reading a file found in a directory tree the user handed over (a package,
//! a Fleet bundle): it must be a regular file, and a symlink must lead to one inside the tree
//! (Fleet's `GetContent` fails a bundle whose symlink leads out). A symlink out of the tree
//! would print a file the user never meant to hand over (`../secret/values.yaml`); a named
//! pipe would hang the run and `/dev/zero` read until the input limit.

use std::path::{Path, PathBuf};

/// Why a file of a tree is not read.
#[derive(Debug)]
pub enum Refused {
    /// Its symlink could not be resolved (dangling, a loop, no permission).
    Unresolved(std::io::Error),
    /// Its symlink leads out of the tree, to this path.
    Escapes(PathBuf),
    /// It is no regular file: what it is (`a named pipe (FIFO)`, `a directory`...).
    NotAFile(&'static str),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Unresolved(e) => write!(f, "resolving the symlink: {e}"),
            Refused::Escapes(to) => write!(
                f,
                "a symlink to {}, outside the directory: only files inside it are read",
                to.display()
            ),
            Refused::NotAFile(what) => write!(f, "{what}, not a regular file: not read"),
        }
    }
}

/// Whether `path` (an entry of the tree whose resolved root is `root_real`) may be read: a
/// regular file, or a symlink leading to one inside the tree.
pub fn readable_file(root_real: &Path, path: &Path) -> Result<(), Refused> {
    let own = std::fs::symlink_metadata(path).map_err(Refused::Unresolved)?;
    let meta = if own.file_type().is_symlink() {
        let resolved = std::fs::canonicalize(path).map_err(Refused::Unresolved)?;
        if !resolved.starts_with(root_real) {
            return Err(Refused::Escapes(resolved));
        }
        std::fs::metadata(&resolved).map_err(Refused::Unresolved)?
    } else {
        own
    };
    match kind(&meta.file_type()) {
        None => Ok(()),
        Some(what) => Err(Refused::NotAFile(what)),
    }
}

/// What a file of this type is, when it is no regular file.
fn kind(t: &std::fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn symlinks_stay_inside_and_only_regular_files_are_read() {
        let dir = std::env::temp_dir().join(format!("tailor-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = dir.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.yaml"), "a").unwrap();
        std::fs::write(dir.join("secret.yaml"), "s").unwrap();
        let link = |to: &str, name: &str| std::os::unix::fs::symlink(to, root.join(name)).unwrap();
        link("sub/a.yaml", "in.yaml");
        link("../secret.yaml", "out.yaml");
        link("/dev/zero", "zero.yaml");
        link("missing.yaml", "dangling.yaml");
        let real = root.canonicalize().unwrap();
        assert!(readable_file(&real, &root.join("sub/a.yaml")).is_ok());
        assert!(readable_file(&real, &root.join("in.yaml")).is_ok());
        assert!(matches!(
            readable_file(&real, &root.join("out.yaml")),
            Err(Refused::Escapes(_))
        ));
        assert!(matches!(
            readable_file(&real, &root.join("zero.yaml")),
            Err(Refused::Escapes(_))
        ));
        assert!(matches!(
            readable_file(&real, &root.join("dangling.yaml")),
            Err(Refused::Unresolved(_))
        ));
        assert!(matches!(
            readable_file(Path::new("/"), Path::new("/dev/zero")),
            Err(Refused::NotAFile("a character device"))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
