//! sprig's dict functions (`dict`, `get`, `set`, `unset`, `keys`, `merge`,
//! `mergeOverwrite`, `pick`, `omit`, `values`, `deepCopy`; Masterminds/sprig v3.3.0
//! `dict.go`) on maps shared as Go shares them: `set`, `unset` and the merges change the
//! dict they are given (a [`Dict`]) and return it, so `$_ := set $d "k" v` changes `$d`
//! and every other holder of that map. A map held by value (Helm's host objects) is
//! changed in a copy, which is returned.

use std::collections::BTreeMap;
use tailor_go::{Dict, Value};

const WRONG_TYPE: &str = "wrong type for value; expected map[string]interface {}";

/// A map argument's entries as they are now.
pub fn entries(v: &Value) -> Option<BTreeMap<String, Value>> {
    match v {
        Value::Dict(d) => Some(d.snapshot()),
        Value::Map(m) => Some(m.clone()),
        _ => None,
    }
}

/// sprig's `dict`: keys converted with `strval`, a missing last value is "".
pub fn dict(args: Vec<Value>) -> Value {
    let mut m = BTreeMap::new();
    let mut it = args.into_iter();
    while let Some(k) = it.next() {
        let key = match k {
            Value::String(s) => s,
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => crate::gofmt::format_v(&crate::funcs::to_json(&other)),
        };
        m.insert(key, it.next().unwrap_or(Value::String(String::new())));
    }
    Value::Dict(Dict::new(m))
}

pub fn get(d: &Value, key: &str) -> Result<Value, String> {
    let found = match d {
        Value::Dict(d) => d.get(key),
        Value::Map(m) => m.get(key).cloned(),
        _ => return Err(WRONG_TYPE.into()),
    };
    Ok(found.unwrap_or(Value::String(String::new())))
}

/// `set`: the dict itself changed; a value holding the dict is refused (Go would build a
/// cycle that printing it never leaves).
pub fn set(d: Value, key: String, v: Value) -> Result<Value, String> {
    match d {
        Value::Dict(d) => {
            refuse_cycle(&d, &v, "set")?;
            d.insert(key, v);
            Ok(Value::Dict(d))
        }
        Value::Map(mut m) => {
            m.insert(key, v);
            Ok(Value::Map(m))
        }
        _ => Err(WRONG_TYPE.into()),
    }
}

fn refuse_cycle(d: &Dict, v: &Value, func: &str) -> Result<(), String> {
    if d.contains_in(v) {
        return Err(format!(
            "{func}: the value holds the dict itself; tailor refuses a map that contains itself"
        ));
    }
    Ok(())
}

pub fn unset(d: Value, key: &str) -> Result<Value, String> {
    match d {
        Value::Dict(d) => {
            d.remove(key);
            Ok(Value::Dict(d))
        }
        Value::Map(mut m) => {
            m.remove(key);
            Ok(Value::Map(m))
        }
        _ => Err(WRONG_TYPE.into()),
    }
}

pub fn keys(dicts: Vec<Value>) -> Value {
    let mut out = Vec::new();
    for d in dicts.iter().filter_map(entries) {
        out.extend(d.into_keys().map(Value::String));
    }
    Value::List(out)
}

/// `pick`/`omit`: a new dict with the keys named kept (`keep`) or left out.
pub fn pick(d: &Value, names: &[String], keep: bool) -> Result<Value, String> {
    let m = entries(d).ok_or(WRONG_TYPE)?;
    Ok(Value::Dict(Dict::new(
        m.into_iter()
            .filter(|(k, _)| names.contains(k) == keep)
            .collect(),
    )))
}

pub fn values(d: &Value) -> Result<Value, String> {
    let m = entries(d).ok_or(WRONG_TYPE)?;
    Ok(Value::List(m.into_values().collect()))
}

/// `deepCopy`: every map at every depth a new one.
pub fn deep_copy(v: &Value) -> Value {
    match v {
        Value::Dict(d) => Value::Dict(Dict::new(
            d.snapshot()
                .iter()
                .map(|(k, v)| (k.clone(), deep_copy(v)))
                .collect(),
        )),
        Value::Map(m) => Value::Map(m.iter().map(|(k, v)| (k.clone(), deep_copy(v))).collect()),
        Value::List(l) => Value::List(l.iter().map(deep_copy).collect()),
        other => other.clone(),
    }
}

/// `merge`/`mergeOverwrite` (`mergo.Merge` into the first dict, `WithOverride` for the
/// second): the first dict changed and returned.
pub fn merge(args: Vec<Value>, overwrite: bool) -> Result<Value, String> {
    let mut it = args.into_iter();
    let dst = it.next().unwrap_or(Value::Nil);
    let mut target = match dst {
        Value::Dict(d) => Target::Shared(d),
        Value::Map(m) => Target::Owned(m),
        _ => return Err(WRONG_TYPE.into()),
    };
    for src in it {
        if let Some(src) = entries(&src) {
            merge_into(&mut target, src, overwrite)?;
        }
    }
    Ok(match target {
        Target::Shared(d) => Value::Dict(d),
        Target::Owned(m) => Value::Map(m),
    })
}

