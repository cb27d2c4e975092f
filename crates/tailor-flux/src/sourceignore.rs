//! Which files of a source Flux leaves out: source-controller drops them from the artifact
//! it serves (the default exclusions, then every `.sourceignore` in the tree), and
//! kustomize-controller's generated kustomization lists only `.yaml` and `.yml` files. The
//! patterns are go-git's gitignore dialect as fluxcd/pkg `sourceignore` keeps it (commit
//! f78daaa7, `sourceignore/gitignore/pattern.go`, `matcher.go`; the defaults in
//! `sourceignore/sourceignore.go` at 23cf50f6), which differs from git's own in places: a
//! pattern without `/` matches any component of the path, and a later `!` may re-include a
//! file under an excluded directory.

use tailor_go::path::matches;

/// The file every directory of a source may hold.
pub const IGNORE_FILE: &str = ".sourceignore";

/// source-controller's default exclusions, lowest priority first: VCS files, then binary
/// extensions, CI configuration and tool files.
const DEFAULTS: &[&str] = &[
    ".git/",
    ".gitignore",
    ".gitmodules",
    ".gitattributes",
    "*.jpg",
    "*.jpeg",
    "*.gif",
    "*.png",
    "*.wmv",
    "*.flv",
    "*.tar.gz",
    "*.zip",
    ".github/",
    ".circleci/",
    ".travis.yml",
    ".gitlab-ci.yml",
    "appveyor.yml",
    ".drone.yml",
    "cloudbuild.yaml",
    "codeship-services.yml",
    "codeship-steps.yml",
    "**/.goreleaser.yml",
    "**/.sops.yaml",
    "**/.flux.yaml",
];

/// What one pattern says of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    NoMatch,
    Exclude,
    Include,
}

/// One pattern, scoped to the directory (`domain`) whose `.sourceignore` holds it.
#[derive(Clone, Debug)]
pub struct Pattern {
    domain: Vec<String>,
    parts: Vec<String>,
    inclusion: bool,
    dir_only: bool,
    glob: bool,
}

impl Pattern {
    /// Parses one line as go-git does: `!` includes, a trailing `/` matches directories only,
    /// a `/` elsewhere anchors the pattern to its domain.
    pub fn parse(line: &str, domain: &[String]) -> Pattern {
        let mut p = line;
        let inclusion = p.starts_with('!');
        if inclusion {
            p = &p[1..];
        }
        if !p.ends_with("\\ ") {
            p = p.trim_end_matches(' ');
        }
        let dir_only = p.ends_with('/');
        if dir_only {
            p = &p[..p.len() - 1];
        }
        Pattern {
            domain: domain.to_vec(),
            parts: p.split('/').map(str::to_string).collect(),
            inclusion,
            dir_only,
            glob: p.contains('/'),
        }
    }

    /// What the pattern says of `path` (its components from the source's root).
    pub fn verdict(&self, path: &[&str], is_dir: bool) -> Verdict {
        if path.len() <= self.domain.len() || self.domain.iter().zip(path).any(|(d, p)| d != p) {
            return Verdict::NoMatch;
        }
        let path = &path[self.domain.len()..];
        let matched = if self.glob {
            self.glob_match(path, is_dir)
        } else {
            self.simple_match(path, is_dir)
        };
        match (matched, self.inclusion) {
            (false, _) => Verdict::NoMatch,
            (true, true) => Verdict::Include,
            (true, false) => Verdict::Exclude,
        }
    }

    /// A pattern without `/`: any component of the path.
    fn simple_match(&self, path: &[&str], is_dir: bool) -> bool {
        for (i, name) in path.iter().enumerate() {
            match matches(&self.parts[0], name) {
                Err(_) => return false,
                Ok(false) => continue,
                Ok(true) => return !(self.dir_only && !is_dir && i == path.len() - 1),
            }
        }
        false
    }

