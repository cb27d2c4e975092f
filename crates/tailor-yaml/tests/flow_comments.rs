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
        "before-close-two-runs",
        "go-yaml gives a second run before the bracket to the collection, written after it",
        "data:\n  x: [a,\n    # c1\n\n    # c2\n  ]\n",
    ),
    (
        "foot-head-blank-kept",
        "the same on go-yaml's second trip: its first is tailor's, which tailor writes again",
        "data:\n  x: [a, # l1\n    # c1\n\n    # c2\n\n    # c3\n    b, # l2\n    # e1\n\n    # e2\n  ]\n",
    ),
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

/// A small deterministic generator (xorshift), so the property below needs no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
}

/// What may stand between two flow tokens: a line comment, comment lines, blank lines.
fn gap(r: &mut Rng, indent: usize, line_comment: bool) -> String {
    let mut out = String::new();
    if line_comment && r.chance(30) {
        out.push_str(" # l");
    }
    if r.chance(50) {
        for _ in 0..=r.below(3) {
            out.push('\n');
            if r.chance(25) {
                out.push('\n');
            }
            if r.chance(70) {
                out.push_str(&" ".repeat(indent));
                out.push_str(r.pick(&["# c", "# - x", "# k: v", "#"]));
            }
        }
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    } else if !out.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out
}

fn flow(r: &mut Rng, indent: usize, depth: usize) -> String {
    let mapping = r.chance(30);
    let mut out = String::from(if mapping { "{" } else { "[" });
    let inner = indent + 2;
    let n = r.below(4);
    for i in 0..n {
        out.push_str(&gap(r, inner, i == 0));
        let value = if depth < 2 && r.chance(20) {
            flow(r, inner, depth + 1)
        } else {
            r.pick(&[
                "a", "1", "\"q\"", "'s'", "x y", "&x z", "!t w", "-f", "ko://i",
            ])
            .to_string()
        };
        if mapping {
            out.push_str(&format!("k{i}: {value}"));
        } else {
            out.push_str(&value);
        }
        if i + 1 < n || r.chance(20) {
            out.push(',');
            out.push_str(&gap(r, inner, true));
        }
    }
    out.push_str(&gap(r, inner, n > 0));
    out.push(if mapping { '}' } else { ']' });
    out
}

fn document(r: &mut Rng) -> String {
    let mut out = String::from("apiVersion: v1\ndata:\n");
    for k in 0..=r.below(3) {
        if r.chance(25) {
            out.push_str(&format!("  s{k}:\n  - {}\n", flow(r, 2, 0)));
        } else {
            out.push_str(&format!("  f{k}: {}\n", flow(r, 2, 0)));
        }
        if r.chance(30) {
            out.push_str("  # after\n");
            if r.chance(50) {
                out.push('\n');
            }
        }
    }
    if r.chance(20) {
        out.push_str(&format!("root: {}\n", flow(r, 0, 0)));
    }
    out
}

#[test]
fn flow_collections_with_comments_read_back_the_same_and_write_again_the_same() {
    // The yaml_roundtrip fuzz target's property on flow collections full of comments (nested
    // ones, comments on a bracket's line, empty collections): the text tailor-yaml writes reads
    // back to the same data, and writing that gives the same bytes.
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut commented = 0;
    for _ in 0..4000 {
        let src = document(&mut r);
        let Ok(once) = trip(&src) else {
            continue;
        };
        let data = |text: &str| {
            parse_stream(text)
                .ok()
                .and_then(|mut d| d.pop())
                .and_then(|d| d.root.to_json().ok())
        };
        assert_eq!(
            data(&once),
            data(&src),
            "data changed:\n{src}\n--- wrote\n{once}"
        );
        let twice = trip(&once).unwrap_or_else(|e| panic!("{e}:\n{src}\n--- wrote\n{once}"));
        assert_eq!(twice, once, "not a fixpoint:\n{src}\n--- wrote\n{once}");
        commented += usize::from(once.lines().any(|l| l.trim_start().starts_with('#')));
    }
    assert!(commented > 2000, "{commented} documents kept a comment");
}
