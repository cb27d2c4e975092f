//! The fast slice of the real-world corpus check (issue 19): hand-written reproducers of every
//! shape that failed on the corpus (`tests/fixtures/yaml-realworld/cases/`), checked against
//! go-yaml's and kpt's answers recorded as data (`recorded/<case>.json`), without kpt.
//!
//! `TAILOR_RECORD_REALWORLD=1 cargo test --test yaml_realworld` records those answers again
//! with the kpt on PATH. `cases.yaml` lists the cases and, under `known`, the checks tailor
//! answers differently today (a ratchet: a new difference fails, and so does a known one that
//! no longer differs). The same checks run on the whole corpus in `tests/corpus_realworld.rs`.
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::realworld::*;
use common::upstream::{without_bookkeeping, Tally};
use serde_json::{json, Value as Json};

fn fixture_dir() -> PathBuf {
    common::repo_root().join("tests/fixtures/yaml-realworld")
}

struct Case {
    name: String,
    strip: bool,
    special: bool,
}

fn cases() -> (Vec<Case>, common::upstream::Suite) {
    let file = fixture_dir().join("cases.yaml");
    let text = std::fs::read_to_string(&file).expect("cases.yaml");
    let doc = common::upstream::yaml_to_json(&text).expect("cases.yaml");
    let cases: Vec<Case> = doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().expect("name").to_string(),
            strip: c.get("strip").and_then(Json::as_bool).unwrap_or(false),
            special: c.get("special").and_then(Json::as_bool).unwrap_or(false),
        })
        .collect();
    let known = doc
        .get("known")
        .and_then(Json::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let suite = common::upstream::Suite {
        file,
        source: json!({"repo": "hand-written reproducers", "commit": "kpt 1.0.0-beta.56"}),
        cases: Vec::new(),
        known,
    };
    (cases, suite)
}

fn recorded_path(name: &str) -> PathBuf {
    fixture_dir().join("recorded").join(format!("{name}.json"))
}

#[test]
fn realworld_reproducers() {
    let (cases, suite) = cases();
    if std::env::var_os("TAILOR_RECORD_REALWORLD").is_some() {
        let Some(kpt) = common::tool("kpt") else {
            panic!("recording needs kpt");
        };
        for case in cases.iter().filter(|c| !c.special) {
            record(&kpt, case);
        }
    }
    let mut tally = Tally::default();
    for case in &cases {
        let outcomes = if case.special {
            special(&case.name)
        } else {
            let recorded = std::fs::read_to_string(recorded_path(&case.name))
                .unwrap_or_else(|e| panic!("{}: {e} (record it)", case.name));
            let recorded: Json = serde_json::from_str(&recorded).expect("recorded JSON");
            check_case(case, &recorded)
        };
        for (check, outcome) in outcomes {
            if let Err(why) = &outcome {
                // Every difference, known or not, for whoever works on one.
                eprintln!("{}/{check}: {}", case.name, one_line(why, 700));
            }
            tally.record(&format!("{}/{check}", case.name), outcome);
        }
    }
    tally.finish(&suite);
}

fn case_dir(name: &str) -> PathBuf {
    fixture_dir().join("cases").join(name)
}

// ---------------------------------------------------------------------------------------------
// Recording kpt's answers.

