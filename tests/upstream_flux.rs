//! Flux's own test suites, ported (`tests/upstream/flux/*.yaml`) and run through the `tailor`
//! binary: fluxcd/pkg `kustomize/` (varsub and generator tests), kustomize-controller's tests
//! that check rendered objects, flux2's `flux build kustomization` goldens, `internal/build`
//! and `flux envsubst`.
//!
//! Two kinds of case:
//!
//! * A **render case** (`kustomization:`) is a ResourceList: `items` (the upstream source as
//!   kustomize builds it) then `sources` (the cluster objects the upstream test creates, e.g.
//!   `substituteFrom` ConfigMaps and Secrets, handed over as items the way a user would), with
//!   `kustomization` as functionConfig. `strict` / `always` stand for the upstream run's
//!   strict-substitution setting and `substituteStrategy: Always` option and become tailor's
//!   `spec.postBuild.strict` / `spec.postBuild.substituteStrategy`. `ownerLabels: false` marks
//!   an upstream code path that sets no owner labels (the labels are then dropped from
//!   tailor's answer before comparing). Sources are cluster state, which tailor consumes: they
//!   are handed over marked local-config and must not come back.
//!   `expect` holds what the upstream test asserts: `objects` (the whole answer, in order),
//!   `count`, `checks` (field assertions on one object: `equals`, `notEquals`, `contains`,
//!   `notContains`, `absent`, or none for "the object exists"; `secretKey` reads a Secret value the way the API server shows it, from `data`
//!   decoded or from `stringData`), or `error` (exit 1 and a result message containing it).
//! * A **tool case** (`args:`) runs `tailor ARGS` with only `env` in the environment and
//!   `stdin` on stdin, and compares the exit code, stdout bytes and a stderr substring.
//!
//! Extra helpers beyond `common::upstream`: [`run_clean_env`] (a run with a cleared
//! environment, for envsubst), [`drop_owner_labels`] and the
//! check evaluation.
mod common;

use std::process::Command;

use common::upstream::*;
use serde_json::Value as Json;

const OWNER_LABELS: [&str; 2] = [
    "kustomize.toolkit.fluxcd.io/name",
    "kustomize.toolkit.fluxcd.io/namespace",
];

/// The suite files, each run by its own test below.
const SUITES: &[&str] = &[
    "pkg-kustomize-varsub.yaml",
    "pkg-kustomize-generator.yaml",
    "kustomize-controller.yaml",
    "flux2-build-kustomization.yaml",
    "flux2-internal-build.yaml",
    "flux2-envsubst.yaml",
];

fn run_suite(file: &str) {
    let suite = load_suite(&suite_dir("flux").join(file));
    let mut tally = Tally::default();
    for case in &suite.cases {
        let name = case
            .get("name")
            .and_then(Json::as_str)
            .unwrap_or_else(|| panic!("{file}: a case has no name"));
        let outcome = if case.get("args").is_some() {
            tool_case(case)
        } else if case.get("kustomization").is_some() {
            render_case(case)
        } else {
            panic!("{file}: case {name:?} has neither args nor kustomization")
        };
        tally.record(name, outcome);
    }
    tally.finish(&suite);
}

#[test]
fn pkg_kustomize_varsub() {
    run_suite("pkg-kustomize-varsub.yaml");
}

#[test]
fn pkg_kustomize_generator() {
    run_suite("pkg-kustomize-generator.yaml");
}

#[test]
fn kustomize_controller() {
    run_suite("kustomize-controller.yaml");
}

#[test]
fn flux2_build_kustomization() {
    run_suite("flux2-build-kustomization.yaml");
}

#[test]
fn flux2_internal_build() {
    run_suite("flux2-internal-build.yaml");
}

#[test]
fn flux2_envsubst() {
    run_suite("flux2-envsubst.yaml");
}

/// Every suite file in the directory has a test above.
#[test]
fn every_suite_file_runs() {
    let mut files: Vec<String> = suites("flux")
        .iter()
        .filter_map(|s| s.file.file_name().map(|f| f.to_string_lossy().into_owned()))
        .collect();
    files.sort();
    let mut listed: Vec<String> = SUITES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "tests/upstream/flux and SUITES differ");
}

fn list<'a>(case: &'a Json, key: &str) -> &'a [Json] {
    case.get(key)
        .and_then(Json::as_array)
        .map_or(&[], Vec::as_slice)
}

// ---------------------------------------------------------------------------------------
// Render cases

