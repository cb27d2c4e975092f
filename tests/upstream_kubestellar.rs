//! KubeStellar's own test tables (`tests/upstream/kubestellar/*.yaml`: pkg/customize,
//! pkg/jsonpath, pkg/transport and the end-to-end checks of strip, CustomTransform and template
//! expansion), run through the `tailor` binary as a user would run it, compared as data.
//!
//! A case is read by the fields it has:
//! * `path` + `members` / `reject` (ParseQuery) or `document` + `results` (QueryValue): the path
//!   is the one `remove` entry of a `control.kubestellar.io/v1alpha1 CustomTransform`
//!   functionConfig;
//! * `input` + `properties` (+ `errors`): ExpandTemplates of a value, run as `data` of an object
//!   annotated `control.kubestellar.io/expand-templates: "true"` with a `tailor.dev/v1alpha1
//!   Tailor` functionConfig whose `spec.cluster.properties` are the definitions;
//! * `items` + `expect` (+ `functionConfig`): objects in, objects out.
//!
//! Besides the shared harness, this runner has its own checks for deliberate differences: when a
//! case's `known` reason starts with "deliberate", the case must fail for exactly that reason
//! (a template error withholding the output, a nodePort removed instead of set to null) and
//! nothing else, so a deliberate entry cannot hide another difference.
mod common;

use common::run_tailor;
use common::upstream::*;
use serde_json::{json, Value as Json};

const EXPAND_ANNOTATION: &str = "control.kubestellar.io/expand-templates";
/// Outcome prefix of a case whose only difference is that a template error withheld the output
/// (DESIGN.md: any template error fails the whole run).
const WITHHELD: &str = "[template error fails the run]";
/// Outcome prefix of a case whose only difference is a Service port without the `nodePort: null`
/// KubeStellar's code writes (DESIGN.md: tailor removes nodePort).
const NODE_PORT: &str = "[nodePort removed, not set to null]";

/// What the binary answered: exit code, output items, error results (message, field path).
struct Answer {
    code: i32,
    items: Vec<Json>,
    errors: Vec<(String, Option<String>)>,
}

