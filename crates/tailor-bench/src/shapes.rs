//! Ordinary small manifests (a Deployment and a Service per app, about 450 bytes each, as a
//! repository keeps them) in the shapes tools hand them over: block YAML items, flow items
//! (what `kpt fn source` sends for `.json` files), a JSON ResourceList on one line (`jq -c`,
//! API clients) or pretty-printed, and a directory of files for standalone mode and for
//! `kpt fn source | kpt fn sink`. Every shape holds the same values.

use std::path::Path;

/// A manifest's value: enough of YAML's data model for these objects.
enum V {
    Str(String),
    Int(i64),
    Bool(bool),
    Map(Vec<(&'static str, V)>),
    Seq(Vec<V>),
}

fn s(text: impl Into<String>) -> V {
    V::Str(text.into())
}

/// The `i`-th small object: Deployments and Services of app `i / 2`, alternately.
fn small_object(i: usize) -> V {
    let app = format!("web-{}", i / 2);
    let namespace = format!("team-{}", (i / 2) % 20);
    let labels = || V::Map(vec![("app", s(&app)), ("tier", s("frontend"))]);
    let metadata = V::Map(vec![
        ("name", s(&app)),
        ("namespace", s(&namespace)),
        ("labels", labels()),
    ]);
    let service = i % 2 == 1;
    if !service {
        let container = V::Map(vec![
            ("name", s("web")),
            (
                "image",
                s(format!("registry.example.com/web:1.{}.0", i % 7)),
            ),
            (
                "ports",
                V::Seq(vec![V::Map(vec![("containerPort", V::Int(8080))])]),
            ),
            (
                "resources",
                V::Map(vec![(
                    "requests",
                    V::Map(vec![("cpu", s("100m")), ("memory", s("128Mi"))]),
                )]),
            ),
        ]);
        V::Map(vec![
            ("apiVersion", s("apps/v1")),
            ("kind", s("Deployment")),
            ("metadata", metadata),
            (
                "spec",
                V::Map(vec![
                    ("replicas", V::Int(2)),
                    ("selector", V::Map(vec![("matchLabels", labels())])),
                    (
                        "template",
                        V::Map(vec![
                            ("metadata", V::Map(vec![("labels", labels())])),
                            (
                                "spec",
                                V::Map(vec![("containers", V::Seq(vec![container]))]),
                            ),
                        ]),
                    ),
                ]),
            ),
        ])
    } else {
        V::Map(vec![
            ("apiVersion", s("v1")),
            ("kind", s("Service")),
            ("metadata", metadata),
            (
                "spec",
                V::Map(vec![
                    ("selector", labels()),
                    (
                        "ports",
                        V::Seq(vec![V::Map(vec![
                            ("name", s("http")),
                            ("port", V::Int(80)),
                            ("targetPort", V::Int(8080)),
                        ])]),
                    ),
                ]),
            ),
        ])
    }
}

/// The `i`-th small object as the API server returns it: the stored object plus the fields
/// the server sets, quoted as PyYAML quotes strings that would read as numbers or timestamps.
fn served_object(i: usize) -> V {
    let mut fields = match small_object(i) {
        V::Map(fields) => fields,
        other => return other,
    };
    for (key, value) in fields.iter_mut() {
        if let (&mut "metadata", V::Map(meta)) = (key, value) {
            meta.push(("creationTimestamp", s("'2024-05-01T10:00:00Z'")));
            meta.push(("resourceVersion", s(format!("'{}'", 100_000 + i))));
            meta.push(("uid", s(format!("0c6f{i:08x}-5b1e-4c2a-9d7e-3f1a2b3c4d5e"))));
        }
    }
    let status = if i % 2 == 1 {
        V::Map(vec![("loadBalancer", s("{}"))])
    } else {
        V::Map(vec![
            ("availableReplicas", V::Int(2)),
            ("observedGeneration", V::Int(1)),
            ("readyReplicas", V::Int(2)),
            ("replicas", V::Int(2)),
        ])
    };
    fields.push(("status", status));
    V::Map(fields)
}

/// Block YAML as kyaml writes it (indent 2, sequences flush with their key); `indent` is the
/// column of the mapping's keys or the sequence's dashes.
fn block(out: &mut String, v: &V, indent: usize) {
    block_keys(out, v, indent, false)
}

/// Block YAML, with each mapping's keys sorted when `sorted` (as PyYAML's `yaml.dump` and
/// `kubectl get -o yaml` write them; both also put sequences flush with their key).
fn block_keys(out: &mut String, v: &V, indent: usize, sorted: bool) {
    let block = |out: &mut String, v: &V, indent: usize| block_keys(out, v, indent, sorted);
    match v {
        V::Map(entries) => {
            let mut entries: Vec<&(&str, V)> = entries.iter().collect();
            if sorted {
                entries.sort_by_key(|(k, _)| *k);
            }
            for (k, value) in entries {
                out.push_str(&" ".repeat(indent));
                out.push_str(k);
                out.push(':');
                match value {
                    V::Map(_) => {
                        out.push('\n');
                        block(out, value, indent + 2);
                    }
                    V::Seq(_) => {
                        out.push('\n');
                        block(out, value, indent);
                    }
                    _ => {
                        out.push(' ');
                        scalar(out, value);
                        out.push('\n');
                    }
                }
            }
        }
        V::Seq(items) => {
            for item in items {
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                let mut inner = String::new();
                block(&mut inner, item, indent + 2);
                out.push_str(inner.trim_start());
            }
        }
        _ => {
            scalar(out, v);
            out.push('\n');
        }
    }
}

fn scalar(out: &mut String, v: &V) {
    match v {
        V::Str(t) => out.push_str(t),
        V::Int(n) => out.push_str(&n.to_string()),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Map(_) | V::Seq(_) => {}
    }
}

/// JSON: on one line (`pretty` none), or indented by two as `json.MarshalIndent` and `jq`
/// write it, starting at column `pretty`.
fn json(out: &mut String, v: &V, pretty: Option<usize>) {
    let newline = |out: &mut String, at: usize| {
        if pretty.is_some() {
            out.push('\n');
            out.push_str(&" ".repeat(at));
        }
    };
    let deeper = pretty.map(|p| p + 2);
    let sep = if pretty.is_some() { ": " } else { ":" };
    match v {
        V::Str(t) => {
            out.push('"');
            out.push_str(t);
            out.push('"');
        }
        V::Int(_) | V::Bool(_) => scalar(out, v),
        V::Map(entries) => {
            out.push('{');
            for (k, (key, value)) in entries.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                newline(out, deeper.unwrap_or(0));
                out.push('"');
                out.push_str(key);
                out.push('"');
                out.push_str(sep);
                json(out, value, deeper);
            }
            newline(out, pretty.unwrap_or(0));
            out.push('}');
        }
        V::Seq(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                newline(out, deeper.unwrap_or(0));
                json(out, item, deeper);
            }
            newline(out, pretty.unwrap_or(0));
            out.push(']');
        }
    }
}

