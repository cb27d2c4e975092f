//! Writing the output: one ResourceList document with `items:` (JSON when the input was), or
//! a plain multi-document stream. Untouched objects are copied from their source text byte
//! for byte; changed ones are written from their tree, in the style they were read in, with
//! the comments above them kept.

use std::borrow::Borrow;
use std::io::{self, Write};
use std::ops::Range;

use tailor_yaml::{
    emit_mapping_entry, emit_node, emit_node_into, emit_sequence_items, EmitOptions, Node, Pair,
    Style, Value,
};

use super::resource::{Origin, Resource};
use super::results::KrmResult;

/// Output is written in chunks of about this size, so the whole list never sits in memory.
const CHUNK: usize = 1 << 16;

/// How a ResourceList is written: as the input was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListSyntax {
    /// Block YAML, items after `- `, as kpt and kustomize write it.
    #[default]
    Yaml,
    /// One JSON object: JSON in stays JSON out.
    Json,
}

/// What an object finished as it was read is held as: the text its writer would write for it
/// (`Resource::into_rendered`), so the writer copies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rendering {
    /// An item of a ResourceList in this syntax (`- ` included in YAML).
    Item(ListSyntax),
    /// A document of a stream (`-o stream`), without the `---` the writer puts between them.
    Stream,
    /// A document of a file written back under `--output-dir`, with what came before its
    /// content in the file.
    File,
}

/// The text `item` is written as in `rendering`'s output: what the writer of that output
/// writes for it, byte for byte, but for a fanned-out copy's `# tailor.dev/cluster` comment,
/// which the writer puts before it (so a tree parsed from the text is the copy's own). Held
/// until the end, possibly by the hundred thousand, it has no spare capacity.
pub fn rendered_text(item: &Resource, rendering: Rendering) -> String {
    rendered_texts(std::slice::from_ref(item), rendering).0
}

/// The texts [`rendered_text`] makes for `items`, one after the other in one text with no
/// spare capacity, and where each is in it: a destination's copies held in one allocation
/// rather than one each.
pub fn rendered_texts(items: &[Resource], rendering: Rendering) -> (String, Vec<Range<usize>>) {
    let render = |out: &mut String| {
        out.clear();
        let spans = items
            .iter()
            .map(|item| {
                let start = out.len();
                push_rendered(out, item, rendering);
                start..out.len()
            })
            .collect();
        (String::from(out.as_str()), spans)
    };
    // Rendered where the capacity of the last texts is at hand, then copied out at their size:
    // one allocation, where growing a text from empty reallocates it at every doubling.
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => {
            let texts = render(&mut scratch);
            if scratch.capacity() > SCRATCH_KEPT {
                *scratch = String::new();
            }
            texts
        }
        Err(_) => render(&mut String::new()),
    })
}

/// What `rendering`'s writer writes for `item`, but for its cluster comment.
fn push_rendered(out: &mut String, item: &Resource, rendering: Rendering) {
    match rendering {
        Rendering::Item(ListSyntax::Yaml) => push_item_body(out, item),
        Rendering::Item(ListSyntax::Json) => json_item(out, item),
        Rendering::Stream => push_document_body(out, item, Framing::Stream),
        Rendering::File => push_file_document(out, item),
    }
}

