//! More of the function map charts use (Masterminds/sprig v3.3.0 `functions.go` and Helm's
//! `pkg/engine/funcs.go`): semver, the regex family, digests, `dig`, `pluck`, string
//! splitting, rounding, TOML; and the functions tailor refuses, each with its reason (they
//! read the clock, a random source or the network, so `helm template` itself gives other
//! output on every run, and tailor's output must be the same twice).

use crate::dicts::entries;
use crate::semver::{Constraints, Version};
use std::collections::BTreeMap;
use tailor_go::template::ParamType;
use tailor_go::{Dict, Value};

pub const NAMES: &[&str] = &[
    "semverCompare",
    "regexMatch",
    "mustRegexMatch",
    "regexFind",
    "mustRegexFind",
    "regexFindAll",
    "mustRegexFindAll",
    "regexReplaceAll",
    "mustRegexReplaceAll",
    "regexReplaceAllLiteral",
    "mustRegexReplaceAllLiteral",
    "regexSplit",
    "mustRegexSplit",
    "regexQuoteMeta",
    "sha256sum",
    "sha1sum",
    "adler32sum",
    "dig",
    "pluck",
    "sortAlpha",
    "split",
    "splitn",
    "substr",
    "tuple",
    "ceil",
    "floor",
    "round",
    "biggest",
    "all",
    "any",
    "deepEqual",
    "typeIs",
    "typeIsLike",
    "toToml",
    "fromToml",
];

/// `must` variants that behave as the function tailor already has (sprig's plain variant
/// panics where the `must` one returns the error: the template error is the same).
pub const MUST_ALIASES: &[(&str, &str)] = &[
    ("mustAppend", "append"),
    ("mustPush", "push"),
    ("mustPrepend", "prepend"),
    ("mustFirst", "first"),
    ("mustLast", "last"),
    ("mustRest", "rest"),
    ("mustInitial", "initial"),
    ("mustReverse", "reverse"),
    ("mustUniq", "uniq"),
    ("mustWithout", "without"),
    ("mustHas", "has"),
    ("mustCompact", "compact"),
    ("mustDeepCopy", "deepCopy"),
    ("mustMerge", "merge"),
    ("mustMergeOverwrite", "mergeOverwrite"),
    ("mustFromJson", "fromJson"),
];

/// Functions tailor refuses, and why.
pub const REFUSED: &[(&str, &str)] = &[
    ("now", CLOCK),
    ("date", CLOCK),
    ("dateInZone", CLOCK),
    ("date_in_zone", CLOCK),
    ("dateModify", CLOCK),
    ("date_modify", CLOCK),
    ("mustDateModify", CLOCK),
    ("must_date_modify", CLOCK),
    ("ago", CLOCK),
    ("duration", CLOCK),
    ("durationRound", CLOCK),
    ("htmlDate", CLOCK),
    ("htmlDateInZone", CLOCK),
    ("toDate", CLOCK),
    ("mustToDate", CLOCK),
    ("unixEpoch", CLOCK),
    ("randAlphaNum", RANDOM),
    ("randAlpha", RANDOM),
    ("randAscii", RANDOM),
    ("randNumeric", RANDOM),
    ("randInt", RANDOM),
    ("randBytes", RANDOM),
    ("shuffle", RANDOM),
    ("uuidv4", RANDOM),
    ("genPrivateKey", RANDOM),
    ("genCA", RANDOM),
    ("genCAWithKey", RANDOM),
    ("genSelfSignedCert", RANDOM),
    ("genSelfSignedCertWithKey", RANDOM),
    ("genSignedCert", RANDOM),
    ("genSignedCertWithKey", RANDOM),
    ("buildCustomCert", RANDOM),
    ("bcrypt", RANDOM),
    ("htpasswd", RANDOM),
    ("encryptAES", RANDOM),
    (
        "getHostByName",
        "it asks DNS, which an offline render cannot",
    ),
];

const CLOCK: &str = "it reads the clock (times are Go time.Time values tailor does not model), so helm template prints other text on every run; tailor's output must be the same twice";
const RANDOM: &str = "it draws random data, so helm template prints other text on every run; tailor's output must be the same twice (render the secret or certificate once and pass it as a value)";