/// How a ResourceList of small objects is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Block YAML items, as kpt and kustomize write them.
    Block,
    /// One flow item per line (`- {"apiVersion": "v1", ...}`), as kpt sends `.json` files.
    Flow,
    /// The whole list as one line of JSON.
    JsonLine,
    /// The whole list as indented JSON.
    JsonPretty,
    /// Block YAML items as PyYAML's `yaml.dump` writes `kubectl get -o yaml` output: sorted
    /// keys, sequences flush with their key, and the short scalars the API server adds
    /// (`uid`, `resourceVersion`, `creationTimestamp`, status fields).
    PyYaml,
}

impl Shape {
    pub fn parse(name: &str) -> Option<Shape> {
        match name {
            "small" => Some(Shape::Block),
            "small-flow" => Some(Shape::Flow),
            "json-line" => Some(Shape::JsonLine),
            "json-pretty" => Some(Shape::JsonPretty),
            "small-pyyaml" => Some(Shape::PyYaml),
            _ => None,
        }
    }
}

/// The config under which nothing changes small objects: strip off, templates on but no
/// object asks for them.
fn noop_tailor() -> V {
    V::Map(vec![
        ("apiVersion", s("tailor.dev/v1alpha1")),
        ("kind", s("Tailor")),
        ("metadata", V::Map(vec![("name", s("noop"))])),
        (
            "spec",
            V::Map(vec![("strip", V::Map(vec![("builtin", V::Bool(false))]))]),
        ),
    ])
}