thread_local! {
    /// Where [`rendered_texts`] renders, on each thread that renders.
    static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// The most capacity [`rendered_texts`] keeps between calls: a rare huge one's is let go.
const SCRATCH_KEPT: usize = 4 << 20;

/// The bytes the writer of `rendering`'s output writes for a rendered object: its cluster
/// comment and its text.
pub fn rendered_len(item: &Resource) -> usize {
    item.rendered().map_or(0, |(rendering, text)| {
        let marked = matches!(
            rendering,
            Rendering::Item(ListSyntax::Yaml) | Rendering::Stream
        );
        let mark = cluster_mark(item).filter(|_| marked);
        mark.map_or(0, |pieces| pieces.iter().map(|p| p.len()).sum()) + text.len()
    })
}

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

/// The ResourceList as one YAML string. Prefer [`write_resource_list_to`] for large outputs.
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
    let _ = write_resource_list_to(&mut out, items, function_config, results, ListSyntax::Yaml);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Streams the ResourceList to `out` item by item: peak memory does not grow with the output.
pub fn write_resource_list_to<W: Write + ?Sized>(
    out: &mut W,
    items: &[Resource],
    function_config: Option<&Node>,
    results: &[KrmResult],
    syntax: ListSyntax,
) -> io::Result<()> {
    write_list(out, items, function_config, results, syntax)
}

/// [`write_resource_list_to`] taking the items by value: `each` readies an item just before
/// it is written (standalone mode records kpt's path annotations), and the item is dropped
/// right after, so a tree `each` builds for a deferred object is never held with the others.
pub fn write_owned_resource_list_to<W: Write + ?Sized>(
    out: &mut W,
    items: Vec<Resource>,
    mut each: impl FnMut(&mut Resource),
    function_config: Option<&Node>,
    results: &[KrmResult],
    syntax: ListSyntax,
) -> io::Result<()> {
    let items = items.into_iter().map(|mut item| {
        each(&mut item);
        item
    });
    write_list(out, items, function_config, results, syntax)
}

/// The list in `syntax`, written to `out` a chunk at a time.
fn write_list<W: Write + ?Sized, R: Borrow<Resource>>(
    out: &mut W,
    items: impl IntoIterator<Item = R>,
    function_config: Option<&Node>,
    results: &[KrmResult],
    syntax: ListSyntax,
) -> io::Result<()> {
    let mut w = Chunked {
        buf: String::with_capacity(CHUNK + 4096),
        out,
    };
    match syntax {
        ListSyntax::Yaml => yaml_list(&mut w, items, function_config, results)?,
        ListSyntax::Json => json_list(&mut w, items, function_config, results)?,
    }
    w.finish()
}

fn yaml_list<W: Write + ?Sized, R: Borrow<Resource>>(
    w: &mut Chunked<'_, W>,
    items: impl IntoIterator<Item = R>,
    function_config: Option<&Node>,
    results: &[KrmResult],
) -> io::Result<()> {
    w.buf
        .push_str("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n");
    let mut items = items.into_iter().peekable();
    if items.peek().is_none() {
        w.buf.push_str("items: []\n");
    } else {
        w.buf.push_str("items:\n");
        for item in items {
            write_item(&mut w.buf, item.borrow());
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
    Ok(())
}

/// The ResourceList as one line of JSON; untouched items keep their text. A fan-out's
/// `# tailor.dev/cluster` comment has no place in JSON: the copies' paths name their cluster.
fn json_list<W: Write + ?Sized, R: Borrow<Resource>>(
    w: &mut Chunked<'_, W>,
    items: impl IntoIterator<Item = R>,
    function_config: Option<&Node>,
    results: &[KrmResult],
) -> io::Result<()> {
    w.buf
        .push_str(r#"{"apiVersion":"config.kubernetes.io/v1","kind":"ResourceList","items":["#);
    for (i, item) in items.into_iter().enumerate() {
        let item = item.borrow();
        if i > 0 {
            w.buf.push(',');
        }
        json_item(&mut w.buf, item);
        w.flush_if_full()?;
    }
    w.buf.push(']');
    if let Some(fc) = function_config {
        w.buf.push_str(r#","functionConfig":"#);
        push_json(&mut w.buf, fc);
    }
    if !results.is_empty() {
        w.buf.push_str(r#","results":["#);
        for (i, r) in results.iter().enumerate() {
            if i > 0 {
                w.buf.push(',');
            }
            push_json(&mut w.buf, &r.to_node());
        }
        w.buf.push(']');
    }
    w.buf.push_str("}\n");
    Ok(())
}

/// One item of a JSON list: its text when untouched or rendered as it was read, else its
/// tree as JSON.
fn json_item(out: &mut String, item: &Resource) {
    if let Some((Rendering::Item(_), text)) = item.rendered() {
        out.push_str(text);
        return;
    }
    match (item.is_dirty(), item.origin()) {
        (false, Origin::SeqItem { source, start, end }) => out.push_str(&source[*start..*end]),
        _ => push_json(out, item.node()),
    }
}

/// A node as JSON (go-yaml's typing of its scalars). A node JSON cannot hold (an alias past
/// go-yaml's limits) is written as flow YAML, which every reader of the list still reads.
fn push_json(out: &mut String, node: &Node) {
    match node.to_json().map(|j| serde_json::to_string(&j)) {
        Ok(Ok(text)) => out.push_str(&text),
        _ => {
            let mut flow = node.clone();
            flow.style = Style::Flow;
            out.push_str(emit_node(&flow, EmitOptions::default()).trim_end());
        }
    }
}

fn write_item(out: &mut String, item: &Resource) {
    push_cluster_mark(out, item);
    push_item_body(out, item);
}

/// An item of a YAML list as [`write_item`] writes it, but for its cluster comment.
fn push_item_body(out: &mut String, item: &Resource) {
    if let Some((Rendering::Item(_), text)) = item.rendered() {
        out.push_str(text);
        return;
    }
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
    let mut text = String::new();
    emit_sequence_items(
        &mut text,
        std::slice::from_ref(item.node()),
        0,
        EmitOptions::default(),
    );
    push_comments_after_dash(out, &text);
}

/// An item written from its tree, with the comments above its `- ` moved after it, as kpt
/// writes them (`- # comment`, the following lines indented): a comment block in column 0
/// between items, blank lines in it, is one `kpt fn sink` writes inside the object.
fn push_comments_after_dash(out: &mut String, item: &str) {
    let comments: Vec<&str> = item
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .collect();
    let head_len: usize = comments.iter().map(|l| l.len()).sum();
    let first = comments.first().filter(|l| l.starts_with('#'));
    let (Some(first), Some(rest)) = (first, item[head_len..].strip_prefix("- ")) else {
        out.push_str(item);
        return;
    };
    out.push_str("- ");
    out.push_str(first);
    for line in &comments[1..] {
        if !line.trim().is_empty() {
            out.push_str("  ");
        }
        out.push_str(line);
    }
    out.push_str("  ");
    out.push_str(rest);
}

/// The text of one object as a standalone document of a stream (no `---`), verbatim when
/// untouched; it may lack a final line break (see [`push_document_text`]).
pub fn document_text(item: &Resource) -> String {
    let mut s = String::new();
    push_document_text(&mut s, item, Framing::Stream);
    s
}

/// A fanned-out copy starts with the comment naming its destination, in a stream or a
/// ResourceList (in files under `--output-dir` the directory names it): its line, in pieces.
fn cluster_mark(item: &Resource) -> Option<[&str; 3]> {
    let cluster = item.cluster()?;
    Some([super::annotations::CLUSTER_MARK, cluster, "\n"])
}

fn push_cluster_mark(out: &mut String, item: &Resource) {
    for piece in cluster_mark(item).into_iter().flatten() {
        out.push_str(piece);
    }
}

/// Where a document's text goes: a stream writes its own `---` between documents, so what
/// lies before a document's marker is left out; a file written back keeps it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    Stream,
    File,
}

/// Writes one document. Untouched, its source text; changed, the comment lines that opened it
/// in the source (a licence header the tree keeps as the document's, not the object's) and
/// then its tree. In a stream, a fanned-out copy's cluster comment goes after the `---` line,
/// in the document (in a file under `--output-dir` the directory names the cluster). The text may lack a final line break, as its source did at the end of a file:
/// [`end_document`] adds one where more follows.
pub(super) fn push_document_text(out: &mut String, item: &Resource, framing: Framing) {
    if framing == Framing::Stream {
        push_cluster_mark(out, item);
    }
    push_document_body(out, item, framing);
}

/// A document as [`push_document_text`] writes it, but for a stream's cluster comment.
fn push_document_body(out: &mut String, item: &Resource, framing: Framing) {
    let held = match framing {
        Framing::Stream => Rendering::Stream,
        Framing::File => Rendering::File,
    };
    if let Some((rendering, text)) = item.rendered() {
        if rendering == held {
            out.push_str(text);
            return;
        }
    }
    let wide = match item.origin() {
        Origin::Document { wide_sequences, .. } => *wide_sequences,
        _ => false,
    };
    let opts = EmitOptions {
        wide_sequences: wide,
    };
    let Origin::Document {
        source, start, end, ..
    } = item.origin()
    else {
        emit_node_into(out, item.node(), 0, opts);
        return;
    };
    let parts = document_parts(&source[*start..*end]);
    if framing == Framing::File {
        out.push_str(parts.before);
    }
    match (item.is_dirty(), parts.content) {
        (false, Some(content)) => {
            out.push_str(parts.lead);
            out.push_str(content);
        }
        (true, Some(_)) => {
            let mut emitted = String::new();
            emit_node_into(&mut emitted, item.node(), 0, opts);
            out.push_str(parts.lead);
            // In a file the text before the `---` line is written too; the tree may hold its
            // comments (a licence header above the first `---`) as its head.
            let written = match framing {
                Framing::File => &source[*start..*start + parts.before.len() + parts.lead.len()],
                Framing::Stream => parts.lead,
            };
            out.push_str(without_repeated_head(&emitted, written));
        }
        // The `---` line carries content (`--- !tag`): the tree is written.
        (_, None) => emit_node_into(out, item.node(), 0, opts),
    }
}

/// One document of a file written back: a changed object of a `.json` file as JSON
/// (two-space indents, its keys in order: JSON in stays JSON out), any other as
/// [`push_document_text`] writes it.
pub(super) fn push_file_document(out: &mut String, item: &Resource) {
    let json = item.is_dirty()
        && !matches!(item.rendered(), Some((Rendering::File, _)))
        && item.output_path().ends_with(".json");
    let text = json
        .then(|| {
            item.node()
                .to_json()
                .map(|j| serde_json::to_string_pretty(&j))
        })
        .and_then(|r| r.ok()?.ok());
    match text {
        Some(text) => {
            out.push_str(&text);
            out.push('\n');
        }
        None => push_document_text(out, item, Framing::File),
    }
}

/// A document's text cut where its content starts.
struct DocumentParts<'t> {
    /// Up to the end of its `---` line: in a stream, comments there belong to no object.
    before: &'t str,
    /// The comment and blank lines after that, above the content.
    lead: &'t str,
    /// `None` when the `---` line itself carries content.
    content: Option<&'t str>,
}

fn document_parts(text: &str) -> DocumentParts<'_> {
    let mut marker_end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if let Some(after) = t.strip_prefix("---") {
            if !after.is_empty() && !after.trim_start().starts_with('#') {
                return DocumentParts {
                    before: &text[..offset],
                    lead: "",
                    content: None,
                };
            }
            marker_end = offset + line.len();
        } else if !(t.is_empty() || t.trim_start().starts_with('#') || t.starts_with('%')) {
            break;
        }
        offset += line.len();
    }
    DocumentParts {
        before: &text[..marker_end],
        lead: &text[marker_end..offset],
        content: Some(&text[offset..]),
    }
}

/// Whether a document's text has its own `---` line (before its content).
pub(super) fn opens_with_marker(text: &str) -> bool {
    !document_parts(text).before.is_empty()
}

/// `emitted` without its leading comment lines when the source's `lead` ends with the same
/// comments (the tree kept them, and `lead` is written verbatim); otherwise all of it.
fn without_repeated_head<'e>(emitted: &'e str, lead: &str) -> &'e str {
    let head_len: usize = emitted
        .split_inclusive('\n')
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(str::len)
        .sum();
    let comments = |t: &'e str| -> Vec<&'e str> {
        t.lines()
            .map(str::trim)
            .filter(|l| l.starts_with('#'))
            .collect()
    };
    let emitted_comments = comments(&emitted[..head_len]);
    let lead_comments: Vec<&str> = lead
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .collect();
    if lead_comments.ends_with(&emitted_comments) {
        &emitted[head_len..]
    } else {
        emitted
    }
}