    /// A pattern with `/`: its components in order from the domain, `**` for any number.
    fn glob_match(&self, mut path: &[&str], is_dir: bool) -> bool {
        let mut matched = false;
        let mut traverse = false;
        for (i, part) in self.parts.iter().enumerate() {
            if part.is_empty() {
                traverse = false;
                continue;
            }
            if part == "**" {
                if i == self.parts.len() - 1 {
                    break;
                }
                traverse = true;
                continue;
            }
            if part.contains("**") || path.is_empty() {
                return false;
            }
            if traverse {
                traverse = false;
                while let Some((first, rest)) = path.split_first() {
                    path = rest;
                    match matches(part, first) {
                        Err(_) => return false,
                        Ok(true) => {
                            matched = true;
                            break;
                        }
                        Ok(false) if path.is_empty() => matched = false,
                        Ok(false) => {}
                    }
                }
            } else {
                if !matches(part, path[0]).unwrap_or(false) {
                    return false;
                }
                matched = true;
                path = &path[1..];
            }
        }
        // A directory-only pattern that ends on the path's last component needs a directory.
        matched && !(self.dir_only && !is_dir && path.is_empty())
    }
}

/// The patterns of a source, lowest priority first: the defaults, then each `.sourceignore`
/// as it is found walking the tree.
#[derive(Clone, Debug)]
pub struct Ignore {
    patterns: Vec<Pattern>,
}

impl Default for Ignore {
    fn default() -> Ignore {
        Ignore {
            patterns: DEFAULTS.iter().map(|p| Pattern::parse(p, &[])).collect(),
        }
    }
}

impl Ignore {
    /// Adds the lines of a `.sourceignore` found in the directory `domain` (comments and
    /// blank lines skipped).
    pub fn add_file(&mut self, text: &str, domain: &[String]) {
        for line in text.lines() {
            if !line.starts_with('#') && !line.trim().is_empty() {
                self.patterns.push(Pattern::parse(line, domain));
            }
        }
    }

    /// Whether the source leaves `path` out: the last pattern that says something wins.
    pub fn excludes(&self, path: &[&str], is_dir: bool) -> bool {
        self.patterns
            .iter()
            .rev()
            .map(|p| p.verdict(path, is_dir))
            .find(|v| *v != Verdict::NoMatch)
            == Some(Verdict::Exclude)
    }
}

/// Whether kustomize-controller's generated kustomization lists a file of this name: its
/// extension is exactly `.yaml` or `.yml`.
pub fn is_manifest_name(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// fluxcd/pkg `sourceignore/gitignore/pattern_test.go` at f78daaa7, one row per test:
    /// pattern, domain, path, is_dir, verdict (tests/data/sourceignore-patterns.tsv).
    #[test]
    fn flux_pattern_tests() {
        let table = include_str!("../tests/data/sourceignore-patterns.tsv");
        let mut rows = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 6, "{line}");
            let split = |s: &str| -> Vec<String> {
                if s.is_empty() {
                    Vec::new()
                } else {
                    s.split(',').map(str::to_string).collect()
                }
            };
            let domain = split(f[2]);
            let path = split(f[3]);
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let want = match f[5] {
                "Exclude" => Verdict::Exclude,
                "Include" => Verdict::Include,
                _ => Verdict::NoMatch,
            };
            let got = Pattern::parse(f[1], &domain).verdict(&path, f[4] == "true");
            assert_eq!(got, want, "{}", f[0]);
            rows += 1;
        }
        assert_eq!(rows, 46);
    }

    #[test]
    fn defaults_and_files_decide_with_the_last_word() {
        let mut ignore = Ignore::default();
        assert!(ignore.excludes(&[".github", "workflows", "ci.yaml"], false));
        assert!(ignore.excludes(&["apps", ".sops.yaml"], false));
        assert!(!ignore.excludes(&["apps", "deploy.yaml"], false));
        ignore.add_file("# drafts\n\ndrafts/\n*.secret.yaml\n", &[]);
        ignore.add_file("!keep.secret.yaml\n", &["apps".into()]);
        assert!(ignore.excludes(&["drafts", "a.yaml"], false));
        assert!(ignore.excludes(&["b.secret.yaml"], false));
        assert!(!ignore.excludes(&["apps", "keep.secret.yaml"], false));
        assert!(ignore.excludes(&["other", "keep.secret.yaml"], false));
        assert!(is_manifest_name("a.yml") && !is_manifest_name("a.json"));
    }
}
