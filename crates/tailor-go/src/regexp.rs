//! Go's `regexp` on the `regex` crate: RE2 syntax, ASCII Perl classes (`\d`, `\w`, `\s`,
//! `\b`), a `{` that does not start a repeat is a literal, and Go's error texts
//! (`error parsing regexp: missing closing ): `(``). kustomize's selectors anchor their
//! patterns ([`compile_anchored`]); its field-path matchers search ([`compile`]).

use regex::Regex;

/// Compiles `pat` as Go's `regexp.Compile` would; the error is Go's message.
pub fn compile(pat: &str) -> Result<Regex, String> {
    let translated = translate(pat);
    match Regex::new(&translated) {
        Ok(r) => Ok(r),
        Err(_) => Err(format!("error parsing regexp: {}", go_error(pat))),
    }
}

/// kustomize's `anchorRegex`: `^(?:pat)$` compiled as Go would, so a pattern must match the
/// whole text; Go's message quotes the anchored expression.
pub fn compile_anchored(pat: &str) -> Result<Regex, String> {
    compile(&format!("^(?:{pat})$"))
}

/// Rewrites Go-only spellings into the `regex` crate's.
fn translate(pat: &str) -> String {
    let chars: Vec<char> = pat.chars().collect();
    let mut out = String::with_capacity(pat.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    let mut class_start = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            let n = chars[i + 1];
            if in_class {
                match n {
                    'd' => out.push_str("0-9"),
                    'w' => out.push_str("0-9A-Za-z_"),
                    's' => out.push_str("\\t\\n\\x0C\\r "),
                    _ => {
                        out.push(c);
                        out.push(n);
                    }
                }
            } else {
                match n {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' => {
                        out.push_str("(?-u:\\");
                        out.push(n);
                        out.push(')');
                    }
                    _ => {
                        out.push(c);
                        out.push(n);
                    }
                }
            }
            i += 2;
            continue;
        }
        if in_class {
            // `]` right after `[` or `[^` is a literal.
            if c == ']' && i > class_start {
                in_class = false;
            }
            if c == '[' && chars.get(i + 1) == Some(&':') {
                // POSIX class: copy through to its closing `:]`.
                if let Some(end) = find_posix_end(&chars, i + 2) {
                    for ch in &chars[i..=end] {
                        out.push(*ch);
                    }
                    i = end + 1;
                    continue;
                }
            }
            if c == '[' || c == '&' || c == '~' || c == '-' && chars.get(i + 1) == Some(&'-') {
                // characters the regex crate treats as class syntax
                out.push('\\');
            }
            out.push(c);
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push(c);
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                class_start = i + 1;
                if chars.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                continue;
            }
            '{' => {
                if is_repeat(&chars, i) {
                    out.push(c);
                } else {
                    out.push_str("\\{");
                }
            }
            '}' => {
                // literal unless it closes a repeat we copied through
                if closes_repeat(&out) {
                    out.push('}');
                } else {
                    out.push_str("\\}");
                }
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

fn find_posix_end(chars: &[char], from: usize) -> Option<usize> {
    let mut j = from;
    while j + 1 < chars.len() {
        if chars[j] == ':' && chars[j + 1] == ']' {
            return Some(j + 1);
        }
        if !chars[j].is_ascii_alphabetic() && chars[j] != '^' {
            return None;
        }
        j += 1;
    }
    None
}

/// `{n}`, `{n,}`, `{n,m}` at `i`.
fn is_repeat(chars: &[char], i: usize) -> bool {
    let mut j = i + 1;
    let start = j;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    if j == start {
        return false;
    }
    if chars.get(j) == Some(&'}') {
        return true;
    }
    if chars.get(j) != Some(&',') {
        return false;
    }
    j += 1;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    chars.get(j) == Some(&'}')
}

fn closes_repeat(out: &str) -> bool {
    let Some(open) = out.rfind('{') else {
        return false;
    };
    if out[..open].ends_with('\\') {
        return false;
    }
    out[open + 1..]
        .chars()
        .all(|c| c.is_ascii_digit() || c == ',')
}

/// Go's `syntax.Error` text for the usual mistakes: `<code>: `<expr>``.
fn go_error(pat: &str) -> String {
    let chars: Vec<char> = pat.chars().collect();
    let mut depth = 0i32;
    let mut i = 0;
    let mut prev_repeat = false;
    let mut prev_atom = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&n) = chars.get(i + 1) else {
                    return "trailing backslash at end of expression: ``".into();
                };
                if n.is_ascii_alphanumeric() && !"abfnrtvdDwWsSbBAzpPxQEC0123456789".contains(n) {
                    return format!("invalid escape sequence: `\\{n}`");
                }
                if n.is_ascii_digit() && n != '0' {
                    return format!("invalid escape sequence: `\\{n}`");
                }
                i += 2;
                prev_atom = true;
                prev_repeat = false;
                continue;
            }
            '(' => {
                depth += 1;
                prev_atom = false;
                prev_repeat = false;
                if chars.get(i + 1) == Some(&'?') {
                    // flags or named group; let the generic message handle oddities
                    i += 2;
                    continue;
                }
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return format!("unexpected ): `{pat}`");
                }
                prev_atom = true;
                prev_repeat = false;
            }
            '[' => {
                let start = i;
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                let mut closed = false;
                let mut last: Option<char> = None;
                while j < chars.len() {
                    if chars[j] == '\\' {
                        j += 2;
                        last = None;
                        continue;
                    }
                    if chars[j] == ']' {
                        closed = true;
                        break;
                    }
                    if chars[j] == '-' {
                        if let (Some(lo), Some(&hi)) = (last, chars.get(j + 1)) {
                            if hi != ']' && hi < lo {
                                return format!("invalid character class range: `{lo}-{hi}`");
                            }
                        }
                    }
                    last = Some(chars[j]);
                    j += 1;
                }
                if !closed {
                    let rest: String = chars[start..].iter().collect();
                    return format!("missing closing ]: `{rest}`");
                }
                i = j + 1;
                prev_atom = true;
                prev_repeat = false;
                continue;
            }
            '*' | '+' | '?' => {
                if prev_repeat && c != '?' {
                    let p = chars[i - 1];
                    return format!("invalid nested repetition operator: `{p}{c}`");
                }
                if !prev_atom && !prev_repeat {
                    return format!("missing argument to repetition operator: `{c}`");
                }
                prev_repeat = !prev_repeat || c != '?';
                prev_atom = false;
            }
            '|' => {
                prev_atom = false;
                prev_repeat = false;
            }
            _ => {
                prev_atom = true;
                prev_repeat = false;
            }
        }
        i += 1;
    }
    if depth > 0 {
        return format!("missing closing ): `{pat}`");
    }
    format!("invalid or unsupported Perl syntax: `{pat}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_messages() {
        assert_eq!(
            compile("(").unwrap_err(),
            "error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            compile("a)").unwrap_err(),
            "error parsing regexp: unexpected ): `a)`"
        );
        assert_eq!(
            compile("[a").unwrap_err(),
            "error parsing regexp: missing closing ]: `[a`"
        );
        assert_eq!(
            compile("*a").unwrap_err(),
            "error parsing regexp: missing argument to repetition operator: `*`"
        );
    }

    #[test]
    fn anchored_as_kustomize() {
        assert!(compile_anchored("Deploy.*").unwrap().is_match("Deployment"));
        assert!(!compile_anchored("Deploy").unwrap().is_match("Deployment"));
        assert!(!compile_anchored(r"web-\d").unwrap().is_match("web-٣"));
        assert_eq!(
            compile_anchored("(").unwrap_err(),
            "error parsing regexp: missing closing ): `^(?:()$`"
        );
    }

    #[test]
    fn go_semantics() {
        assert!(compile("a{").unwrap().is_match("xa{"));
        assert!(compile("^a.p$").unwrap().is_match("aXp"));
        assert!(!compile(r"^\d$").unwrap().is_match("٣"));
        assert!(compile(r"[\d]").unwrap().is_match("5"));
        assert!(compile("app").unwrap().is_match("my-app-sidecar"));
    }
}
