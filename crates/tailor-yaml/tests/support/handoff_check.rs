//! The property of `parse_stream_handing_items` and `reparse_item`, shared by
//! `tests/handoff.rs` and the `yaml_roundtrip` fuzz target (which includes this file with
//! `#[path]`): items handed over are the plain parse's nodes, each self-contained one parses
//! again to exactly that node, the rest of the tree is the plain parse's, and errors are the
//! same.

use tailor_yaml::{
    parse_stream_handing_items, parse_stream_with, reparse_item, Handoff, ParseOptions, Value,
};

/// Parses `src` both ways and checks every handed item, its rebuild, and the rest of the
/// tree. Returns how many items were handed over.
pub fn check_handoff(src: &str) -> usize {
    let opts = ParseOptions::default();
    let plain = parse_stream_with(src, &opts);
    let mut handed: Vec<Handoff> = Vec::new();
    let sunk = parse_stream_handing_items(src, &opts, &mut |h| {
        handed.push(h);
        None
    });
    let (plain, sunk) = match (plain, sunk) {
        (Ok(p), Ok(s)) => (p, s),
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{src:?}");
            return 0;
        }
        (a, b) => panic!(
            "one parse failed: {:?} / {:?} for {src:?}",
            a.err(),
            b.err()
        ),
    };
    assert_eq!(plain.len(), sunk.len());
    if handed.is_empty() {
        assert_eq!(plain, sunk, "{src:?}");
        return 0;
    }
    let items = match plain[0].root.get("items").map(|n| &n.value) {
        Some(Value::Sequence(items)) => items,
        other => panic!("items handed over from {other:?}"),
    };
    for h in &handed {
        assert_eq!(&h.node, &items[h.index], "item {} of {src:?}", h.index);
        if h.self_contained {
            let again = reparse_item(src, &h.resume)
                .unwrap_or_else(|e| panic!("item {} does not parse again: {e}\n{src:?}", h.index));
            assert_eq!(
                &again, &items[h.index],
                "rebuilt item {} of {src:?}",
                h.index
            );
        }
    }
    // Put the handed nodes back: the rest of the documents is what the plain parse built.
    let mut sunk = sunk;
    let Some(Value::Sequence(placeholders)) = sunk[0].root.get_mut("items").map(|n| &mut n.value)
    else {
        panic!("no items left in {src:?}");
    };
    for h in handed.iter() {
        assert!(placeholders[h.index].is_null());
        assert_eq!(placeholders[h.index].span, items[h.index].span);
        placeholders[h.index] = h.node.clone();
    }
    assert_eq!(plain, sunk, "{src:?}");
    handed.len()
}
