//! The real-world YAML checks of issue 19, shared by the long corpus test
//! (`tests/corpus_realworld.rs`, a corpus assembled by `scripts/corpus.sh`) and the fast CI
//! slice (`tests/yaml_realworld.rs`, hand-written reproducers under
//! `tests/fixtures/yaml-realworld/`).
//!
//! What the checks hold tailor to:
//! - **reading**: a file is accepted exactly when go-yaml v3 (through `kpt fn source`) accepts
//!   it, a refusal names go-yaml's line, and every document's value is go-yaml's value;
//! - **bytes**: with a configuration that changes nothing, every file and item comes back byte
//!   for byte, in standalone `--output-dir` and `-o stream` mode, and through kpt (`kpt fn
//!   source | tailor | kpt fn sink` and `kpt fn eval --exec tailor` against the same runs with
//!   `cat`); `tailor -o resource-list | kpt fn sink` writes what `kpt fn source | kpt fn sink`
//!   writes; a JSON ResourceList keeps its values (and JSON stays JSON);
//! - **strip**: an object whose value the built-in strip leaves alone keeps its bytes.
//!
//! go-yaml's values come from kpt itself: `kpt fn source` reads every file with go-yaml v3,
//! then `kpt fn sink` writes each item whose path ends in `.json` through go-yaml's decoder and
//! `encoding/json` (see [`goyaml_values`]). That route passes once through go-yaml's emitter
//! (kpt fn source's output), so an emitter quirk of go-yaml shows up as go-yaml's answer: it
//! is what a kpt user gets.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value as Json;

/// The functionConfig that changes nothing.
pub fn noop_config() -> PathBuf {
    super::repo_root().join("tests/fixtures/tailor-empty.yaml")
}

/// The functionConfig that runs the built-in strip and nothing else.
pub fn strip_config() -> PathBuf {
    super::repo_root().join("tests/fixtures/yaml-realworld/strip.yaml")
}

// ---------------------------------------------------------------------------------------------
// Differences, and the ratchet over them.

/// One difference from the expected answer.
#[derive(Clone, Debug)]
pub struct Diff {
    pub check: String,
    pub file: String,
    pub detail: String,
}

/// Every difference a run found, by check.
#[derive(Default)]
pub struct Report {
    pub diffs: Vec<Diff>,
    /// Checks that ran (even without a difference), with how many files or items they saw.
    pub ran: BTreeMap<String, usize>,
}

impl Report {
    pub fn ran(&mut self, check: &str, n: usize) {
        *self.ran.entry(check.to_string()).or_default() += n;
    }

    pub fn add(&mut self, check: &str, file: &str, detail: impl Into<String>) {
        self.diffs.push(Diff {
            check: check.to_string(),
            file: file.to_string(),
            detail: detail.into(),
        });
    }

    pub fn by_check(&self) -> BTreeMap<&str, Vec<&Diff>> {
        let mut m: BTreeMap<&str, Vec<&Diff>> = BTreeMap::new();
        for d in &self.diffs {
            m.entry(d.check.as_str()).or_default().push(d);
        }
        m
    }

    /// A readable listing: per check, the count and up to `per_check` examples.
    pub fn summary(&self, per_check: usize) -> String {
        let mut s = String::new();
        for (check, n) in &self.ran {
            let diffs = self.diffs.iter().filter(|d| &d.check == check).count();
            s.push_str(&format!("{check}: {n} checked, {diffs} differ\n"));
        }
        for (check, diffs) in self.by_check() {
            s.push_str(&format!("\n== {check} ({} differences)\n", diffs.len()));
            for d in diffs.iter().take(per_check) {
                s.push_str(&format!("  {}: {}\n", d.file, one_line(&d.detail, 400)));
            }
        }
        s
    }

