//! The builtin functions (`text/template/funcs.go`).

use std::borrow::Cow;

use super::exec::{CallError, State};
use super::fmt::{sprint, sprintf, sprintf_within, sprintln};
use super::value::{is_true, Conc, Val};
use crate::unicode::is_print;
use crate::utf8::decode_rune;

/// How a function parameter is checked: `Value` is a `reflect.Value` parameter, `Any` an
/// `interface{}`, `String` a Go `string`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    Value,
    Any,
    String,
}

pub(crate) struct Signature {
    pub params: &'static [ParamType],
    pub variadic: bool,
}

pub(crate) fn signature(name: &str) -> Signature {
    use ParamType::*;
    let (params, variadic): (&'static [ParamType], bool) = match name {
        "and" | "or" | "index" | "slice" | "eq" | "call" => (&[Value, Value], true),
        "not" | "len" => (&[Value], false),
        "ne" | "lt" | "le" | "gt" | "ge" => (&[Value, Value], false),
        "printf" => (&[String, Any], true),
        // print, println, html, js, urlquery
        _ => (&[Any], true),
    };
    Signature { params, variadic }
}

type CR<'a> = Result<Val<'a>, CallError>;

fn msg<T>(m: impl Into<String>) -> Result<T, CallError> {
    Err(CallError::Msg(m.into()))
}

fn bool_val<'a>(b: bool) -> Val<'a> {
    Val::C(Conc::Bool(b))
}

fn str_val<'a>(b: Vec<u8>) -> Val<'a> {
    Val::C(Conc::owned_str(b))
}

fn any_args<'a>(argv: &[Val<'a>]) -> Vec<Option<Conc<'a>>> {
    argv.iter().map(|v| v.clone().into_any()).collect()
}

pub(crate) fn call_builtin<'a>(s: &mut State<'a, '_>, name: &str, argv: Vec<Val<'a>>) -> CR<'a> {
    if matches!(name, "print" | "println" | "html" | "js" | "urlquery") {
        let out = match name {
            "print" => sprint(&any_args(&argv)),
            "println" => sprintln(&any_args(&argv)),
            "html" => html_escape(&eval_args(&argv)),
            "js" => js_escape(&eval_args(&argv)),
            _ => query_escape(&eval_args(&argv)),
        };
        s.charge(out.len())?;
        return Ok(str_val(out));
    }
    let mut it = argv.into_iter();
    let first = it.next().unwrap_or(Val::Invalid);
    let rest: Vec<Val<'a>> = it.collect();
    match name {
        "not" => Ok(bool_val(!truth(&first))),
        "len" => length(first),
        "index" => index(s, first, rest),
        "slice" => slice(first, rest),
        "eq" => eq(first, &rest).map(bool_val),
        "ne" => ne(first, second(&rest)).map(bool_val),
        "lt" => lt(first, second(&rest)).map(bool_val),
        "le" => le(first, second(&rest)).map(bool_val),
        "gt" => le(first, second(&rest)).map(|b| bool_val(!b)),
        "ge" => lt(first, second(&rest)).map(|b| bool_val(!b)),
        "call" => match first.indirect_interface() {
            Val::Invalid => msg("call of nil"),
            v => msg(format!("non-function of type {}", v.type_name())),
        },
        _ => {
            // printf
            let format = match &first {
                Val::C(Conc::Str(f)) => f.clone(),
                _ => Cow::Borrowed(&b""[..]),
            };
            let room = s.room();
            let Some(out) = sprintf_within(&format, &any_args(&rest), room) else {
                // Charging one byte past the room reports whichever limit is the tighter.
                s.charge(room.saturating_add(1))?;
                return msg("printf: output exceeds the limit");
            };
            s.charge(out.len())?;
            Ok(str_val(out))
        }
    }
}

fn second<'a>(rest: &[Val<'a>]) -> Val<'a> {
    rest.first().cloned().unwrap_or(Val::Invalid)
}

fn truth(v: &Val<'_>) -> bool {
    is_true(&v.clone().indirect_interface())
}

