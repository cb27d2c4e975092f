//! Shared harness of the ported upstream suites (`tests/upstream/<system>/*.yaml`).
//!
//! A suite file records where its cases come from and the cases themselves, as data:
//!
//! ```yaml
//! source:
//!   repo: kubernetes-sigs/kustomize
//!   commit: 0123abcd...           # the commit the cases were read at
//!   paths: [api/filters/replacement/replacement_test.go]
//! cases:
//! - name: TestReplacementFilter/simple
//!   ...                           # the fields the suite's runner reads
//! known:                          # cases tailor answers differently today, with the reason
//!   TestX/y: "why; the issue that tracks it"
//! ```
//!
//! Expected answers come from the upstream test tables, never from tailor. A runner checks
//! every case through the binary and hands the outcome to a [`Tally`], which fails the test
//! unless the failing cases are exactly the `known` ones: a new difference fails, and so does
//! a known one that starts passing (its entry must then go).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

/// One suite file, read.
pub struct Suite {
    pub file: PathBuf,
    pub source: Json,
    pub cases: Vec<Json>,
    pub known: BTreeMap<String, String>,
}

/// The directory of a system's suites: `tests/upstream/<system>`.
pub fn suite_dir(system: &str) -> PathBuf {
    super::repo_root().join("tests/upstream").join(system)
}

/// Every `*.yaml` suite of a system, sorted by file name.
pub fn suites(system: &str) -> Vec<Suite> {
    let dir = suite_dir(system);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files.iter().map(|f| load_suite(f)).collect()
}

