//! Helm's own `pkg/releaseutil` tests (`kind_sorter_test.go`, `manifest_test.go`,
//! ported to `tests/data/releaseutil.json`), then `SplitManifests` rules they do not pin
//! (expectations checked against Go 1.19's regexp and strings packages).

use super::*;
use crate::testdata::load_cases;
use serde_json::Value;

fn run(case: &Value) -> Value {
    match case["fn"].as_str() {
        Some("sort_by_kind") => {
            let mut items: Vec<(String, String)> = case["items"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| (i[0].as_str().unwrap().into(), i[1].as_str().unwrap().into()))
                .collect();
            let order = if case["order"] == "install" {
                INSTALL_ORDER
            } else {
                UNINSTALL_ORDER
            };
            sort_by_kind(&mut items, |(_, kind)| kind, order);
            Value::String(items.into_iter().map(|(name, _)| name).collect())
        }
        Some("split_manifests") => {
            let docs = split_manifests(case["input"].as_str().unwrap());
            Value::Array(docs.into_iter().map(Value::String).collect())
        }
        other => panic!("unknown fn {other:?}"),
    }
}

#[test]
fn helm_releaseutil_test_tables() {
    let cases = load_cases(include_str!("../../tests/data/releaseutil.json"));
    assert_eq!(cases.len(), 7, "ported cases");
    for case in &cases {
        assert_eq!(run(case), case["expect"], "{}", case["test"]);
    }
}

#[test]
fn split_follows_helms_separator_regexp() {
    assert_eq!(split_manifests("a: 1\n---\nb: 2"), ["a: 1", "b: 2"]);
    // Any line starting with `---` separates, and what follows it starts a document.
    assert_eq!(
        split_manifests("a: 1\n--- # c\nb: 2"),
        ["a: 1", "# c\nb: 2"]
    );
    assert_eq!(split_manifests("a: 1\n----\nb: 2"), ["a: 1", "-\nb: 2"]);
    // A separator needs a newline before it (or the start of the text).
    assert_eq!(split_manifests("a: x ---\nb: 2"), ["a: x ---\nb: 2"]);
    // Two separators in a row: the second is not at a line start once the first has
    // eaten the newline, so it stays as text, as in Helm.
    assert_eq!(split_manifests("---\n---\na: 1"), ["---\na: 1"]);
    assert_eq!(
        split_manifests("a: 1\n---\n\n---\nb: 2"),
        ["a: 1", "---\nb: 2"]
    );
    assert!(split_manifests(" \n ").is_empty());
    // RE2's `\s` has no vertical tab; Go's TrimSpace trims it.
    assert_eq!(
        split_manifests("a\n \n\t---x\n--- \n\n---y"),
        ["a\n \n\t---x", "---y"]
    );
    assert_eq!(split_manifests("\u{b}---\na"), ["a"]);
    assert_eq!(split_manifests("a\n\u{b}\n---\nb"), ["a", "b"]);
    assert_eq!(manifest_name(2), "manifest-2");
}