/// Go's `indirect`: dereference an interface; `Err` when it is nil.
fn indirect(v: Val<'_>) -> Result<Val<'_>, ()> {
    match v {
        Val::Iface(None) => Err(()),
        Val::Iface(Some(c)) => Ok(Val::C(c)),
        v => Ok(v),
    }
}

const ZERO_VALUE_TYPE: &str = "reflect: call of reflect.Value.Type on zero Value";

fn length<'a>(item: Val<'a>) -> CR<'a> {
    let Ok(item) = indirect(item) else {
        return msg("len of nil pointer");
    };
    let n = match &item {
        Val::C(Conc::Str(s)) => s.len(),
        Val::C(Conc::List(l)) => l.len(),
        Val::C(Conc::Map(m)) => m.len(),
        Val::C(Conc::StrMap(m)) => m.len(),
        Val::C(Conc::Dict(d)) => d.len(),
        Val::Invalid => return msg(ZERO_VALUE_TYPE),
        v => return msg(format!("len of type {}", v.type_name())),
    };
    Ok(Val::C(Conc::Int(n as i64)))
}

fn index_arg(index: &Val<'_>, cap: usize) -> Result<usize, CallError> {
    let x: i64 = match index {
        Val::C(Conc::Int(n)) => *n,
        Val::C(Conc::Uint8(n)) => i64::from(*n),
        Val::Invalid => return msg("cannot index slice/array with nil"),
        v => {
            return msg(format!(
                "cannot index slice/array with type {}",
                v.type_name()
            ))
        }
    };
    if x < 0 || x as u64 > cap as u64 {
        return msg(format!("index out of range: {x}"));
    }
    Ok(x as usize)
}

fn index<'a>(s: &State<'a, '_>, item: Val<'a>, indexes: Vec<Val<'a>>) -> CR<'a> {
    let mut item = item.indirect_interface();
    if !item.is_valid() {
        return msg("index of untyped nil");
    }
    for idx in indexes {
        let idx = idx.indirect_interface();
        let Ok(it) = indirect(item) else {
            return msg("index of nil pointer");
        };
        item = match it {
            Val::C(Conc::List(l)) => {
                let x = index_arg(&idx, l.len())?;
                match l.get(x) {
                    Some(e) => Val::Iface(Conc::from_elem(e)),
                    None => return msg("reflect: slice index out of range"),
                }
            }
            Val::C(Conc::Str(s)) => {
                let x = index_arg(&idx, s.len())?;
                match s.get(x) {
                    Some(b) => Val::C(Conc::Uint8(*b)),
                    None => return msg("reflect: string index out of range"),
                }
            }
            Val::C(Conc::Map(m)) => {
                let key = map_key(&idx)?;
                match std::str::from_utf8(&key).ok().and_then(|k| m.get(k)) {
                    Some(v) => Val::Iface(Conc::from_elem(v)),
                    None => Val::Iface(None),
                }
            }
            Val::C(Conc::Dict(d)) => {
                let key = map_key(&idx)?;
                match std::str::from_utf8(&key).ok().and_then(|k| d.get(k)) {
                    Some(v) => Val::Iface(Conc::from_elem(s.keep(v))),
                    None => Val::Iface(None),
                }
            }
            Val::C(Conc::StrMap(m)) => {
                let key = map_key(&idx)?;
                match std::str::from_utf8(&key).ok().and_then(|k| m.get(k)) {
                    Some(v) => Val::C(Conc::str(v)),
                    None => Val::C(Conc::Str(Cow::Borrowed(b""))),
                }
            }
            v => return msg(format!("can't index item of type {}", v.type_name())),
        };
    }
    Ok(item)
}

/// `prepareArg(index, string)`.
fn map_key<'a>(v: &Val<'a>) -> Result<Cow<'a, [u8]>, CallError> {
    match v {
        Val::C(Conc::Str(s)) => Ok(s.clone()),
        Val::Invalid => msg("value is nil; should be of type string"),
        v => msg(format!(
            "value has type {}; should be string",
            v.type_name()
        )),
    }
}

