//! The real-world corpus check of issue 19 (the long suite): every file of a corpus of public
//! projects' manifests, assembled by `scripts/corpus.sh`, read as go-yaml v3 reads it and
//! written back byte for byte in every mode, through the binary and through kpt.
//!
//! ```sh
//! scripts/corpus.sh                                   # from fetched mirrors into target/corpus
//! TAILOR_CORPUS_DIR=$PWD/target/corpus cargo test --release --test corpus_realworld -- --nocapture
//! ```
//!
//! Without `TAILOR_CORPUS_DIR` (or without kpt) it skips with a loud message; the slice of the
//! corpus committed under `tests/fixtures/corpus-slice` runs every time (without kpt it skips
//! loudly). The checks are
//! those of `tests/common/realworld.rs`; `tests/fixtures/yaml-realworld/corpus-known.yaml`
//! lists the checks that differ today, each with its reason: the test fails on a difference in
//! any other check, and on a listed check that no longer differs. Every difference is written
//! to `$TAILOR_CORPUS_REPORT` (default `target/corpus-report.txt`). `TAILOR_CORPUS_PROJECTS`
//! (comma-separated) limits the run to some projects.
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::realworld::*;
use serde_json::Value as Json;

#[test]
fn realworld_corpus() {
    let Some(root) = std::env::var_os("TAILOR_CORPUS_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
    else {
        eprintln!(
            "\n!!! SKIPPED corpus_realworld: TAILOR_CORPUS_DIR does not point at a corpus (build one with scripts/corpus.sh) !!!\n"
        );
        return;
    };
    let Some(kpt) = common::tool("kpt") else {
        return;
    };
    let only: Option<BTreeSet<String>> = std::env::var("TAILOR_CORPUS_PROJECTS")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let mut projects: Vec<String> = std::fs::read_dir(&root)
        .expect("corpus directory")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    projects.sort();
    assert!(!projects.is_empty(), "no project under {}", root.display());
    let mut report = Report::default();
    for p in &projects {
        let started = Instant::now();
        check_project(&kpt, &root.join(p), p, &mut report);
        eprintln!(
            "corpus: {p} checked in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    if only.is_none() {
        long_lines(&mut report);
    }
    let out = std::env::var_os("TAILOR_CORPUS_REPORT")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_root().join("target/corpus-report.txt"));
    let mut full = report.summary(usize::MAX);
    full.insert_str(
        0,
        &format!("corpus {} ({})\n\n", root.display(), projects.join(", ")),
    );
    let _ = std::fs::write(&out, full);
    eprintln!("corpus: every difference is listed in {}", out.display());
    if only.is_none() {
        report.finish("real-world corpus", &corpus_known());
    } else {
        eprintln!("{}", report.summary(12));
    }
}

/// CI's fast slice: real files of the same projects committed under
/// `tests/fixtures/corpus-slice` (its SOURCES.md names each file's repository and commit), put
/// through every check the whole corpus gets. No difference is known there: the slice holds
/// none of the deliberate ones (duplicate keys, kustomizations).
#[test]
fn realworld_corpus_slice() {
    let Some(kpt) = common::tool("kpt") else {
        return;
    };
    let root = common::repo_root().join("tests/fixtures/corpus-slice");
    let mut projects: Vec<String> = std::fs::read_dir(&root)
        .expect("tests/fixtures/corpus-slice")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    projects.sort();
    let mut report = Report::default();
    for p in &projects {
        check_project(&kpt, &root.join(p), p, &mut report);
    }
    report.finish("real-world corpus slice", &BTreeMap::new());
}

fn corpus_known() -> BTreeMap<String, String> {
    let file = common::repo_root().join("tests/fixtures/yaml-realworld/corpus-known.yaml");
    let text = std::fs::read_to_string(&file).expect("corpus-known.yaml");
    let doc = common::upstream::yaml_to_json(&text).expect("corpus-known.yaml");
    doc.get("known")
        .and_then(Json::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

fn is_yaml(rel: &str) -> bool {
    rel.ends_with(".yaml") || rel.ends_with(".yml")
}

/// Every check on one project.
fn check_project(kpt: &Path, src: &Path, project: &str, report: &mut Report) {
    let mut laps = Laps::new(project);
    let base = common::temp_dir(&format!("corpus-{project}"));
    let all = base.join("all");
    common::copy_dir(src, &all);
    let label = |rel: &str| format!("{project}/{rel}");

    // 1. Reading: accept/refuse, error lines and values against go-yaml (kpt fn source).
    let kdir = base.join("kpt");
    common::copy_dir(&all, &kdir);
    let (kpt_refused, source) = kpt_refusals(kpt, &kdir);
    let kpt_refused: BTreeMap<String, String> = kpt_refused.into_iter().collect();
    let kpt_docs = kpt_documents(&source);
    let files: Vec<(String, String)> = manifest_files(&all)
        .into_iter()
        .filter(|r| is_yaml(r) && !kpt_refused.contains_key(r))
        .map(|r| {
            let text = std::fs::read_to_string(all.join(&r)).unwrap_or_default();
            (r, text)
        })
        .collect();
    let go = goyaml_values(kpt, &files);
    let mut tailor_refused = BTreeSet::new();
    for rel in manifest_files(&all).iter().filter(|r| is_yaml(r)) {
        let text = std::fs::read_to_string(all.join(rel)).unwrap_or_default();
        let ours = tailor_reading(&text);
        report.ran("reading/accept", 1);
        match (kpt_refused.get(rel), &ours) {
            (Some(msg), _) if !msg.contains("MalformedYAMLError") => {
                // A document kpt cannot take as an object (a bare scalar): not a YAML error.
            }
            (Some(msg), Reading::Docs(_)) => {
                report.add(
                    "reading/accept",
                    &label(rel),
                    format!("go-yaml refuses ({msg}), tailor accepts"),
                );
            }
            (Some(msg), Reading::Refused { message, line }) => {
                tailor_refused.insert(rel.clone());
                report.ran("reading/error-line", 1);
                if error_line(msg) != *line {
                    report.add(
                        "reading/error-line",
                        &label(rel),
                        format!("go-yaml: {msg}; tailor: {message}"),
                    );
                }
            }
            (None, Reading::Refused { message, .. }) => {
                tailor_refused.insert(rel.clone());
                report.add(
                    "reading/accept",
                    &label(rel),
                    format!("go-yaml accepts, tailor refuses: {message}"),
                );
            }
            (None, Reading::Docs(docs)) => {
                let kpt_docs = kpt_docs.get(rel).copied().unwrap_or(0);
                if kpt_docs != docs.len() {
                    report.add(
                        "reading/documents",
                        &label(rel),
                        format!("go-yaml reads {kpt_docs} documents, tailor {}", docs.len()),
                    );
                    continue;
                }
                for (i, ours) in docs.iter().enumerate() {
                    match go.get(&(rel.clone(), i)) {
                        Some(Ok(theirs)) => {
                            report.ran("reading/values", 1);
                            match check_document_value(&text, i, theirs, ours) {
                                Ok(true) => {}
                                Ok(false) => report.ran("reading/values-emitter-artifact", 1),
                                Err(e) => {
                                    report.add("reading/values", &format!("{}#{i}", label(rel)), e)
                                }
                            }
                        }
                        // kpt's JSON conversion refuses it (a key that is not a string, .inf).
                        _ => report.ran("reading/values-not-converted", 1),
                    }
                }
            }
        }
    }

    laps.lap("reading");

    // 2. Standalone mode, a config that changes nothing.
    let sdir = base.join("standalone");
    common::copy_dir(&all, &sdir);
    let noop = noop_config();
    let strip = strip_config();
    let out_dir = base.join("out-noop");
    // A run stops at the first file it refuses, and the project is large: each file it may
    // refuse (one tailor-yaml cannot read, one with a document that is not a KRM object, a
    // kustomization) is first run alone; the loop then catches any other, one at a time.
    let mut maybe: BTreeSet<String> = not_objects(&sdir);
    maybe.extend(tailor_refused.iter().cloned());
    maybe.extend(
        manifest_files(&sdir)
            .into_iter()
            .filter(|r| tailor_kio::files::is_kustomization_file(Path::new(r))),
    );
    let alone = base.join("alone");
    let mut refusals = Vec::new();
    for rel in &maybe {
        let out = base.join("alone-out");
        let run = alone_in_dir(&sdir, rel, &alone, |d| {
            let _ = std::fs::remove_dir_all(&out);
            tailor(
                &[path_str(&noop), ".", "--output-dir", path_str(&out)],
                Some(d),
                b"",
            )
        });
        if run.code != 0 {
            refusals.push((rel.clone(), run.stderr));
        }
    }
    let mut loops = 0;
    loop {
        for (rel, stderr) in refusals.drain(..) {
            if stderr.contains("a kustomization is not a manifest") {
                // Deliberate: standalone mode reads manifests; a kustomization is built first.
                report.add(
                    "standalone/refused-kustomization",
                    &label(&rel),
                    one_line(stderr.trim(), 300),
                );
            } else if stderr.contains("resource must have") {
                // Issue 17: a document that declares a type (apiVersion and kind) but is not a
                // valid object (no metadata.name: a kubeconfig, a kind cluster config).
                report.ran("standalone/refused-invalid-object", 1);
            } else if !kpt_refused.contains_key(&rel) {
                report.add(
                    "standalone/refused",
                    &label(&rel),
                    format!(
                        "tailor refuses the directory for this file: {}",
                        stderr.trim()
                    ),
                );
            }
            std::fs::remove_file(sdir.join(&rel)).expect("rm");
        }
        let _ = std::fs::remove_dir_all(&out_dir);
        let run = tailor(
            &[path_str(&noop), ".", "--output-dir", path_str(&out_dir)],
            Some(&sdir),
            b"",
        );
        if run.code == 0 {
            break;
        }
        loops += 1;
        let Some(rel) = refused_file(&run.stderr, &sdir) else {
            report.add(
                "standalone-dir/noop",
                &label("."),
                format!("the run failed: {}", run.stderr),
            );
            break;
        };
        refusals.push((rel, run.stderr));
    }
    laps.lap_n("standalone-dir", loops);
    let want = tree(&sdir);
    if out_dir.is_dir() {
        compare_trees(
            report,
            "standalone-dir/noop",
            &prefixed(project, &want),
            &prefixed(project, &tree(&out_dir)),
        );
    }
    // A stream and a ResourceList hold objects only: files that hold none (a values file, a
    // JSON patch) are refused there, deliberately (issue 17), and left out of these checks.
    let odir = base.join("objects-only");
    let others = not_objects(&sdir);
    report.ran("standalone/not-objects-refused", others.len());
    copy_without(&sdir, &odir, &others);
    check_stream(report, project, &odir, &noop);
    // -o resource-list | kpt fn sink against kpt fn source | kpt fn sink.
    let rl = tailor(
        &[path_str(&noop), ".", "-o", "resource-list"],
        Some(&odir),
        b"",
    );
    // With the config as functionConfig, kpt's list has the shape of tailor's (the
    // functionConfig after the items: a comment after the last item then goes in both sinks).
    let kpt_list = kpt_source(kpt, &odir, Some(&noop));
    if rl.code == 0 && kpt_list.code == 0 {
        let (a, b) = (base.join("rl-tailor"), base.join("rl-kpt"));
        let sa = kpt_sink(kpt, &rl.stdout, &a);
        let sb = kpt_sink(kpt, &kpt_list.stdout, &b);
        if sa.code != 0 || sb.code != 0 {
            report.add(
                "standalone-rl/noop",
                &label("."),
                format!("sink failed: {} {}", sa.stderr, sb.stderr),
            );
        } else {
            // kpt fn source drops a comment block go-yaml gives the document rather than the
            // object (a licence header, a block a blank line parts from the object), which
            // tailor keeps: a file that differs from kpt's only by such blocks, or that comes
            // back exactly as it was, is right.
            let ours = tree(&a);
            let original = tree(&odir);
            let want: BTreeMap<String, Vec<u8>> = tree(&b)
                .into_iter()
                .map(
                    |(rel, kpt_text)| match (ours.get(&rel), original.get(&rel)) {
                        (Some(o), Some(orig)) if o == orig => (rel, o.clone()),
                        (Some(o), _) if kpt_text_and_kept_comments(o, &kpt_text) => {
                            (rel, o.clone())
                        }
                        _ => (rel, kpt_text),
                    },
                )
                .collect();
            compare_trees(
                report,
                "standalone-rl/noop",
                &prefixed(project, &want),
                &prefixed(project, &ours),
            );
        }
    }

    // 3. Standalone mode with strip: what strip leaves alone keeps its bytes.
    let strip_dir = base.join("standalone-strip");
    common::copy_dir(&sdir, &strip_dir);
    let strip_out = base.join("out-strip");
    loop {
        let _ = std::fs::remove_dir_all(&strip_out);
        let run = tailor(
            &[path_str(&strip), ".", "--output-dir", path_str(&strip_out)],
            Some(&strip_dir),
            b"",
        );
        if run.code == 0 {
            break;
        }
        let crds = incomplete_crds(&strip_dir);
        if crds.is_empty() {
            report.add(
                "strip-dir/run",
                &label("."),
                format!("the run failed: {}", run.stderr),
            );
            break;
        }
        for rel in crds {
            report.add(
                "strip/crd-without-group-or-names",
                &label(&rel),
                run.stderr.lines().next().unwrap_or_default(),
            );
            std::fs::remove_file(strip_dir.join(&rel)).expect("rm");
        }
    }
    if strip_out.is_dir() {
        check_strip(
            report,
            "strip-dir",
            project,
            &tree(&strip_dir),
            &tree(&strip_out),
        );
    }

    laps.lap("standalone-stream-rl-strip");

    // 4. Through kpt: source | tailor | sink, eval --exec, a JSON ResourceList.
    let kdir2 = base.join("kpt-ok");
    common::copy_dir(&kdir, &kdir2);
    let mut piped = None;
    let source = kpt_source(kpt, &kdir2, Some(&noop));
    assert_eq!(source.code, 0, "kpt fn source: {}", source.stderr);
    let mut list = source.text();
    // tailor refuses the whole list for one item: the items of each file it may refuse go
    // through it alone first, then the loop catches any other, one at a time. A refused file's
    // items leave the list (what kpt fn source answers without the file) and the file leaves
    // the directory the later checks read.
    let mut maybe = not_objects(&kdir2);
    maybe.extend(tailor_refused.iter().cloned());
    let listed: BTreeSet<String> = split_list(&list)
        .items
        .iter()
        .filter_map(|i| item_path(i).map(str::to_string))
        .collect();
    let mut refusals: Vec<(String, String, Out)> = Vec::new();
    for rel in &maybe {
        if !listed.contains(rel) {
            continue;
        }
        let one = list_of_file(&list, rel);
        let run = tailor(&[], None, one.as_bytes());
        if run.code != 0 {
            refusals.push((rel.clone(), one, run));
        }
    }
    let mut loops = 0;
    loop {
        let mut gone = BTreeSet::new();
        for (rel, text, run) in refusals.drain(..) {
            if not_an_object_path(&text, &run.stderr).is_some() {
                // Issue 17: an item that is not a KRM object is refused, deliberately.
                report.ran("kpt-pipe/not-objects-refused", 1);
            } else if error_item_path(&text, &run.text()).is_some() {
                report.add(
                    "kpt-pipe/refused",
                    &label(&rel),
                    format!(
                        "kpt reads it, tailor refuses the whole list: {}",
                        one_line(&run.stderr, 300)
                    ),
                );
            } else {
                report.add(
                    "kpt-pipe/noop",
                    &label(&rel),
                    format!("tailor failed: {}", one_line(&run.stderr, 300)),
                );
            }
            std::fs::remove_file(kdir2.join(&rel)).expect("rm");
            gone.insert(rel);
        }
        if !gone.is_empty() {
            list = list_without(&list, &gone);
        }
        let run = tailor(&[], None, list.as_bytes());
        if run.code == 0 {
            piped = Some((list.clone().into_bytes(), run.stdout));
            break;
        }
        loops += 1;
        let found =
            not_an_object_path(&list, &run.stderr).or_else(|| error_item_path(&list, &run.text()));
        let Some(rel) = found.filter(|r| kdir2.join(r).is_file()) else {
            report.add(
                "kpt-pipe/noop",
                &label("."),
                format!("tailor failed: {}", one_line(&run.stderr, 300)),
            );
            break;
        };
        refusals.push((rel, list.clone(), run));
    }
    laps.lap_n("kpt-pipe", loops);
    if let Some((input, output)) = piped {
        let (a, b) = (base.join("pipe-cat"), base.join("pipe-tailor"));
        let sa = kpt_sink(kpt, &input, &a);
        let sb = kpt_sink(kpt, &output, &b);
        assert_eq!(sa.code, 0, "sink: {}", sa.stderr);
        if sb.code != 0 {
            report.add(
                "kpt-pipe/noop",
                &label("."),
                format!("sink failed: {}", sb.stderr),
            );
        } else {
            compare_trees(
                report,
                "kpt-pipe/noop",
                &prefixed(project, &tree(&a)),
                &prefixed(project, &tree(&b)),
            );
        }
        check_json_list(report, project, &String::from_utf8_lossy(&input));
        // Strip through the pipe.
        let list = kpt_source(kpt, &kdir2, Some(&strip));
        let mut strip_kdir = None;
        let mut run = tailor(&[], None, &list.stdout);
        if run.code != 0 {
            let crds = incomplete_crds(&kdir2);
            let d = base.join("kpt-strip");
            copy_without(&kdir2, &d, &crds.iter().cloned().collect());
            for rel in &crds {
                report.add(
                    "strip/crd-without-group-or-names",
                    &label(rel),
                    "(through kpt)",
                );
            }
            let list = kpt_source(kpt, &d, Some(&strip));
            run = tailor(&[], None, &list.stdout);
            strip_kdir = Some(d);
        }
        if run.code == 0 {
            let c = base.join("pipe-strip");
            let cat = match &strip_kdir {
                Some(d) => {
                    let cat_dir = base.join("pipe-strip-cat");
                    kpt_sink(kpt, &kpt_source(kpt, d, None).stdout, &cat_dir);
                    tree(&cat_dir)
                }
                None => tree(&a),
            };
            if kpt_sink(kpt, &run.stdout, &c).code == 0 {
                check_strip(report, "kpt-pipe-strip", project, &cat, &tree(&c));
            }
        } else {
            report.add(
                "kpt-pipe-strip/run",
                &label("."),
                one_line(&run.stderr, 300),
            );
        }
    }
    // kpt fn eval --exec tailor against --exec cat, on the files kpt fn eval takes (every
    // document an object with apiVersion, kind and metadata.name).
    laps.lap("kpt-pipe-json-strip");
    let edir = base.join("eval-input");
    copy_without(&kdir2, &edir, &not_objects(&kdir2));
    let (e1, e2) = (base.join("eval-cat"), base.join("eval-tailor"));
    let eval = |dir: &Path, exec: &str| {
        run(
            kpt,
            &[
                "fn",
                "eval",
                path_str(dir),
                "--exec",
                exec,
                "--fn-config",
                path_str(&noop),
            ],
            None,
            b"",
        )
    };
    let mut loops = 0;
    loop {
        let _ = std::fs::remove_dir_all(&e1);
        common::copy_dir(&edir, &e1);
        let cat = eval(&e1, "cat");
        if cat.code == 0 {
            break;
        }
        let Some(rel) = cat
            .stderr
            .split("only KRM resources: ")
            .nth(1)
            .and_then(|r| r.split(": ").next())
            .filter(|r| edir.join(r).is_file())
            .map(str::to_string)
        else {
            report.add(
                "kpt-eval/noop",
                &label("."),
                format!(
                    "kpt fn eval --exec cat failed: {}",
                    one_line(&cat.stderr, 300)
                ),
            );
            break;
        };
        std::fs::remove_file(edir.join(rel)).expect("rm");
        loops += 1;
    }
    common::copy_dir(&edir, &e2);
    let ours = eval(&e2, common::tailor_bin());
    if ours.code != 0 {
        report.add(
            "kpt-eval/noop",
            &label("."),
            format!(
                "kpt fn eval --exec tailor failed: {}",
                one_line(&ours.stderr, 300)
            ),
        );
    } else {
        compare_trees(
            report,
            "kpt-eval/noop",
            &prefixed(project, &tree(&e1)),
            &prefixed(project, &tree(&e2)),
        );
    }
    laps.lap_n("kpt-eval", loops);
    laps.print();
    let _ = std::fs::remove_dir_all(&base);
}

/// How long each step of a project's checks took, and how many whole-project reruns its
/// refusal loop needed (each refused file should be found up front, without one).
struct Laps {
    project: String,
    last: Instant,
    laps: Vec<String>,
}

impl Laps {
    fn new(project: &str) -> Self {
        Laps {
            project: project.to_string(),
            last: Instant::now(),
            laps: Vec::new(),
        }
    }

    fn lap(&mut self, step: &str) {
        let now = Instant::now();
        self.laps
            .push(format!("{step} {:.1} s", (now - self.last).as_secs_f64()));
        self.last = now;
    }

    fn lap_n(&mut self, step: &str, reruns: usize) {
        self.lap(step);
        if reruns > 0 {
            if let Some(l) = self.laps.last_mut() {
                l.push_str(&format!(" ({reruns} reruns)"));
            }
        }
    }

    fn print(&self) {
        eprintln!("corpus: {}: {}", self.project, self.laps.join(", "));
    }
}

fn prefixed(project: &str, tree: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    tree.iter()
        .map(|(k, v)| (format!("{project}/{k}"), v.clone()))
        .collect()
}

/// True when `ours` is `kpt`'s text with, above some of its documents, a block of comment
/// and blank lines kpt has not.
fn kpt_text_and_kept_comments(ours: &[u8], kpt: &[u8]) -> bool {
    let (Ok(ours), Ok(kpt)) = (std::str::from_utf8(ours), std::str::from_utf8(kpt)) else {
        return false;
    };
    let docs = |t: &str| -> Vec<String> {
        let mut out = vec![String::new()];
        for line in t.split_inclusive('\n') {
            if line == "---\n" {
                out.push(String::new());
            } else if let Some(d) = out.last_mut() {
                d.push_str(line);
            }
        }
        out
    };
    let (a, b) = (docs(ours), docs(kpt));
    ours != kpt
        && a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(o, k)| o == k || kpt_text_and_opening_comments(o.as_bytes(), k.as_bytes()))
}

/// True when `ours` is `kpt`'s text after a block of comment and blank lines.
fn kpt_text_and_opening_comments(ours: &[u8], kpt: &[u8]) -> bool {
    ours.len() > kpt.len()
        && ours.ends_with(kpt)
        && std::str::from_utf8(&ours[..ours.len() - kpt.len()]).is_ok_and(|head| {
            head.lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        })
}

/// The file a standalone run names in its error (`[error] rel: ...`, `[error] rel:LINE
/// field: ...`), when it is one of `dir`.
fn refused_file(stderr: &str, dir: &Path) -> Option<String> {
    let line = stderr.lines().find(|l| l.starts_with("[error] "))?;
    let rest = &line[8..];
    let named = rest.split([' ', ':']).next()?;
    let rel = rest.split(": ").next()?;
    [rel, named]
        .into_iter()
        .find(|r| dir.join(r).is_file())
        .map(|r| r.strip_prefix("./").unwrap_or(r).to_string())
}

/// The path kpt recorded on the item tailor refuses as not a KRM object (`items[N]`).
fn not_an_object_path(list: &str, stderr: &str) -> Option<String> {
    if !stderr.contains("must be a KRM object") && !stderr.contains("resource must have") {
        return None;
    }
    let at = stderr.find("items[")? + 6;
    let n: usize = stderr[at..].split(']').next()?.parse().ok()?;
    let item = split_list(list).items.get(n).copied()?;
    item_path(item).map(str::to_string)
}

/// The path kpt recorded on the item holding the line a YAML error names.
fn error_item_path(list: &str, output: &str) -> Option<String> {
    let line = error_line(output)?;
    let parts = split_list(list);
    let mut at = parts.head.lines().count() + 1;
    for item in parts.items {
        let n = item.lines().count();
        if line < at + n {
            return item_path(item).map(str::to_string);
        }
        at += n;
    }
    None
}

/// Files holding a CustomResourceDefinition without `spec.group`, `spec.names.kind` or
/// `spec.names.plural` (strip refuses the whole run for them).
fn incomplete_crds(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, bytes) in tree(dir) {
        if !is_yaml(&rel) {
            continue;
        }
        let Reading::Docs(docs) = tailor_reading(&String::from_utf8_lossy(&bytes)) else {
            continue;
        };
        let bad = docs.iter().any(|d| {
            d.get("kind").and_then(Json::as_str) == Some("CustomResourceDefinition")
                && ["/spec/group", "/spec/names/kind", "/spec/names/plural"]
                    .iter()
                    .any(|p| d.pointer(p).and_then(Json::as_str).is_none())
        });
        if bad {
            out.push(rel);
        }
    }
    out
}

/// `-o stream`: the documents of every file, in the order tailor reads them, each with its own
/// text, and the same values.
fn check_stream(report: &mut Report, project: &str, dir: &Path, config: &Path) {
    let run = tailor(&[path_str(config), "."], Some(dir), b"");
    if run.code != 0 {
        report.add(
            "standalone-stream/noop",
            project,
            format!("the run failed: {}", run.stderr),
        );
        return;
    }
    let mut want: Vec<(String, String)> = Vec::new();
    for (path, rel) in tailor_kio::files::package_files(dir).expect("walk") {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (i, doc) in document_texts(&text)
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            want.push((format!("{project}/{rel}#{i}"), doc));
        }
    }
    let text = run.text();
    let got = match document_texts(&text) {
        Ok(d) => d,
        Err(e) => {
            report.add(
                "standalone-stream/noop",
                project,
                format!("the output is not YAML: {e}"),
            );
            return;
        }
    };
    report.ran("standalone-stream/noop", want.len());
    report.ran("standalone-stream/values", want.len());
    let mut j = 0;
    for (label, doc) in &want {
        // Resynchronise after a difference in the number of documents (a flattened List).
        let found = (j..(j + 64).min(got.len())).find(|&k| same_document_text(doc, &got[k]));
        match found {
            Some(k) => {
                if k > j {
                    report.add(
                        "standalone-stream/noop",
                        label,
                        format!("{} unexpected documents before it", k - j),
                    );
                }
                if tailor_reading(doc) != tailor_reading(&got[k]) {
                    report.add(
                        "standalone-stream/values",
                        label,
                        "the final line break added changes the value",
                    );
                }
                j = k + 1;
            }
            None => {
                let other = got.get(j).cloned().unwrap_or_default();
                let head = |t: &str| t.chars().take(60).collect::<String>();
                if head(doc) != head(&other) {
                    // Not written where it belongs (a flattened List, an object left out).
                    report.add("standalone-stream/noop", label, "missing from the stream");
                    continue;
                }
                report.add(
                    "standalone-stream/noop",
                    label,
                    first_difference(doc.as_bytes(), other.as_bytes()),
                );
                let a = tailor_reading(doc);
                let b = tailor_reading(&other);
                if a != b {
                    report.add(
                        "standalone-stream/values",
                        label,
                        format!("{a:?} became {b:?}")
                            .chars()
                            .take(600)
                            .collect::<String>(),
                    );
                }
                j += 1;
            }
        }
    }
}

