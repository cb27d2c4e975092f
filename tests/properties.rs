//! Properties of the whole binary over generated ResourceLists (proptest):
//! - untouched resources come out byte for byte as they went in;
//! - the output is one valid ResourceList with one item per input item;
//! - the same input always gives the same bytes;
//! - stripping is idempotent: feeding the output back changes no item.
//!
//! The generator writes real-world-shaped YAML: every scalar style, comments between and after
//! entries, compact and wide sequences, flow collections, CRD-like kinds, and (for some items)
//! the server-side fields the built-in strip removes.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tailor_yaml::{parse_stream, Node};

// ---- a small YAML writer with random presentation ---------------------------------------------

#[derive(Clone, Debug)]
enum Tree {
    Scalar(Scalar),
    Map(Vec<(String, Tree)>),
    Seq(Vec<Tree>),
}

#[derive(Clone, Debug)]
struct Scalar {
    text: String,
    style: ScalarStyle,
}

#[derive(Clone, Copy, Debug)]
enum ScalarStyle {
    Plain,
    Single,
    Double,
    Literal,
}

/// How a collection and its neighbours are written.
#[derive(Clone, Copy, Debug)]
struct Look {
    wide: bool,
    flow: bool,
    comment: bool,
}

fn key_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-zA-Z0-9]{0,8}",
        "[a-z]{1,5}\\.[a-z]{1,5}/[a-z]{1,6}",
        Just("app.kubernetes.io/name".to_string()),
    ]
}

fn scalar_strategy() -> impl Strategy<Value = Scalar> {
    let plain = prop_oneof![
        "[a-z][a-z0-9-]{0,10}",
        "[0-9]{1,5}",
        Just("true".to_string()),
        Just("0755".to_string()),
        Just("1e3".to_string()),
        Just("~".to_string()),
        Just("null".to_string()),
        Just("v1.2.3".to_string()),
    ]
    .prop_map(|text| Scalar {
        text,
        style: ScalarStyle::Plain,
    });
    let any_text = prop_oneof![
        "[ -~]{0,16}",
        Just("yes".to_string()),
        Just("- item".to_string()),
        Just("a: b".to_string()),
        Just("# not a comment".to_string()),
        Just("日本語 ✓".to_string()),
        Just(String::new()),
    ];
    let quoted = (any_text, any::<bool>()).prop_map(|(text, single)| Scalar {
        text,
        style: if single {
            ScalarStyle::Single
        } else {
            ScalarStyle::Double
        },
    });
    let literal = prop::collection::vec("[a-z][a-z ]{0,12}", 1..4).prop_map(|lines| Scalar {
        text: lines.join("\n") + "\n",
        style: ScalarStyle::Literal,
    });
    prop_oneof![4 => plain, 3 => quoted, 1 => literal]
}

fn tree_strategy() -> impl Strategy<Value = Tree> {
    scalar_strategy()
        .prop_map(Tree::Scalar)
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec((key_strategy(), inner.clone()), 1..4).prop_map(|pairs| {
                    // Duplicate keys are not what this property is about.
                    let mut seen = std::collections::BTreeSet::new();
                    Tree::Map(
                        pairs
                            .into_iter()
                            .filter(|(k, _)| seen.insert(k.clone()))
                            .collect(),
                    )
                }),
                prop::collection::vec(inner, 1..4).prop_map(Tree::Seq),
            ]
        })
}

fn write_scalar(out: &mut String, s: &Scalar, indent: usize) {
    match s.style {
        ScalarStyle::Plain => out.push_str(&s.text),
        ScalarStyle::Single => {
            out.push('\'');
            out.push_str(&s.text.replace('\'', "''"));
            out.push('\'');
        }
        ScalarStyle::Double => {
            out.push('"');
            for c in s.text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        ScalarStyle::Literal => {
            out.push('|');
            for line in s.text.lines() {
                out.push('\n');
                out.push_str(&" ".repeat(indent + 2));
                out.push_str(line);
            }
        }
    }
}

/// Flow style cannot hold block scalars.
fn flowable(t: &Tree) -> bool {
    match t {
        Tree::Scalar(s) => !matches!(s.style, ScalarStyle::Literal),
        Tree::Map(pairs) => pairs.iter().all(|(_, v)| flowable(v)),
        Tree::Seq(items) => items.iter().all(flowable),
    }
}

fn write_flow(out: &mut String, t: &Tree) {
    match t {
        Tree::Scalar(s) => write_scalar(out, s, 0),
        Tree::Map(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                write_flow(out, v);
            }
            out.push('}');
        }
        Tree::Seq(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow(out, v);
            }
            out.push(']');
        }
    }
}

/// Writes the entries of a block mapping at `indent` (each line starts with the indent).
fn write_map(out: &mut String, pairs: &[(String, Tree)], indent: usize, look: Look) {
    for (i, (k, v)) in pairs.iter().enumerate() {
        if look.comment && i == 1 {
            out.push_str(&" ".repeat(indent));
            out.push_str("# a comment between entries\n");
        }
        out.push_str(&" ".repeat(indent));
        out.push_str(k);
        out.push(':');
        write_value(out, v, indent, look);
    }
}

