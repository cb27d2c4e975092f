//! The sprig v3 functions (`github.com/Masterminds/sprig/v3`, `TxtFuncMap`) that templates of
//! Helm values commonly use, as Fleet adds them to its values templating: the string, default,
//! encoding, JSON and path functions ([`SPRIG_IMPLEMENTED`]). Every other sprig name is
//! defined (so templates parse as they do in Go) and fails when called, naming the function:
//! most of them build lists or maps, which this template model only reads.

use std::borrow::Cow;

use super::exec::{CallError, State};
use super::fmt::sprint;
use super::funcs::{ParamType, Signature};
use super::value::{is_true, Conc, Val, Value};
use crate::strconv::{append_float, quote_bytes};
use crate::strings::map_runes;
use crate::unicode::{is_digit, is_letter, to_lower, to_upper};

/// The sprig functions tailor implements.
pub const SPRIG_IMPLEMENTED: &[&str] = &[
    "upper",
    "lower",
    "title",
    "trim",
    "trimAll",
    "trimall",
    "trimPrefix",
    "trimSuffix",
    "nospace",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "replace",
    "quote",
    "squote",
    "cat",
    "indent",
    "nindent",
    "trunc",
    "repeat",
    "toString",
    "join",
    "default",
    "empty",
    "coalesce",
    "ternary",
    "hasKey",
    "toJson",
    "toRawJson",
    "toPrettyJson",
    "b64enc",
    "b64dec",
    "base",
    "dir",
    "clean",
    "ext",
    "isAbs",
    "fail",
];

/// Every name in sprig v3's `genericMap`.
const SPRIG: &[&str] = &[
    "hello",
    "ago",
    "date",
    "date_in_zone",
    "date_modify",
    "dateInZone",
    "dateModify",
    "duration",
    "durationRound",
    "htmlDate",
    "htmlDateInZone",
    "must_date_modify",
    "mustDateModify",
    "mustToDate",
    "now",
    "toDate",
    "unixEpoch",
    "abbrev",
    "abbrevboth",
    "trunc",
    "trim",
    "upper",
    "lower",
    "title",
    "untitle",
    "substr",
    "repeat",
    "trimall",
    "trimAll",
    "trimSuffix",
    "trimPrefix",
    "nospace",
    "initials",
    "randAlphaNum",
    "randAlpha",
    "randAscii",
    "randNumeric",
    "randSeededNumeric",
    "swapcase",
    "shuffle",
    "snakecase",
    "camelcase",
    "kebabcase",
    "wrap",
    "wrapWith",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "quote",
    "squote",
    "cat",
    "indent",
    "nindent",
    "replace",
    "plural",
    "sha1sum",
    "sha256sum",
    "adler32sum",
    "toString",
    "atoi",
    "int64",
    "int",
    "float64",
    "seq",
    "toDecimal",
    "split",
    "splitList",
    "splitn",
    "toStrings",
    "until",
    "untilStep",
    "add1",
    "add",
    "sub",
    "div",
    "mod",
    "mul",
    "randInt",
    "add1f",
    "addf",
    "subf",
    "divf",
    "mulf",
    "biggest",
    "max",
    "min",
    "maxf",
    "minf",
    "ceil",
    "floor",
    "round",
    "join",
    "sortAlpha",
    "default",
    "empty",
    "coalesce",
    "all",
    "any",
    "compact",
    "mustCompact",
    "fromJson",
    "toJson",
    "toPrettyJson",
    "toRawJson",
    "mustFromJson",
    "mustToJson",
    "mustToPrettyJson",
    "mustToRawJson",
    "ternary",
    "deepCopy",
    "mustDeepCopy",
    "typeOf",
    "typeIs",
    "typeIsLike",
    "kindOf",
    "kindIs",
    "deepEqual",
    "env",
    "expandenv",
    "getHostByName",
    "base",
    "dir",
    "clean",
    "ext",
    "isAbs",
    "osBase",
    "osClean",
    "osDir",
    "osExt",
    "osIsAbs",
    "b64enc",
    "b64dec",
    "b32enc",
    "b32dec",
    "tuple",
    "list",
    "dict",
    "get",
    "set",
    "unset",
    "hasKey",
    "pluck",
    "keys",
    "pick",
    "omit",
    "merge",
    "mergeOverwrite",
    "mustMerge",
    "mustMergeOverwrite",
    "values",
    "append",
    "push",
    "mustAppend",
    "mustPush",
    "prepend",
    "mustPrepend",
    "first",
    "mustFirst",
    "rest",
    "mustRest",
    "last",
    "mustLast",
    "initial",
    "mustInitial",
    "reverse",
    "mustReverse",
    "uniq",
    "mustUniq",
    "without",
    "mustWithout",
    "has",
    "mustHas",
    "slice",
    "mustSlice",
    "concat",
    "dig",
    "chunk",
    "mustChunk",
    "bcrypt",
    "htpasswd",
    "genPrivateKey",
    "derivePassword",
    "buildCustomCert",
    "genCA",
    "genCAWithKey",
    "genSelfSignedCert",
    "genSelfSignedCertWithKey",
    "genSignedCert",
    "genSignedCertWithKey",
    "encryptAES",
    "decryptAES",
    "randBytes",
    "uuidv4",
    "semver",
    "semverCompare",
    "fail",
    "regexMatch",
    "mustRegexMatch",
    "regexFindAll",
    "mustRegexFindAll",
    "regexFind",
    "mustRegexFind",
    "regexReplaceAll",
    "mustRegexReplaceAll",
    "regexReplaceAllLiteral",
    "mustRegexReplaceAllLiteral",
    "regexSplit",
    "mustRegexSplit",
    "regexQuoteMeta",
    "urlParse",
    "urlJoin",
];

