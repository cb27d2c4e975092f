//! Building one document of a stream again from the stream's text, so a reader need not hold
//! every document's tree at once (the stream counterpart of `reparse_item`).

use crate::node::{Node, Value};
use crate::parse::parse_cut_document;
use crate::{parse_stream_with, Error, ParseOptions, Span};

/// The root of the document that `parse_stream_with(src, opts)` read at `span` (its
/// `Document::span`), parsed again from that text alone: the same node, spans included. A
/// document's content depends on no other document (anchors, tags and directives are its
/// own), so its text parses to the same tree; `None` when it does not hold exactly one
/// document with content, which a span of that stream always does.
pub fn reparse_document(src: &str, span: Span, opts: &ParseOptions) -> Result<Option<Node>, Error> {
    let (start, end) = (span.start as usize, span.end as usize);
    let Some(text) = src.get(start..end) else {
        return Ok(None);
    };
    let docs = if start == 0 {
        parse_stream_with(text, opts)?
    } else {
        parse_cut_document(text, opts)?
    };
    let mut docs = docs.into_iter().filter(|d| !d.empty);
    let (Some(doc), None) = (docs.next(), docs.next()) else {
        return Ok(None);
    };
    let mut root = doc.root;
    shift_spans(&mut root, span.start);
    Ok(Some(root))
}

/// Moves every span of the tree `by` bytes later: from offsets in a document's text to
/// offsets in the stream holding it.
fn shift_spans(node: &mut Node, by: u32) {
    node.span.start += by;
    node.span.end += by;
    match &mut node.value {
        Value::Mapping(pairs) => {
            for p in pairs {
                shift_spans(&mut p.key, by);
                shift_spans(&mut p.value, by);
            }
        }
        Value::Sequence(items) => {
            for item in items {
                shift_spans(item, by);
            }
        }
        Value::Scalar(_) | Value::Alias(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_comes_back_the_same() {
        let src = "# lead\napiVersion: v1\nkind: A # c\nmetadata: {name: a}\n...\n%YAML 1.1\n---\n# head\n\nkind: B\nx: &a [1, {k: *a}]\n...\n# between\n--- !t\nk: |\n  text\n# foot\n---\n---\nlast: 1";
        let opts = ParseOptions::default();
        let docs = parse_stream_with(src, &opts).unwrap();
        let mut seen = 0;
        for doc in docs.iter().filter(|d| !d.empty) {
            let again = reparse_document(src, doc.span, &opts).unwrap();
            assert_eq!(
                again.as_ref(),
                Some(&doc.root),
                "{:?}",
                &src[doc.span.start as usize..doc.span.end as usize]
            );
            seen += 1;
        }
        assert_eq!(seen, 4);
        assert_eq!(
            reparse_document(src, Span { start: 0, end: 0 }, &opts).unwrap(),
            None
        );
    }
}
