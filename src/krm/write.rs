//! Writing the output: always one block-style ResourceList document with `items:`, or a plain
//! multi-document stream. Untouched objects are copied from their source text byte for byte.

use tailor_yaml::{emit_mapping_entry, emit_node, emit_sequence_items, EmitOptions, Node, Pair};

use super::resource::{Origin, Resource};
use super::results::KrmResult;

pub fn write_resource_list(
    items: &[Resource],
    function_config: Option<&Node>,
    results: &[KrmResult],
) -> String {
    let total: usize = items
        .iter()
        .map(|r| match r.origin() {
            Origin::SeqItem { start, end, .. } => end - start + 3,
            _ => 256,
        })
        .sum();
    let mut out = String::with_capacity(total + 256);
    out.push_str("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n");
    if items.is_empty() {
        out.push_str("items: []\n");
    } else {
        out.push_str("items:\n");
        for item in items {
            write_item(&mut out, item);
        }
    }
    let compact = EmitOptions::default();
    if let Some(fc) = function_config {
        let pair = Pair {
            key: Node::plain("functionConfig"),
            value: fc.clone(),
        };
        emit_mapping_entry(&mut out, &pair, 0, compact);
    }
    if !results.is_empty() {
        out.push_str("results:\n");
        let nodes: Vec<Node> = results.iter().map(KrmResult::to_node).collect();
        emit_sequence_items(&mut out, &nodes, 0, compact);
    }
    out
}

fn write_item(out: &mut String, item: &Resource) {
    if let (false, Origin::SeqItem { source, start, end }) = (item.is_dirty(), item.origin()) {
        if let Some(head) = item.node().comments().map(|c| c.head.as_str()) {
            for line in head.split('\n') {
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push_str("- ");
        out.push_str(&source[*start..*end]);
        out.push('\n');
        return;
    }
    emit_sequence_items(
        out,
        std::slice::from_ref(item.node()),
        0,
        EmitOptions::default(),
    );
}

/// The text of one object as a standalone document (no `---`), verbatim when untouched.
pub fn document_text(item: &Resource) -> String {
    if let (
        false,
        Origin::Document {
            source, start, end, ..
        },
    ) = (item.is_dirty(), item.origin())
    {
        if let Some(text) = strip_document_start(&source[*start..*end]) {
            let mut s = text.to_string();
            if !s.ends_with('\n') {
                s.push('\n');
            }
            return s;
        }
    }
    let wide = match item.origin() {
        Origin::Document { wide_sequences, .. } => *wide_sequences,
        _ => false,
    };
    emit_node(
        item.node(),
        EmitOptions {
            wide_sequences: wide,
        },
    )
}

/// Drops a bare `---` line opening a document's text; `None` when the marker line carries
/// more than the marker (then the tree is written instead).
fn strip_document_start(text: &str) -> Option<&str> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if t.starts_with("---") {
            if t != "---" {
                return None;
            }
            return Some(&text[offset + line.len()..]);
        }
        if !(t.is_empty() || t.trim_start().starts_with('#') || t.starts_with('%')) {
            return Some(text);
        }
        offset += line.len();
    }
    Some(text)
}

/// Objects as a multi-document YAML stream.
pub fn write_stream(items: &[Resource]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&document_text(item));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::krm::read_input;
    use tailor_yaml::ParseOptions;

    #[test]
    fn untouched_items_are_copied_and_items_always_present() {
        let src = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap  # odd spacing kept\n  metadata: {name: a}\n  data: {\"k\": 'v'}\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n";
        let input = read_input(src, &ParseOptions::default()).unwrap();
        let out = write_resource_list(&input.items, input.function_config.as_ref(), &[]);
        assert_eq!(out, src);
        let out = write_resource_list(&[], None, &[]);
        assert_eq!(
            out,
            "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
        );
    }

    #[test]
    fn stream_documents_keep_their_text() {
        let src =
            "# header\napiVersion: v1\nkind: A   # x\n---\n# second\napiVersion: v1\nkind: B\n";
        let input = read_input(src, &ParseOptions::default()).unwrap();
        assert_eq!(write_stream(&input.items), src);
    }
}