/// A ResourceList of `n` small objects in `shape`, with a config that changes nothing.
pub fn small_list(shape: Shape, n: usize) -> String {
    let mut out = String::with_capacity(n * 520);
    match shape {
        Shape::Block | Shape::Flow => {
            out.push_str("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
            for i in 0..n {
                let object = small_object(i);
                if shape == Shape::Flow {
                    out.push_str("- ");
                    json(&mut out, &object, None);
                    out.push('\n');
                } else {
                    let mut doc = String::new();
                    block(&mut doc, &object, 2);
                    out.push_str("- ");
                    out.push_str(&doc[2..]);
                }
            }
            out.push_str("functionConfig:\n");
            block(&mut out, &noop_tailor(), 2);
        }
        Shape::PyYaml => {
            let list = V::Map(vec![
                ("apiVersion", s("config.kubernetes.io/v1")),
                ("kind", s("ResourceList")),
                ("items", V::Seq((0..n).map(served_object).collect())),
                ("functionConfig", noop_tailor()),
            ]);
            block_keys(&mut out, &list, 0, true);
        }
        Shape::JsonLine | Shape::JsonPretty => {
            let items = V::Seq((0..n).map(small_object).collect());
            let list = V::Map(vec![
                ("apiVersion", s("config.kubernetes.io/v1")),
                ("kind", s("ResourceList")),
                ("items", items),
                ("functionConfig", noop_tailor()),
            ]);
            let pretty = (shape == Shape::JsonPretty).then_some(0);
            json(&mut out, &list, pretty);
            out.push('\n');
        }
    }
    out
}

/// `n` small objects as a package directory: each app's Deployment and Service in one YAML
/// file (`json`: each object in its own indented `.json` file), and the config that changes
/// nothing as `DIR/tailor.yaml`, beside `manifests/` so it is not read as one of them.
pub fn small_dir(n: usize, dir: &Path, json_files: bool) -> std::io::Result<()> {
    let manifests = dir.join("manifests");
    std::fs::create_dir_all(&manifests)?;
    let mut config = String::new();
    block(&mut config, &noop_tailor(), 0);
    std::fs::write(dir.join("tailor.yaml"), config)?;
    for app in 0..n.div_ceil(2) {
        let objects = (2 * app..(2 * app + 2).min(n)).map(|i| (i, small_object(i)));
        if json_files {
            for (i, object) in objects {
                let mut text = String::new();
                json(&mut text, &object, Some(0));
                text.push('\n');
                std::fs::write(manifests.join(format!("web-{app}-{}.json", i % 2)), text)?;
            }
            continue;
        }
        let mut text = String::new();
        for (i, object) in objects {
            if i % 2 == 1 {
                text.push_str("---\n");
            }
            block(&mut text, &object, 0);
        }
        std::fs::write(manifests.join(format!("web-{app}.yaml")), text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_holds_the_same_small_objects() {
        let block = small_list(Shape::Block, 2);
        assert!(block.starts_with("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web-0\n"), "{block}");
        assert!(block.contains("\n        containers:\n        - name: web\n          image: registry.example.com/web:1.0.0\n          ports:\n          - containerPort: 8080\n"), "{block}");
        assert!(block.ends_with("functionConfig:\n  apiVersion: tailor.dev/v1alpha1\n  kind: Tailor\n  metadata:\n    name: noop\n  spec:\n    strip:\n      builtin: false\n"), "{block}");
        let flow = small_list(Shape::Flow, 2);
        assert!(
            flow.contains(
                "\n- {\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"web-0\""
            ),
            "{flow}"
        );
        let line = small_list(Shape::JsonLine, 2);
        assert_eq!(line.lines().count(), 1);
        assert!(line.starts_with("{\"apiVersion\":\"config.kubernetes.io/v1\",\"kind\":\"ResourceList\",\"items\":[{\"apiVersion\":\"apps/v1\""));
        // A boolean, not the string "false" (which the config refuses).
        assert!(
            line.ends_with("\"spec\":{\"strip\":{\"builtin\":false}}}}\n"),
            "{line}"
        );
        let served = small_list(Shape::PyYaml, 2);
        assert!(served.starts_with("apiVersion: config.kubernetes.io/v1\nfunctionConfig:\n  apiVersion: tailor.dev/v1alpha1\n"), "{served}");
        assert!(served.contains("\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    creationTimestamp: '2024-05-01T10:00:00Z'\n    labels:\n      app: web-0\n"), "{served}");
        assert!(served.contains("\n        containers:\n        - image: registry.example.com/web:1.0.0\n          name: web\n          ports:\n          - containerPort: 8080\n"), "{served}");
        assert!(
            served.ends_with("  status:\n    loadBalancer: {}\nkind: ResourceList\n"),
            "{served}"
        );
        let pretty = small_list(Shape::JsonPretty, 2);
        assert!(
            pretty.starts_with("{\n  \"apiVersion\": \"config.kubernetes.io/v1\",\n"),
            "{pretty}"
        );
        // About 450 bytes an object in block YAML.
        let per_object = small_list(Shape::Block, 1000).len() / 1000;
        assert!((380..560).contains(&per_object), "{per_object}");
    }

    #[test]
    fn a_directory_holds_each_app_in_one_file() {
        let dir = std::env::temp_dir().join(format!("tailor-bench-shapes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        small_dir(3, &dir, false).expect("write");
        let first = std::fs::read_to_string(dir.join("manifests/web-0.yaml")).expect("read");
        assert!(
            first.starts_with("apiVersion: apps/v1\nkind: Deployment\n"),
            "{first}"
        );
        assert!(
            first.contains("\n---\napiVersion: v1\nkind: Service\n"),
            "{first}"
        );
        let last = std::fs::read_to_string(dir.join("manifests/web-1.yaml")).expect("read");
        assert!(!last.contains("---"), "{last}");
        small_dir(3, &dir.join("json"), true).expect("write");
        let names = std::fs::read_dir(dir.join("json/manifests"))
            .expect("list")
            .count();
        assert_eq!(names, 3);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
