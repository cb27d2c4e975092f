//! Comments inside flow collections keep their places when a document is written from its
//! tree: `fixtures/flow-comments.json` holds, for each case of `flow-comments.cases.yaml`, what
//! go-yaml v3 writes for it (`want`) and what it writes when it reads that again (`again`,
//! which differs where go-yaml moves a comment on the second trip), recorded with kpt by
//! `scripts/record-flow-comments.py`. tailor-yaml must answer both the same.
use serde_json::Value as Json;
use tailor_yaml::{emit_document, parse_stream, EmitOptions};

/// Where tailor-yaml writes something else than go-yaml on purpose: the case, why, and what
/// tailor-yaml writes, which it writes again when it reads it (checked with kpt: go-yaml
/// reads it as it reads its own `want`).
const DELIBERATE: &[(&str, &str, &str)] = &[
    (
        "collection-item-line-comment",
        "go-yaml writes the `,` after a collection's line comment, in column 0 of the next line",
        "data:\n  x: [a, {k: v}, # l\n    b]\n  y: [a, [b], # l\n    b]\n",
    ),
    (
        "flow-mapping-value-line",
        "go-yaml writes the `,` after a collection's line comment, in column 0 of the next line",
        "data:\n  x: {a: [b, c], # l\n    d: e}\n",
    ),
    (
        "flow-mapping-line-and-foot",
        "go-yaml writes a `}` after a comment in column 0; tailor-yaml where go-yaml writes a `]`",
        "data:\n  x: {a: 1, # l\n    # c1\n\n    b: 2, # l2\n    # end\n  }\n",
    ),
];

fn trip(src: &str) -> Result<String, String> {
    let mut docs = parse_stream(src).map_err(|e| format!("refused: {e}"))?;
    if docs.len() != 1 {
        return Err(format!("{} documents", docs.len()));
    }
    Ok(emit_document(&docs.remove(0), EmitOptions::default()))
}

#[test]
fn flow_collections_keep_their_comments_where_go_yaml_writes_them() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/flow-comments.json"
    ))
    .expect("the recorded cases");
    let recorded: Json = serde_json::from_str(&text).expect("JSON");
    let cases = recorded["cases"].as_array().expect("cases");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap_or_default();
        let src = case["src"].as_str().unwrap_or_default();
        let (want, again) = match DELIBERATE.iter().find(|(n, _, _)| *n == name) {
            Some((_, _, ours)) => (*ours, *ours),
            None => (
                case["want"].as_str().unwrap_or_default(),
                case["again"].as_str().unwrap_or_default(),
            ),
        };
        match trip(src) {
            Ok(got) if got == want => {}
            Ok(got) => failures.push(format!("{name}: wrote\n{got}\nwant\n{want}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
        match trip(want) {
            Ok(got) if got == again => {}
            Ok(got) => failures.push(format!("{name} (second trip): wrote\n{got}\nwant\n{again}")),
            Err(e) => failures.push(format!("{name} (second trip): {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}
