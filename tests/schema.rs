//! The JSON Schemas of `tailor schema` (shipped in `schema/`) against the parser they describe.
//!
//! The schema is written beside the parser, so a test must hold them together: for every
//! object of the `Tailor` schema, each property's example is accepted by `config::parse`
//! where the schema puts it, a value of another type is refused with an error at that field,
//! and an unknown property beside them is refused: a field added to one and not the other,
//! or typed differently, fails here. Then the shipped files are what `tailor schema` prints,
//! every example of the repository validates, and a typo does not.

mod common;

use common::repo_root;
use serde_json::{json, Map, Value};

/// A value the schema accepts: the first example, the default, or the smallest instance with
/// the required properties.
fn sample(schema: &Value) -> Value {
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(e) = schema.get("examples").and_then(|e| e.get(0)) {
        return e.clone();
    }
    if let Some(d) = schema.get("default") {
        return d.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut m = Map::new();
            for r in required(schema) {
                m.insert(r.clone(), sample(&schema["properties"][&r]));
            }
            Value::Object(m)
        }
        Some("array") => json!([sample(&schema["items"])]),
        Some("integer") => schema.get("minimum").cloned().unwrap_or(json!(1)),
        Some("boolean") => json!(true),
        _ => json!("x"),
    }
}

fn required(schema: &Value) -> Vec<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// A value of a type the schema refuses, when the schema constrains the type.
fn wrong(schema: &Value) -> Option<Value> {
    if schema.get("enum").is_some() {
        return Some(json!("NotOneOfThem"));
    }
    match schema.get("type")? {
        Value::String(t) => Some(match t.as_str() {
            "string" => json!({"a": "b"}),
            "boolean" => json!("yes-please"),
            "integer" => json!("many"),
            "array" | "object" => json!("text"),
            _ => return None,
        }),
        // A value of a type not among several.
        Value::Array(types) => {
            let has = |t: &str| types.iter().any(|x| x == t);
            if !has("object") {
                Some(json!({"a": "b"}))
            } else if !has("number") && !has("integer") {
                Some(json!(7))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// One step from an object schema down to where a probe puts its value.
enum Step {
    Key(String),
    Item,
}

/// The smallest document the schema accepts with `leaf` at `path` (object keys and list items).
fn instance(schema: &Value, path: &[Step], leaf: &Value) -> Value {
    let Some((first, rest)) = path.split_first() else {
        return leaf.clone();
    };
    match first {
        Step::Key(k) => {
            // The object's example when it has one (a requirement needs values for In), else
            // its required properties.
            let mut m = match sample(schema) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            for r in required(schema) {
                if r != *k && !m.contains_key(&r) {
                    m.insert(r.clone(), sample(&schema["properties"][&r]));
                }
            }
            m.insert(k.clone(), instance(&schema["properties"][k], rest, leaf));
            Value::Object(m)
        }
        Step::Item => json!([instance(&schema["items"], rest, leaf)]),
    }
}

/// The field path the parser reports for `path` below `spec` (`spec.clusters[0].name`).
fn field_path(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Item => s.push_str("[0]"),
        }
    }
    s
}

/// The errors `config::parse` gives a `Tailor` whose document is `doc` (apiVersion, kind,
/// metadata and spec), as (field, message).
fn parse_errors(doc: &Value) -> Vec<(String, String)> {
    let text = serde_json::to_string(doc).expect("json");
    let node = tailor_yaml::parse_stream(&text)
        .expect("parse")
        .remove(0)
        .root;
    match tailor::config::parse(Some(&node)) {
        Ok(_) => Vec::new(),
        Err(results) => results
            .into_iter()
            .filter(|r| r.is_error())
            .map(|r| (r.field_path.unwrap_or_default(), r.message))
            .collect(),
    }
}

/// Every object schema under `schema` whose properties are closed, with its path.
fn closed_objects<'a>(schema: &'a Value, path: Vec<Step>, out: &mut Vec<(Vec<Step>, &'a Value)>) {
    if let Some(items) = schema.get("items") {
        let mut p = clone(&path);
        p.push(Step::Item);
        closed_objects(items, p, out);
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (k, v) in props {
        let mut p = clone(&path);
        p.push(Step::Key(k.clone()));
        closed_objects(v, p, out);
    }
    if schema.get("additionalProperties") == Some(&json!(false)) {
        out.push((path, schema));
    }
}

fn clone(path: &[Step]) -> Vec<Step> {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => Step::Key(k.clone()),
            Step::Item => Step::Item,
        })
        .collect()
}

#[test]
fn the_tailor_schema_agrees_with_the_parser() {
    let schema = tailor::config::schema::for_kind("Tailor").expect("Tailor schema");
    let mut objects = Vec::new();
    closed_objects(&schema, Vec::new(), &mut objects);
    let mut problems = Vec::new();
    let mut probes = 0;
    for (path, object) in &objects {
        if path.is_empty() {
            continue; // the document itself: apiVersion, kind, metadata, spec
        }
        let props = object["properties"].as_object().expect("properties");
        let at = |extra: Option<&str>| {
            let mut p = clone(path);
            if let Some(k) = extra {
                p.push(Step::Key(k.to_string()));
            }
            p
        };
        // An unknown property beside the required ones is refused at this object.
        let unknown = at(Some("zzUnknown"));
        let doc = instance(&schema, &unknown, &json!("x"));
        let errors = parse_errors(&doc);
        probes += 1;
        if !errors
            .iter()
            .any(|(f, m)| f.contains("zzUnknown") || m.contains("zzUnknown"))
        {
            problems.push(format!(
                "{}: an unknown field is accepted: {errors:?}",
                field_path(&unknown)
            ));
        }
        for (key, prop) in props {
            let here = at(Some(key));
            let field = field_path(&here);
            let doc = instance(&schema, &here, &sample(prop));
            let errors = parse_errors(&doc);
            probes += 1;
            if !errors.is_empty() {
                problems.push(format!(
                    "{field}: the schema's example {} is refused: {errors:?}",
                    sample(prop)
                ));
            }
            if let Some(bad) = wrong(prop) {
                let doc = instance(&schema, &here, &bad);
                let errors = parse_errors(&doc);
                probes += 1;
                // At the field, or at an enclosing one with a message naming it (kustomize's
                // replacement decoder names the entry and the Go field path).
                let named = |(f, m): &(String, String)| {
                    f.starts_with(&field)
                        || (field.starts_with(f.as_str()) && m.contains(key.as_str()))
                };
                if !errors.iter().any(named) {
                    problems.push(format!(
                        "{field}: {bad} is not refused at the field: {errors:?}"
                    ));
                }
            }
        }
    }
    assert!(probes > 200, "only {probes} probes");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `schema/<kind>.json` is what `tailor schema KIND` prints (`TAILOR_UPDATE_SCHEMA=1` writes
/// it).
#[test]
fn shipped_schemas_are_current() {
    for kind in tailor::config::schema::KINDS {
        let schema = tailor::config::schema::for_kind(kind).expect("schema");
        let text = format!("{}\n", serde_json::to_string_pretty(&schema).expect("json"));
        let file = repo_root()
            .join("schema")
            .join(format!("{}.json", kind.to_lowercase()));
        if std::env::var_os("TAILOR_UPDATE_SCHEMA").is_some() {
            std::fs::create_dir_all(file.parent().expect("dir")).expect("mkdir");
            std::fs::write(&file, &text).expect("write");
        }
        let shipped = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            shipped == text,
            "{} is not what `tailor schema {kind}` prints; run TAILOR_UPDATE_SCHEMA=1 cargo test --test schema",
            file.display()
        );
        let r = common::run_tailor(&["schema", kind], "");
        assert_eq!((r.code, r.stdout.as_str()), (0, text.as_str()), "{kind}");
    }
}

fn validator(kind: &str) -> jsonschema::Validator {
    let schema = tailor::config::schema::for_kind(kind).expect("schema");
    jsonschema::draft7::new(&schema).expect("a valid draft-07 schema")
}

fn yaml_json(text: &str) -> Vec<Value> {
    tailor_yaml::parse_stream(text)
        .expect("yaml")
        .into_iter()
        .filter(|d| !d.empty)
        .map(|d| d.root.to_json().expect("json"))
        .collect()
}

/// Every `Tailor` object in the repository's examples and fixtures validates; the schema's own
/// examples validate against their parts.
#[test]
fn every_example_validates_and_a_typo_does_not() {
    let tailor = validator("Tailor");
    let mut seen = 0;
    let mut files = Vec::new();
    for dir in ["examples", "tests/fixtures", "functions"] {
        collect_yaml(&repo_root().join(dir), &mut files);
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let Ok(docs) = tailor_yaml::parse_stream(&text) else {
            continue;
        };
        for doc in docs.into_iter().filter(|d| !d.empty) {
            let Ok(v) = doc.root.to_json() else {
                continue;
            };
            if v.get("kind") != Some(&json!("Tailor")) {
                continue;
            }
            seen += 1;
            let errors: Vec<String> = tailor
                .iter_errors(&v)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", file.display());
        }
    }
    assert!(seen >= 2, "only {seen} Tailor objects found");
    let typo = &yaml_json(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  replacments: []\n",
    )[0];
    assert!(!tailor.is_valid(typo));
    let nested = &yaml_json(
        "apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata: {name: t}\nspec:\n  clusters:\n  - name: dev\n    lables: {env: dev}\n",
    )[0];
    assert!(!tailor.is_valid(nested));
    let ct = validator("CustomTransform");
    let transform = &yaml_json("apiVersion: control.kubestellar.io/v1alpha1\nkind: CustomTransform\nmetadata: {name: t}\nspec: {apiGroup: apps, resource: deployments, remove: [$.spec.replicas]}\n")[0];
    assert!(ct.is_valid(transform));
    let flux = validator("Kustomization");
    let k = &yaml_json("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: k}\nspec: {interval: 5m, prune: true, postBuild: {substitute: {a: b}}}\n")[0];
    assert!(flux.is_valid(k));
    let bad = &yaml_json("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: k}\nspec: {postBuild: {substitute: {a: 1}}}\n")[0];
    assert!(!flux.is_valid(bad));
}

fn collect_yaml(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_yaml(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
}
