//! The property of `parse_stream_handing_items` and `reparse_item`, shared by
//! `tests/handoff.rs` and the `yaml_roundtrip` fuzz target (which includes this file with
//! `#[path]`): items handed over are the plain parse's nodes, each self-contained one parses
//! again to exactly that node, the rest of the tree is the plain parse's, and errors are the
//! same.

use tailor_yaml::{
    parse_stream_handing, parse_stream_with, reparse_item, Handed, Handoff, Node, ParseOptions,
    Value,
};

/// Parses `src` both ways and checks every handed item, its rebuild, and the rest of the
/// tree. Returns how many items were handed over.
pub fn check_handoff(src: &str) -> usize {
    check_handoff_of(src, Handed::Items)
}

/// The sequence `handed` names in a document's root, where the entries were handed from.
fn handed_sequence(root: &mut Node, handed: Handed) -> Option<&mut Node> {
    match handed {
        Handed::Items => root.get_mut("items"),
        Handed::TailorClusters => root.get_mut("spec")?.get_mut("clusters"),
    }
}

/// [`check_handoff`] for the entries of the sequence `handed` names.
pub fn check_handoff_of(src: &str, which: Handed) -> usize {
    let opts = ParseOptions::default();
    let plain = parse_stream_with(src, &opts);
    let mut handed: Vec<Handoff> = Vec::new();
    let sunk = parse_stream_handing(src, &opts, which, &mut |h| {
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
    let mut plain = plain;
    let items = match handed_sequence(&mut plain[0].root, which).map(|n| &n.value) {
        Some(Value::Sequence(items)) => items.clone(),
        other => panic!("items handed over from {other:?}"),
    };
    for pair in handed.windows(2) {
        assert!(
            pair[0].index < pair[1].index,
            "entries handed in order, once: {src:?}"
        );
    }
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
    let Some(Value::Sequence(placeholders)) =
        handed_sequence(&mut sunk[0].root, which).map(|n| &mut n.value)
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
