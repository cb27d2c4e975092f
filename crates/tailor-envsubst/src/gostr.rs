//! Go string semantics the port depends on.
//!
//! Go strings are byte strings: envsubst slices them by byte offsets and may leave invalid UTF-8
//! behind, so values are handled as `[u8]` and every rune decode follows `utf8.DecodeRune`
//! (an invalid byte decodes as U+FFFD with width 1).

use crate::unicode_tables::{DECIMAL_DIGIT, LETTER};

/// `utf8.RuneError`.
pub(crate) const RUNE_ERROR: char = '\u{FFFD}';

/// `utf8.DecodeRune`: `(rune, width)`; width 0 only for empty input.
pub(crate) fn decode_rune(b: &[u8]) -> (char, usize) {
    if b.is_empty() {
        return (RUNE_ERROR, 0);
    }
    let head = b.get(..b.len().min(4)).unwrap_or(b);
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => head
            .get(..e.valid_up_to())
            .and_then(|p| std::str::from_utf8(p).ok())
            .unwrap_or(""),
    };
    match valid.chars().next() {
        Some(c) => (c, c.len_utf8()),
        None => (RUNE_ERROR, 1),
    }
}

/// Iterates runes the way Go's `for _, r := range s` does.
pub(crate) fn runes(mut b: &[u8]) -> impl Iterator<Item = char> + '_ {
    std::iter::from_fn(move || {
        let (r, w) = decode_rune(b);
        if w == 0 {
            return None;
        }
        b = b.get(w..).unwrap_or(&[]);
        Some(r)
    })
}

pub(crate) fn push_rune(out: &mut Vec<u8>, r: char) {
    let mut tmp = [0u8; 4];
    out.extend_from_slice(r.encode_utf8(&mut tmp).as_bytes());
}

fn in_table(table: &[(u32, u32)], r: char) -> bool {
    let c = r as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// `unicode.IsLetter`.
pub(crate) fn is_letter(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_alphabetic();
    }
    in_table(LETTER, r)
}

/// `unicode.IsDigit`.
pub(crate) fn is_digit(r: char) -> bool {
    if r.is_ascii() {
        return r.is_ascii_digit();
    }
    in_table(DECIMAL_DIGIT, r)
}

/// `unicode.ToUpper`: the simple (one rune to one rune) mapping.
///
/// Rust only exposes the full mapping. The two agree except for the SpecialCasing entries, where
/// the full mapping is several runes; there the simple mapping is the rune itself, apart from the
/// Greek iota-subscript forms handled below.
pub(crate) fn to_upper(r: char) -> char {
    let mut it = r.to_uppercase();
    match (it.next(), it.next()) {
        (Some(u), None) => u,
        _ => greek_iota_upper(r).unwrap_or(r),
    }
}

/// `unicode.ToLower`, the simple mapping (`İ` -> `i`, not `i̇`).
pub(crate) fn to_lower(r: char) -> char {
    let mut it = r.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ if r == '\u{130}' => 'i',
        _ => r,
    }
}

/// Simple uppercase of the lowercase Greek letters with ypogegrammeni (UnicodeData.txt), whose
/// full uppercase is two runes.
fn greek_iota_upper(r: char) -> Option<char> {
    let c = r as u32;
    let mapped = match c {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => c + 8,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        _ => return None,
    };
    char::from_u32(mapped)
}

/// `strings.Map(f, s)` for a rune-to-rune mapping: invalid bytes come out as U+FFFD.
pub(crate) fn map_runes(s: &[u8], f: fn(char) -> char) -> Vec<u8> {
    if s.is_ascii() {
        return s.iter().map(|&b| f(b as char) as u8).collect();
    }
    let mut out = Vec::with_capacity(s.len());
    for r in runes(s) {
        push_rune(&mut out, f(r));
    }
    out
}

/// `strconv.Atoi`: optional sign, ASCII digits only, must fit in a 64-bit int.
pub(crate) fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    // Accumulate negatively so that i64::MIN parses.
    let mut acc: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        acc = acc.checked_mul(10)?.checked_sub(i64::from(d - b'0'))?;
    }
    if neg {
        Some(acc)
    } else {
        acc.checked_neg()
    }
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
pub(crate) fn replace_len(s: &[u8], old: &[u8], new: &[u8], n: i64) -> Option<usize> {
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
pub(crate) fn replace(s: &[u8], old: &[u8], new: &[u8], n: i64) -> Vec<u8> {
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
pub(crate) fn reverse_runes(s: &[u8]) -> Vec<u8> {
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
    fn decode_like_go() {
        assert_eq!(decode_rune(b""), (RUNE_ERROR, 0));
        assert_eq!(decode_rune("é".as_bytes()), ('é', 2));
        assert_eq!(decode_rune(&[0xC3]), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(&[0xFF, b'a']), (RUNE_ERROR, 1));
        assert_eq!(decode_rune("\u{FFFD}".as_bytes()), (RUNE_ERROR, 3));
    }

    #[test]
    fn letters_and_digits_follow_go_categories() {
        assert!(is_letter('ü') && is_letter('日') && !is_letter('_'));
        assert!(is_digit('٣') && !is_digit('Ⅻ') && !is_letter('Ⅻ'));
        // Combining marks are Alphabetic in Rust but not letters in Go.
        assert!(!is_letter('\u{345}'));
    }

    #[test]
    fn simple_case_mapping() {
        assert_eq!(to_upper('ß'), 'ß');
        assert_eq!(to_lower('İ'), 'i');
        assert_eq!(to_upper('ǆ'), 'Ǆ');
        assert_eq!(to_upper('\u{1FB3}'), '\u{1FBC}');
        assert_eq!(to_upper('\u{1F88}'), '\u{1F88}');
        assert_eq!(to_upper('ﬁ'), 'ﬁ');
    }

    #[test]
    fn atoi_like_go() {
        assert_eq!(atoi(b"+5"), Some(5));
        assert_eq!(atoi(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(atoi(b"9223372036854775808"), None);
        for bad in [&b""[..], b"-", b" 1", b"1.5", b"1_0", b"(-2)"] {
            assert_eq!(atoi(bad), None);
        }
    }

    #[test]
    fn replace_like_go() {
        assert_eq!(replace(b"abc", b"", b"x", -1), b"xaxbxcx");
        assert_eq!(replace(b"abc", b"", b"x", 1), b"xabc");
        assert_eq!(replace(b"aaa", b"a", b"b", 2), b"bba");
        assert_eq!(replace_len(b"abc", b"", b"xy", -1), Some(11));
        assert_eq!(replace("日".as_bytes(), b"", b"-", -1), "-日-".as_bytes());
    }
}
