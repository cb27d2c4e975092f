//! Helm's additions to the template function map (`pkg/engine/funcs.go` and the
//! late-bound `include`, `tpl`, `required`, `fail` of `pkg/engine/engine.go`), plus the sprig
//! list and dict builders tailor-go's sprig lacks.

use crate::dicts;
use serde_json::Value as Json;
use tailor_go::template::ParamType;
use tailor_go::template::{Funcs, Host};
use tailor_go::Budget;
use tailor_go::{Dict, Value};
use tailor_yaml::sigs::v2print::to_yaml_v2;
use tailor_yaml::sigs::v2read::{yaml11_to_json_within, ReadError};

/// Helm wraps `fail` and `required` messages so its error cleanup can find them.
pub const WARN_START: &str = "HELM[";
pub const WARN_END: &str = "]HELM";

/// The names this module defines.
pub const NAMES: &[&str] = &[
    "include",
    "tpl",
    "required",
    "fail",
    "toYaml",
    "fromYaml",
    "fromYamlArray",
    "toJson",
    "fromJson",
    "fromJsonArray",
    "lookup",
    "dict",
    "list",
    "get",
    "set",
    "unset",
    "keys",
];

/// Helm's engine functions; `root` is the name of the template set (Go's `gotpl`).
pub struct HelmFuncs;

impl Funcs for HelmFuncs {
    fn signature(&self, name: &str) -> Option<(&'static [ParamType], bool)> {
        use ParamType::{Any, String as S};
        let name = must_alias(name);
        let sig = crate::sprig::signature(name)
            .or_else(|| crate::more::signature(name))
            .or_else(|| crate::extra::signature(name));
        if let Some(sig) = sig {
            return Some(sig);
        }
        Some(match name {
            "include" | "tpl" => (&[S, Any], false),
            "required" => (&[S, Any], false),
            "fail" | "fromYaml" | "fromYamlArray" | "fromJson" | "fromJsonArray" => (&[S], false),
            "toYaml" | "toJson" => (&[Any], false),
            "lookup" => (&[S, S, S, S], false),
            "dict" | "list" => (&[Any], true),
            "get" | "unset" => (&[Any, S], false),
            "set" => (&[Any, S, Any], false),
            "keys" => (&[Any], true),
            _ => return None,
        })
    }

    fn call(&self, host: &mut dyn Host, name: &str, args: Vec<Value>) -> Result<Value, String> {
        let name = must_alias(name);
        if crate::sprig::NAMES.contains(&name) {
            return crate::sprig::call(name, args);
        }
        if crate::more::signature(name).is_some() {
            return crate::more::call(name, args);
        }
        if crate::extra::signature(name).is_some() {
            return crate::extra::call(name, args);
        }
        let mut args = args.into_iter();
        let mut next = || args.next().unwrap_or(Value::Nil);
        match name {
            "include" => {
                let (tname, data) = (string(next()), next());
                let out = host.execute_template(&tname, data).map_err(|e| e.message)?;
                Ok(Value::String(String::from_utf8_lossy(&out).into_owned()))
            }
            "tpl" => {
                let (text, data) = (string(next()), next());
                let out = host.execute_text("gotpl", &text, data).map_err(|e| {
                    format!(
                        "error during tpl function execution for {}: {}",
                        tailor_go::strconv::quote(&text),
                        e.message
                    )
                })?;
                Ok(Value::String(
                    String::from_utf8_lossy(&out).replace("<no value>", ""),
                ))
            }
            "required" => {
                let (warn, v) = (string(next()), next());
                match &v {
                    Value::Nil => Err(format!("{WARN_START}{warn}{WARN_END}")),
                    Value::String(s) if s.is_empty() => {
                        Err(format!("{WARN_START}{warn}{WARN_END}"))
                    }
                    _ => Ok(v),
                }
            }
            "fail" => Err(format!("{WARN_START}{}{WARN_END}", string(next()))),
            "toYaml" => Ok(Value::String(to_yaml(&next()))),
            "toJson" => Ok(Value::String(crate::encode::to_json_text(&next()))),
            "fromYaml" => from_yaml(&string(next()), false, host.budget()),
            "fromYamlArray" => from_yaml(&string(next()), true, host.budget()),
            "fromJson" => Ok(from_json(&string(next()), false)),
            "fromJsonArray" => Ok(from_json(&string(next()), true)),
            "lookup" => Ok(Value::Dict(Dict::default())),
            "list" => Ok(Value::List(args.collect())),
            "dict" => Ok(dicts::dict(args.collect())),
            "get" => dicts::get(&next(), &string(next())),
            "set" => dicts::set(next(), string(next()), next()),
            "unset" => dicts::unset(next(), &string(next())),
            "keys" => Ok(dicts::keys(args.collect())),
            _ => Err(format!("function {name} not defined")),
        }
    }

