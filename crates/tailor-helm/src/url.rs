//! sprig's `urlParse` and `urlJoin` (v3.3.0 `url.go`) over a port of the parts of Go's
//! `net/url` they use: `Parse` (scheme, opaque, authority with user info and host, path,
//! query, fragment, and their unescaping and errors), `Hostname`, `Userinfo.String` and
//! `URL.String` with Go's escaping per component.

use std::collections::BTreeMap;
use tailor_go::{Dict, Value};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Go's `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if (mode == Mode::Host || mode == Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

/// Go's `escape`.
fn escape(s: &str, mode: Mode) -> String {
    let mut out = String::new();
    for &c in s.as_bytes() {
        if !should_escape(c, mode) {
            out.push(char::from(c));
        } else if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// Go's `unescape`, its `EscapeError` and `InvalidHostError` worded as Go words them.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                let bad = &b[i..b.len().min(i + 3)];
                return Err(escape_error(bad));
            }
            let bad = &b[i..i + 3];
            let v = unhex(b[i + 1]) << 4 | unhex(b[i + 2]);
            if mode == Mode::Host && unhex(b[i + 1]) < 8 && bad != b"%25" {
                return Err(escape_error(bad));
            }
            if mode == Mode::Zone && bad != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                return Err(escape_error(bad));
            }
            i += 3;
        } else {
            if (mode == Mode::Host || mode == Mode::Zone)
                && b[i] < 0x80
                && should_escape(b[i], mode)
            {
                let c = String::from_utf8_lossy(&b[i..i + 1]).into_owned();
                return Err(format!(
                    "invalid character {} in host name",
                    tailor_go::strconv::quote(&c)
                ));
            }
            i += 1;
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn escape_error(bad: &[u8]) -> String {
    let text = String::from_utf8_lossy(bad).into_owned();
    format!("invalid URL escape {}", tailor_go::strconv::quote(&text))
}

/// Go's `url.Userinfo`: a user name and, when set, a password.
type User = (String, Option<String>);

/// The fields of Go's `url.URL` sprig reads or writes.
#[derive(Default, Debug, PartialEq)]
struct Url {
    scheme: String,
    opaque: String,
    user: Option<User>,
    host: String,
    path: String,
    raw_query: String,
    force_query: bool,
    fragment: String,
}

fn get_scheme(raw: &str) -> Result<(String, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((raw[..i].to_string(), &raw[i + 1..])),
            _ => return Ok((String::new(), raw)),
        }
    }
    Ok((String::new(), raw))
}

fn valid_optional_port(port: &str) -> bool {
    match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => digits.bytes().all(|b| b.is_ascii_digit()),
    }
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let port = &host[i + 1..];
        if !valid_optional_port(port) {
            return Err(format!(
                "invalid port {} after host",
                tailor_go::strconv::quote(port)
            ));
        }
        if let Some(zone) = host[..i].find("%25") {
            return Ok(unescape(&host[..zone], Mode::Host)?
                + &unescape(&host[zone..i], Mode::Zone)?
                + &unescape(&host[i..], Mode::Host)?);
        }
    } else if let Some(i) = host.rfind(':') {
        let port = &host[i..];
        if !valid_optional_port(port) {
            return Err(format!(
                "invalid port {} after host",
                tailor_go::strconv::quote(port)
            ));
        }
    }
    unescape(host, Mode::Host)
}

/// Go's `validUserinfo`: the characters RFC 3986 allows in user info.
fn valid_userinfo(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
}

fn parse_authority(authority: &str) -> Result<(Option<User>, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let info = &authority[..i];
    if !valid_userinfo(info) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match info.split_once(':') {
        None => (unescape(info, Mode::UserPassword)?, None),
        Some((u, p)) => (
            unescape(u, Mode::UserPassword)?,
            Some(unescape(p, Mode::UserPassword)?),
        ),
    };
    Ok((Some(user), host))
}

/// Go's `url.Parse`, its error as `*url.Error` prints it.
fn parse(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let wrap = |e: String, text: &str| format!("parse {}: {e}", tailor_go::strconv::quote(text));
    let mut url = parse_no_fragment(u).map_err(|e| wrap(e, u))?;
    url.fragment = unescape(frag, Mode::Fragment).map_err(|e| wrap(e, raw))?;
    Ok(url)
}

fn parse_no_fragment(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        url.raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if rest.split('/').next().unwrap_or("").contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (auth, path) = authority
            .find('/')
            .map_or((authority, ""), |i| authority.split_at(i));
        (url.user, url.host) = parse_authority(auth)?;
        rest = path;
    }
    url.path = unescape(rest, Mode::Path)?;
    Ok(url)
}

/// Go's `URL.Hostname`: the host without its port and IPv6 brackets.
fn hostname(host: &str) -> &str {
    let mut h = host;
    if let Some(i) = h.rfind(':') {
        if valid_optional_port(&h[i..]) {
            h = &h[..i];
        }
    }
    match h.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        Some(inner) => inner,
        None => h,
    }
}

