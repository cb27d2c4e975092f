//! `--set`, `--set-string`, `--set-json` and `--set-file` parsing, as Helm v3's
//! `pkg/strvals/parser.go` (helm/helm v3.21.4, commit
//! 813176c51bb5c181dbbd7901298ddcc104cd3417) parses them.
//!
//! A set line is `name1=value1,name2=value2`: dots nest maps (`a.b=c`), brackets
//! index lists (`a[0]=x`, growing the list with nulls), `{x,y}` is a list value, and
//! a backslash escapes the next character anywhere. `--set` types its values (`true`,
//! `false`, `null` case-insensitively, decimal integers without a leading zero as
//! Go `int64`), `--set-string` keeps strings, `--set-json` reads a JSON value (its
//! numbers are Go `float64`, as `encoding/json` decodes them), `--set-file` hands the
//! text after `=` to a reader callback.
//!
//! Helm recovers Go panics from type assertions (`a=1,a.b=2`) into errors worded by
//! the Go runtime; those messages are reproduced. Known differences: the error text
//! for invalid `--set-json` JSON is serde_json's, not Go's (the same lines are
//! refused); serde_json rounds decimal fractions best-effort where Go is exact
//! (integers convert exactly).

use serde_json::{Map, Number, Value};
use std::fmt;
use tailor_go::strconv::{quote, quote_char};

/// Helm's `MaxIndex`: the largest list index a set line may name.
pub const MAX_INDEX: i64 = 65536;
/// Helm's `MaxNestedNameLevel`: how many dots a key may nest.
pub const MAX_NESTED_NAME_LEVEL: usize = 30;

/// A set line Helm refuses, with Helm's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Reads the value of a `--set-file` entry (the text after `=`, normally a path).
pub type ValueReader<'a> = dyn FnMut(&str) -> Result<Value, String> + 'a;

/// `strvals.Parse`: a `--set` line, typed.
pub fn parse(s: &str) -> Result<Map<String, Value>, Error> {
    let mut vals = Map::new();
    parse_into(s, &mut vals)?;
    Ok(vals)
}

/// `strvals.ParseString`: a `--set-string` line, every value a string.
pub fn parse_string(s: &str) -> Result<Map<String, Value>, Error> {
    let mut vals = Map::new();
    parse_into_string(s, &mut vals)?;
    Ok(vals)
}

/// `strvals.ParseInto`: a `--set` line merged into `dest`, overwriting its keys.
pub fn parse_into(s: &str, dest: &mut Map<String, Value>) -> Result<(), Error> {
    let mut typed = |v: &str| Ok(typed_val(v, false));
    Parser::new(s, Mode::Reader(&mut typed)).parse(dest)
}

/// `strvals.ParseIntoString`: a `--set-string` line merged into `dest`.
pub fn parse_into_string(s: &str, dest: &mut Map<String, Value>) -> Result<(), Error> {
    let mut strings = |v: &str| Ok(typed_val(v, true));
    Parser::new(s, Mode::Reader(&mut strings)).parse(dest)
}

/// `strvals.ParseJSON`: a `--set-json` line merged into `dest`; an empty value is null.
pub fn parse_json(s: &str, dest: &mut Map<String, Value>) -> Result<(), Error> {
    Parser::new(s, Mode::Json).parse(dest)
}

/// `strvals.ParseFile`: a `--set-file` line, each value produced by `reader`.
pub fn parse_file(s: &str, reader: &mut ValueReader<'_>) -> Result<Map<String, Value>, Error> {
    let mut vals = Map::new();
    parse_into_file(s, &mut vals, reader)?;
    Ok(vals)
}

/// `strvals.ParseIntoFile`: a `--set-file` line merged into `dest`.
pub fn parse_into_file(
    s: &str,
    dest: &mut Map<String, Value>,
    reader: &mut ValueReader<'_>,
) -> Result<(), Error> {
    Parser::new(s, Mode::Reader(reader)).parse(dest)
}

/// `typedVal`: the Go value `--set` (or, with `as_string`, `--set-string`) gives text.
pub fn typed_val(v: &str, as_string: bool) -> Value {
    if as_string {
        return Value::String(v.to_string());
    }
    if v.eq_ignore_ascii_case("true") {
        return Value::Bool(true);
    }
    if go_equal_fold(v, "false") {
        return Value::Bool(false);
    }
    if v.eq_ignore_ascii_case("null") {
        return Value::Null;
    }
    if v == "0" {
        return Value::from(0i64);
    }
    if !v.is_empty() && !v.starts_with('0') {
        if let Some(i) = tailor_go::strconv::atoi(v.as_bytes()) {
            return Value::from(i);
        }
    }
    Value::String(v.to_string())
}

