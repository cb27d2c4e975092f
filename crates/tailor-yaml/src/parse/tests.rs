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

/// Each input fails with that message, naming the line go-yaml names (0: none), with the
/// problem at that column.
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
fn sorted_keys_still_meet_their_duplicates() {
    // Sorted up to the repetition, which the in-order check must not pass over.
    let e = err("a: 1\nb: 2\nb: 3\nc: 4\n");
    assert_eq!(e.message, "mapping key \"b\" already defined at line 2");
    // The same key quoted and plain is one key, wherever the order breaks.
    let e = err("a: 1\nb: 2\nc: 3\n\"a\": 4\n");
    assert_eq!(e.message, "mapping key \"a\" already defined at line 1");
    assert!(parse_stream("a: 1\nb: 2\nc: 3\n").is_ok());
}

#[test]
fn spaces_are_counted_past_every_word_boundary() {
    for n in 0..20 {
        for tail in ["", "x", "\t", "\n"] {
            let text = format!("ab{}{tail}", " ".repeat(n));
            assert_eq!(count_spaces(text.as_bytes(), 2), n, "{text:?}");
        }
    }
    assert_eq!(count_spaces(b"  ", 2), 0);
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
        // A parser error on the first line: go-yaml names no line.
        assert_eq!((e.line, e.problem_line), (0, 1));
    }
    let cases = [
        (
            "%YAML 1.1\n%YAML 1.1\n---\n",
            "found duplicate %YAML directive",
            1,
            1,
        ),
        (
            "%YAML 1.x\n---\n",
            "did not find expected version number",
            0,
            9,
        ),
        (
            "%YAML 1\n---\n",
            "did not find expected digit or '.' character",
            0,
            8,
        ),
        (
            "%YAML 1234567890.1\n---\n",
            "found extremely long version number",
            0,
            7,
        ),
        (
            "%YAML 1.1 x\n---\n",
            "did not find expected comment or line break",
            0,
            11,
        ),
        ("%FOO bar\n---\n", "found unknown directive name", 0, 2),
        (
            "% YAML 1.1\n---\n",
            "could not find expected directive name",
            0,
            2,
        ),
        (
            "%YA!ML 1.1\n---\n",
            "found unexpected non-alphabetical character",
            0,
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
        ("items:\n- &a &b {}\n", "did not find expected key", 1, 6),
        (
            "d:\n  - &a &b x\n",
            "did not find expected '-' indicator",
            1,
            8,
        ),
        ("d:\n  - &a &b k: v\n", "did not find expected key", 1, 8),
        ("d: [&a &b x]\n", "did not find expected ',' or ']'", 0, 8),
        (
            "d: {k: !t !u x}\n",
            "did not find expected ',' or '}'",
            0,
            11,
        ),
        ("{a: &a\n &b x}\n", "did not find expected ',' or '}'", 1, 2),
        ("k: &a !t &b x\n", "did not find expected key", 0, 10),
        ("&a &b x\n", "did not find expected <document start>", 0, 4),
        ("d: &a\n  &b k\n", "did not find expected key", 1, 3),
        ("a: 1\n&a &b k: v\n", "did not find expected key", 1, 4),
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

/// Each document's value as compact JSON, or the error as go-yaml prints it.
fn read(src: &str) -> String {
    match parse_stream(src) {
        Err(e) => e.to_string(),
        Ok(docs) => docs
            .iter()
            .filter(|d| !d.empty)
            .map(|d| {
                d.root
                    .to_json()
                    .map_or_else(|e| e.to_string(), |j| j.to_string())
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Each input reads as go-yaml v3 reads it (values and messages checked against go-yaml
/// v3.0.1, built from its sources, and kpt fn source).
fn assert_reads(cases: &[(&str, &str)]) {
    for &(src, want) in cases {
        assert_eq!(read(src), want, "{src:?}");
    }
}

#[test]
fn plain_scalars_in_flow_collections_end_where_go_yaml_ends_them() {
    // Inside `[]` and `{}` a `:` is a value indicator only before a blank; a plain scalar
    // ends at `,?[]{}`.
    assert_reads(&[
        ("k: [a:]", r#"{"k":["a:"]}"#),
        ("k: [a:, b]", r#"{"k":["a:","b"]}"#),
        ("k: [a::]", r#"{"k":["a::"]}"#),
        ("k: [a: b]", r#"{"k":[{"a":"b"}]}"#),
        ("k: [a:b, a :b]", r#"{"k":["a:b","a :b"]}"#),
        ("k: {x: a:}", r#"{"k":{"x":"a:"}}"#),
        ("k: {a:}", r#"{"k":{"a:":null}}"#),
        ("k: {a:, b}", r#"{"k":{"a:":null,"b":null}}"#),
        (
            "k: [1.2.3.4, 2001:db8::, \"::1\", fd00::]",
            r#"{"k":["1.2.3.4","2001:db8::","::1","fd00::"]}"#,
        ),
        ("k: [a:\n]", r#"{"k":[{"a":null}]}"#),
        ("k: [a\n---]", r#"{"k":["a ---"]}"#),
        // `?` is a key indicator anywhere in a flow collection, so it ends a plain scalar
        // too (go-yaml v3 refuses a URL with a query there).
        ("k: [?a]", r#"{"k":[{"a":null}]}"#),
        ("k: [a?b]", "yaml: did not find expected ',' or ']'"),
        (
            "k: {url: http://x?a=1}",
            "yaml: did not find expected ',' or '}'",
        ),
        // `:` right after a JSON-like key is a value indicator in flow context only.
        ("k: [\"a\":b, 'c':d]", r#"{"k":[{"a":"b"},{"c":"d"}]}"#),
        ("\"a\":b", "yaml: did not find expected <document start>"),
        ("x:\n  \"a\":b", "yaml: line 1: did not find expected key"),
        ("k: [a,b]:c", "yaml: did not find expected key"),
    ]);
}

#[test]
fn flow_entries_are_keys_by_libyamls_simple_key_rule() {
    assert_reads(&[
        // The `:` must be on the key's line.
        (
            "k: [a\n: b]",
            "yaml: line 1: did not find expected ',' or ']'",
        ),
        (
            "k: {a\n: b}",
            "yaml: line 1: did not find expected ',' or '}'",
        ),
        (
            "k: {\"a\n b\": c}",
            "yaml: line 1: did not find expected ',' or '}'",
        ),
        ("k: [a,\n b: c]", r#"{"k":["a",{"b":"c"}]}"#),
        ("k: {a:\n b}", r#"{"k":{"a":"b"}}"#),
        // No key after a value indicator.
        ("k: {a: b: c}", "yaml: did not find expected ',' or '}'"),
        ("k: [a: [b]: c]", "yaml: did not find expected ',' or ']'"),
        // Explicit keys, and libyaml's parser stepping over the token after `[?`.
        ("k: {? a\n : b}", r#"{"k":{"a":"b"}}"#),
        ("k: [? a : b, c]", r#"{"k":[{"a":"b"},"c"]}"#),
        ("k: {? : b}", r#"{"k":{"":"b"}}"#),
        ("k: [? : b]", "yaml: did not find expected ',' or ']'"),
        ("k: [? , a]", "yaml: did not find expected ',' or ']'"),
        ("k: [?]", "yaml: line 1: did not find expected ',' or ']'"),
        // Properties alone make an empty node; what follows them must end the entry.
        ("k: [&x : b]", r#"{"k":[{"":"b"}]}"#),
        ("k: [&a, b]", r#"{"k":[null,"b"]}"#),
        ("k: [&a *b]", "yaml: did not find expected ',' or ']'"),
        // Tokens that cannot start a node there.
        ("k: [:a]", "yaml: did not find expected node content"),
        ("k: {a: ?b}", "yaml: did not find expected node content"),
        ("k: [- a]", "yaml: did not find expected node content"),
        (
            "k: [a, @x]",
            "yaml: found character that cannot start any token",
        ),
        (
            "k: [|]",
            "yaml: found character that cannot start any token",
        ),
        (
            "k: [a,\n---\n]",
            "yaml: line 1: did not find expected node content",
        ),
        (
            "a: 1\nb: [\n",
            "yaml: line 2: did not find expected node content",
        ),
        // A tab left of the block collection's content may not continue a plain scalar.
        (
            "k: [a\n\tb]",
            "yaml: line 2: found a tab character that violates indentation",
        ),
        ("k: [a\n  \tb]", r#"{"k":["a b"]}"#),
        ("[a\n\tb]", r#"["a b"]"#),
    ]);
}

#[test]
fn anchors_and_tags_are_scanned_as_go_yaml_scans_them() {
    assert_reads(&[
        // Anchor names: ASCII letters, digits, `_` and `-`, then a blank or an indicator.
        (
            "k: &a.b x",
            "yaml: did not find expected alphabetic or numeric character",
        ),
        (
            "k: &é x",
            "yaml: did not find expected alphabetic or numeric character",
        ),
        ("k: &a:b x", r#"{"k":":b x"}"#),
        ("k: [&a x, *a:b]", r#"{"k":["x",{"x":"b"}]}"#),
        // Tags: `,[]` are URI characters, even in a flow collection.
        ("k: [!t, a]", r#"{"k":["a"]}"#),
        ("k: [!t]", "yaml: line 1: did not find expected ',' or ']'"),
        ("k: !<a b> x", "yaml: did not find the expected '>'"),
        ("k: !<tag:x> x", r#"{"k":"x"}"#),
        ("k: !!", "yaml: did not find expected tag URI"),
        ("k: !a%4x", "yaml: did not find URI escaped octet"),
        // A tag go-yaml cannot resolve makes a string of plain text; `!` is no tag.
        ("k: !t 1", r#"{"k":"1"}"#),
        ("k: !foo null", r#"{"k":"null"}"#),
        ("k: ! 1", r#"{"k":1}"#),
        ("k: !!str", r#"{"k":""}"#),
        // Properties where an implicit key may start make an empty key.
        ("&a : x\nb: *a", r#"{"":"x","b":null}"#),
        ("- !t : x", r#"[{"":"x"}]"#),
        (
            "k: &a : x",
            "yaml: mapping values are not allowed in this context",
        ),
    ]);
}

#[test]
fn parser_errors_name_the_line_go_yaml_names() {
    assert_reads(&[
        // go-yaml names the 0-based line of the collection the parser was in.
        (
            "metadata:\n  name: {a: b}-x\n",
            "yaml: line 1: did not find expected key",
        ),
        (
            "spec:\n  type: ClusterIP\n  # a placeholder\n  clusterIP: {PREFIX}.16\n",
            "yaml: line 1: did not find expected key",
        ),
        (
            "a:\n  - b\n  c: d\n",
            "yaml: line 1: did not find expected '-' indicator",
        ),
        (
            "- a\nb: c\n",
            "yaml: line 1: did not find expected '-' indicator",
        ),
        (
            "x:\n  k: [a, b\n",
            "yaml: line 1: did not find expected ',' or ']'",
        ),
        ("a:\n:", "yaml: line 1: did not find expected key"),
        ("-\n  : 1\n", "yaml: line 1: did not find expected key"),
        (
            "[a]\nb",
            "yaml: line 1: did not find expected <document start>",
        ),
        (
            "%YAML 1.1\n%YAML 1.1\n---\n",
            "yaml: line 1: found duplicate %YAML directive",
        ),
        // Nothing to name on the first lines.
        ("k: [a, b", "yaml: line 1: did not find expected ',' or ']'"),
        (
            "a: b: c\n",
            "yaml: mapping values are not allowed in this context",
        ),
        // A scanner error names the line of the token it was reading, counted from 1.
        (
            "x: 1\na: \"x\ny\n",
            "yaml: line 2: found unexpected end of stream",
        ),
        ("'", "yaml: found unexpected end of stream"),
        ("- a\n-b\n", "yaml: line 2: could not find expected ':'"),
        ("a: |\n  x\n y\n", "yaml: line 2: did not find expected key"),
    ]);
}

#[test]
fn tabs_separate_tokens_where_libyaml_skips_them() {
    assert_reads(&[
        // After `key:`, properties and `---` a tab is skipped...
        ("x:\ty", r#"{"x":"y"}"#),
        ("x: &a\ty", r#"{"x":"y"}"#),
        ("a: 1 \t\n", r#"{"a":1}"#),
        ("a: 1\n  \t\nb: 2", r#"{"a":1,"b":2}"#),
        // ...but not where an implicit key may start: after `-` or at the start of a line,
        // even with nothing after it. A plain scalar refuses one left of its indentation.
        (
            "-\t# c",
            "yaml: found character that cannot start any token",
        ),
        ("\t", "yaml: found character that cannot start any token"),
        (
            "a: \"1\"\n\t\nb: 2",
            "yaml: line 2: found character that cannot start any token",
        ),
        (
            "a: 1\n\t\nb: 2",
            "yaml: line 2: found a tab character that violates indentation",
        ),
        (
            "a: 1\n\t# c\nb: 2",
            "yaml: line 2: found a tab character that violates indentation",
        ),
    ]);
}

#[test]
fn documents_and_directives_as_go_yaml_v3_reads_them() {
    assert_reads(&[
        // After `...` the next document needs `---`; before the first one `...` is refused.
        (
            "a\n...\nb",
            "yaml: line 2: did not find expected <document start>",
        ),
        (
            "a\n... b",
            "yaml: line 1: did not find expected <document start>",
        ),
        ("a\n...\n---\nb", "\"a\"\n\"b\""),
        ("a\n...\n...\n", "\"a\""),
        ("...\na", "yaml: did not find expected node content"),
        // A directive in column 0 ends the document it interrupts.
        ("a: 1\n%YAML 1.1\n---\nb: 2", "{\"a\":1}\n{\"b\":2}"),
        (
            "a: 1\n\n%YAML 2.0\n---\na: 1\n",
            "yaml: line 2: found incompatible YAML document",
        ),
        // No plain scalar starts with `%`, `@` or a backquote.
        ("k: %x", "yaml: found character that cannot start any token"),
        // A block scalar in its collection's column is still the value.
        ("a:\n|\n x\nb: 1", r#"{"a":"x\n","b":1}"#),
        ("- \n>\n x", r#"["x"]"#),
    ]);
}

#[test]
fn json_surrogate_pairs_decode_and_lone_surrogates_are_refused() {
    // JSON writes a character beyond U+FFFF as a UTF-16 pair; go-yaml refuses it, tailor
    // decodes it (issue 19), in either case of the hex digits, in keys and in block context.
    assert_reads(&[
        (r#"{"k": "\ud83c\udf0d"}"#, r#"{"k":"🌍"}"#),
        (r#"{"\uD83C\uDF0D": "a\uD834\uDD1Eb"}"#, r#"{"🌍":"a𝄞b"}"#),
        ("k: \"\\ud800\\udc00 \\udbff\\udfff\"", r#"{"k":"𐀀 􏿿"}"#),
        // The BMP around the surrogates is as it was.
        (r#"k: "\ud7ff\ue000""#, "{\"k\":\"\u{d7ff}\u{e000}\"}"),
    ]);
    const INVALID: &str = "found invalid Unicode character escape code";
    const HIGH: &str = "is a high surrogate without a low one";
    const LOW: &str = "is a low surrogate without a high one";
    let cases = [
        // A high surrogate needs a `\u` low one right after it.
        (r#"k: "\ud83c""#, HIGH),
        (r#"k: "\ud83cx""#, HIGH),
        (r#"k: "\ud83c\ud83c""#, HIGH),
        (r#"k: "\ud83c\U0001f30d""#, HIGH),
        (r#"k: "\ud83c\u0041""#, HIGH),
        (r#"k: "\ud83c\udf0""#, HIGH),
        (r#"k: "\ud83c"#, HIGH),
        // A low one alone, or after a complete pair.
        (r#"k: "\udf0d""#, LOW),
        (r#"k: "\ud83c\udf0d\udf0d""#, LOW),
        // `\U` is YAML's own escape: no pairs there.
        (r#"k: "\U0000d83c\U0000df0d""#, INVALID),
        (r#"k: "\U00110000""#, INVALID),
    ];
    for (src, want) in cases {
        let e = err(src);
        assert!(
            e.message.starts_with(INVALID) && e.message.contains(want),
            "{src:?}: {e}"
        );
        // A scanner error on the first line: go-yaml names no line.
        assert_eq!(e.line, 0, "{src:?}");
    }
    // The message names the escape; the column points at its hex digits.
    let e = err("a: 1\nk: \"x\\udf0d\"");
    assert_eq!((e.line, e.problem_line, e.column), (2, 2, 8));
    assert_eq!(
        e.to_string(),
        format!("yaml: line 2: {INVALID}: \\udf0d {LOW} before it")
    );
    let e = err(r#"k: "\ud83c""#);
    assert!(
        e.message.ends_with(
            r"\ud83c is a high surrogate without a low one (\udc00 to \udfff) right after it"
        ),
        "{e}"
    );
}

/// After a `---` on the stream's first line go-yaml's scanner has no line a foot of the
/// marker could be on, so every comment after it, blank lines too, is the head comment of the
/// content, which kpt keeps on the object; after a later `---`, a block a blank line parts
/// from the content is the document's, which kpt drops (corpus: istio's calico.yaml).
#[test]
fn comments_after_a_first_line_marker_belong_to_the_content() {
    let head = |src: &str, i: usize| {
        let docs = parse_stream(src).unwrap();
        let d = &docs[i];
        // A block mapping's head comment is its first key's.
        let node = match &d.root.value {
            Value::Mapping(pairs) => pairs[0].key.comments().map(|c| c.head.clone()),
            _ => None,
        };
        let node = node.unwrap_or_default();
        (d.head_comment.clone(), node)
    };
    assert_eq!(head("---\n# A\n\nk: v\n", 0), (String::new(), "# A".into()));
    assert_eq!(
        head("---\n\n# B\n\nk: v\n", 0),
        (String::new(), "# B".into())
    );
    assert_eq!(head("# C\n\nk: v\n", 0), ("# C".into(), String::new()));
    assert_eq!(
        head("k: 0\n---\n# D\n\nk: v\n", 1),
        ("# D".into(), String::new())
    );
    // The same document cut out of the stream and read again keeps the stream's reading.
    let src = "k: 0\n---\n# D\n\nk: v\n";
    let docs = parse_stream(src).unwrap();
    let again = crate::reparse_document(src, docs[1].span, &ParseOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(again, docs[1].root);
}

/// A comment run left of the next token, when that token is dedented below the collection
/// that closes, is the foot of what precedes it (go-yaml's `yaml_parser_scan_comments`: the
/// line after the run is dedented below the current indentation and starts in another
/// column), so a writer puts it back inside the collection; a run in the next token's own
/// column stays its head (corpus: kyverno's `#      annotations:` in column 0 after a
/// deeper `labels:` mapping).
#[test]
fn a_comment_left_of_a_dedented_token_is_the_foot_of_what_precedes_it() {
    let foot_and_head = |src: &str| {
        let docs = parse_stream(src).unwrap();
        let Value::Mapping(root) = &docs[0].root.value else {
            panic!("not a mapping: {src}")
        };
        let Value::Mapping(outer) = &root[0].value.value else {
            panic!("not a mapping: {src}")
        };
        let Value::Mapping(inner) = &outer[0].value.value else {
            panic!("not a mapping: {src}")
        };
        let foot = inner
            .last()
            .and_then(|p| p.key.comments())
            .map(|c| c.foot.clone())
            .unwrap_or_default();
        let head = outer[1]
            .key
            .comments()
            .map(|c| c.head.clone())
            .unwrap_or_default();
        (foot, head)
    };
    // Left of the next key: the inner mapping's foot.
    assert_eq!(
        foot_and_head("a:\n  l:\n    x: 1\n# c\n  s: 2\n"),
        ("# c".to_string(), String::new())
    );
    // In the next key's column: its head, as before.
    assert_eq!(
        foot_and_head("a:\n  l:\n    x: 1\n  # c\n  s: 2\n"),
        (String::new(), "# c".to_string())
    );
    // Indented inside the closing mapping: its foot, as before.
    assert_eq!(
        foot_and_head("a:\n  l:\n    x: 1\n    # c\n  s: 2\n"),
        ("# c".to_string(), String::new())
    );
    // A run left of the token, then one in its column: foot, then head.
    assert_eq!(
        foot_and_head("a:\n  l:\n    x: 1\n# c\n  # d\n  s: 2\n"),
        ("# c".to_string(), "# d".to_string())
    );
    // A run between the two columns, then one in the token's: the first closes the innermost
    // mapping (kpt writes it under `x`), the second is the token's head.
    let docs = parse_stream("a:\n  l:\n    x: 1\n  # at\n# zero\nb: 2\n").unwrap();
    let root = docs[0].root.pairs().unwrap();
    let l = root[0].value.pairs().unwrap()[0].value.pairs().unwrap();
    assert_eq!(l[0].key.comments().unwrap().foot, "# at");
    assert_eq!(root[1].key.comments().unwrap().head, "# zero");
    // Closing a mapping that is a sequence's item, the next `-` dedented: the item's foot.
    let docs = parse_stream("s:\n  - a: 1\n    b: 2\n# c\n  - x\n").unwrap();
    let items = docs[0].root.pairs().unwrap()[0].value.items().unwrap();
    let item = items[0].pairs().unwrap();
    assert_eq!(item[1].key.comments().unwrap().foot, "# c");
}

/// The shortcuts for common shapes (a word after `key:` or `- `, a word on the line below
/// `key:`, a scalar ending at a dedented line, a quoted scalar on one line) give what the
/// general paths give: the cases right at their edges.
#[test]
fn shortcuts_read_what_the_general_paths_read() {
    let root = |src: &str| parse_stream(src).expect("parses").remove(0).root;
    let scalar = |n: &Node| n.as_scalar().map(str::to_string);
    // A word below `key:` with a comment or a blank line between still takes them.
    let n = root("a:\n  # above\n  b: c\nd:\n\n  e: f\n");
    let Value::Mapping(pairs) = &n.value else {
        panic!("not a mapping");
    };
    assert_eq!(
        pairs[0].value.comments().map(|c| c.head.as_str()),
        None,
        "the head goes to the first key"
    );
    let Value::Mapping(inner) = &pairs[0].value.value else {
        panic!("not a mapping");
    };
    assert_eq!(
        inner[0].key.comments().map(|c| c.head.as_str()),
        Some("# above")
    );
    // A scalar continued on a more indented line is folded; at the key's column it ends.
    let n = root("a: one\n  two\nb: x\n");
    let Value::Mapping(pairs) = &n.value else {
        panic!("not a mapping");
    };
    assert_eq!(scalar(&pairs[0].value).as_deref(), Some("one two"));
    assert_eq!(pairs[0].value.span, Span { start: 3, end: 12 });
    assert_eq!(pairs[1].key.span, Span { start: 13, end: 14 });
    // Single-quoted: a doubled quote or a line break takes the general path.
    let n = root("a: 'it''s'\nb: 'x\n  y'\nc: 'plain'\n");
    let Value::Mapping(pairs) = &n.value else {
        panic!("not a mapping");
    };
    let texts: Vec<_> = pairs.iter().map(|p| scalar(&p.value)).collect();
    assert_eq!(
        texts,
        [
            Some("it's".into()),
            Some("x y".into()),
            Some("plain".into())
        ]
    );
    assert_eq!(pairs[2].value.span, Span { start: 25, end: 32 });
    // A word where no value may be a key is refused where the general path refuses it.
    assert_errors(&[(
        "a: b: c\n",
        "mapping values are not allowed in this context",
        0,
        6,
    )]);
}