    fn method_signature(&self, typ: &str, name: &str) -> Option<(&'static [ParamType], bool)> {
        Some(match (typ, name) {
            ("Files", "Get" | "GetBytes" | "Glob" | "Lines") => (&[ParamType::String], false),
            ("Files", "AsConfig" | "AsSecrets") => (&[], false),
            ("VersionSet", "Has") => (&[ParamType::String], false),
            ("KubeVersion", "String" | "GitVersion") => (&[], false),
            ("Version", "String") => (&[], false),
            ("Version", "Compare" | "LessThan" | "GreaterThan" | "Equal") => {
                (&[ParamType::Any], false)
            }
            _ => return None,
        })
    }

    fn call_method(
        &self,
        _host: &mut dyn Host,
        typ: &str,
        name: &str,
        receiver: Value,
        args: Vec<Value>,
    ) -> Result<Value, String> {
        if typ == "Version" {
            return crate::encode::version_method(name, &receiver, args);
        }
        let arg = args.into_iter().next().map(string).unwrap_or_default();
        let Value::Map(mut recv) = receiver else {
            return Err(format!("{typ} is not a map"));
        };
        let inner = recv.remove(HIDDEN).unwrap_or(Value::Nil);
        match (typ, name, inner) {
            ("Files", _, Value::Dict(files)) => Ok(crate::files::call(&files, name, &arg)),
            ("VersionSet", "Has", Value::List(l)) => Ok(Value::Bool(
                l.iter().any(|v| matches!(v, Value::String(s) if *s == arg)),
            )),
            ("KubeVersion", _, _) => Ok(recv.remove("Version").unwrap_or(Value::Nil)),
            _ => Err(format!("{typ} has no method {name}")),
        }
    }
}

/// Where a host object keeps what its methods read (the files, the version list).
pub const HIDDEN: &str = "\u{0}data";

/// A map standing for a Go value of host type `typ` with methods.
pub fn object(typ: &str, data: Value, fields: Vec<(&str, Value)>) -> Value {
    let mut m: std::collections::BTreeMap<String, Value> = fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    m.insert(
        tailor_go::template::METHOD_TYPE_KEY.to_string(),
        Value::String(typ.into()),
    );
    m.insert(HIDDEN.to_string(), data);
    Value::Map(m)
}

/// sprig's `empty`: zero values, empty collections and nil.
pub fn is_empty(v: &Value) -> bool {
    match v {
        Value::Nil => true,
        Value::Bool(b) => !b,
        Value::Int(n) => *n == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        Value::StringMap(m) => m.is_empty(),
        Value::Dict(d) => d.is_empty(),
    }
}

/// Every function name Helm's engine adds here (its own and the sprig ones tailor-go lacks).
pub fn host_names() -> Vec<String> {
    NAMES
        .iter()
        .chain(crate::sprig::NAMES)
        .chain(crate::more::NAMES)
        .chain(crate::extra::names())
        .chain(crate::more::MUST_ALIASES.iter().map(|(m, _)| m))
        .chain(crate::more::REFUSED.iter().map(|(r, _)| r))
        .map(|s| s.to_string())
        .collect()
}

/// The function a `must` variant runs as (see [`crate::more::MUST_ALIASES`]).
fn must_alias(name: &str) -> &str {
    crate::more::MUST_ALIASES
        .iter()
        .find(|(m, _)| *m == name)
        .map_or(name, |(_, plain)| plain)
}