fn render_case(case: &Json) -> Result<(), String> {
    // Sources are cluster state: tailor consumes them. Marked local-config, as tailor's docs
    // ask of sources given beside built objects (one may share a built object's identity).
    let items: Vec<Json> = list(case, "items")
        .iter()
        .cloned()
        .chain(list(case, "sources").iter().map(as_local_config))
        .collect();
    let mut fc = case["kustomization"].clone();
    if let Some(strict) = case.get("strict").and_then(Json::as_bool) {
        // The setting only means something where there is a postBuild to run.
        if let Some(pb) = fc.pointer_mut("/spec/postBuild") {
            if pb.is_null() {
                *pb = serde_json::json!({});
            }
            pb["strict"] = Json::Bool(strict);
        }
    }
    if case.get("always").and_then(Json::as_bool) == Some(true) {
        let spec = fc
            .get_mut("spec")
            .and_then(Json::as_object_mut)
            .ok_or("kustomization has no spec")?;
        let pb = spec
            .entry("postBuild")
            .or_insert_with(|| serde_json::json!({}));
        if pb.is_null() {
            *pb = serde_json::json!({});
        }
        pb["substituteStrategy"] = Json::String("Always".into());
    }
    let expect = &case["expect"];
    if !["objects", "count", "checks", "error"]
        .iter()
        .any(|k| expect.get(k).is_some())
    {
        return Err("the case asserts nothing (expect: objects, count, checks or error)".into());
    }
    let run = common::run_tailor(&[], &resource_list(&items, Some(&fc)));
    let messages = result_messages(&run.stdout);
    if let Some(want) = expect.get("error").and_then(Json::as_str) {
        if run.code == 1 && messages.iter().any(|m| m.contains(want)) {
            return Ok(());
        }
        return Err(format!(
            "expected exit 1 and an error containing {want:?}; got exit {}, results {messages:?}",
            run.code
        ));
    }
    if run.code != 0 {
        return Err(format!("exit {}: {}", run.code, messages.join(" | ")));
    }
    // `raw` keeps every annotation (checks may ask for config.kubernetes.io/origin); `got`
    // drops kpt's bookkeeping for whole-object comparisons.
    let mut raw = resource_list_items(&run.stdout)?;
    if case.get("ownerLabels").and_then(Json::as_bool) == Some(false) {
        raw = raw.into_iter().map(drop_owner_labels).collect();
    }
    let got: Vec<Json> = raw.iter().cloned().map(without_bookkeeping).collect();
    if let Some(Json::Array(want)) = expect.get("objects") {
        same_objects(&got, want)?;
    }
    if let Some(n) = expect.get("count").and_then(Json::as_u64) {
        if got.len() as u64 != n {
            return Err(format!("{} objects, expected {n}", got.len()));
        }
    }
    for check in list(expect, "checks") {
        run_check(&raw, check)?;
    }
    Ok(())
}

