//! A YAML parser that builds the node tree directly, keeping styles, tags, anchors, comments
//! and source spans. It follows libyaml's grammar and error texts (what go-yaml and so kyaml
//! accept), with one pass over the bytes and no token or event layer.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use crate::node::{Comments, Node, Pair, Span, Style, Text, Value};
use crate::Error;

/// One YAML document of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub root: Node,
    /// True when the document had no content at all (only comments or markers).
    pub empty: bool,
    /// Comments before the content, separated from it by a blank line.
    pub head_comment: String,
    /// Comments after the content.
    pub foot_comment: String,
    pub directives: Vec<String>,
    pub explicit_start: bool,
    /// The whole document in the source: from just after the previous document to its end,
    /// including its `---` line and comments.
    pub span: Span,
    /// Whether block sequences under mapping keys are indented ("wide"), decided as kyaml's
    /// `DeriveSeqIndentStyle` decides it.
    pub wide_sequences: bool,
}

#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Deepest nesting of collections accepted.
    pub max_depth: usize,
    /// Refuse a mapping that defines a key twice, as go-yaml v3's decoder does (and so
    /// kustomize reading resources). Off for readers that follow yaml.v2, where the last
    /// definition wins (Flux's `YAMLToJSON` after substitution).
    pub unique_keys: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: 512,
            unique_keys: true,
        }
    }
}

pub fn parse_stream(src: &str) -> Result<Vec<Document>, Error> {
    parse_stream_with(src, &ParseOptions::default())
}

/// Parses a stream of documents, rejecting what go-yaml v3 rejects when kyaml and kustomize
/// read resources: besides syntax errors, characters libyaml's reader refuses, `%YAML`
/// versions other than 1.1, aliases to anchors not defined before them in the document, and
/// duplicate mapping keys (kustomize decodes every resource into a map, and go-yaml's decoder
/// refuses a key defined twice).
pub fn parse_stream_with(src: &str, opts: &ParseOptions) -> Result<Vec<Document>, Error> {
    check_source(src)?;
    Parser::new(src, opts, None).stream()
}

/// An item of a ResourceList's `items:` that [`parse_stream_handing_items`] handed over as
/// soon as it was complete, so a caller that only needs a few of its fields can drop the tree
/// and keep the memory of one item at a time.
pub struct Handoff {
    /// Its place in `items`.
    pub index: usize,
    pub node: Node,
    /// How to build exactly this node again from the same source text.
    pub resume: Resume,
    /// Neither defines an anchor nor uses an alias: its tree can be rebuilt on its own.
    pub self_contained: bool,
}

/// The parser's state where an item of `items:` began, with the comments the sequence
/// attached to it: [`reparse_item`] replays the parse from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    pos: u32,
    line: u32,
    line_start: u32,
    depth: u32,
    col: u32,
    max_depth: u32,
    indentless: bool,
    blank_since_token: bool,
    unique_keys: bool,
    head: String,
    foot: String,
}

/// Like [`parse_stream_with`], but when the first document is a mapping whose `kind` (written
/// before `items`) is `ResourceList` or `List`, each entry of its block sequence `items:` is
/// handed to `sink` once it is complete, comments included. The sink returns the node to keep
/// in the tree, or `None` to take it: a `null` placeholder with the item's span stays in its
/// place. Everything else is parsed and checked exactly as [`parse_stream_with`] does.
pub fn parse_stream_handing_items(
    src: &str,
    opts: &ParseOptions,
    sink: &mut dyn FnMut(Handoff) -> Option<Node>,
) -> Result<Vec<Document>, Error> {
    check_source(src)?;
    Parser::new(src, opts, Some(sink)).stream()
}

/// Builds again the item a [`Handoff`] carried, from the same source text: the same node,
/// spans and comments included.
pub fn reparse_item(src: &str, resume: &Resume) -> Result<Node, Error> {
    let opts = ParseOptions {
        max_depth: resume.max_depth as usize,
        unique_keys: resume.unique_keys,
    };
    if resume.pos as usize > src.len() || resume.line_start > resume.pos {
        return Err(Error::new("item resume point is outside the source", 0, 0));
    }
    let mut p = Parser::new(src, &opts, None);
    p.pos = resume.pos as usize;
    p.line = resume.line as usize;
    p.line_start = resume.line_start as usize;
    p.depth = resume.depth as usize;
    p.indentless_items = resume.indentless;
    p.blank_since_token = resume.blank_since_token;
    let mut item = p.node(resume.col as isize, Ctx::SeqItem, true)?;
    attach_item_head(&mut item, resume.head.clone());
    if !resume.foot.is_empty() {
        item.comments_mut().foot = resume.foot.clone();
    }
    Ok(item)
}

/// What go-yaml refuses before parsing: inputs too large to address, and control characters.
fn check_source(src: &str) -> Result<(), Error> {
    if src.len() >= u32::MAX as usize {
        return Err(Error::new("input too large", 0, 0));
    }
    if let Some(at) = first_forbidden_char(src.as_bytes()) {
        let (line, column) = line_col(src.as_bytes(), at);
        return Err(Error::new(
            "control characters are not allowed",
            line,
            column,
        ));
    }
    Ok(())
}

/// Where a node sits decides what may start on the same line as its indicator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    Root,
    MapValue,
    SeqItem,
    ExplicitKey,
}

/// Where a node with a second anchor or tag (`&a &b x`) sits. libyaml reads the first
/// properties as an empty node and fails in the enclosing collection, so the message depends
/// on that collection.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stray {
    /// A block node; `bool`: an item of an indentless sequence (which ends at the stray
    /// property, leaving it to the mapping around it).
    Block(Ctx, bool),
    /// A key of a block mapping.
    Key,
    /// A node inside a flow collection closed by this byte.
    Flow(u8),
}

struct PendingComment {
    text: String,
    col: usize,
    blank_before: bool,
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    depth: usize,
    max_depth: usize,
    pending: Vec<PendingComment>,
    blank_since_token: bool,
    /// Entries of the block collections being parsed, innermost last. A collection moves its
    /// entries into a Vec of exactly their number when it ends, so no Vec grows (and copies)
    /// entry by entry and none keeps spare capacity.
    pair_stack: Vec<Pair>,
    item_stack: Vec<Node>,
    /// Anchors defined so far in the current document: go-yaml refuses an alias to any other.
    anchors: HashSet<String>,
    /// Whether the block sequence whose item is being parsed is indentless (`k:\n- x`), which
    /// decides libyaml's message for a stray property after the item's own.
    indentless_items: bool,
    unique_keys: bool,
    /// Where [`parse_stream_handing_items`] hands the items of `items:`.
    sink: Option<&'a mut dyn FnMut(Handoff) -> Option<Node>>,
    /// Set while the value of the first document's `items` key is parsed, when it qualifies.
    sink_armed: bool,
    /// Documents completed so far.
    docs_done: usize,
    /// Anchors and aliases read so far: an item that read none is self-contained.
    refs: usize,
}

#[derive(Default)]
struct Props {
    anchor: Option<String>,
    tag: Option<String>,
    start: Option<usize>,
}

impl Props {
    fn is_empty(&self) -> bool {
        self.anchor.is_none() && self.tag.is_none()
    }

    fn apply(self, node: &mut Node) {
        if let Some(start) = self.start {
            node.span.start = start as u32;
        }
        if self.anchor.is_some() || self.tag.is_some() {
            let extra = node.extra_mut();
            extra.anchor = self.anchor;
            extra.tag = self.tag;
        }
    }
}

type R<T> = Result<T, Error>;

