//! Typing of plain scalars, following go-yaml v3 (`resolve.go`), plus the YAML 1.1 readings
//! (yaml.v2, which kubectl and sigs.k8s.io/yaml use) that decide when a fresh string must be
//! quoted so that no reader takes it for another type.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Null,
    Bool,
    Int,
    Float,
    Str,
    Timestamp,
    Merge,
}

/// go-yaml v3's reading of an untagged plain scalar.
pub fn resolve_plain(s: &str) -> ScalarKind {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarKind::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return ScalarKind::Bool,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return ScalarKind::Float,
        "<<" => return ScalarKind::Merge,
        _ => {}
    }
    let first = s.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'+' || first == b'-' || first == b'.') {
        return ScalarKind::Str;
    }
    if is_timestamp(s) {
        return ScalarKind::Timestamp;
    }
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    if parse_go_int(&plain).is_some() {
        return ScalarKind::Int;
    }
    if is_yaml_style_float(&plain) {
        return ScalarKind::Float;
    }
    let unsigned = plain.strip_prefix('-').unwrap_or(&plain);
    if let Some(bin) = unsigned.strip_prefix("0b") {
        if !bin.is_empty() && bin.bytes().all(|b| b == b'0' || b == b'1') {
            return ScalarKind::Int;
        }
    }
    if let Some(oct) = unsigned.strip_prefix("0o") {
        if !oct.is_empty() && oct.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
            return ScalarKind::Int;
        }
    }
    ScalarKind::Str
}

/// Go's `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeding: decimal, `0x`, `0o`,
/// `0b`, and a leading `0` meaning octal. Returns the value's magnitude in a u128 when it fits
/// in 64 bits.
pub fn parse_go_int(s: &str) -> Option<i128> {
    let (neg, body) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() {
        return None;
    }
    let (radix, digits) = if let Some(r) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        (16, r)
    } else if let Some(r) = body.strip_prefix("0o").or(body.strip_prefix("0O")) {
        (8, r)
    } else if let Some(r) = body.strip_prefix("0b").or(body.strip_prefix("0B")) {
        (2, r)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = u128::from_str_radix(digits, radix).ok()?;
    if neg {
        // ParseInt accepts down to -2^63.
        if v > (1u128 << 63) {
            return None;
        }
        Some(-(v as i128))
    } else {
        if v > u64::MAX as u128 {
            return None;
        }
        Some(v as i128)
    }
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
pub fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The timestamp forms go-yaml v3 accepts for plain scalars (`2001-12-14`, `2001-12-14t21:59:43.10-05:00`, ...).
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    // A date must start with four digits and a dash; everything else is decided by the layouts.
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut i = 5;
    let num = |i: &mut usize, min: usize, max: usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < max {
            *i += 1;
        }
        (*i - start) >= min
    };
    if !num(&mut i, 1, 2) || i >= b.len() || b[i] != b'-' {
        return false;
    }
    i += 1;
    if !num(&mut i, 1, 2) {
        return false;
    }
    if i == b.len() {
        return true;
    }
    // Time part: [Tt ]+HH:MM:SS(.frac)?(Z|[+-]HH(:MM)?)?
    if b[i] == b'T' || b[i] == b't' {
        i += 1;
    } else if b[i] == b' ' || b[i] == b'\t' {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
    } else {
        return false;
    }
    if !num(&mut i, 1, 2) || i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    if !num(&mut i, 2, 2) || i >= b.len() || b[i] != b':' {
        return false;
    }
    i += 1;
    if !num(&mut i, 2, 2) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !num(&mut i, 1, usize::MAX) {
            return false;
        }
    }
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    if i == b.len() {
        return true;
    }
    if b[i] == b'Z' && i + 1 == b.len() {
        return true;
    }
    if b[i] == b'+' || b[i] == b'-' {
        i += 1;
        if !num(&mut i, 1, 2) {
            return false;
        }
        if i < b.len() && b[i] == b':' {
            i += 1;
            if !num(&mut i, 2, 2) {
                return false;
            }
        }
        return i == b.len();
    }
    false
}

