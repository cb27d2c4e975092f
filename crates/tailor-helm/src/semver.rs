//! Semantic versions and version constraints as Masterminds/semver v3 reads and checks them
//! (Helm v3.21.4 requires v3.5.0; rules read at Masterminds/semver commit
//! 71f2b39, `version.go` and `constraints.go`). Helm uses them to match a dependency's
//! `version` range to the chart found under `charts/` (`chartutil.IsCompatibleRange`), and
//! sprig's `semver`/`semverCompare` expose them to templates.

use regex::Regex;
use std::cmp::Ordering;
use std::sync::OnceLock;

/// A version as `semver.NewVersion` parses it (coercing: `v1`, `1.2` are `1.0.0`, `1.2.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: String,
    pub metadata: String,
    pub original: String,
}

const LOOSE: &str = r"v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";
/// A version in a constraint: `x`, `X` and `*` wildcards allowed.
const CV: &str = r"v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?";
const OPS: &str = r"=||!=|>|<|>=|=>|<=|=<|~|~>|\^";

fn regex(cell: &'static OnceLock<Regex>, pattern: impl FnOnce() -> String) -> &'static Regex {
    cell.get_or_init(|| Regex::new(&pattern()).expect("semver pattern compiles"))
}

impl Version {
    /// `semver.NewVersion`; the error is the library's.
    pub fn parse(v: &str) -> Result<Version, String> {
        static RE: OnceLock<Regex> = OnceLock::new();
        let re = regex(&RE, || format!("^{LOOSE}$"));
        let m = re.captures(v).ok_or("invalid semantic version")?;
        let part = |i: usize| -> Result<u64, String> {
            match m.get(i) {
                None => Ok(0),
                Some(s) => s
                    .as_str()
                    .trim_start_matches('.')
                    .parse::<u64>()
                    .map_err(|e| format!("error parsing version segment: {e}")),
            }
        };
        let pre = m.get(5).map_or("", |s| s.as_str()).to_string();
        for seg in pre.split('.').filter(|_| !pre.is_empty()) {
            if seg.len() > 1 && seg.starts_with('0') && seg.bytes().all(|b| b.is_ascii_digit()) {
                return Err("version segment starts with 0".into());
            }
        }
        Ok(Version {
            major: part(1)?,
            minor: part(2)?,
            patch: part(3)?,
            pre,
            metadata: m.get(8).map_or("", |s| s.as_str()).to_string(),
            original: v.to_string(),
        })
    }

    /// `Version.String`: the version without the `v` it may have been written with.
    pub fn canonical(&self) -> String {
        let mut text = format!("{}.{}.{}", self.major, self.minor, self.patch);
        if !self.pre.is_empty() {
            text.push_str(&format!("-{}", self.pre));
        }
        if !self.metadata.is_empty() {
            text.push_str(&format!("+{}", self.metadata));
        }
        text
    }

    /// `Version.Compare`: metadata ignored, a prerelease below its release.
    pub fn compare(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => compare_prerelease(&self.pre, &o.pre),
        }
    }
}

fn compare_prerelease(v: &str, o: &str) -> Ordering {
    let (a, b): (Vec<&str>, Vec<&str>) = (v.split('.').collect(), o.split('.').collect());
    for i in 0..a.len().max(b.len()) {
        let (s, o) = (
            a.get(i).copied().unwrap_or(""),
            b.get(i).copied().unwrap_or(""),
        );
        let d = compare_pre_part(s, o);
        if d != Ordering::Equal {
            return d;
        }
    }
    Ordering::Equal
}

fn compare_pre_part(s: &str, o: &str) -> Ordering {
    if s == o {
        return Ordering::Equal;
    }
    if s.is_empty() {
        return Ordering::Less;
    }
    if o.is_empty() {
        return Ordering::Greater;
    }
    match (s.parse::<u64>(), o.parse::<u64>()) {
        (Err(_), Err(_)) => s.cmp(o),
        // A numeric identifier sorts before an alphanumeric one.
        (Err(_), Ok(_)) => Ordering::Greater,
        (Ok(_), Err(_)) => Ordering::Less,
        (Ok(a), Ok(b)) => a.cmp(&b),
    }
}

/// One `OP VERSION` term of a constraint.
#[derive(Debug, Clone)]
struct Term {
    op: String,
    con: Version,
    dirty: bool,
    minor_dirty: bool,
    patch_dirty: bool,
}

/// `semver.Constraints`: terms joined by `,`/spaces (all must hold) and `||` (any group).
#[derive(Debug, Clone)]
pub struct Constraints {
    groups: Vec<(Vec<Term>, bool)>,
}