fn is_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn is_flow_indicator(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

impl<'a> Parser<'a> {
    fn new(
        src: &'a str,
        opts: &ParseOptions,
        sink: Option<&'a mut dyn FnMut(Handoff) -> Option<Node>>,
    ) -> Parser<'a> {
        Parser {
            src,
            b: src.as_bytes(),
            pos: 0,
            line: 0,
            line_start: 0,
            depth: 0,
            max_depth: opts.max_depth,
            pending: Vec::new(),
            blank_since_token: false,
            pair_stack: Vec::new(),
            item_stack: Vec::new(),
            anchors: HashSet::new(),
            indentless_items: false,
            unique_keys: opts.unique_keys,
            sink,
            sink_armed: false,
            docs_done: 0,
            refs: 0,
        }
    }

    // ---- low-level cursor -----------------------------------------------------------------

    fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    fn peek(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(0)
    }

    fn peek_at(&self, k: usize) -> u8 {
        self.b.get(self.pos + k).copied().unwrap_or(0)
    }

    /// Blank, line break or end of input at `pos + k`.
    fn ws_or_end_at(&self, k: usize) -> bool {
        match self.b.get(self.pos + k) {
            None => true,
            Some(&c) => is_blank(c) || is_break(c),
        }
    }

    fn col(&self) -> usize {
        self.pos - self.line_start
    }

    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(self.error(msg))
    }

    fn error(&self, msg: impl Into<String>) -> Error {
        Error::new(msg, self.line + 1, self.col() + 1)
    }

    fn newline(&mut self) {
        if self.peek() == b'\r' && self.peek_at(1) == b'\n' {
            self.pos += 2;
        } else {
            self.pos += 1;
        }
        self.line += 1;
        self.line_start = self.pos;
    }

    fn skip_blanks(&mut self) {
        while is_blank(self.peek()) {
            self.pos += 1;
        }
    }

    fn at_boundary(&self) -> bool {
        self.col() == 0
            && (self.b[self.pos..].starts_with(b"---") || self.b[self.pos..].starts_with(b"..."))
            && self.ws_or_end_at(3)
    }

    fn rest_of_line(&self) -> &'a str {
        let end = self.b[self.pos..]
            .iter()
            .position(|&c| is_break(c))
            .map_or(self.b.len(), |i| self.pos + i);
        &self.src[self.pos..end]
    }

    /// Reads a `#` comment to the end of the line (the text keeps its `#`).
    fn read_comment(&mut self) -> String {
        let text = self.rest_of_line().trim_end().to_string();
        self.pos += self.rest_of_line().len();
        text
    }

    /// Skips spaces, tabs, comments and line breaks up to the next token, collecting comment
    /// lines. Returns whether a line break was crossed.
    fn skip_to_next_token(&mut self) -> R<bool> {
        let mut crossed = false;
        loop {
            let line_start_before = self.col() == 0;
            while self.peek() == b' ' {
                self.pos += 1;
            }
            if self.peek() == b'\t' {
                // A tab may pad a blank line or precede a comment, never indent a token.
                let save = self.pos;
                self.skip_blanks();
                let c = self.peek();
                if !(self.at_end() || is_break(c) || c == b'#') {
                    if crossed || line_start_before {
                        self.pos = save;
                        while self.peek() == b'\t' || self.peek() == b' ' {
                            if self.peek() == b'\t' {
                                break;
                            }
                            self.pos += 1;
                        }
                        return self.err("found character that cannot start any token");
                    }
                    return Ok(crossed);
                }
            }
            let c = self.peek();
            if c == b'#' {
                let col = self.col();
                let text = self.read_comment();
                let blank_before = self.blank_since_token;
                self.blank_since_token = false;
                self.pending.push(PendingComment {
                    text,
                    col,
                    blank_before,
                });
                continue;
            }
            if is_break(c) {
                if self.col() == 0 || self.src[self.line_start..self.pos].trim().is_empty() {
                    self.blank_since_token = true;
                }
                self.newline();
                crossed = true;
                continue;
            }
            if self.pos == 0 && self.b.starts_with("\u{feff}".as_bytes()) {
                self.pos += 3;
                self.line_start = self.pos;
                continue;
            }
            return Ok(crossed);
        }
    }

    fn take_pending(&mut self) -> String {
        if self.pending.is_empty() {
            return String::new();
        }
        join_comments(self.pending.drain(..))
    }

    /// Takes the leading pending comments indented at least `col`: they close the collection
    /// at that column rather than open what follows it.
    fn take_pending_at_least(&mut self, col: usize) -> String {
        let n = self.pending.iter().take_while(|c| c.col >= col).count();
        join_comments(self.pending.drain(..n))
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return self.err(format!(
                "exceeded max depth of {} nested collections",
                self.max_depth
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- stream and documents -------------------------------------------------------------

    fn stream(&mut self) -> R<Vec<Document>> {
        let mut docs = Vec::new();
        let mut doc_start = 0usize;
        loop {
            self.skip_to_next_token()?;
            let mut directives = Vec::new();
            let mut seen_version = false;
            while self.col() == 0 && self.peek() == b'%' {
                let text = self.rest_of_line().trim_end();
                match check_directive(text) {
                    Ok(Some(version)) => {
                        // libyaml's parser, after the scanner: one %YAML per document, 1.1 only
                        // (go-yaml v3 refuses 1.2 as well).
                        if seen_version {
                            return self.err("found duplicate %YAML directive");
                        }
                        seen_version = true;
                        if version != (1, 1) {
                            return self.err("found incompatible YAML document");
                        }
                    }
                    Ok(None) => {}
                    Err((msg, offset)) => {
                        self.pos += offset;
                        return self.err(msg);
                    }
                }
                directives.push(text.to_string());
                self.pos += self.rest_of_line().len();
                self.skip_to_next_token()?;
            }
            let mut explicit_start = false;
            if self.at_boundary() && self.peek() == b'-' {
                explicit_start = true;
                self.pos += 3;
            } else if !directives.is_empty() {
                return self.err("did not find expected <document start>");
            } else if self.at_end() {
                if !self.pending.is_empty() {
                    // A stream of only comments: keep them as an empty document.
                    let foot = self.take_pending();
                    docs.push(Document {
                        root: Node::plain(""),
                        empty: true,
                        head_comment: String::new(),
                        foot_comment: foot,
                        directives,
                        explicit_start,
                        span: Span {
                            start: doc_start as u32,
                            end: self.pos as u32,
                        },
                        wide_sequences: false,
                    });
                }
                break;
            } else if self.at_boundary() {
                // A bare `...` with nothing before it.
                self.pos += 3;
                continue;
            }
            let doc = self.document(doc_start, directives, explicit_start)?;
            self.docs_done += 1;
            doc_start = doc.span.end as usize;
            docs.push(doc);
            if self.at_end() {
                break;
            }
        }
        Ok(docs)
    }

    fn document(
        &mut self,
        doc_start: usize,
        directives: Vec<String>,
        explicit_start: bool,
    ) -> R<Document> {
        // Anchors do not reach across documents (go-yaml: "unknown anchor").
        self.anchors.clear();
        // Comments separated from the content by a blank line belong to the document.
        let mut head_comment = String::new();
        let crossed = if explicit_start {
            self.skip_blanks();
            if self.peek() == b'#' || is_break(self.peek()) || self.at_end() {
                self.skip_to_next_token()?
            } else {
                false
            }
        } else {
            true
        };
        if !self.pending.is_empty() && self.blank_since_token {
            head_comment = self.take_pending();
        }
        let empty = self.at_end() || self.at_boundary() || (crossed && self.at_boundary());
        let root = if empty {
            let mut n = Node::plain("");
            n.span = Span {
                start: self.pos as u32,
                end: self.pos as u32,
            };
            n
        } else {
            self.node(-1, Ctx::Root, !crossed)?
        };
        let mut root = root;
        if root.style != Style::Block && !self.pending.is_empty() {
            // Comments right above a scalar or flow root (no blank line between) are its head
            // comment, as in go-yaml; block collections took theirs already. Left pending they
            // would become the document's foot, and move below the value on the next trip.
            let head = self.take_pending();
            let c = root.comments_mut();
            c.head = if c.head.is_empty() {
                head
            } else {
                format!("{head}\n{}", c.head)
            };
        }
        self.skip_to_next_token()?;
        let foot_comment = self.take_pending();
        let mut end = self.pos;
        if !self.at_end() {
            if self.at_boundary() && self.peek() == b'.' {
                self.pos += 3;
                self.skip_blanks();
                if self.peek() == b'#' {
                    self.read_comment();
                }
                if is_break(self.peek()) {
                    self.newline();
                }
                end = self.pos;
            } else if !self.at_boundary() {
                return self.err(if self.col() == 0 {
                    "did not find expected <document start>"
                } else {
                    "did not find expected key"
                });
            }
        }
        self.blank_since_token = false;
        // Back up over the line break so the next document's span starts at its own line.
        let span_end = if self.at_boundary() { self.pos } else { end };
        Ok(Document {
            root,
            empty,
            head_comment,
            foot_comment,
            directives,
            explicit_start,
            span: Span {
                start: doc_start as u32,
                end: span_end as u32,
            },
            wide_sequences: crate::seqindent::derive_wide_sequences(&self.src[doc_start..span_end]),
        })
    }

    // ---- block structure ------------------------------------------------------------------

    /// Parses the node that follows an indicator (`key:`, `- `, `? `, `---`) or starts a
    /// document. `indent` is the column of the enclosing block collection (-1 at the root).
    /// `inline` says whether we are still on the indicator's line.
    fn node(&mut self, indent: isize, ctx: Ctx, inline: bool) -> R<Node> {
        let stray = Stray::Block(ctx, ctx == Ctx::SeqItem && self.indentless_items);
        let mut inline = inline;
        let mut line_comment = String::new();
        if inline {
            self.skip_inline_before_token()?;
        }
        let mut props = Props::default();
        // Where the node's first token (possibly a property) starts: a mapping whose first key
        // carries properties is indented from there, not from the key's text.
        let mut props_col = self.col();
        if inline {
            self.props(&mut props, stray)?;
            self.skip_inline_before_token()?;
            if self.peek() == b'#' {
                line_comment = self.read_comment();
            }
            if self.at_end() || is_break(self.peek()) {
                self.skip_to_next_token()?;
                inline = false;
            }
        }
        if !inline {
            if self.at_end() || self.at_boundary() {
                return Ok(self.empty_node(props, line_comment));
            }
            let col = self.col() as isize;
            let c = self.peek();
            let dash = c == b'-' && self.ws_or_end_at(1);
            if dash
                && (col > indent
                    || (col == indent && matches!(ctx, Ctx::MapValue | Ctx::ExplicitKey)))
            {
                let mut n = self.block_sequence(col as usize, col == indent)?;
                props.apply(&mut n);
                set_line(&mut n, line_comment);
                return Ok(n);
            }
            if col <= indent {
                return Ok(self.empty_node(props, line_comment));
            }
            // Properties may also open the line of the content.
            props_col = self.col();
            if !props.is_empty() && (c == b'&' || c == b'!') {
                return self.mapping_under_props(indent, props, line_comment, stray);
            }
            if props.is_empty() && (c == b'&' || c == b'!') {
                // Comments above the root's properties belong to what they open: the root
                // when the properties are its own (written above them), else its first entry.
                let head = if ctx == Ctx::Root {
                    self.take_pending()
                } else {
                    String::new()
                };
                let mut n = self.props_then_content(indent, stray, props_col, col, line_comment)?;
                attach_head(&mut n, head);
                return Ok(n);
            }
            let mut n = self.block_content(indent, false)?;
            props.apply(&mut n);
            set_line(&mut n, line_comment);
            return Ok(n);
        }
        // Content on the indicator's line.
        let c = self.peek();
        if c == b'-' && self.ws_or_end_at(1) {
            if ctx != Ctx::SeqItem && ctx != Ctx::ExplicitKey {
                return self.err("block sequence entries are not allowed in this context");
            }
            let col = self.col();
            let mut n = self.block_sequence(col, false)?;
            props.apply(&mut n);
            return Ok(n);
        }
        if c == b'?' && self.ws_or_end_at(1) {
            if ctx != Ctx::SeqItem && ctx != Ctx::ExplicitKey {
                return self.err("mapping keys are not allowed in this context");
            }
            let col = self.col();
            let mut n = self.block_mapping(col, None)?;
            props.apply(&mut n);
            return Ok(n);
        }
        let allow_mapping = matches!(ctx, Ctx::SeqItem | Ctx::ExplicitKey);
        if props.is_empty() {
            self.block_content(indent, !allow_mapping)
        } else if allow_mapping {
            self.block_content_with_props(indent, props, false, props_col)
        } else {
            let mut n = self.block_content(indent, true)?;
            props.apply(&mut n);
            Ok(n)
        }
    }

    /// go-yaml's "mapping key already defined" (see [`parse_stream_with`]).
    fn check_unique_keys(&self, pairs: &[Pair]) -> R<()> {
        if !self.unique_keys {
            return Ok(());
        }
        let Some((i, j)) = first_duplicate_key(pairs) else {
            return Ok(());
        };
        let (first_line, _) = line_col(self.b, pairs[i].key.span.start as usize);
        let again = &pairs[j].key;
        let (line, column) = line_col(self.b, again.span.start as usize);
        Err(Error::new(
            format!(
                "mapping key {} already defined at line {first_line}",
                go_quote(key_id(again).1)
            ),
            line,
            column,
        ))
    }

    /// Properties opening the line of a block node's content (`&a k: v`, or `&a` alone with
    /// the content below). `col` is the column of the properties.
    fn props_then_content(
        &mut self,
        indent: isize,
        stray: Stray,
        props_col: usize,
        col: isize,
        line_comment: String,
    ) -> R<Node> {
        let mut props = Props::default();
        let mut line_comment = line_comment;
        self.props(&mut props, stray)?;
        self.skip_inline_before_token()?;
        if self.at_end() || is_break(self.peek()) || self.peek() == b'#' {
            // Properties alone on their line: the content follows below.
            if self.peek() == b'#' {
                line_comment = self.read_comment();
            }
            self.skip_to_next_token()?;
            if self.at_end() || self.at_boundary() || (self.col() as isize) < col {
                return Ok(self.empty_node(props, line_comment));
            }
            // `&a` / `- x`: the properties of a block sequence below them.
            if self.peek() == b'-' && self.ws_or_end_at(1) {
                let dash = self.col();
                let mut n = self.block_sequence(dash, dash as isize == indent)?;
                props.apply(&mut n);
                set_line(&mut n, line_comment);
                return Ok(n);
            }
            if matches!(self.peek(), b'&' | b'!') {
                return self.mapping_under_props(indent, props, line_comment, stray);
            }
            let mut n = self.block_content(indent, false)?;
            props.apply(&mut n);
            set_line(&mut n, line_comment);
            return Ok(n);
        }
        // `!!str 'k': v` opening the line: the properties belong to the first key.
        let mut n = self.block_content_with_props(indent, props, false, props_col)?;
        set_line(&mut n, line_comment);
        Ok(n)
    }

    /// Properties opening the line below a node's own (`k: &a` / `  &b x: y`): they belong
    /// to the first key of a mapping starting there; before anything else they are a second
    /// set for one node.
    fn mapping_under_props(
        &mut self,
        indent: isize,
        props: Props,
        line_comment: String,
        stray: Stray,
    ) -> R<Node> {
        let col = self.col();
        let stray_err = self.stray_error(stray);
        let mut key_props = Props::default();
        self.props(&mut key_props, stray)?;
        self.skip_inline_before_token()?;
        if self.at_end() || is_break(self.peek()) || self.peek() == b'#' {
            return Err(stray_err);
        }
        let (mut first, is_key) = self.scalar_or_flow(indent, true)?;
        if !is_key {
            return Err(stray_err);
        }
        key_props.apply(&mut first);
        let mut n = self.block_mapping(col, Some(first))?;
        props.apply(&mut n);
        set_line(&mut n, line_comment);
        Ok(n)
    }

    fn empty_node(&mut self, props: Props, line_comment: String) -> Node {
        let mut n = Node::plain("");
        let at = props.start.unwrap_or(self.pos) as u32;
        n.span = Span { start: at, end: at };
        props.apply(&mut n);
        set_line(&mut n, line_comment);
        n
    }

    /// Properties written before a key on the same line belong to the key; if what follows
    /// is not a key they belong to the value.
    fn block_content_with_props(
        &mut self,
        indent: isize,
        props: Props,
        no_map: bool,
        props_col: usize,
    ) -> R<Node> {
        let (mut first, is_key) = self.scalar_or_flow(indent, true)?;
        if is_key {
            if no_map {
                return self.err("mapping values are not allowed in this context");
            }
            props.apply(&mut first);
            return self.block_mapping(props_col, Some(first));
        }
        props.apply(&mut first);
        Ok(first)
    }

    /// Content at the current position that is not a `-` sequence: a mapping (if the first
    /// token turns out to be a key), a block scalar, or a flow node/scalar.
    fn block_content(&mut self, indent: isize, no_map: bool) -> R<Node> {
        let c = self.peek();
        let col = self.col();
        if c == b'?' && self.ws_or_end_at(1) {
            if no_map {
                return self.err("mapping keys are not allowed in this context");
            }
            return self.block_mapping(col, None);
        }
        if c == b'|' || c == b'>' {
            return self.block_scalar(indent);
        }
        let (first, is_key) = self.scalar_or_flow(indent, true)?;
        if is_key {
            if no_map {
                return self.err("mapping values are not allowed in this context");
            }
            return self.block_mapping(col, Some(first));
        }
        Ok(first)
    }

    /// Parses a scalar, alias or flow collection in block context and reports whether it is
    /// followed by `:` (an implicit key); the `:` is consumed then.
    fn scalar_or_flow(&mut self, indent: isize, may_be_key: bool) -> R<(Node, bool)> {
        let start_line = self.line;
        let c = self.peek();
        let mut node = match c {
            b'[' | b'{' => self.flow_node(0)?,
            b'"' => self.double_quoted()?,
            b'\'' => self.single_quoted()?,
            b'*' => self.alias()?,
            b'|' | b'>' => return Ok((self.block_scalar(indent)?, false)),
            b'@' | b'`' => return self.err("found character that cannot start any token"),
            b'%' if self.col() == 0 => {
                return self.err("found character that cannot start any token")
            }
            b'-' | b'?' | b':' if self.ws_or_end_at(1) => {
                return self.err(match c {
                    b'-' => "block sequence entries are not allowed in this context",
                    b'?' => "mapping keys are not allowed in this context",
                    _ => "did not find expected key",
                })
            }
            b',' | b']' | b'}' => {
                return self.err("did not find expected node content");
            }
            b'#' => return self.err("did not find expected node content"),
            _ => {
                let (n, key) = self.plain_block(indent, may_be_key)?;
                return Ok((n, key));
            }
        };
        // After a non-plain node: `:` makes it a key when on the same line.
        self.skip_blanks();
        if self.peek() == b':' && self.line == start_line && may_be_key {
            let json_like = matches!(c, b'"' | b'\'' | b'[' | b'{');
            if self.ws_or_end_at(1) || json_like {
                self.pos += 1;
                return Ok((node, true));
            }
        }
        if self.peek() == b'#' {
            let text = self.read_comment();
            node.comments_mut().line = text;
        } else if !(self.at_end() || is_break(self.peek())) {
            if self.peek() == b':' {
                return self.err("mapping values are not allowed in this context");
            }
            return self.err("did not find expected key");
        }
        Ok((node, false))
    }

    /// Skips blanks before a token on the current line. Tabs may not separate an indicator
    /// from a token that could start a key (libyaml: "cannot start any token").
    fn skip_inline_before_token(&mut self) -> R<()> {
        while self.peek() == b' ' {
            self.pos += 1;
        }
        if self.peek() == b'\t' {
            let save = self.pos;
            self.skip_blanks();
            let c = self.peek();
            if !(self.at_end() || is_break(c) || c == b'#') {
                self.pos = save;
                return self.err("found character that cannot start any token");
            }
        }
        Ok(())
    }

    fn block_mapping(&mut self, col: usize, first_key: Option<Node>) -> R<Node> {
        self.enter()?;
        let start = first_key
            .as_ref()
            .map_or(self.pos, |k| k.span.start as usize);
        let base = self.pair_stack.len();
        let mut first_key = first_key;
        let head_for_first = self.take_pending();
        loop {
            // Taken before the key is parsed: an explicit key's collection would otherwise
            // take the comments above its `?` as its first entry's.
            let head = if self.pair_stack.len() == base {
                head_for_first.clone()
            } else {
                self.take_pending()
            };
            let (mut key, explicit) = match first_key.take() {
                Some(k) => (k, false),
                None => {
                    if self.peek() == b'?' && self.ws_or_end_at(1) {
                        self.pos += 1;
                        let k = self.node(col as isize, Ctx::ExplicitKey, true)?;
                        (k, true)
                    } else {
                        // `&a k: v` / `!!str k: v`: properties before a key belong to it.
                        let mut props = Props::default();
                        if matches!(self.peek(), b'&' | b'!') {
                            self.props(&mut props, Stray::Key)?;
                            self.skip_inline_before_token()?;
                        }
                        let (mut k, is_key) = self.scalar_or_flow(col as isize, true)?;
                        if !is_key {
                            return self.err("could not find expected ':'");
                        }
                        props.apply(&mut k);
                        (k, false)
                    }
                }
            };
            if !head.is_empty() {
                let c = key.comments_mut();
                if c.head.is_empty() {
                    c.head = head;
                } else {
                    c.head = format!("{head}\n{}", c.head);
                }
            }
            let value = if explicit {
                self.skip_to_next_token()?;
                if !self.at_end()
                    && !self.at_boundary()
                    && self.col() == col
                    && self.peek() == b':'
                    && self.ws_or_end_at(1)
                {
                    self.pos += 1;
                    self.node(col as isize, Ctx::ExplicitKey, true)?
                } else {
                    let mut n = Node::plain("");
                    n.span = Span {
                        start: self.pos as u32,
                        end: self.pos as u32,
                    };
                    n
                }
            } else {
                self.sink_armed = self.hands_over_value_of(&key, base);
                let value = self.node(col as isize, Ctx::MapValue, true);
                self.sink_armed = false;
                value?
            };
            self.pair_stack.push(Pair { key, value });
            self.skip_to_next_token()?;
            if self.at_end() || self.at_boundary() {
                break;
            }
            let c = self.col();
            if c < col {
                break;
            }
            if c > col {
                return self.err("did not find expected key");
            }
            if self.peek() == b'-' && self.ws_or_end_at(1) {
                return self.err("did not find expected key");
            }
        }
        let foot = self.take_pending_at_least(col);
        let mut pairs: Vec<Pair> = self.pair_stack.drain(base..).collect();
        self.check_unique_keys(&pairs)?;
        if !foot.is_empty() {
            if let Some(last) = pairs.last_mut() {
                last.key.comments_mut().foot = foot;
            }
        }
        let end = pairs
            .last()
            .map_or(start, |p| p.value.span.end.max(p.key.span.end) as usize);
        self.leave();
        Ok(Node {
            value: Value::Mapping(pairs),
            style: Style::Block,
            extra: None,
            span: Span {
                start: start as u32,
                end: end as u32,
            },
        })
    }

    /// A block sequence whose `-` indicators sit at `col`; `indentless` when it is a mapping
    /// value at the key's own column.
    fn block_sequence(&mut self, col: usize, indentless: bool) -> R<Node> {
        self.enter()?;
        // Only `items:` of the root mapping itself (depth 2), not a sequence nested in it.
        let handing = std::mem::take(&mut self.sink_armed) && self.depth == 2;
        let start = self.pos;
        let base = self.item_stack.len();
        let mut resume = None;
        loop {
            // At a `-` in column `col`.
            let head = self.take_pending();
            self.pos += 1;
            self.indentless_items = indentless;
            let refs_before = self.refs;
            if handing {
                resume = Some(self.resume_point(col, head.clone()));
            }
            let mut item = self.node(col as isize, Ctx::SeqItem, true)?;
            attach_item_head(&mut item, head);
            self.item_stack.push(item);
            let self_contained = self.refs == refs_before;
            self.skip_to_next_token()?;
            let next_item = !self.at_end()
                && !self.at_boundary()
                && self.col() == col
                && self.peek() == b'-'
                && self.ws_or_end_at(1);
            if next_item {
                if let Some(r) = resume.take() {
                    self.hand_over(base, r, self_contained);
                }
                continue;
            }
            if !(self.at_end() || self.at_boundary() || self.col() <= col) {
                return self.err("did not find expected '-' indicator");
            }
            let foot = self.take_pending_at_least(col + 1);
            if !foot.is_empty() {
                if let Some(last) = self.item_stack[base..].last_mut() {
                    last.comments_mut().foot = foot.clone();
                }
            }
            if let Some(mut r) = resume.take() {
                r.foot = foot;
                self.hand_over(base, r, self_contained);
            }
            break;
        }
        let items: Vec<Node> = self.item_stack.drain(base..).collect();
        let end = items.last().map_or(start, |n: &Node| n.span.end as usize);
        self.leave();
        Ok(Node {
            value: Value::Sequence(items),
            style: Style::Block,
            extra: None,
            span: Span {
                start: start as u32,
                end: end.max(start + 1) as u32,
            },
        })
    }

    /// Whether the value after `key` is the `items:` whose entries go to the sink: a key of
    /// the first document's root mapping, after a `kind` of ResourceList or List.
    fn hands_over_value_of(&self, key: &Node, base: usize) -> bool {
        self.sink.is_some()
            && self.depth == 1
            && self.docs_done == 0
            && key.as_scalar() == Some("items")
            && self.pair_stack[base..].iter().any(|p| {
                p.key.as_scalar() == Some("kind")
                    && matches!(p.value.as_scalar(), Some("ResourceList" | "List"))
            })
    }

    fn resume_point(&self, col: usize, head: String) -> Resume {
        Resume {
            pos: self.pos as u32,
            line: self.line as u32,
            line_start: self.line_start as u32,
            depth: self.depth as u32,
            col: col as u32,
            max_depth: self.max_depth.min(u32::MAX as usize) as u32,
            indentless: self.indentless_items,
            blank_since_token: self.blank_since_token,
            unique_keys: self.unique_keys,
            head,
            foot: String::new(),
        }
    }

    /// Gives the last parsed item to the sink; what it does not give back is replaced by a
    /// `null` holding the item's span (the sequence's own span depends on it).
    fn hand_over(&mut self, base: usize, resume: Resume, self_contained: bool) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let Some(slot) = self.item_stack.last_mut() else {
            return;
        };
        let span = slot.span;
        let node = std::mem::replace(slot, Node::null());
        let index = self.item_stack.len() - 1 - base;
        let kept = sink(Handoff {
            index,
            node,
            resume,
            self_contained,
        });
        if let Some(slot) = self.item_stack.last_mut() {
            match kept {
                Some(node) => *slot = node,
                None => slot.span = span,
            }
        }
    }

    // ---- properties and aliases -------------------------------------------------------------

    /// Reads a node's anchor and tag, in either order. A second anchor or tag is an error, as
    /// in libyaml; `stray` says where the node sits, for the message.
    fn props(&mut self, props: &mut Props, stray: Stray) -> R<()> {
        loop {
            match self.peek() {
                b'&' => {
                    if props.anchor.is_some() {
                        return Err(self.stray_error(stray));
                    }
                    props.start.get_or_insert(self.pos);
                    self.pos += 1;
                    let name = self.anchor_name()?;
                    self.refs += 1;
                    self.anchors.insert(name.clone());
                    props.anchor = Some(name);
                }
                b'!' => {
                    if props.tag.is_some() {
                        return Err(self.stray_error(stray));
                    }
                    props.start.get_or_insert(self.pos);
                    props.tag = Some(self.tag()?);
                }
                _ => return Ok(()),
            }
            self.skip_blanks();
        }
    }

    /// libyaml's error at a second anchor or tag (the current position): the first ones make
    /// an empty node, and the enclosing collection finds a property where it wants its next
    /// entry.
    fn stray_error(&self, stray: Stray) -> Error {
        let key = "did not find expected key";
        let msg = match stray {
            Stray::Key | Stray::Block(Ctx::MapValue | Ctx::ExplicitKey, _) => key,
            Stray::Block(Ctx::SeqItem, true) => key,
            // A `:` later on the line makes libyaml start a mapping before the first property.
            Stray::Block(_, _) if self.line_has_key_indicator() => key,
            Stray::Block(Ctx::SeqItem, false) => "did not find expected '-' indicator",
            Stray::Block(Ctx::Root, _) => "did not find expected <document start>",
            Stray::Flow(b']') => "did not find expected ',' or ']'",
            Stray::Flow(_) => "did not find expected ',' or '}'",
        };
        self.error(msg)
    }

    /// Whether a `:` indicator follows on the current line (only used to word an error).
    fn line_has_key_indicator(&self) -> bool {
        let rest = self.rest_of_line().as_bytes();
        rest.iter()
            .enumerate()
            .any(|(i, &c)| c == b':' && rest.get(i + 1).is_none_or(|&n| is_blank(n)))
    }

    fn anchor_name(&mut self) -> R<String> {
        let start = self.pos;
        while !self.ws_or_end_at(0) && !is_flow_indicator(self.peek()) {
            self.pos += 1;
        }
        if self.pos == start {
            return self.err("did not find expected alphabetic or numeric character");
        }
        Ok(self.src[start..self.pos].to_string())
    }

    fn tag(&mut self) -> R<String> {
        let start = self.pos;
        if self.peek_at(1) == b'<' {
            let Some(close) = self.b[self.pos..].iter().position(|&c| c == b'>') else {
                return self.err("did not find the expected '>'");
            };
            self.pos += close + 1;
        } else {
            while !self.ws_or_end_at(0) && !is_flow_indicator(self.peek()) {
                self.pos += 1;
            }
        }
        if !self.ws_or_end_at(0) && !is_flow_indicator(self.peek()) {
            return self.err("did not find expected whitespace or line break");
        }
        Ok(self.src[start..self.pos].to_string())
    }

    fn alias(&mut self) -> R<Node> {
        self.refs += 1;
        let start = self.pos;
        self.pos += 1;
        let name = self.anchor_name()?;
        if !self.anchors.contains(&name) {
            // go-yaml fails composing the node tree, before any decoding.
            self.pos = start;
            return self.err(format!("unknown anchor '{name}' referenced"));
        }
        Ok(Node {
            value: Value::Alias(name),
            style: Style::Plain,
            extra: None,
            span: Span {
                start: start as u32,
                end: self.pos as u32,
            },
        })
    }

    // ---- scalars --------------------------------------------------------------------------

    /// Scans one line's worth of a plain scalar: up to `: `, ` #`, the end of the line, and in
    /// flow context a flow indicator. Returns the end of the text (trailing blanks excluded).
    fn plain_chunk(&mut self, flow: bool) -> usize {
        let mut end = self.pos;
        loop {
            let c = self.peek();
            if self.at_end() || is_break(c) {
                break;
            }
            if c == b':' {
                let n = self.peek_at(1);
                let next_ends = self.ws_or_end_at(1) || (flow && is_flow_indicator(n));
                if next_ends {
                    break;
                }
            }
            if flow && is_flow_indicator(c) {
                break;
            }
            if is_blank(c) {
                let save = self.pos;
                self.skip_blanks();
                if self.peek() == b'#' || self.at_end() || is_break(self.peek()) {
                    self.pos = save;
                    break;
                }
                continue;
            }
            self.pos += 1;
            end = self.pos;
        }
        end
    }

    /// A plain scalar in block context; multi-line unless it turns out to be a key.
    fn plain_block(&mut self, indent: isize, may_be_key: bool) -> R<(Node, bool)> {
        let start = self.pos;
        let start_line = self.line;
        let mut end = self.plain_chunk(false);
        let mut text = Text::from(&self.src[start..end]);
        self.pos = end;
        self.skip_blanks();
        if self.peek() == b':' && self.ws_or_end_at(1) {
            if !may_be_key {
                return self.err("mapping values are not allowed in this context");
            }
            if end - start > 1024 && self.line == start_line {
                return self.err("could not find expected ':'");
            }
            self.pos += 1;
            let mut n = Node::plain(text);
            n.span = Span {
                start: start as u32,
                end: end as u32,
            };
            return Ok((n, true));
        }
        self.pos = end;
        // Continuation lines, folded as YAML folds them.
        loop {
            let save = (self.pos, self.line, self.line_start);
            self.skip_blanks();
            if !is_break(self.peek()) {
                self.pos = save.0;
                break;
            }
            let mut breaks = 0;
            while is_break(self.peek()) {
                self.newline();
                breaks += 1;
                while self.peek() == b' ' {
                    self.pos += 1;
                }
                if self.peek() == b'\t' {
                    let s = self.pos;
                    self.skip_blanks();
                    if !(is_break(self.peek()) || self.at_end()) && (self.col() as isize) <= indent
                    {
                        self.pos = s;
                        return self.err("found a tab character that violates indentation");
                    }
                }
            }
            let c = self.peek();
            let stop = self.at_end()
                || self.at_boundary()
                || c == b'#'
                || (self.col() as isize) <= indent
                || (self.col() == 0 && self.at_boundary());
            if stop {
                self.pos = save.0;
                self.line = save.1;
                self.line_start = save.2;
                break;
            }
            let chunk_start = self.pos;
            end = self.plain_chunk(false);
            if end == chunk_start {
                // A line that is only `: ...`.
                return self.err("mapping values are not allowed in this context");
            }
            push_fold(&mut text, breaks);
            text.push_str(&self.src[chunk_start..end]);
            self.pos = end;
            let save2 = self.pos;
            self.skip_blanks();
            if self.peek() == b':' && self.ws_or_end_at(1) {
                return self.err("mapping values are not allowed in this context");
            }
            self.pos = save2;
        }
        let mut n = Node::plain(text);
        n.span = Span {
            start: start as u32,
            end: end as u32,
        };
        self.pos = end;
        self.skip_blanks();
        if self.peek() == b'#' {
            n.comments_mut().line = self.read_comment();
        } else {
            self.pos = end;
        }
        Ok((n, false))
    }

    fn single_quoted(&mut self) -> R<Node> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Text::default();
        loop {
            if self.at_end() {
                return self.err("found unexpected end of stream");
            }
            let c = self.peek();
            if c == b'\'' {
                if self.peek_at(1) == b'\'' {
                    out.push('\'');
                    self.pos += 2;
                    continue;
                }
                self.pos += 1;
                break;
            }
            if is_blank(c) || is_break(c) {
                self.fold_quoted_whitespace(&mut out)?;
                continue;
            }
            let ch_len = utf8_len(c);
            out.push_str(&self.src[self.pos..self.pos + ch_len]);
            self.pos += ch_len;
        }
        let mut n = Node::scalar(out, Style::SingleQuoted);
        n.span = Span {
            start: start as u32,
            end: self.pos as u32,
        };
        Ok(n)
    }

    /// Whitespace inside a quoted scalar: blanks before a line break are dropped, one break
    /// folds to a space, n breaks to n-1 newlines.
    fn fold_quoted_whitespace(&mut self, out: &mut Text) -> R<()> {
        let ws_start = self.pos;
        self.skip_blanks();
        if !is_break(self.peek()) {
            out.push_str(&self.src[ws_start..self.pos]);
            return Ok(());
        }
        let mut breaks = 0;
        while is_break(self.peek()) || is_blank(self.peek()) {
            if is_break(self.peek()) {
                self.newline();
                breaks += 1;
                if self.at_boundary() {
                    return self.err("found unexpected document indicator");
                }
            } else {
                self.pos += 1;
            }
        }
        if self.at_end() {
            return self.err("found unexpected end of stream");
        }
        push_fold(out, breaks);
        Ok(())
    }

    fn double_quoted(&mut self) -> R<Node> {
        let start = self.pos;
        self.pos += 1;
        let mut out = Text::default();
        loop {
            if self.at_end() {
                return self.err("found unexpected end of stream");
            }
            let c = self.peek();
            match c {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' => {
                    let e = self.peek_at(1);
                    if is_break(e) {
                        // An escaped line break joins the lines without a space.
                        self.pos += 1;
                        self.newline();
                        self.skip_blanks();
                        while is_break(self.peek()) {
                            out.push('\n');
                            self.newline();
                            self.skip_blanks();
                        }
                        continue;
                    }
                    let simple = match e {
                        b'0' => Some('\0'),
                        b'a' => Some('\x07'),
                        b'b' => Some('\x08'),
                        b't' | b'\t' => Some('\t'),
                        b'n' => Some('\n'),
                        b'v' => Some('\x0b'),
                        b'f' => Some('\x0c'),
                        b'r' => Some('\r'),
                        b'e' => Some('\x1b'),
                        b' ' => Some(' '),
                        b'"' => Some('"'),
                        b'/' => Some('/'),
                        b'\\' => Some('\\'),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{a0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        out.push(ch);
                        self.pos += 2;
                        continue;
                    }
                    let width = match e {
                        b'x' => 2,
                        b'u' => 4,
                        b'U' => 8,
                        _ => {
                            self.pos += 1;
                            return self.err("found unknown escape character");
                        }
                    };
                    self.pos += 2;
                    let hex = self.b.get(self.pos..self.pos + width).unwrap_or(&[]);
                    if hex.len() != width || !hex.iter().all(u8::is_ascii_hexdigit) {
                        return self.err("did not find expected hexdecimal number");
                    }
                    let v = u32::from_str_radix(std::str::from_utf8(hex).unwrap_or("0"), 16)
                        .unwrap_or(0);
                    match char::from_u32(v) {
                        Some(ch) => out.push(ch),
                        None => {
                            return self.err("found invalid Unicode character escape code");
                        }
                    }
                    self.pos += width;
                }
                _ if is_blank(c) || is_break(c) => self.fold_quoted_whitespace(&mut out)?,
                _ => {
                    let ch_len = utf8_len(c);
                    out.push_str(&self.src[self.pos..self.pos + ch_len]);
                    self.pos += ch_len;
                }
            }
        }
        let mut n = Node::scalar(out, Style::DoubleQuoted);
        n.span = Span {
            start: start as u32,
            end: self.pos as u32,
        };
        Ok(n)
    }

    /// `|` and `>` scalars, following libyaml's `scan_block_scalar` (indentation detection,
    /// chomping, folding of lines that are not more indented).
    fn block_scalar(&mut self, indent: isize) -> R<Node> {
        let start = self.pos;
        let literal = self.peek() == b'|';
        self.pos += 1;
        let mut chomp: i8 = 0;
        let mut increment: usize = 0;
        for _ in 0..2 {
            let c = self.peek();
            if (c == b'+' || c == b'-') && chomp == 0 {
                chomp = if c == b'+' { 1 } else { -1 };
                self.pos += 1;
            } else if c.is_ascii_digit() && increment == 0 {
                if c == b'0' {
                    return self.err("found an indentation indicator equal to 0");
                }
                increment = (c - b'0') as usize;
                self.pos += 1;
            }
        }
        self.skip_blanks();
        let mut line_comment = String::new();
        if self.peek() == b'#' {
            line_comment = self.read_comment();
        }
        if !(self.at_end() || is_break(self.peek())) {
            return self.err("did not find expected comment or line break");
        }
        if !self.at_end() {
            self.newline();
        }
        let parent = indent.max(-1);
        let mut block_indent: usize = if increment > 0 {
            if parent >= 0 {
                parent as usize + increment
            } else {
                increment
            }
        } else {
            0
        };
        let mut out = String::new();
        let mut trailing_breaks = String::new();
        self.block_scalar_breaks(&mut block_indent, &mut trailing_breaks, parent)?;
        let mut leading_break = String::new();
        let mut leading_blank = false;
        let mut end = self.pos;
        while self.col() == block_indent && !self.at_end() {
            if self.col() == 0 && self.at_boundary() {
                break;
            }
            let trailing_blank = is_blank(self.peek());
            if !literal && leading_break.starts_with('\n') && !leading_blank && !trailing_blank {
                if trailing_breaks.is_empty() {
                    out.push(' ');
                }
                leading_break.clear();
            } else {
                out.push_str(&leading_break);
                leading_break.clear();
            }
            out.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = is_blank(self.peek());
            let line = self.rest_of_line();
            out.push_str(line);
            self.pos += line.len();
            end = self.pos;
            if self.at_end() {
                break;
            }
            self.newline();
            leading_break.push('\n');
            self.block_scalar_breaks(&mut block_indent, &mut trailing_breaks, parent)?;
        }
        if chomp != -1 {
            out.push_str(&leading_break);
        }
        if chomp == 1 {
            out.push_str(&trailing_breaks);
        }
        // Leave the cursor at the start of the line that ended the scalar, so indentation is
        // measured from column 0 by the caller. A scalar that runs to the end of input (no
        // final line break) ends there: rewinding would read its last line again, forever.
        if !self.at_end() {
            self.pos = self.line_start;
        }
        let mut n = Node::scalar(
            out,
            if literal {
                Style::Literal
            } else {
                Style::Folded
            },
        );
        n.span = Span {
            start: start as u32,
            end: end as u32,
        };
        if !line_comment.is_empty() {
            n.comments_mut().line = line_comment;
        }
        Ok(n)
    }

    fn block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        breaks: &mut String,
        parent: isize,
    ) -> R<()> {
        let mut max_indent = 0;
        loop {
            while (*indent == 0 || self.col() < *indent) && self.peek() == b' ' {
                self.pos += 1;
            }
            if self.col() > max_indent {
                max_indent = self.col();
            }
            if (*indent == 0 || self.col() < *indent) && self.peek() == b'\t' {
                return self.err("found a tab character where an indentation space is expected");
            }
            if !is_break(self.peek()) {
                break;
            }
            self.newline();
            breaks.push('\n');
        }
        if *indent == 0 {
            *indent = max_indent;
            if (*indent as isize) < parent + 1 {
                *indent = (parent + 1) as usize;
            }
            if *indent < 1 {
                *indent = 1;
            }
        }
        Ok(())
    }

    // ---- flow collections -------------------------------------------------------------------

    fn skip_flow_ws(&mut self) -> R<()> {
        loop {
            let c = self.peek();
            if is_blank(c) {
                self.pos += 1;
            } else if is_break(c) {
                self.newline();
                if self.at_boundary() {
                    return self.err("found unexpected document indicator");
                }
            } else if c == b'#' {
                self.read_comment();
            } else {
                return Ok(());
            }
        }
    }

    /// A node in flow context; `close` is the bracket of the collection around it (0 for a
    /// collection that opens in block context).
    fn flow_node(&mut self, close: u8) -> R<Node> {
        self.skip_flow_ws()?;
        let mut props = Props::default();
        self.props(&mut props, Stray::Flow(close))?;
        self.skip_flow_ws()?;
        let mut n = match self.peek() {
            // Only after the node's own properties and a line break: `props` read the rest.
            b'&' | b'!' => return Err(self.stray_error(Stray::Flow(close))),
            b'[' => self.flow_sequence()?,
            b'{' => self.flow_mapping()?,
            b'"' => self.double_quoted()?,
            b'\'' => self.single_quoted()?,
            b'*' => self.alias()?,
            0 if self.at_end() => return self.err("did not find expected node content"),
            b',' | b']' | b'}' | b':' if !props.is_empty() => {
                let mut e = Node::plain("");
                e.span = Span {
                    start: self.pos as u32,
                    end: self.pos as u32,
                };
                e
            }
            b',' | b']' | b'}' | b'#' | b'|' | b'>' | b'@' | b'`' | b'%' => {
                return self.err("did not find expected node content");
            }
            b'-' | b'?' | b':' if self.ws_or_end_at(1) => {
                return self.err("did not find expected node content");
            }
            _ => self.plain_flow()?,
        };
        props.apply(&mut n);
        Ok(n)
    }

    fn plain_flow(&mut self) -> R<Node> {
        let start = self.pos;
        let mut end = self.plain_chunk(true);
        let mut text = Text::from(&self.src[start..end]);
        self.pos = end;
        loop {
            let save = (self.pos, self.line, self.line_start);
            self.skip_blanks();
            if !is_break(self.peek()) {
                self.pos = save.0;
                break;
            }
            let mut breaks = 0;
            while is_break(self.peek()) {
                self.newline();
                breaks += 1;
                self.skip_blanks();
            }
            let c = self.peek();
            if self.at_end()
                || c == b'#'
                || is_flow_indicator(c)
                || (c == b':' && (self.ws_or_end_at(1) || is_flow_indicator(self.peek_at(1))))
                || self.at_boundary()
            {
                self.pos = save.0;
                self.line = save.1;
                self.line_start = save.2;
                break;
            }
            let chunk_start = self.pos;
            end = self.plain_chunk(true);
            push_fold(&mut text, breaks);
            text.push_str(&self.src[chunk_start..end]);
            self.pos = end;
        }
        let mut n = Node::plain(text);
        n.span = Span {
            start: start as u32,
            end: end as u32,
        };
        Ok(n)
    }

    fn flow_sequence(&mut self) -> R<Node> {
        self.enter()?;
        let start = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_flow_ws()?;
            if self.peek() == b']' {
                self.pos += 1;
                break;
            }
            if self.at_end() {
                return self.err("did not find expected ',' or ']'");
            }
            let item = if self.peek() == b'?' && self.ws_or_end_at(1) {
                self.pos += 1;
                let (k, v) = self.flow_pair(b']')?;
                single_pair(k, v)
            } else {
                let first = self.flow_node(b']')?;
                self.skip_flow_ws()?;
                let json_like = matches!(
                    first.style,
                    Style::SingleQuoted | Style::DoubleQuoted | Style::Flow
                );
                if self.peek() == b':'
                    && (json_like || self.ws_or_end_at(1) || is_flow_indicator(self.peek_at(1)))
                {
                    self.pos += 1;
                    self.skip_flow_ws()?;
                    let v = if matches!(self.peek(), b',' | b']') {
                        Node::plain("")
                    } else {
                        self.flow_node(b']')?
                    };
                    single_pair(first, v)
                } else {
                    first
                }
            };
            items.push(item);
            self.skip_flow_ws()?;
            match self.peek() {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    break;
                }
                _ => return self.err("did not find expected ',' or ']'"),
            }
        }
        self.leave();
        Ok(Node {
            value: Value::Sequence(items),
            style: Style::Flow,
            extra: None,
            span: Span {
                start: start as u32,
                end: self.pos as u32,
            },
        })
    }

    /// A key/value pair inside a flow collection, after an optional `?`.
    fn flow_pair(&mut self, close: u8) -> R<(Node, Node)> {
        self.skip_flow_ws()?;
        let key = if self.peek() == b':' || self.peek() == b',' || self.peek() == close {
            // Placed where it would be, so a duplicate-key error can name its line.
            let mut k = Node::plain("");
            k.span = Span {
                start: self.pos as u32,
                end: self.pos as u32,
            };
            k
        } else {
            self.flow_node(close)?
        };
        self.skip_flow_ws()?;
        let json_like = matches!(
            key.style,
            Style::SingleQuoted | Style::DoubleQuoted | Style::Flow
        );
        let value = if self.peek() == b':'
            && (json_like || self.ws_or_end_at(1) || is_flow_indicator(self.peek_at(1)))
        {
            self.pos += 1;
            self.skip_flow_ws()?;
            if self.peek() == b',' || self.peek() == close {
                Node::plain("")
            } else {
                self.flow_node(close)?
            }
        } else {
            Node::plain("")
        };
        Ok((key, value))
    }

    fn flow_mapping(&mut self) -> R<Node> {
        self.enter()?;
        let start = self.pos;
        self.pos += 1;
        let mut pairs = Vec::new();
        loop {
            self.skip_flow_ws()?;
            if self.peek() == b'}' {
                self.pos += 1;
                break;
            }
            if self.at_end() {
                return self.err("did not find expected ',' or '}'");
            }
            if self.peek() == b'?' && self.ws_or_end_at(1) {
                self.pos += 1;
            }
            let (key, value) = self.flow_pair(b'}')?;
            pairs.push(Pair { key, value });
            self.skip_flow_ws()?;
            match self.peek() {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    break;
                }
                _ => return self.err("did not find expected ',' or '}'"),
            }
        }
        self.check_unique_keys(&pairs)?;
        self.leave();
        Ok(Node {
            value: Value::Mapping(pairs),
            style: Style::Flow,
            extra: None,
            span: Span {
                start: start as u32,
                end: self.pos as u32,
            },
        })
    }
}