pub(crate) fn is_sprig(name: &str) -> bool {
    SPRIG.contains(&name)
}

/// The Go signature of a sprig function, as far as argument checking needs it. `int` and `bool`
/// parameters are taken as values and checked by the function.
pub(crate) fn signature(name: &str) -> Signature {
    use ParamType::*;
    let (params, variadic): (&'static [ParamType], bool) = match name {
        "upper" | "lower" | "title" | "trim" | "nospace" | "b64enc" | "b64dec" | "base" | "dir"
        | "clean" | "ext" | "isAbs" | "fail" => (&[String], false),
        "trimAll" | "trimall" | "trimPrefix" | "trimSuffix" | "contains" | "hasPrefix"
        | "hasSuffix" => (&[String, String], false),
        "replace" => (&[String, String, String], false),
        "indent" | "nindent" | "trunc" | "repeat" => (&[Value, String], false),
        "quote" | "squote" | "cat" | "coalesce" => (&[Any], true),
        "toString" | "empty" | "toJson" | "toRawJson" | "toPrettyJson" => (&[Any], false),
        "join" => (&[String, Any], false),
        "default" => (&[Any, Any], true),
        "ternary" => (&[Any, Any, Value], false),
        "hasKey" => (&[Value, String], false),
        // Not implemented: any arguments, and the call fails naming the function.
        _ => (&[Any], true),
    };
    Signature { params, variadic }
}

type CR<'a> = Result<Val<'a>, CallError>;

fn msg<T>(m: impl Into<String>) -> Result<T, CallError> {
    Err(CallError::Msg(m.into()))
}

fn string<'a>(s: &mut State<'a, '_>, b: Vec<u8>) -> CR<'a> {
    s.charge(b.len())?;
    Ok(Val::C(Conc::owned_str(b)))
}

fn boolean<'a>(b: bool) -> CR<'a> {
    Ok(Val::C(Conc::Bool(b)))
}

/// The bytes of a `string` parameter.
fn text<'v>(v: &'v Val<'_>) -> &'v [u8] {
    match v {
        Val::C(Conc::Str(s)) | Val::Iface(Some(Conc::Str(s))) => s,
        _ => b"",
    }
}

/// An `int` parameter.
fn int(v: &Val<'_>) -> Result<i64, CallError> {
    match v {
        Val::C(Conc::Int(n)) | Val::Iface(Some(Conc::Int(n))) => Ok(*n),
        Val::C(c) | Val::Iface(Some(c)) => msg(format!(
            "wrong type for value; expected int; got {}",
            c.type_name()
        )),
        _ => msg("invalid value; expected int"),
    }
}