/// `strings.EqualFold` against a lower-case ASCII word: Unicode simple folding adds
/// only `ſ` (for `s`) and the Kelvin sign (for `k`) to ASCII case-insensitivity.
fn go_equal_fold(v: &str, word: &str) -> bool {
    let folded = v.chars().map(|c| match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c => c.to_ascii_lowercase(),
    });
    folded.eq(word.chars())
}

/// `setIndex`: `list[index] = val`, growing the list with nulls.
pub fn set_index(list: &mut Vec<Value>, index: i64, val: Value) -> Result<(), Error> {
    if index < 0 {
        return Err(Error(format!("negative {index} index not allowed")));
    }
    if index > MAX_INDEX {
        return Err(Error(format!(
            "index of {index} is greater than maximum supported index of {MAX_INDEX}"
        )));
    }
    let index = index as usize;
    if list.len() <= index {
        list.resize(index + 1, Value::Null);
    }
    list[index] = val;
    Ok(())
}

/// Why a step stopped: Helm's sentinel errors `io.EOF` and `ErrNotList`, or a refusal.
enum Stop {
    Eof,
    NotList,
    Fail(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Fail(e)
    }
}

fn fail<T>(msg: String) -> Result<T, Stop> {
    Err(Stop::Fail(Error(msg)))
}

/// The Go runtime's words for a failed type assertion, which Helm passes on.
fn conversion_panic(found: Option<&Value>, wanted: &str) -> Stop {
    let found = match found {
        None | Some(Value::Null) => "nil",
        Some(Value::Bool(_)) => "bool",
        Some(Value::Number(n)) if n.is_f64() => "float64",
        Some(Value::Number(_)) => "int64",
        Some(Value::String(_)) => "string",
        Some(Value::Array(_)) => "[]interface {}",
        Some(Value::Object(_)) => "map[string]interface {}",
    };
    Stop::Fail(Error(format!(
        "unable to parse key: interface conversion: interface {{}} is {found}, not {wanted}"
    )))
}

const LIST: &str = "[]interface {}";
const MAP: &str = "map[string]interface {}";

enum Mode<'r, 'a> {
    Reader(&'r mut ValueReader<'a>),
    Json,
}

struct Parser<'r, 'a> {
    text: Vec<char>,
    pos: usize,
    mode: Mode<'r, 'a>,
}

impl<'r, 'a> Parser<'r, 'a> {
    fn new(s: &str, mode: Mode<'r, 'a>) -> Self {
        Parser {
            text: s.chars().collect(),
            pos: 0,
            mode,
        }
    }

    fn parse(mut self, data: &mut Map<String, Value>) -> Result<(), Error> {
        loop {
            match self.key(data, 0) {
                Ok(()) => continue,
                Err(Stop::Eof) => return Ok(()),
                Err(Stop::NotList) => return Err(Error("not a list".into())),
                Err(Stop::Fail(e)) => return Err(e),
            }
        }
    }

