//! `fromToml`'s error text as BurntSushi/toml v1.6.0 words it (`error.go` `ParseError.Error`:
//! `toml: line N: MSG`, or `toml: line N (last key "K"): MSG`), for the mistakes its lexer
//! reports at a key (`lex.go` `lexKeyEnd`, `lexValue`): a key without `=`, and `=` without a
//! value. Other errors keep the `toml` crate's message under BurntSushi's `toml: line N:`
//! prefix.

/// A key line: its dotted bare key parts and what follows them.
struct KeyLine<'s> {
    parts: Vec<&'s str>,
    rest: &'s str,
}

fn is_bare(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `a.b . c` followed by anything; `None` for quoted keys (left to the fallback).
fn key_line(line: &str) -> Option<KeyLine<'_>> {
    let mut parts = Vec::new();
    let mut rest = line.trim_start_matches(is_ws);
    loop {
        let end = rest.find(|c| !is_bare(c)).unwrap_or(rest.len());
        if end == 0 {
            return None;
        }
        parts.push(&rest[..end]);
        rest = rest[end..].trim_start_matches(is_ws);
        match rest.strip_prefix('.') {
            Some(r) => rest = r.trim_start_matches(is_ws),
            None => return Some(KeyLine { parts, rest }),
        }
    }
}

/// A table header's dotted name (`[a.b]`, `[[a.b]]`), when every part is bare.
fn header(t: &str) -> Option<String> {
    let inner = t.trim_start_matches('[');
    let inner = &inner[..inner.find(']')?];
    let parts: Vec<&str> = inner.split('.').map(|p| p.trim_matches(is_ws)).collect();
    parts
        .iter()
        .all(|p| !p.is_empty() && p.chars().all(is_bare))
        .then(|| parts.join("."))
}

/// Go's `%q` of a rune, for the characters this module reports.
fn quote_rune(c: char) -> Option<String> {
    match c {
        '\n' => Some("'\\n'".into()),
        '\'' => Some("'\\''".into()),
        c if c.is_ascii_graphic() || c == ' ' => Some(format!("'{c}'")),
        _ => None,
    }
}

/// BurntSushi's error (line, last key, message) for the first key mistake of `text`.
fn key_mistake(text: &str) -> Option<(usize, String, String)> {
    let mut context = String::new();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let last = i + 1 == lines.len();
        let t = line.trim_start_matches(is_ws);
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.starts_with('[') {
            context = header(t)?;
            continue;
        }
        let key = key_line(t)?;
        let Some(value) = key.rest.strip_prefix('=') else {
            let msg = match key.rest.chars().next() {
                None if last => "unexpected EOF; expected key separator '='".to_string(),
                None => "expected '.' or '=', but got '\\n' instead".to_string(),
                Some(c) => format!("expected '.' or '=', but got {} instead", quote_rune(c)?),
            };
            return Some((i + 1, context, msg));
        };
        if !value.trim_start_matches(is_ws).is_empty() {
            continue;
        }
        let name = key.parts.last().copied().unwrap_or_default();
        let last_key = if context.is_empty() {
            name.to_string()
        } else {
            format!("{context}.{name}")
        };
        return Some(if last {
            (i + 1, last_key, "unexpected EOF; expected value".into())
        } else {
            (
                i + 2,
                last_key,
                "expected value but found '\\n' instead".into(),
            )
        });
    }
    None
}

/// The `Error` text of Helm's `fromToml` for a document the `toml` crate refused.
pub fn message(text: &str, err: &toml::de::Error) -> String {
    let crate_line = err.span().map_or(1, |s| {
        text[..s.start.min(text.len())].matches('\n').count() + 1
    });
    if let Some((line, last_key, msg)) = key_mistake(text) {
        if line.abs_diff(crate_line) <= 1 {
            return if last_key.is_empty() {
                format!("toml: line {line}: {msg}")
            } else {
                format!("toml: line {line} (last key {last_key:?}): {msg}")
            };
        }
    }
    format!("toml: line {crate_line}: {}", err.message())
}

#[cfg(test)]
mod tests {
    fn error(text: &str) -> String {
        let e = text.parse::<toml::Table>().unwrap_err();
        super::message(text, &e)
    }

    /// The wordings BurntSushi/toml v1.6.0's lexer gives (lex.go `lexKeyEnd`, `lexValue`;
    /// line numbers per `errorf` and `errorPrevLine`).
    #[test]
    fn burntsushi_wordings() {
        assert_eq!(
            error("one"),
            "toml: line 1: unexpected EOF; expected key separator '='"
        );
        assert_eq!(
            error("a = 1\nb\n"),
            "toml: line 2: expected '.' or '=', but got '\\n' instead"
        );
        assert_eq!(
            error("[t]\nx = 1\ny z = 2"),
            "toml: line 3 (last key \"t\"): expected '.' or '=', but got 'z' instead"
        );
        assert_eq!(
            error("a =\n"),
            "toml: line 2 (last key \"a\"): expected value but found '\\n' instead"
        );
        assert_eq!(
            error("[t]\na ="),
            "toml: line 2 (last key \"t.a\"): unexpected EOF; expected value"
        );
    }
}