/// Ends a document's text (from `from` in `out`) with a line break, as a following `---`
/// needs. A block scalar that runs to the end of the text would take that line break into its
/// value (`k: |` and `x` at the end of a file is "x", not "x\n"): its header then gets the
/// strip indicator, `|-`, which keeps the value.
pub(super) fn end_document(out: &mut String, from: usize, item: &Resource) {
    if out.ends_with('\n') || out.len() <= from {
        return;
    }
    if let (false, Origin::Document { source, end, .. }) = (item.is_dirty(), item.origin()) {
        let leaf = last_leaf(item.node());
        let open_block = matches!(leaf.style, Style::Literal | Style::Folded)
            && leaf.span.end as usize == *end
            && source.ends_with(&out[from..]);
        if open_block {
            // The copied text is the end of the source: the header sits at the same distance
            // from the end.
            let header = out.len() - (*end - leaf.span.start as usize);
            strip_chomping(out, header);
        }
    }
    out.push('\n');
}

/// The node written last in a tree.
fn last_leaf(node: &Node) -> &Node {
    match &node.value {
        Value::Mapping(pairs) => pairs.last().map_or(node, |p| last_leaf(&p.value)),
        Value::Sequence(items) => items.last().map_or(node, last_leaf),
        _ => node,
    }
}