fn slice<'a>(item: Val<'a>, indexes: Vec<Val<'a>>) -> CR<'a> {
    let item = item.indirect_interface();
    if !item.is_valid() {
        return msg("slice of untyped nil");
    }
    if indexes.len() > 3 {
        return msg(format!("too many slice indexes: {}", indexes.len()));
    }
    let (len, cap) = match &item {
        Val::C(Conc::Str(s)) => {
            if indexes.len() == 3 {
                return msg("cannot 3-index slice a string");
            }
            (s.len(), s.len())
        }
        // Lists have capacity == length in this model.
        Val::C(Conc::List(l)) => (l.len(), l.len()),
        v => return msg(format!("can't slice item of type {}", v.type_name())),
    };
    let mut idx = [0usize, len, 0];
    for (i, index) in indexes.iter().enumerate() {
        idx[i] = index_arg(index, cap)?;
    }
    if idx[0] > idx[1] {
        return msg(format!("invalid slice index: {} > {}", idx[0], idx[1]));
    }
    if indexes.len() == 3 && idx[1] > idx[2] {
        return msg(format!("invalid slice index: {} > {}", idx[1], idx[2]));
    }
    Ok(match item {
        Val::C(Conc::Str(s)) => {
            let part = match s {
                Cow::Borrowed(b) => Cow::Borrowed(b.get(idx[0]..idx[1]).unwrap_or(&[])),
                Cow::Owned(b) => Cow::Owned(b.get(idx[0]..idx[1]).unwrap_or(&[]).to_vec()),
            };
            Val::C(Conc::Str(part))
        }
        Val::C(Conc::List(l)) => Val::C(Conc::List(l.get(idx[0]..idx[1]).unwrap_or(&[]))),
        v => v,
    })
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Kind {
    Invalid,
    Bool,
    Complex,
    Int,
    Float,
    String,
    Uint,
}

fn basic_kind(v: &Val<'_>) -> Kind {
    match v {
        Val::C(Conc::Bool(_)) => Kind::Bool,
        Val::C(Conc::Int(_)) => Kind::Int,
        Val::C(Conc::Uint8(_)) => Kind::Uint,
        Val::C(Conc::Float(_)) => Kind::Float,
        Val::C(Conc::Complex(..)) => Kind::Complex,
        Val::C(Conc::Str(_)) => Kind::String,
        _ => Kind::Invalid,
    }
}

const BAD_TYPE: &str = "invalid type for comparison";
const BAD_CMP: &str = "incompatible types for comparison";

/// The reflect.Kind, as far as `canCompare` cares.
fn reflect_kind(v: &Val<'_>) -> u8 {
    match v {
        Val::Invalid => 0,
        Val::C(Conc::List(_)) => 1,
        Val::C(Conc::Map(_) | Conc::StrMap(_) | Conc::Dict(_)) => 2,
        _ => 3,
    }
}

fn show(v: &Val<'_>, verb: &str) -> String {
    let out = sprintf(verb.as_bytes(), &[v.clone().into_any()]);
    String::from_utf8_lossy(&out).into_owned()
}

fn eq(arg1: Val<'_>, arg2: &[Val<'_>]) -> Result<bool, CallError> {
    let arg1 = arg1.indirect_interface();
    if arg2.is_empty() {
        return msg("missing argument for comparison");
    }
    let k1 = basic_kind(&arg1);
    for arg in arg2 {
        let arg = arg.clone().indirect_interface();
        let k2 = basic_kind(&arg);
        let truth = if k1 != k2 {
            match (&arg1, &arg) {
                (Val::C(Conc::Int(a)), Val::C(Conc::Uint8(b))) => *a >= 0 && *a == i64::from(*b),
                (Val::C(Conc::Uint8(a)), Val::C(Conc::Int(b))) => *b >= 0 && i64::from(*a) == *b,
                _ => {
                    if arg1.is_valid() && arg.is_valid() {
                        return msg(BAD_CMP);
                    }
                    false
                }
            }
        } else {
            match (&arg1, &arg) {
                (Val::C(Conc::Bool(a)), Val::C(Conc::Bool(b))) => a == b,
                (Val::C(Conc::Complex(a, b)), Val::C(Conc::Complex(c, d))) => a == c && b == d,
                (Val::C(Conc::Float(a)), Val::C(Conc::Float(b))) => a == b,
                (Val::C(Conc::Int(a)), Val::C(Conc::Int(b))) => a == b,
                (Val::C(Conc::Str(a)), Val::C(Conc::Str(b))) => a == b,
                (Val::C(Conc::Uint8(a)), Val::C(Conc::Uint8(b))) => a == b,
                _ => {
                    let (ka, kb) = (reflect_kind(&arg1), reflect_kind(&arg));
                    if !(ka == kb || ka == 0 || kb == 0) {
                        return msg(format!(
                            "non-comparable types {}: {}, {}: {}",
                            show(&arg1, "%s"),
                            arg1.type_name(),
                            arg.type_name(),
                            show(&arg, "%v")
                        ));
                    }
                    let (n1, n2) = (!arg1.is_valid(), !arg.is_valid());
                    if n1 || n2 {
                        n1 == n2
                    } else {
                        return msg(format!(
                            "non-comparable type {}: {}",
                            show(&arg, "%s"),
                            arg.type_name()
                        ));
                    }
                }
            }
        };
        if truth {
            return Ok(true);
        }
    }
    Ok(false)
}