/// Writes what follows `key:` (or `- `), ending with a newline.
fn write_value(out: &mut String, v: &Tree, indent: usize, look: Look) {
    match v {
        Tree::Scalar(s) => {
            out.push(' ');
            write_scalar(out, s, indent);
            if look.comment && matches!(s.style, ScalarStyle::Plain | ScalarStyle::Double) {
                out.push_str(" # line comment");
            }
            out.push('\n');
        }
        _ if look.flow && flowable(v) => {
            out.push(' ');
            write_flow(out, v);
            out.push('\n');
        }
        Tree::Map(pairs) => {
            out.push('\n');
            write_map(out, pairs, indent + 2, look);
        }
        Tree::Seq(items) => {
            out.push('\n');
            let dash = if look.wide { indent + 2 } else { indent };
            for item in items {
                out.push_str(&" ".repeat(dash));
                out.push('-');
                match item {
                    Tree::Map(pairs) if !look.flow => {
                        // `- key: v` with the rest of the mapping aligned under the key.
                        let mut inner = String::new();
                        write_map(&mut inner, pairs, dash + 2, look);
                        out.push(' ');
                        out.push_str(inner.trim_start());
                    }
                    // A block sequence inside a sequence must sit deeper than its `-`.
                    Tree::Seq(_) => write_value(out, item, dash, Look { wide: true, ..look }),
                    other => write_value(out, other, dash, look),
                }
            }
        }
    }
}

// ---- resources ------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Resource {
    api_version: &'static str,
    kind: &'static str,
    name: String,
    namespace: Option<String>,
    labels: Vec<(String, Scalar)>,
    body_key: &'static str,
    body: Tree,
    /// Server-side fields the built-in strip removes, so this item is edited.
    server_side: bool,
    look: Look,
}

fn resource_strategy() -> impl Strategy<Value = Resource> {
    let kinds = prop_oneof![
        Just(("v1", "ConfigMap", "data")),
        Just(("apps/v1", "Deployment", "spec")),
        Just(("example.com/v1", "Widget", "spec")),
        Just(("networking.k8s.io/v1", "NetworkPolicy", "spec")),
    ];
    (
        kinds,
        "[a-z][a-z0-9-]{0,12}",
        prop::option::of("[a-z][a-z0-9-]{0,8}"),
        prop::collection::vec((key_strategy(), scalar_strategy()), 0..3),
        tree_strategy(),
        prop::bool::weighted(0.25),
        (any::<bool>(), prop::bool::weighted(0.3), any::<bool>()),
    )
        .prop_map(
            |(
                (api_version, kind, body_key),
                name,
                namespace,
                labels,
                body,
                server_side,
                (wide, flow, comment),
            )| {
                let mut seen = std::collections::BTreeSet::new();
                Resource {
                    api_version,
                    kind,
                    name,
                    namespace,
                    labels: labels
                        .into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                    body_key,
                    body,
                    server_side,
                    look: Look {
                        wide,
                        flow,
                        comment,
                    },
                }
            },
        )
}

impl Resource {
    /// The item's YAML as a mapping at column 0.
    fn yaml(&self) -> String {
        let mut out = format!(
            "apiVersion: {}\nkind: {}\nmetadata:\n  name: {}\n",
            self.api_version, self.kind, self.name
        );
        if let Some(ns) = &self.namespace {
            out.push_str(&format!("  namespace: {ns}\n"));
        }
        if self.server_side {
            out.push_str(
                "  uid: 0b5c1b0e-1a2b-4c3d-8e9f-000000000001\n  resourceVersion: \"4711\"\n",
            );
        }
        if !self.labels.is_empty() {
            out.push_str("  labels:\n");
            for (k, v) in &self.labels {
                out.push_str(&format!("    {k}: "));
                // Label values are strings; a block scalar there is unusual but legal.
                write_scalar(&mut out, v, 4);
                out.push('\n');
            }
        }
        out.push_str(self.body_key);
        out.push(':');
        write_value(&mut out, &self.body, 0, self.look);
        if self.server_side {
            out.push_str("status:\n  observedGeneration: 3\n");
        }
        out
    }
}

/// The functionConfigs the list is run with: none (built-in strip), kpt's ConfigMap (strip and
/// template expansion for a named cluster) and a Tailor with a cluster and strip.
const FUNCTION_CONFIGS: &[&str] = &[
    "",
    "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fc}\n  data: {clusterName: virgo, env: prod}\n",
    "functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata: {name: t}\n  spec:\n    cluster: {name: virgo, labels: {env: prod}}\n    strip: {builtin: true}\n",
];

