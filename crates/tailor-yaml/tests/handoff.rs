//! Items handed over while a ResourceList is parsed are the nodes the plain parse builds, and
//! `reparse_item` builds each of them again, spans and comments included.

use std::path::Path;

use tailor_yaml::{
    parse_stream_handing_items, parse_stream_with, Handed, Node, ParseOptions, Value,
};

#[path = "support/files.rs"]
mod files;
#[path = "support/handoff_check.rs"]
mod handoff_check;
use files::files_under;
use handoff_check::check_handoff as check;
use handoff_check::check_handoff_of;

fn list(items: &str) -> String {
    format!("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items}")
}

#[test]
fn items_with_comments_in_every_place() {
    let n = check(&list(
        "# above the first\n- apiVersion: v1 # line\n  kind: A\n  metadata:\n    name: a\n  # closes a\n\n# above b\n\n- apiVersion: v1\n  kind: B\n  data:\n    k: |+\n      keep\n\n  # after the block\n- kind: C\n  list:\n  - x\n  - y\n    # deep\n# foot of the list\nfunctionConfig:\n  kind: X\n",
    ));
    assert_eq!(n, 3);
}

#[test]
fn indented_and_flow_items_and_scalars() {
    assert_eq!(
        check("kind: List\nitems:\n  - {a: 1}\n  - b\n  -\n  - - nested\n    - seq\n"),
        4
    );
    assert_eq!(check("kind: ResourceList\nitems: [a, b]\n"), 0);
    assert_eq!(
        check("kind: ResourceList\nitems:\n- a\n---\nkind: ResourceList\nitems:\n- b\n"),
        1
    );
}

#[test]
fn a_root_items_hands_over_unless_a_kind_before_it_is_no_list_kind() {
    // A `kind` after `items` (PyYAML's sorted keys) is not known yet: the items are handed
    // over, and a reader whose document turns out not to be a list reads it again.
    assert_eq!(check("items:\n- a\nkind: ResourceList\n"), 1);
    assert_eq!(check("items:\n- a\nkind: ConfigMapList\n"), 1);
    assert_eq!(check("kind: ConfigMapList\nitems:\n- a\n"), 0);
    assert_eq!(check("kind: ResourceList\nspec:\n  items:\n  - a\n"), 0);
    assert_eq!(check("- kind: ResourceList\n  items:\n  - a\n"), 0);
}

fn tailor(clusters: &str) -> String {
    format!("apiVersion: tailor.dev/v1alpha1\nkind: Tailor\nmetadata:\n  name: t # n\nspec:\n  images: []\n  clusters:\n{clusters}  namePrefix: p-\n")
}

fn clusters(src: &str) -> usize {
    check_handoff_of(src, Handed::TailorClusters)
}

#[test]
fn a_tailors_clusters_are_handed_over_and_the_rest_is_the_plain_tree() {
    let entries = "  # first\n  - name: a\n    labels: {env: dev}\n  - name: b # b\n    properties:\n      x: |\n        y\n\n    # after b\n  - name: c\n";
    assert_eq!(clusters(&tailor(entries)), 3);
    // Indentless, and the entries of no other sequence.
    assert_eq!(
        clusters(&tailor("  - name: a\n").replace("    - name", "  - name")),
        1
    );
    assert_eq!(
        clusters(&tailor(entries).replace("images: []", "images:\n  - x")),
        3
    );
    assert_eq!(
        clusters("kind: Tailor\nspec:\n  clusters:\n  - name: a\n  - name: b\n"),
        2
    );
    assert_eq!(clusters("kind: Tailor\nspec:\n  clusters:\n  - name: a\n---\nkind: Tailor\nspec:\n  clusters:\n  - name: b\n"), 1);
}