fn string(v: Value) -> String {
    match v {
        Value::String(s) => s,
        _ => String::new(),
    }
}

/// The value as `encoding/json` sees it: ints stay ints, floats floats.
pub fn to_json(v: &Value) -> Json {
    match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(n) => Json::from(*n),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::String(s) => Json::String(s.clone()),
        Value::List(l) => Json::Array(l.iter().map(to_json).collect()),
        Value::Map(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
        Value::StringMap(m) => Json::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), Json::String(v.clone())))
                .collect(),
        ),
        Value::Dict(d) => to_json(&Value::Map(d.snapshot())),
    }
}

/// JSON as Go's `interface{}` in a template's data (values, `fromYaml`...): maps are
/// shared [`Dict`]s, as Go's maps are.
pub fn from_json_shared(j: &Json) -> Value {
    match j {
        Json::Object(o) => Value::Dict(Dict::new(
            o.iter()
                .map(|(k, v)| (k.clone(), from_json_shared(v)))
                .collect(),
        )),
        Json::Array(a) => Value::List(a.iter().map(from_json_shared).collect()),
        other => from_json_value(other),
    }
}

/// JSON as Go's `interface{}`: integral numbers that fit stay int64 only when serde
/// read them as integers (`--set`), everything else is float64. Maps are held by value
/// (what a host object such as `.Chart` carries).
pub fn from_json_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) if !n.is_f64() => Value::Int(i),
            _ => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::List(a.iter().map(from_json_value).collect()),
        Json::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| (k.clone(), from_json_value(v)))
                .collect(),
        ),
    }
}

/// Helm's `toYAML`: `sigs.k8s.io/yaml.Marshal`, the trailing newline cut.
pub fn to_yaml(v: &Value) -> String {
    let text = to_yaml_v2(&to_json(v));
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

fn error_map(e: String) -> Value {
    Value::Dict(Dict::new(
        [("Error".to_string(), Value::String(e))]
            .into_iter()
            .collect(),
    ))
}

/// Helm's `fromYAML`/`fromYAMLArray`: errors come back in the result (`Error` key or item).
/// sigs.k8s.io/yaml words a type mismatch after its JSON conversion.
/// Helm's `fromYaml`: text that is not YAML is an `Error` entry, as Helm returns it; the run's
/// `budget` running out on the nodes aliases expand to (go-yaml's limit bounds one document,
/// not a loop that decodes it again and again) is an error of the execution.
fn from_yaml(text: &str, array: bool, budget: &Budget) -> Result<Value, String> {
    let parsed = match yaml11_to_json_within(text, budget) {
        Ok(json) => Ok(crate::strvals::numbers_as_float(json)),
        Err(ReadError::Budget(e)) => return Err(e.to_string()),
        Err(e) => Err(format!("error converting YAML to JSON: {e}")),
    };
    let prefix = "error unmarshaling JSON: while decoding JSON: ";
    Ok(decoded(parsed, array, prefix))
}

fn from_json(text: &str, array: bool) -> Value {
    let parsed = serde_json::from_str::<Json>(text)
        .map(crate::strvals::numbers_as_float)
        .map_err(|e| e.to_string());
    decoded(parsed, array, "")
}

/// `encoding/json`'s name for a JSON value's kind in `cannot unmarshal KIND`.
fn json_kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn decoded(parsed: Result<Json, String>, array: bool, prefix: &str) -> Value {
    let go_type = if array {
        "[]interface {}"
    } else {
        "map[string]interface {}"
    };
    match (parsed, array) {
        (Ok(j @ Json::Object(_)), false) | (Ok(j @ Json::Array(_)), true) => from_json_shared(&j),
        (Ok(Json::Null), false) => Value::Dict(Dict::default()),
        (Ok(Json::Null), true) => Value::List(Vec::new()),
        (Ok(j), _) => {
            let e = format!(
                "{prefix}json: cannot unmarshal {} into Go value of type {go_type}",
                json_kind(&j)
            );
            if array {
                Value::List(vec![Value::String(e)])
            } else {
                error_map(e)
            }
        }
        (Err(e), false) => error_map(e),
        (Err(e), true) => Value::List(vec![Value::String(e)]),
    }
}
