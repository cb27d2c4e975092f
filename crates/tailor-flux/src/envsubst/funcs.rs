//! The operators of envsubst/funcs.go, on byte strings.
//!
//! Offsets and lengths count bytes and results may cut a UTF-8 sequence, exactly as in Go.
//! The only divergence is forced: where Go panics (a substring with a negative length) this
//! returns [`Error::SliceOutOfRange`].

use crate::envsubst::error::Error;
use crate::envsubst::glob;
use tailor_go::strconv::atoi;
use tailor_go::strings::{map_runes, replace, replace_len, reverse_runes};
use tailor_go::unicode::{to_lower, to_upper};
use tailor_go::utf8::{decode_char as decode_rune, push_rune};

/// Applies operator `op` to the value `s` with evaluated `args` (envsubst's `lookupFunc`).
/// `limit` caps the one operator whose output can outgrow its inputs (replace).
pub(crate) fn apply(
    op: &str,
    s: Vec<u8>,
    args: &[Vec<u8>],
    limit: usize,
) -> Result<Vec<u8>, Error> {
    let arg = |i: usize| args.get(i).map(Vec::as_slice);
    Ok(match op {
        "," => first_rune(&s, to_lower),
        ",," => map_runes(&s, to_lower),
        "^" => first_rune(&s, to_upper),
        "^^" => map_runes(&s, to_upper),
        "#" if args.is_empty() => s.len().to_string().into_bytes(),
        "#" => trim_prefix(s, arg(0), trim_shortest),
        "##" => trim_prefix(s, arg(0), trim_longest),
        "%" => trim_suffix(s, arg(0), trim_shortest),
        "%%" => trim_suffix(s, arg(0), trim_longest),
        ":" => substr(s, args)?,
        "/#" => match (arg(0), arg(1), args.len()) {
            (Some(p), Some(r), 2) if s.starts_with(p) => bounded_replace(&s, p, r, 1, limit)?,
            _ => s,
        },
        "/%" => match (arg(0), arg(1), args.len()) {
            (Some(p), Some(r), 2) if s.ends_with(p) => {
                let mut out = s.get(..s.len() - p.len()).unwrap_or(&[]).to_vec();
                out.extend_from_slice(r);
                out
            }
            _ => s,
        },
        "/" => match arg(0) {
            Some(p) => bounded_replace(&s, p, arg(1).unwrap_or(&[]), 1, limit)?,
            None => s,
        },
        "//" => match arg(0) {
            Some(p) => bounded_replace(&s, p, arg(1).unwrap_or(&[]), -1, limit)?,
            None => s,
        },
        // `=`, `:=`, `:-`, `:?`, `:+`, and unknown names such as `,^` all fall back to this.
        _ => to_default(s, args, limit)?,
    })
}

/// Value if non-empty, else the arguments concatenated: no distinction between unset and empty.
fn to_default(s: Vec<u8>, args: &[Vec<u8>], limit: usize) -> Result<Vec<u8>, Error> {
    if !s.is_empty() || args.is_empty() {
        return Ok(s);
    }
    let total = args
        .iter()
        .try_fold(0usize, |acc, a| acc.checked_add(a.len()))
        .filter(|&n| n <= limit)
        .ok_or(Error::OutputTooLarge { limit })?;
    let mut out = Vec::with_capacity(total);
    for a in args {
        out.extend_from_slice(a);
    }
    Ok(out)
}

fn first_rune(s: &[u8], f: fn(char) -> char) -> Vec<u8> {
    if s.is_empty() {
        return Vec::new();
    }
    let (r, n) = decode_rune(s);
    let mut out = Vec::with_capacity(s.len() + 3);
    push_rune(&mut out, f(r));
    out.extend_from_slice(s.get(n..).unwrap_or(&[]));
    out
}

fn bounded_replace(s: &[u8], p: &[u8], r: &[u8], n: i64, limit: usize) -> Result<Vec<u8>, Error> {
    match replace_len(s, p, r, n) {
        Some(len) if len <= limit => Ok(replace(s, p, r, n)),
        _ => Err(Error::OutputTooLarge { limit }),
    }
}