/// Reads one suite file; its `source` must name the repository, the commit and the path(s).
pub fn load_suite(file: &Path) -> Suite {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let doc = yaml_to_json(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let source = doc.get("source").cloned().unwrap_or(Json::Null);
    for key in ["repo", "commit"] {
        assert!(
            source.get(key).and_then(Json::as_str).is_some(),
            "{}: source.{key} is required",
            file.display()
        );
    }
    assert!(
        source.get("paths").is_some_and(Json::is_array) || source.get("path").is_some(),
        "{}: source.paths is required",
        file.display()
    );
    let cases = match doc.get("cases") {
        Some(Json::Array(c)) => c.clone(),
        _ => panic!("{}: cases must be a list", file.display()),
    };
    let known = match doc.get("known") {
        None | Some(Json::Null) => BTreeMap::new(),
        Some(Json::Object(m)) => m
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
        Some(_) => panic!("{}: known must map case names to reasons", file.display()),
    };
    Suite {
        file: file.to_path_buf(),
        source,
        cases,
        known,
    }
}

/// The first document of a YAML text as JSON.
pub fn yaml_to_json(text: &str) -> Result<Json, String> {
    let docs = tailor_yaml::parse_stream(text).map_err(|e| e.to_string())?;
    match docs.into_iter().find(|d| !d.empty) {
        Some(d) => d.root.to_json().map_err(|e| e.to_string()),
        None => Ok(Json::Null),
    }
}

/// Every non-empty document of a YAML stream as JSON.
pub fn stream_to_json(text: &str) -> Result<Vec<Json>, String> {
    let docs = tailor_yaml::parse_stream(text).map_err(|e| e.to_string())?;
    docs.into_iter()
        .filter(|d| !d.empty)
        .map(|d| d.root.to_json().map_err(|e| e.to_string()))
        .collect()
}

/// The items of a ResourceList text, as JSON.
pub fn resource_list_items(text: &str) -> Result<Vec<Json>, String> {
    match yaml_to_json(text)?.get("items") {
        Some(Json::Array(items)) => Ok(items.clone()),
        Some(Json::Null) | None => Ok(Vec::new()),
        Some(other) => Err(format!("items is not a list: {other}")),
    }
}

/// A ResourceList around `items` (YAML documents, as text) with `function_config` (a YAML
/// mapping, as text), the way kpt and kustomize hand it to a function.
pub fn resource_list(items: &[Json], function_config: Option<&Json>) -> String {
    let mut list = serde_json::json!({
        "apiVersion": "config.kubernetes.io/v1",
        "kind": "ResourceList",
        "items": items,
    });
    if let Some(fc) = function_config {
        list["functionConfig"] = fc.clone();
    }
    serde_json::to_string(&list).expect("JSON")
}

/// Drops the annotations kpt and kustomize use for bookkeeping, which upstream expectations
/// do not carry, and a `metadata.annotations` they leave empty.
pub fn without_bookkeeping(mut object: Json) -> Json {
    if let Some(meta) = object.get_mut("metadata").and_then(Json::as_object_mut) {
        if let Some(Json::Object(annotations)) = meta.get_mut("annotations") {
            annotations.retain(|k, _| {
                !k.starts_with("config.kubernetes.io/")
                    && !k.starts_with("internal.config.kubernetes.io/")
            });
            if annotations.is_empty() {
                meta.remove("annotations");
            }
        }
    }
    object
}

/// Compares two object lists as data (key order aside), in order; the error says where they
/// first differ.
pub fn same_objects(got: &[Json], want: &[Json]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{} objects, expected {}:\n got: {}\nwant: {}",
            got.len(),
            want.len(),
            brief(got),
            brief(want)
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return Err(format!(
                "object {i} differs:\n got: {}\nwant: {}",
                serde_json::to_string(g).unwrap_or_default(),
                serde_json::to_string(w).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

fn brief(objects: &[Json]) -> String {
    objects
        .iter()
        .map(|o| {
            format!(
                "{}/{}",
                o.pointer("/kind").and_then(Json::as_str).unwrap_or("?"),
                o.pointer("/metadata/name")
                    .and_then(Json::as_str)
                    .unwrap_or("?")
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome of a suite run: which cases passed and which failed, and why.
#[derive(Default)]
pub struct Tally {
    passed: Vec<String>,
    failed: BTreeMap<String, String>,
}

impl Tally {
    pub fn record(&mut self, name: &str, outcome: Result<(), String>) {
        assert!(
            !self.passed.iter().any(|p| p == name) && !self.failed.contains_key(name),
            "case name {name:?} is used twice"
        );
        match outcome {
            Ok(()) => self.passed.push(name.to_string()),
            Err(why) => {
                self.failed.insert(name.to_string(), why);
            }
        }
    }

    pub fn total(&self) -> usize {
        self.passed.len() + self.failed.len()
    }

    /// Prints the counts and asserts that the failing cases are exactly the suite's `known`.
    pub fn finish(self, suite: &Suite) {
        let label = suite
            .file
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        eprintln!(
            "{label}: {} cases, {} pass, {} known differences ({} {})",
            self.total(),
            self.passed.len(),
            suite.known.len(),
            suite
                .source
                .get("repo")
                .and_then(Json::as_str)
                .unwrap_or("?"),
            suite
                .source
                .get("commit")
                .and_then(Json::as_str)
                .unwrap_or("?"),
        );
        // TAILOR_SHOW_KNOWN=1 prints how each known case differs today.
        if std::env::var_os("TAILOR_SHOW_KNOWN").is_some() {
            for (name, why) in &self.failed {
                if suite.known.contains_key(name) {
                    eprintln!("KNOWN {name}: {why}");
                }
            }
        }
        let mut problems = Vec::new();
        for (name, why) in &self.failed {
            if !suite.known.contains_key(name) {
                problems.push(format!("FAILED {name}: {why}"));
            }
        }
        for name in suite.known.keys() {
            if self.passed.contains(name) {
                problems.push(format!(
                    "{name} is listed under known but passes now: remove its entry"
                ));
            } else if !self.failed.contains_key(name) {
                problems.push(format!("{name} is listed under known but is not a case"));
            }
        }
        assert!(problems.is_empty(), "{label}:\n{}", problems.join("\n\n"));
    }
}
