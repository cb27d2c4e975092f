//! Fleet's own tests (rancher/fleet, rancher/fleet-examples, rancher/fleet-test-data), ported
//! into `tests/upstream/fleet/*.yaml` and run through the `tailor` binary.
//!
//! A case describes a Fleet bundle directory and the clusters it is deployed to:
//!
//! ```yaml
//! - name: TestX/y                 # the upstream test, or the Go source a derivation reads
//!   from: "..."                   # when no upstream assertion pins the answer: how it was derived
//!   files: {PATH: TEXT}           # the bundle directory, written to a temp dir as is
//!   fleet: {...}                  # or fleet.yaml as data (written as JSON, which is YAML)
//!   symlinks: {LINK: TARGET}      # links inside the bundle (TARGET relative to the link's dir)
//!   outsideFiles: {NAME: TEXT}    # files next to (not in) the bundle directory
//!   marks: true                   # see below
//!   clusters: [{name, labels}]    # Fleet Clusters (default: dev, test, prod by label env, none);
//!                                 # also `namespace` (default fleet-default) and
//!                                 # `templateValues`, which the inventory object carries
//!   inputs: [OBJECT]              # cluster state the agent reads (valuesFrom ConfigMaps and
//!                                 # Secrets), given to tailor as one more input file
//!   groups: [{name, labels, selector}]   # Fleet ClusterGroups, in the clusters' namespace
//!   modes: [standalone, krm]      # default [standalone]
//!   outside: [CLUSTER]            # clusters the GitRepo targets do not select (krm mode skips them)
//!   want:                         # per cluster name, or "*" for every cluster
//!     CLUSTER: {objects: [...]}   # the objects Fleet deploys (any order)
//!     CLUSTER: {error: [WORD]}    # exit 1, the message names each WORD
//!     CLUSTER: [NAME...] | null   # marks cases: the customizations applied, in order; null:
//!                                 # the cluster gets nothing
//! ```
//!
//! `marks: true` makes which customizations a cluster gets visible in the objects, the way a
//! user could see it: the bundle gets one object, `marks.yaml` (a `Marks` with
//! `spec.applied: []`), and every customization entry `i` gets one more yaml overlay,
//! `mark-i`, whose `marks_patch.yaml` is a JSON patch appending the entry's Fleet name
//! (`name`, else `target%03d` by position, as `bundlereader/read.go` `setTargetNames` names
//! it) to `spec.applied`. Fleet applies a cluster's overlays in the order of its merged
//! `yaml.overlays` (`options.Merge` appends), so `spec.applied` lists the customizations whose
//! options the cluster got, in order; a cluster that gets nothing gets no Marks at all.
//!
//! Standalone mode: `tailor CONFIG DIR [inventory.yaml]`, CONFIG a `Tailor` naming the cluster
//! with its labels (and `strip: {builtin: false}`: the KubeStellar strip is no part of what
//! Fleet does, so it is off in both modes); the inventory (Fleet `Cluster` and `ClusterGroup`
//! objects) is passed when the case has groups. KRM mode: a ResourceList whose items are the bundle's objects (with
//! their file as `config.kubernetes.io/path`) plus the Fleet `Cluster`/`ClusterGroup`
//! inventory, and a `Tailor` functionConfig naming the cluster and carrying fleet.yaml's
//! `targetCustomizationMode`, `targets` + `targetCustomizations`, `namespace`,
//! `defaultNamespace`, `yaml`, and the overlay files inline in `spec.overlays`.
//!
//! Objects are compared as data, in any order, after dropping the annotations kpt and tailor
//! use for bookkeeping from tailor's answer and the agent's `objectset.rio.cattle.io/id`
//! annotation and `objectset.rio.cattle.io/hash` label from Fleet's (`fleet test` prints
//! them; they identify the agent's apply set and tailor does not model them).
//!
//! Helpers this runner adds to `tests/common/upstream.rs`: [`without_agent_bookkeeping`],
//! [`sorted`] (Fleet deploys a set), [`compare`] (objects, or an error naming given words),
//! [`overlay_set`] (overlay names may contain `/`), and the suites run to the end before the
//! test fails, so one run lists every difference.
mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::upstream::*;
use serde_json::{json, Value as Json};

const CLUSTER_NAMESPACE: &str = "fleet-default";

