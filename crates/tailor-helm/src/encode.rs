//! Encodings and small conversions of sprig v3.3.0 and Helm's function map: Helm's
//! `toYamlPretty` (go-yaml v3's encoder, indent 2), `toJson` and sprig's `must` JSON forms
//! (Go's `encoding/json`), `semver` (a Masterminds/semver version), `b32enc`/`b32dec`
//! (Go's `base32.StdEncoding`), the `os*` path functions (Go's `path/filepath` on Linux,
//! which is `path`), `plural` and `hello`.

use crate::semver::Version;
use tailor_go::template::json_text;
use tailor_go::Value;
use tailor_yaml::sigs::numbers::go_format_g;
use tailor_yaml::sigs::v2print::natural_cmp;
use tailor_yaml::{emit_node, EmitOptions, Node, Pair};

pub const NAMES: &[&str] = &[
    "toYamlPretty",
    "mustToJson",
    "mustToPrettyJson",
    "mustToRawJson",
    "semver",
    "b32enc",
    "b32dec",
    "osBase",
    "osClean",
    "osDir",
    "osExt",
    "osIsAbs",
    "plural",
    "hello",
];

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    let text = |v: Value| match v {
        Value::String(s) => s,
        _ => String::new(),
    };
    Ok(Value::String(match name {
        "toYamlPretty" => to_yaml_pretty(&next()),
        "mustToJson" => must_json(&next(), true, false)?,
        "mustToPrettyJson" => must_json(&next(), true, true)?,
        "mustToRawJson" => must_json(&next(), false, false)?,
        "semver" => return semver(&text(next())),
        "b32enc" => b32_encode(text(next()).as_bytes()),
        "b32dec" => match b32_decode(text(next()).as_bytes()) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => e,
        },
        "osBase" => base(&text(next())),
        "osClean" => tailor_go::path::clean(&text(next())),
        "osDir" => dir(&text(next())),
        "osExt" => ext(&text(next())).to_string(),
        "osIsAbs" => return Ok(Value::Bool(text(next()).starts_with('/'))),
        "plural" => {
            let (one, many) = (text(next()), text(next()));
            let count = crate::seqs::go_int(&next())?;
            if count == 1 {
                one
            } else {
                many
            }
        }
        "hello" => "Hello!".to_string(),
        _ => return Err(format!("function {name} not defined")),
    }))
}

/// Helm's `toJson`: `json.Marshal`, "" when Go cannot marshal the value.
pub fn to_json_text(v: &Value) -> String {
    json_text(v, true, false).unwrap_or_default()
}

/// sprig's `mustToJson` family: the marshalling error returned.
fn must_json(v: &Value, html: bool, pretty: bool) -> Result<String, String> {
    json_text(v, html, pretty).ok_or_else(|| {
        let bad = first_bad_float(v).unwrap_or(f64::NAN);
        let text = if bad.is_nan() {
            "NaN"
        } else if bad > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        format!("json: unsupported value: {text}")
    })
}

fn first_bad_float(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) if !f.is_finite() => Some(*f),
        Value::List(l) => l.iter().find_map(first_bad_float),
        other => crate::dicts::entries(other)?
            .values()
            .find_map(first_bad_float),
    }
}