pub fn signature(name: &str) -> Option<(&'static [ParamType], bool)> {
    use ParamType::{Any, String as S};
    if REFUSED.iter().any(|(n, _)| *n == name) {
        return Some((&[Any], true));
    }
    Some(match name {
        "semverCompare" | "regexMatch" | "mustRegexMatch" | "regexFind" | "mustRegexFind" => {
            (&[S, S], false)
        }
        "regexFindAll" | "mustRegexFindAll" | "regexSplit" | "mustRegexSplit" => {
            (&[S, S, Any], false)
        }
        "regexReplaceAll"
        | "mustRegexReplaceAll"
        | "regexReplaceAllLiteral"
        | "mustRegexReplaceAllLiteral" => (&[S, S, S], false),
        "regexQuoteMeta" | "sha256sum" | "sha1sum" | "adler32sum" | "fromToml" => (&[S], false),
        "split" => (&[S, S], false),
        "splitn" => (&[S, Any, S], false),
        "substr" => (&[Any, Any, S], false),
        "dig" | "pluck" | "tuple" | "biggest" | "all" | "any" => (&[Any], true),
        "round" => (&[Any, Any, Any], true),
        "deepEqual" => (&[Any, Any], false),
        "typeIs" | "typeIsLike" => (&[S, Any], false),
        "sortAlpha" | "ceil" | "floor" | "toToml" => (&[Any], false),
        _ => return None,
    })
}

fn string(v: Value) -> String {
    match v {
        Value::String(s) => s,
        _ => String::new(),
    }
}

fn int(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Float(f) => *f as i64,
        Value::String(s) => s.trim().parse().unwrap_or(0),
        _ => 0,
    }
}

fn float(v: &Value) -> f64 {
    match v {
        Value::Int(n) => *n as f64,
        Value::Float(f) => *f,
        Value::String(s) => s.trim().parse().unwrap_or(0.0),
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => 0.0,
    }
}

fn strings(list: Vec<String>) -> Value {
    Value::List(list.into_iter().map(Value::String).collect())
}

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    if let Some((_, why)) = REFUSED.iter().find(|(n, _)| *n == name) {
        return Err(format!("{name} is refused: {why}"));
    }
    if name.contains("egex") {
        return regex_call(name, args);
    }
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    Ok(match name {
        "semverCompare" => {
            let (c, v) = (string(next()), string(next()));
            let c = Constraints::parse(&c)?;
            Value::Bool(c.check(&Version::parse(&v)?))
        }
        "sha256sum" => Value::String(crate::hashes::sha256_hex(string(next()).as_bytes())),
        "sha1sum" => Value::String(crate::hashes::sha1_hex(string(next()).as_bytes())),
        "adler32sum" => {
            Value::String(crate::hashes::adler32(string(next()).as_bytes()).to_string())
        }
        "dig" => dig(it.collect())?,
        "pluck" => {
            let key = crate::sprig::to_string(&next());
            let found = it.filter_map(|d| entries(&d).and_then(|mut m| m.remove(&key)));
            Value::List(found.collect())
        }
        "sortAlpha" => {
            let mut l: Vec<String> = match next() {
                Value::List(l) => l.iter().map(crate::sprig::to_string).collect(),
                other => vec![crate::sprig::to_string(&other)],
            };
            l.sort();
            strings(l)
        }
        "split" => {
            let (sep, s) = (string(next()), string(next()));
            indexed(s.split(sep.as_str()))
        }
        "splitn" => {
            let (sep, n, s) = (string(next()), int(&next()), string(next()));
            match n {
                0 => indexed(std::iter::empty()),
                n if n < 0 => indexed(s.split(sep.as_str())),
                n => indexed(s.splitn(n as usize, sep.as_str())),
            }
        }
        "substr" => substr(int(&next()), int(&next()), &string(next()))?,
        "tuple" => Value::List(it.collect()),
        "ceil" => Value::Float(float(&next()).ceil()),
        "floor" => Value::Float(float(&next()).floor()),
        "round" => {
            let (v, places) = (float(&next()), float(&next()));
            let on = it.next().map_or(0.5, |v| float(&v));
            let pow = 10f64.powf(places);
            let digit = pow * v;
            let r = if digit.fract() >= on {
                digit.ceil()
            } else {
                digit.floor()
            };
            Value::Float(r / pow)
        }
        "biggest" => Value::Int(
            std::iter::once(next())
                .chain(it)
                .map(|v| int(&v))
                .max()
                .unwrap_or(0),
        ),
        "all" => Value::Bool(it.all(|v| !crate::funcs::is_empty(&v))),
        "any" => Value::Bool(it.any(|v| !crate::funcs::is_empty(&v))),
        "deepEqual" => Value::Bool(next() == next()),
        "typeIs" => {
            let t = string(next());
            Value::Bool(crate::sprig::type_of(&next()) == t)
        }
        "typeIsLike" => {
            let t = string(next());
            let actual = crate::sprig::type_of(&next());
            Value::Bool(actual == t || format!("*{actual}") == t)
        }
        "toToml" => Value::String(to_toml(&next())),
        "fromToml" => from_toml(&string(next())),
        _ => return Err(format!("function {name} not defined")),
    })
}

