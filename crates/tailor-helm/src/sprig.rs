//! The sprig v3 functions charts use that tailor-go's sprig subset lacks because they build
//! lists and maps or do arithmetic: list functions (`append`, `first`, `uniq`...), dict
//! functions (`merge`, `pick`, `omit`, `values`, `deepCopy`), math (`add`, `int`...) and
//! kind tests. Each follows `github.com/Masterminds/sprig/v3` (list.go, dict.go,
//! numeric.go, reflect.go); sprig's in-place mutation of a dict (`set`, `merge`) is seen
//! here only in the returned value (docs/differences.md).

use tailor_go::template::ParamType;
use tailor_go::Value;

/// The names this module defines.
pub const NAMES: &[&str] = &[
    "append",
    "push",
    "prepend",
    "first",
    "last",
    "rest",
    "initial",
    "uniq",
    "compact",
    "has",
    "without",
    "concat",
    "reverse",
    "until",
    "merge",
    "mergeOverwrite",
    "pick",
    "omit",
    "values",
    "deepCopy",
    "add",
    "add1",
    "sub",
    "mul",
    "div",
    "mod",
    "max",
    "min",
    "int",
    "int64",
    "float64",
    "atoi",
    "kindOf",
    "kindIs",
    "typeOf",
    "splitList",
    "toStrings",
];

pub fn signature(name: &str) -> Option<(&'static [ParamType], bool)> {
    use ParamType::{Any, String as S};
    Some(match name {
        "append" | "push" | "prepend" | "has" => (&[Any, Any], false),
        "first" | "last" | "rest" | "initial" | "uniq" | "compact" | "reverse" | "values"
        | "deepCopy" | "int" | "int64" | "float64" | "kindOf" | "typeOf" | "add1" | "toStrings"
        | "until" => (&[Any], false),
        "atoi" => (&[S], false),
        "kindIs" => (&[S, Any], false),
        "splitList" => (&[S, S], false),
        "sub" | "div" | "mod" => (&[Any, Any], false),
        "without" | "pick" | "omit" => (&[Any, Any], true),
        "concat" | "merge" | "mergeOverwrite" | "add" | "mul" | "max" | "min" => (&[Any], true),
        _ => return None,
    })
}

fn list(v: Value, f: &str) -> Result<Vec<Value>, String> {
    match v {
        Value::List(l) => Ok(l),
        Value::Nil => Ok(Vec::new()),
        other => Err(format!("Cannot {f} on type {}", type_of(&other))),
    }
}

/// spf13/cast's `ToInt64` as sprig uses it: numbers truncated, numeric strings parsed,
/// anything else 0.
fn to_i64(v: &Value) -> i64 {
    match v {
        Value::Int(n) => *n,
        Value::Float(f) => *f as i64,
        Value::Bool(b) => i64::from(*b),
        Value::String(s) => s.trim().parse::<i64>().unwrap_or(0),
        _ => 0,
    }
}

fn to_f64(v: &Value) -> f64 {
    match v {
        Value::Int(n) => *n as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => s.trim().parse::<f64>().unwrap_or(0.0),
        _ => 0.0,
    }
}

pub fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Nil => "<nil>",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int64",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::List(_) => "[]interface {}",
        Value::Map(_) | Value::Dict(_) => "map[string]interface {}",
        Value::StringMap(_) => "map[string]string",
    }
}

pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Nil => "invalid",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int64",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::List(_) => "slice",
        Value::Map(_) | Value::StringMap(_) | Value::Dict(_) => "map",
    }
}

pub(crate) fn to_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Nil => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        other => crate::gofmt::format_v(&crate::funcs::to_json(other)),
    }
}

