//! Paths checked before anything is written: where a path really leads (symlinks resolved),
//! whether one lies inside another, and whether a name from the input (a cluster's) is one
//! directory name. A check on the text of a path is fooled by a symlink (`out -> pkg/out`) or
//! by `..`; these resolve what exists first.

use std::path::{Component, Path, PathBuf};

/// Where `path` leads: absolute, the longest prefix that exists resolved by the file system
/// (symlinks followed, as the kernel follows them when writing), the rest of it (which does
/// not exist yet, so holds no symlink) cleaned of `.` and `..` lexically.
pub fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    let base = loop {
        if let Ok(real) = existing.canonicalize() {
            break real;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            // Nothing exists, not even the root: keep the path as given.
            _ => break PathBuf::from("/"),
        }
    };
    let mut resolved = base;
    for component in rest.into_iter().rev() {
        match component {
            Component::ParentDir => {
                resolved.pop();
            }
            Component::Normal(name) => resolved.push(name),
            _ => {}
        }
    }
    Ok(resolved)
}

/// Whether resolved path `inner` is `outer` or lies below it (whole components: `pkg-out`
/// is not inside `pkg`).
pub fn within(inner: &Path, outer: &Path) -> bool {
    inner.starts_with(outer)
}

/// Why `name` cannot be one directory under an output directory, if it cannot: it must be a
/// single normal path component (`ok`, not `./ok`, `ok/`, `.`, `..`, `a/b` or empty), or two
/// names could lead to one directory and one destination's files overwrite another's.
pub fn single_component_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("an empty name is no directory");
    }
    if name.contains('/') || name.contains('\\') {
        return Some("a name with a slash is a path, not one directory");
    }
    if name == "." || name == ".." {
        return Some("names the output directory or its parent, not a directory of its own");
    }
    if name.contains('\0') {
        return Some("a NUL byte cannot be in a file name");
    }
    None
}

/// Checks that each of `names` (the destinations of a fan-out, each written under a directory
/// of its name) is one directory of its own: a single normal path component, and no two
/// leading to one directory. The error names the destination, or both.
pub fn check_directory_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if let Some(why) = single_component_problem(name) {
            return Err(format!(
                "cluster {name:?} cannot name its output directory ({why}): each destination's files go under a directory of its name; give it a plain name like \"prod-eu\""
            ));
        }
        if !seen.insert(name) {
            return Err(format!(
                "clusters {name:?} and {name:?} would both write to the directory {name}/; give each destination its own name"
            ));
        }
    }
    Ok(())
}

/// Refuses two destination names that differ only in case: `Dev/` and `dev/` are one
/// directory on a case-insensitive file system (macOS and Windows by default), where one
/// destination's files would overwrite the other's. Refused on every OS, so an output written
/// on Linux can be checked out anywhere.
pub fn check_case_distinct<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
    let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for name in names {
        if let Some(first) = seen.insert(name.to_lowercase(), name) {
            if first != name {
                return Err(format!(
                    "clusters {first:?} and {name:?} differ only in case: their directories {first}/ and {name}/ are one on a case-insensitive file system (macOS, Windows), where one would overwrite the other; give them names that differ otherwise"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_differ_only_in_case_are_refused() {
        assert!(check_case_distinct(["dev", "prod", "dev"]).is_ok());
        let err = check_case_distinct(["Dev", "prod", "dEV"]).unwrap_err();
        assert!(
            err.starts_with("clusters \"Dev\" and \"dEV\" differ only in case"),
            "{err}"
        );
        assert!(check_case_distinct(["Ä", "ä"]).is_err());
    }

    #[test]
    fn resolves_what_exists_and_cleans_the_rest() {
        let dir = std::env::temp_dir().join(format!("tailor-resolve-{}", std::process::id()));
        let real = dir.join("real");
        std::fs::create_dir_all(&real).unwrap();
        let link = dir.join("link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let real = real.canonicalize().unwrap();
        assert_eq!(resolve(&link.join("new/../out")).unwrap(), real.join("out"));
        assert_eq!(resolve(&link).unwrap(), real);
        assert!(within(&resolve(&link.join("x")).unwrap(), &real));
        assert!(!within(Path::new("/a/pkg-out"), Path::new("/a/pkg")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_cluster_directory_is_one_normal_component() {
        assert_eq!(single_component_problem("ok"), None);
        assert_eq!(single_component_problem("prod.eu-1"), None);
        for bad in ["./ok", "ok/", ".", "..", "", "a/b", "a\\b", "/abs"] {
            assert!(single_component_problem(bad).is_some(), "{bad:?}");
        }
        assert!(check_directory_names(["ok", "prod"]).is_ok());
        assert!(check_directory_names(["ok", "./ok"])
            .unwrap_err()
            .starts_with("cluster \"./ok\" cannot name"));
        assert!(check_directory_names(["ok", "ok"])
            .unwrap_err()
            .starts_with("clusters \"ok\" and \"ok\" would both"));
    }
}
