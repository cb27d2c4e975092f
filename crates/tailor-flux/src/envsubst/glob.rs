//! The glob matcher behind `#`, `##`, `%` and `%%` (envsubst/path/match.go).
//!
//! It is Go's old `path.Match` with the `/` special cases removed: `*` and `?` cross `/`, and a
//! trailing `*` matches everything. `[^...]` negates, `[!...]` does not. Errors surface only when
//! the matcher reaches the malformed part, which the trim functions turn into "unchanged".

use tailor_go::utf8::decode_char as decode_rune;

/// `utf8.RuneError`.
const RUNE_ERROR: char = '\u{FFFD}';

/// `path.ErrBadPattern`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BadPattern;

/// Reports whether the whole of `name` matches `pattern`.
pub(crate) fn matches(pattern: &[u8], name: &[u8]) -> Result<bool, BadPattern> {
    let mut pattern = pattern;
    let mut name = name;
    'pattern: while !pattern.is_empty() {
        let (star, chunk, rest) = scan_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            return Ok(true);
        }
        // The last chunk has to consume the rest of the name; otherwise a star may still match.
        let here = match_chunk(chunk, name);
        if let Ok(Some(t)) = here {
            if t.is_empty() || !pattern.is_empty() {
                name = t;
                continue;
            }
        }
        here?;
        if star {
            for i in 0..name.len() {
                let skipped = name.get(i + 1..).unwrap_or(&[]);
                match match_chunk(chunk, skipped)? {
                    Some(t) if pattern.is_empty() && !t.is_empty() => continue,
                    Some(t) => {
                        name = t;
                        continue 'pattern;
                    }
                    None => {}
                }
            }
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

/// Splits off the next run of stars and the star-free chunk after it.
fn scan_chunk(pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut star = false;
    let mut p = pattern;
    while let Some((b'*', rest)) = p.split_first() {
        p = rest;
        star = true;
    }
    let mut in_range = false;
    let mut i = 0;
    while i < p.len() {
        match p.get(i) {
            Some(b'\\') if i + 1 < p.len() => i += 1,
            Some(b'[') => in_range = true,
            Some(b']') => in_range = false,
            Some(b'*') if !in_range => break,
            _ => {}
        }
        i += 1;
    }
    let (chunk, rest) = p.split_at(i.min(p.len()));
    (star, chunk, rest)
}

/// Matches a star-free chunk against the start of `s`, returning what is left of `s`.
fn match_chunk<'a>(chunk: &[u8], s: &'a [u8]) -> Result<Option<&'a [u8]>, BadPattern> {
    let mut chunk = chunk;
    let mut s = s;
    while let Some(&c) = chunk.first() {
        let Some(&first) = s.first() else {
            return Ok(None);
        };
        match c {
            b'[' => {
                let (r, n) = decode_rune(s);
                s = s.get(n..).unwrap_or(&[]);
                chunk = chunk.get(1..).unwrap_or(&[]);
                if chunk.is_empty() {
                    return Err(BadPattern);
                }
                let negated = chunk.first() == Some(&b'^');
                if negated {
                    chunk = chunk.get(1..).unwrap_or(&[]);
                }
                let mut matched = false;
                let mut nrange = 0;
                loop {
                    if chunk.first() == Some(&b']') && nrange > 0 {
                        chunk = chunk.get(1..).unwrap_or(&[]);
                        break;
                    }
                    let (lo, rest) = get_esc(chunk)?;
                    chunk = rest;
                    let mut hi = lo;
                    if chunk.first() == Some(&b'-') {
                        let (h, rest) = get_esc(chunk.get(1..).unwrap_or(&[]))?;
                        hi = h;
                        chunk = rest;
                    }
                    if lo <= r && r <= hi {
                        matched = true;
                    }
                    nrange += 1;
                }
                if matched == negated {
                    return Ok(None);
                }
            }
            b'?' => {
                let (_, n) = decode_rune(s);
                s = s.get(n..).unwrap_or(&[]);
                chunk = chunk.get(1..).unwrap_or(&[]);
            }
            _ => {
                let literal = if c == b'\\' {
                    chunk = chunk.get(1..).unwrap_or(&[]);
                    *chunk.first().ok_or(BadPattern)?
                } else {
                    c
                };
                if literal != first {
                    return Ok(None);
                }
                s = s.get(1..).unwrap_or(&[]);
                chunk = chunk.get(1..).unwrap_or(&[]);
            }
        }
    }
    Ok(Some(s))
}

/// Reads one possibly escaped rune of a character class.
fn get_esc(chunk: &[u8]) -> Result<(char, &[u8]), BadPattern> {
    let mut chunk = chunk;
    match chunk.first() {
        None | Some(b'-') | Some(b']') => return Err(BadPattern),
        Some(b'\\') => {
            chunk = chunk.get(1..).unwrap_or(&[]);
            if chunk.is_empty() {
                return Err(BadPattern);
            }
        }
        Some(_) => {}
    }
    let (r, n) = decode_rune(chunk);
    if r == RUNE_ERROR && n == 1 {
        return Err(BadPattern);
    }
    let rest = chunk.get(n..).unwrap_or(&[]);
    if rest.is_empty() {
        return Err(BadPattern);
    }
    Ok((r, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, n: &str) -> Result<bool, BadPattern> {
        matches(p.as_bytes(), n.as_bytes())
    }

    #[test]
    fn stars_and_questions_cross_slashes() {
        assert_eq!(m("*/", "path/"), Ok(true));
        assert_eq!(m("*", "a/b"), Ok(true));
        assert_eq!(m("a?c", "a/c"), Ok(true));
        assert_eq!(m("*.", "bash."), Ok(true));
        assert_eq!(m("*.", "bash.string."), Ok(true));
        assert_eq!(m("a*c", "abcd"), Ok(false));
    }

    #[test]
    fn classes() {
        assert_eq!(m("[a-c]", "b"), Ok(true));
        assert_eq!(m("[^0-9]", "1"), Ok(false));
        assert_eq!(m("[!0-9]", "!"), Ok(true));
        assert_eq!(m("[!0-9]", "a"), Ok(false));
        assert_eq!(m("[]", "a"), Err(BadPattern));
        assert_eq!(m("[a", "a"), Err(BadPattern));
        assert_eq!(m("[", ""), Ok(false));
    }

    #[test]
    fn escapes() {
        assert_eq!(m("\\*", "*"), Ok(true));
        assert_eq!(m("a\\", "ab"), Err(BadPattern));
        assert_eq!(m("c\\", "x"), Ok(false));
    }
}