#[test]
fn fleet_suites() {
    let suites = suites("fleet");
    assert!(!suites.is_empty(), "no suites under tests/upstream/fleet");
    let root = common::temp_dir("upstream-fleet");
    // Every suite runs and reports before the test fails, so one run shows all differences.
    let mut failed = Vec::new();
    for suite in &suites {
        let mut tally = Tally::default();
        for (i, case) in suite.cases.iter().enumerate() {
            let name = case["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{}: case {i} has no name", suite.file.display()));
            let dir = root.join(format!(
                "{}-{i}",
                suite.file.file_stem().unwrap().to_string_lossy()
            ));
            for mode in modes(case) {
                let label = match mode {
                    Mode::Standalone => name.to_string(),
                    Mode::Krm => format!("{name} [krm]"),
                };
                tally.record(&label, run_case(case, mode, &dir));
            }
        }
        let finished =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tally.finish(suite)));
        if finished.is_err() {
            failed.push(suite.file.display().to_string());
        }
    }
    std::fs::remove_dir_all(&root).ok();
    assert!(failed.is_empty(), "suites with differences: {failed:?}");
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Standalone,
    Krm,
}

fn modes(case: &Json) -> Vec<Mode> {
    match case.get("modes").and_then(Json::as_array) {
        None => vec![Mode::Standalone],
        Some(list) => list
            .iter()
            .map(|m| match m.as_str() {
                Some("standalone") => Mode::Standalone,
                Some("krm") => Mode::Krm,
                other => panic!("unknown mode {other:?}"),
            })
            .collect(),
    }
}

/// A destination: its name and labels, and what its Fleet `Cluster` object says besides.
struct Cluster {
    name: String,
    labels: Json,
    namespace: Option<String>,
    template_values: Option<Json>,
}

fn clusters(case: &Json) -> Vec<Cluster> {
    match case.get("clusters").and_then(Json::as_array) {
        Some(list) => list
            .iter()
            .map(|c| Cluster {
                name: c["name"].as_str().expect("cluster name").to_string(),
                labels: c.get("labels").cloned().unwrap_or_else(|| json!({})),
                namespace: c
                    .get("namespace")
                    .and_then(Json::as_str)
                    .map(str::to_string),
                template_values: c.get("templateValues").cloned(),
            })
            .collect(),
        // The fleet-examples convention: clusters labelled env=dev/test/prod, and one without.
        None => ["dev", "test", "prod"]
            .iter()
            .map(|e| Cluster {
                name: e.to_string(),
                labels: json!({ "env": e }),
                namespace: None,
                template_values: None,
            })
            .chain([Cluster {
                name: "none".into(),
                labels: json!({}),
                namespace: None,
                template_values: None,
            }])
            .collect(),
    }
}

/// What Fleet does for one cluster.
enum Want {
    Objects(Vec<Json>),
    Error(Vec<String>),
}

/// What tailor did.
enum Got {
    Objects(Vec<Json>),
    Error(String),
}

/// What a run of tailor gave: its objects as `read` finds them in the output (`what` it
/// should be), without tailor's bookkeeping annotations, or the failure.
/// What a cluster gets from the objects: Fleet's rawyaml.ToObjects deploys a `*List`'s items
/// (and kubectl apply does the same with a List tailor writes back as a container, as kpt
/// keeps it), so a List counts as its items.
fn deployed(objects: Vec<Json>) -> Vec<Json> {
    let mut out = Vec::new();
    for o in objects {
        let is_list = o["kind"].as_str().is_some_and(|k| k.ends_with("List"));
        match (is_list, o.get("items").and_then(Json::as_array)) {
            (true, Some(items)) => out.extend(deployed(items.clone())),
            _ => out.push(o),
        }
    }
    out
}

fn got(run: common::Run, read: fn(&str) -> Result<Vec<Json>, String>, what: &str) -> Got {
    if run.code != 0 {
        return Got::Error(format!(
            "exit {}: {}{}",
            run.code,
            run.stderr.trim(),
            run.stdout.trim()
        ));
    }
    match read(&run.stdout) {
        Ok(objects) => Got::Objects(
            deployed(objects)
                .into_iter()
                .map(without_bookkeeping)
                .collect(),
        ),
        Err(e) => Got::Error(format!("output is not {what}: {e}\n{}", run.stdout)),
    }
}

