//! `sigs.k8s.io/yaml.YAMLToJSON` as Flux calls it on substituted text: yaml.v2 (YAML 1.1)
//! decoding into `interface{}`, then `encoding/json`. `on` is `true`, `0777` is 511, a
//! timestamp stays a string, later duplicate keys win, and non-finite floats cannot become JSON.

use std::collections::HashMap;

use crate::alias::AliasGuard;
use crate::{parse_stream_with, Node, ParseOptions, Style, Value};
use serde_json::{Map, Number, Value as Json};
use tailor_go::budget::Exceeded;
use tailor_go::Budget;

use crate::sigs::numbers::go_format_g;
use crate::sigs::v2resolve::{resolve, Resolved};

/// Converts substituted YAML text to JSON. The error is the Go error text (`yaml: line 4: ...`,
/// `json: unsupported value: +Inf`) without Flux's `envsubst error: YAMLToJSON:` prefix.
pub fn yaml11_to_json(text: &str) -> Result<Json, String> {
    yaml11_to_json_within(text, &Budget::unlimited()).map_err(|e| e.to_string())
}

/// Why [`yaml11_to_json_within`] read no JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadError {
    /// The Go error text, as [`yaml11_to_json`] gives it.
    Yaml(String),
    /// The run's budget ran out while aliases were expanded.
    Budget(Exceeded),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Yaml(e) => f.write_str(e),
            ReadError::Budget(e) => e.fmt(f),
        }
    }
}

/// [`yaml11_to_json`] for text read again for every destination (Fleet's templated values):
/// each node expanded from an alias is an evaluation step of the run's `budget`, so go-yaml's
/// limit bounds one document and the budget bounds them all.
pub fn yaml11_to_json_within(text: &str, budget: &Budget) -> Result<Json, ReadError> {
    // yaml.v2 (not strict) lets a later duplicate key win instead of refusing it.
    let opts = ParseOptions {
        unique_keys: false,
        ..ParseOptions::default()
    };
    let docs = parse_stream_with(text, &opts).map_err(|e| ReadError::Yaml(v2_error_text(e)))?;
    let Some(doc) = docs.into_iter().next() else {
        return Ok(Json::Null);
    };
    if doc.empty {
        return Ok(Json::Null);
    }
    let mut c = Converter {
        anchors: HashMap::new(),
        guard: AliasGuard::new(),
        depth: 0,
        budget,
        charged: 0,
        exceeded: None,
    };
    let json = c.convert(&doc.root).and_then(|json| {
        c.charge_aliased()?;
        Ok(json)
    });
    match (json, c.exceeded) {
        (_, Some(e)) => Err(ReadError::Budget(e)),
        (Ok(json), None) => Ok(json),
        (Err(e), None) => Err(ReadError::Yaml(e)),
    }
}

/// Alias expansions counted before they are charged to the run's budget, which is shared
/// between threads and so charged in chunks.
const ALIASED_CHUNK: u64 = 4096;

/// yaml.v2 names a different line than go-yaml v3 for libyaml's errors: the problem's before
/// the context's (see [`crate::Error::yaml_v2_line`]).
fn v2_error_text(e: crate::Error) -> String {
    let mut e = e;
    e.line = e.yaml_v2_line();
    // yaml.v2 finds an undefined alias while composing, where it has no position to give.
    if e.message.starts_with("unknown anchor '") {
        e.line = 0;
    }
    e.to_string()
}

struct Converter<'n> {
    anchors: HashMap<&'n str, &'n Node>,
    /// yaml.v2 (since 2.2.8) has go-yaml v3's limit on alias expansion and cycles.
    guard: AliasGuard<'n>,
    depth: usize,
    /// The run's budget, which spends a step per node visited through an alias.
    budget: &'n Budget,
    /// Visits through aliases charged to the budget so far.
    charged: u64,
    /// The budget ran out (the error that unwinds the conversion is its text).
    exceeded: Option<Exceeded>,
}

impl<'n> Converter<'n> {
    /// Charges the visits through aliases not charged yet.
    fn charge_aliased(&mut self) -> Result<(), String> {
        let aliased = self.guard.counts().1 as u64;
        let due = aliased - self.charged;
        self.charged = aliased;
        self.budget.charge_steps(due).map_err(|e| {
            self.exceeded = Some(e);
            e.to_string()
        })
    }

