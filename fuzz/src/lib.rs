//! Helpers shared by the fuzz targets: a structural view of YAML trees (what a round trip must
//! keep) and the small fixed inputs the engine targets run against.

use tailor_yaml::{Node, ScalarKind, Style, Value};

/// What a YAML tree means, without its presentation: comments, spans, quoting and flow/block
/// style are left out; scalars keep their text and the type a reader would give them.
#[derive(Debug, PartialEq)]
pub enum Shape {
    Scalar {
        kind: Option<ScalarKind>,
        text: String,
        tag: Option<String>,
        anchor: Option<String>,
        /// Read in folded style (`>`): see [`equivalent`].
        folded: bool,
    },
    Mapping {
        pairs: Vec<(Shape, Shape)>,
        tag: Option<String>,
        anchor: Option<String>,
    },
    Sequence {
        items: Vec<Shape>,
        tag: Option<String>,
        anchor: Option<String>,
    },
    Alias(String),
}

pub fn shape(n: &Node) -> Shape {
    let tag = n.short_tag();
    let anchor = n.anchor().map(str::to_string);
    match &n.value {
        Value::Scalar(s) => Shape::Scalar {
            kind: n.scalar_kind(),
            text: s.to_string(),
            tag,
            anchor,
            folded: n.style == Style::Folded,
        },
        Value::Mapping(pairs) => Shape::Mapping {
            pairs: pairs
                .iter()
                .map(|p| (shape(&p.key), shape(&p.value)))
                .collect(),
            tag,
            anchor,
        },
        Value::Sequence(items) => Shape::Sequence {
            items: items.iter().map(shape).collect(),
            tag,
            anchor,
        },
        Value::Alias(a) => Shape::Alias(a.clone()),
    }
}

/// Whether `after` (the tree read back from emitted text) means what `before` meant.
///
/// Two changes are accepted, both go-yaml v3 emitter behaviour that tailor-yaml reproduces on
/// purpose (kyaml, and so kustomize and kpt, write the same bytes):
/// - an empty null (`{a}`, `{a: }`, `? &a`, `? !local`) comes back as the empty string: an
///   empty scalar inside a flow collection or as a key is written `''` (with its anchor or
///   tag: go-yaml writes `!local '': v`);
/// - a folded scalar with a more-indented line right after a normal line gets a blank line
///   before it (go-yaml's `write_folded_scalar` tests the value's start instead of the
///   current position), so `"u\n a\n"` comes back as `"u\n\n a\n"`.
pub fn equivalent(before: &Shape, after: &Shape) -> bool {
    match (before, after) {
        (
            Shape::Scalar {
                kind: k1,
                text: t1,
                tag: g1,
                anchor: a1,
                folded,
            },
            Shape::Scalar {
                kind: k2,
                text: t2,
                tag: g2,
                anchor: a2,
                ..
            },
        ) => {
            if g1 != g2 || a1 != a2 {
                return false;
            }
            if k1 == &Some(ScalarKind::Null)
                && k2 == &Some(ScalarKind::Str)
                && t1.is_empty()
                && t2.is_empty()
            {
                return true;
            }
            k1 == k2 && (t1 == t2 || (*folded && folded_quirk(t1) == folded_quirk(t2)))
        }
        (
            Shape::Mapping {
                pairs: p1,
                tag: t1,
                anchor: a1,
            },
            Shape::Mapping {
                pairs: p2,
                tag: t2,
                anchor: a2,
            },
        ) => {
            t1 == t2
                && a1 == a2
                && p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(p2)
                    .all(|((k1, v1), (k2, v2))| equivalent(k1, k2) && equivalent(v1, v2))
        }
        (
            Shape::Sequence {
                items: i1,
                tag: t1,
                anchor: a1,
            },
            Shape::Sequence {
                items: i2,
                tag: t2,
                anchor: a2,
            },
        ) => {
            t1 == t2
                && a1 == a2
                && i1.len() == i2.len()
                && i1.iter().zip(i2).all(|(x, y)| equivalent(x, y))
        }
        _ => before == after,
    }
}

/// A folded scalar's text with the blank lines go-yaml inserts before more-indented lines
/// taken out again.
fn folded_quirk(t: &str) -> String {
    let mut s = t.to_string();
    while s.contains("\n\n ") || s.contains("\n\n\t") {
        s = s.replace("\n\n ", "\n ").replace("\n\n\t", "\n\t");
    }
    s
}

/// Objects the engine targets edit: a small but varied set (nested maps, lists, a list of
/// maps with names, numbers, quoted strings, a CRD-like kind).
pub const FIXTURE: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels: {app: web, tier: "1"}
  annotations:
    control.kubestellar.io/preserve: nodeport
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
        ports: [{containerPort: 80}]
        env:
        - {name: A, value: "x"}
      - name: side
        image: busybox
---
apiVersion: v1
kind: Service
metadata: {name: web, resourceVersion: "7", uid: abc}
spec:
  clusterIP: 10.0.0.1
  ports:
  - {port: 80, nodePort: 30080}
status: {loadBalancer: {}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data:
  host: a.example
  list: "a,b,c"
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {a: {b: [1, 2, {c: d}]}}
"#;

pub fn fixture_nodes() -> Vec<Node> {
    tailor_yaml::parse_stream(FIXTURE)
        .expect("fixture parses")
        .into_iter()
        .map(|d| d.root)
        .collect()
}

/// The common prologue of the targets that take a flags byte: the first byte, and the rest as
/// UTF-8 text. `None` (nothing to test) when the input is empty or the rest is not UTF-8.
pub fn flags_and_text(data: &[u8]) -> Option<(u8, &str)> {
    let (&flags, rest) = data.split_first()?;
    Some((flags, std::str::from_utf8(rest).ok()?))
}

/// The common prologue of the targets that read YAML: the input as UTF-8 text parsed into
/// documents. `None` when it is not UTF-8 or does not parse.
pub fn yaml_docs(data: &[u8]) -> Option<Vec<tailor_yaml::Document>> {
    tailor_yaml::parse_stream(std::str::from_utf8(data).ok()?).ok()
}

/// Splits fuzz input into a first line (parameters) and the rest.
pub fn split_first_line(s: &str) -> (&str, &str) {
    match s.find('\n') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    }
}

/// libfuzzer-sys installs a panic hook that aborts on every panic, even one that is caught.
/// tailor-kubestellar (strip) deliberately catches panics of the third-party JSONPath parser
/// (`catch_unwind` in `parse_remove_path`), so targets that reach it use a hook that only
/// prints: a panic that escapes the target still aborts (libfuzzer-sys's wrapper aborts when
/// the target unwinds), a caught one does not count as a crash.
pub fn allow_caught_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            eprintln!("panic (caught or fatal): {info}")
        }));
    });
}

/// Characters YAML does not allow in a stream (libyaml's `is_printable`: "control characters
/// are not allowed"), written out independently of tailor-yaml's check: the round-trip target
/// requires every input holding one to be refused.
pub fn has_disallowed_characters(text: &str) -> bool {
    text.chars().any(|c| {
        !matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7E}' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
    })
}

#[path = "../../crates/tailor-yaml/tests/support/handoff_check.rs"]
mod handoff_check;
/// Items handed over while a ResourceList is parsed are the plain parse's nodes and parse
/// again exactly (the same check as tailor-yaml's `tests/handoff.rs`).
pub use handoff_check::check_handoff;
