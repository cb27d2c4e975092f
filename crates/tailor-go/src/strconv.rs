//! Go's `strconv`: quoting (`Quote`, `QuoteRune`, `%q`), unquoting and number parsing and
//! formatting as Go prints them. Go strings are byte strings, so everything here works on bytes;
//! [`quote`] is the `&str` form the error messages of every crate use.

use crate::unicode::is_print;
use crate::utf8::{decode_rune, encode_rune, valid_rune, RUNE_ERROR};

const LOWERHEX: &[u8; 16] = b"0123456789abcdef";

fn append_escaped_rune(buf: &mut Vec<u8>, r: u32, quote: u8, ascii_only: bool) {
    if r == u32::from(quote) || r == u32::from(b'\\') {
        buf.push(b'\\');
        buf.push(r as u8);
        return;
    }
    if ascii_only {
        if r < 0x80 && is_print(r) {
            buf.push(r as u8);
            return;
        }
    } else if is_print(r) {
        encode_rune(r, buf);
        return;
    }
    match r {
        0x07 => buf.extend_from_slice(b"\\a"),
        0x08 => buf.extend_from_slice(b"\\b"),
        0x0C => buf.extend_from_slice(b"\\f"),
        0x0A => buf.extend_from_slice(b"\\n"),
        0x0D => buf.extend_from_slice(b"\\r"),
        0x09 => buf.extend_from_slice(b"\\t"),
        0x0B => buf.extend_from_slice(b"\\v"),
        _ => {
            if r < u32::from(b' ') || r == 0x7F {
                buf.extend_from_slice(b"\\x");
                buf.push(LOWERHEX[(r >> 4) as usize & 0xF]);
                buf.push(LOWERHEX[r as usize & 0xF]);
            } else {
                let r = if valid_rune(r) { r } else { RUNE_ERROR };
                if r < 0x10000 {
                    buf.extend_from_slice(b"\\u");
                    for s in (0..=12).rev().step_by(4) {
                        buf.push(LOWERHEX[(r >> s) as usize & 0xF]);
                    }
                } else {
                    buf.extend_from_slice(b"\\U");
                    for s in (0..=28).rev().step_by(4) {
                        buf.push(LOWERHEX[(r >> s) as usize & 0xF]);
                    }
                }
            }
        }
    }
}

/// `strconv.Quote` / `strconv.QuoteToASCII`.
pub fn quote_with(s: &[u8], quote: u8, ascii_only: bool) -> Vec<u8> {
    let mut buf = Vec::with_capacity(s.len() + 2);
    buf.push(quote);
    let mut i = 0;
    while i < s.len() {
        let (r, w) = decode_rune(&s[i..]);
        if w == 1 && r == RUNE_ERROR {
            buf.extend_from_slice(b"\\x");
            buf.push(LOWERHEX[(s[i] >> 4) as usize]);
            buf.push(LOWERHEX[(s[i] & 0xF) as usize]);
            i += 1;
            continue;
        }
        append_escaped_rune(&mut buf, r, quote, ascii_only);
        i += w.max(1);
    }
    buf.push(quote);
    buf
}

pub fn quote_bytes(s: &[u8]) -> Vec<u8> {
    quote_with(s, b'"', false)
}

/// `strconv.Quote` (Go's `%q` of a string): the form every Go error message quotes with.
pub fn quote(s: &str) -> String {
    String::from_utf8(quote_bytes(s.as_bytes())).unwrap_or_default()
}

/// `strconv.QuoteRune` (Go's `%q` of a rune).
pub fn quote_char(c: char) -> String {
    String::from_utf8(quote_rune(c as u32, false)).unwrap_or_default()
}

/// `strconv.QuoteRune` / `QuoteRuneToASCII`.
pub fn quote_rune(r: u32, ascii_only: bool) -> Vec<u8> {
    let r = if valid_rune(r) { r } else { RUNE_ERROR };
    let mut buf = vec![b'\''];
    append_escaped_rune(&mut buf, r, b'\'', ascii_only);
    buf.push(b'\'');
    buf
}

pub fn can_backquote(s: &[u8]) -> bool {
    let mut i = 0;
    while i < s.len() {
        let (r, w) = decode_rune(&s[i..]);
        i += w.max(1);
        if w > 1 {
            if r == 0xFEFF {
                return false;
            }
            continue;
        }
        if r == RUNE_ERROR {
            return false;
        }
        if (r < u32::from(b' ') && r != u32::from(b'\t')) || r == u32::from(b'`') || r == 0x7F {
            return false;
        }
    }
    true
}