/// sprig's `strval`: a string as it is, anything else as `%v` (nil is `<nil>`).
fn strval(v: &Val<'_>) -> Vec<u8> {
    match v {
        Val::C(Conc::Str(s)) | Val::Iface(Some(Conc::Str(s))) => s.to_vec(),
        other => sprint(&[other.clone().into_any()]),
    }
}

fn is_nil(v: &Val<'_>) -> bool {
    matches!(v, Val::Invalid | Val::Iface(None))
}

/// sprig's `empty`.
fn empty(v: &Val<'_>) -> bool {
    !is_true(&v.clone().indirect_interface())
}

pub(crate) fn call<'a>(s: &mut State<'a, '_>, name: &str, argv: Vec<Val<'a>>) -> CR<'a> {
    let arg = |i: usize| argv.get(i).cloned().unwrap_or(Val::Invalid);
    let lossy = |i: usize| String::from_utf8_lossy(text(&argv[i])).into_owned();
    match name {
        "upper" => string(s, map_runes(text(&argv[0]), to_upper)),
        "lower" => string(s, map_runes(text(&argv[0]), to_lower)),
        "title" => string(s, title(&lossy(0)).into_bytes()),
        "trim" => string(s, lossy(0).trim_matches(is_space).as_bytes().to_vec()),
        "nospace" => string(
            s,
            lossy(0)
                .chars()
                .filter(|c| !is_space(*c))
                .collect::<String>()
                .into_bytes(),
        ),
        "trimAll" | "trimall" => {
            let cut: Vec<char> = lossy(0).chars().collect();
            string(
                s,
                lossy(1)
                    .trim_matches(|c| cut.contains(&c))
                    .as_bytes()
                    .to_vec(),
            )
        }
        "trimPrefix" => {
            let (p, v) = (text(&argv[0]), text(&argv[1]));
            string(s, v.strip_prefix(p).unwrap_or(v).to_vec())
        }
        "trimSuffix" => {
            let (p, v) = (text(&argv[0]), text(&argv[1]));
            string(s, v.strip_suffix(p).unwrap_or(v).to_vec())
        }
        "contains" => boolean(find(text(&argv[1]), text(&argv[0]))),
        "hasPrefix" => boolean(text(&argv[1]).starts_with(text(&argv[0]))),
        "hasSuffix" => boolean(text(&argv[1]).ends_with(text(&argv[0]))),
        "replace" => string(
            s,
            crate::strings::replace(text(&argv[2]), text(&argv[0]), text(&argv[1]), -1),
        ),
        "quote" => {
            let parts: Vec<Vec<u8>> = argv
                .iter()
                .filter(|v| !is_nil(v))
                .map(|v| quote_bytes(&strval(v)))
                .collect();
            string(s, parts.join(&b' '))
        }
        "squote" => {
            let parts: Vec<Vec<u8>> = argv
                .iter()
                .filter(|v| !is_nil(v))
                .map(|v| [b"'".as_slice(), &strval(v), b"'"].concat())
                .collect();
            string(s, parts.join(&b' '))
        }
        "cat" => {
            let parts: Vec<Vec<u8>> = argv
                .iter()
                .filter(|v| !is_nil(v))
                .map(|v| sprint(&[v.clone().into_any()]))
                .collect();
            string(s, parts.join(&b' '))
        }
        "indent" | "nindent" => {
            let n = int(&argv[0])?;
            let Ok(n) = usize::try_from(n) else {
                return msg("strings: negative Repeat count");
            };
            // The padding goes in once per line: count it before building anything.
            let lines = text(&argv[1]).iter().filter(|&&b| b == b'\n').count() + 1;
            s.charge(n.saturating_mul(lines))?;
            let pad = " ".repeat(n);
            let v =
                crate::strings::replace(text(&argv[1]), b"\n", format!("\n{pad}").as_bytes(), -1);
            let lead = if name == "nindent" { "\n" } else { "" };
            string(s, [lead.as_bytes(), pad.as_bytes(), &v].concat())
        }
        "trunc" => {
            let c = int(&argv[0])?;
            let v = text(&argv[1]);
            let len = v.len() as i64;
            let out = if c < 0 && len + c > 0 {
                &v[(len + c) as usize..]
            } else if c >= 0 && len > c {
                &v[..c as usize]
            } else {
                v
            };
            string(s, out.to_vec())
        }
        "repeat" => {
            let n = int(&argv[0])?;
            if n < 0 {
                return msg("strings: negative Repeat count");
            }
            let v = text(&argv[1]);
            let total = v.len().saturating_mul(n as usize);
            s.charge(total)?;
            Ok(Val::C(Conc::owned_str(v.repeat(n as usize))))
        }
        "toString" => string(s, strval(&arg(0))),
        "join" => {
            let parts = strslice(&arg(1));
            string(s, parts.join(text(&argv[0])))
        }
        "default" => {
            let given = arg(1);
            if argv.len() < 2 || empty(&given) {
                Ok(arg(0))
            } else {
                Ok(given)
            }
        }
        "empty" => boolean(empty(&arg(0))),
        "coalesce" => Ok(argv
            .iter()
            .find(|v| !empty(v))
            .cloned()
            .unwrap_or(Val::Invalid)),
        "ternary" => match arg(2).indirect_interface() {
            Val::C(Conc::Bool(true)) => Ok(arg(0)),
            Val::C(Conc::Bool(false)) => Ok(arg(1)),
            other => msg(format!(
                "wrong type for value; expected bool; got {}",
                other.type_name()
            )),
        },
        "hasKey" => match arg(0).indirect_interface() {
            Val::C(Conc::Map(m)) => boolean(m.contains_key(&lossy(1))),
            Val::C(Conc::Dict(d)) => boolean(d.contains_key(&lossy(1))),
            Val::Invalid => boolean(false),
            other => msg(format!(
                "wrong type for value; expected map[string]interface {{}}; got {}",
                other.type_name()
            )),
        },
        "toJson" | "toRawJson" | "toPrettyJson" => {
            let mut out = Vec::new();
            let ok = json(
                &arg(0).into_any(),
                &mut out,
                name != "toRawJson",
                if name == "toPrettyJson" {
                    Some(0)
                } else {
                    None
                },
            );
            // sprig ignores the marshalling error and returns "".
            string(s, if ok { out } else { Vec::new() })
        }
        "b64enc" => string(s, base64_encode(text(&argv[0])).into_bytes()),
        "b64dec" => match crate::base64::decode_std(text(&argv[0])) {
            Ok(b) => string(s, b),
            Err(e) => string(s, e.to_string().into_bytes()),
        },
        "base" => string(s, path_base(&lossy(0)).into_bytes()),
        "dir" => string(s, path_dir(&lossy(0)).into_bytes()),
        "clean" => string(s, crate::path::clean(&lossy(0)).into_bytes()),
        "ext" => {
            let p = lossy(0);
            let ext = p
                .rfind(['.', '/'])
                .filter(|&i| p.as_bytes()[i] == b'.')
                .map_or("", |i| &p[i..]);
            string(s, ext.as_bytes().to_vec())
        }
        "isAbs" => boolean(text(&argv[0]).starts_with(b"/")),
        "fail" => msg(lossy(0)),
        _ => msg(format!(
            "the sprig function {name:?} is not implemented by tailor (it implements {})",
            SPRIG_IMPLEMENTED.join(", ")
        )),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// `unicode.IsSpace`.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    ) || (c as u32 > 0xff && c.is_whitespace())
}

