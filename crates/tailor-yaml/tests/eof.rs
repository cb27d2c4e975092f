//! Block scalars that run to the very end of the input (no final line break): found by fuzzing,
//! they once made the parser rewind to its own line forever.
use tailor_yaml::parse_stream;

fn value(text: &str, key: &str) -> String {
    let docs = parse_stream(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    docs[0]
        .root
        .get(key)
        .and_then(|n| n.as_scalar())
        .unwrap()
        .to_string()
}

#[test]
fn header_at_end_of_input() {
    assert_eq!(value("k: |", "k"), "");
    assert_eq!(value("k: >-", "k"), "");
    assert_eq!(value("k: | # c", "k"), "");
}

#[test]
fn last_content_line_without_break() {
    // As libyaml: without a final break there is no break to keep.
    assert_eq!(value("a: 1\nk: |\n  x", "k"), "x");
    assert_eq!(value("a: 1\nk: |-\n  x\n  y", "k"), "x\ny");
    assert_eq!(value("k: >\n  a\n  b", "k"), "a b");
    assert_eq!(value("a: 1\nk: |\n  x\n  ", "k"), "x\n");
}