fn unhex(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// `strconv.UnquoteChar`: returns (value, multibyte, bytes consumed).
pub fn unquote_char(s: &[u8], quote: u8) -> Option<(u32, bool, usize)> {
    let &c = s.first()?;
    if c == quote && (quote == b'\'' || quote == b'"') {
        return None;
    }
    if c >= 0x80 {
        let (r, w) = decode_rune(s);
        return Some((r, true, w));
    }
    if c != b'\\' {
        return Some((u32::from(c), false, 1));
    }
    let &c = s.get(1)?;
    let rest = &s[2..];
    let simple = |v: u8| Some((u32::from(v), false, 2));
    match c {
        b'a' => simple(0x07),
        b'b' => simple(0x08),
        b'f' => simple(0x0C),
        b'n' => simple(b'\n'),
        b'r' => simple(b'\r'),
        b't' => simple(b'\t'),
        b'v' => simple(0x0B),
        b'x' | b'u' | b'U' => {
            let n = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let digits = rest.get(..n)?;
            let mut v: u32 = 0;
            for &d in digits {
                v = (v << 4) | unhex(d)?;
            }
            if c == b'x' {
                return Some((v, false, 2 + n));
            }
            if !valid_rune(v) {
                return None;
            }
            Some((v, true, 2 + n))
        }
        b'0'..=b'7' => {
            let mut v = u32::from(c - b'0');
            let digits = rest.get(..2)?;
            for &d in digits {
                if !(b'0'..=b'7').contains(&d) {
                    return None;
                }
                v = (v << 3) | u32::from(d - b'0');
            }
            if v > 255 {
                return None;
            }
            Some((v, false, 4))
        }
        b'\\' => simple(b'\\'),
        b'\'' | b'"' => {
            if c != quote {
                return None;
            }
            simple(c)
        }
        _ => None,
    }
}

/// `strconv.Unquote`; the only error Go reports here is "invalid syntax".
pub fn unquote(s: &str) -> Result<Vec<u8>, &'static str> {
    const ERR: &str = "invalid syntax";
    let b = s.as_bytes();
    if b.len() < 2 {
        return Err(ERR);
    }
    let q = b[0];
    if b[b.len() - 1] != q {
        return Err(ERR);
    }
    let inner = &b[1..b.len() - 1];
    match q {
        b'`' => {
            if inner.contains(&b'`') {
                return Err(ERR);
            }
            Ok(inner.iter().copied().filter(|&c| c != b'\r').collect())
        }
        b'"' | b'\'' => {
            let mut out = Vec::with_capacity(inner.len());
            let mut i = 0;
            while i < inner.len() {
                if inner[i] == b'\n' {
                    return Err(ERR);
                }
                let (r, multibyte, w) = unquote_char(&inner[i..], q).ok_or(ERR)?;
                i += w;
                if r < 0x80 || !multibyte {
                    out.push(r as u8);
                } else {
                    encode_rune(r, &mut out);
                }
                if q == b'\'' && i != inner.len() {
                    return Err(ERR);
                }
            }
            if q == b'\'' && inner.is_empty() {
                return Err(ERR);
            }
            Ok(out)
        }
        _ => Err(ERR),
    }
}

fn underscore_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut saw = b'^';
    let mut i = 0;
    let b = if !b.is_empty() && (b[0] == b'-' || b[0] == b'+') {
        &b[1..]
    } else {
        b
    };
    let mut hex = false;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1].to_ascii_lowercase(), b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1].eq_ignore_ascii_case(&b'x');
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `strconv.ParseUint(s, 0, 64)`.
pub fn parse_uint0(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    let (base, digits): (u32, &[u8]) = if b[0] == b'0' {
        if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'x') {
            (16, &b[2..])
        } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'o') {
            (8, &b[2..])
        } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'b') {
            (2, &b[2..])
        } else {
            (8, &b[1..])
        }
    } else {
        (10, b)
    };
    let mut n: u64 = 0;
    let mut underscores = false;
    for &c in digits {
        if c == b'_' {
            underscores = true;
            continue;
        }
        let d = (c as char).to_digit(36)?;
        if d >= base {
            return None;
        }
        n = n.checked_mul(u64::from(base))?.checked_add(u64::from(d))?;
    }
    if underscores && !underscore_ok(s) {
        return None;
    }
    Some(n)
}