/// The messages of the output ResourceList's `results`.
fn result_messages(stdout: &str) -> Vec<String> {
    let Ok(list) = yaml_to_json(stdout) else {
        return vec![format!("unreadable output: {stdout}")];
    };
    list.get("results")
        .and_then(Json::as_array)
        .map(|rs| {
            rs.iter()
                .filter_map(|r| r.get("message").and_then(Json::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `object` annotated `config.kubernetes.io/local-config: "true"`.
fn as_local_config(object: &Json) -> Json {
    let mut o = object.clone();
    if let Some(meta) = o.get_mut("metadata").and_then(Json::as_object_mut) {
        let annotations = meta
            .entry("annotations")
            .or_insert_with(|| Json::Object(Default::default()));
        if let Some(a) = annotations.as_object_mut() {
            a.insert(
                "config.kubernetes.io/local-config".into(),
                Json::String("true".into()),
            );
        }
    }
    o
}

/// Drops Flux's owner labels (and a `labels` map left empty).
fn drop_owner_labels(mut object: Json) -> Json {
    if let Some(meta) = object.get_mut("metadata").and_then(Json::as_object_mut) {
        if let Some(Json::Object(labels)) = meta.get_mut("labels") {
            for key in OWNER_LABELS {
                labels.remove(key);
            }
            if labels.is_empty() {
                meta.remove("labels");
            }
        }
    }
    object
}

fn str_field<'a>(v: &'a Json, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Json::as_str)
}

fn run_check(got: &[Json], check: &Json) -> Result<(), String> {
    let kind = str_field(check, "kind").ok_or("check without kind")?;
    let name = str_field(check, "name");
    let name_contains = str_field(check, "nameContains");
    let namespace = str_field(check, "namespace");
    let found: Vec<&Json> = got
        .iter()
        .filter(|o| str_field(o, "kind") == Some(kind))
        .filter(|o| {
            let n = o.pointer("/metadata/name").and_then(Json::as_str);
            name.is_none_or(|want| n == Some(want))
                && name_contains.is_none_or(|want| n.is_some_and(|n| n.contains(want)))
        })
        .filter(|o| {
            namespace.is_none_or(|want| {
                o.pointer("/metadata/namespace").and_then(Json::as_str) == Some(want)
            })
        })
        .collect();
    let label = format!(
        "{kind}/{}{}",
        name.or(name_contains).unwrap_or("?"),
        namespace.map_or(String::new(), |n| format!(" in {n}"))
    );
    let absent = check.get("absent").and_then(Json::as_bool) == Some(true);
    let pointer = str_field(check, "pointer");
    let secret_key = str_field(check, "secretKey");
    if absent && pointer.is_none() && secret_key.is_none() {
        return match found.len() {
            0 => Ok(()),
            _ => Err(format!("{label} is present, expected it gone")),
        };
    }
    let object = match found.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "no {label} among: {}",
                got.iter()
                    .map(|o| format!(
                        "{}/{}",
                        str_field(o, "kind").unwrap_or("?"),
                        o.pointer("/metadata/name")
                            .and_then(Json::as_str)
                            .unwrap_or("?")
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        many => return Err(format!("{} objects match {label}", many.len())),
    };
    let (what, value): (String, Option<Json>) = match (pointer, secret_key) {
        (Some(""), _) => ("the object".into(), Some(Json::String(object.to_string()))),
        (Some(p), _) => (format!("{label} {p}"), object.pointer(p).cloned()),
        (None, Some(key)) => (
            format!("{label} secret key {key}"),
            secret_value(object, key)?,
        ),
        (None, None) => return Ok(()),
    };
    if absent {
        return match value {
            None => Ok(()),
            Some(v) => Err(format!("{what} is {v}, expected it absent")),
        };
    }
    if let Some(want) = check.get("notEquals") {
        return match value {
            Some(v) if &v == want => Err(format!("{what} is {v}, expected anything else")),
            _ => Ok(()),
        };
    }
    let value = value.ok_or_else(|| format!("{what} is missing in {object}"))?;
    if let Some(want) = check.get("equals") {
        if &value != want {
            return Err(format!("{what} is {value}, expected {want}"));
        }
    }
    let text = value
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| value.to_string());
    if let Some(want) = str_field(check, "contains") {
        if !text.contains(want) {
            return Err(format!(
                "{what} is {text:?}, expected it to contain {want:?}"
            ));
        }
    }
    if let Some(want) = str_field(check, "notContains") {
        if text.contains(want) {
            return Err(format!("{what} contains {want:?}: {text}"));
        }
    }
    Ok(())
}

/// A Secret's value as the API server shows it: `stringData` folded over the decoded `data`.
fn secret_value(secret: &Json, key: &str) -> Result<Option<Json>, String> {
    if let Some(v) = secret.get("stringData").and_then(|d| d.get(key)) {
        return Ok(Some(v.clone()));
    }
    match secret.get("data").and_then(|d| d.get(key)) {
        Some(Json::String(b64)) => tailor_flux::envsubst::flux::decode_secret_value(b64)
            .map(|s| Some(Json::String(s)))
            .map_err(|e| format!("data.{key}: {e}")),
        Some(other) => Err(format!("data.{key} is not a string: {other}")),
        None => Ok(None),
    }
}

// ---------------------------------------------------------------------------------------
// Tool cases

fn tool_case(case: &Json) -> Result<(), String> {
    let args: Vec<&str> = list(case, "args").iter().filter_map(Json::as_str).collect();
    let env: Vec<(String, String)> = case
        .get("env")
        .and_then(Json::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let stdin = str_field(case, "stdin").unwrap_or_default();
    let run = run_clean_env(&args, &env, stdin);
    let expect = &case["expect"];
    if expect.get("code").is_none() {
        return Err("a tool case must give expect.code".into());
    }
    let mut problems = Vec::new();
    if let Some(code) = expect.get("code").and_then(Json::as_i64) {
        if i64::from(run.code) != code {
            problems.push(format!("exit {}, expected {code}", run.code));
        }
    }
    if let Some(want) = str_field(expect, "stdout") {
        if run.stdout != want {
            problems.push(format!("stdout {:?}, expected {want:?}", run.stdout));
        }
    }
    if let Some(want) = str_field(expect, "stderrContains") {
        if !run.stderr.contains(want) {
            problems.push(format!("stderr {:?} lacks {want:?}", run.stderr));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Runs the binary with only `env` in its environment (upstream sets the variables it
/// means; anything else in the test's environment must not leak into `${...}`).
fn run_clean_env(args: &[&str], env: &[(String, String)], stdin: &str) -> common::Run {
    common::run_command(
        Command::new(common::tailor_bin())
            .args(args)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v))),
        stdin,
    )
}