fn run_case(case: &Json, mode: Mode, dir: &Path) -> Result<(), String> {
    let files = bundle_files(case);
    let mut problems = Vec::new();
    let outside: Vec<&str> = case
        .get("outside")
        .and_then(Json::as_array)
        .map(|l| l.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    for cluster in clusters(case) {
        if mode == Mode::Krm && outside.contains(&cluster.name.as_str()) {
            continue;
        }
        let want = want_for(case, &cluster.name);
        let got = match mode {
            Mode::Standalone => run_standalone(case, &files, &cluster, dir),
            Mode::Krm => run_krm(case, &files, &cluster),
        };
        if let Err(why) = compare(got, want) {
            problems.push(format!("cluster {}: {why}", cluster.name));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

// ---- the bundle ----------------------------------------------------------------------

const MARKS_FILE: &str = "marks.yaml";

fn marks_object(applied: &[Json]) -> Json {
    json!({
        "apiVersion": "marks.tailor.test/v1",
        "kind": "Marks",
        "metadata": {"name": "marks", "namespace": "marks"},
        "spec": {"applied": applied},
    })
}

/// The Fleet name of every customization entry, in the combined order (`targets:` first).
fn entries(fleet: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    for key in ["targets", "targetCustomizations"] {
        if let Some(list) = fleet.get(key).and_then(Json::as_array) {
            out.extend(list.iter().cloned());
        }
    }
    out
}

fn fleet_name(entry: &Json, position: usize) -> String {
    match entry.get("name").and_then(Json::as_str) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("target{position:03}"),
    }
}

/// fleet.yaml as data, with the marker overlays added when the case asks for marks.
fn fleet_config(case: &Json) -> Option<Json> {
    let mut fleet = case.get("fleet")?.clone();
    if case.get("marks") == Some(&Json::Bool(true)) {
        let mut position = 0;
        for key in ["targets", "targetCustomizations"] {
            if let Some(list) = fleet.get_mut(key).and_then(Json::as_array_mut) {
                for entry in list {
                    let yaml = entry
                        .as_object_mut()
                        .expect("entry is a map")
                        .entry("yaml")
                        .or_insert_with(|| json!({}));
                    let overlays = yaml
                        .as_object_mut()
                        .expect("yaml is a map")
                        .entry("overlays")
                        .or_insert_with(|| json!([]));
                    overlays
                        .as_array_mut()
                        .expect("overlays is a list")
                        .push(json!(format!("mark-{position}")));
                    position += 1;
                }
            }
        }
    }
    Some(fleet)
}

/// Every file of the bundle directory: `files`, fleet.yaml from `fleet`, and the marks.
fn bundle_files(case: &Json) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = case
        .get("files")
        .and_then(Json::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("file text").to_string()))
                .collect()
        })
        .unwrap_or_default();
    if let Some(fleet) = fleet_config(case) {
        files.insert(
            "fleet.yaml".into(),
            serde_json::to_string_pretty(&fleet).unwrap(),
        );
        if case.get("marks") == Some(&Json::Bool(true)) {
            files.insert(
                MARKS_FILE.into(),
                serde_json::to_string_pretty(&marks_object(&[])).unwrap(),
            );
            for (i, entry) in entries(&fleet).iter().enumerate() {
                files.insert(
                    format!("overlays/mark-{i}/marks_patch.yaml"),
                    json!([{"op": "add", "path": "/spec/applied/-", "value": fleet_name(entry, i)}])
                        .to_string(),
                );
            }
        }
    }
    files
}

fn want_for(case: &Json, cluster: &str) -> Want {
    let want = &case["want"];
    let w = want
        .get(cluster)
        .or_else(|| want.get("*"))
        .unwrap_or_else(|| panic!("{}: no want for cluster {cluster}", case["name"]));
    if case.get("marks") == Some(&Json::Bool(true)) {
        return match w {
            Json::Null => Want::Objects(Vec::new()),
            Json::Array(names) => Want::Objects(vec![marks_object(names)]),
            other => panic!("marks want must be a list or null, found {other}"),
        };
    }
    if let Some(objects) = w.get("objects").and_then(Json::as_array) {
        Want::Objects(
            objects
                .iter()
                .cloned()
                .map(without_agent_bookkeeping)
                .collect(),
        )
    } else if let Some(words) = w.get("error").and_then(Json::as_array) {
        Want::Error(
            words
                .iter()
                .map(|s| s.as_str().expect("error word").to_string())
                .collect(),
        )
    } else {
        panic!(
            "{}: want for {cluster} is neither objects nor error",
            case["name"]
        )
    }
}

// ---- the inventory -------------------------------------------------------------------