/// sprig's `split`/`splitn`: a dict `_0`, `_1`, ... of the parts.
fn indexed<'s>(parts: impl Iterator<Item = &'s str>) -> Value {
    let m: BTreeMap<String, Value> = parts
        .enumerate()
        .map(|(i, p)| (format!("_{i}"), Value::String(p.to_string())))
        .collect();
    Value::Dict(Dict::new(m))
}

/// sprig's `substring`, by bytes; Go panics where the range is outside the text.
fn substr(start: i64, end: i64, s: &str) -> Result<Value, String> {
    let len = s.len() as i64;
    let (a, b) = if start < 0 {
        (0, end)
    } else if end < 0 || end > len {
        (start, len)
    } else {
        (start, end)
    };
    if a > b || b > len || a < 0 {
        return Err(format!(
            "runtime error: slice bounds out of range [{a}:{b}]"
        ));
    }
    let bytes = &s.as_bytes()[a as usize..b as usize];
    Ok(Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

/// sprig's `dig KEY... DEFAULT DICT`.
fn dig(args: Vec<Value>) -> Result<Value, String> {
    if args.len() < 3 {
        return Err("dig needs at least three arguments".into());
    }
    let mut args = args;
    let dict = args.pop().unwrap_or(Value::Nil);
    let default = args.pop().unwrap_or(Value::Nil);
    let mut at = dict;
    let last = args.len() - 1;
    for (i, key) in args.iter().enumerate() {
        let Some(m) = entries(&at) else {
            return Err(format!(
                "interface conversion: interface {{}} is {}, not map[string]interface {{}}",
                crate::sprig::type_of(&at)
            ));
        };
        match m.get(&crate::sprig::to_string(key)) {
            None => return Ok(default),
            Some(v) if i == last => return Ok(v.clone()),
            Some(v) => at = v.clone(),
        }
    }
    Ok(default)
}

fn regex_call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    let pat = string(next());
    if name == "regexQuoteMeta" {
        let special = "\\.+*?()|[]{}^$";
        let out: String = pat
            .chars()
            .flat_map(|c| {
                let esc = special.contains(c).then_some('\\');
                esc.into_iter().chain(std::iter::once(c))
            })
            .collect();
        return Ok(Value::String(out));
    }
    let re = tailor_go::regexp::compile(&pat);
    let s = string(next());
    if name == "regexMatch" {
        return Ok(Value::Bool(re.is_ok_and(|r| r.is_match(&s))));
    }
    let re = re?;
    Ok(match name.trim_start_matches("must") {
        "RegexMatch" => Value::Bool(re.is_match(&s)),
        "regexFind" | "RegexFind" => {
            Value::String(re.find(&s).map_or("", |m| m.as_str()).to_string())
        }
        "regexFindAll" | "RegexFindAll" => {
            let n = int(&next());
            let found = re.find_iter(&s).map(|m| m.as_str().to_string());
            strings(match n {
                n if n < 0 => found.collect(),
                n => found.take(n as usize).collect(),
            })
        }
        "regexReplaceAll" | "RegexReplaceAll" => {
            let repl = string(next());
            Value::String(re.replace_all(&s, repl.as_str()).into_owned())
        }
        "regexReplaceAllLiteral" | "RegexReplaceAllLiteral" => {
            let repl = string(next());
            Value::String(re.replace_all(&s, regex::NoExpand(&repl)).into_owned())
        }
        _ => {
            let n = int(&next());
            let parts = match n {
                0 => Vec::new(),
                n if n < 0 => re.split(&s).map(str::to_string).collect(),
                n => re.splitn(&s, n as usize).map(str::to_string).collect(),
            };
            strings(parts)
        }
    })
}

/// BurntSushi/toml's encoder (v1.6, what Helm's `toToml` uses): plain keys first, then
/// tables, each sorted; a blank line before a top-level table; nested keys indented two
/// spaces per level; nil values left out.
pub fn to_toml(v: &Value) -> String {
    let mut out = String::new();
    if let Some(m) = entries(v) {
        toml_table(&m, &[], &mut out);
    }
    out
}

fn is_table(v: &Value) -> bool {
    entries(v).is_some()
}

fn is_table_array(v: &Value) -> bool {
    matches!(v, Value::List(l) if !l.is_empty() && l.iter().all(is_table))
}

fn toml_table(m: &BTreeMap<String, Value>, key: &[String], out: &mut String) {
    let indent = "  ".repeat(key.len());
    for (k, v) in m {
        if matches!(v, Value::Nil) || is_table(v) || is_table_array(v) {
            continue;
        }
        out.push_str(&format!("{indent}{} = {}\n", toml_key(k), toml_inline(v)));
    }
    for (k, v) in m {
        let mut sub = key.to_vec();
        sub.push(k.clone());
        let header: Vec<String> = sub.iter().map(|k| toml_key(k)).collect();
        let header = header.join(".");
        if let Some(t) = entries(v) {
            if sub.len() == 1 && !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("{indent}[{header}]\n"));
            toml_table(&t, &sub, out);
        } else if is_table_array(v) {
            for t in v_list(v).iter().filter_map(entries) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("{indent}[[{header}]]\n"));
                toml_table(&t, &sub, out);
            }
        }
    }
}