fn record(kpt: &Path, case: &Case) {
    let src = case_dir(&case.name);
    let base = common::temp_dir(&format!("record-{}", case.name));
    let kdir = base.join("pkg");
    common::copy_dir(&src, &kdir);
    let (refused, source) = kpt_refusals(kpt, &kdir);
    let refused: BTreeMap<String, String> = refused
        .into_iter()
        .map(|(rel, msg)| (rel, msg.replace(&format!("{}/", kdir.display()), "")))
        .collect();
    let documents = kpt_documents(&source);
    let files: Vec<(String, String)> = manifest_files(&src)
        .into_iter()
        .filter(|r| !r.ends_with(".json") && !refused.contains_key(r))
        .map(|r| {
            let t = std::fs::read_to_string(src.join(&r)).expect("read");
            (r, t)
        })
        .collect();
    let values = goyaml_values(kpt, &files);
    let mut reading = serde_json::Map::new();
    for (rel, msg) in &refused {
        reading.insert(
            rel.clone(),
            json!({"refused": msg, "line": error_line(msg.split("MalformedYAMLError").nth(1).unwrap_or(msg))}),
        );
    }
    for (rel, _) in &files {
        let n = documents.get(rel).copied().unwrap_or(0);
        let docs: Vec<Json> = (0..n)
            .map(|i| match values.get(&(rel.clone(), i)) {
                Some(Ok(v)) => v.clone(),
                Some(Err(e)) => json!({"$not-converted": e}),
                None => json!({"$not-converted": "no value"}),
            })
            .collect();
        reading.insert(rel.clone(), json!({ "documents": docs }));
    }
    let with_config = kpt_source(kpt, &kdir, Some(&noop_config()));
    assert_eq!(with_config.code, 0, "{}", with_config.stderr);
    // What kpt fn eval hands an exec function: a script keeps a copy.
    let copy = base.join("eval-input.yaml");
    let script = base.join("keep.sh");
    std::fs::write(&script, format!("#!/bin/sh\ntee {}\n", copy.display())).expect("script");
    let mut perms = std::fs::metadata(&script).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).expect("chmod");
    // kpt fn eval takes only objects: the files that are not go.
    let eval_dir = base.join("eval");
    copy_without(&kdir, &eval_dir, &not_objects(&kdir));
    let eval = run(
        kpt,
        &[
            "fn",
            "eval",
            path_str(&eval_dir),
            "--exec",
            path_str(&script),
            "--fn-config",
            path_str(&noop_config()),
        ],
        None,
        b"",
    );
    let eval_input = if eval.code == 0 {
        Json::String(std::fs::read_to_string(&copy).expect("eval input"))
    } else {
        json!({"$refused": eval.stderr.replace(&format!("{}/", eval_dir.display()), "").trim()})
    };
    let version = run(kpt, &["version"], None, b"").text().trim().to_string();
    let recorded = json!({
        "kpt": version,
        "reading": reading,
        "source": with_config.text(),
        "eval_input": eval_input,
    });
    std::fs::create_dir_all(fixture_dir().join("recorded")).expect("mkdir");
    let mut text = serde_json::to_string_pretty(&recorded).expect("JSON");
    text.push('\n');
    std::fs::write(recorded_path(&case.name), text).expect("write");
    let _ = std::fs::remove_dir_all(&base);
}

// ---------------------------------------------------------------------------------------------
// Checking a case against the recorded answers.