/// Gives the block scalar header at `at` (`|`, `>2`, `|+`) the strip chomping indicator.
fn strip_chomping(out: &mut String, at: usize) {
    let header_end = out[at..]
        .find(['\n', ' ', '#'])
        .map_or(out.len(), |i| at + i);
    let header = &out[at..header_end];
    if !header.starts_with(['|', '>']) {
        return;
    }
    let indicator: String = header[1..].chars().filter(char::is_ascii_digit).collect();
    let fixed = format!("{}{indicator}-", &header[..1]);
    out.replace_range(at..header_end, &fixed);
}

/// Objects as a multi-document YAML stream. Prefer [`write_stream_to`] for large outputs.
pub fn write_stream(items: &[Resource]) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and every piece written is a str.
    let _ = write_stream_to(&mut out, items);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Streams the objects to `out` as a multi-document YAML stream, item by item. The last
/// document ends as its source did.
pub fn write_stream_to<W: Write + ?Sized>(out: &mut W, items: &[Resource]) -> io::Result<()> {
    write_stream_docs_to(out, items.iter().map(StreamDoc::Object))
}

/// A document of a stream: an object, or the text of an untouched document that is written as
/// it is (see `files::PassThrough`): what follows its `---` line, ending with a line break.
#[derive(Clone, Copy)]
pub enum StreamDoc<'a> {
    Object(&'a Resource),
    Text(&'a str),
}

/// [`write_stream_to`] for objects and texts of documents in one stream.
pub fn write_stream_docs_to<'a, W: Write + ?Sized>(
    out: &mut W,
    docs: impl IntoIterator<Item = StreamDoc<'a>>,
) -> io::Result<()> {
    let mut stream = StreamWriter::new(out);
    stream.write_docs(docs)?;
    stream.finish()
}

