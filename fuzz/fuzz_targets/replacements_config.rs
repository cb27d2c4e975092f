//! tailor-kustomize (replacements) config reading and application: a YAML `replacements:` list (the input)
//! is read in every dialect and, when accepted, applied to fixed objects; nothing panics.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use tailor_fuzz::fixture_nodes;
use tailor_kustomize::replacements::{apply, parse_replacements, parse_replacements_with, Dialect};

fuzz_target!(|data: &[u8]| {
    let Some(docs) = tailor_fuzz::yaml_docs(data) else {
        return;
    };
    let Some(doc) = docs.into_iter().next() else {
        return;
    };
    // `path:` entries name files; give it one so that branch is reached too.
    let files = BTreeMap::from([(
        "r.yaml".to_string(),
        "- source: {kind: ConfigMap, fieldPath: data.host}\n  targets: [{select: {kind: Widget}, fieldPaths: [spec.h]}]\n".to_string(),
    )]);
    for d in [
        Dialect::Kustomization,
        Dialect::ReplacementTransformer,
        Dialect::ApplyReplacements,
    ] {
        let _ = parse_replacements_with(&doc.root, d, &files);
    }
    let Ok(replacements) = parse_replacements(&doc.root) else {
        return;
    };
    let props = BTreeMap::from([("region".to_string(), "eu".to_string())]);
    let mut nodes = fixture_nodes();
    let _ = apply(&mut nodes, &replacements, &props);
});