fn v_list(v: &Value) -> &[Value] {
    match v {
        Value::List(l) => l,
        _ => &[],
    }
}

fn toml_key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if bare {
        k.to_string()
    } else {
        toml_string(k)
    }
}

fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn toml_inline(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        Value::Float(f) if f.is_nan() => "nan".into(),
        Value::Float(f) if f.is_infinite() => if *f > 0.0 { "inf" } else { "-inf" }.into(),
        Value::Float(f) => {
            let mut b = Vec::new();
            tailor_go::strconv::append_float(&mut b, *f, b'f', -1);
            let s = String::from_utf8_lossy(&b).into_owned();
            if s.contains('.') {
                s
            } else {
                format!("{s}.0")
            }
        }
        Value::String(s) => toml_string(s),
        Value::List(l) => {
            let items: Vec<String> = l.iter().map(toml_inline).collect();
            format!("[{}]", items.join(", "))
        }
        other => match entries(other) {
            Some(m) => {
                let items: Vec<String> = m
                    .iter()
                    .filter(|(_, v)| !matches!(v, Value::Nil))
                    .map(|(k, v)| format!("{} = {}", toml_key(k), toml_inline(v)))
                    .collect();
                format!("{{{}}}", items.join(", "))
            }
            None => String::new(),
        },
    }
}

/// Helm's `fromToml`: the document as a dict, or a dict holding `Error`.
fn from_toml(text: &str) -> Value {
    match text.parse::<toml::Table>() {
        Ok(t) => toml_value(&toml::Value::Table(t)),
        Err(e) => Value::Dict(Dict::new(BTreeMap::from([(
            "Error".to_string(),
            Value::String(crate::tomlerr::message(text, &e)),
        )]))),
    }
}

fn toml_value(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(n) => Value::Int(*n),
        toml::Value::Float(f) => Value::Float(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::List(a.iter().map(toml_value).collect()),
        toml::Value::Table(t) => Value::Dict(Dict::new(
            t.iter().map(|(k, v)| (k.clone(), toml_value(v))).collect(),
        )),
    }
}
