//! Go's `strings` functions envsubst's filters are built on, over byte strings (Go strings may
//! hold invalid UTF-8; decoding follows `utf8.DecodeRune`).

use crate::utf8::{decode_rune, push_rune, runes};

/// `strings.Map(f, s)` for a rune-to-rune mapping: invalid bytes come out as U+FFFD.
pub fn map_runes(s: &[u8], f: fn(char) -> char) -> Vec<u8> {
    if s.is_ascii() {
        return s.iter().map(|&b| f(b as char) as u8).collect();
    }
    let mut out = Vec::with_capacity(s.len());
    for r in runes(s) {
        push_rune(&mut out, f(r));
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

fn count(s: &[u8], old: &[u8]) -> usize {
    if old.is_empty() {
        return runes(s).count() + 1;
    }
    let mut n = 0;
    let mut rest = s;
    while let Some(i) = find(rest, old) {
        n += 1;
        rest = rest.get(i + old.len()..).unwrap_or(&[]);
    }
    n
}

/// The byte length `strings.Replace(s, old, new, n)` would produce, or `None` on overflow.
/// `n < 0` means "all". Lets the caller refuse a huge result before allocating it.
pub fn replace_len(s: &[u8], old: &[u8], new: &[u8], n: i64) -> Option<usize> {
    if old == new || n == 0 {
        return Some(s.len());
    }
    let m = count(s, old);
    let m = if n < 0 {
        m
    } else {
        m.min(usize::try_from(n).unwrap_or(usize::MAX))
    };
    let grown = m.checked_mul(new.len())?;
    let shrunk = m.checked_mul(old.len())?;
    s.len().checked_add(grown)?.checked_sub(shrunk)
}

/// `strings.Replace(s, old, new, n)`. An empty `old` matches before every rune and at the end.
pub fn replace(s: &[u8], old: &[u8], new: &[u8], n: i64) -> Vec<u8> {
    if old == new || n == 0 {
        return s.to_vec();
    }
    let m = count(s, old);
    if m == 0 {
        return s.to_vec();
    }
    let n = if n < 0 {
        m
    } else {
        m.min(usize::try_from(n).unwrap_or(usize::MAX))
    };
    let mut out = Vec::with_capacity(s.len());
    let mut start = 0usize;
    for i in 0..n {
        let rest = s.get(start..).unwrap_or(&[]);
        let mut j = start;
        if old.is_empty() {
            if i > 0 {
                j += decode_rune(rest).1;
            }
        } else {
            match find(rest, old) {
                Some(k) => j += k,
                None => break,
            }
        }
        out.extend_from_slice(s.get(start..j).unwrap_or(&[]));
        out.extend_from_slice(new);
        start = j + old.len();
    }
    out.extend_from_slice(s.get(start..).unwrap_or(&[]));
    out
}

/// `[]rune(s)` reversed and re-encoded, as envsubst's `reverse`: invalid bytes become U+FFFD.
pub fn reverse_runes(s: &[u8]) -> Vec<u8> {
    let rs: Vec<char> = runes(s).collect();
    let mut out = Vec::with_capacity(s.len());
    for &r in rs.iter().rev() {
        push_rune(&mut out, r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_like_go() {
        assert_eq!(replace(b"abc", b"", b"x", -1), b"xaxbxcx");
        assert_eq!(replace(b"abc", b"", b"x", 1), b"xabc");
        assert_eq!(replace(b"aaa", b"a", b"b", 2), b"bba");
        assert_eq!(replace_len(b"abc", b"", b"xy", -1), Some(11));
        assert_eq!(replace("日".as_bytes(), b"", b"-", -1), "-日-".as_bytes());
    }

    #[test]
    fn map_and_reverse_decode_invalid_bytes() {
        assert_eq!(
            map_runes(b"a\xffb", crate::unicode::to_upper),
            "A\u{FFFD}B".as_bytes()
        );
        assert_eq!(reverse_runes("ab日".as_bytes()), "日ba".as_bytes());
    }
}
