//! tailor-kustomize (replacements) field paths: kustomize's path splitter and the path walk (with and
//! without `create`, `[k=v]` selectors, `*`, indexes, delimiters) never panic or hang.
//!
//! Input: first byte picks the options, the rest (up to a newline) is the target field path,
//! and what follows the newline is the source field path.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use tailor_fuzz::{fixture_nodes, split_first_line};
use tailor_kustomize::replacements::{apply, parse_replacements, split_path};

fuzz_target!(|data: &[u8]| {
    let Some((flags, text)) = tailor_fuzz::flags_and_text(data) else {
        return;
    };
    let (target_path, source_path) = split_first_line(text);
    let _ = split_path(target_path);
    let _ = split_path(source_path);
    let source_path = if source_path.is_empty() {
        "metadata.name"
    } else {
        source_path
    };
    let kinds = ["Deployment", "Service", "ConfigMap", "Widget"];
    let mut options = serde_json::Map::new();
    options.insert("create".into(), json!(flags & 1 != 0));
    if flags & 2 != 0 {
        options.insert("delimiter".into(), json!(","));
        options.insert("index".into(), json!(i64::from(flags >> 5) - 2));
    }
    let config = json!([{
        "source": {"kind": kinds[usize::from(flags >> 2) & 3], "fieldPath": source_path},
        "targets": [{
            "select": {"kind": kinds[usize::from(flags >> 4) & 3]},
            "fieldPaths": [target_path],
            "options": options,
        }],
    }]);
    let node = tailor_yaml::from_json(&config);
    let Ok(replacements) = parse_replacements(&node) else {
        return;
    };
    let mut nodes = fixture_nodes();
    let _ = apply(&mut nodes, &replacements, &BTreeMap::new());
    for n in &nodes {
        let _ = tailor_yaml::emit_node(n, Default::default());
    }
});