/// Helm's `toYAMLPretty`: go-yaml v3's `Encoder` with `SetIndent(2)` (sequences indented
/// under their key), keys in go-yaml's order, the trailing newline cut.
pub fn to_yaml_pretty(v: &Value) -> String {
    let text = emit_node(
        &yaml_node(v),
        EmitOptions {
            wide_sequences: true,
        },
    );
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

/// The node go-yaml v3 marshals a Go value into.
fn yaml_node(v: &Value) -> Node {
    match v {
        Value::Nil => Node::null(),
        Value::Bool(b) => Node::plain(b.to_string()),
        Value::Int(n) => Node::plain(n.to_string()),
        Value::Float(f) => Node::plain(go_format_g(*f)),
        Value::String(s) => Node::string(s.clone()),
        Value::List(l) => Node::sequence(l.iter().map(yaml_node).collect()),
        other => {
            let mut entries: Vec<(String, Value)> = crate::dicts::entries(other)
                .unwrap_or_default()
                .into_iter()
                .collect();
            entries.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            let pairs = entries
                .iter()
                .map(|(k, v)| Pair {
                    key: Node::string(k.clone()),
                    value: yaml_node(v),
                })
                .collect();
            Node::from_pairs(pairs)
        }
    }
}

/// sprig's `semver`: the version as a host object whose fields are its methods' values
/// (`.Major`, `.Minor`, `.Patch`, `.Prerelease`, `.Metadata`, `.Original`), plus `String`.
fn semver(text: &str) -> Result<Value, String> {
    let v = Version::parse(text)?;
    Ok(crate::funcs::object(
        "Version",
        Value::String(text.to_string()),
        vec![
            ("Major", Value::Int(v.major as i64)),
            ("Minor", Value::Int(v.minor as i64)),
            ("Patch", Value::Int(v.patch as i64)),
            ("Prerelease", Value::String(v.pre.clone())),
            ("Metadata", Value::String(v.metadata.clone())),
            ("Original", Value::String(v.original.clone())),
        ],
    ))
}

/// The version a `semver` object was made from.
fn version_of(v: &Value) -> Result<Version, String> {
    let text = match crate::dicts::entries(v).and_then(|mut m| m.remove(crate::funcs::HIDDEN)) {
        Some(Value::String(s)) => s,
        _ => {
            return Err(format!(
                "wrong type for value; expected *semver.Version; got {}",
                crate::sprig::type_of(v)
            ))
        }
    };
    Version::parse(&text)
}

/// The methods of Masterminds/semver's `*Version` that take a version (`Compare`,
/// `LessThan`, `GreaterThan`, `Equal`) and `String`.
pub fn version_method(name: &str, receiver: &Value, args: Vec<Value>) -> Result<Value, String> {
    let v = version_of(receiver)?;
    if name == "String" {
        return Ok(Value::String(canonical(&v)));
    }
    let other = version_of(args.first().unwrap_or(&Value::Nil))?;
    let order = v.compare(&other);
    Ok(match name {
        "Compare" => Value::Int(order as i64),
        "LessThan" => Value::Bool(order.is_lt()),
        "GreaterThan" => Value::Bool(order.is_gt()),
        _ => Value::Bool(order.is_eq()),
    })
}

/// Masterminds/semver `Version.String`: `MAJOR.MINOR.PATCH[-PRE][+META]`.
fn canonical(v: &Version) -> String {
    let mut s = format!("{}.{}.{}", v.major, v.minor, v.patch);
    if !v.pre.is_empty() {
        s = format!("{s}-{}", v.pre);
    }
    if !v.metadata.is_empty() {
        s = format!("{s}+{}", v.metadata);
    }
    s
}

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// `base32.StdEncoding.EncodeToString`.
pub fn b32_encode(src: &[u8]) -> String {
    let mut out = String::new();
    for chunk in src.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let bits = buf.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                out.push(B32[(bits >> (35 - 5 * i) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base32.StdEncoding.DecodeString`: line breaks skipped, an 8-character quantum at a
/// time, padding only at the end; errors as Go words them (`illegal base32 data at input
/// byte N`).
pub fn b32_decode(src: &[u8]) -> Result<Vec<u8>, String> {
    let illegal = |at: usize| format!("illegal base32 data at input byte {at}");
    let chars: Vec<(usize, u8)> = src
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, c)| c != b'\r' && c != b'\n')
        .collect();
    let mut out = Vec::new();
    for (q, quantum) in chars.chunks(8).enumerate() {
        if quantum.len() < 8 {
            return Err(illegal(src.len().min(quantum[0].0 + quantum.len())));
        }
        let pad = quantum.iter().rev().take_while(|(_, c)| *c == b'=').count();
        let valid_pad = matches!(pad, 0 | 1 | 3 | 4 | 6);
        if pad > 0 && (!valid_pad || (q + 1) * 8 != chars.len()) {
            return Err(illegal(quantum[8 - pad].0));
        }
        let mut bits = 0u64;
        for &(at, c) in &quantum[..8 - pad] {
            let Some(v) = B32.iter().position(|&b| b == c) else {
                return Err(illegal(at));
            };
            bits = bits << 5 | v as u64;
        }
        bits <<= 5 * pad as u32;
        let bytes = (8 - pad) * 5 / 8;
        out.extend((0..bytes).map(|i| (bits >> (32 - 8 * i)) as u8));
    }
    Ok(out)
}

/// Go's `path.Base` (= `filepath.Base` on Linux).
fn base(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return "/".into();
    }
    p.rsplit('/').next().unwrap_or(p).to_string()
}

/// Go's `filepath.Dir`: everything up to the last separator, cleaned.
fn dir(p: &str) -> String {
    let cut = p.rfind('/').map_or(0, |i| i + 1);
    tailor_go::path::clean(&p[..cut])
}

/// Go's `filepath.Ext`: from the last dot of the last element.
fn ext(p: &str) -> &str {
    match p.rfind(['.', '/']) {
        Some(i) if p.as_bytes()[i] == b'.' => &p[i..],
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's encoding/base32 example (RFC 4648 test vectors, `base32_test.go` pairs).
    #[test]
    fn base32_rfc4648_vectors() {
        for (plain, enc) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ] {
            assert_eq!(b32_encode(plain.as_bytes()), enc);
            assert_eq!(b32_decode(enc.as_bytes()).unwrap(), plain.as_bytes());
        }
        assert_eq!(
            b32_decode(b"MZXW6YT!").unwrap_err(),
            "illegal base32 data at input byte 7"
        );
    }

    /// Go's path_test.go / filepath_test.go (unix) base, dir and ext tables, in part.
    #[test]
    fn go_path_tables() {
        for (p, b) in [
            ("", "."),
            (".", "."),
            ("/.", "."),
            ("/", "/"),
            ("////", "/"),
            ("x/", "x"),
            ("abc", "abc"),
            ("abc/def", "def"),
            ("a/b/.x", ".x"),
            ("a/b/c.", "c."),
            ("a/b/c.x", "c.x"),
        ] {
            assert_eq!(base(p), b, "{p}");
        }
        for (p, d) in [
            ("", "."),
            (".", "."),
            ("/.", "/"),
            ("/", "/"),
            ("////", "/"),
            ("/foo", "/"),
            ("x/", "x"),
            ("abc", "."),
            ("abc/def", "abc"),
            ("a/b/.x", "a/b"),
            ("a/b/c.", "a/b"),
            ("a/b/c.x", "a/b"),
        ] {
            assert_eq!(dir(p), d, "{p}");
        }
        for (p, e) in [
            ("path.go", ".go"),
            ("path.pb.go", ".go"),
            ("a.dir/b", ""),
            ("a.dir/b.go", ".go"),
            ("a.dir/", ""),
        ] {
            assert_eq!(ext(p), e, "{p}");
        }
    }

    /// Helm's `toJson` is Go's `json.Marshal`; expected texts printed by Go 1.19's
    /// encoding/json for the same float64 values.
    #[test]
    fn to_json_prints_floats_as_go() {
        for (f, want) in [
            (1.0, "1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789.0, "123456789"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.5, "1.5"),
            (3.0e-7, "3e-7"),
            (1e100, "1e+100"),
            (-2.5e-10, "-2.5e-10"),
            (100.0, "100"),
        ] {
            assert_eq!(to_json_text(&Value::Float(f)), want, "{f}");
        }
        let m = Value::Map(
            [
                ("a".to_string(), Value::Float(2.0)),
                (
                    "b".to_string(),
                    Value::List(vec![Value::Float(1.0), Value::String("<x&y>".into())]),
                ),
            ]
            .into_iter()
            .collect(),
        );
        assert_eq!(
            to_json_text(&m),
            r#"{"a":2,"b":[1,"\u003cx\u0026y\u003e"]}"#
        );
        assert_eq!(to_json_text(&Value::Float(f64::NAN)), "");
        assert_eq!(
            must_json(&Value::Float(f64::INFINITY), true, false).unwrap_err(),
            "json: unsupported value: +Inf"
        );
    }
}