    fn convert(&mut self, node: &'n Node) -> Result<Json, String> {
        self.guard.visit(self.depth).map_err(|e| e.to_string())?;
        if self.guard.counts().1 as u64 - self.charged >= ALIASED_CHUNK {
            self.charge_aliased()?;
        }
        if let Some(a) = node.anchor() {
            self.anchors.insert(a, node);
        }
        match &node.value {
            Value::Alias(name) => match self.anchors.get(name.as_str()).copied() {
                Some(target) => {
                    self.guard
                        .enter_alias(node, name)
                        .map_err(|e| e.to_string())?;
                    let v = self.convert(target)?;
                    self.guard.leave_alias();
                    Ok(v)
                }
                None => Err(format!("yaml: unknown anchor '{name}' referenced")),
            },
            Value::Scalar(s) => scalar(node, s),
            Value::Sequence(items) => {
                self.depth += 1;
                let v = items
                    .iter()
                    .map(|i| self.convert(i))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Json::Array);
                self.depth -= 1;
                v
            }
            Value::Mapping(pairs) => {
                self.depth += 1;
                let mut out = Map::with_capacity(pairs.len());
                for pair in pairs {
                    if is_merge_key(&pair.key) {
                        self.merge(&pair.value, &mut out)?;
                        continue;
                    }
                    let key = self.convert(&pair.key)?;
                    let value = self.convert(&pair.value)?;
                    let key = match key {
                        Json::String(s) => s,
                        other => json_key(&other, &value)?,
                    };
                    // yaml.v2 is not strict about duplicates: the last one wins.
                    out.insert(key, value);
                }
                self.depth -= 1;
                Ok(Json::Object(out))
            }
        }
    }

    /// `<<: *base` or `<<: [*a, *b]`: yaml.v2 writes the merged keys at that point, so keys
    /// after it override them.
    fn merge(&mut self, value: &'n Node, out: &mut Map<String, Json>) -> Result<(), String> {
        let merged = self.convert(value)?;
        let sources = match merged {
            Json::Object(_) => vec![merged],
            Json::Array(items) => items.into_iter().rev().collect(),
            _ => {
                return Err("yaml: map merge requires map or sequence of maps as the value".into())
            }
        };
        for source in sources {
            match source {
                Json::Object(m) => out.extend(m),
                _ => {
                    return Err(
                        "yaml: map merge requires map or sequence of maps as the value".into(),
                    )
                }
            }
        }
        Ok(())
    }
}

fn is_merge_key(key: &Node) -> bool {
    key.style == Style::Plain && key.tag().is_none() && key.as_scalar() == Some("<<")
}

fn scalar(node: &Node, s: &str) -> Result<Json, String> {
    let tag = node.tag().map(crate::short_tag);
    let plain = matches!(node.style, Style::Plain | Style::Any);
    match tag.as_deref() {
        Some("!!str") => return Ok(Json::String(s.to_string())),
        Some("!!binary") => return Ok(Json::String(decode_binary(s)?)),
        Some(t) if !t.starts_with("!!") => return Ok(Json::String(s.to_string())),
        None if !plain => return Ok(Json::String(s.to_string())),
        _ => {}
    }
    Ok(match resolve(s) {
        Resolved::Null => Json::Null,
        Resolved::Bool(b) => Json::Bool(b),
        Resolved::Int(v) => match i64::try_from(v) {
            Ok(i) => Json::Number(Number::from(i)),
            Err(_) => Json::Number(Number::from(v as u64)),
        },
        Resolved::Float(f) => match Number::from_f64(f) {
            Some(n) => Json::Number(n),
            None => return Err(format!("json: unsupported value: {}", go_nonfinite(f))),
        },
        Resolved::Timestamp | Resolved::Merge | Resolved::Str => Json::String(s.to_string()),
    })
}

fn go_nonfinite(f: f64) -> &'static str {
    if f.is_nan() {
        "NaN"
    } else if f > 0.0 {
        "+Inf"
    } else {
        "-Inf"
    }
}

/// sigs.k8s.io/yaml's key conversion for the non-string keys YAML 1.1 produces.
fn json_key(key: &Json, value: &Json) -> Result<String, String> {
    Ok(match key {
        Json::String(s) => s.clone(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) if n.is_i64() => n.to_string(),
        Json::Number(n) if n.is_f64() => {
            // Formatted at float32 precision, as the Go code does.
            let f = n.as_f64().unwrap_or(0.0) as f32;
            go_format_g(f as f64)
        }
        other => {
            return Err(format!(
                "unsupported map key of type: {}, key: {}, value: {}",
                match other {
                    Json::Null => "<nil>",
                    Json::Number(_) => "uint64",
                    _ => "map",
                },
                other,
                value
            ))
        }
    })
}