/// YAML 1.1 booleans (yaml.v2 reads these as bool).
pub fn is_yaml11_bool(s: &str) -> bool {
    matches!(
        s,
        "y" | "Y"
            | "yes"
            | "Yes"
            | "YES"
            | "n"
            | "N"
            | "no"
            | "No"
            | "NO"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

/// Sexagesimal numbers of YAML 1.1 (`12:30`, `190:20:30.15`), which go-yaml quotes on output.
pub fn is_base60(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut parts = body.split(':');
    let Some(first) = parts.next() else {
        return false;
    };
    // go-yaml's isBase60Float: ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
    if !first.bytes().next().is_some_and(|b| b.is_ascii_digit())
        || !first.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return false;
    }
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return false;
    }
    for (idx, part) in rest.iter().enumerate() {
        let last = idx + 1 == rest.len();
        let (int, frac) = match part.split_once('.') {
            Some((i, f)) if last => (i, Some(f)),
            Some(_) => return false,
            None => (*part, None),
        };
        let ok_int = match int.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        if !ok_int || frac.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit() || b == b'_')) {
            return false;
        }
    }
    true
}

/// True when a string written plain would be read back as something other than that string
/// by go-yaml v3 or by a YAML 1.1 reader, so it must be quoted.
pub fn plain_is_ambiguous(s: &str) -> bool {
    resolve_plain(s) != ScalarKind::Str || is_yaml11_bool(s) || is_base60(s) || is_yaml11_number(s)
}

/// yaml.v2 numbers that v3 reads as strings: `0b`/`+` forms it parses differently, `.5`-like
/// floats and `1_000`. Deliberately generous: quoting a string never changes its meaning.
fn is_yaml11_number(s: &str) -> bool {
    // Both parsers need a sign, a dot or a digit first: most strings stop here, unallocated.
    let first = s.bytes().find(|&b| b != b'_');
    if !first.is_some_and(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.')) {
        return false;
    }
    let plain: std::borrow::Cow<str> = if s.contains('_') {
        s.chars().filter(|&c| c != '_').collect::<String>().into()
    } else {
        s.into()
    };
    parse_go_int(&plain).is_some() || is_yaml_style_float(&plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v3_resolution() {
        for (s, k) in [
            ("0644", ScalarKind::Int),
            ("1_000", ScalarKind::Int),
            ("0x1F", ScalarKind::Int),
            ("0o17", ScalarKind::Int),
            ("0b101", ScalarKind::Int),
            ("-0b101", ScalarKind::Int),
            ("08", ScalarKind::Float),
            ("1e3", ScalarKind::Float),
            (".5", ScalarKind::Float),
            ("+1", ScalarKind::Int),
            ("1.50", ScalarKind::Float),
            ("~", ScalarKind::Null),
            ("", ScalarKind::Null),
            ("True", ScalarKind::Bool),
            ("yes", ScalarKind::Str),
            ("on", ScalarKind::Str),
            ("12345678901234567890123", ScalarKind::Float),
            ("2001-12-14", ScalarKind::Timestamp),
            ("2001-12-14t21:59:43.10-05:00", ScalarKind::Timestamp),
            ("1.2.3", ScalarKind::Str),
            ("-", ScalarKind::Str),
            ("abc", ScalarKind::Str),
            (".inf", ScalarKind::Float),
            ("<<", ScalarKind::Merge),
        ] {
            assert_eq!(resolve_plain(s), k, "{s}");
        }
    }

    #[test]
    fn ambiguity_covers_yaml11() {
        for s in [
            "on",
            "y",
            "NO",
            "1_000",
            "12:30",
            "2001-12-14",
            "true",
            "null",
            "~",
            "",
            "0755",
            "0:30",
        ] {
            assert!(plain_is_ambiguous(s), "{s}");
        }
        for s in ["hello", "1.2.3", "v1", "a:b", "yes-please", "1:99"] {
            assert!(!plain_is_ambiguous(s), "{s}");
        }
    }
}
