//! Checks every case recorded from Go 1.19 in `conformance/cases.json`
//! byte for byte: output (partial output on error) and error text.

use std::collections::BTreeMap;

use serde_json::Value as Json;
use tailor_go::{ErrorKind, ExecOptions, MissingKey, Template, Value};

fn to_value(j: &Json) -> Value {
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::String(s.clone()),
        Json::Array(a) => Value::List(a.iter().map(to_value).collect()),
        Json::Object(o) => Value::Map(o.iter().map(|(k, v)| (k.clone(), to_value(v))).collect()),
    }
}

fn to_string_map(j: &Json) -> Value {
    let mut m = BTreeMap::new();
    if let Json::Object(o) = j {
        for (k, v) in o {
            m.insert(k.clone(), v.as_str().unwrap_or_default().to_string());
        }
    }
    Value::StringMap(m)
}

fn hex_decode(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0))
        .collect()
}

#[test]
fn conformance() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/cases.json");
    let text = std::fs::read_to_string(path).expect("read cases.json");
    let cases: Vec<Json> = serde_json::from_str(&text).expect("parse cases.json");
    let mut failures = Vec::new();
    for c in &cases {
        let name = c["name"].as_str().unwrap_or("?");
        let tname = c["tname"].as_str().unwrap_or("T");
        let tmpl = c["template"].as_str().unwrap_or_default();
        let want_err = c["err"].as_str().unwrap_or_default();
        let want_out = match c["out_hex"].as_str() {
            Some(h) => hex_decode(h),
            None => c["out"].as_str().unwrap_or_default().as_bytes().to_vec(),
        };
        let data = if c["strmap"].as_bool().unwrap_or(false) {
            to_string_map(&c["data"])
        } else {
            to_value(&c["data"])
        };
        let missing_key: MissingKey = c["missingkey"]
            .as_str()
            .map(|s| s.parse().expect("missingkey"))
            .unwrap_or_default();
        let opts = ExecOptions {
            missing_key,
            ..ExecOptions::default()
        };
        let (got_out, got_err) = match Template::parse(tname, tmpl) {
            Err(e) => {
                assert_eq!(e.kind, ErrorKind::Parse);
                (Vec::new(), e.message)
            }
            Ok(t) => {
                let mut out = Vec::new();
                let err = t
                    .execute_bytes(&data, &opts, &mut out)
                    .err()
                    .map(|e| e.message)
                    .unwrap_or_default();
                (out, err)
            }
        };
        if got_out != want_out || got_err != want_err {
            failures.push(format!(
                "--- {name}\n  template: {tmpl:?}\n  want out: {:?}\n  got  out: {:?}\n  want err: {want_err:?}\n  got  err: {got_err:?}",
                String::from_utf8_lossy(&want_out),
                String::from_utf8_lossy(&got_out),
            ));
        }
    }
    let passed = cases.len() - failures.len();
    eprintln!("conformance: {passed}/{} cases pass", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
