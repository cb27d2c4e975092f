//! Conversion between the node tree and JSON values, with go-yaml v3's typing of scalars.
//! Used to read configuration with serde and to hand objects to engines that want data, not
//! presentation. Aliases are expanded with a budget, so a "billion laughs" document fails
//! instead of exhausting memory.

use std::collections::HashMap;

use serde_json::{Map, Number, Value as Json};

use crate::node::{Node, Pair, Style, Value};
use crate::resolve::{parse_go_int, ScalarKind};
use crate::Error;

#[derive(Clone, Copy, Debug)]
pub struct JsonLimits {
    /// Most nodes the expansion may produce (aliases count their whole target each time).
    pub max_nodes: usize,
}

impl Default for JsonLimits {
    fn default() -> Self {
        JsonLimits {
            max_nodes: 10_000_000,
        }
    }
}

pub fn to_json(node: &Node) -> Result<Json, Error> {
    to_json_with(node, JsonLimits::default())
}

pub fn to_json_with(node: &Node, limits: JsonLimits) -> Result<Json, Error> {
    let mut c = Converter {
        anchors: HashMap::new(),
        budget: limits.max_nodes,
    };
    c.convert(node)
}

struct Converter<'n> {
    anchors: HashMap<&'n str, &'n Node>,
    budget: usize,
}

impl<'n> Converter<'n> {
    fn convert(&mut self, node: &'n Node) -> Result<Json, Error> {
        if self.budget == 0 {
            return Err(Error::new(
                "document expands to too many nodes (alias expansion limit)",
                0,
                0,
            ));
        }
        self.budget -= 1;
        if let Some(a) = node.anchor() {
            self.anchors.insert(a, node);
        }
        Ok(match &node.value {
            Value::Alias(name) => {
                let Some(target) = self.anchors.get(name.as_str()).copied() else {
                    return Err(Error::new(
                        format!("unknown anchor '{name}' referenced"),
                        0,
                        0,
                    ));
                };
                if std::ptr::eq(target, node) {
                    return Err(Error::new("anchor refers to itself", 0, 0));
                }
                self.convert(target)?
            }
            Value::Scalar(s) => scalar_to_json(node, s),
            Value::Sequence(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.convert(i)?);
                }
                Json::Array(out)
            }
            Value::Mapping(pairs) => {
                let mut out = Map::with_capacity(pairs.len());
                for Pair { key, value } in pairs {
                    if key.scalar_kind() == Some(ScalarKind::Merge) {
                        if let Json::Object(m) = self.convert(value)? {
                            for (k, v) in m {
                                out.entry(k).or_insert(v);
                            }
                        }
                        continue;
                    }
                    let k = match &key.value {
                        Value::Scalar(s) => s.to_string(),
                        _ => self.convert(key)?.to_string(),
                    };
                    let v = self.convert(value)?;
                    // Later duplicates do not override the first, as kyaml's lookups.
                    out.entry(k).or_insert(v);
                }
                Json::Object(out)
            }
        })
    }
}

fn scalar_to_json(node: &Node, s: &str) -> Json {
    match node.scalar_kind() {
        Some(ScalarKind::Null) => Json::Null,
        Some(ScalarKind::Bool) => Json::Bool(matches!(s, "true" | "True" | "TRUE")),
        Some(ScalarKind::Int) => int_to_json(s).unwrap_or_else(|| Json::String(s.to_string())),
        Some(ScalarKind::Float) => float_to_json(s).unwrap_or_else(|| Json::String(s.to_string())),
        _ => Json::String(s.to_string()),
    }
}

fn int_to_json(s: &str) -> Option<Json> {
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    let v = parse_go_int(&plain).or_else(|| {
        let (neg, body) = match plain.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, plain.strip_prefix('+').unwrap_or(&plain)),
        };
        let v = if let Some(b) = body.strip_prefix("0b") {
            i128::from_str_radix(b, 2).ok()?
        } else if let Some(o) = body.strip_prefix("0o") {
            i128::from_str_radix(o, 8).ok()?
        } else {
            return None;
        };
        Some(if neg { -v } else { v })
    })?;
    if let Ok(i) = i64::try_from(v) {
        Some(Json::Number(Number::from(i)))
    } else {
        u64::try_from(v).ok().map(|u| Json::Number(Number::from(u)))
    }
}

fn float_to_json(s: &str) -> Option<Json> {
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    let f: f64 = plain.parse().ok()?;
    Number::from_f64(f).map(Json::Number)
}

/// Builds a tree from JSON: strings become fresh strings (quoted when ambiguous), numbers,
/// booleans and null plain scalars, objects block mappings in their key order.
pub fn from_json(v: &Json) -> Node {
    match v {
        Json::Null => Node::plain("null"),
        Json::Bool(b) => Node::plain(if *b { "true" } else { "false" }),
        Json::Number(n) => Node::plain(n.to_string()),
        Json::String(s) => Node::scalar(s.clone(), Style::Any),
        Json::Array(a) => Node::sequence(a.iter().map(from_json).collect()),
        Json::Object(o) => Node::from_pairs(
            o.iter()
                .map(|(k, v)| Pair {
                    key: Node::string(k.clone()),
                    value: from_json(v),
                })
                .collect(),
        ),
    }
}
