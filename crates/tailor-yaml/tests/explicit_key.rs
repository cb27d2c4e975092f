//! `? key` / `:` followed by a sequence at the mapping's own column (an indentless sequence):
//! libyaml accepts it for explicit keys and their values, and go-yaml's emitter writes it for
//! keys longer than 128 characters, so tailor must read back what it writes. Found by fuzzing.
use tailor_yaml::{emit_node, parse_stream, EmitOptions};

#[test]
fn indentless_sequence_after_explicit_key_and_value() {
    let docs = parse_stream("? kkk\n:\n- a\n- b\n").unwrap();
    let v = docs[0].root.get("kkk").unwrap();
    assert_eq!(v.items().unwrap().len(), 2);
    let docs = parse_stream("?\n- a\n: v\n").unwrap();
    assert!(docs[0].root.pairs().unwrap()[0].key.is_sequence());
}

#[test]
fn long_keys_with_list_values_read_back() {
    let key = "k".repeat(200);
    let text = format!("{key}:\n- a\n- b\n");
    let node = parse_stream(&text).unwrap().remove(0).root;
    let out = emit_node(&node, EmitOptions::default());
    let again = parse_stream(&out).unwrap_or_else(|e| panic!("{out}: {e}"));
    assert_eq!(again[0].root.to_json().unwrap(), node.to_json().unwrap());
}
