//! Writing the output: always one block-style ResourceList document with `items:`, or a plain
//! multi-document stream. Untouched objects are copied from their source text byte for byte.

use std::io::{self, Write};

use tailor_yaml::{
    emit_mapping_entry, emit_node_into, emit_sequence_items, EmitOptions, Node, Pair,
};

use super::resource::{Origin, Resource};
use super::results::KrmResult;

/// Output is written in chunks of about this size, so the whole list never sits in memory.
const CHUNK: usize = 1 << 16;

/// Collects output text and hands it to a writer whenever a chunk is full.
struct Chunked<'w, W: Write + ?Sized> {
    buf: String,
    out: &'w mut W,
}

impl<W: Write + ?Sized> Chunked<'_, W> {
    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.out.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(self) -> io::Result<()> {
        self.out.write_all(self.buf.as_bytes())
    }
}

/// The ResourceList as one string. Prefer [`write_resource_list_to`] for large outputs.
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
    let mut out = Vec::with_capacity(total + 256);
    // Writing to a Vec cannot fail, and every piece written is a str.
    let _ = write_resource_list_to(&mut out, items, function_config, results);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Streams the ResourceList to `out` item by item: peak memory does not grow with the output.
pub fn write_resource_list_to<W: Write + ?Sized>(
    out: &mut W,
    items: &[Resource],
    function_config: Option<&Node>,
    results: &[KrmResult],
) -> io::Result<()> {
    let mut w = Chunked {
        buf: String::with_capacity(CHUNK + 4096),
        out,
    };
    w.buf
        .push_str("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n");
    if items.is_empty() {
        w.buf.push_str("items: []\n");
    } else {
        w.buf.push_str("items:\n");
        for item in items {
            write_item(&mut w.buf, item);
            w.flush_if_full()?;
        }
    }
    let compact = EmitOptions::default();
    if let Some(fc) = function_config {
        let pair = Pair {
            key: Node::plain("functionConfig"),
            value: fc.clone(),
        };
        emit_mapping_entry(&mut w.buf, &pair, 0, compact);
    }
    if !results.is_empty() {
        w.buf.push_str("results:\n");
        let nodes: Vec<Node> = results.iter().map(KrmResult::to_node).collect();
        emit_sequence_items(&mut w.buf, &nodes, 0, compact);
    }
    w.finish()
}

fn write_item(out: &mut String, item: &Resource) {
    push_cluster_mark(out, item);
    if let (false, Origin::SeqItem { source, start, end }) = (item.is_dirty(), item.origin()) {
        if let Some(head) = item.head_comment() {
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
    let mut s = String::new();
    push_document_text(&mut s, item);
    s
}

/// A fanned-out copy starts with the comment naming its destination, in a stream or a
/// ResourceList (in files under `--output-dir` the directory names it).
fn push_cluster_mark(out: &mut String, item: &Resource) {
    if let Some(cluster) = item.cluster() {
        out.push_str(super::annotations::CLUSTER_MARK);
        out.push_str(cluster);
        out.push('\n');
    }
}

fn push_document_text(out: &mut String, item: &Resource) {
    if let (
        false,
        Origin::Document {
            source, start, end, ..
        },
    ) = (item.is_dirty(), item.origin())
    {
        if let Some(text) = strip_document_start(&source[*start..*end]) {
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
            return;
        }
    }
    let wide = match item.origin() {
        Origin::Document { wide_sequences, .. } => *wide_sequences,
        _ => false,
    };
    emit_node_into(
        out,
        item.node(),
        0,
        EmitOptions {
            wide_sequences: wide,
        },
    );
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

/// Objects as a multi-document YAML stream. Prefer [`write_stream_to`] for large outputs.
pub fn write_stream(items: &[Resource]) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        push_cluster_mark(&mut out, item);
        push_document_text(&mut out, item);
    }
    out
}

/// Streams the objects to `out` as a multi-document YAML stream, item by item.
pub fn write_stream_to<W: Write + ?Sized>(out: &mut W, items: &[Resource]) -> io::Result<()> {
    let mut w = Chunked {
        buf: String::with_capacity(CHUNK + 4096),
        out,
    };
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            w.buf.push_str("---\n");
        }
        push_cluster_mark(&mut w.buf, item);
        push_document_text(&mut w.buf, item);
        w.flush_if_full()?;
    }
    w.finish()
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

    /// Comments around untouched items come back where they were; an item with a foot
    /// comment but none above it gets no blank line before it (it once did).
    #[test]
    fn comments_around_untouched_items() {
        let src = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# above a\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n- apiVersion: v1\n  kind: B\n  metadata: {name: b}\n # below b\n";
        let input = read_input(src, &ParseOptions::default()).unwrap();
        assert_eq!(write_resource_list(&input.items, None, &[]), src);
    }

    /// Streaming writes the same bytes as building the string, also across chunk borders.
    #[test]
    fn streaming_matches_whole_string() {
        let mut src =
            String::from("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n");
        for i in 0..3000 {
            src.push_str(&format!(
                "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: c{i}}}\n"
            ));
        }
        src.push_str("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n");
        let mut input = read_input(&src, &ParseOptions::default()).unwrap();
        input.items[7].set_annotation("a", "b");
        let results = [KrmResult::error("e")];
        let whole = write_resource_list(&input.items, input.function_config.as_ref(), &results);
        let mut streamed = Vec::new();
        write_resource_list_to(
            &mut streamed,
            &input.items,
            input.function_config.as_ref(),
            &results,
        )
        .unwrap();
        assert!(whole.len() > 2 * CHUNK);
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        let mut streamed = Vec::new();
        write_stream_to(&mut streamed, &input.items).unwrap();
        assert_eq!(
            String::from_utf8(streamed).unwrap(),
            write_stream(&input.items)
        );
    }

    #[test]
    fn stream_documents_keep_their_text() {
        let src =
            "# header\napiVersion: v1\nkind: A   # x\nmetadata: {name: a}\n---\n# second\napiVersion: v1\nkind: B\nmetadata: {name: b}\n";
        let input = read_input(src, &ParseOptions::default()).unwrap();
        assert_eq!(write_stream(&input.items), src);
    }
}