pub fn call(name: &str, args: Vec<Value>) -> Result<Value, String> {
    let mut it = args.into_iter();
    let mut next = || it.next().unwrap_or(Value::Nil);
    Ok(match name {
        "append" | "push" => {
            let mut l = list(next(), "push")?;
            l.push(next());
            Value::List(l)
        }
        "prepend" => {
            let mut l = list(next(), "prepend")?;
            l.insert(0, next());
            Value::List(l)
        }
        "first" => list(next(), "find first")?
            .into_iter()
            .next()
            .unwrap_or(Value::Nil),
        "last" => list(next(), "find last")?.pop().unwrap_or(Value::Nil),
        "rest" => Value::List(list(next(), "find rest")?.into_iter().skip(1).collect()),
        "initial" => {
            let mut l = list(next(), "find initial")?;
            l.pop();
            Value::List(l)
        }
        "uniq" => {
            let mut out: Vec<Value> = Vec::new();
            for v in list(next(), "generate uniq")? {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            Value::List(out)
        }
        "compact" => Value::List(
            list(next(), "compact")?
                .into_iter()
                .filter(|v| !crate::funcs::is_empty(v))
                .collect(),
        ),
        "has" => {
            let needle = next();
            Value::Bool(list(next(), "find has")?.contains(&needle))
        }
        "without" => {
            let l = list(next(), "find without")?;
            let omit: Vec<Value> = it.collect();
            Value::List(l.into_iter().filter(|v| !omit.contains(v)).collect())
        }
        "concat" => {
            let mut out = Vec::new();
            for l in std::iter::once(next()).chain(it) {
                out.extend(list(l, "concat")?);
            }
            Value::List(out)
        }
        "reverse" => {
            let mut l = list(next(), "find reverse")?;
            l.reverse();
            Value::List(l)
        }
        "until" => Value::List((0..to_i64(&next()).max(0)).map(Value::Int).collect()),
        "merge" | "mergeOverwrite" => {
            let args: Vec<Value> = std::iter::once(next()).chain(it).collect();
            crate::dicts::merge(args, name == "mergeOverwrite")?
        }
        "pick" | "omit" => {
            let d = next();
            let keys: Vec<String> = it.map(|k| to_string(&k)).collect();
            crate::dicts::pick(&d, &keys, name == "pick")?
        }
        "values" => crate::dicts::values(&next())?,
        "deepCopy" => crate::dicts::deep_copy(&next()),
        "add" => Value::Int(
            std::iter::once(next())
                .chain(it)
                .map(|v| to_i64(&v))
                .fold(0, i64::wrapping_add),
        ),
        "mul" => Value::Int(
            std::iter::once(next())
                .chain(it)
                .map(|v| to_i64(&v))
                .fold(1, i64::wrapping_mul),
        ),
        "add1" => Value::Int(to_i64(&next()).wrapping_add(1)),
        "sub" => Value::Int(to_i64(&next()).wrapping_sub(to_i64(&next()))),
        "div" | "mod" => {
            let (a, b) = (to_i64(&next()), to_i64(&next()));
            if b == 0 {
                return Err("runtime error: integer divide by zero".into());
            }
            Value::Int(if name == "div" {
                a.wrapping_div(b)
            } else {
                a.wrapping_rem(b)
            })
        }
        "max" | "min" => {
            let nums: Vec<i64> = std::iter::once(next())
                .chain(it)
                .map(|v| to_i64(&v))
                .collect();
            let m = if name == "max" {
                nums.iter().max()
            } else {
                nums.iter().min()
            };
            Value::Int(m.copied().unwrap_or(0))
        }
        "int" | "int64" | "atoi" => Value::Int(to_i64(&next())),
        "float64" => Value::Float(to_f64(&next())),
        "kindOf" => Value::String(kind_of(&next()).into()),
        "kindIs" => {
            let k = to_string(&next());
            Value::Bool(kind_of(&next()) == k)
        }
        "typeOf" => Value::String(type_of(&next()).into()),
        "splitList" => {
            let (sep, s) = (to_string(&next()), to_string(&next()));
            Value::List(
                s.split(sep.as_str())
                    .map(|p| Value::String(p.into()))
                    .collect(),
            )
        }
        "toStrings" => Value::List(
            list(next(), "toStrings")?
                .iter()
                .map(|v| Value::String(to_string(v)))
                .collect(),
        ),
        _ => return Err(format!("function {name} not defined")),
    })
}
