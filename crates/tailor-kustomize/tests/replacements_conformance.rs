//! kustomize's own replacement test table (api/filters/replacement/replacement_test.go), the
//! cases that exist in v5.5.0 plus the v5.7.0 `sourceValue` ones, compared as data.

use std::collections::BTreeMap;

use serde_json::Value as Json;
use tailor_kustomize::replacements::{apply, parse_replacements};
use tailor_testkit::yaml::docs;
use tailor_yaml::parse_stream;

fn field<'a>(case: &'a Json, k: &str) -> Option<&'a str> {
    case.get(k).and_then(Json::as_str)
}

fn run(case: &Json) -> Result<(), String> {
    let input = docs(field(case, "input").unwrap_or(""));
    let config = docs(field(case, "replacements").unwrap_or(""));
    let list = config[0].get("replacements").expect("replacements key");
    let mut resources = input;
    let result = parse_replacements(list).and_then(|r| apply(&mut resources, &r, &BTreeMap::new()));
    match (field(case, "expected_error_contains"), result) {
        (Some(want), Err(e)) => {
            if e.to_string().contains(want) {
                Ok(())
            } else {
                Err(format!("error {e:?} does not contain {want:?}"))
            }
        }
        (Some(want), Ok(())) => Err(format!("expected error {want:?}, got success")),
        (None, Err(e)) => Err(format!("unexpected error: {e}")),
        (None, Ok(())) => {
            let want: Vec<Json> = docs(field(case, "expected_output").unwrap_or(""))
                .iter()
                .map(|d| d.to_json().unwrap())
                .collect();
            let got: Vec<Json> = resources.iter().map(|d| d.to_json().unwrap()).collect();
            if want == got {
                Ok(())
            } else {
                Err(format!(
                    "data differs\nwant: {}\n got: {}",
                    serde_json::to_string_pretty(&want).unwrap(),
                    serde_json::to_string_pretty(&got).unwrap()
                ))
            }
        }
    }
}

#[test]
fn kustomize_v5_5_0_cases() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/kustomize-replacements-cases.yaml"
    ))
    .unwrap();
    let file = parse_stream(&text)
        .unwrap()
        .remove(0)
        .root
        .to_json()
        .unwrap();
    let cases = file["cases"].as_array().unwrap();
    let mut ran = 0;
    let mut ran_v57 = 0;
    let mut failures = Vec::new();
    for case in cases {
        let release = field(case, "first_release").unwrap_or("");
        let in_v55 = release.starts_with("v4.")
            || ["v5.0.0", "v5.1", "v5.2", "v5.3", "v5.4", "v5.5"]
                .iter()
                .any(|p| release.starts_with(p));
        let v57 = release == "v5.7.0";
        if !in_v55 && !v57 {
            continue;
        }
        if in_v55 {
            ran += 1;
        } else {
            ran_v57 += 1;
        }
        if let Err(e) = run(case) {
            failures.push(format!(
                "case {} {:?}: {e}",
                case["id"],
                field(case, "name").unwrap_or("")
            ));
        }
    }
    println!(
        "conformance: ran {ran} v5.5.0 cases + {ran_v57} v5.7.0 sourceValue cases, {} failed",
        failures.len()
    );
    assert_eq!(ran, 46, "the file holds 46 cases that exist in v5.5.0");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