/// `strconv.ParseInt(s, 0, 64)`.
pub fn parse_int0(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let u = parse_uint0(body)?;
    if neg {
        if u <= 1u64 << 63 {
            Some((u as i64).wrapping_neg())
        } else {
            None
        }
    } else if u < 1u64 << 63 {
        Some(u as i64)
    } else {
        None
    }
}

/// `strconv.ParseFloat(s, 64)` for the number syntax the lexer produces
/// (decimal and hexadecimal mantissas, underscores); `None` on any error,
/// including out-of-range values, as the template parser treats both alike.
pub fn parse_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if body.contains('_') && !underscore_ok(s) {
        return None;
    }
    let clean: String = body.chars().filter(|&c| c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let v = if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_float(hex)?
    } else {
        if clean.is_empty()
            || !clean
                .bytes()
                .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            return None;
        }
        let v: f64 = clean.parse().ok()?;
        if v.is_infinite() {
            return None;
        }
        v
    };
    Some(if neg { -v } else { v })
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    let exp: i64 = if exp.is_empty() {
        return None;
    } else {
        let (eneg, e) = match exp.as_bytes()[0] {
            b'-' => (true, &exp[1..]),
            b'+' => (false, &exp[1..]),
            _ => (false, exp),
        };
        if e.is_empty() || !e.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let v: i64 = e.parse().unwrap_or(100_000).min(100_000);
        if eneg {
            -v
        } else {
            v
        }
    };
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    if ip.is_empty() && fp.is_empty() {
        return None;
    }
    // Accumulate up to 16 significant hex digits exactly in a u64, then
    // let the f64 conversion and scaling do a single rounding.
    let mut m: u64 = 0;
    let mut e2: i64 = exp;
    let mut sticky = false;
    let mut digits = 0;
    for (i, c) in ip.chars().chain(fp.chars()).enumerate() {
        let d = c.to_digit(16)?;
        let frac = i >= ip.len();
        if digits < 15 || (m == 0) {
            m = (m << 4) | u64::from(d);
            if m != 0 {
                digits += 1;
            }
            if frac {
                e2 -= 4;
            }
        } else {
            if d != 0 {
                sticky = true;
            }
            if !frac {
                e2 += 4;
            }
        }
    }
    if sticky {
        m |= 1;
    }
    let v = (m as f64) * 2f64.powi(e2.clamp(-2000, 2000) as i32);
    if v.is_infinite() {
        return None;
    }
    Some(v)
}

/// Decimal digits of |v| without leading/trailing zeros and the position of
/// the decimal point, as strconv's `decimalSlice` (zero is `([], 0)`).
struct Digits {
    d: Vec<u8>,
    dp: i64,
}