fn inventory(case: &Json) -> Vec<Json> {
    let mut items: Vec<Json> = clusters(case)
        .into_iter()
        .map(|c| {
            let namespace = c.namespace.as_deref().unwrap_or(CLUSTER_NAMESPACE);
            let mut o = json!({
                "apiVersion": "fleet.cattle.io/v1alpha1",
                "kind": "Cluster",
                "metadata": {"name": c.name, "namespace": namespace, "labels": c.labels},
            });
            if let Some(values) = &c.template_values {
                o["spec"] = json!({ "templateValues": values });
            }
            o
        })
        .collect();
    for g in case
        .get("groups")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        items.push(json!({
            "apiVersion": "fleet.cattle.io/v1alpha1",
            "kind": "ClusterGroup",
            "metadata": {
                "name": g["name"],
                "namespace": CLUSTER_NAMESPACE,
                "labels": g.get("labels").cloned().unwrap_or_else(|| json!({})),
            },
            "spec": {"selector": g.get("selector").cloned().unwrap_or(Json::Null)},
        }));
    }
    items
}

/// Whether the run needs the Fleet inventory objects: for the groups, or for what a
/// cluster's object says beyond its name and labels.
fn needs_inventory(case: &Json) -> bool {
    let groups = case
        .get("groups")
        .and_then(Json::as_array)
        .is_some_and(|g| !g.is_empty());
    groups
        || clusters(case)
            .iter()
            .any(|c| c.namespace.is_some() || c.template_values.is_some())
}

/// The case's `inputs`: objects of the cluster the agent reads.
fn inputs(case: &Json) -> Vec<Json> {
    case.get("inputs")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default()
}

// ---- running tailor --------------------------------------------------------------------

fn tailor_config(spec: Json) -> String {
    serde_json::to_string_pretty(&json!({
        "apiVersion": "tailor.dev/v1alpha1",
        "kind": "Tailor",
        "metadata": {"name": "fleet"},
        "spec": spec,
    }))
    .unwrap()
}