#[test]
fn clusters_are_handed_over_only_under_a_tailors_spec() {
    for src in [
        // `kind` after `spec`, another kind, another key, another level, a flow list.
        "spec:\n  clusters:\n  - name: a\nkind: Tailor\n",
        "kind: Other\nspec:\n  clusters:\n  - name: a\n",
        "kind: Tailor\nstatus:\n  clusters:\n  - name: a\n",
        "kind: Tailor\nspec:\n  x:\n    clusters:\n    - name: a\n",
        "kind: Tailor\nspec:\n  clusters: [{name: a}]\n",
        "kind: Tailor\nspec: {clusters: [{name: a}]}\n",
        "kind: Tailor\nitems:\n- a\n",
        "kind: Tailor\nspec:\n  clusters:\n  - name: a\n? clusters:\n  - b\n: v\n",
        // A mapping a later root key opens where `spec`'s opened.
        "kind: Tailor\nspec:\n  x: 1\nother:\n  clusters:\n  - name: a\n",
    ] {
        let handed = if src.contains("? clusters") { 1 } else { 0 };
        assert_eq!(clusters(src), handed, "{src:?}");
    }
    // Items stay the sequence a plain hand-over names.
    assert_eq!(check(&tailor("  - name: a\n")), 0);
}

#[test]
fn errors_in_a_cluster_entry_are_the_plain_parse_errors() {
    for entries in [
        "  - name: a\n  - name: b\n  - name: c\n    name: d\n",
        "  - name: a\n  - name: b\n  - name: [c\n",
        "  - name: a\n  - name: b\n  - labels: *nope\n",
        "  - name: a\n  - name: b\n   - name: c\n",
    ] {
        assert_eq!(clusters(&tailor(entries)), 0, "{entries:?}");
    }
}

#[test]
fn anchors_and_aliases_are_not_self_contained() {
    let src = list("- &a\n  kind: A\n- kind: B\n  x: *a\n- kind: C\n");
    let opts = ParseOptions::default();
    let mut flags = Vec::new();
    parse_stream_handing_items(&src, &opts, &mut |h| {
        flags.push(h.self_contained);
        Some(h.node)
    })
    .unwrap();
    assert_eq!(flags, [false, false, true]);
    check(&src);
}

#[test]
fn errors_are_the_plain_parse_errors() {
    for src in [
        list("- kind: A\n  kind: B\n"),
        list("- kind: A\n - kind: B\n"),
        list("- a: [\n"),
        list("- x: *nope\n"),
    ] {
        assert_eq!(check(&src), 0);
    }
}

#[test]
fn depth_limits_hold_on_the_rebuild() {
    let deep = format!("- {}x{}\n", "[".repeat(300), "]".repeat(300));
    assert_eq!(check(&list(&deep)), 1);
}

#[test]
fn a_kept_node_stays_in_the_tree() {
    let src = list("- kind: A\n- kind: B\n");
    let docs = parse_stream_handing_items(&src, &ParseOptions::default(), &mut |h| {
        (h.index == 1).then_some(h.node)
    })
    .unwrap();
    let Some(Value::Sequence(items)) = docs[0].root.get("items").map(|n: &Node| &n.value) else {
        panic!("no items");
    };
    assert!(items[0].is_null());
    assert_eq!(items[1].get_str("kind"), Some("B"));
}

/// Each document of a file, as an item of a ResourceList written the way kpt writes one.
fn as_resource_list(text: &str) -> Option<String> {
    let docs = parse_stream_with(text, &ParseOptions::default()).ok()?;
    let mut out = list("");
    for d in docs.iter().filter(|d| !d.empty) {
        let body = &text[d.span.start as usize..d.span.end as usize];
        let body: Vec<&str> = body
            .lines()
            .filter(|l| !l.starts_with("---") && !l.starts_with('%'))
            .collect();
        let mut first = true;
        for line in body {
            if first && line.trim().is_empty() {
                continue;
            }
            out.push_str(if first { "- " } else { "  " });
            out.push_str(line);
            out.push('\n');
            first = false;
        }
    }
    Some(out)
}

fn yaml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    files_under(
        dir,
        &|p, _| p.extension().is_some_and(|e| e == "yaml" || e == "yml"),
        out,
    );
}