fn digits_from_exp_form(s: &str) -> Digits {
    // s looks like "1.2345e-7" (Rust's `{:e}` output).
    let (mant, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let d: Vec<u8> = mant.bytes().filter(|c| c.is_ascii_digit()).collect();
    normalize(d, exp + 1)
}

fn normalize(mut d: Vec<u8>, mut dp: i64) -> Digits {
    let lead = d.iter().take_while(|&&c| c == b'0').count();
    d.drain(..lead);
    dp -= lead as i64;
    while d.last() == Some(&b'0') {
        d.pop();
    }
    if d.is_empty() {
        dp = 0;
    }
    Digits { d, dp }
}

fn shortest(v: f64) -> Digits {
    digits_from_exp_form(&format!("{:e}", v.abs()))
}

/// Rust's formatter panics on a precision above `u16::MAX`, while Go accepts any. An f64's
/// exact decimal expansion has at most 767 significant and 1074 fractional digits; every digit
/// past those is 0, and `normalize` drops trailing zeros, so clamping loses nothing.
const MAX_EXACT_DIGITS: usize = 1100;

fn significant(v: f64, n: usize) -> Digits {
    let prec = n.saturating_sub(1).min(MAX_EXACT_DIGITS);
    digits_from_exp_form(&format!("{:.*e}", prec, v.abs()))
}

fn fixed(v: f64, prec: usize) -> Digits {
    let s = format!("{:.*}", prec.min(MAX_EXACT_DIGITS), v.abs());
    let (ip, fp) = s.split_once('.').unwrap_or((&s, ""));
    let mut d = ip.as_bytes().to_vec();
    d.extend_from_slice(fp.as_bytes());
    normalize(d, ip.len() as i64)
}

fn fmt_e(dst: &mut Vec<u8>, neg: bool, d: &Digits, prec: i64, fmt: u8) {
    if neg {
        dst.push(b'-');
    }
    dst.push(d.d.first().copied().unwrap_or(b'0'));
    if prec > 0 {
        dst.push(b'.');
        let mut i = 1usize;
        let m = d.d.len().min(prec as usize + 1);
        if i < m {
            dst.extend_from_slice(&d.d[i..m]);
            i = m;
        }
        while (i as i64) <= prec {
            dst.push(b'0');
            i += 1;
        }
    }
    dst.push(fmt);
    let mut exp = d.dp - 1;
    if d.d.is_empty() {
        exp = 0;
    }
    push_exponent(dst, exp);
}

/// The exponent after `e`/`p`: its sign, then at least two digits (`e+07`, `p-10`).
fn push_exponent(dst: &mut Vec<u8>, exp: i64) {
    if exp < 0 {
        dst.push(b'-');
    } else {
        dst.push(b'+');
    }
    let exp = exp.unsigned_abs();
    if exp < 10 {
        dst.push(b'0');
    }
    dst.extend_from_slice(exp.to_string().as_bytes());
}

fn fmt_f(dst: &mut Vec<u8>, neg: bool, d: &Digits, prec: i64) {
    if neg {
        dst.push(b'-');
    }
    if d.dp > 0 {
        let m = (d.d.len() as i64).min(d.dp) as usize;
        dst.extend_from_slice(&d.d[..m]);
        for _ in m as i64..d.dp {
            dst.push(b'0');
        }
    } else {
        dst.push(b'0');
    }
    if prec > 0 {
        dst.push(b'.');
        for i in 1..=prec {
            let j = d.dp + i - 1;
            let ch = if j >= 0 && (j as usize) < d.d.len() {
                d.d[j as usize]
            } else {
                b'0'
            };
            dst.push(ch);
        }
    }
}

/// `strconv.AppendFloat(dst, v, fmt, prec, 64)`.
pub fn append_float(dst: &mut Vec<u8>, v: f64, fmt: u8, prec: i64) {
    if v.is_nan() {
        dst.extend_from_slice(b"NaN");
        return;
    }
    if v.is_infinite() {
        dst.extend_from_slice(if v < 0.0 { b"-Inf" } else { b"+Inf" });
        return;
    }
    let neg = v.is_sign_negative();
    match fmt {
        b'b' => {
            let (mut exp, mant) = exponent_and_mantissa(v.to_bits());
            exp -= 1023 + 52;
            if neg {
                dst.push(b'-');
            }
            dst.extend_from_slice(mant.to_string().as_bytes());
            dst.push(b'p');
            if exp >= 0 {
                dst.push(b'+');
            }
            dst.extend_from_slice(exp.to_string().as_bytes());
            return;
        }
        b'x' | b'X' => {
            fmt_x(dst, v, prec, fmt);
            return;
        }
        _ => {}
    }
    let is_shortest = prec < 0;
    let mut prec = prec;
    let d = if is_shortest {
        let d = shortest(v);
        let nd = d.d.len() as i64;
        prec = match fmt {
            b'e' | b'E' => (nd - 1).max(0),
            b'f' => (nd - d.dp).max(0),
            _ => nd,
        };
        d
    } else {
        match fmt {
            b'e' | b'E' => significant(v, (prec + 1).clamp(1, 2000) as usize),
            b'g' | b'G' => {
                if prec == 0 {
                    prec = 1;
                }
                significant(v, prec.clamp(1, 2000) as usize)
            }
            _ => fixed(v, prec.clamp(0, 2_000_000) as usize),
        }
    };
    match fmt {
        b'e' | b'E' => fmt_e(dst, neg, &d, prec, fmt),
        b'f' => fmt_f(dst, neg, &d, prec),
        _ => {
            let nd = d.d.len() as i64;
            let mut eprec = prec;
            if eprec > nd && nd >= d.dp {
                eprec = nd;
            }
            if is_shortest {
                eprec = 6;
            }
            let exp = d.dp - 1;
            if exp < -4 || exp >= eprec {
                if prec > nd {
                    prec = nd;
                }
                fmt_e(dst, neg, &d, prec - 1, fmt + b'e' - b'g');
            } else {
                if prec > d.dp {
                    prec = nd;
                }
                fmt_f(dst, neg, &d, (prec - d.dp).max(0));
            }
        }
    }
}

/// A float64's biased exponent and its mantissa with the implicit leading bit (a subnormal's
/// exponent taken as 1), as Go's `%b` and `%x` start.
fn exponent_and_mantissa(bits: u64) -> (i64, u64) {
    let exp = ((bits >> 52) & 0x7FF) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (1, mant)
    } else {
        (exp, mant | 1u64 << 52)
    }
}