impl Constraints {
    /// `semver.NewConstraint`.
    pub fn parse(c: &str) -> Result<Constraints, String> {
        static VALID: OnceLock<Regex> = OnceLock::new();
        static FIND: OnceLock<Regex> = OnceLock::new();
        let valid = regex(&VALID, || {
            format!(r"^(\s*({OPS})\s*({CV})\s*)((?:\s+|,\s*)({OPS})\s*({CV})\s*)*$")
        });
        let find = regex(&FIND, || format!(r"({OPS})\s*({CV})"));
        let c = rewrite_range(c);
        let mut groups = Vec::new();
        for or in c.split("||") {
            if !valid.is_match(or) {
                return Err(format!("improper constraint: {or:?}"));
            }
            let mut terms = Vec::new();
            let found: Vec<&str> = find.find_iter(or).map(|m| m.as_str()).collect();
            let found = if found.is_empty() { vec![or] } else { found };
            let mut has_pre = false;
            for s in found {
                let t = parse_term(s)?;
                has_pre |= !t.con.pre.is_empty();
                terms.push(t);
            }
            groups.push((terms, has_pre));
        }
        Ok(Constraints { groups })
    }

    /// `Constraints.Check`.
    pub fn check(&self, v: &Version) -> bool {
        self.groups
            .iter()
            .any(|(terms, pre)| terms.iter().all(|t| t.check(v, *pre)))
    }
}

/// `A - B` ranges rewritten as `>= A, <= B`.
fn rewrite_range(c: &str) -> String {
    static RANGE: OnceLock<Regex> = OnceLock::new();
    let re = regex(&RANGE, || format!(r"\s*({CV})\s+-\s+({CV})\s*"));
    let mut out = c.to_string();
    for m in re.captures_iter(c) {
        let t = format!(">= {}, <= {} ", &m[1], &m[11]);
        out = out.replacen(&m[0], &t, 1);
    }
    out
}

fn is_x(s: &str) -> bool {
    matches!(s, "x" | "X" | "*")
}

fn parse_term(c: &str) -> Result<Term, String> {
    static TERM: OnceLock<Regex> = OnceLock::new();
    let re = regex(&TERM, || format!(r"^\s*({OPS})\s*({CV})\s*$"));
    if c.is_empty() {
        return Ok(Term {
            op: String::new(),
            con: Version::parse("0.0.0")?,
            dirty: true,
            minor_dirty: false,
            patch_dirty: false,
        });
    }
    let m = re
        .captures(c)
        .ok_or_else(|| format!("improper constraint: {c:?}"))?;
    let g = |i: usize| m.get(i).map_or("", |s| s.as_str());
    let (major, minor, patch, pre) = (g(3), g(4).trim_start_matches('.'), g(5), g(6));
    let (mut dirty, mut minor_dirty, mut patch_dirty) = (false, false, false);
    let ver = if is_x(major) || major.is_empty() {
        dirty = true;
        format!("0.0.0{pre}")
    } else if is_x(minor) || minor.is_empty() {
        (dirty, minor_dirty) = (true, true);
        format!("{major}.0.0{pre}")
    } else if is_x(patch.trim_start_matches('.')) || patch.is_empty() {
        (dirty, patch_dirty) = (true, true);
        format!("{major}.{minor}.0{pre}")
    } else {
        g(2).to_string()
    };
    let con = Version::parse(&ver).map_err(|_| "constraint parser error".to_string())?;
    Ok(Term {
        op: g(1).to_string(),
        con,
        dirty,
        minor_dirty,
        patch_dirty,
    })
}

impl Term {
    fn check(&self, v: &Version, include_pre: bool) -> bool {
        if !v.pre.is_empty() && !include_pre {
            return false;
        }
        let c = &self.con;
        let cmp = v.compare(c);
        match self.op.as_str() {
            "" | "=" if self.dirty => self.tilde(v),
            "" | "=" => cmp == Ordering::Equal,
            "!=" => self.not_equal(v),
            ">" => {
                if !self.dirty || (v.major == c.major && !self.minor_dirty && !self.patch_dirty) {
                    return cmp == Ordering::Greater;
                }
                v.major > c.major || (v.major == c.major && self.patch_dirty && v.minor > c.minor)
            }
            "<" => cmp == Ordering::Less,
            ">=" | "=>" => cmp != Ordering::Less,
            "<=" | "=<" if !self.dirty => cmp != Ordering::Greater,
            "<=" | "=<" => {
                !(v.major > c.major
                    || (v.major == c.major && v.minor > c.minor && !self.minor_dirty))
            }
            "~" | "~>" => self.tilde(v),
            _ => self.caret(v),
        }
    }