/// The real-world corpus (when `../shared` is beside the repository) and the fuzz seeds, each
/// file's documents made items of a ResourceList.
#[test]
fn corpus_and_seeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    yaml_files(&root.join("../shared/corpus"), &mut files);
    let corpus = files.len();
    let mut seeds = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join("fuzz/seeds/yaml_roundtrip")) {
        seeds.extend(entries.flatten().map(|e| e.path()));
    }
    seeds.sort();
    files.extend(seeds);
    let mut handed = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if let Some(src) = as_resource_list(&text) {
            handed += check(&src);
        }
        // And the file itself, in case it is a ResourceList already.
        check(&text);
    }
    if corpus == 0 {
        eprintln!("../shared/corpus is not beside the repository: checked the fuzz seeds only");
    }
    assert!(
        handed > 0,
        "no item was handed over from {} files",
        files.len()
    );
}

/// A JSON ResourceList (a flow root mapping) hands over the items of its flow `items`, once
/// the root can no longer be a key: past its first line, or 4,096 bytes along it.
#[test]
fn flow_root_items_are_handed_over() {
    let pretty = "{\n  \"apiVersion\": \"config.kubernetes.io/v1\",\n  \"kind\": \"ResourceList\",\n  \"items\": [\n    {\"apiVersion\": \"v1\", \"kind\": \"A\", \"metadata\": {\"name\": \"a\"}},\n    {\n      \"kind\": \"B\", \"x\": [1, {\"y\": null}]\n    },\n    \"scalar\", [\"seq\"], {}, &a {\"k\": *a}\n  ],\n  \"functionConfig\": {\"kind\": \"X\"}\n}\n";
    assert_eq!(check(pretty), 6);
    let item = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n"},"data":{"k":"v"}}"#;
    let line = format!(
        r#"{{"kind":"List","items":[{}]}}"#,
        vec![item; 100].join(",")
    );
    // 100 items of 80 bytes on one line: those past the first 4 KB are handed over.
    let n = check(&line);
    assert!((45..100).contains(&n), "{n}");
    // A root that turns out to be a key, a kind other than a list's before the items, a
    // nested list, a pair in the sequence, and a flow list under a block `items:` keep their
    // items; a list kind after the items is not known yet when they are handed over.
    assert_eq!(check("{kind: List, items: [{a: 1}]}: x\n"), 0);
    assert_eq!(check("{\nitems: [{a: 1}],\nkind: List}\n"), 1);
    assert_eq!(check("{\nkind: Pod,\nitems: [{a: 1}]}\n"), 0);
    assert_eq!(check("{\nkind: List,\nspec: {items: [{a: 1}]}}\n"), 0);
    assert_eq!(check("{\nkind: List,\nitems: [a: 1, {b: 2}]}\n"), 1);
    assert_eq!(check("kind: ResourceList\nitems: [{a: 1}]\n"), 0);
    // Errors are the plain parse's.
    assert_eq!(check("{\nkind: List,\nitems: [{a: 1}, {a: 1, a: 2}]}\n"), 0);
    assert_eq!(check("{\nkind: List,\nitems: [{a: 1}\n"), 0);
}

/// The comments that close an item, or sit around an item of a flow `items`, are settled
/// before it is handed over and go with it, in its node and in its rebuild (found by
/// yaml_roundtrip, 2026-11-28: a comment below an item was read as its foot from the `null`
/// left in its place, and lost).
#[test]
fn comments_around_an_item_go_with_it() {
    assert_eq!(check("kind: List\nitems:\n-\n  !p-\n  # c\n  \n-\n- "), 3);
    assert_eq!(
        check(&list("- a: 1\n# closes a\n\n- b: \"x\"\n# opens c\n- c\n")),
        3
    );
    let flow = "{\nkind: List,\nitems: [\n  # head of a\n  {a: 1}, # line of a\n  # foot of a\n\n  # head of b\n  {b: 2},\n  c # line of c\n  # foot of c\n]}\n";
    assert_eq!(check(flow), 3);
}
