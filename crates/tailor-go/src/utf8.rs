//! Go's `unicode/utf8`. Go strings are byte strings that may hold invalid UTF-8; decoding never
//! fails: an invalid byte decodes as U+FFFD with width 1, so every loop makes progress.

/// `utf8.RuneError`.
pub const RUNE_ERROR: u32 = 0xFFFD;
/// `unicode.MaxRune`.
pub const MAX_RUNE: u32 = 0x10FFFF;

/// `utf8.DecodeRune`: `(rune, width)`; width 0 only for empty input.
pub fn decode_rune(b: &[u8]) -> (u32, usize) {
    let Some(&b0) = b.first() else {
        return (RUNE_ERROR, 0);
    };
    if b0 < 0x80 {
        return (u32::from(b0), 1);
    }
    let (n, min, init) = match b0 {
        0xC2..=0xDF => (2, 0x80, u32::from(b0 & 0x1F)),
        0xE0..=0xEF => (3, 0x800, u32::from(b0 & 0x0F)),
        0xF0..=0xF4 => (4, 0x10000, u32::from(b0 & 0x07)),
        _ => return (RUNE_ERROR, 1),
    };
    if b.len() < n {
        return (RUNE_ERROR, 1);
    }
    let mut r = init;
    for &c in &b[1..n] {
        if c & 0xC0 != 0x80 {
            return (RUNE_ERROR, 1);
        }
        r = (r << 6) | u32::from(c & 0x3F);
    }
    if r < min || r > MAX_RUNE || (0xD800..=0xDFFF).contains(&r) {
        return (RUNE_ERROR, 1);
    }
    (r, n)
}

/// [`decode_rune`] as a `char` (a decoded rune is always a valid one).
pub fn decode_char(b: &[u8]) -> (char, usize) {
    let (r, w) = decode_rune(b);
    (char::from_u32(r).unwrap_or('\u{FFFD}'), w)
}

/// Iterates runes the way Go's `for _, r := range s` does.
pub fn runes(mut b: &[u8]) -> impl Iterator<Item = char> + '_ {
    std::iter::from_fn(move || {
        let (r, w) = decode_char(b);
        if w == 0 {
            return None;
        }
        b = b.get(w..).unwrap_or(&[]);
        Some(r)
    })
}

/// `utf8.RuneCount`.
pub fn rune_count(b: &[u8]) -> usize {
    let mut i = 0;
    let mut n = 0;
    while i < b.len() {
        let (_, w) = decode_rune(&b[i..]);
        i += w.max(1);
        n += 1;
    }
    n
}

/// `utf8.ValidRune`.
pub fn valid_rune(r: u32) -> bool {
    r <= MAX_RUNE && !(0xD800..=0xDFFF).contains(&r)
}

/// `utf8.AppendRune`: an invalid rune is written as U+FFFD.
pub fn encode_rune(r: u32, out: &mut Vec<u8>) {
    let c = if valid_rune(r) {
        char::from_u32(r).unwrap_or('\u{FFFD}')
    } else {
        '\u{FFFD}'
    };
    push_rune(out, c);
}

/// Appends `r`'s UTF-8 bytes.
pub fn push_rune(out: &mut Vec<u8>, r: char) {
    let mut tmp = [0u8; 4];
    out.extend_from_slice(r.encode_utf8(&mut tmp).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_bytes_decode_one_at_a_time() {
        assert_eq!(decode_rune(b""), (RUNE_ERROR, 0));
        assert_eq!(decode_rune(b"\xff"), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(b"\xe2\x82"), (RUNE_ERROR, 1));
        assert_eq!(decode_rune("€".as_bytes()), (0x20AC, 3));
        // Surrogates and overlong forms are invalid, as in Go.
        assert_eq!(decode_rune(b"\xed\xa0\x80"), (RUNE_ERROR, 1));
        assert_eq!(decode_rune(b"\xc0\xaf"), (RUNE_ERROR, 1));
        assert_eq!(runes(b"a\xffb").collect::<String>(), "a\u{FFFD}b");
        assert_eq!(rune_count(b"a\xff\xe2\x82\xac"), 3);
    }
}