/// Strip: a file whose documents keep their values keeps its bytes; a document that keeps its
/// value keeps its text.
fn check_strip(
    report: &mut Report,
    check: &str,
    project: &str,
    want: &BTreeMap<String, Vec<u8>>,
    got: &BTreeMap<String, Vec<u8>>,
) {
    let untouched = format!("{check}/untouched");
    for (rel, w) in want.iter().filter(|(r, _)| is_yaml(r)) {
        let Some(g) = got.get(rel) else { continue };
        report.ran(&untouched, 1);
        if g == w {
            continue;
        }
        let (wt, gt) = (String::from_utf8_lossy(w), String::from_utf8_lossy(g));
        let (Ok(wd), Ok(gd)) = (document_texts(&wt), document_texts(&gt)) else {
            continue;
        };
        if wd.len() != gd.len() {
            continue;
        }
        for (i, (a, b)) in wd.iter().zip(&gd).enumerate() {
            if a == b {
                continue;
            }
            if tailor_reading(a) == tailor_reading(b) {
                report.add(
                    &untouched,
                    &format!("{project}/{rel}#{i}"),
                    first_difference(a.as_bytes(), b.as_bytes()),
                );
            } else {
                // Changed: the comment lines above the object stay.
                let head: Vec<&str> = a.lines().take_while(|l| l.starts_with('#')).collect();
                if !head.is_empty() && !b.starts_with(&format!("{}\n", head.join("\n"))) {
                    report.add(
                        &format!("{check}/head-comment"),
                        &format!("{project}/{rel}#{i}"),
                        format!("the comment above the object is lost: {:?}", head[0]),
                    );
                }
            }
        }
        if wd == gd {
            // Same documents, different file: markers or final line break.
            report.add(
                &untouched,
                &format!("{project}/{rel}"),
                first_difference(w, g),
            );
        }
    }
}

