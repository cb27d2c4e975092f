//! Conformance with the recorded Flux envsubst vectors.
//!
//! Always runs the copy in `tests/data` (public upstream test data), so the project's tests pass
//! on their own; when the shared conformance directory is present, runs that file too, so a
//! newer vector set is picked up without copying.
//!
//! Vector fields: `input`, `vars`, `strict`, then `expected` (text), `expected_hex` (bytes, when
//! the output is not UTF-8), or `error` (Flux's error text); `panic: true` marks inputs on which
//! Go panics, where the port must return an error instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tailor_flux::envsubst::{substitute_bytes, Options};

fn shared_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/flux-envsubst-vectors.json")
}

fn bundled_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/flux-envsubst-vectors.json")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs every vector of `path`, returning (total, failures).
fn run_file(path: &Path) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let vectors: Vec<Value> = serde_json::from_str(&text).expect("vector file is a JSON array");
    let mut failures = Vec::new();
    for (i, v) in vectors.iter().enumerate() {
        let input = v["input"].as_str().expect("input");
        let vars: BTreeMap<String, String> = v["vars"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let opts = Options {
            strict: v["strict"].as_bool().unwrap_or(false),
            ..Options::default()
        };
        let lookup = |name: &str| vars.get(name).cloned();
        let got = substitute_bytes(input, &lookup, &opts);
        let verdict = if v["panic"].as_bool() == Some(true) {
            match &got {
                Err(_) => None,
                Ok(out) => Some(format!(
                    "Go panics, port returned {:?}",
                    String::from_utf8_lossy(out)
                )),
            }
        } else if let Some(want) = v["error"].as_str() {
            match &got {
                Err(e) if e.to_string() == want => None,
                other => Some(format!("want error {want:?}, got {other:?}")),
            }
        } else if let Some(want) = v["expected_hex"].as_str() {
            match &got {
                Ok(out) if hex(out) == want.to_ascii_lowercase() => None,
                other => Some(format!("want hex {want}, got {other:?}")),
            }
        } else if let Some(want) = v["expected"].as_str() {
            match &got {
                Ok(out) if out.as_slice() == want.as_bytes() => None,
                Ok(out) => Some(format!(
                    "want {want:?}, got {:?}",
                    String::from_utf8_lossy(out)
                )),
                Err(e) => Some(format!("want {want:?}, got error {e}")),
            }
        } else {
            Some("vector has no expectation".to_string())
        };
        if let Some(why) = verdict {
            failures.push(format!(
                "#{i} input {input:?} strict={}: {why}",
                opts.strict
            ));
        }
    }
    (vectors.len(), failures)
}

fn check(path: &Path) {
    let (total, failures) = run_file(path);
    println!(
        "{}: {} vectors, {} passed",
        path.display(),
        total,
        total - failures.len()
    );
    assert!(total > 0, "no vectors in {}", path.display());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn bundled_vectors() {
    check(&bundled_file());
}

#[test]
fn shared_vectors_when_present() {
    let path = shared_file();
    if path.exists() {
        check(&path);
    } else {
        println!("{} not present, skipped", path.display());
    }
}