    fn tilde(&self, v: &Version) -> bool {
        let c = &self.con;
        if v.compare(c) == Ordering::Less {
            return false;
        }
        if c.major == 0 && c.minor == 0 && c.patch == 0 && !self.minor_dirty && !self.patch_dirty {
            return true;
        }
        v.major == c.major && (v.minor == c.minor || self.minor_dirty)
    }

    fn not_equal(&self, v: &Version) -> bool {
        let c = &self.con;
        if self.dirty {
            if c.major != v.major {
                return true;
            }
            if c.minor != v.minor && !self.minor_dirty {
                return true;
            }
            if self.minor_dirty {
                return false;
            }
            if c.patch != v.patch && !self.patch_dirty {
                return true;
            }
            if self.patch_dirty {
                return (!v.pre.is_empty() || !c.pre.is_empty())
                    && compare_prerelease(&v.pre, &c.pre) != Ordering::Equal;
            }
        }
        v.compare(c) != Ordering::Equal
    }

    fn caret(&self, v: &Version) -> bool {
        let c = &self.con;
        if v.compare(c) == Ordering::Less {
            return false;
        }
        if c.major > 0 || self.minor_dirty {
            return v.major == c.major;
        }
        if v.major > 0 {
            return false;
        }
        if c.minor > 0 || self.patch_dirty {
            return v.minor == c.minor;
        }
        if v.minor > 0 {
            return false;
        }
        c.patch == v.patch
    }
}

/// `chartutil.IsCompatibleRange`: false when either side does not parse.
pub fn is_compatible_range(constraint: &str, version: &str) -> bool {
    match (Version::parse(version), Constraints::parse(constraint)) {
        (Ok(v), Ok(c)) => c.check(&v),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_as_masterminds_checks_them() {
        // (constraint, version, holds), as Masterminds/semver (commit 71f2b39) answers them
        // when run in Go.
        let cases = [
            ("0.1.0", "0.1.0", true),
            ("0.1.0", "0.1.1", false),
            ("", "4.3.2", false),
            ("^1.2.3", "1.8.0", true),
            ("^1.2.3", "2.0.0", false),
            ("^0.2.3", "0.2.9", true),
            ("^0.2.3", "0.3.0", false),
            ("^0.0.3", "0.0.4", false),
            ("~1.2.3", "1.2.9", true),
            ("~1.2.3", "1.3.0", false),
            ("~1", "1.9.0", true),
            ("1.x", "1.4.0", true),
            ("1.2.x", "1.3.0", false),
            ("*", "3.0.0", true),
            (">=1.1, <2", "1.5.0", true),
            (">=1.1, <2", "2.0.0", false),
            ("1.1 - 2", "2.0.0", true),
            ("1.1 - 2", "2.1.0", true),
            ("<1.0.0 || >=2.0.0", "2.1.0", true),
            (">1.0", "1.0.1", false),
            (">1.x", "1.5.0", false),
            ("!=4.1", "4.1.5", false),
            ("!=4.1", "4.2.0", true),
            ("^1.0.0", "1.1.0-beta", false),
            ("^1.0.0-0", "1.1.0-beta", true),
            ("<=1.2.x", "1.2.9", true),
            ("<=1.2.x", "1.3.0", false),
            ("not a range", "1.0.0", false),
            (">= 1.2.3", "1.2.3", true),
            ("~0.1.0", "0.1.5", true),
            ("^0.x", "0.5.0", true),
            ("v1.2.3", "1.2.3", true),
            ("1.2.3+meta", "1.2.3", true),
            (">1.2.3-alpha", "1.2.3-beta", true),
        ];
        for (c, v, want) in cases {
            assert_eq!(is_compatible_range(c, v), want, "{c} on {v}");
        }
    }

    #[test]
    fn versions_coerce_and_order() {
        let v = Version::parse("v1.2").unwrap();
        assert_eq!((v.major, v.minor, v.patch), (1, 2, 0));
        assert!(Version::parse("1.2.3-01").is_err());
        assert!(Version::parse("foo").is_err());
        let order = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0",
        ];
        for w in order.windows(2) {
            let (a, b) = (Version::parse(w[0]).unwrap(), Version::parse(w[1]).unwrap());
            assert_eq!(a.compare(&b), Ordering::Less, "{} < {}", w[0], w[1]);
        }
    }
}