/// The ResourceList kpt sent, as one line of JSON: the same values come back, as JSON.
fn check_json_list(report: &mut Report, project: &str, list: &str) {
    let Ok(json) = as_json_list(list) else {
        report.add(
            "json-list/values",
            project,
            "the list does not convert to JSON",
        );
        return;
    };
    let run = tailor(&[], None, json.as_bytes());
    if run.code != 0 {
        report.add(
            "json-list/values",
            project,
            format!("tailor refuses it: {}", one_line(&run.stderr, 300)),
        );
        return;
    }
    let (Ok(want), Ok(got)) = (list_items(list), list_items(&run.text())) else {
        report.add(
            "json-list/values",
            project,
            "the output is not a ResourceList",
        );
        return;
    };
    report.ran("json-list/values", want.len());
    report.ran("json-list/style", want.len());
    if want.len() != got.len() {
        report.add(
            "json-list/values",
            project,
            format!("{} items in, {} out", want.len(), got.len()),
        );
    }
    let got: BTreeMap<(String, usize), &Json> = got
        .iter()
        .filter_map(|g| kpt_key(g).map(|k| (k, g)))
        .collect();
    for w in &want {
        let Some(key) = kpt_key(w) else { continue };
        let label = format!("{project}/{}#{}", key.0, key.1);
        match got.get(&key) {
            None => report.add("json-list/values", &label, "missing from the output"),
            Some(g) if *g != w => {
                let e = same_as_goyaml(w, g)
                    .err()
                    .unwrap_or_else(|| "key order".into());
                report.add("json-list/values", &label, e);
            }
            Some(_) => {}
        }
    }
    // JSON in stays JSON out: the whole answer is JSON, as the list was.
    if let Err(e) = serde_json::from_slice::<Json>(&run.stdout) {
        report.add(
            "json-list/style",
            project,
            format!("the answer to a JSON ResourceList is not JSON: {e}"),
        );
    }
}

/// One-line JSON ResourceLists of N and 4N objects: the time must grow about linearly.
fn long_lines(report: &mut Report) {
    let time = |n: usize| -> Duration {
        let items: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"c{i}","namespace":"ns"}},"data":{{"k":"v{i}"}}}}"#))
            .collect();
        let list = format!(
            r#"{{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":[{}]}}"#,
            items.join(",")
        );
        (0..2)
            .map(|_| {
                let t = Instant::now();
                let out = tailor(&[], None, list.as_bytes());
                assert_eq!(out.code, 0, "{}", out.stderr);
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let (small, large) = (time(4_000), time(16_000));
    report.ran("long-lines/json-list", 1);
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(0.001);
    eprintln!("long lines: 4,000 objects {small:?}, 16,000 objects {large:?} (x{ratio:.1})");
    if large > Duration::from_millis(400) && ratio > 8.0 {
        report.add(
            "long-lines/json-list",
            "one-line JSON ResourceList",
            format!(
                "4,000 objects {small:?}, 16,000 objects {large:?}: x{ratio:.1} for 4x the input"
            ),
        );
    }
}