    /// Fails unless the checks that found differences are exactly `known` (check → reason):
    /// a new difference fails, and so does a known check that no longer differs.
    pub fn finish(&self, label: &str, known: &BTreeMap<String, String>) {
        eprintln!("{label}:\n{}", self.summary(12));
        let differing: BTreeSet<&str> = self.diffs.iter().map(|d| d.check.as_str()).collect();
        let mut problems = Vec::new();
        for check in &differing {
            if !known.contains_key(*check) {
                let examples: Vec<String> = self
                    .diffs
                    .iter()
                    .filter(|d| d.check == *check)
                    .take(5)
                    .map(|d| format!("  {}: {}", d.file, one_line(&d.detail, 600)))
                    .collect();
                problems.push(format!(
                    "NEW difference in {check}:\n{}",
                    examples.join("\n")
                ));
            }
        }
        for check in known.keys() {
            if !differing.contains(check.as_str()) {
                problems.push(format!(
                    "{check} is listed under known but no longer differs: remove its entry"
                ));
            }
        }
        assert!(problems.is_empty(), "{label}:\n{}", problems.join("\n\n"));
    }
}

pub fn one_line(s: &str, max: usize) -> String {
    let s = s.replace('\n', "\\n");
    if s.chars().count() > max {
        format!("{}...", s.chars().take(max).collect::<String>())
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------------
// tailor's reading (tailor-yaml, in this process).

/// A file as a reader answers it: the values of its non-empty documents, or a refusal.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading {
    Docs(Vec<Json>),
    Refused {
        message: String,
        line: Option<usize>,
    },
}

/// tailor-yaml's reading of a file (go-yaml v3's typing of scalars).
pub fn tailor_reading(text: &str) -> Reading {
    match tailor_yaml::parse_stream(text) {
        Err(e) => {
            let message = e.to_string();
            Reading::Refused {
                line: error_line(&message),
                message,
            }
        }
        Ok(docs) => {
            let mut out = Vec::new();
            for d in docs.iter().filter(|d| !d.empty) {
                match tailor_yaml::to_json(&d.root) {
                    Ok(j) => out.push(j),
                    Err(e) => {
                        return Reading::Refused {
                            message: e.to_string(),
                            line: None,
                        }
                    }
                }
            }
            Reading::Docs(out)
        }
    }
}

/// `N` of the first `line N` in an error message.
pub fn error_line(message: &str) -> Option<usize> {
    let at = message.find("line ")? + 5;
    let digits: String = message[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

// ---------------------------------------------------------------------------------------------
// Comparing values with go-yaml's.

/// Compares tailor's value of a document with go-yaml's (as kpt's `encoding/json` wrote it).
/// Representations that differ only by the conversion are equal: go-yaml turns timestamps
/// into RFC 3339 times, `!!binary` into its bytes and integers beyond 64 bits into floats,
/// where tailor keeps the text.
pub fn same_as_goyaml(go: &Json, ours: &Json) -> Result<(), String> {
    goyaml_mismatch(go, ours).map_or(Ok(()), |(_, why)| Err(why))
}

/// Where tailor's value first differs from go-yaml's: the path (keys and indices) and why.
pub fn goyaml_mismatch(go: &Json, ours: &Json) -> Option<(Vec<String>, String)> {
    let mut path = Vec::new();
    compare(go, ours, &mut path).err().map(|why| (path, why))
}

fn compare(go: &Json, ours: &Json, path: &mut Vec<String>) -> Result<(), String> {
    let differ = |path: &[String]| {
        Err(format!(
            "at /{}: go-yaml {}, tailor {}",
            path.join("/"),
            one_line(&go.to_string(), 200),
            one_line(&ours.to_string(), 200)
        ))
    };
    match (go, ours) {
        (Json::Object(g), Json::Object(o)) => {
            for (k, gv) in g {
                path.push(k.clone());
                match o.get(k) {
                    Some(ov) => compare(gv, ov, path)?,
                    None => {
                        return Err(format!(
                            "at /{}: go-yaml has the key, tailor has not",
                            path.join("/")
                        ))
                    }
                }
                path.pop();
            }
            if let Some(k) = o.keys().find(|k| !g.contains_key(*k)) {
                path.push(k.clone());
                return Err(format!(
                    "at /{}: tailor has the key, go-yaml has not",
                    path.join("/")
                ));
            }
            Ok(())
        }
        (Json::Array(g), Json::Array(o)) => {
            if g.len() != o.len() {
                return differ(path);
            }
            for (i, (gv, ov)) in g.iter().zip(o).enumerate() {
                path.push(i.to_string());
                compare(gv, ov, path)?;
                path.pop();
            }
            Ok(())
        }
        (Json::Number(g), Json::Number(o)) => {
            if g == o || g.as_f64() == o.as_f64() {
                Ok(())
            } else {
                differ(path)
            }
        }
        // An integer beyond 64 bits: go-yaml reads a float, tailor keeps the digits.
        (Json::Number(g), Json::String(o)) => {
            let digits: String = o.chars().filter(|&c| c != '_').collect();
            let body = digits.trim_start_matches(['-', '+']);
            if body.len() > 18 && body.chars().all(|c| c.is_ascii_digit()) {
                if let (Some(g), Ok(o)) = (g.as_f64(), digits.parse::<f64>()) {
                    if g == o {
                        return Ok(());
                    }
                }
            }
            differ(path)
        }
        (Json::String(g), Json::String(o)) => {
            if g == o || same_timestamp(g, o) || base64_decodes_to(o, g) {
                Ok(())
            } else {
                differ(path)
            }
        }
        _ if go == ours => Ok(()),
        _ => differ(path),
    }
}

/// Whether go-yaml's answer at `path` is what go-yaml's emitter makes of tailor's reading
/// rather than what go-yaml's parser read: kpt converts an object to JSON by writing it as
/// YAML and reading that again (`RNode.MarshalJSON`), and go-yaml's emitter adds a line break
/// before the more-indented lines of a folded scalar, and writes an empty plain scalar in a
/// flow collection as `''`.
pub fn emitter_artifact(root: &tailor_yaml::Node, path: &[String], go: &Json) -> bool {
    use tailor_yaml::{Style, Value};
    let mut node = root;
    let mut parent_flow = false;
    for seg in path {
        parent_flow = node.style == Style::Flow;
        node = match &node.value {
            Value::Mapping(_) => match node.get(seg) {
                Some(n) => n,
                None => return false,
            },
            Value::Sequence(items) => match seg.parse::<usize>().ok().and_then(|i| items.get(i)) {
                Some(n) => n,
                None => return false,
            },
            _ => return false,
        };
    }
    let Value::Scalar(text) = &node.value else {
        return false;
    };
    match (node.style, go) {
        (Style::Folded, Json::String(g)) => folded_by_goyaml(text) == *g,
        (Style::Plain, Json::String(g)) => g.is_empty() && text.is_empty() && parent_flow,
        _ => false,
    }
}

/// A folded scalar's value after go-yaml's emitter and parser: one more line break before
/// each run of more-indented lines that follows a line that is not (blank lines between
/// them do not count).
fn folded_by_goyaml(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    let mut prev_indented = true;
    let mut first = true;
    for line in value.split_inclusive('\n') {
        let indented = line.starts_with([' ', '\t']);
        if indented && !prev_indented && !first {
            out.push('\n');
        }
        if line != "\n" {
            prev_indented = indented;
        }
        first = false;
        out.push_str(line);
    }
    out
}

/// Compares tailor's reading of document `index` of `text` with go-yaml's: `Ok(true)` when
/// they are the same, `Ok(false)` when they differ only by an [`emitter_artifact`].
pub fn check_document_value(
    text: &str,
    index: usize,
    go: &Json,
    ours: &Json,
) -> Result<bool, String> {
    let Some((path, why)) = goyaml_mismatch(go, ours) else {
        return Ok(true);
    };
    let root = tailor_yaml::parse_stream(text)
        .ok()
        .and_then(|docs| docs.into_iter().filter(|d| !d.empty).nth(index))
        .map(|d| d.root);
    let mut theirs = go;
    for seg in &path {
        theirs = match theirs {
            Json::Object(m) => m.get(seg).unwrap_or(&Json::Null),
            Json::Array(a) => seg
                .parse::<usize>()
                .ok()
                .and_then(|i| a.get(i))
                .unwrap_or(&Json::Null),
            _ => &Json::Null,
        };
    }
    match root {
        Some(root) if emitter_artifact(&root, &path, theirs) => {
            // Only that spot may differ: compare again with go-yaml's value there replaced.
            let mut fixed = ours.clone();
            let mut spot = &mut fixed;
            for seg in &path {
                spot = match spot {
                    Json::Object(m) => m.get_mut(seg).expect("path"),
                    Json::Array(a) => a
                        .get_mut(seg.parse::<usize>().expect("index"))
                        .expect("path"),
                    _ => return Err(why),
                };
            }
            *spot = theirs.clone();
            check_document_value(text, index, go, &fixed).map(|_| false)
        }
        _ => Err(why),
    }
}

/// `2001-12-14` (tailor keeps the text) against `2001-12-14T00:00:00Z` (Go's time.Time).
fn same_timestamp(go: &str, ours: &str) -> bool {
    let b = ours.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && go.len() >= 20
        && go.as_bytes().get(10) == Some(&b'T')
        && go[..10] == ours[..10]
}

fn base64_decodes_to(encoded: &str, decoded: &str) -> bool {
    let mut bits: u32 = 0;
    let mut n = 0;
    let mut out = Vec::new();
    for c in encoded.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return false,
        };
        bits = (bits << 6) | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    !out.is_empty() && out == decoded.as_bytes()
}

/// Drops what kpt adds to an item: its bookkeeping annotations (and the `metadata` it adds to
/// a document that had none), and the `bareSeqNodeWrappingKey` around a top-level sequence.
pub fn without_kpt_additions(mut v: Json, had_metadata: bool) -> Json {
    if let Json::Object(m) = &mut v {
        if m.len() == 2 && m.contains_key("bareSeqNodeWrappingKey") {
            if let Some(inner) = m.remove("bareSeqNodeWrappingKey") {
                return inner;
            }
        }
    }
    let mut v = super::upstream::without_bookkeeping(v);
    if !had_metadata {
        if let Some(m) = v.as_object_mut() {
            if m.get("metadata")
                .is_some_and(|md| md.as_object().is_some_and(|o| o.is_empty()))
            {
                m.remove("metadata");
            }
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Running tailor and kpt.

pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs a program in `cwd` with `stdin`.
pub fn run(program: &Path, args: &[&str], cwd: Option<&Path>, stdin: &[u8]) -> Out {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn tailor(args: &[&str], cwd: Option<&Path>, stdin: &[u8]) -> Out {
    run(Path::new(super::tailor_bin()), args, cwd, stdin)
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// `kpt fn source DIR [--fn-config CONFIG]`.
pub fn kpt_source(kpt: &Path, dir: &Path, fn_config: Option<&Path>) -> Out {
    let mut args = vec!["fn", "source", path_str(dir)];
    if let Some(c) = fn_config {
        args.extend(["--fn-config", path_str(c)]);
    }
    run(kpt, &args, None, b"")
}

/// `kpt fn sink OUT` of a ResourceList.
pub fn kpt_sink(kpt: &Path, list: &[u8], out: &Path) -> Out {
    run(kpt, &["fn", "sink", path_str(out)], None, list)
}

/// The file a kpt error names, relative to `dir` (`error: DIR/rel: ...`).
pub fn kpt_error_file(stderr: &str, dir: &Path) -> Option<String> {
    let prefix = format!("{}/", dir.display());
    let at = stderr.find(&prefix)? + prefix.len();
    let rest = &stderr[at..];
    let end = rest.find(": ")?;
    Some(rest[..end].to_string())
}

/// Removes from `dir` (a copy) every file `kpt fn source` refuses, and returns them with kpt's
/// message; the last run's output is kpt's reading of what is left.
///
/// kpt stops at the first file it refuses, so a run over the whole directory per refused file
/// costs a run per refusal: the files kpt may refuse (tailor-yaml cannot read them, or a
/// document is not a mapping) first go through kpt each alone, in a directory of their own
/// (kpt reads each file by itself); a run over what is left then catches any other, one at a
/// time.
pub fn kpt_refusals(kpt: &Path, dir: &Path) -> (Vec<(String, String)>, String) {
    let mut refused = Vec::new();
    let alone = super::temp_dir("kpt-alone");
    let here = format!("{}/", dir.display());
    for rel in maybe_refused_by_kpt(dir) {
        let out = alone_in_dir(dir, &rel, &alone, |d| kpt_source(kpt, d, None));
        if out.code != 0 {
            std::fs::remove_file(dir.join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
            let message = out
                .stderr
                .trim()
                .replace(&format!("{}/", alone.display()), &here);
            refused.push((rel, message));
        }
    }
    let _ = std::fs::remove_dir_all(&alone);
    loop {
        let out = kpt_source(kpt, dir, None);
        if out.code == 0 {
            return (refused, out.text());
        }
        let Some(rel) = kpt_error_file(&out.stderr, dir) else {
            panic!("kpt fn source {} failed: {}", dir.display(), out.stderr);
        };
        std::fs::remove_file(dir.join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        refused.push((rel, out.stderr.trim().to_string()));
    }
}

/// Runs `f` on a directory (`scratch`, emptied first) holding only `dir`'s file `rel`, at the
/// same relative path.
pub fn alone_in_dir(dir: &Path, rel: &str, scratch: &Path, f: impl FnOnce(&Path) -> Out) -> Out {
    let _ = std::fs::remove_dir_all(scratch);
    let dest = scratch.join(rel);
    std::fs::create_dir_all(dest.parent().unwrap_or(scratch)).expect("mkdir");
    std::fs::copy(dir.join(rel), &dest).expect("copy");
    f(scratch)
}

/// Files of `dir` kpt fn source may refuse: tailor-yaml cannot read them (keys defined twice
/// allowed, as kyaml allows them), or one of their documents is not a mapping.
fn maybe_refused_by_kpt(dir: &Path) -> Vec<String> {
    let opts = tailor_yaml::ParseOptions {
        unique_keys: false,
        ..Default::default()
    };
    manifest_files(dir)
        .into_iter()
        .filter(|rel| {
            let text = std::fs::read_to_string(dir.join(rel)).unwrap_or_default();
            match tailor_yaml::parse_stream_with(&text, &opts) {
                Ok(docs) => docs.iter().any(|d| !d.empty && !d.root.is_mapping()),
                Err(_) => true,
            }
        })
        .collect()
}

/// The `config.kubernetes.io/path` kpt recorded on an item of a ResourceList text.
pub fn item_path(item: &str) -> Option<&str> {
    const PATH: &str = "config.kubernetes.io/path: '";
    let v = item.find(PATH)? + PATH.len();
    let end = v + item[v..].find('\'')?;
    Some(&item[v..end])
}

/// A ResourceList text without the items of the files `drop` names: what `kpt fn source`
/// answers for the directory without those files (kpt reads each file by itself).
pub fn list_without(list: &str, drop: &BTreeSet<String>) -> String {
    let parts = split_list(list);
    let mut out = String::with_capacity(list.len());
    out.push_str(parts.head);
    for item in parts.items {
        if !item_path(item).is_some_and(|p| drop.contains(p)) {
            out.push_str(item);
        }
    }
    out.push_str(parts.tail);
    out
}

/// A ResourceList text with only the items of the file `rel`.
pub fn list_of_file(list: &str, rel: &str) -> String {
    let parts = split_list(list);
    let mut out = String::from(parts.head);
    for item in parts.items {
        if item_path(item) == Some(rel) {
            out.push_str(item);
        }
    }
    out.push_str(parts.tail);
    out
}

/// A ResourceList text cut into its head (up to `items:`), its items (each from its `- ` line
/// in column 0) and its tail (from the first other line in column 0 after the items).
pub struct ListText<'a> {
    pub head: &'a str,
    pub items: Vec<&'a str>,
    pub tail: &'a str,
}

pub fn split_list(text: &str) -> ListText<'_> {
    let Some(at) = text
        .find("\nitems:\n")
        .map(|i| i + 8)
        .or_else(|| text.starts_with("items:\n").then_some(7))
    else {
        return ListText {
            head: text,
            items: Vec::new(),
            tail: "",
        };
    };
    let head = &text[..at];
    let mut items = Vec::new();
    let mut start = at;
    let mut pos = at;
    let mut tail_at = text.len();
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let line = &text[pos..end];
        if pos > start && (line.starts_with("- ") || line == "-\n") {
            items.push(&text[start..pos]);
            start = pos;
        } else if !line.starts_with([' ', '-', '#', '\n']) && !line.is_empty() {
            tail_at = pos;
            break;
        }
        pos = end;
    }
    if tail_at > start {
        items.push(&text[start..tail_at]);
    }
    ListText {
        head,
        items,
        tail: &text[tail_at..],
    }
}

/// go-yaml v3's values of the documents of some files, keyed by `(file, index of the
/// non-empty document)`, read by kpt without going through go-yaml's emitter: each document's
/// own text, indented, becomes the `value` of an item whose path ends in `.json`, and `kpt fn
/// sink` writes such an item as JSON through go-yaml's decoder and `encoding/json`. An item
/// the conversion refuses (a key that is not a string, `.inf`, `.nan`) makes the whole sink
/// fail: the items are then halved until each failing one stands alone, and it is answered
/// `Err`. Files with lone CR line breaks are left out.
pub fn goyaml_values(
    kpt: &Path,
    files: &[(String, String)],
) -> BTreeMap<(String, usize), Result<Json, String>> {
    let mut keys = Vec::new();
    let mut items = Vec::new();
    for (rel, text) in files {
        if text.contains('\r') && !text.contains('\n') {
            continue;
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (index, body) in raw_documents(text).into_iter().enumerate() {
            let n = items.len();
            let mut item = format!(
                "- metadata:\n    annotations:\n      config.kubernetes.io/path: '{n}.json'\n      internal.config.kubernetes.io/path: '{n}.json'\n  value:"
            );
            let (first, rest) = body;
            if first.trim().is_empty() {
                item.push('\n');
            } else {
                item.push(' ');
                item.push_str(first.trim_end_matches(['\n', '\r']));
                item.push('\n');
            }
            for line in rest.split_inclusive('\n') {
                if line.trim_end_matches(['\n', '\r']).is_empty() {
                    item.push_str(line);
                } else {
                    item.push_str("    ");
                    item.push_str(line);
                }
            }
            keys.push((rel.clone(), index));
            items.push(item);
        }
    }
    let head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";
    let mut by_number = BTreeMap::new();
    // A document at the end of a file without a final line break stays so: its item goes
    // last, alone.
    type Numbered<'a> = Vec<(usize, &'a str)>;
    let (whole, open): (Numbered, Numbered) = items
        .iter()
        .map(String::as_str)
        .enumerate()
        .partition(|(_, t)| t.ends_with('\n'));
    sink_values(kpt, head, &whole, &mut by_number);
    for item in open {
        sink_values(kpt, head, &[item], &mut by_number);
    }
    by_number
        .into_iter()
        .filter_map(|(n, v)| keys.get(n).map(|k| (k.clone(), v)))
        .collect()
}

/// A YAML stream cut into its documents as go-yaml's scanner cuts it: at `---` and `...` lines
/// in column 0. Each non-empty document is `(rest of its --- line, the lines after it)`;
/// directives go, and documents holding only comments and blank lines are skipped, as kpt
/// skips them.
fn raw_documents(text: &str) -> Vec<(String, String)> {
    let mut docs = Vec::new();
    let mut first = String::new();
    let mut body = String::new();
    let mut flush = |first: &mut String, body: &mut String| {
        let content = first.trim_start().starts_with(|c: char| c != '#')
            || body.lines().any(|l| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with('#')
            });
        if content {
            docs.push((std::mem::take(first), std::mem::take(body)));
        } else {
            first.clear();
            body.clear();
        }
    };
    for line in text.split_inclusive('\n') {
        let marker = |m: &str| {
            line.strip_prefix(m)
                .filter(|r| r.is_empty() || r.starts_with([' ', '\t', '\n', '\r']))
        };
        if let Some(rest) = marker("---") {
            flush(&mut first, &mut body);
            first = rest.trim_start_matches([' ', '\t']).to_string();
        } else if marker("...").is_some() {
            flush(&mut first, &mut body);
        } else if line.starts_with('%') && body.trim().is_empty() && first.is_empty() {
            // A directive.
        } else {
            body.push_str(line);
        }
    }
    flush(&mut first, &mut body);
    docs
}

fn sink_values(
    kpt: &Path,
    head: &str,
    items: &[(usize, &str)],
    out: &mut BTreeMap<usize, Result<Json, String>>,
) {
    if items.is_empty() {
        return;
    }
    let dir = super::temp_dir("goyaml");
    let list: String = std::iter::once(head)
        .chain(items.iter().map(|(_, t)| *t))
        .collect();
    let sunk = kpt_sink(kpt, list.as_bytes(), &dir.join("out"));
    if sunk.code != 0 {
        let _ = std::fs::remove_dir_all(&dir);
        if items.len() == 1 {
            out.insert(items[0].0, Err(sunk.stderr.trim().to_string()));
            return;
        }
        let (a, b) = items.split_at(items.len() / 2);
        sink_values(kpt, head, a, out);
        sink_values(kpt, head, b, out);
        return;
    }
    for (rel, bytes) in tree(&dir.join("out")) {
        let Some(n) = rel.strip_suffix(".json").and_then(|n| n.parse().ok()) else {
            continue;
        };
        let value = serde_json::from_slice::<Json>(&bytes)
            .map_err(|e| format!("{rel}: {e}"))
            .map(|mut v| v.get_mut("value").map(Json::take).unwrap_or(Json::Null));
        out.insert(n, value);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// How many items `kpt fn source` read from each file.
pub fn kpt_documents(list: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for path in split_list(list).items.into_iter().filter_map(item_path) {
        *m.entry(path.to_string()).or_default() += 1;
    }
    m
}

/// kpt's path and index annotations of an object (JSON), as `(path, index)`.
pub fn kpt_key(object: &Json) -> Option<(String, usize)> {
    let a = object.pointer("/metadata/annotations")?;
    let path = a
        .get("internal.config.kubernetes.io/path")
        .or_else(|| a.get("config.kubernetes.io/path"))?
        .as_str()?;
    let index = a
        .get("internal.config.kubernetes.io/index")
        .or_else(|| a.get("config.kubernetes.io/index"))?
        .as_str()?
        .parse()
        .ok()?;
    Some((path.to_string(), index))
}

/// The items of a ResourceList text as tailor reads them (JSON).
pub fn list_items(text: &str) -> Result<Vec<Json>, String> {
    super::upstream::resource_list_items(text)
}

/// A ResourceList text as one line of JSON (tailor-yaml's reading of it).
pub fn as_json_list(text: &str) -> Result<String, String> {
    let v = super::upstream::yaml_to_json(text)?;
    serde_json::to_string(&v).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// Files and trees.

/// Every file under `dir` (nothing when it does not exist), relative path → bytes.
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    if dir.is_dir() {
        super::read_tree(dir)
    } else {
        BTreeMap::new()
    }
}

/// Every file under `dir` tailor or kpt would read (`.yaml`, `.yml`, `.json`), relative,
/// sorted, hidden paths included.
pub fn manifest_files(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_keys()
        .filter(|p| p.ends_with(".yaml") || p.ends_with(".yml") || p.ends_with(".json"))
        .collect()
}

/// Copies `from` to `to` without the files `skip` names.
pub fn copy_without(from: &Path, to: &Path, skip: &BTreeSet<String>) {
    for (rel, bytes) in super::read_tree(from) {
        if skip.contains(&rel) {
            continue;
        }
        let dest = to.join(&rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&dest, bytes).expect("write");
    }
}

/// Compares two trees file by file: `want` is the expected answer.
pub fn compare_trees(
    report: &mut Report,
    check: &str,
    want: &BTreeMap<String, Vec<u8>>,
    got: &BTreeMap<String, Vec<u8>>,
) {
    report.ran(check, want.len());
    for (rel, w) in want {
        match got.get(rel) {
            None => report.add(check, rel, "missing from the output"),
            Some(g) if g != w => report.add(check, rel, first_difference(w, g)),
            Some(_) => {}
        }
    }
    for rel in got.keys().filter(|k| !want.contains_key(*k)) {
        report.add(check, rel, "written, but not expected");
    }
}

/// Where two texts first differ, with a little context.
pub fn first_difference(want: &[u8], got: &[u8]) -> String {
    let at = want
        .iter()
        .zip(got)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len().min(got.len()));
    let from = at.saturating_sub(60);
    let show = |b: &[u8]| {
        let end = (at + 80).min(b.len());
        String::from_utf8_lossy(&b[from.min(b.len())..end]).into_owned()
    };
    let line = want[..at.min(want.len())]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1;
    format!(
        "line {line}: expected {:?}, got {:?} ({} vs {} bytes)",
        show(want),
        show(got),
        want.len(),
        got.len()
    )
}

/// The documents of a YAML stream as their texts: each non-empty document's own text, from
/// the line after its `---` (when it has one; comments before the marker belong to no
/// object), as it is (a document at the end of a file may lack a final line break).
pub fn document_texts(text: &str) -> Result<Vec<String>, String> {
    let docs = tailor_yaml::parse_stream(text).map_err(|e| e.to_string())?;
    Ok(docs
        .iter()
        .filter(|d| !d.empty)
        .map(|d| after_marker(&text[d.span.start as usize..d.span.end as usize]).to_string())
        .collect())
}

/// A document copied into a stream: its text, a final line break added when it had none (a
/// `---` line follows). A block scalar that ran to the end of the text would take that line
/// break into its value, so its header may get the strip indicator (`|` to `|-`, `>2+` to
/// `>2-`), the one change that keeps the value; nothing else may differ.
pub fn same_document_text(original: &str, copied: &str) -> bool {
    if copied == original {
        return true;
    }
    let Some(copied) = copied
        .strip_suffix('\n')
        .filter(|_| !original.ends_with('\n'))
    else {
        return false;
    };
    if copied == original {
        return true;
    }
    // The one header that may differ: the one where the texts part.
    let parted = original
        .bytes()
        .zip(copied.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(original.len().min(copied.len()));
    let Some(at) = original[..(parted + 1).min(original.len())].rfind(['|', '>']) else {
        return false;
    };
    let line_end = |t: &str| t[at..].find('\n').map_or(t.len(), |i| at + i);
    let (a_end, b_end) = (line_end(original), line_end(copied));
    let (ha, hb) = (&original[at..a_end], &copied[at..b_end]);
    let (indicators, rest) = ha.split_at(ha.find([' ', '#']).unwrap_or(ha.len()));
    let digits: String = indicators.chars().filter(char::is_ascii_digit).collect();
    original[..at] == copied[..at]
        && original[a_end..] == copied[b_end..]
        && hb == format!("{}{digits}-{rest}", &ha[..1])
}

/// Files kpt fn eval refuses: a document that is not an object with apiVersion, kind and
/// metadata.name (a `values.yaml`, a kustomization), or a file tailor-yaml cannot read.
pub fn not_objects(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (rel, bytes) in tree(dir) {
        // kpt keeps a key defined twice: so does this reading.
        let opts = tailor_yaml::ParseOptions {
            unique_keys: false,
            ..Default::default()
        };
        let ok = match tailor_yaml::parse_stream_with(&String::from_utf8_lossy(&bytes), &opts) {
            // kpt fn eval fails on an empty mapping key (`"":`), even with --exec cat.
            Ok(docs) if docs.iter().any(|d| has_empty_key(&d.root)) => false,
            Ok(docs) => docs.iter().filter(|d| !d.empty).all(|d| {
                ["apiVersion", "kind"]
                    .iter()
                    .all(|k| d.root.get_str(k).is_some_and(|s| !s.is_empty()))
                    && d.root
                        .get("metadata")
                        .and_then(|m| m.get_str("name"))
                        .is_some_and(|s| !s.is_empty())
            }),
            Err(_) => false,
        };
        if !ok {
            out.insert(rel);
        }
    }
    out
}

fn after_marker(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if t == "---" {
            return &text[offset + line.len()..];
        }
        if !(t.is_empty() || t.trim_start().starts_with('#') || t.starts_with('%')) {
            return text;
        }
        offset += line.len();
    }
    text
}

/// Whether a document's value changed between two readings (strip: an object strip leaves
/// alone must keep its bytes).
pub fn values_by_key(list: &str) -> BTreeMap<(String, usize), Json> {
    let mut m = BTreeMap::new();
    if let Ok(items) = list_items(list) {
        for item in items {
            if let Some(key) = kpt_key(&item) {
                m.insert(key, super::upstream::without_bookkeeping(item));
            }
        }
    }
    m
}

fn has_empty_key(node: &tailor_yaml::Node) -> bool {
    use tailor_yaml::Value;
    match &node.value {
        Value::Mapping(pairs) => pairs
            .iter()
            .any(|p| p.key.as_scalar() == Some("") || has_empty_key(&p.value)),
        Value::Sequence(items) => items.iter().any(has_empty_key),
        _ => false,
    }
}

/// A `kpt fn source` list without kpt's `seqindent` annotations (kpt fn sink then writes every
/// sequence compact, as it does for a list tailor wrote).
pub fn without_seqindent(list: &str) -> String {
    let mut out = String::with_capacity(list.len());
    for line in list.split_inclusive('\n') {
        if line
            .trim_start()
            .starts_with("internal.config.kubernetes.io/seqindent: '")
        {
            continue;
        }
        let mut l = line.to_string();
        for style in ["compact", "wide"] {
            l = l.replace(
                &format!(", internal.config.kubernetes.io/seqindent: '{style}'"),
                "",
            );
        }
        out.push_str(&l);
    }
    out
}