fn single_pair(key: Node, value: Node) -> Node {
    let span = Span {
        start: key.span.start,
        end: value.span.end.max(key.span.end),
    };
    Node {
        value: Value::Mapping(vec![Pair { key, value }]),
        style: Style::Flow,
        extra: None,
        span,
    }
}

/// Comment lines joined with `\n`, a blank line kept where the source had one.
/// Comments above an item's `-` open it, before any of its own.
fn attach_item_head(item: &mut Node, head: String) {
    if head.is_empty() {
        return;
    }
    let c = item.comments_mut();
    c.head = if c.head.is_empty() {
        head
    } else {
        format!("{head}\n{}", c.head)
    };
}

fn join_comments(comments: impl Iterator<Item = PendingComment>) -> String {
    let mut out = String::new();
    for (i, c) in comments.enumerate() {
        if i > 0 {
            out.push('\n');
            if c.blank_before {
                out.push('\n');
            }
        }
        out.push_str(&c.text);
    }
    out
}

/// YAML line folding: one line break between text becomes a space, n breaks n-1 newlines.
fn push_fold(text: &mut Text, breaks: usize) {
    if breaks == 1 {
        text.push(' ');
    } else {
        for _ in 1..breaks {
            text.push('\n');
        }
    }
}

fn set_line(n: &mut Node, line_comment: String) {
    if line_comment.is_empty() {
        return;
    }
    let c: &mut Comments = n.comments_mut();
    if c.line.is_empty() {
        c.line = line_comment;
    } else {
        c.head = if c.head.is_empty() {
            line_comment
        } else {
            format!("{line_comment}\n{}", c.head)
        };
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Checks one directive line (starting at its `%`) as libyaml's scanner does. Returns the
/// version of a `%YAML` directive, or libyaml's message and the byte offset it points at.
/// `%TAG` directives are only recognised by name: their handles are not resolved here.
fn check_directive(line: &str) -> Result<Option<(u32, u32)>, (&'static str, usize)> {
    let b = line.as_bytes();
    let name_end = 1 + b[1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
        .count();
    if name_end == 1 {
        return Err(("did not find expected directive name", 1));
    }
    if name_end < b.len() && !is_blank(b[name_end]) {
        return Err(("found unexpected non-alphabetical character", name_end));
    }
    match &line[1..name_end] {
        "YAML" => {}
        "TAG" => return Ok(None),
        _ => return Err(("found unknown directive name", 1)),
    }
    let mut i = name_end;
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    let major = version_number(b, &mut i)?;
    if b.get(i) != Some(&b'.') {
        return Err(("did not find expected digit or '.' character", i));
    }
    i += 1;
    let minor = version_number(b, &mut i)?;
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    if i < b.len() && b[i] != b'#' {
        return Err(("did not find expected comment or line break", i));
    }
    Ok(Some((major, minor)))
}

/// One number of a `%YAML` version: at most nine digits, as libyaml allows.
fn version_number(b: &[u8], i: &mut usize) -> Result<u32, (&'static str, usize)> {
    let start = *i;
    let mut v: u32 = 0;
    while *i < b.len() && b[*i].is_ascii_digit() {
        if *i - start == 9 {
            return Err(("found extremely long version number", start));
        }
        v = v * 10 + u32::from(b[*i] - b'0');
        *i += 1;
    }
    if *i == start {
        return Err(("did not find expected version number", start));
    }
    Ok(v)
}

/// Byte offset of the first character libyaml's reader refuses ("control characters are not
/// allowed"): its `is_printable` allows tab, LF, CR, 0x20-0x7E, NEL, 0xA0-0xD7FF,
/// 0xE000-0xFFFD and 0x10000 up. In a `str` (valid UTF-8, no surrogates) that leaves the C0
/// controls, DEL, the C1 controls but NEL (UTF-8 `C2 80`..`C2 9F`) and U+FFFE/U+FFFF
/// (`EF BF BE`/`EF BF BF`).
fn first_forbidden_char(b: &[u8]) -> Option<usize> {
    // The whole input passes through here, so chunks are screened without branches (the loop
    // vectorises) and only a chunk holding a suspect byte is looked at closely. `C2` and `EF`
    // are lead bytes in valid UTF-8, never continuation bytes, so a suspect is a character
    // start.
    const CHUNK: usize = 64;
    for (n, chunk) in b.chunks(CHUNK).enumerate() {
        let mut suspect = 0u8;
        for &c in chunk {
            let control = (c < 0x20) & (c != b'\t') & (c != b'\n') & (c != b'\r');
            suspect |= (control | (c == 0x7f) | (c == 0xc2) | (c == 0xef)) as u8;
        }
        if suspect == 0 {
            continue;
        }
        let base = n * CHUNK;
        for (i, &c) in chunk.iter().enumerate() {
            let at = base + i;
            let bad = match c {
                b'\t' | b'\n' | b'\r' => false,
                0..=0x1f | 0x7f => true,
                0xc2 => {
                    matches!(b.get(at + 1), Some(&n) if (0x80..=0x9f).contains(&n) && n != 0x85)
                }
                0xef => b.get(at + 1) == Some(&0xbf) && matches!(b.get(at + 2), Some(0xbe | 0xbf)),
                _ => false,
            };
            if bad {
                return Some(at);
            }
        }
    }
    None
}

/// 1-based line and column (in bytes) of a byte offset, counting line breaks as the parser
/// does (CRLF, LF or a lone CR). Only used to report errors, so a scan from the start is fine.
fn line_col(b: &[u8], offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    while i < offset.min(b.len()) {
        match b[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'\r' if b.get(i + 1) != Some(&b'\n') => {
                line += 1;
                line_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    (line, offset - line_start + 1)
}

/// go-yaml's identity of a mapping key in `decoder.mapping`: the node kind and its `Value`,
/// which is the decoded text of a scalar (so `a` and `"a"`, or `1` and `"1"`, are the same
/// key; tags do not count), the name of an alias, and empty for a collection (so any two
/// collection keys of one kind clash, as they do in go-yaml).
fn key_id(key: &Node) -> (u8, &str) {
    match &key.value {
        Value::Scalar(s) => (0, s.as_str()),
        Value::Alias(a) => (1, a.as_str()),
        Value::Mapping(_) => (2, ""),
        Value::Sequence(_) => (3, ""),
    }
}

/// Mappings up to this many keys are checked for duplicates pair by pair: cheaper than
/// hashing for the small mappings that make up nearly all of a manifest.
const LINEAR_KEY_CHECK: usize = 16;

/// The first duplicate key of a mapping in go-yaml's order (the earliest key that is defined
/// again, and its first repetition), as `(first, again)` indexes.
fn first_duplicate_key(pairs: &[Pair]) -> Option<(usize, usize)> {
    if pairs.len() < 2 {
        return None;
    }
    if pairs.len() <= LINEAR_KEY_CHECK {
        for (i, p) in pairs.iter().enumerate() {
            let id = key_id(&p.key);
            if let Some(j) = pairs[i + 1..].iter().position(|q| key_id(&q.key) == id) {
                return Some((i, i + 1 + j));
            }
        }
        return None;
    }
    let mut first: HashMap<(u8, &str), usize> = HashMap::with_capacity(pairs.len());
    let mut found: Option<(usize, usize)> = None;
    for (j, p) in pairs.iter().enumerate() {
        match first.entry(key_id(&p.key)) {
            Entry::Occupied(e) => {
                let i = *e.get();
                if found.is_none_or(|(fi, _)| i < fi) {
                    found = Some((i, j));
                }
            }
            Entry::Vacant(e) => {
                e.insert(j);
            }
        }
    }
    found
}

/// A string quoted as Go's `%#v` (`strconv.Quote`) writes it, for go-yaml's messages.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Puts comments taken above a node's properties where the emitter writes them back above the
/// properties: on the node when it has its own properties or is not a block collection, else
/// (the properties went to its first key) on its first entry.
fn attach_head(n: &mut Node, head: String) {
    if head.is_empty() {
        return;
    }
    let own_props = n.anchor().is_some() || n.tag().is_some();
    let target = match &mut n.value {
        Value::Mapping(pairs) if !own_props && n.style == Style::Block && !pairs.is_empty() => {
            &mut pairs[0].key
        }
        Value::Sequence(items) if !own_props && n.style == Style::Block && !items.is_empty() => {
            &mut items[0]
        }
        _ => n,
    };
    let c = target.comments_mut();
    c.head = if c.head.is_empty() {
        head
    } else {
        format!("{head}\n{}", c.head)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> Error {
        match parse_stream(src) {
            Ok(_) => panic!("accepted: {src:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn duplicate_keys_compare_decoded_values() {
        let e = err("a: 1\nb: 2\n\"a\": 3\n");
        assert_eq!(
            e.to_string(),
            "yaml: line 3: mapping key \"a\" already defined at line 1"
        );
        assert_eq!(e.column, 1);
        // Tags and styles do not make keys differ; the nested mapping is checked too.
        let e = err("m:\n  1: x\n  !!str 1: y\n");
        assert_eq!(e.message, "mapping key \"1\" already defined at line 2");
        assert_eq!((e.line, e.column), (3, 3));
        let e = err("{x: 1, y: 2, 'y': 3}");
        assert_eq!(e.message, "mapping key \"y\" already defined at line 1");
        assert_eq!(e.column, 14);
        // go-yaml compares collection keys by kind alone, and merge keys like any key.
        assert_eq!(
            err("? [a]\n: 1\n? [b]\n: 2\n").message,
            "mapping key \"\" already defined at line 1"
        );
        assert_eq!(
            err("<<: {a: 1}\n<<: {b: 1}\n").message,
            "mapping key \"<<\" already defined at line 1"
        );
        assert_eq!(
            err("a: &x 1\n*x : 2\n*x : 3\n").message,
            "mapping key \"x\" already defined at line 2"
        );
        // Go's %#v quoting of the key.
        assert_eq!(
            err("\"a\\tb\\\"\": 1\n\"a\\tb\\\"\": 2\n").message,
            "mapping key \"a\\tb\\\"\" already defined at line 1"
        );
    }

    #[test]
    fn duplicate_keys_may_be_allowed() {
        let opts = ParseOptions {
            unique_keys: false,
            ..ParseOptions::default()
        };
        let docs = parse_stream_with(
            "a: 1
a: 2
",
            &opts,
        )
        .unwrap();
        assert_eq!(docs[0].root.pairs().map(<[Pair]>::len), Some(2));
    }

    #[test]
    fn distinct_keys_pass() {
        // `~` and `null` are different values, as are keys that differ only in length.
        assert!(parse_stream("~: 1\nnull: 2\na: 3\naa: 4\n? [a]\n: 5\n? {a: 1}\n: 6\n").is_ok());
        // The same key in sibling mappings is no duplicate.
        assert!(parse_stream("- a: 1\n- a: 2\n").is_ok());
    }

    #[test]
    fn duplicate_in_large_mapping_reports_go_yamls_first() {
        // More keys than the linear check takes: the hashed path must name the same pair as
        // go-yaml's nested loop (earliest key defined again, then its first repetition).
        let mut src: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
        src.push_str("k30: again\nk5: again\nk5: thrice\n");
        let e = err(&src);
        assert_eq!(e.message, "mapping key \"k5\" already defined at line 6");
        assert_eq!(e.line, 42);
        let mut flow = String::from("{");
        for i in 0..20 {
            flow.push_str(&format!("f{i}: {i}, "));
        }
        flow.push_str("f19: x}");
        assert_eq!(
            err(&flow).message,
            "mapping key \"f19\" already defined at line 1"
        );
        assert!(first_duplicate_key(&[]).is_none());
    }

    #[test]
    fn control_characters_are_refused_where_libyaml_refuses_them() {
        for bad in [
            "\u{0}", "\u{1}", "\u{1b}", "\u{7f}", "\u{80}", "\u{9f}", "\u{fffe}", "\u{ffff}",
        ] {
            let e = err(&format!("a: 1\nb: x{bad}y\n"));
            assert_eq!(e.message, "control characters are not allowed", "{bad:?}");
            assert_eq!((e.line, e.column), (2, 5), "{bad:?}");
        }
        // In a comment or a quoted scalar too: the reader refuses them before any token.
        assert_eq!(
            err("# \u{7}\na: 1\n").message,
            "control characters are not allowed"
        );
        // Past the first screening chunk.
        let long = format!("{}: \u{2}\n", "k".repeat(200));
        assert_eq!(err(&long).column, 203);
        // Allowed: tab, CR, NEL, NBSP, BOM, the rest of the BMP and beyond, and escapes.
        let ok = "a: \"x\ty\"\r\nb: x\u{85}y\u{a0}\u{feff}\u{fffd}\u{10000}\nc: \"\\x01\\0\"\n";
        assert!(parse_stream(ok).is_ok());
    }

    #[test]
    fn yaml_directive_versions() {
        assert!(parse_stream("%YAML 1.1\n---\na: 1\n").is_ok());
        assert!(
            parse_stream("%YAML   1.1 # why not\n%TAG !e! tag:e.com,2000:\n---\na: 1\n").is_ok()
        );
        // go-yaml v3 accepts 1.1 only, 1.2 included in what it refuses.
        for v in ["2.0", "1.2", "1.0", "0.9"] {
            let e = err(&format!("%YAML {v}\n---\na: 1\n"));
            assert_eq!(e.message, "found incompatible YAML document", "{v}");
            assert_eq!(e.line, 1);
        }
        let cases = [
            (
                "%YAML 1.1\n%YAML 1.1\n---\n",
                "found duplicate %YAML directive",
                2,
                1,
            ),
            (
                "%YAML 1.x\n---\n",
                "did not find expected version number",
                1,
                9,
            ),
            (
                "%YAML 1\n---\n",
                "did not find expected digit or '.' character",
                1,
                8,
            ),
            (
                "%YAML 1234567890.1\n---\n",
                "found extremely long version number",
                1,
                7,
            ),
            (
                "%YAML 1.1 x\n---\n",
                "did not find expected comment or line break",
                1,
                11,
            ),
            ("%FOO bar\n---\n", "found unknown directive name", 1, 2),
            (
                "% YAML 1.1\n---\n",
                "did not find expected directive name",
                1,
                2,
            ),
            (
                "%YA!ML 1.1\n---\n",
                "found unexpected non-alphabetical character",
                1,
                4,
            ),
        ];
        for (src, msg, line, col) in cases {
            let e = err(src);
            assert_eq!(
                (e.message.as_str(), e.line, e.column),
                (msg, line, col),
                "{src:?}"
            );
        }
    }

    #[test]
    fn aliases_need_an_anchor_defined_before_them_in_the_document() {
        let e = err("a: 1\nb: *k\n");
        assert_eq!(
            (e.message.as_str(), e.line, e.column),
            ("unknown anchor 'k' referenced", 2, 4)
        );
        assert_eq!(err("{*k : v}").message, "unknown anchor 'k' referenced");
        assert_eq!(
            err("- *a\n- &a x\n").message,
            "unknown anchor 'a' referenced"
        );
        assert_eq!(
            err("a: &a 1\n---\nb: *a\n").message,
            "unknown anchor 'a' referenced"
        );
        assert!(parse_stream("a: &a 1\nb: *a\n---\nc: &a 2\nd: [*a, {*a : x}]\n").is_ok());
        // An anchor is defined from its node's start, so a node may hold an alias to itself
        // (go-yaml builds the cycle; expanding it fails later).
        assert!(parse_stream("a: &s [*s]\n").is_ok());
    }

    #[test]
    fn a_second_anchor_or_tag_fails_in_the_enclosing_collection() {
        // libyaml's words (checked against kpt, i.e. go-yaml v3).
        let cases = [
            ("items:\n- &a &b {}\n", "did not find expected key", 2, 6),
            (
                "d:\n  - &a &b x\n",
                "did not find expected '-' indicator",
                2,
                8,
            ),
            ("d:\n  - &a &b k: v\n", "did not find expected key", 2, 8),
            ("d: [&a &b x]\n", "did not find expected ',' or ']'", 1, 8),
            (
                "d: {k: !t !u x}\n",
                "did not find expected ',' or '}'",
                1,
                11,
            ),
            ("{a: &a\n &b x}\n", "did not find expected ',' or '}'", 2, 2),
            ("k: &a !t &b x\n", "did not find expected key", 1, 10),
            ("&a &b x\n", "did not find expected <document start>", 1, 4),
            ("d: &a\n  &b k\n", "did not find expected key", 2, 3),
            ("a: 1\n&a &b k: v\n", "did not find expected key", 2, 4),
        ];
        for (src, msg, line, col) in cases {
            let e = err(src);
            assert_eq!(
                (e.message.as_str(), e.line, e.column),
                (msg, line, col),
                "{src:?}"
            );
        }
        // Properties of a mapping, then of its first key on the next line, are fine.
        let docs = parse_stream("d: &a !m\n  &b !k k: v\n").unwrap();
        let d = docs[0].root.get("d").unwrap();
        assert_eq!((d.anchor(), d.tag()), (Some("a"), Some("!m")));
        let Value::Mapping(pairs) = &d.value else {
            panic!("not a mapping")
        };
        assert_eq!(
            (pairs[0].key.anchor(), pairs[0].key.tag()),
            (Some("b"), Some("!k"))
        );
        assert_eq!(pairs[0].key.as_str(), Some("k"));
    }
}
