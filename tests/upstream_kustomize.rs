//! The ported kustomize and kpt-catalog replacement suites (`tests/upstream/kustomize/*.yaml`),
//! run through the `tailor` binary as kpt and kustomize call it: one ResourceList on stdin.
//!
//! A case gives its items either as `input` (a YAML stream, as kustomize's tests read it) or as
//! `package` (a kpt package's files, each document annotated with its path and index as kpt
//! does). Its functionConfig is `functionConfig` (the config's text, or in a package the name
//! of the file that holds it), or the suite's `functionConfig` header with the case's
//! `replacements:` text. The answer is `expected` (a stream, or the package's files) compared
//! as data, in order, without kpt's and kustomize's bookkeeping annotations; or `expectedErr`,
//! a substring of the error, which must come with exit code 1. `dropLocalConfig` removes
//! local-config objects from tailor's answer first, as `kustomize build` does after its
//! transformers ran.
//!
//! `TAILOR_UPSTREAM_SHOW=<case name>` prints that case's ResourceList and tailor's answer.
mod common;

use common::run_tailor;
use common::upstream::*;
use serde_json::Value as Json;

const LOCAL_CONFIG: &str = "config.kubernetes.io/local-config";

/// The documents of a YAML stream, as text, empty ones (only blanks, comments or `---`) left
/// out, as kyaml's reader leaves them out.
fn documents(stream: &str) -> Vec<String> {
    let mut docs = Vec::new();
    let mut current = String::new();
    let mut flush = |current: &mut String| {
        let content = current
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        if content {
            docs.push(std::mem::take(current));
        }
        current.clear();
    };
    for line in stream.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare.starts_with("--- ") {
            flush(&mut current);
        } else {
            current.push_str(line);
        }
    }
    flush(&mut current);
    let parsed = stream_to_json(stream).unwrap_or_else(|e| panic!("{e}:\n{stream}"));
    assert_eq!(docs.len(), parsed.len(), "documents of:\n{stream}");
    docs
}

/// `text` as a block value `indent` spaces in, for a ResourceList written by hand: the first
/// line after `first` (`"- "` for a sequence entry, `""` after a key), the others indented.
fn indented(text: &str, first: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let mut lines = text.trim_start_matches('\n').lines();
    if let Some(l) = lines.next() {
        out.push_str(&" ".repeat(indent.saturating_sub(first.len())));
        out.push_str(first);
        out.push_str(l);
        out.push('\n');
    }
    for l in lines {
        if !l.is_empty() {
            out.push_str(&pad);
            out.push_str(l);
        }
        out.push('\n');
    }
    out
}

/// One ResourceList text with the items and the functionConfig as YAML text, the way kpt and
/// kustomize write it (so tags, anchors and plain scalars reach tailor as the upstream test
/// wrote them).
fn resource_list_text(items: &[String], function_config: &str) -> String {
    let mut rl = String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
    for item in items {
        rl.push_str(&indented(item, "- ", 2));
    }
    rl.push_str("functionConfig:\n");
    rl.push_str(&indented(function_config, "", 2));
    rl
}

/// A document of a package file with kpt's path and index annotations (legacy and internal).
fn with_kpt_annotations(doc: &str, path: &str, index: usize) -> String {
    let parsed = tailor_yaml::parse_stream(doc).expect("package document parses");
    let mut d = parsed
        .into_iter()
        .find(|d| !d.empty)
        .expect("package document has content");
    let meta = d
        .root
        .entry_or_insert("metadata", tailor_yaml::Node::mapping)
        .expect("object");
    let annotations = meta
        .entry_or_insert("annotations", tailor_yaml::Node::mapping)
        .expect("metadata is a mapping");
    for key in ["config.kubernetes.io", "internal.config.kubernetes.io"] {
        annotations.set(
            &format!("{key}/path"),
            tailor_yaml::Node::string(path.to_string()),
        );
        annotations.set(
            &format!("{key}/index"),
            tailor_yaml::Node::string(index.to_string()),
        );
    }
    tailor_yaml::emit_document(
        &d,
        tailor_yaml::EmitOptions {
            wide_sequences: d.wide_sequences,
        },
    )
}

fn str_field<'c>(case: &'c Json, key: &str) -> Option<&'c str> {
    case.get(key).and_then(Json::as_str)
}

/// The `(path, text)` files of a case's `package` or package-form `expected`.
fn files(list: &Json) -> Vec<(String, String)> {
    list.as_array()
        .expect("a list of files")
        .iter()
        .map(|f| {
            (
                str_field(f, "path").expect("path").to_string(),
                str_field(f, "text").expect("text").to_string(),
            )
        })
        .collect()
}