fn ne(a: Val<'_>, b: Val<'_>) -> Result<bool, CallError> {
    eq(a, &[b]).map(|t| !t)
}

fn lt(arg1: Val<'_>, arg2: Val<'_>) -> Result<bool, CallError> {
    let arg1 = arg1.indirect_interface();
    let k1 = basic_kind(&arg1);
    if k1 == Kind::Invalid {
        return msg(BAD_TYPE);
    }
    let arg2 = arg2.indirect_interface();
    let k2 = basic_kind(&arg2);
    if k2 == Kind::Invalid {
        return msg(BAD_TYPE);
    }
    if k1 != k2 {
        return match (&arg1, &arg2) {
            (Val::C(Conc::Int(a)), Val::C(Conc::Uint8(b))) => Ok(*a < i64::from(*b)),
            (Val::C(Conc::Uint8(a)), Val::C(Conc::Int(b))) => Ok(*b >= 0 && i64::from(*a) < *b),
            _ => msg(BAD_CMP),
        };
    }
    match (&arg1, &arg2) {
        (Val::C(Conc::Float(a)), Val::C(Conc::Float(b))) => Ok(a < b),
        (Val::C(Conc::Int(a)), Val::C(Conc::Int(b))) => Ok(a < b),
        (Val::C(Conc::Str(a)), Val::C(Conc::Str(b))) => Ok(a < b),
        (Val::C(Conc::Uint8(a)), Val::C(Conc::Uint8(b))) => Ok(a < b),
        _ => msg(BAD_TYPE),
    }
}

fn le(a: Val<'_>, b: Val<'_>) -> Result<bool, CallError> {
    let less = lt(a.clone(), b.clone())?;
    if less {
        return Ok(true);
    }
    eq(a, &[b])
}

/// `evalArgs`: a lone string passes through; anything else is printed with
/// `Sprint`, with untyped nil shown as `<no value>`.
fn eval_args(argv: &[Val<'_>]) -> Vec<u8> {
    if let [Val::C(Conc::Str(s))] = argv {
        return s.to_vec();
    }
    let args: Vec<Option<Conc<'_>>> = argv
        .iter()
        .map(|v| match v.clone().into_any() {
            None => Some(Conc::Str(Cow::Borrowed(b"<no value>"))),
            some => some,
        })
        .collect();
    sprint(&args)
}

fn html_escape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        match c {
            0 => out.extend_from_slice("\u{FFFD}".as_bytes()),
            b'"' => out.extend_from_slice(b"&#34;"),
            b'\'' => out.extend_from_slice(b"&#39;"),
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            _ => out.push(c),
        }
    }
    out
}

fn js_escape(s: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c < 0x80 {
            match c {
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\'' => out.extend_from_slice(b"\\'"),
                b'"' => out.extend_from_slice(b"\\\""),
                b'<' => out.extend_from_slice(b"\\u003C"),
                b'>' => out.extend_from_slice(b"\\u003E"),
                b'&' => out.extend_from_slice(b"\\u0026"),
                b'=' => out.extend_from_slice(b"\\u003D"),
                _ if c < b' ' => {
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[(c >> 4) as usize]);
                    out.push(HEX[(c & 0xF) as usize]);
                }
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        let (r, w) = decode_rune(&s[i..]);
        let w = w.max(1);
        if is_print(r) {
            out.extend_from_slice(&s[i..i + w]);
        } else {
            out.extend_from_slice(format!("\\u{r:04X}").as_bytes());
        }
        i += w;
    }
    out
}

fn query_escape(s: &[u8]) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'~') {
            out.push(c);
        } else if c == b' ' {
            out.push(b'+');
        } else {
            out.push(b'%');
            out.push(HEX[(c >> 4) as usize]);
            out.push(HEX[(c & 0xF) as usize]);
        }
    }
    out
}
