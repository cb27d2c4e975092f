//! tailor-yaml: parsing never panics and refuses the characters YAML forbids; for every stream
//! it accepts, emitting each document and parsing the text again gives the same structure, and
//! emitting is a fixpoint after one trip. Items of a ResourceList handed over while it is
//! parsed are the plain parse's nodes, and parse again exactly (the input as it is, and its
//! lines as the items of a `kind: List`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tailor_fuzz::{equivalent, shape};
use tailor_yaml::{emit_document, parse_stream, EmitOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    tailor_fuzz::check_handoff(text);
    tailor_fuzz::check_handoff(&format!("kind: List\nitems:\n{text}"));
    let parsed = parse_stream(text);
    if tailor_fuzz::has_disallowed_characters(text) {
        assert!(
            parsed.is_err(),
            "a control character was accepted:\n{text:?}"
        );
        return;
    }
    let Ok(docs) = parsed else {
        return;
    };
    for doc in docs.iter().filter(|d| !d.empty) {
        let _ = doc.root.to_json();
        let opts = EmitOptions {
            wide_sequences: doc.wide_sequences,
        };
        let once = emit_document(doc, opts);
        let again = parse_stream(&once).unwrap_or_else(|e| {
            panic!("emitted text does not parse: {e}\n--- input\n{text}\n--- emitted\n{once}")
        });
        let again: Vec<_> = again.into_iter().filter(|d| !d.empty).collect();
        assert_eq!(
            again.len(),
            1,
            "one document became {}:\n{once}",
            again.len()
        );
        let (before, after) = (shape(&doc.root), shape(&again[0].root));
        assert!(
            equivalent(&before, &after),
            "round trip changed the structure\n--- input\n{text}\n--- emitted\n{once}\n--- before\n{before:?}\n--- after\n{after:?}"
        );
        // Once the text means exactly the same, writing it again gives the same bytes (not
        // so after one of the accepted go-yaml changes: a folded scalar grows each trip).
        if before == after {
            let twice = emit_document(&again[0], opts);
            assert_eq!(once, twice, "emitting is not a fixpoint\n--- input\n{text}");
        }
    }
});