/// The bytes `items` take in a stream (each with its `---` line): what a fan-out that holds its
/// copies counts against its limit, without holding their text.
pub fn stream_bytes(items: &[Resource]) -> u64 {
    let mut text = String::new();
    items
        .iter()
        .map(|item| {
            text.clear();
            push_document_text(&mut text, item, Framing::Stream);
            text.len() as u64 + 5
        })
        .sum()
}

/// A stream written in parts (a fan-out's destinations, as each is finished): the same bytes
/// as [`write_stream_docs_to`] over all the parts' documents at once.
pub struct StreamWriter<W: Write> {
    out: W,
    buf: String,
    /// Where the last document written starts in the buffer, how it ends when more follows.
    open: Option<(usize, Ending)>,
}

/// How the last document written ends if another follows it.
enum Ending {
    /// An object still at hand: [`end_document`] decides.
    Object,
    /// The object's own text, ended as [`end_document`] would (decided before the part that
    /// held the object was let go).
    Decided(String),
    /// A text, which ends with its line break.
    Text,
}

impl<W: Write> StreamWriter<W> {
    pub fn new(out: W) -> StreamWriter<W> {
        StreamWriter {
            out,
            buf: String::with_capacity(CHUNK + 4096),
            open: None,
        }
    }

    /// Writes `docs` after those written before.
    pub fn write_docs<'a>(
        &mut self,
        docs: impl IntoIterator<Item = StreamDoc<'a>>,
    ) -> io::Result<()> {
        let mut last: Option<&Resource> = None;
        for doc in docs {
            self.close_open(last)?;
            let from = self.buf.len();
            match doc {
                StreamDoc::Object(item) => {
                    push_document_text(&mut self.buf, item, Framing::Stream);
                    self.open = Some((from, Ending::Object));
                    last = Some(item);
                }
                StreamDoc::Text(text) => {
                    self.buf.push_str(text);
                    self.open = Some((from, Ending::Text));
                }
            }
        }
        // The object is let go after this part: decide now how it ends if more follows.
        if let (Some((from, ending @ Ending::Object)), Some(item)) = (&mut self.open, last) {
            let mut text = self.buf[*from..].to_string();
            end_document(&mut text, 0, item);
            *ending = Ending::Decided(text);
        }
        Ok(())
    }

    /// Ends the open document (`item` when it is an object of this part) and starts the next.
    fn close_open(&mut self, item: Option<&Resource>) -> io::Result<()> {
        let Some((from, ending)) = self.open.take() else {
            return Ok(());
        };
        let buf = &mut self.buf;
        match (ending, item) {
            (Ending::Object, Some(item)) => end_document(buf, from, item),
            (Ending::Decided(text), _) => {
                buf.truncate(from);
                buf.push_str(&text);
            }
            _ if !buf.ends_with('\n') => buf.push('\n'),
            _ => {}
        }
        if self.buf.len() >= CHUNK {
            self.out.write_all(self.buf.as_bytes())?;
            self.buf.clear();
        }
        self.buf.push_str("---\n");
        Ok(())
    }

    /// Writes what is left (the last document ends as its source did).
    pub fn finish(self) -> io::Result<()> {
        self.into_writer().1
    }

    /// [`StreamWriter::finish`], giving the writer back with the outcome (a writer that keeps
    /// its errors reports them itself).
    pub fn into_writer(mut self) -> (W, io::Result<()>) {
        let written = self.out.write_all(self.buf.as_bytes());
        (self.out, written)
    }
}

