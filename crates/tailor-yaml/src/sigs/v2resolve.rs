//! yaml.v2's `resolve` for untagged plain scalars (YAML 1.1): the one table that decides both
//! when the v2 printer must quote a string and what the v2 reader makes of substituted text.

use crate::resolve::{is_timestamp, is_yaml11_bool, is_yaml_style_float, parse_go_int};

#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    Null,
    Bool(bool),
    /// Fits in int64 or uint64, as yaml.v2 decodes into `interface{}`.
    Int(i128),
    Float(f64),
    /// A timestamp; decoded into `interface{}` yaml.v2 keeps the text.
    Timestamp,
    Merge,
    Str,
}

pub fn resolve(s: &str) -> Resolved {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Resolved::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Resolved::Float(f64::NEG_INFINITY),
        "<<" => return Resolved::Merge,
        _ => {}
    }
    if is_yaml11_bool(s) {
        return Resolved::Bool(matches!(
            s,
            "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON"
        ));
    }
    match s.as_bytes()[0] {
        b'.' => go_parse_float(s).map_or(Resolved::Str, Resolved::Float),
        b'0'..=b'9' | b'+' | b'-' => {
            if is_timestamp(s) {
                return Resolved::Timestamp;
            }
            let plain: String = s.chars().filter(|&c| c != '_').collect();
            if let Some(v) = parse_go_int(&plain) {
                return Resolved::Int(v);
            }
            if is_yaml_style_float(&plain) {
                if let Some(f) = go_parse_float(&plain) {
                    return Resolved::Float(f);
                }
            }
            let (neg, body) = match plain.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, plain.as_str()),
            };
            if let Some(bits) = body.strip_prefix("0b") {
                if let Ok(v) = i64::from_str_radix(bits, 2) {
                    return Resolved::Int(if neg { -(v as i128) } else { v as i128 });
                }
            }
            Resolved::Str
        }
        _ => Resolved::Str,
    }
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms YAML can produce (no hex floats,
/// no `inf` words: those never reach here because of the first-character hint).
fn go_parse_float(s: &str) -> Option<f64> {
    let ok = s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-' | b'_'));
    if !ok || s.contains('_') {
        return None;
    }
    // Go accepts what Rust accepts here; out-of-range values are ±Inf with an error in Go.
    let f: f64 = s.parse().ok()?;
    f.is_finite().then_some(f)
}

/// Whether yaml.v2 may print `s` plain: it must resolve to a string and not look like a
/// sexagesimal float (`isBase60Float`).
pub fn can_use_plain(s: &str) -> bool {
    matches!(resolve(s), Resolved::Str) && !crate::resolve::is_base60(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml11_table() {
        assert_eq!(resolve("yes"), Resolved::Bool(true));
        assert_eq!(resolve("Off"), Resolved::Bool(false));
        assert_eq!(resolve("n"), Resolved::Bool(false));
        assert_eq!(resolve("0777"), Resolved::Int(511));
        assert_eq!(resolve("0o17"), Resolved::Int(15));
        assert_eq!(resolve("0x1F"), Resolved::Int(31));
        assert_eq!(resolve("1_000"), Resolved::Int(1000));
        assert_eq!(resolve("1e3"), Resolved::Float(1000.0));
        assert_eq!(resolve(".5"), Resolved::Float(0.5));
        assert_eq!(resolve("-0b101"), Resolved::Int(-5));
        assert_eq!(resolve("2001-12-14"), Resolved::Timestamp);
        assert_eq!(resolve("~"), Resolved::Null);
        assert_eq!(
            resolve("12345678901234567890"),
            Resolved::Int(12345678901234567890)
        );
        assert_eq!(resolve("1.2.3"), Resolved::Str);
        assert_eq!(resolve("virgo"), Resolved::Str);
        assert!(matches!(resolve(".inf"), Resolved::Float(f) if f.is_infinite()));
        assert!(!can_use_plain("12:30"));
        assert!(!can_use_plain("on"));
        assert!(can_use_plain("${v}"));
    }
}
