//! Conversion between the node tree and JSON values, with go-yaml v3's typing of scalars.
//! Used to read configuration with serde and to hand objects to engines that want data, not
//! presentation. Aliases are expanded under go-yaml's own limit (see [`crate::alias`]), so a
//! "billion laughs" document fails as it does in kyaml, instead of exhausting memory.

use std::collections::HashMap;

use serde_json::{Map, Number, Value as Json};

use crate::alias::AliasGuard;
use crate::node::{Node, Pair, Style, Value};
use crate::resolve::{parse_go_int, ScalarKind};
use crate::Error;

#[derive(Clone, Copy, Debug)]
pub struct JsonLimits {
    /// Most nodes the conversion may visit (aliases count their whole target each time). The
    /// alias ratio refuses bombs long before; this caps the size of any one conversion.
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
        guard: AliasGuard::new(),
        depth: 0,
    };
    c.convert(node)
}

/// Longest JSON text a collection key may become (keys are JSON object keys, so a mapping or
/// sequence used as a key is written as its JSON text).
const MAX_COLLECTION_KEY_BYTES: usize = 64 * 1024;

struct Converter<'n> {
    anchors: HashMap<&'n str, &'n Node>,
    budget: usize,
    guard: AliasGuard<'n>,
    depth: usize,
}

impl<'n> Converter<'n> {
    /// Counts one node (go-yaml's decoder counts keys too, merge keys `<<` excepted).
    fn visit(&mut self) -> Result<(), Error> {
        if self.budget == 0 {
            return Err(Error::new(
                "document expands to too many nodes (conversion limit)",
                0,
                0,
            ));
        }
        self.budget -= 1;
        self.guard.visit(self.depth)
    }

    fn convert(&mut self, node: &'n Node) -> Result<Json, Error> {
        self.visit()?;
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
                self.guard.enter_alias(node, name)?;
                let v = self.convert(target)?;
                self.guard.leave_alias();
                v
            }
            Value::Scalar(s) => scalar_to_json(node, s),
            Value::Sequence(items) => {
                self.depth += 1;
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.convert(i)?);
                }
                self.depth -= 1;
                Json::Array(out)
            }
            Value::Mapping(pairs) => {
                self.depth += 1;
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
                        Value::Scalar(s) => {
                            // An anchor on a key is defined there too: a later alias means it.
                            if let Some(a) = key.anchor() {
                                self.anchors.insert(a, key);
                            }
                            self.visit()?;
                            s.to_string()
                        }
                        _ => {
                            let k = match self.convert(key)? {
                                // An alias to a scalar is that scalar's text, as go-yaml's
                                // decoder reads it.
                                Json::String(s) => s,
                                other => other.to_string(),
                            };
                            // A key holding a key holding a key... doubles its escapes at every
                            // level: without a cap 45 nested `? ` took minutes and gigabytes.
                            if k.len() > MAX_COLLECTION_KEY_BYTES {
                                return Err(Error::new(
                                    format!(
                                        "a collection used as a mapping key converts to more than {MAX_COLLECTION_KEY_BYTES} bytes"
                                    ),
                                    0,
                                    0,
                                ));
                            }
                            k
                        }
                    };
                    let v = self.convert(value)?;
                    // Later duplicates do not override the first, as kyaml's lookups.
                    out.entry(k).or_insert(v);
                }
                self.depth -= 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_stream;

    /// `a` anchors a list of 999 scalars and `b` lists `aliases` aliases to it. Visits:
    /// 1004 without the aliases, then 1001 per alias of which 1000 through it; at 99% the
    /// limit lies between 110 aliases (110,000 of 111,114 visits) and 111.
    fn anchored_list(aliases: usize) -> Node {
        let items = vec!["x"; 999].join(", ");
        let refs = vec!["*a"; aliases].join(", ");
        let src = format!("a: &a [{items}]\nb: [{refs}]\n");
        parse_stream(&src).unwrap().remove(0).root
    }

    #[test]
    fn alias_ratio_boundary() {
        let ok = to_json(&anchored_list(110)).unwrap();
        assert_eq!(ok["b"].as_array().map(Vec::len), Some(110));
        let e = to_json(&anchored_list(111)).unwrap_err();
        assert_eq!(e.to_string(), "yaml: document contains excessive aliasing");
    }

    #[test]
    fn billion_laughs_fails_early() {
        let mut src = String::from("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..10 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            src.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        let root = parse_stream(&src).unwrap().remove(0).root;
        let e = to_json(&root).unwrap_err();
        assert_eq!(e.message, "document contains excessive aliasing");
    }

    #[test]
    fn alias_cycles_are_refused_not_recursed() {
        let root = parse_stream("a: &s [x, {k: *s}]\n").unwrap().remove(0).root;
        assert_eq!(
            to_json(&root).unwrap_err().message,
            "anchor 's' value contains itself"
        );
        // The same anchor used twice side by side is no cycle.
        let root = parse_stream("a: &s [x]\nb: [*s, *s]\n")
            .unwrap()
            .remove(0)
            .root;
        assert_eq!(to_json(&root).unwrap()["b"][1][0], "x");
    }

    #[test]
    fn nested_collection_keys_are_capped() {
        // Found by fuzzing: each level escapes the one inside it again, so the key text
        // doubles per level.
        let src = format!("{}x\n", "? ".repeat(45));
        let root = parse_stream(&src).unwrap().remove(0).root;
        let e = to_json(&root).unwrap_err();
        assert_eq!(
            e.message,
            "a collection used as a mapping key converts to more than 65536 bytes"
        );
        let root = parse_stream("? {a: [1]}\n: v\n").unwrap().remove(0).root;
        assert_eq!(to_json(&root).unwrap()["{\"a\":[1]}"], "v");
    }

    #[test]
    fn anchors_on_keys_and_aliases_used_as_keys() {
        // As go-yaml v3 decodes them: an anchor on a key is defined there for later aliases,
        // and an alias used as a key is the text of the scalar it names, not JSON of it.
        let root = parse_stream("&a k: v\nb: *a\nx: &n 1\n*n : w\ny: &s \"q\"\n*s : z\n")
            .unwrap()
            .remove(0)
            .root;
        assert_eq!(
            to_json(&root).unwrap(),
            serde_json::json!({"k": "v", "b": "k", "x": 1, "1": "w", "y": "q", "q": "z"})
        );
    }

    #[test]
    fn conversion_limit_still_applies() {
        let root = parse_stream("[a, b, c]").unwrap().remove(0).root;
        assert!(to_json_with(&root, JsonLimits { max_nodes: 4 }).is_ok());
        let e = to_json_with(&root, JsonLimits { max_nodes: 3 }).unwrap_err();
        assert_eq!(
            e.message,
            "document expands to too many nodes (conversion limit)"
        );
    }
}