/// `${v:off}` and `${v:off:len}`.
fn substr(s: Vec<u8>, args: &[Vec<u8>]) -> Result<Vec<u8>, Error> {
    let Some(first) = args.first() else {
        return Ok(s);
    };
    let Some(mut pos) = atoi(first) else {
        return Ok(s);
    };
    let len = i64::try_from(s.len()).unwrap_or(i64::MAX);
    if pos < 0 {
        pos = (len + pos).max(0);
    }
    let tail = |pos: i64| -> Vec<u8> {
        if pos < len {
            let p = usize::try_from(pos).unwrap_or(usize::MAX);
            s.get(p..).unwrap_or(&[]).to_vec()
        } else {
            Vec::new()
        }
    };
    let Some(second) = args.get(1) else {
        return Ok(tail(pos));
    };
    let Some(length) = atoi(second) else {
        return Ok(s);
    };
    // Go's int addition wraps, so a huge length can land below `len` and then panic.
    let end = pos.wrapping_add(length);
    if end >= len {
        return Ok(tail(pos));
    }
    if end < 0 {
        return Err(Error::SliceOutOfRange {
            low: None,
            high: end,
        });
    }
    if end < pos {
        return Err(Error::SliceOutOfRange {
            low: Some(pos),
            high: end,
        });
    }
    let (p, e) = (
        usize::try_from(pos).unwrap_or(0),
        usize::try_from(end).unwrap_or(0),
    );
    Ok(s.get(p..e).unwrap_or(&[]).to_vec())
}

type Trim = fn(Vec<u8>, &[u8]) -> Vec<u8>;

fn trim_prefix(s: Vec<u8>, pattern: Option<&[u8]>, trim: Trim) -> Vec<u8> {
    match pattern {
        Some(p) => trim(s, p),
        None => s,
    }
}

/// Suffix forms reverse value and pattern rune by rune, trim a prefix, and reverse back; this is
/// why classes and escapes misbehave in suffix patterns and why bad bytes become U+FFFD.
fn trim_suffix(s: Vec<u8>, pattern: Option<&[u8]>, trim: Trim) -> Vec<u8> {
    match pattern {
        Some(p) => reverse_runes(&trim(reverse_runes(&s), &reverse_runes(p))),
        None => s,
    }
}

/// Strips the shortest matching prefix. Byte prefixes are tried from longest to length 1 (never
/// the empty one); a malformed pattern leaves the value unchanged.
fn trim_shortest(s: Vec<u8>, pattern: &[u8]) -> Vec<u8> {
    let mut shortest = None;
    for end in (1..=s.len()).rev() {
        match glob::matches(pattern, s.get(..end).unwrap_or(&[])) {
            Err(_) => return s,
            Ok(true) => shortest = Some(end),
            Ok(false) => {}
        }
    }
    match shortest {
        Some(end) => s.get(end..).unwrap_or(&[]).to_vec(),
        None => s,
    }
}