impl Answer {
    fn describe_errors(&self) -> String {
        self.errors
            .iter()
            .map(|(m, f)| format!("{m} (field {})", f.as_deref().unwrap_or("-")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn call(items: &[Json], function_config: Option<&Json>) -> Result<Answer, String> {
    let run = run_tailor(&[], &resource_list(items, function_config));
    let list = yaml_to_json(&run.stdout).map_err(|e| {
        format!(
            "exit {}: output is not YAML ({e}):\n{}\nstderr: {}",
            run.code, run.stdout, run.stderr
        )
    })?;
    let items = match list.get("items") {
        Some(Json::Array(items)) => items.iter().cloned().map(without_bookkeeping).collect(),
        Some(Json::Null) | None => Vec::new(),
        Some(other) => return Err(format!("items is not a list: {other}")),
    };
    let errors = list
        .get("results")
        .and_then(Json::as_array)
        .map(|results| {
            results
                .iter()
                .filter(|r| r.get("severity").and_then(Json::as_str) == Some("error"))
                .map(|r| {
                    (
                        r.get("message")
                            .and_then(Json::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        r.pointer("/field/path")
                            .and_then(Json::as_str)
                            .map(str::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Answer {
        code: run.code,
        items,
        errors,
    })
}

fn custom_transform(api_group: &str, resource: &str, remove: &[&str]) -> Json {
    json!({
        "apiVersion": "control.kubestellar.io/v1alpha1",
        "kind": "CustomTransform",
        "metadata": {"name": "upstream-case"},
        "spec": {"apiGroup": api_group, "resource": resource, "remove": remove},
    })
}

fn str_field<'a>(case: &'a Json, key: &str) -> &'a str {
    case.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("case {case}: {key} must be a string"))
}

fn error_count(case: &Json) -> usize {
    case.get("errors")
        .and_then(Json::as_u64)
        .map_or(0, |n| usize::try_from(n).expect("error count"))
}

fn run_case(case: &Json) -> Result<(), String> {
    if case.get("path").is_some() {
        if case.get("reject").and_then(Json::as_bool) == Some(true) {
            rejected_path(str_field(case, "path"))
        } else if let Some(members) = case.get("members") {
            accepted_path(str_field(case, "path"), members)
        } else {
            query(case)
        }
    } else if case.get("input").is_some() {
        template_value(case)
    } else if case.get("items").is_some() {
        objects(case)
    } else {
        panic!("case {case}: no path, input or items")
    }
}

/// ParseQuery rejects the path: tailor must answer with an error result naming the entry.
fn rejected_path(path: &str) -> Result<(), String> {
    let item = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "lexer"}});
    let ct = custom_transform("", "configmaps", &[path]);
    let answer = call(&[item], Some(&ct))?;
    let names_it = answer.errors.iter().any(|(message, field)| {
        field.as_deref() == Some("spec.remove[0]")
            || message.contains("remove[0]")
            || (!path.is_empty() && message.contains(path))
    });
    if answer.code == 1 && names_it {
        Ok(())
    } else {
        Err(format!(
            "path {path:?} accepted: exit {}, error results [{}], items {}",
            answer.code,
            answer.describe_errors(),
            Json::Array(answer.items)
        ))
    }
}

/// ParseQuery accepts the path as `members`: removing it deletes exactly that member from an
/// object that has it, parents kept.
fn accepted_path(path: &str, members: &Json) -> Result<(), String> {
    let members: Vec<&str> = members
        .as_array()
        .expect("members is a list")
        .iter()
        .map(|m| m.as_str().expect("member names are strings"))
        .collect();
    let (last, parents) = members.split_last().expect("at least one member");
    let mut item = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "lexer"}});
    let mut expect = item.clone();
    for (object, leaf) in [(&mut item, true), (&mut expect, false)] {
        let mut at = object;
        for m in parents {
            at = at
                .as_object_mut()
                .expect("mapping")
                .entry(m.to_string())
                .or_insert_with(|| json!({}));
        }
        let map = at.as_object_mut().expect("mapping");
        if leaf {
            map.insert(last.to_string(), json!("removed by the path"));
        }
    }
    let ct = custom_transform("", "configmaps", &[path]);
    let answer = call(std::slice::from_ref(&item), Some(&ct))?;
    if answer.code != 0 {
        return Err(format!(
            "exit {}: [{}]",
            answer.code,
            answer.describe_errors()
        ));
    }
    same_objects(&answer.items, &[expect])
}

/// QueryValue over `document` yields `results`: removing `path` from an object holding the
/// document's members takes away exactly those values.
fn query(case: &Json) -> Result<(), String> {
    let mut item = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "eval"}});
    for (k, v) in case["document"].as_object().expect("document is a mapping") {
        item[k] = v.clone();
    }
    let path = str_field(case, "path");
    let ct = custom_transform("", "configmaps", &[path]);
    let answer = call(std::slice::from_ref(&item), Some(&ct))?;
    if answer.code != 0 || answer.items.len() != 1 {
        return Err(format!(
            "exit {}, {} items: [{}]",
            answer.code,
            answer.items.len(),
            answer.describe_errors()
        ));
    }
    let mut removed = Vec::new();
    removed_values(&item, &answer.items[0], "", &mut removed)?;
    let want = case["results"].as_array().expect("results is a list");
    if &removed == want {
        Ok(())
    } else {
        Err(format!(
            "removed {}, the query yields {}",
            Json::Array(removed),
            Json::Array(want.clone())
        ))
    }
}

/// The values present in `before` and gone from `after`; any other change is an error.
fn removed_values(
    before: &Json,
    after: &Json,
    at: &str,
    out: &mut Vec<Json>,
) -> Result<(), String> {
    match (before, after) {
        (Json::Object(b), Json::Object(a)) => {
            if let Some(k) = a.keys().find(|k| !b.contains_key(*k)) {
                return Err(format!("{at}/{k} was added"));
            }
            for (k, bv) in b {
                match a.get(k) {
                    None => out.push(bv.clone()),
                    Some(av) => removed_values(bv, av, &format!("{at}/{k}"), out)?,
                }
            }
            Ok(())
        }
        _ if before == after => Ok(()),
        _ => Err(format!("{at} changed from {before} to {after}")),
    }
}

