//! Errors and options checked against go-yaml v3's behaviour (the crate's integration tests
//! cover the rest).

use super::keys::first_duplicate_key;
use super::*;
use crate::node::Value;

fn err(src: &str) -> Error {
    match parse_stream(src) {
        Ok(_) => panic!("accepted: {src:?}"),
        Err(e) => e,
    }
}

/// Each input fails with that message at that line and column.
fn assert_errors(cases: &[(&str, &str, usize, usize)]) {
    for &(src, msg, line, col) in cases {
        let e = err(src);
        assert_eq!(
            (e.message.as_str(), e.line, e.column),
            (msg, line, col),
            "{src:?}"
        );
    }
}

#[test]
fn duplicate_keys_compare_decoded_values() {
    let e = err("a: 1\nb: 2\n\"a\": 3\n");
    assert_eq!(
        e.to_string(),
        "yaml: line 3: mapping key \"a\" already defined at line 1"
    );
    assert_eq!(e.column, 1);
    // Tags and styles do not make keys differ; the nested mapping is checked too.
    let e = err("m:\n  1: x\n  !!str 1: y\n");
    assert_eq!(e.message, "mapping key \"1\" already defined at line 2");
    assert_eq!((e.line, e.column), (3, 3));
    let e = err("{x: 1, y: 2, 'y': 3}");
    assert_eq!(e.message, "mapping key \"y\" already defined at line 1");
    assert_eq!(e.column, 14);
    // go-yaml compares collection keys by kind alone, and merge keys like any key.
    assert_eq!(
        err("? [a]\n: 1\n? [b]\n: 2\n").message,
        "mapping key \"\" already defined at line 1"
    );
    assert_eq!(
        err("<<: {a: 1}\n<<: {b: 1}\n").message,
        "mapping key \"<<\" already defined at line 1"
    );
    assert_eq!(
        err("a: &x 1\n*x : 2\n*x : 3\n").message,
        "mapping key \"x\" already defined at line 2"
    );
    // Go's %#v quoting of the key.
    assert_eq!(
        err("\"a\\tb\\\"\": 1\n\"a\\tb\\\"\": 2\n").message,
        "mapping key \"a\\tb\\\"\" already defined at line 1"
    );
}

#[test]
fn duplicate_keys_may_be_allowed() {
    let opts = ParseOptions {
        unique_keys: false,
        ..ParseOptions::default()
    };
    let docs = parse_stream_with(
        "a: 1
a: 2
",
        &opts,
    )
    .unwrap();
    assert_eq!(docs[0].root.pairs().map(<[Pair]>::len), Some(2));
}

#[test]
fn distinct_keys_pass() {
    // `~` and `null` are different values, as are keys that differ only in length.
    assert!(parse_stream("~: 1\nnull: 2\na: 3\naa: 4\n? [a]\n: 5\n? {a: 1}\n: 6\n").is_ok());
    // The same key in sibling mappings is no duplicate.
    assert!(parse_stream("- a: 1\n- a: 2\n").is_ok());
}

#[test]
fn duplicate_in_large_mapping_reports_go_yamls_first() {
    // More keys than the linear check takes: the hashed path must name the same pair as
    // go-yaml's nested loop (earliest key defined again, then its first repetition).
    let mut src: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
    src.push_str("k30: again\nk5: again\nk5: thrice\n");
    let e = err(&src);
    assert_eq!(e.message, "mapping key \"k5\" already defined at line 6");
    assert_eq!(e.line, 42);
    let mut flow = String::from("{");
    for i in 0..20 {
        flow.push_str(&format!("f{i}: {i}, "));
    }
    flow.push_str("f19: x}");
    assert_eq!(
        err(&flow).message,
        "mapping key \"f19\" already defined at line 1"
    );
    assert!(first_duplicate_key(&[]).is_none());
}

#[test]
fn control_characters_are_refused_where_libyaml_refuses_them() {
    for bad in [
        "\u{0}", "\u{1}", "\u{1b}", "\u{7f}", "\u{80}", "\u{9f}", "\u{fffe}", "\u{ffff}",
    ] {
        let e = err(&format!("a: 1\nb: x{bad}y\n"));
        assert_eq!(e.message, "control characters are not allowed", "{bad:?}");
        assert_eq!((e.line, e.column), (2, 5), "{bad:?}");
    }
    // In a comment or a quoted scalar too: the reader refuses them before any token.
    assert_eq!(
        err("# \u{7}\na: 1\n").message,
        "control characters are not allowed"
    );
    // Past the first screening chunk.
    let long = format!("{}: \u{2}\n", "k".repeat(200));
    assert_eq!(err(&long).column, 203);
    // Allowed: tab, CR, NEL, NBSP, BOM, the rest of the BMP and beyond, and escapes.
    let ok = "a: \"x\ty\"\r\nb: x\u{85}y\u{a0}\u{feff}\u{fffd}\u{10000}\nc: \"\\x01\\0\"\n";
    assert!(parse_stream(ok).is_ok());
}