/// `strings.Title`: the first letter of each word upper-cased.
fn title(s: &str) -> String {
    let separator = |r: char| -> bool {
        if (r as u32) <= 0x7f {
            return !(r.is_ascii_alphanumeric() || r == '_');
        }
        if is_letter(r) || is_digit(r) {
            return false;
        }
        is_space(r)
    };
    let mut prev = ' ';
    s.chars()
        .map(|r| {
            let out = if separator(prev) { to_upper(r) } else { r };
            prev = r;
            out
        })
        .collect()
}

/// sprig's `strslice`: a list's non-nil elements as `strval`, nil as none, anything else as one.
fn strslice(v: &Val<'_>) -> Vec<Vec<u8>> {
    match v.clone().indirect_interface() {
        Val::C(Conc::List(l)) => l
            .iter()
            .filter_map(Conc::from_elem)
            .map(|c| strval(&Val::C(c)))
            .collect(),
        Val::Invalid => Vec::new(),
        other => vec![strval(&other)],
    }
}

/// `path.Base`.
fn path_base(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

/// `path.Dir`.
fn path_dir(p: &str) -> String {
    let dir = match p.rfind('/') {
        Some(i) => &p[..=i],
        None => "",
    };
    crate::path::clean(dir)
}

fn base64_encode(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `encoding/json` marshalling of a value: `html` escapes `<`, `>`, `&` (json.Marshal does,
/// sprig's toRawJson does not); `indent` is the current depth for `MarshalIndent(v, "", "  ")`.
/// False when Go would fail (a complex number, NaN, an infinity).
/// `encoding/json`'s `Marshal` (`html`: escape `<`, `>`, `&` as Go does by default) or
/// `MarshalIndent(v, "", "  ")` (`pretty`); `None` where Go's marshalling fails (NaN or
/// infinite floats).
pub fn json_text(v: &Value, html: bool, pretty: bool) -> Option<String> {
    let mut out = Vec::new();
    let ok = json(&Conc::from_elem(v), &mut out, html, pretty.then_some(0));
    ok.then(|| String::from_utf8_lossy(&out).into_owned())
}

fn json(v: &Option<Conc<'_>>, out: &mut Vec<u8>, html: bool, indent: Option<usize>) -> bool {
    let Some(c) = v else {
        out.extend_from_slice(b"null");
        return true;
    };
    match c {
        Conc::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Conc::Int(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Conc::Uint8(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Conc::Float(f) => return json_float(*f, out),
        Conc::Complex(..) => return false,
        Conc::Str(s) => json_string(s, out, html),
        Conc::List(l) => {
            let items: Vec<Option<Conc<'_>>> = l.iter().map(Conc::from_elem).collect();
            return json_seq(b'[', b']', items.len(), out, indent, |i, out, ind| {
                json(&items[i], out, html, ind)
            });
        }
        Conc::Map(m) => {
            let entries: Vec<(&String, &Value)> = m.iter().collect();
            return json_seq(b'{', b'}', entries.len(), out, indent, |i, out, ind| {
                json_string(entries[i].0.as_bytes(), out, html);
                out.extend_from_slice(if ind.is_some() { b": " } else { b":" });
                json(&Conc::from_elem(entries[i].1), out, html, ind)
            });
        }
        Conc::Dict(d) => {
            let m = d.snapshot();
            return json(&Some(Conc::Map(&m)), out, html, indent);
        }
        Conc::StrMap(m) => {
            let entries: Vec<(&String, &String)> = m.iter().collect();
            return json_seq(b'{', b'}', entries.len(), out, indent, |i, out, ind| {
                json_string(entries[i].0.as_bytes(), out, html);
                out.extend_from_slice(if ind.is_some() { b": " } else { b":" });
                json_string(entries[i].1.as_bytes(), out, html);
                true
            });
        }
    }
    true
}

fn json_seq(
    open: u8,
    close: u8,
    n: usize,
    out: &mut Vec<u8>,
    indent: Option<usize>,
    mut item: impl FnMut(usize, &mut Vec<u8>, Option<usize>) -> bool,
) -> bool {
    out.push(open);
    if n == 0 {
        out.push(close);
        return true;
    }
    let inner = indent.map(|d| d + 1);
    for i in 0..n {
        if i > 0 {
            out.push(b',');
        }
        if let Some(d) = inner {
            out.push(b'\n');
            out.resize(out.len() + 2 * d, b' ');
        }
        if !item(i, out, inner) {
            return false;
        }
    }
    if let Some(d) = indent {
        out.push(b'\n');
        out.resize(out.len() + 2 * d, b' ');
    }
    out.push(close);
    true
}

fn json_float(f: f64, out: &mut Vec<u8>) -> bool {
    if !f.is_finite() {
        return false;
    }
    let abs = f.abs();
    let fmt = if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        b'e'
    } else {
        b'f'
    };
    let start = out.len();
    append_float(out, f, fmt, -1);
    if fmt == b'e' {
        let n = out.len();
        if n - start >= 4 && out[n - 4] == b'e' && out[n - 3] == b'-' && out[n - 2] == b'0' {
            out[n - 2] = out[n - 1];
            out.truncate(n - 1);
        }
    }
    true
}

fn json_string(s: &[u8], out: &mut Vec<u8>, html: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let text: Cow<'_, str> = String::from_utf8_lossy(s);
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '<' | '>' | '&' if html => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(c as usize) >> 4]);
                out.push(HEX[(c as usize) & 15]);
            }
            '\u{2028}' => out.extend_from_slice(b"\\u2028"),
            '\u{2029}' => out.extend_from_slice(b"\\u2029"),
            c if (c as u32) < 0x20 => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(c as usize) >> 4]);
                out.push(HEX[(c as usize) & 15]);
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::template::{ExecOptions, MissingKey, Syntax, Template};
    use crate::Value;

    fn fleet() -> Syntax {
        Syntax {
            left_delim: "${".into(),
            right_delim: "}".into(),
            sprig: true,
            without: vec!["env".into(), "expandenv".into(), "getHostByName".into()],
            host: Vec::new(),
        }
    }

    fn run(text: &str, data: &Value) -> Result<String, String> {
        let t = Template::parse_with("values", text, &fleet()).map_err(|e| e.message)?;
        let mut out = String::new();
        let opts = ExecOptions {
            missing_key: MissingKey::Error,
            ..ExecOptions::default()
        };
        t.execute(data, &opts, &mut out).map_err(|e| e.message)?;
        Ok(out)
    }

    fn data() -> Value {
        let labels: BTreeMap<String, Value> = [
            ("name".to_string(), Value::from("local")),
            ("envType".to_string(), Value::from("dev")),
        ]
        .into_iter()
        .collect();
        let values: BTreeMap<String, Value> = [
            ("topLevel".to_string(), Value::from("foo")),
            (
                "list".to_string(),
                Value::List(vec!["alpha".into(), "beta".into(), "omega".into()]),
            ),
        ]
        .into_iter()
        .collect();
        Value::Map(
            [
                ("ClusterLabels".to_string(), Value::Map(labels)),
                ("ClusterValues".to_string(), Value::Map(values)),
                ("ClusterName".to_string(), Value::from("my-cluster")),
            ]
            .into_iter()
            .collect(),
        )
    }

    /// Fleet's target_test.go TestProcessTemplateValues, the functions it uses.
    #[test]
    fn fleet_template_values_functions() {
        let d = data();
        assert_eq!(
            run("${ .ClusterValues.topLevel | upper }_test", &d).unwrap(),
            "FOO_test"
        );
        assert_eq!(
            run(r#"${ .ClusterValues.list | join "," }"#, &d).unwrap(),
            "alpha,beta,omega"
        );
        assert_eq!(
            run(
                r#"${ if hasKey .ClusterLabels "missing" }${ .ClusterLabels.missing }${ else }missing${ end}"#,
                &d
            )
            .unwrap(),
            "missing"
        );
        assert_eq!(
            run("${- range $key, $val := .ClusterLabels }\n- name: ${ $key }\n  value: ${ $val | quote }\n${- end}", &d).unwrap(),
            "\n- name: envType\n  value: \"dev\"\n- name: name\n  value: \"local\""
        );
        assert_eq!(
            run(r#"${ index .ClusterLabels "name" }"#, &d).unwrap(),
            "local"
        );
    }

    #[test]
    fn delimiters_and_missing_keys() {
        let d = data();
        // `{{ }}` is text under `${ }` delimiters.
        assert_eq!(
            run("{{ .x }}-${ .ClusterName }", &d).unwrap(),
            "{{ .x }}-my-cluster"
        );
        assert_eq!(
            run("${ .ClusterLabels.nope }", &d).unwrap_err(),
            "template: values:1:17: executing \"values\" at <.ClusterLabels.nope>: map has no entry for key \"nope\""
        );
        assert_eq!(
            run("${ non_existent_function }", &d).unwrap_err(),
            "template: values:1: function \"non_existent_function\" not defined"
        );
        assert_eq!(
            run("${ env \"HOME\" }", &d).unwrap_err(),
            "template: values:1: function \"env\" not defined"
        );
        let e = run("${ list 1 2 3 | toJson }", &d).unwrap_err();
        assert!(
            e.contains(
                "error calling list: the sprig function \"list\" is not implemented by tailor"
            ),
            "{e}"
        );
        // Defined but never called: no error, as in Go.
        assert_eq!(run("${ if false }${ list 1 }${ end }ok", &d).unwrap(), "ok");
    }

    #[test]
    fn string_and_default_functions() {
        let d = data();
        let cases = [
            (r#"${ "a b_c" | title }"#, "A B_c"),
            (r#"${ "  x  " | trim }"#, "x"),
            (r#"${ trimAll "$" "$$x$" }"#, "x"),
            (r#"${ "foobar" | trimPrefix "foo" }"#, "bar"),
            (r#"${ "foobar" | trimSuffix "bar" }"#, "foo"),
            (r#"${ "foobar" | contains "oba" }"#, "true"),
            (r#"${ "a-b-c" | replace "-" "_" }"#, "a_b_c"),
            (r#"${ squote "x" 3 }"#, "'x' '3'"),
            (r#"${ cat "a" 1 nil "b" }"#, "a 1 b"),
            (r#"${ "a\nb" | indent 2 }"#, "  a\n  b"),
            (r#"${ "a" | nindent 2 }"#, "\n  a"),
            (r#"${ trunc 3 "abcdef" }"#, "abc"),
            (r#"${ trunc -2 "abcdef" }"#, "ef"),
            (r#"${ repeat 3 "ab" }"#, "ababab"),
            (r#"${ repeat 9223372036854775807 "" }"#, ""),
            (r#"${ .ClusterLabels.name | default "d" }"#, "local"),
            (r#"${ "" | default "d" }"#, "d"),
            (r#"${ coalesce "" .ClusterName }"#, "my-cluster"),
            (r#"${ ternary "y" "n" true }"#, "y"),
            (r#"${ empty "" }"#, "true"),
            (
                r#"${ .ClusterValues | toJson }"#,
                r#"{"list":["alpha","beta","omega"],"topLevel":"foo"}"#,
            ),
            (r#"${ "<a&b>" | toJson }"#, r#""\u003ca\u0026b\u003e""#),
            (r#"${ "<a>" | toRawJson }"#, r#""<a>""#),
            (
                r#"${ .ClusterValues.list | toPrettyJson }"#,
                "[\n  \"alpha\",\n  \"beta\",\n  \"omega\"\n]",
            ),
            (r#"${ "hi" | b64enc }"#, "aGk="),
            (r#"${ "aGk=" | b64dec }"#, "hi"),
            (
                r#"${ base "a/b.c" } ${ dir "a/b.c" } ${ ext "a/b.c" }"#,
                "b.c a .c",
            ),
            (r#"${ toString 1.5 }"#, "1.5"),
        ];
        for (t, want) in cases {
            assert_eq!(run(t, &d).unwrap(), want, "{t}");
        }
        // Huge counts hit the output limit before anything is built.
        for t in [
            r#"${ indent 9223372036854775807 "a" }"#,
            r#"${ repeat 9223372036854775807 "ab" }"#,
        ] {
            assert!(run(t, &d).unwrap_err().contains("limit"), "{t}");
        }
        assert!(run(r#"${ indent -1 "a" }"#, &d)
            .unwrap_err()
            .contains("negative Repeat count"));
        assert_eq!(
            run(r#"${ fail "stop" }"#, &d).unwrap_err(),
            "template: values:1:3: executing \"values\" at <fail \"stop\">: error calling fail: stop"
        );
    }
}
