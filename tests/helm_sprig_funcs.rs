//! sprig v3.3.0's own test tables for the functions charts call (source commit and paths in
//! `crates/tailor-helm/tests/data/sprig/cases.json`), every case through `tailor helm
//! template`: each template becomes a `define` of one chart, and a ConfigMap per case carries
//! its output base64-encoded, so any text survives the manifest round trip.
mod common;

use common::{repo_root, run_command, write_tree};
use serde_json::Value;
use std::process::Command;

fn chart(cases: &[Value]) -> common::TempDir {
    let mut helpers = String::new();
    let mut files: Vec<(String, String)> = vec![(
        "Chart.yaml".into(),
        "apiVersion: v2\nname: sprig\nversion: 0.1.0\n".into(),
    )];
    for (i, case) in cases.iter().enumerate() {
        let tpl = case["tpl"].as_str().unwrap();
        helpers.push_str(&format!(
            "{{{{- define \"c{i:03}\" -}}}}{tpl}{{{{- end -}}}}\n"
        ));
        files.push((
            format!("templates/c{i:03}.yaml"),
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i:03}\ndata:\n  out: {{{{ include \"c{i:03}\" . | b64enc | quote }}}}\n"
            ),
        ));
    }
    files.push(("templates/_cases.tpl".into(), helpers));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    write_tree("sprig-cases", &refs)
}

/// `name: cNNN` → the decoded `out` of that ConfigMap.
fn outputs(stdout: &str) -> std::collections::BTreeMap<String, String> {
    let mut found = std::collections::BTreeMap::new();
    for doc in stdout.split("\n---\n") {
        let field = |key: &str| {
            doc.lines()
                .find_map(|l| l.trim().strip_prefix(key))
                .map(|v| v.trim().trim_matches('"').to_string())
        };
        if let (Some(name), Some(out)) = (field("name: "), field("out: ")) {
            let bytes = decode_base64(&out);
            found.insert(name, String::from_utf8(bytes).unwrap());
        }
    }
    found
}

fn decode_base64(s: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        bits = bits << 6 | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

#[test]
fn sprig_test_tables_through_helm_template() {
    let path = repo_root().join("crates/tailor-helm/tests/data/sprig/cases.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let dir = chart(cases);
    let run = run_command(
        Command::new(common::tailor_bin())
            .args(["helm", "template", "t"])
            .arg(&dir),
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got = outputs(&run.stdout);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let want = case["expect"].as_str().unwrap();
        let out = got.get(&format!("c{i:03}"));
        if out.map(String::as_str) != Some(want) {
            failures.push(format!("{}: got {out:?}, want {want:?}", case["tpl"]));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(got.len(), cases.len());
    eprintln!("sprig tables: {} of {} identical", cases.len(), cases.len());
}

#[test]
fn base64_reader_reads_what_b64enc_writes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64(""), b"");
}