    fn read(&mut self) -> Option<char> {
        let c = self.text.get(self.pos).copied();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    /// `runesUntil`: the text up to one of `stop` (unescaped), and the stop found;
    /// `None` at the end of the line.
    fn until(&mut self, stop: &[char]) -> (String, Option<char>) {
        let mut v = String::new();
        loop {
            match self.read() {
                None => return (v, None),
                Some(c) if stop.contains(&c) => return (v, Some(c)),
                Some('\\') => match self.read() {
                    None => return (v, None),
                    Some(next) => v.push(next),
                },
                Some(c) => v.push(c),
            }
        }
    }

    fn read_value(&mut self, text: &str) -> Result<Value, Stop> {
        match &mut self.mode {
            Mode::Reader(reader) => reader(text).map_err(|e| Stop::Fail(Error(e))),
            Mode::Json => Ok(Value::String(text.to_string())),
        }
    }

    fn key(&mut self, data: &mut Map<String, Value>, level: usize) -> Result<(), Stop> {
        let (k, last) = self.until(&['=', '[', ',', '.']);
        match last {
            None if k.is_empty() => Err(Stop::Eof),
            None => fail(format!("key {} has no value", quote(&k))),
            Some('[') => self.key_list(data, k, level),
            Some('=') => self.key_value(data, k),
            Some(',') => {
                set(data, &k, Value::String(String::new()));
                fail(format!(
                    "key {} has no value (cannot end with ,)",
                    quote(&k)
                ))
            }
            _ => self.key_map(data, k, level + 1),
        }
    }

    fn key_list(
        &mut self,
        data: &mut Map<String, Value>,
        k: String,
        level: usize,
    ) -> Result<(), Stop> {
        let i = self.key_index()?;
        let mut list = match data.get(&k) {
            None => Vec::new(),
            Some(Value::Array(l)) => l.clone(),
            found => return Err(conversion_panic(found, LIST)),
        };
        let result = self.list_item(&mut list, i, level);
        set(data, &k, Value::Array(list));
        result
    }

    fn key_value(&mut self, data: &mut Map<String, Value>, k: String) -> Result<(), Stop> {
        if matches!(self.mode, Mode::Json) {
            let v = self.json_value()?;
            set(data, &k, v);
            return Ok(());
        }
        match self.val_list() {
            Ok(vl) => {
                set(data, &k, Value::Array(vl));
                Ok(())
            }
            Err(Stop::Eof) => {
                set(data, &k, Value::String(String::new()));
                Err(Stop::Eof)
            }
            Err(Stop::NotList) => {
                let rs = self.until(&[',']).0;
                let v = self.read_value(&rs);
                match v {
                    Ok(v) => {
                        set(data, &k, v);
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    fn key_map(
        &mut self,
        data: &mut Map<String, Value>,
        k: String,
        level: usize,
    ) -> Result<(), Stop> {
        if level > MAX_NESTED_NAME_LEVEL {
            return fail(format!(
                "value name nested level is greater than maximum supported nested level of {MAX_NESTED_NAME_LEVEL}"
            ));
        }
        match data.get(&k) {
            None | Some(Value::Object(_)) => {}
            found => return Err(conversion_panic(found, MAP)),
        }
        // Helm recurses into the map it finds, or a new one it keeps only if filled.
        if let Some(Value::Object(inner)) = data.get_mut(&k) {
            let e = self.key(inner, level);
            if e.is_ok() && inner.is_empty() {
                return fail(format!("key map {} has no value", quote(&k)));
            }
            return e;
        }
        let mut inner = Map::new();
        let e = self.key(&mut inner, level);
        if e.is_ok() && inner.is_empty() {
            return fail(format!("key map {} has no value", quote(&k)));
        }
        if !inner.is_empty() {
            set(data, &k, Value::Object(inner));
        }
        e
    }

    /// `keyIndex`: the index up to `]`, as `strconv.Atoi` reads it.
    fn key_index(&mut self) -> Result<i64, Stop> {
        let (v, last) = self.until(&[']']);
        if last.is_none() {
            return fail("error parsing index: EOF".into());
        }
        atoi(&v).map_err(|e| Stop::Fail(Error(format!("error parsing index: {e}"))))
    }

    /// `listItem`: what follows `[i]`, stored at `list[i]`.
    fn list_item(&mut self, list: &mut Vec<Value>, i: i64, level: usize) -> Result<(), Stop> {
        if i < 0 {
            return fail(format!("negative {i} index not allowed"));
        }
        let (k, last) = self.until(&['[', '.', '=']);
        if !k.is_empty() {
            let runes: Vec<String> = k.chars().map(quote_char).collect();
            return fail(format!(
                "unexpected data at end of array index: [{}]",
                runes.join(" ")
            ));
        }
        let at = i as usize;
        match last {
            None => Err(Stop::Eof),
            Some('=') => self.list_value(list, i),
            Some('[') => {
                let next = self.key_index()?;
                let mut inner = match list.get(at) {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(l)) => l.clone(),
                    found => return Err(conversion_panic(found, LIST)),
                };
                self.list_item(&mut inner, next, level)?;
                Ok(set_index(list, i, Value::Array(inner))?)
            }
            _ => {
                let mut inner = match list.get_mut(at) {
                    Some(Value::Object(m)) => std::mem::take(m),
                    // Helm replaces a non-map it finds there ("indices out of order").
                    _ => Map::new(),
                };
                let e = self.key(&mut inner, level);
                if at < list.len() {
                    list[at] = Value::Object(inner);
                    return e;
                }
                e?;
                Ok(set_index(list, i, Value::Object(inner))?)
            }
        }
    }

    fn list_value(&mut self, list: &mut Vec<Value>, i: i64) -> Result<(), Stop> {
        if matches!(self.mode, Mode::Json) {
            let v = self.json_value()?;
            return Ok(set_index(list, i, v)?);
        }
        match self.val_list() {
            Ok(vl) => Ok(set_index(list, i, Value::Array(vl))?),
            Err(Stop::Eof) => Ok(set_index(list, i, Value::String(String::new()))?),
            Err(Stop::NotList) => {
                let rs = self.until(&[',']).0;
                let v = self.read_value(&rs)?;
                Ok(set_index(list, i, v)?)
            }
            Err(e) => Err(e),
        }
    }

    /// `emptyVal`: skips blanks; true at the end or at a comma (consumed).
    fn empty_val(&mut self) -> bool {
        loop {
            match self.read() {
                None | Some(',') => return true,
                Some(c) if c.is_whitespace() => continue,
                Some(_) => {
                    self.pos -= 1;
                    return false;
                }
            }
        }
    }

    /// A `--set-json` value: empty means null; else one JSON value, then blanks and a
    /// comma are skipped. Numbers become Go `float64`s, as `encoding/json` makes them.
    fn json_value(&mut self) -> Result<Value, Stop> {
        if self.empty_val() {
            return Ok(Value::Null);
        }
        let rest: String = self.text[self.pos..].iter().collect();
        // Go's decoder ends a number or literal where its grammar ends ("3x" is 3,
        // then the key "x"); serde_json would refuse the glued text, so it is given
        // only that token.
        let token = scalar_token(&rest).unwrap_or(&rest);
        let mut stream = serde_json::Deserializer::from_str(token).into_iter::<Value>();
        let v = match stream.next() {
            Some(Ok(v)) => v,
            Some(Err(e)) => return fail(e.to_string()),
            None => return fail("unexpected end of JSON input".into()),
        };
        let used = token[..stream.byte_offset()].chars().count();
        self.pos += used;
        self.empty_val();
        Ok(numbers_as_float(v))
    }

    /// `valList`: a `{a,b}` list value, or `NotList` when the value is not one.
    fn val_list(&mut self) -> Result<Vec<Value>, Stop> {
        match self.read() {
            None => return Err(Stop::Eof),
            Some('{') => {}
            Some(_) => {
                self.pos -= 1;
                return Err(Stop::NotList);
            }
        }
        let mut list = Vec::new();
        loop {
            let (rs, last) = self.until(&[',', '}']);
            match last {
                None => return fail("list must terminate with '}'".into()),
                Some('}') => {
                    if let Some(c) = self.read() {
                        if c != ',' {
                            self.pos -= 1;
                        }
                    }
                    list.push(self.read_value(&rs)?);
                    return Ok(list);
                }
                _ => list.push(self.read_value(&rs)?),
            }
        }
    }
}

/// The JSON number or literal (`true`, `false`, `null`) at the start of `text`, as far
/// as Go's scanner reads it; `None` for any other value, and for a token Go refuses
/// (serde_json then reports the error on the whole text).
fn scalar_token(text: &str) -> Option<&str> {
    for literal in ["true", "false", "null"] {
        if text.starts_with(literal) {
            return Some(&text[..literal.len()]);
        }
    }
    let b = text.as_bytes();
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut at = usize::from(b.first() == Some(&b'-'));
    match b.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => at = digits(at),
        _ => return None,
    }
    if b.get(at) == Some(&b'.') {
        let end = digits(at + 1);
        if end == at + 1 {
            return None;
        }
        at = end;
    }
    if matches!(b.get(at), Some(b'e' | b'E')) {
        let sign = at + 1 + usize::from(matches!(b.get(at + 1), Some(b'+' | b'-')));
        let end = digits(sign);
        if end == sign {
            return None;
        }
        at = end;
    }
    Some(&text[..at])
}

/// `set`: an empty key sets nothing.
fn set(data: &mut Map<String, Value>, key: &str, val: Value) {
    if !key.is_empty() {
        data.insert(key.to_string(), val);
    }
}

/// `strconv.Atoi` with Go's error words: scanning left to right, the first
/// non-digit is a syntax error and overflowing 64 bits first is a range error.
fn atoi(s: &str) -> Result<i64, String> {
    if let Some(i) = tailor_go::strconv::atoi(s.as_bytes()) {
        return Ok(i);
    }
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mut why = if digits.is_empty() {
        "invalid syntax"
    } else {
        "value out of range"
    };
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            why = "invalid syntax";
            break;
        }
        match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
        {
            Some(next) => n = next,
            None => break,
        }
    }
    Err(format!("strconv.Atoi: parsing {}: {why}", quote(s)))
}

/// Go's `encoding/json` decodes every number into a `float64`.
pub fn numbers_as_float(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64().and_then(Number::from_f64) {
            Some(f) => Value::Number(f),
            None => Value::Number(n),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_float).collect()),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, numbers_as_float(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests;
