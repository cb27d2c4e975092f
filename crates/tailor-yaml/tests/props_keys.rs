//! A tag or anchor that opens a line belongs to the first key of the mapping that starts
//! there (libyaml saves the simple key at the property). Found by fuzzing.
use tailor_yaml::parse_stream;

#[test]
fn properties_before_a_quoted_first_key() {
    let root = parse_stream("data:\n  !!str 'k': v\n  &a 'k2': w\n  k3: x\n")
        .unwrap()
        .remove(0)
        .root;
    let data = root.get("data").unwrap();
    let pairs = data.pairs().unwrap();
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs[0].key.tag(), Some("!!str"));
    assert_eq!(pairs[1].key.anchor(), Some("a"));
}

#[test]
fn properties_on_a_sequence_item_key() {
    let root = parse_stream("- !!str 'k': v\n  k2: w\n")
        .unwrap()
        .remove(0)
        .root;
    let item = &root.items().unwrap()[0];
    assert_eq!(item.pairs().unwrap().len(), 2);
    assert_eq!(item.get("k2").and_then(|n| n.as_str()), Some("w"));
}

#[test]
fn anchored_key_and_alias() {
    let root = parse_stream("a:\n  &b k: v\n  z: *b\n")
        .unwrap()
        .remove(0)
        .root;
    let a = root.get("a").unwrap();
    assert_eq!(a.pairs().unwrap()[0].key.anchor(), Some("b"));
    assert!(matches!(&a.get("z").unwrap().value, tailor_yaml::Value::Alias(n) if n == "b"));
}

#[test]
fn key_properties_are_written_back() {
    let text = "data:\n  !!str 'k': v\n  &a 'k2': w\n  z: *a\n";
    let node = parse_stream(text).unwrap().remove(0).root;
    let out = tailor_yaml::emit_node(&node, Default::default());
    assert_eq!(out, text);
}