/// A map being merged into: a shared dict changed in place, or a map value.
enum Target {
    Shared(Dict),
    Owned(BTreeMap<String, Value>),
}

impl Target {
    fn get(&self, k: &str) -> Option<Value> {
        match self {
            Target::Shared(d) => d.get(k),
            Target::Owned(m) => m.get(k).cloned(),
        }
    }

    fn insert(&mut self, k: String, v: Value) -> Result<(), String> {
        match self {
            Target::Shared(d) => {
                refuse_cycle(d, &v, "merge")?;
                d.insert(k, v);
            }
            Target::Owned(m) => {
                m.insert(k, v);
            }
        }
        Ok(())
    }
}

/// mergo's map rules: a nil source value only with `overwrite`; nested maps merged (the
/// destination's map changed in place); an empty destination value (nil, false, 0, "",
/// empty list or map) always replaced; another only with `overwrite`.
fn merge_into(
    dst: &mut Target,
    src: BTreeMap<String, Value>,
    overwrite: bool,
) -> Result<(), String> {
    for (k, sv) in src {
        if matches!(sv, Value::Nil) {
            if overwrite {
                dst.insert(k, sv)?;
            }
            continue;
        }
        let dv = dst.get(&k);
        let dst_empty = dv.as_ref().is_none_or(crate::funcs::is_empty);
        match (dv, entries(&sv)) {
            (Some(Value::Dict(d)), Some(s)) if !dst_empty => {
                merge_into(&mut Target::Shared(d), s, overwrite)?;
            }
            (Some(Value::Map(m)), Some(s)) if !dst_empty => {
                let mut inner = Target::Owned(m);
                merge_into(&mut inner, s, overwrite)?;
                if let Target::Owned(m) = inner {
                    dst.insert(k, Value::Map(m))?;
                }
            }
            _ if dst_empty || overwrite => dst.insert(k, sv)?,
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(pairs: &[(&str, Value)]) -> Value {
        dict(
            pairs
                .iter()
                .flat_map(|(k, v)| [Value::String(k.to_string()), v.clone()])
                .collect(),
        )
    }

    #[test]
    fn set_and_unset_change_the_dict_every_holder_sees() {
        let a = d(&[("x", Value::Int(1))]);
        let holder = Value::List(vec![a.clone()]);
        set(a.clone(), "y".into(), Value::Int(2)).unwrap();
        unset(a.clone(), "x").unwrap();
        let Value::List(l) = holder else { panic!() };
        assert_eq!(entries(&l[0]).unwrap().len(), 1);
        assert_eq!(get(&l[0], "y").unwrap(), Value::Int(2));
        // A value holding the dict itself would be a cycle.
        assert!(set(a.clone(), "me".into(), holder_of(&a)).is_err());
    }

    fn holder_of(v: &Value) -> Value {
        d(&[("inner", Value::List(vec![v.clone()]))])
    }

    #[test]
    fn merge_fills_empty_values_and_nested_dicts_in_place() {
        let nested = d(&[("keep", Value::String("dst".into()))]);
        let dst = d(&[
            ("off", Value::Bool(false)),
            ("name", Value::String("dst".into())),
            ("nested", nested.clone()),
        ]);
        let src = d(&[
            ("off", Value::Bool(true)),
            ("name", Value::String("src".into())),
            (
                "nested",
                d(&[("keep", Value::Int(0)), ("add", Value::Int(1))]),
            ),
            ("none", Value::Nil),
        ]);
        merge(vec![dst.clone(), src.clone()], false).unwrap();
        // mergo replaces an empty destination value (false) even without override.
        assert_eq!(get(&dst, "off").unwrap(), Value::Bool(true));
        assert_eq!(get(&dst, "name").unwrap(), Value::String("dst".into()));
        assert_eq!(get(&nested, "add").unwrap(), Value::Int(1));
        assert!(!entries(&dst).unwrap().contains_key("none"));
        merge(vec![dst.clone(), src], true).unwrap();
        assert_eq!(get(&dst, "name").unwrap(), Value::String("src".into()));
        assert_eq!(get(&dst, "none").unwrap(), Value::Nil);
        // deepCopy shares nothing.
        let copy = deep_copy(&dst);
        set(copy.clone(), "name".into(), Value::Int(3)).unwrap();
        assert_eq!(get(&dst, "name").unwrap(), Value::String("src".into()));
    }
}