/// Where an untouched document's text goes in a stream, as [`write_stream_to`] writes it:
/// from after its `---` line to its end, `start..end` in `source`; `None` when the stream would
/// not take it as it is (its `---` line carries content, or it does not end with a line break,
/// which the stream adds or fixes from the tree).
pub(super) fn stream_text_range(source: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let text = source.get(start..end)?;
    let parts = document_parts(text);
    (parts.content.is_some() && text.ends_with('\n')).then(|| (start + parts.before.len(), end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_input;
    use tailor_yaml::ParseOptions;

    /// How one writer writes one object.
    type Writer = fn(&mut String, &Resource);

    /// A fanned-out copy's rendered text is what each writer writes for it, byte for byte,
    /// without the cluster line the YAML list and the stream put before it; the held copy's
    /// length counts that line again. Copies changed and untouched, from a list and a stream.
    #[test]
    fn a_rendered_copy_is_the_writers_text_without_its_cluster_line() {
        let opts = ParseOptions::default();
        let list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n# above\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a # kept\n  data: {k: \"v\"}\n";
        let stream = "# licence\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n";
        let mut items = read_input(list, &opts).unwrap().items;
        items.extend(crate::read::read_stream(stream, &opts).unwrap());
        let changed = items.iter().cloned().map(|mut item| {
            item.set_annotation("changed", "yes");
            item
        });
        let all: Vec<Resource> = items.clone().into_iter().chain(changed).collect();
        let mark = "# tailor.dev/cluster: dev\n";
        let mut all = all;
        all.iter_mut().for_each(|item| item.set_cluster("dev"));
        for rendering in [
            Rendering::Item(ListSyntax::Yaml),
            Rendering::Item(ListSyntax::Json),
            Rendering::Stream,
            Rendering::File,
        ] {
            let (texts, spans) = rendered_texts(&all, rendering);
            assert_eq!(texts.capacity(), texts.len());
            let each: Vec<String> = all.iter().map(|i| rendered_text(i, rendering)).collect();
            let shared: Vec<&str> = spans.into_iter().map(|s| &texts[s]).collect();
            assert_eq!(shared, each, "{rendering:?}");
        }
        for item in all {
            let writers: [(Rendering, Writer, &str); 4] = [
                (Rendering::Item(ListSyntax::Yaml), write_item, mark),
                (Rendering::Item(ListSyntax::Json), json_item, ""),
                (
                    Rendering::Stream,
                    |o, i| push_document_text(o, i, Framing::Stream),
                    mark,
                ),
                (Rendering::File, push_file_document, ""),
            ];
            for (rendering, write, marked) in writers {
                let mut written = String::new();
                write(&mut written, &item);
                let text = rendered_text(&item, rendering);
                assert_eq!(format!("{marked}{text}"), written, "{rendering:?}");
                assert_eq!(text.capacity(), text.len());
                let held = item
                    .clone()
                    .into_rendered(rendering, std::sync::Arc::new(Vec::new()));
                assert_eq!(rendered_len(&held), written.len(), "{rendering:?}");
                let mut again = String::new();
                write(&mut again, &held);
                assert_eq!(again, written, "{rendering:?}");
            }
        }
    }

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
            ListSyntax::Yaml,
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

    /// A stream written in parts (a part may be empty) is the same bytes as written whole,
    /// documents that end without a line break or in an open literal block included.
    #[test]
    fn a_stream_written_in_parts_is_the_stream_written_whole() {
        let opts = ParseOptions::default();
        let texts = [
            "apiVersion: v1\nkind: A\nmetadata: {name: a}\ndata:\n  k: |\n    x",
            "apiVersion: v1\nkind: B\nmetadata: {name: b}",
            "apiVersion: v1\nkind: C\nmetadata: {name: c}\n",
        ];
        let items: Vec<Resource> = texts
            .iter()
            .flat_map(|t| crate::read::read_stream(t, &opts).unwrap())
            .collect();
        let whole = write_stream(&items);
        let splits: [&[usize]; 3] = [&[1, 0, 2], &[0, 1, 1, 1, 0], &[3]];
        for split in splits {
            let mut out = Vec::new();
            let mut stream = StreamWriter::new(&mut out);
            let mut at = 0;
            for n in split {
                let part: Vec<Resource> = items[at..at + n].to_vec();
                stream
                    .write_docs(part.iter().map(StreamDoc::Object))
                    .unwrap();
                at += n;
            }
            stream.finish().unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{split:?}");
        }
    }
}