/// yaml.v2 decodes `!!binary` with Go's `base64.StdEncoding`, the decoder Flux also uses for
/// Secret values.
fn decode_binary(s: &str) -> Result<String, String> {
    let bytes = tailor_go::base64::decode_std(s.as_bytes())
        .map_err(|_| "yaml: !!binary value contains invalid base64 data".to_string())?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml11_typing() {
        let j = yaml11_to_json(
            "a: on\nb: 0777\nc: 2001-12-14\nd: '1'\ne: !!str 123\nf: ~\ng: 1e3\nh: [a, b]\n",
        )
        .unwrap();
        assert_eq!(
            j,
            json!({"a": true, "b": 511, "c": "2001-12-14", "d": "1", "e": "123", "f": null, "g": 1000.0, "h": ["a", "b"]})
        );
    }

    #[test]
    fn duplicates_last_wins_and_merge() {
        let j = yaml11_to_json("base: &b {x: 1, z: 2}\nm:\n  <<: *b\n  z: 3\nk: 1\nk: 2\ny: 1\n")
            .unwrap();
        assert_eq!(j["m"], json!({"x": 1, "z": 3}));
        // YAML 1.1: the key `y` is the boolean true.
        assert_eq!(j["true"], json!(1));
        assert_eq!(j["k"], json!(2));
    }

    #[test]
    fn nodes_expanded_from_aliases_spend_the_run_budget() {
        // 50 aliases to a list of 100 scalars: 5,050 visits through aliases, under go-yaml's
        // ratio; the budget is charged in chunks and once more at the end.
        let items = vec!["x"; 100].join(", ");
        let refs = vec!["*a"; 50].join(", ");
        let text = format!("a: &a [{items}]\nb: [{refs}]\n");
        let enough = Budget::new(u64::MAX, 5_050);
        assert!(yaml11_to_json_within(&text, &enough).is_ok());
        assert!(enough.charge_steps(1).is_err(), "all 5,050 were charged");
        let e = yaml11_to_json_within(&text, &Budget::new(u64::MAX, 5_049)).unwrap_err();
        assert!(matches!(e, ReadError::Budget(_)), "{e:?}");
        assert!(
            e.to_string().contains("spec.limits.maxRunEvaluationSteps"),
            "{e}"
        );
        // Without aliases nothing is spent.
        let none = Budget::new(u64::MAX, 1);
        assert!(yaml11_to_json_within("a: [x, y]\nb: {c: d}\n", &none).is_ok());
        assert!(none.charge_steps(1).is_ok());
    }

    #[test]
    fn alias_cycles_and_bombs_are_refused() {
        // `&s [*s]` recursed until the stack overflowed.
        assert_eq!(
            yaml11_to_json("a: &s [x, *s]\n").unwrap_err(),
            "yaml: anchor 's' value contains itself"
        );
        let mut src = String::from("l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n");
        for i in 1..8 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            src.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        assert_eq!(
            yaml11_to_json(&src).unwrap_err(),
            "yaml: document contains excessive aliasing"
        );
    }

    #[test]
    fn a_key_without_colon_at_the_end_is_found_on_the_forced_new_line() {
        // yaml.v2 names the problem's line: at the end of input libyaml's fetch_stream_end
        // moves to a new line before it finds the ':' missing (Helm's golden
        // template-with-invalid-yaml.txt says `line 11` for a key on the tenth line).
        for text in ["a: 1\ninvalid", "a: 1\ninvalid\n"] {
            assert_eq!(
                yaml11_to_json(text).unwrap_err(),
                "yaml: line 3: could not find expected ':'"
            );
        }
    }

    #[test]
    fn go_errors() {
        assert_eq!(
            yaml11_to_json("a: .inf\n").unwrap_err(),
            "json: unsupported value: +Inf"
        );
        assert!(yaml11_to_json("a: *x\n")
            .unwrap_err()
            .contains("unknown anchor 'x' referenced"));
        // A scanner error on the first line: yaml.v2 names no line (checked with yaml.v2
        // v2.4.0), on later ones the problem's, counted from 1.
        assert_eq!(
            yaml11_to_json("a: x: y\n").unwrap_err(),
            "yaml: mapping values are not allowed in this context"
        );
        assert_eq!(
            yaml11_to_json("x: 1\na: \"x\ny\n").unwrap_err(),
            "yaml: line 4: found unexpected end of stream"
        );
        // A parser error: the problem's 0-based line, where go-yaml v3 names the context's.
        assert_eq!(
            yaml11_to_json("a:\n  b: 1\n c: 2\n").unwrap_err(),
            "yaml: line 2: did not find expected key"
        );
    }
}
