//! `.helmignore` rules as Helm's `pkg/ignore/rules.go` applies them while loading a chart
//! directory: one pattern a line, `#` comments, `!` negation, a trailing `/` for
//! directories only, a leading `/` or an inner `/` matched against the whole relative path,
//! otherwise against the base name; `**` is refused as Helm refuses it.

use tailor_go::path::matches;

struct Rule {
    pattern: String,
    negate: bool,
    must_dir: bool,
    /// Matched against the whole path, not the base name.
    whole: bool,
}

/// The rules of a `.helmignore` file, plus Helm's default `templates/.?*`.
pub struct Rules(Vec<Rule>);

impl Rules {
    pub fn parse(text: &str) -> Result<Rules, String> {
        let mut rules = vec![Rule {
            pattern: "templates/.?*".into(),
            negate: false,
            must_dir: false,
            whole: true,
        }];
        for line in text.lines() {
            let mut p = line.trim();
            if p.is_empty() || p.starts_with('#') {
                continue;
            }
            if p.contains("**") {
                return Err(format!("double-star (**) syntax is not supported: {p:?}"));
            }
            let negate = p.starts_with('!');
            if negate {
                p = &p[1..];
            }
            let must_dir = p.ends_with('/');
            let p = p.trim_end_matches('/');
            let whole = p.contains('/');
            let pattern = p.trim_start_matches('/').to_string();
            if matches(&pattern, "").is_err() {
                return Err(format!("{pattern:?}: syntax error in pattern"));
            }
            rules.push(Rule {
                pattern,
                negate,
                must_dir,
                whole,
            });
        }
        Ok(Rules(rules))
    }

    /// Helm's `Ignore`: the first matching rule decides; a negation keeps the file.
    pub fn ignore(&self, path: &str, is_dir: bool) -> bool {
        if path.is_empty() || path == "." {
            return false;
        }
        for r in &self.0 {
            if r.must_dir && !is_dir {
                continue;
            }
            let subject = if r.whole {
                path
            } else {
                path.rsplit('/').next().unwrap_or(path)
            };
            if matches(&r.pattern, subject).unwrap_or(false) {
                return !r.negate;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_name_dir_and_negation_rules() {
        let r = Rules::parse("# c\n*.bak\n.git/\n!keep.bak\n/top.txt\n").unwrap();
        assert!(r.ignore("a/b/x.bak", false));
        assert!(r.ignore(".git", true));
        assert!(!r.ignore(".git", false));
        assert!(r.ignore("top.txt", false));
        assert!(!r.ignore("sub/top.txt", false));
        assert!(r.ignore("templates/.hidden", false));
        assert!(!r.ignore("templates/x.yaml", false));
    }

    #[test]
    fn double_star_is_refused() {
        assert!(Rules::parse("a/**/b\n").is_err());
    }
}