fn userinfo_string(user: &Option<User>) -> String {
    match user {
        None => String::new(),
        Some((name, password)) => {
            let mut s = escape(name, Mode::UserPassword);
            if let Some(p) = password {
                s = format!("{s}:{}", escape(p, Mode::UserPassword));
            }
            s
        }
    }
}

/// Go's `URL.String` for a URL built from fields (no raw path or fragment kept).
fn to_string(u: &Url) -> String {
    let mut out = String::new();
    if !u.scheme.is_empty() {
        out.push_str(&u.scheme);
        out.push(':');
    }
    if !u.opaque.is_empty() {
        out.push_str(&u.opaque);
    } else {
        if !u.scheme.is_empty() || !u.host.is_empty() || u.user.is_some() {
            if !u.host.is_empty() || !u.path.is_empty() || u.user.is_some() {
                out.push_str("//");
            }
            if u.user.is_some() {
                out.push_str(&userinfo_string(&u.user));
                out.push('@');
            }
            out.push_str(&escape(&u.host, Mode::Host));
        }
        let path = if u.path == "*" {
            "*".to_string()
        } else {
            escape(&u.path, Mode::Path)
        };
        if !path.is_empty() && !path.starts_with('/') && !u.host.is_empty() {
            out.push('/');
        }
        if out.is_empty() && path.split('/').next().unwrap_or("").contains(':') {
            out.push_str("./");
        }
        out.push_str(&path);
    }
    if u.force_query || !u.raw_query.is_empty() {
        out.push('?');
        out.push_str(&u.raw_query);
    }
    if !u.fragment.is_empty() {
        out.push('#');
        out.push_str(&escape(&u.fragment, Mode::Fragment));
    }
    out
}

/// sprig's `urlParse`: the parts as a dict; an unparsable URL is an error.
pub fn url_parse(raw: &str) -> Result<Value, String> {
    let u = parse(raw).map_err(|e| format!("unable to parse url: {e}"))?;
    let s = |v: &str| Value::String(v.to_string());
    let parts = BTreeMap::from([
        ("scheme".to_string(), s(&u.scheme)),
        ("host".to_string(), s(&u.host)),
        ("hostname".to_string(), s(hostname(&u.host))),
        ("path".to_string(), s(&u.path)),
        ("query".to_string(), s(&u.raw_query)),
        ("opaque".to_string(), s(&u.opaque)),
        ("fragment".to_string(), s(&u.fragment)),
        (
            "userinfo".to_string(),
            Value::String(userinfo_string(&u.user)),
        ),
    ]);
    Ok(Value::Dict(Dict::new(parts)))
}

/// sprig's `urlJoin`: a URL from a dict of parts (each a string when present).
pub fn url_join(d: &Value) -> Result<Value, String> {
    let parts = crate::dicts::entries(d).unwrap_or_default();
    let get = |key: &str| match parts.get(key) {
        None => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!(
            "unable to parse {key} key, must be of type string, but {} found",
            crate::sprig::kind_of(other)
        )),
    };
    let mut u = Url {
        scheme: get("scheme")?,
        host: get("host")?,
        path: get("path")?,
        raw_query: get("query")?,
        opaque: get("opaque")?,
        fragment: get("fragment")?,
        ..Url::default()
    };
    let info = get("userinfo")?;
    if !info.is_empty() {
        let parsed = parse(&format!("proto://{info}@host"))
            .map_err(|e| format!("unable to parse userinfo in dict: {e}"))?;
        u.user = parsed.user;
    }
    Ok(Value::String(to_string(&u)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    fn dict_of(j: &Json) -> Value {
        let m = j
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.as_str().unwrap().to_string())))
            .collect();
        Value::Map(m)
    }

    /// Go 1.19's net/url through sprig's definitions, recorded in
    /// tests/data/sprig/url_go119.json: every parse and join gives Go's parts, text or error.
    #[test]
    fn same_as_go_net_url() {
        let table: Json =
            serde_json::from_str(include_str!("../tests/data/sprig/url_go119.json")).unwrap();
        let mut failures = Vec::new();
        for case in table["parse"].as_array().unwrap() {
            let input = case["in"].as_str().unwrap();
            let want = match case.get("error") {
                Some(e) => Err(e.as_str().unwrap().to_string()),
                None => Ok(dict_of(&case["out"])),
            };
            let got = url_parse(input).map(|v| Value::Map(crate::dicts::entries(&v).unwrap()));
            if got != want {
                failures.push(format!("parse {input:?}: got {got:?}, want {want:?}"));
            }
        }
        for case in table["join"].as_array().unwrap() {
            let want = match case.get("error") {
                Some(e) => Err(e.as_str().unwrap().to_string()),
                None => Ok(Value::String(
                    case["out"].as_str().unwrap_or("").to_string(),
                )),
            };
            let got = url_join(&dict_of(&case["in"]));
            if got != want {
                failures.push(format!("join {}: got {got:?}, want {want:?}", case["in"]));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