fn trim_longest(s: Vec<u8>, pattern: &[u8]) -> Vec<u8> {
    for end in (1..=s.len()).rev() {
        match glob::matches(pattern, s.get(..end).unwrap_or(&[])) {
            Err(_) => return s,
            Ok(true) => return s.get(end..).unwrap_or(&[]).to_vec(),
            Ok(false) => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: &str, s: &str, args: &[&str]) -> Result<Vec<u8>, Error> {
        let args: Vec<Vec<u8>> = args.iter().map(|a| a.as_bytes().to_vec()).collect();
        apply(op, s.as_bytes().to_vec(), &args, 1 << 20)
    }

    fn ok(op: &str, s: &str, args: &[&str]) -> String {
        String::from_utf8(run(op, s, args).unwrap()).unwrap()
    }

    #[test]
    fn length_counts_bytes() {
        assert_eq!(ok("#", "héllo", &[]), "6");
        assert_eq!(ok("#", "日本語", &[]), "9");
        assert_eq!(ok("#", "", &[]), "0");
    }

    #[test]
    fn casing() {
        assert_eq!(ok("^", "ǆemal", &[]), "Ǆemal");
        assert_eq!(ok("^^", "straße", &[]), "STRAßE");
        assert_eq!(ok(",,", "İSTANBUL", &[]), "istanbul");
        assert_eq!(ok(",", "", &[]), "");
        // Mixed casing falls through to the default function: unchanged.
        assert_eq!(ok(",^", "AbC", &[]), "AbC");
        assert_eq!(ok("^,", "AbC", &[]), "AbC");
    }

    #[test]
    fn substrings() {
        assert_eq!(ok(":", "abcdef", &["-2"]), "ef");
        assert_eq!(ok(":", "abcdef", &["+1"]), "bcdef");
        assert_eq!(ok(":", "abcdef", &[" -2"]), "abcdef");
        assert_eq!(ok(":", "abcdef", &["9"]), "");
        assert_eq!(ok(":", "abcdef", &["1", "x"]), "abcdef");
        assert_eq!(ok(":", "abcdef", &["2", "99"]), "cdef");
        assert_eq!(run(":", "héllo", &["0", "2"]).unwrap(), vec![0x68, 0xC3]);
        assert_eq!(
            run(":", "abcdef", &["1", "-2"]),
            Err(Error::SliceOutOfRange {
                low: None,
                high: -1
            })
        );
        assert_eq!(
            run(":", "abcdef", &["4", "-2"]),
            Err(Error::SliceOutOfRange {
                low: Some(4),
                high: 2
            })
        );
        assert_eq!(
            run(":", "abcdef", &["4", "-1"]),
            Err(Error::SliceOutOfRange {
                low: Some(4),
                high: 3
            })
        );
        assert_eq!(ok(":", "abcdef", &["2", "-0"]), "");
    }

    #[test]
    fn replacing() {
        assert_eq!(ok("/", "abcabc", &["a*", "X"]), "abcabc");
        assert_eq!(ok("/#", "abcabc", &["abc"]), "abcabc");
        assert_eq!(ok("/#", "abcabc", &["abc", ""]), "abc");
        assert_eq!(ok("/%", "abcabc", &["abc", "X"]), "abcX");
        assert_eq!(ok("//", "abc", &["", "x"]), "xaxbxcx");
        assert_eq!(ok("/", "abc", &["", "x"]), "xabc");
        assert_eq!(ok("/#", "abc", &["", "x"]), "xabc");
        assert_eq!(ok("/%", "abc", &["", "x"]), "abcx");
        assert_eq!(ok("//", "a.b.c", &["."]), "abc");
        assert_eq!(
            apply("//", vec![b'a'; 100], &[vec![], vec![b'x'; 100]], 1000),
            Err(Error::OutputTooLarge { limit: 1000 })
        );
    }

    #[test]
    fn trimming() {
        assert_eq!(ok("#", "abcabc", &["*"]), "bcabc");
        assert_eq!(ok("%", "abcabc", &["*"]), "abcab");
        assert_eq!(ok("##", "abcabc", &["*"]), "");
        assert_eq!(ok("%%", "abcabc", &["*"]), "");
        assert_eq!(ok("%%", "abcabc", &["c*"]), "ab");
        assert_eq!(ok("#", "1abc", &["[!0-9]"]), "abc");
        assert_eq!(ok("#", "1abc", &["[^0-9]"]), "1abc");
        assert_eq!(ok("%", "abc", &["[a-c]"]), "abc");
        assert_eq!(ok("#", "abc", &["["]), "abc");
        assert_eq!(
            run("#", "日本語", &["?"]).unwrap(),
            "日本語".as_bytes()[1..].to_vec()
        );
        assert_eq!(ok("%", "日本語", &["?"]), "日本\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn defaults() {
        assert_eq!(ok(":=", "", &["a", "b"]), "ab");
        assert_eq!(ok(":+", "x", &["alt"]), "x");
        assert_eq!(ok(":?", "", &["msg"]), "msg");
        assert_eq!(ok("=", "", &[]), "");
    }
}