fn fmt_x(dst: &mut Vec<u8>, v: f64, prec: i64, fmt: u8) {
    let bits = v.to_bits();
    let neg = bits >> 63 != 0;
    let (mut exp, mut mant) = exponent_and_mantissa(bits);
    exp -= 1023;
    if mant == 0 {
        exp = 0;
    }
    mant <<= 60 - 52;
    while mant != 0 && mant & (1u64 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = (mant << shift) & ((1u64 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1u64 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1u64 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8; 16] = if fmt == b'X' {
        b"0123456789ABCDEF"
    } else {
        LOWERHEX
    };
    if neg {
        dst.push(b'-');
    }
    dst.push(b'0');
    dst.push(fmt);
    dst.push(b'0' + ((mant >> 60) & 1) as u8);
    mant <<= 4;
    if prec < 0 && mant != 0 {
        dst.push(b'.');
        while mant != 0 {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    } else if prec > 0 {
        dst.push(b'.');
        for _ in 0..prec {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    }
    dst.push(if fmt == b'x' { b'p' } else { b'P' });
    push_exponent(dst, exp);
}

/// `strconv.Atoi`: optional sign, ASCII digits only, must fit in a 64-bit int.
pub fn atoi(s: &[u8]) -> Option<i64> {
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

#[cfg(test)]
mod tests {
    #[test]
    fn atoi_like_go() {
        assert_eq!(super::atoi(b"+5"), Some(5));
        assert_eq!(super::atoi(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(super::atoi(b"9223372036854775808"), None);
        for bad in [&b""[..], b"-", b" 1", b"1.5", b"1_0", b"(-2)"] {
            assert_eq!(super::atoi(bad), None);
        }
    }

    #[test]
    fn quote_like_go() {
        assert_eq!(
            super::quote("a\u{7}\u{1b}\u{7f}\u{a0}é\u{2028}\"\\"),
            r#""a\a\x1b\x7f\u00a0é\u2028\"\\""#
        );
        assert_eq!(super::quote_char('\''), r"'\''");
        assert_eq!(super::quote_char('"'), "'\"'");
        assert_eq!(super::quote_char('\0'), r"'\x00'");
    }

    use super::*;

    fn f(v: f64, fmt: u8, prec: i64) -> String {
        let mut d = Vec::new();
        append_float(&mut d, v, fmt, prec);
        String::from_utf8(d).unwrap_or_default()
    }

    #[test]
    fn floats() {
        assert_eq!(f(1e6, b'g', -1), "1e+06");
        assert_eq!(f(123456.0, b'g', -1), "123456");
        assert_eq!(f(0.0001, b'g', -1), "0.0001");
        assert_eq!(f(0.00001, b'g', -1), "1e-05");
        assert_eq!(f(1.23456, b'f', 2), "1.23");
        assert_eq!(f(0.0, b'e', 6), "0.000000e+00");
        assert_eq!(f(1.0, b'g', 3), "1");
        assert_eq!(f(1.0, b'b', -1), "4503599627370496p-52");
        assert_eq!(f(1.0, b'x', -1), "0x1p+00");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int0("0x1F"), Some(31));
        assert_eq!(parse_int0("0o17"), Some(15));
        assert_eq!(parse_int0("017"), Some(15));
        assert_eq!(parse_int0("1_000"), Some(1000));
        assert_eq!(parse_int0("1__0"), None);
        assert_eq!(parse_int0("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_float("0x1p-2"), Some(0.25));
        assert_eq!(parse_float("1e400"), None);
    }
}