fn resource_list(items: &[Resource], function_config: &str) -> String {
    let mut out = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for r in items {
        let text = r.yaml();
        for (i, line) in text.lines().enumerate() {
            out.push_str(if i == 0 {
                "- "
            } else if line.is_empty() {
                ""
            } else {
                "  "
            });
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str(function_config);
    out
}

// ---- running the binary -------------------------------------------------------------------

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn tailor(stdin: &str) -> Run {
    let start = Instant::now();
    let mut child = Command::new(common::tailor_bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tailor");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_string();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("tailor did not answer within 60s; input:\n{stdin}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = writer.join();
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The item nodes of the one ResourceList in `text`, each with its source text.
fn items_of(text: &str) -> Result<Vec<(Node, String)>, String> {
    let docs = parse_stream(text).map_err(|e| format!("not YAML: {e}"))?;
    let docs: Vec<_> = docs.into_iter().filter(|d| !d.empty).collect();
    if docs.len() != 1 {
        return Err(format!("{} documents, not one", docs.len()));
    }
    let root = &docs[0].root;
    if root.get_str("kind") != Some("ResourceList")
        || root.get_str("apiVersion") != Some("config.kubernetes.io/v1")
    {
        return Err("not a config.kubernetes.io/v1 ResourceList".into());
    }
    let items = root
        .get("items")
        .and_then(Node::items)
        .ok_or("no items list")?;
    Ok(items
        .iter()
        .map(|n| {
            let span = &text[n.span.start as usize..n.span.end as usize];
            (n.clone(), span.to_string())
        })
        .collect())
}

fn check_list((items, fc): (Vec<Resource>, usize)) -> Result<(), TestCaseError> {
    let input = resource_list(&items, FUNCTION_CONFIGS[fc]);
    let first = tailor(&input);
    prop_assert_eq!(
        first.code,
        Some(0),
        "exit code; stderr:\n{}\ninput:\n{}",
        first.stderr,
        input
    );
    // One valid ResourceList, one item per input item.
    let before =
        items_of(&input).map_err(|e| TestCaseError::fail(format!("input: {e}\n{input}")))?;
    let after = items_of(&first.stdout)
        .map_err(|e| TestCaseError::fail(format!("output: {e}\n{}", first.stdout)))?;
    prop_assert_eq!(before.len(), after.len(), "item count\n{}", first.stdout);
    // Untouched items are byte-identical; stripped ones lost exactly what strip removes.
    for (r, ((_, src_in), (node_out, src_out))) in items.iter().zip(before.iter().zip(&after)) {
        if r.server_side {
            prop_assert!(node_out.get("status").is_none(), "status kept:\n{src_out}");
            prop_assert!(
                node_out.get_path(&["metadata", "uid"]).is_none(),
                "uid kept:\n{src_out}"
            );
        } else {
            prop_assert_eq!(src_in, src_out, "untouched item changed\ninput:\n{}", input);
        }
    }
    // Deterministic.
    let second = tailor(&input);
    prop_assert_eq!(&first.stdout, &second.stdout, "two runs differ");
    // Idempotent: the output, fed back, keeps every item as it is.
    let again = tailor(&first.stdout);
    prop_assert_eq!(again.code, Some(0), "second pass: {}", again.stderr);
    let after_again = items_of(&again.stdout).map_err(TestCaseError::fail)?;
    prop_assert_eq!(after.len(), after_again.len());
    for ((_, a), (_, b)) in after.iter().zip(&after_again) {
        prop_assert_eq!(
            a,
            b,
            "second pass changed an item\nfirst output:\n{}",
            first.stdout
        );
    }
    Ok(())
}

fn runner() -> TestRunner {
    let cases = std::env::var("TAILOR_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn resource_lists_keep_untouched_items_and_strip_idempotently() {
    runner()
        .run(
            &(
                prop::collection::vec(resource_strategy(), 1..6),
                0..FUNCTION_CONFIGS.len(),
            ),
            check_list,
        )
        .unwrap();
}

/// The generator itself: what it writes parses to the tree it meant (so a property failure
/// above is tailor's, not the generator's).
#[test]
fn generated_yaml_means_what_it_says() {
    runner()
        .run(&resource_strategy(), |r| {
            let text = r.yaml();
            let docs =
                parse_stream(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            let root = &docs[0].root;
            prop_assert_eq!(root.get_str("kind"), Some(r.kind));
            prop_assert_eq!(
                root.get_path(&["metadata", "name"]).and_then(Node::as_str),
                Some(r.name.as_str())
            );
            let body = root.get(r.body_key).expect("body");
            prop_assert!(same(body, &r.body), "body differs:\n{}", text);
            Ok(())
        })
        .unwrap();
}

fn same(n: &Node, t: &Tree) -> bool {
    match t {
        Tree::Scalar(s) => n.as_scalar() == Some(s.text.as_str()),
        Tree::Map(pairs) => n.pairs().is_some_and(|p| {
            p.len() == pairs.len()
                && p.iter()
                    .zip(pairs)
                    .all(|(a, (k, v))| a.key.as_scalar() == Some(k.as_str()) && same(&a.value, v))
        }),
        Tree::Seq(items) => n.items().is_some_and(|i| {
            i.len() == items.len() && i.iter().zip(items).all(|(a, b)| same(a, b))
        }),
    }
}
