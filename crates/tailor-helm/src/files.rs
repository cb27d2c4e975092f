//! `.Files` as Helm's `pkg/engine/files.go` serves a chart's non-template files.

use crate::funcs::to_yaml;
use std::collections::BTreeMap;
use tailor_go::{Dict, Value};

/// What a chart's `.Files` serves: every file outside `templates/`, `charts/` and the
/// chart's own metadata, by path.
pub fn served(files: &[(String, Vec<u8>)]) -> BTreeMap<String, Value> {
    files
        .iter()
        .filter(|(p, _)| {
            !matches!(
                p.as_str(),
                "Chart.yaml" | "values.yaml" | "values.schema.json" | "Chart.lock"
            )
        })
        .map(|(p, d)| {
            (
                p.clone(),
                Value::String(String::from_utf8_lossy(d).into_owned()),
            )
        })
        .collect()
}

fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Calls method `name` of a `files` map with its one string argument (if any). `Get` and
/// `Lines` read one entry; the others read them all.
pub fn call(files: &Dict, name: &str, arg: &str) -> Value {
    let text = |p: &str| match files.get(p) {
        Some(Value::String(s)) => s,
        _ => String::new(),
    };
    match name {
        "Get" | "GetBytes" => Value::String(text(arg)),
        "Glob" => {
            let kept = files
                .snapshot()
                .into_iter()
                .filter(|(p, _)| glob_match(arg, p))
                .collect();
            crate::builtins::files_object(kept)
        }
        "Lines" => {
            let s = text(arg);
            if s.is_empty() {
                return Value::List(Vec::new());
            }
            let s = s.strip_suffix('\n').unwrap_or(&s);
            Value::List(s.split('\n').map(|l| Value::String(l.into())).collect())
        }
        "AsConfig" | "AsSecrets" => {
            let files = files.snapshot();
            if files.is_empty() {
                return Value::String(String::new());
            }
            let m = files
                .iter()
                .map(|(p, v)| {
                    let s = match v {
                        Value::String(s) => s.clone(),
                        _ => String::new(),
                    };
                    let s = if name == "AsSecrets" {
                        base64(s.as_bytes())
                    } else {
                        s
                    };
                    (base(p).to_string(), Value::String(s))
                })
                .collect();
            Value::String(to_yaml(&Value::Map(m)))
        }
        _ => Value::Nil,
    }
}

/// gobwas/glob with `/` as separator: `*` and `?` stay within a path segment, `**`
/// crosses segments; other syntax (`[...]`, `{a,b}`) goes through Go's `path.Match`.
fn glob_match(pattern: &str, name: &str) -> bool {
    if pattern.contains("**") {
        let re = regex_for(pattern);
        return regex::Regex::new(&re).is_ok_and(|r| r.is_match(name));
    }
    tailor_go::path::matches(pattern, name).unwrap_or(false)
}

fn regex_for(pattern: &str) -> String {
    let mut out = String::from("^");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str(".*");
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            c => out.push_str(&regex::escape(&c.to_string())),
        }
    }
    out.push('$');
    out
}

fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_pads_as_std_encoding() {
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
    }

    #[test]
    fn double_star_crosses_directories_single_does_not() {
        assert!(glob_match("config/**", "config/a/b.txt"));
        assert!(glob_match("config/*", "config/b.txt"));
        assert!(!glob_match("config/*", "config/a/b.txt"));
    }
}
