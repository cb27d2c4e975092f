//! `Node::set_string` keeps the author's quoting where it can and quotes ambiguous text.
use tailor_yaml::{emit_document, parse_stream};

fn rewrite(src: &str, text: &str) -> String {
    let mut doc = parse_stream(src).unwrap().remove(0);
    doc.root.get_mut("k").unwrap().set_string(text);
    emit_document(&doc, Default::default())
}

#[test]
fn keeps_quoting_and_quotes_ambiguous_plain_text() {
    assert_eq!(rewrite("k: a-{{.x}}\n", "a-b"), "k: a-b\n");
    assert_eq!(rewrite("k: a-{{.x}}\n", "3"), "k: \"3\"\n");
    assert_eq!(rewrite("k: 'a-{{.x}}'\n", "on"), "k: 'on'\n");
    assert_eq!(rewrite("k: \"{{.x}}\"\n", "v"), "k: \"v\"\n");
    assert_eq!(rewrite("k: |\n  a\n", "b\nc\n"), "k: |\n  b\n  c\n");
}