#[test]
fn yaml_directive_versions() {
    assert!(parse_stream("%YAML 1.1\n---\na: 1\n").is_ok());
    assert!(parse_stream("%YAML   1.1 # why not\n%TAG !e! tag:e.com,2000:\n---\na: 1\n").is_ok());
    // go-yaml v3 accepts 1.1 only, 1.2 included in what it refuses.
    for v in ["2.0", "1.2", "1.0", "0.9"] {
        let e = err(&format!("%YAML {v}\n---\na: 1\n"));
        assert_eq!(e.message, "found incompatible YAML document", "{v}");
        assert_eq!(e.line, 1);
    }
    let cases = [
        (
            "%YAML 1.1\n%YAML 1.1\n---\n",
            "found duplicate %YAML directive",
            2,
            1,
        ),
        (
            "%YAML 1.x\n---\n",
            "did not find expected version number",
            1,
            9,
        ),
        (
            "%YAML 1\n---\n",
            "did not find expected digit or '.' character",
            1,
            8,
        ),
        (
            "%YAML 1234567890.1\n---\n",
            "found extremely long version number",
            1,
            7,
        ),
        (
            "%YAML 1.1 x\n---\n",
            "did not find expected comment or line break",
            1,
            11,
        ),
        ("%FOO bar\n---\n", "found unknown directive name", 1, 2),
        (
            "% YAML 1.1\n---\n",
            "did not find expected directive name",
            1,
            2,
        ),
        (
            "%YA!ML 1.1\n---\n",
            "found unexpected non-alphabetical character",
            1,
            4,
        ),
    ];
    assert_errors(&cases);
}

#[test]
fn aliases_need_an_anchor_defined_before_them_in_the_document() {
    let e = err("a: 1\nb: *k\n");
    assert_eq!(
        (e.message.as_str(), e.line, e.column),
        ("unknown anchor 'k' referenced", 2, 4)
    );
    assert_eq!(err("{*k : v}").message, "unknown anchor 'k' referenced");
    assert_eq!(
        err("- *a\n- &a x\n").message,
        "unknown anchor 'a' referenced"
    );
    assert_eq!(
        err("a: &a 1\n---\nb: *a\n").message,
        "unknown anchor 'a' referenced"
    );
    assert!(parse_stream("a: &a 1\nb: *a\n---\nc: &a 2\nd: [*a, {*a : x}]\n").is_ok());
    // An anchor is defined from its node's start, so a node may hold an alias to itself
    // (go-yaml builds the cycle; expanding it fails later).
    assert!(parse_stream("a: &s [*s]\n").is_ok());
}

#[test]
fn a_second_anchor_or_tag_fails_in_the_enclosing_collection() {
    // libyaml's words (checked against kpt, i.e. go-yaml v3).
    let cases = [
        ("items:\n- &a &b {}\n", "did not find expected key", 2, 6),
        (
            "d:\n  - &a &b x\n",
            "did not find expected '-' indicator",
            2,
            8,
        ),
        ("d:\n  - &a &b k: v\n", "did not find expected key", 2, 8),
        ("d: [&a &b x]\n", "did not find expected ',' or ']'", 1, 8),
        (
            "d: {k: !t !u x}\n",
            "did not find expected ',' or '}'",
            1,
            11,
        ),
        ("{a: &a\n &b x}\n", "did not find expected ',' or '}'", 2, 2),
        ("k: &a !t &b x\n", "did not find expected key", 1, 10),
        ("&a &b x\n", "did not find expected <document start>", 1, 4),
        ("d: &a\n  &b k\n", "did not find expected key", 2, 3),
        ("a: 1\n&a &b k: v\n", "did not find expected key", 2, 4),
    ];
    assert_errors(&cases);
    // Properties of a mapping, then of its first key on the next line, are fine.
    let docs = parse_stream("d: &a !m\n  &b !k k: v\n").unwrap();
    let d = docs[0].root.get("d").unwrap();
    assert_eq!((d.anchor(), d.tag()), (Some("a"), Some("!m")));
    let Value::Mapping(pairs) = &d.value else {
        panic!("not a mapping")
    };
    assert_eq!(
        (pairs[0].key.anchor(), pairs[0].key.tag()),
        (Some("b"), Some("!k"))
    );
    assert_eq!(pairs[0].key.as_str(), Some("k"));
}
