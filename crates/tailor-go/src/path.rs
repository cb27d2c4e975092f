//! Go's `path.Clean` (and `filepath.Clean` on slash paths), which Fleet applies to bundle file
//! paths and Kratix to scheduling directories.

/// Collapses `//`, drops `.`, resolves `..` (kept at the start of a relative path, dropped at
/// the root); `""` is `"."`.
pub fn clean(p: &str) -> String {
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_like_go() {
        for (i, want) in [
            ("", "."),
            (".", "."),
            ("./", "."),
            ("a//b", "a/b"),
            ("./a//b", "a/b"),
            ("a/./b/", "a/b"),
            ("a/../..", ".."),
            ("../a", "../a"),
            ("/../a", "/a"),
            ("/", "/"),
        ] {
            assert_eq!(clean(i), want, "{i}");
        }
    }
}