/// ExpandTemplates(input, properties): the expanded value and the number of errors.
fn template_value(case: &Json) -> Result<(), String> {
    let wrap = |data: &Json| {
        json!({
            "apiVersion": "test.kubestellar.io/v1",
            "kind": "TemplateData",
            "metadata": {"name": "value", "annotations": {EXPAND_ANNOTATION: "true"}},
            "data": data,
        })
    };
    let item = wrap(&case["input"]);
    let want = wrap(&case["expect"]);
    let errors = error_count(case);
    let fc = json!({
        "apiVersion": "tailor.dev/v1alpha1",
        "kind": "Tailor",
        "metadata": {"name": "customize"},
        "spec": {"cluster": {"name": "fuzz", "properties": case["properties"]}},
    });
    let answer = call(std::slice::from_ref(&item), Some(&fc))?;
    let expected_code = if errors == 0 { 0 } else { 1 };
    if answer.code == expected_code
        && answer.errors.len() == errors
        && same_objects(&answer.items, std::slice::from_ref(&want)).is_ok()
    {
        return Ok(());
    }
    if errors > 0
        && answer.code == 1
        && answer.errors.len() == errors
        && same_objects(&answer.items, std::slice::from_ref(&item)).is_ok()
    {
        return Err(format!(
            "{WITHHELD} {errors} error result(s) as expected, but the input came back unchanged instead of {}",
            want["data"]
        ));
    }
    Err(format!(
        "exit {} (expected {expected_code}), {} error result(s) (expected {errors}) [{}]; {}",
        answer.code,
        answer.errors.len(),
        answer.describe_errors(),
        same_objects(&answer.items, &[want])
            .err()
            .unwrap_or_else(|| "output as expected".into())
    ))
}

/// Objects in, objects out, with the case's functionConfig (none: the built-in strip).
fn objects(case: &Json) -> Result<(), String> {
    let items = case["items"].as_array().expect("items is a list");
    let want = case["expect"].as_array().expect("expect is a list");
    let errors = error_count(case);
    let answer = call(items, case.get("functionConfig"))?;
    let expected_code = if errors == 0 { 0 } else { 1 };
    if answer.code != expected_code || answer.errors.len() != errors {
        return Err(format!(
            "exit {} (expected {expected_code}), {} error result(s) (expected {errors}) [{}]",
            answer.code,
            answer.errors.len(),
            answer.describe_errors()
        ));
    }
    match same_objects(&answer.items, want) {
        Ok(()) => Ok(()),
        Err(why) => {
            let without_null: Vec<Json> =
                want.iter().cloned().map(without_null_node_ports).collect();
            if without_null != *want && same_objects(&answer.items, &without_null).is_ok() {
                Err(format!("{NODE_PORT} {why}"))
            } else {
                Err(why)
            }
        }
    }
}

/// A `v1 Service` with the `nodePort: null` entries of its ports taken out.
fn without_null_node_ports(mut object: Json) -> Json {
    let is_service = object.get("apiVersion").and_then(Json::as_str) == Some("v1")
        && object.get("kind").and_then(Json::as_str) == Some("Service");
    if is_service {
        if let Some(Json::Array(ports)) = object.pointer_mut("/spec/ports") {
            for port in ports.iter_mut().filter_map(Json::as_object_mut) {
                if port.get("nodePort") == Some(&Json::Null) {
                    port.remove("nodePort");
                }
            }
        }
    }
    object
}

fn run_suite(file: &str) {
    let suite = load_suite(&suite_dir("kubestellar").join(file));
    let mut tally = Tally::default();
    let mut hidden = Vec::new();
    for case in &suite.cases {
        let name = str_field(case, "name");
        let outcome = run_case(case);
        if let (Some(reason), Err(why)) = (suite.known.get(name), &outcome) {
            if reason.starts_with("deliberate") && !why.starts_with('[') {
                hidden.push(format!(
                    "{name} is known as a deliberate difference but fails for another reason: {why}"
                ));
            }
        }
        tally.record(name, outcome);
    }
    assert!(hidden.is_empty(), "{file}:\n{}", hidden.join("\n"));
    tally.finish(&suite);
}

const SUITES: [&str; 5] = [
    "customize.yaml",
    "jsonpath.yaml",
    "transport.yaml",
    "e2e.yaml",
    "source_behaviour.yaml",
];

#[test]
fn every_suite_file_has_a_test() {
    let files: Vec<String> = suites("kubestellar")
        .iter()
        .filter_map(|s| s.file.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    let mut listed: Vec<String> = SUITES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
}

#[test]
fn customize() {
    run_suite("customize.yaml");
}

#[test]
fn jsonpath() {
    run_suite("jsonpath.yaml");
}

#[test]
fn transport() {
    run_suite("transport.yaml");
}

#[test]
fn e2e() {
    run_suite("e2e.yaml");
}

#[test]
fn source_behaviour() {
    run_suite("source_behaviour.yaml");
}