type Outcomes = Vec<(&'static str, Result<(), String>)>;

fn first_of(report: Report) -> Result<(), String> {
    match report.diffs.first() {
        None => Ok(()),
        Some(d) => Err(format!(
            "{} difference(s); first: {}: {}",
            report.diffs.len(),
            d.file,
            one_line(&d.detail, 500)
        )),
    }
}

fn check_case(case: &Case, recorded: &Json) -> Outcomes {
    let dir = case_dir(&case.name);
    let mut out: Outcomes = Vec::new();
    out.push(("reading", check_reading(&dir, &recorded["reading"])));
    let noop = noop_config();
    let base = common::temp_dir(&format!("rw-{}", case.name));
    // Standalone runs on the files go-yaml reads (a refusal is checked under `reading`).
    let refused: BTreeSet<String> = recorded["reading"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(_, v)| v.get("refused").is_some())
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default();
    let dir = if refused.is_empty() {
        dir
    } else {
        let pkg = base.join("pkg");
        copy_without(&dir, &pkg, &refused);
        pkg
    };

    // Standalone --output-dir: every file comes back as it was.
    let od = base.join("out");
    let run = tailor(
        &[path_str(&noop), ".", "--output-dir", path_str(&od)],
        Some(&dir),
        b"",
    );
    let mut r = Report::default();
    if run.code != 0 {
        r.add(
            "standalone-dir",
            ".",
            format!("the run failed: {}", run.stderr.trim()),
        );
    } else {
        compare_trees(&mut r, "standalone-dir", &tree(&dir), &tree(&od));
    }
    out.push(("standalone-dir", first_of(r)));

    out.push(("standalone-stream", check_stream(&dir, &noop)));
    out.push(("standalone-rl", check_rl(&dir, &noop, recorded)));
    out.push(("standalone-rl-comments", rl_comments(&dir, &noop)));

    let source = recorded["source"].as_str().unwrap_or_default();
    out.push(("kpt-pipe", same_items(source)));
    if let Some(input) = recorded["eval_input"].as_str() {
        out.push(("kpt-eval", same_items(input)));
    }
    let (values, style) = check_json_list(source);
    out.push(("json-list", values));
    out.push(("json-style", style));

    if case.strip {
        let strip = strip_config();
        let so = base.join("strip");
        let run = tailor(
            &[path_str(&strip), ".", "--output-dir", path_str(&so)],
            Some(&dir),
            b"",
        );
        if run.code != 0 {
            out.push(("strip-run", Err(run.stderr.trim().to_string())));
        } else {
            out.push(("strip-run", Ok(())));
            let (untouched, comments) = check_strip(&tree(&dir), &tree(&so));
            out.push(("strip-untouched", untouched));
            out.push(("strip-comments", comments));
        }
        out.push(("kpt-pipe-strip", pipe_strip(source)));
    }
    let _ = std::fs::remove_dir_all(&base);
    out
}

fn check_reading(dir: &Path, recorded: &Json) -> Result<(), String> {
    let Some(files) = recorded.as_object() else {
        return Err("nothing recorded".into());
    };
    let mut problems = Vec::new();
    for (rel, want) in files {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap_or_default();
        let ours = tailor_reading(&text);
        match (want.get("refused"), &ours) {
            (Some(msg), Reading::Docs(_)) => {
                if msg
                    .as_str()
                    .is_some_and(|m| m.contains("MalformedYAMLError"))
                {
                    problems.push(format!("{rel}: go-yaml refuses ({msg}), tailor accepts"));
                }
            }
            (Some(msg), Reading::Refused { message, line }) => {
                if want["line"].as_u64().map(|l| l as usize) != *line {
                    problems.push(format!("{rel}: go-yaml {msg}; tailor {message}"));
                }
            }
            (None, Reading::Refused { message, .. }) => {
                problems.push(format!("{rel}: go-yaml accepts, tailor refuses: {message}"));
            }
            (None, Reading::Docs(docs)) => {
                let want_docs = want["documents"].as_array().cloned().unwrap_or_default();
                if want_docs.len() != docs.len() {
                    problems.push(format!(
                        "{rel}: go-yaml reads {} documents, tailor {}",
                        want_docs.len(),
                        docs.len()
                    ));
                    continue;
                }
                for (i, (w, o)) in want_docs.iter().zip(docs).enumerate() {
                    if w.get("$not-converted").is_some() {
                        continue;
                    }
                    if let Err(e) = check_document_value(&text, i, w, o) {
                        problems.push(format!("{rel}#{i}: {e}"));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

fn check_stream(dir: &Path, config: &Path) -> Result<(), String> {
    let run = tailor(&[path_str(config), "."], Some(dir), b"");
    if run.code != 0 {
        return Err(format!("the run failed: {}", run.stderr.trim()));
    }
    let mut want = Vec::new();
    for (path, rel) in tailor_kio::files::package_files(dir).expect("walk") {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for doc in document_texts(&text).map_err(|e| format!("{rel}: {e}"))? {
            want.push((rel.clone(), doc));
        }
    }
    let text = run.text();
    let got = document_texts(&text).map_err(|e| format!("the output is not YAML: {e}"))?;
    if got.len() != want.len() {
        return Err(format!("{} documents in, {} out", want.len(), got.len()));
    }
    for ((rel, w), g) in want.iter().zip(&got) {
        let values = if tailor_reading(w) == tailor_reading(g) {
            "same value"
        } else {
            "the value changes"
        };
        if !same_document_text(w, g) || values != "same value" {
            return Err(format!(
                "{rel}: {values}: {}",
                first_difference(w.as_bytes(), g.as_bytes())
            ));
        }
    }
    // The stream as a whole: documents joined by `---` lines, nothing else.
    let joined: String = got
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("---\n");
    if joined != text {
        return Err(first_difference(joined.as_bytes(), text.as_bytes()));
    }
    Ok(())
}

/// `-o resource-list`: one item per object kpt fn source reads, with go-yaml's values, and
/// the annotations kpt fn source records.
fn check_rl(dir: &Path, config: &Path, recorded: &Json) -> Result<(), String> {
    let run = tailor(
        &[path_str(config), ".", "-o", "resource-list"],
        Some(dir),
        b"",
    );
    if run.code != 0 {
        return Err(format!("the run failed: {}", run.stderr.trim()));
    }
    let ours = list_items(&run.text())?;
    let kpts = list_items(recorded["source"].as_str().unwrap_or_default())?;
    let by_key = |items: &[Json]| -> BTreeMap<(String, usize), Json> {
        items
            .iter()
            .filter_map(|i| kpt_key(i).map(|k| (k, i.clone())))
            .collect()
    };
    let (ours, kpts) = (by_key(&ours), by_key(&kpts));
    let mut problems = Vec::new();
    let (a, b): (BTreeSet<_>, BTreeSet<_>) = (ours.keys().collect(), kpts.keys().collect());
    if a != b {
        problems.push(format!("objects differ: tailor {a:?}, kpt {b:?}"));
    }
    for (key, theirs) in &kpts {
        let Some(mine) = ours.get(key) else { continue };
        let annotations = |o: &Json| -> BTreeMap<String, Json> {
            o.pointer("/metadata/annotations")
                .and_then(Json::as_object)
                .map(|m| {
                    m.iter()
                        .filter(|(k, _)| k.contains("config.kubernetes.io/"))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (am, mut at) = (annotations(mine), annotations(theirs));
        // kpt fn sink writes compact sequences when the annotation is missing.
        if at.get("internal.config.kubernetes.io/seqindent") == Some(&json!("compact"))
            && !am.contains_key("internal.config.kubernetes.io/seqindent")
        {
            at.remove("internal.config.kubernetes.io/seqindent");
        }
        if am != at {
            problems.push(format!("{key:?}: annotations {am:?}, kpt records {at:?}"));
        }
        // The values tailor read from the file (checked against go-yaml under `reading`).
        let text = std::fs::read_to_string(dir.join(&key.0)).unwrap_or_default();
        let want = match tailor_reading(&text) {
            Reading::Docs(docs) => docs.get(key.1).cloned(),
            Reading::Refused { .. } => None,
        };
        if let Some(want) = want.map(without_bookkeeping) {
            let mut got = without_bookkeeping(mine.clone());
            if want.get("metadata").is_none() {
                if let Some(m) = got.as_object_mut() {
                    if m.get("metadata")
                        .is_some_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
                    {
                        m.remove("metadata");
                    }
                }
            }
            // tailor writes the list as go-yaml's emitter does, as kpt fn source does: an
            // empty plain scalar in a flow collection comes back as `''`. Only such a spot
            // may differ from the file's value (`Ok(false)`).
            if want != got && check_document_value(&text, key.1, &got, &want) != Ok(false) {
                let e = same_as_goyaml(&want, &got)
                    .err()
                    .unwrap_or_else(|| "key order".into());
                let e = e
                    .replace("go-yaml", "read from the file")
                    .replace("tailor", "written");
                problems.push(format!("{key:?}: {e}"));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// `-o resource-list`: no comment line in column 0 between two items. kpt writes an object's
/// head comment on its `- ` line (`- # comment`); given comment lines above a `- ` instead,
/// `kpt fn sink` writes them inside the object, after its first line.
fn rl_comments(dir: &Path, config: &Path) -> Result<(), String> {
    let run = tailor(
        &[path_str(config), ".", "-o", "resource-list"],
        Some(dir),
        b"",
    );
    if run.code != 0 {
        return Err(format!("the run failed: {}", run.stderr.trim()));
    }
    let text = run.text();
    let list = split_list(&text);
    for (i, item) in list.items.iter().enumerate().skip(1) {
        let before = list.items[i - 1];
        if let Some(line) = before.lines().rev().find(|l| l.starts_with('#')) {
            if before
                .lines()
                .last()
                .is_some_and(|l| l.starts_with('#') || l.is_empty())
            {
                return Err(format!(
                    "a comment sits in column 0 above item {i} ({line:?})"
                ));
            }
        }
        let _ = item;
    }
    Ok(())
}

/// tailor handed `list` with a configuration that changes nothing answers the same items, byte
/// for byte (what `--exec cat` answers kpt).
fn same_items(list: &str) -> Result<(), String> {
    let run = tailor(&[], None, list.as_bytes());
    if run.code != 0 {
        return Err(format!("tailor failed: {}", one_line(&run.stderr, 300)));
    }
    let text = run.text();
    let (want, got) = (split_list(list), split_list(&text));
    if want.items.len() != got.items.len() {
        return Err(format!(
            "{} items in, {} out",
            want.items.len(),
            got.items.len()
        ));
    }
    for (w, g) in want.items.iter().zip(&got.items) {
        if w != g {
            return Err(first_difference(w.as_bytes(), g.as_bytes()));
        }
    }
    Ok(())
}

/// The list as one line of JSON: the same values come back (first), as JSON (second).
fn check_json_list(list: &str) -> (Result<(), String>, Result<(), String>) {
    let json = match as_json_list(list) {
        Ok(j) => j,
        Err(e) => return (Err(e), Err("no JSON".into())),
    };
    let run = tailor(&[], None, json.as_bytes());
    if run.code != 0 {
        let e = Err(format!("tailor refuses it: {}", one_line(&run.stderr, 300)));
        return (e.clone(), e);
    }
    let text = run.text();
    let values = (|| {
        let (want, got) = (list_items(list)?, list_items(&text)?);
        if want.len() != got.len() {
            return Err(format!("{} items in, {} out", want.len(), got.len()));
        }
        for (w, g) in want.iter().zip(&got) {
            same_as_goyaml(w, g)?;
        }
        Ok(())
    })();
    let items = split_list(&text).items;
    let block = items.iter().filter(|i| !i.starts_with("- {")).count();
    let style = if block == 0 {
        Ok(())
    } else {
        Err(format!(
            "{block} of {} items come back in block style",
            items.len()
        ))
    };
    (values, style)
}

/// Strip: a document that keeps its value keeps its text (first); the comments above an
/// object strip changes stay (second).
fn check_strip(
    want: &BTreeMap<String, Vec<u8>>,
    got: &BTreeMap<String, Vec<u8>>,
) -> (Result<(), String>, Result<(), String>) {
    let mut untouched = Ok(());
    let mut comments = Ok(());
    for (rel, w) in want {
        let Some(g) = got.get(rel) else {
            untouched = Err(format!("{rel}: missing from the output"));
            continue;
        };
        if g == w {
            continue;
        }
        let (wt, gt) = (String::from_utf8_lossy(w), String::from_utf8_lossy(g));
        let (Ok(wd), Ok(gd)) = (document_texts(&wt), document_texts(&gt)) else {
            continue;
        };
        let mut changed_any = false;
        for (a, b) in wd.iter().zip(&gd) {
            if a == b {
                continue;
            }
            if tailor_reading(a) == tailor_reading(b) {
                let why = format!("{rel}: {}", first_difference(a.as_bytes(), b.as_bytes()));
                untouched = Err(match untouched {
                    Err(before) => format!("{before}; {why}"),
                    Ok(()) => why,
                });
            } else {
                changed_any = true;
                let head: Vec<&str> = a.lines().take_while(|l| l.starts_with('#')).collect();
                if !head.is_empty() && !b.starts_with(&format!("{}\n", head.join("\n"))) {
                    comments = Err(format!(
                        "{rel}: the comment above the object is lost: {:?}",
                        head[0]
                    ));
                }
            }
        }
        if !changed_any && wd == gd {
            // Same documents, another file: markers or the final line break.
            let why = format!("{rel}: {}", first_difference(w, g));
            untouched = Err(match untouched {
                Err(before) => format!("{before}; {why}"),
                Ok(()) => why,
            });
        }
    }
    (untouched, comments)
}

/// `kpt fn source | tailor (strip)`: items strip leaves alone keep their bytes.
fn pipe_strip(source: &str) -> Result<(), String> {
    let parts = split_list(source);
    let strip = std::fs::read_to_string(strip_config()).expect("strip config");
    let config: String = strip
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("  {l}\n"))
        .collect();
    let list = format!(
        "{}{}functionConfig:\n{config}",
        parts.head,
        parts.items.concat()
    );
    let run = tailor(&[], None, list.as_bytes());
    if run.code != 0 {
        return Err(format!("tailor failed: {}", one_line(&run.stderr, 300)));
    }
    let text = run.text();
    let got = split_list(&text);
    if got.items.len() != parts.items.len() {
        return Err(format!(
            "{} items in, {} out",
            parts.items.len(),
            got.items.len()
        ));
    }
    for (w, g) in parts.items.iter().zip(&got.items) {
        if w == g {
            continue;
        }
        let value = |t: &str| list_items(&format!("items:\n{t}")).ok();
        if value(w) == value(g) {
            return Err(first_difference(w.as_bytes(), g.as_bytes()));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Special cases: answers decided in issue 19 (no package, no recording).

fn special(name: &str) -> Outcomes {
    match name {
        "json-surrogate-pair" => vec![
            ("surrogates", surrogates()),
            ("properties-file", surrogate_properties()),
        ],
        "long-lines" => vec![("scaling", scaling())],
        "absolute-file-argument" => vec![("output-dir", absolute_file_argument())],
        other => panic!("unknown special case {other}"),
    }
}

fn surrogates() -> Result<(), String> {
    let list = |s: &str| {
        format!(
            r#"{{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"a"}},"data":{{"k":"{s}"}}}}]}}"#
        )
    };
    let pair = tailor(&[], None, list("\\ud83c\\udf0d").as_bytes());
    if pair.code != 0 {
        return Err(format!("a valid pair is refused: {}", pair.stderr.trim()));
    }
    let items = list_items(&pair.text())?;
    if items.first().and_then(|i| i.pointer("/data/k")) != Some(&json!("\u{1F30D}")) {
        return Err(format!("a valid pair is not decoded: {}", pair.text()));
    }
    for lone in ["\\ud83c", "\\udf0d", "\\ud83c\\ud83c"] {
        let run = tailor(&[], None, list(lone).as_bytes());
        if run.code == 0 {
            return Err(format!("a lone surrogate is accepted: {lone}"));
        }
        if !run.stderr.contains("surrogate") {
            return Err(format!(
                "{lone}: the refusal does not say why: {}",
                run.stderr
            ));
        }
    }
    Ok(())
}

/// `tailor expand --properties FILE` reads a JSON file too.
fn surrogate_properties() -> Result<(), String> {
    let tmp = common::temp_dir("surrogate-props");
    let file = tmp.join("props.json");
    std::fs::write(&file, r#"{"clusterName": "\ud83c\udf0d-\u00e9"}"#).expect("write");
    let run = tailor(
        &["expand", "--properties", path_str(&file)],
        None,
        b"name={{ .clusterName }}",
    );
    if (run.code, run.text()) != (0, "name=\u{1F30D}-\u{e9}".to_string()) {
        return Err(format!("{}: {}{}", run.code, run.text(), run.stderr));
    }
    Ok(())
}

/// 8,000 objects on one line after a 1 MB field against the same list with a line per
/// object: a scan that goes back to the start of the line for each object takes seconds on
/// the first and nothing on the second; a linear one takes the same time for both.
fn scaling() -> Result<(), String> {
    let pad = "x".repeat(1_000_000);
    let items: Vec<String> = (0..8_000)
        .map(|i| format!(r#"{{"apiVersion":"v1","kind":"A","metadata":{{"name":"c{i}"}}}}"#))
        .collect();
    let one_line = format!(
        r#"{{"kind":"ResourceList","pad":"{pad}","items":[{}]}}"#,
        items.join(",")
    );
    let lines = format!(
        "{{\"kind\":\"ResourceList\",\"pad\":\"{pad}\",\n\"items\":[\n{}]}}",
        items.join(",\n")
    );
    let time = |list: &str| -> Duration {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                let out = tailor(&[], None, list.as_bytes());
                assert_eq!(out.code, 0, "{}", out.stderr);
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let (one, many) = (time(&one_line), time(&lines));
    if one > many * 2 + Duration::from_millis(200) {
        return Err(format!("one line {one:?}, a line per object {many:?}"));
    }
    Ok(())
}

fn absolute_file_argument() -> Result<(), String> {
    let base = common::temp_dir("abs-arg");
    let file = base.join("cm.yaml");
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
    std::fs::write(&file, text).expect("write");
    let out = base.join("out");
    let run = tailor(
        &[
            path_str(&noop_config()),
            path_str(&file),
            "--output-dir",
            path_str(&out),
        ],
        None,
        b"",
    );
    let result = if run.code != 0 {
        Err(run.stderr.trim().to_string())
    } else {
        let tree = tree(&out);
        if tree.values().any(|v| v == text.as_bytes()) && tree.len() == 1 {
            Ok(())
        } else {
            Err(format!("wrote {:?}", tree.keys().collect::<Vec<_>>()))
        }
    };
    let _ = std::fs::remove_dir_all(&base);
    result
}