fn run_standalone(
    case: &Json,
    files: &BTreeMap<String, String>,
    cluster: &Cluster,
    dir: &Path,
) -> Got {
    let bundle = dir.join("bundle");
    std::fs::remove_dir_all(dir).ok();
    for (path, text) in files {
        let p = bundle.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    std::fs::create_dir_all(&bundle).unwrap();
    for (name, text) in case
        .get("outsideFiles")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
    {
        std::fs::write(dir.join(name), text.as_str().unwrap()).unwrap();
    }
    for (link, target) in case
        .get("symlinks")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
    {
        let p = bundle.join(link);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target.as_str().unwrap(), &p).unwrap();
    }
    let config = dir.join("tailor.yaml");
    std::fs::write(
        &config,
        tailor_config(json!({
            "cluster": {"name": cluster.name, "labels": cluster.labels},
            "strip": {"builtin": false},
        })),
    )
    .unwrap();
    let mut args = vec![
        config.to_string_lossy().into_owned(),
        bundle.to_string_lossy().into_owned(),
    ];
    let mut extra = inputs(case);
    if needs_inventory(case) {
        extra.extend(inventory(case));
    }
    if !extra.is_empty() {
        let inv = dir.join("inventory.yaml");
        let text: Vec<String> = extra
            .iter()
            .map(|o| serde_json::to_string(o).unwrap())
            .collect();
        std::fs::write(&inv, text.join("\n---\n")).unwrap();
        args.push(inv.to_string_lossy().into_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = common::run_tailor(&args, "");
    got(run, stream_to_json, "YAML")
}

/// The Fleet fields of fleet.yaml a `Tailor` spec carries.
const KRM_FIELDS: &[&str] = &[
    "targetCustomizationMode",
    "targets",
    "targetCustomizations",
    "namespace",
    "defaultNamespace",
    "yaml",
    "overrideTargets",
];

fn run_krm(case: &Json, files: &BTreeMap<String, String>, cluster: &Cluster) -> Got {
    let fleet: Json = match files.get("fleet.yaml") {
        Some(text) => yaml_to_json(text).expect("fleet.yaml"),
        None => json!({}),
    };
    let mut spec = json!({"cluster": {"name": cluster.name}, "strip": {"builtin": false}});
    for (key, value) in fleet.as_object().into_iter().flatten() {
        assert!(
            KRM_FIELDS.contains(&key.as_str()),
            "{}: fleet.yaml field {key} has no place in a Tailor spec; run the case standalone only",
            case["name"]
        );
        match key.as_str() {
            // The GitRepo's targets: krm mode runs only the clusters they select.
            "overrideTargets" => {}
            "targets" | "targetCustomizations" => {}
            _ => {
                spec[key.as_str()] = value.clone();
            }
        }
    }
    let entries = entries(&fleet);
    if !entries.is_empty() {
        spec["targetCustomizations"] = Json::Array(entries);
    }
    let names = overlay_names(&fleet);
    let mut items = Vec::new();
    let mut overlays = serde_json::Map::new();
    for (path, text) in files {
        if path == "fleet.yaml" {
            continue;
        }
        if let Some(rest) = path.strip_prefix("overlays/") {
            let (set, file) = overlay_set(&names, rest);
            overlays
                .entry(set.to_string())
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .unwrap()
                .insert(file.to_string(), json!(text));
            continue;
        }
        let docs = stream_to_json(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (index, mut doc) in docs.into_iter().enumerate() {
            let meta = doc
                .as_object_mut()
                .expect("object")
                .entry("metadata")
                .or_insert_with(|| json!({}));
            let annotations = meta
                .as_object_mut()
                .expect("metadata")
                .entry("annotations")
                .or_insert_with(|| json!({}));
            annotations["config.kubernetes.io/path"] = json!(path);
            annotations["config.kubernetes.io/index"] = json!(index.to_string());
            items.push(doc);
        }
    }
    if !overlays.is_empty() {
        spec["overlays"] = Json::Object(overlays);
    }
    items.extend(inventory(case));
    items.extend(inputs(case));
    let input = resource_list(
        &items,
        Some(&json!(yaml_to_json(&tailor_config(spec)).unwrap())),
    );
    let run = common::run_tailor(&[], &input);
    got(run, resource_list_items, "a ResourceList")
}

/// Every overlay name fleet.yaml mentions (the bundle's and the customizations').
fn overlay_names(fleet: &Json) -> Vec<String> {
    let mut out = Vec::new();
    for options in std::iter::once(fleet).chain(entries(fleet).iter()) {
        for name in options
            .pointer("/yaml/overlays")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(n) = name.as_str() {
                out.push(n.to_string());
            }
        }
    }
    out
}

/// Splits `SET/FILE` (the part of a path after `overlays/`): the longest overlay name that
/// prefixes it (names may contain `/`), else the first segment.
fn overlay_set<'a>(names: &[String], rest: &'a str) -> (&'a str, &'a str) {
    let named = names
        .iter()
        .filter(|n| rest.starts_with(n.as_str()) && rest[n.len()..].starts_with('/'))
        .max_by_key(|n| n.len());
    match named {
        Some(n) => (&rest[..n.len()], &rest[n.len() + 1..]),
        None => rest.split_once('/').expect("overlays/<set>/<file>"),
    }
}

// ---- comparing -----------------------------------------------------------------------

/// Drops what Fleet's agent adds to every object it applies and tailor does not model: the
/// `objectset.rio.cattle.io/id` annotation and `objectset.rio.cattle.io/hash` label.
fn without_agent_bookkeeping(mut object: Json) -> Json {
    if let Some(meta) = object.get_mut("metadata").and_then(Json::as_object_mut) {
        for (field, key) in [
            ("annotations", "objectset.rio.cattle.io/id"),
            ("labels", "objectset.rio.cattle.io/hash"),
        ] {
            if let Some(Json::Object(m)) = meta.get_mut(field) {
                m.remove(key);
                if m.is_empty() {
                    meta.remove(field);
                }
            }
        }
    }
    object
}

/// Objects in a canonical order (kind, namespace, name, then the whole object), since Fleet
/// deploys a set.
fn sorted(mut objects: Vec<Json>) -> Vec<Json> {
    let key = |o: &Json| {
        let s = |p: &str| {
            o.pointer(p)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
        (
            s("/kind"),
            s("/metadata/namespace"),
            s("/metadata/name"),
            o.to_string(),
        )
    };
    objects.sort_by_key(key);
    objects
}

fn compare(got: Got, want: Want) -> Result<(), String> {
    match (got, want) {
        (Got::Objects(g), Want::Objects(w)) => same_objects(&sorted(g), &sorted(w)),
        (Got::Error(msg), Want::Error(words)) => {
            let lower = msg.to_lowercase();
            let missing: Vec<&String> = words
                .iter()
                .filter(|w| !lower.contains(&w.to_lowercase()))
                .collect();
            if missing.is_empty() {
                Ok(())
            } else {
                Err(format!("the error does not name {missing:?}: {msg}"))
            }
        }
        (Got::Error(msg), Want::Objects(w)) => Err(format!(
            "tailor failed where Fleet deploys {} object(s): {msg}",
            w.len()
        )),
        (Got::Objects(g), Want::Error(words)) => Err(format!(
            "tailor exited 0 with {} object(s) where an error naming {words:?} is expected",
            g.len()
        )),
    }
}
