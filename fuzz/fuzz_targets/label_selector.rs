//! tailor-cluster label selectors: the string parser never panics, its canonical form parses
//! back to the same selector, and matching gives the same answer for both.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor_cluster::{LabelSelector, StringMap};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(sel) = LabelSelector::parse(text) else {
        return;
    };
    let canonical = sel.to_string();
    let back = LabelSelector::parse(&canonical)
        .unwrap_or_else(|e| panic!("canonical form {canonical:?} of {text:?} does not parse: {e}"));
    assert_eq!(sel, back, "canonical form {canonical:?} of {text:?}");
    let labels: StringMap = [
        ("env", "prod"),
        ("region", "eu"),
        ("a.b/c", ""),
        ("tier", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(sel.matches(&labels), back.matches(&labels));
    let _ = sel.matches(&StringMap::new());
});
