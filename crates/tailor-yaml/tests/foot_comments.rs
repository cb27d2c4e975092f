//! Comments between two entries of a block collection: which of them close the entry before
//! (its foot) and which open the next (its head), and the blank line go-yaml's emitter writes
//! after a foot comment when the next line starts in its column. Every `want` is what go-yaml
//! v3 writes with kyaml's settings (indent 2, compact sequences) for the same input, checked
//! with the kubernetes-sigs/yaml fork at b6d8b45 (goyaml.v3), the one kpt reads and writes
//! with; kpt fn sink of a list that tailor writes reads them back where they were.
use tailor_yaml::{emit_document, parse_stream, EmitOptions, Node};

fn doc(src: &str) -> tailor_yaml::Document {
    let mut docs = parse_stream(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    assert_eq!(docs.len(), 1, "{src:?}");
    docs.remove(0)
}

/// One trip gives `want`, and a second trip gives it again.
fn assert_trip(src: &str, want: &str) {
    let once = emit_document(&doc(src), EmitOptions::default());
    assert_eq!(once, want, "first trip of {src:?}");
    let twice = emit_document(&doc(&once), EmitOptions::default());
    assert_eq!(twice, want, "second trip of {src:?}");
}

fn comments(n: &Node) -> (String, String) {
    n.comments()
        .map(|c| (c.head.clone(), c.foot.clone()))
        .unwrap_or_default()
}

#[test]
fn comments_right_below_content_and_followed_by_a_blank_line_close_it() {
    let d = doc("a: 1\n# c\n\nb: 1\n");
    let pairs = d.root.pairs().unwrap();
    assert_eq!(comments(&pairs[0].key), (String::new(), "# c".into()));
    assert_eq!(comments(&pairs[1].key), Default::default());
    assert_trip("a: 1\n# c\n\nb: 1\n", "a: 1\n# c\n\nb: 1\n");
    // Up to the first blank line; what follows it opens the next entry.
    assert_trip("a: 1\n# c\n\n# d\nb: 1\n", "a: 1\n# c\n\n# d\nb: 1\n");
    assert_trip("- a\n# c\n# d\n\n# e\n- b\n", "- a\n# c\n# d\n\n# e\n- b\n");
    // Whatever the content's last token: a plain scalar over lines, a block scalar, a quoted
    // scalar over lines, an anchored scalar.
    assert_trip("a: x\n  y\n# c\n\nb: 1\n", "a: x y\n# c\n\nb: 1\n");
    assert_trip("a: |\n  x\n# c\n\nb: 1\n", "a: |\n  x\n# c\n\nb: 1\n");
    // Written on one line, on the stream's first line, it is a head on the next trip: go-yaml
    // writes the blank line after it all the same and reads it away; tailor-yaml writes none,
    // so that it writes the same again, and go-yaml reads both texts alike.
    assert_trip("a: 'x\n  y'\n# c\n\nb: 1\n", "a: 'x y'\n# c\nb: 1\n");
    assert_trip("a: &x 1\n# c\n\nb: 1\n", "a: &x 1\n# c\n\nb: 1\n");
    // Inside a nested mapping, wherever the comment is indented.
    assert_trip(
        "a:\n  b: 1\n# c\n\n  d: 1\n",
        "a:\n  b: 1\n  # c\n\n  d: 1\n",
    );
    assert_trip(
        "a:\n  b: 1\n    # c\n\n  d: 1\n",
        "a:\n  b: 1\n  # c\n\n  d: 1\n",
    );
    // Dedented below a nested collection: the outer entry's foot.
    assert_trip("a:\n  b: 1\n# c\n\nd: 1\n", "a:\n  b: 1\n# c\n\nd: 1\n");
    assert_trip("a:\n  b:\n# c\n\nd: 1\n", "a:\n  b:\n# c\n\nd: 1\n");
    assert_trip("a:\n- x: 1\n# c\n\nb: 1\n", "a:\n- x: 1\n# c\n\nb: 1\n");
}

#[test]
fn comments_that_open_the_next_entry_stay_its_head() {
    // Without a blank line after them, with one before them, or after a token the scanner
    // has not left the line of (a one-line quoted scalar, a flow collection, a line comment)
    // or an empty value: the next entry's head, and the blank line goes.
    assert_trip("a: 1\n# c\nb: 1\n", "a: 1\n# c\nb: 1\n");
    assert_trip("a: 1\n\n# c\nb: 1\n", "a: 1\n# c\nb: 1\n");
    assert_trip("a: \"x\"\n# c\n\nb: 1\n", "a: \"x\"\n# c\nb: 1\n");
    assert_trip("a: [1]\n# c\n\nb: 1\n", "a: [1]\n# c\nb: 1\n");
    assert_trip("a: 1 # l\n# c\n\nb: 1\n", "a: 1 # l\n# c\nb: 1\n");
    assert_trip("a:\n# c\n\nb: 1\n", "a:\n# c\nb: 1\n");
    assert_trip("a: |\n  x\n\n# c\n\nb: 1\n", "a: |\n  x\n# c\nb: 1\n");
    let d = doc("a: \"x\"\n# c\n\nb: 1\n");
    let pairs = d.root.pairs().unwrap();
    assert_eq!(comments(&pairs[1].key), ("# c".into(), String::new()));
}

#[test]
fn a_comment_indented_under_an_indentless_sequence_opens_the_next_key() {
    // go-yaml's scanner opens no indentation for `k:\n- x`: a comment indented past the dash
    // belongs to what comes next in the mapping, unless a blank line parts it from that.
    let d = doc("a:\n- x\n  # c\nb: 1\n");
    let pairs = d.root.pairs().unwrap();
    assert_eq!(comments(&pairs[1].key), ("# c".into(), String::new()));
    assert_trip("a:\n- x\n  # c\nb: 1\n", "a:\n- x\n# c\nb: 1\n");
    assert_trip("a:\n- x\n  # c\n  # d\nb: 1\n", "a:\n- x\n# c\n# d\nb: 1\n");
    assert_trip("a:\n- x\n  # c\n\nb: 1\n", "a:\n- x\n# c\n\nb: 1\n");
    assert_trip(
        "a:\n- x\n  # c\n\n# d\nb: 1\n",
        "a:\n- x\n# c\n\n# d\nb: 1\n",
    );
    assert_trip(
        "x:\n  a:\n  - x\n    # c\n  b: 1\n",
        "x:\n  a:\n  - x\n  # c\n  b: 1\n",
    );
}

#[test]
fn a_foot_comment_is_parted_from_a_line_that_starts_in_its_column() {
    // The last item's foot of a compact sequence is written at the dash, the column of the
    // next key: go-yaml writes a blank line between them, or kpt fn sink reads the foot and
    // the next key's head as one head (argo-cd docs/operator-manual/application.yaml).
    let src = "metadata:\n  finalizers:\n    # f\n    - x\n    # c\n    # - y\n  # h\n  labels:\n    a: b\n";
    let want =
        "metadata:\n  finalizers:\n  # f\n  - x\n  # c\n  # - y\n\n  # h\n  labels:\n    a: b\n";
    assert_trip(src, want);
    let d = doc(want);
    let meta = d.root.get("metadata").unwrap().pairs().unwrap();
    assert_eq!(comments(&meta[1].key).0, "# h");
    // Not when the next line starts elsewhere.
    assert_trip("a:\n  b: 1\n  # c\n\nd: 1\n", "a:\n  b: 1\n  # c\nd: 1\n");
}

#[test]
fn past_the_first_line_a_foot_follows_any_content() {
    // go-yaml's scanner has no foot line while it is on the stream's first line, so there a
    // one-line quoted scalar, a flow collection or a line comment keeps the comments below it
    // for the next entry (the cases above). On any later line they close it as after a plain
    // scalar, and the blank line after them stays (kpt fn source, a ConfigMap's `data:`).
    for src in [
        "k: v\nx: [a, b]\n# foot\n\ny: 1\n",
        "k: v\nx: \"a\"\n# foot\n\ny: 1\n",
        "k: v\nx: a # l\n# foot\n\ny: 1\n",
        "k: v\nx: [a, b] # l\n# foot\n\ny: 1\n",
        "data:\n  x: \"a\"\n  # foot\n\n  y: 1\n",
        "data:\n  x: [a,\n    b]\n  # foot\n\n  y: 1\n",
    ] {
        let want = src.replace("[a,\n    b]", "[a, b]");
        assert_trip(src, &want);
    }
    let d = doc("k: v\nx: \"a\"\n# foot\n\ny: 1\n");
    let pairs = d.root.pairs().unwrap();
    assert_eq!(comments(&pairs[1].key), (String::new(), "# foot".into()));
}