/// The items a case sends and its functionConfig text.
fn request(header: Option<&Json>, case: &Json) -> (Vec<String>, String) {
    if let Some(package) = case.get("package") {
        let files = files(package);
        let mut items = Vec::new();
        for (path, text) in &files {
            for (i, doc) in documents(text).iter().enumerate() {
                items.push(with_kpt_annotations(doc, path, i));
            }
        }
        let config_file = str_field(case, "functionConfig").expect("functionConfig file");
        let config = files
            .iter()
            .find(|(p, _)| p == config_file)
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("{config_file} is not in the package"));
        return (items, config);
    }
    let items = documents(str_field(case, "input").expect("input"));
    if let Some(config) = str_field(case, "functionConfig") {
        return (items, config.to_string());
    }
    let header = header.expect("the suite's functionConfig header");
    let field = |k: &str| header.pointer(k).and_then(Json::as_str).unwrap_or_default();
    let config = format!(
        "apiVersion: {}\nkind: {}\nmetadata:\n  name: {}\n{}",
        field("/apiVersion"),
        field("/kind"),
        field("/metadata/name"),
        str_field(case, "replacements")
            .expect("replacements")
            .trim_start_matches('\n')
    );
    (items, config)
}

/// The objects a case expects.
fn expected_objects(case: &Json) -> Result<Vec<Json>, String> {
    let mut objects = Vec::new();
    match case.get("expected") {
        Some(Json::String(stream)) => objects = stream_to_json(stream)?,
        Some(list @ Json::Array(_)) => {
            for (_, text) in files(list) {
                objects.extend(stream_to_json(&text)?);
            }
        }
        other => {
            return Err(format!(
                "expected must be a stream or files, found {other:?}"
            ))
        }
    }
    Ok(objects.into_iter().map(without_bookkeeping).collect())
}

fn is_local_config(object: &Json) -> bool {
    object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LOCAL_CONFIG))
        .is_some_and(|v| v == "true" || v == true)
}

/// The messages of an answer's error results, and its stderr.
fn error_text(stdout: &str, stderr: &str) -> String {
    let mut text = String::new();
    if let Ok(list) = yaml_to_json(stdout) {
        for r in list
            .get("results")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(m) = r.get("message").and_then(Json::as_str) {
                text.push_str(m);
                text.push('\n');
            }
        }
    }
    text.push_str(stderr);
    text
}

fn run_case(header: Option<&Json>, case: &Json) -> Result<(), String> {
    let (items, config) = request(header, case);
    let input = resource_list_text(&items, &config);
    let run = run_tailor(&[], &input);
    if std::env::var("TAILOR_UPSTREAM_SHOW").ok().as_deref() == str_field(case, "name") {
        eprintln!(
            "--- stdin\n{input}--- stdout (exit {})\n{}--- stderr\n{}",
            run.code, run.stdout, run.stderr
        );
    }
    if let Some(want) = str_field(case, "expectedErr") {
        let got = error_text(&run.stdout, &run.stderr);
        if run.code != 1 {
            return Err(format!(
                "exit code {}, expected 1 with an error containing {want:?}; stderr: {}",
                run.code, run.stderr
            ));
        }
        if !got.contains(want) {
            return Err(format!("error {got:?} does not contain {want:?}"));
        }
        return Ok(());
    }
    if run.code != 0 {
        return Err(format!(
            "exit code {}: {}",
            run.code,
            error_text(&run.stdout, &run.stderr).trim_end()
        ));
    }
    let mut got = resource_list_items(&run.stdout)?;
    if case.get("dropLocalConfig") == Some(&Json::Bool(true)) {
        got.retain(|o| !is_local_config(o));
    }
    let got: Vec<Json> = got.into_iter().map(without_bookkeeping).collect();
    same_objects(&got, &expected_objects(case)?)
}

/// Runs every case of one suite file and checks the tally against its `known` map.
fn run_suite(file: &str) {
    let suite = load_suite(&suite_dir("kustomize").join(file));
    // The harness keeps `source`, `cases` and `known`; the functionConfig header is read here.
    let text = std::fs::read_to_string(&suite.file).expect("suite file");
    let header = yaml_to_json(&text)
        .expect("suite file")
        .get("functionConfig")
        .cloned();
    let mut tally = Tally::default();
    for case in &suite.cases {
        let name = str_field(case, "name").expect("case name");
        tally.record(name, run_case(header.as_ref(), case));
    }
    tally.finish(&suite);
}

const SUITES: &[&str] = &[
    "replacement-filter.yaml",
    "replacement-transformer-plugin.yaml",
    "krusty-replacements.yaml",
    "kpt-functions-catalog.yaml",
    "krm-functions-catalog.yaml",
];

#[test]
fn every_suite_file_is_run() {
    let on_disk: Vec<String> = suites("kustomize")
        .iter()
        .map(|s| s.file.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut listed: Vec<String> = SUITES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "SUITES must name every suite file");
}

#[test]
fn kustomize_replacement_filter() {
    run_suite("replacement-filter.yaml");
}

#[test]
fn kustomize_replacement_transformer_plugin() {
    run_suite("replacement-transformer-plugin.yaml");
}

#[test]
fn kustomize_krusty_replacements() {
    run_suite("krusty-replacements.yaml");
}

#[test]
fn kpt_functions_catalog_examples() {
    run_suite("kpt-functions-catalog.yaml");
}

#[test]
fn krm_functions_catalog_examples() {
    run_suite("krm-functions-catalog.yaml");
}
