//! A YAML parser that builds the node tree directly, keeping styles, tags, anchors, comments
//! and source spans. It follows libyaml's grammar and error texts (what go-yaml and so kyaml
//! accept), with one pass over the bytes and no token or event layer.
//!
//! One cursor, `Parser`, walks the bytes. This file holds the public API, the cursor's state
//! and its low-level moves; the grammar is spread over the submodules by what it reads:
//! `document` (directives, `---`/`...`, documents), `block` (block collections and what may
//! open a block node), `keys` (implicit keys, duplicate keys), `properties` (anchors, tags,
//! aliases), `scalar`, `flow`, `comments` (which node a comment line belongs to) and `handoff`
//! (the items of `items:` handed over one at a time).

mod block;
mod comments;
mod document;
mod flow;
mod flow_comments;
mod handoff;
mod keys;
mod properties;
mod scalar;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use comments::attach_item_head;
pub use handoff::Handed;

use crate::error::Stage;
use crate::node::{Node, Pair, Span};
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
    /// The document ended with `...`.
    pub explicit_end: bool,
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

/// [`parse_stream_with`] of a document's text cut from a longer stream, not from its start:
/// comments after a `---` on the text's first line are then read as after a `---` on any
/// later line of the stream (see `Parser::document`).
pub(crate) fn parse_cut_document(src: &str, opts: &ParseOptions) -> Result<Vec<Document>, Error> {
    check_source(src)?;
    let mut parser = Parser::new(src, opts, None);
    parser.cut_from_stream = true;
    parser.stream()
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
    /// It is an entry of a flow sequence (a JSON ResourceList's `items`), not of a block one.
    pub flow: bool,
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
    /// An item of a flow sequence (a JSON ResourceList's), read again as a flow node.
    flow: bool,
    head: String,
    /// An item of a flow sequence's line comment (outside its text, as its head and foot).
    line_comment: String,
    foot: String,
}

/// An item of a JSON ResourceList's `items` parsed and not yet handed over.
struct HeldItem {
    index: usize,
    resume: Resume,
    self_contained: bool,
}

/// Like [`parse_stream_with`], but when the first document is a mapping whose `kind` is
/// `ResourceList` or `List`, or is not written before `items` (a caller whose document turns
/// out not to be a list reads it again), each entry of its block sequence `items:` is
/// handed to `sink` once it is complete, comments included; in a flow root mapping (JSON),
/// each entry of its flow sequence `items` that is not a pair, once the root can no longer
/// be a key. The sink returns the node to keep
/// in the tree, or `None` to take it: a `null` placeholder with the item's span stays in its
/// place. Everything else is parsed and checked exactly as [`parse_stream_with`] does.
pub fn parse_stream_handing_items(
    src: &str,
    opts: &ParseOptions,
    sink: &mut dyn FnMut(Handoff) -> Option<Node>,
) -> Result<Vec<Document>, Error> {
    parse_stream_handing(src, opts, Handed::Items, sink)
}

/// [`parse_stream_handing_items`] for the sequence `handed` names: the entries of that block
/// sequence go to `sink` once each is complete (see [`Handed`] for which sequence qualifies),
/// a `null` placeholder with the entry's span staying where `sink` takes one. Everything else
/// is parsed and checked exactly as [`parse_stream_with`] does.
pub fn parse_stream_handing(
    src: &str,
    opts: &ParseOptions,
    handed: Handed,
    sink: &mut dyn FnMut(Handoff) -> Option<Node>,
) -> Result<Vec<Document>, Error> {
    check_source(src)?;
    let mut parser = Parser::new(src, opts, Some(sink));
    parser.handed = handed;
    parser.stream()
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
    if resume.flow {
        let mut item = p.flow_item()?;
        if !(resume.head.is_empty() && resume.line_comment.is_empty() && resume.foot.is_empty()) {
            let c = item.comments_mut();
            c.head.clone_from(&resume.head);
            c.line.clone_from(&resume.line_comment);
            c.foot.clone_from(&resume.foot);
        }
        return Ok(item);
    }
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

/// A comment line skipped on the way to the next token, held until the node it belongs to is
/// known (see `comments`).
struct PendingComment {
    text: String,
    col: usize,
    /// A blank line since the comment before it (or since the document started).
    blank_before: bool,
    /// Where its `#` is.
    pos: usize,
    /// On the line of the token before it (inside a flow collection; block content's line
    /// comments are read with their node).
    same_line: bool,
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
    /// Comments read inside a flow collection since its last entry (`flow_comments`).
    flow_gap: Vec<PendingComment>,
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
    /// Where the root flow mapping opened, while the value of its `items` is read and handed
    /// over (a JSON ResourceList).
    flow_root: Option<Mark>,
    /// Set while the value of the first document's `items` key is parsed, when it qualifies.
    sink_armed: bool,
    /// Which sequence the sink is given the entries of.
    handed: Handed,
    /// Under [`Handed::TailorClusters`], where the entries of the mapping that is the value of
    /// a `Tailor` root's `spec` begin in `pair_stack` (their `base`), once that key is read.
    tailor_spec_base: Option<usize>,
    /// An item of a flow `items` read and not yet handed over: the comments after it, settled
    /// when the next entry starts, go with it. Here and not in a local of `flow_sequence`,
    /// whose frame each level of nesting pays for.
    held_item: Option<HeldItem>,
    /// Documents completed so far.
    docs_done: usize,
    /// Anchors and aliases read so far: an item that read none is self-contained.
    refs: usize,
    /// The block collections being read, innermost last: libyaml's parser names the one an
    /// unexpected token is in, and where it started, in its error.
    open: Vec<Open>,
    /// Tabs before this position were read by a plain scalar as its trailing whitespace.
    tabs_checked_to: usize,
    /// The column of the block collection around the flow collection being read (-1 at the
    /// root): a tab left of it may not continue a plain scalar (libyaml's `parser.indent`).
    flow_indent: isize,
    /// The text is a later document of a longer stream, cut out of it ([`parse_cut_document`]):
    /// its first line is not the stream's.
    cut_from_stream: bool,
    /// Where the first line break of the text is (its length when it has none), looked for
    /// when a comment needs it: a parser may start on an item deep in a long line.
    first_break: std::cell::OnceCell<usize>,
}

/// A block collection being read, for errors inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Open {
    /// 0-based line of its first key or `-` (libyaml's start mark for it).
    line: usize,
    /// The column of its keys or `-`s.
    col: usize,
    kind: OpenKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OpenKind {
    Mapping,
    Sequence,
    /// A sequence at its key's column (`k:\n- x`): anything but a `-` ends it quietly.
    IndentlessSequence,
}

type R<T> = Result<T, Error>;

/// A parser position with its line, to come back to ([`Parser::mark`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mark {
    pos: usize,
    line: usize,
    line_start: usize,
}

/// The span from byte `start` to byte `end`.
fn span(start: usize, end: usize) -> Span {
    Span {
        start: start as u32,
        end: end as u32,
    }
}

/// A node with its span.
fn spanned(mut n: Node, start: usize, end: usize) -> Node {
    n.span = span(start, end);
    n
}

/// The number of spaces at `b[at..]`, counted eight bytes at a time: every line's
/// indentation is read so, and a byte loop that stops after a different count on each line
/// mispredicts its exit once a line.
fn count_spaces(b: &[u8], at: usize) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut n = 0;
    while let Some(word) = word_at(b, at + n) {
        // The bytes that are not a space are the non-zero ones: the lowest is the first.
        let other = word ^ SPACES;
        if other != 0 {
            return n + first_lane(other);
        }
        n += 8;
    }
    while b.get(at + n) == Some(&b' ') {
        n += 1;
    }
    n
}

const LANE_ONES: u64 = u64::from_ne_bytes([0x01; 8]);
const LANE_HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The eight bytes at `b[at..]` as one word, first byte lowest, if there are eight.
fn word_at(b: &[u8], at: usize) -> Option<u64> {
    let chunk = b.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?))
}

/// The bytes of `word` equal to `c`, flagged by their high bit. A borrow only runs from a
/// flagged byte to higher ones, so the lowest flag (the first such byte of the text) is
/// exact; flags above it may not be.
fn lanes_equal(word: u64, c: u8) -> u64 {
    let x = word ^ (LANE_ONES * u64::from(c));
    x.wrapping_sub(LANE_ONES) & !x & LANE_HIGHS
}

/// The bytes of `word` below `n` (at most 0x80), flagged as [`lanes_equal`] flags them.
fn lanes_below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(LANE_ONES * u64::from(n)) & !word & LANE_HIGHS
}

/// The index of the first byte with a bit set in a non-zero word (the first flagged byte of a
/// mask from [`lanes_equal`] or [`lanes_below`]).
fn first_lane(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

fn is_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
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
            flow_gap: Vec::new(),
            blank_since_token: false,
            pair_stack: Vec::new(),
            item_stack: Vec::new(),
            anchors: HashSet::new(),
            indentless_items: false,
            unique_keys: opts.unique_keys,
            sink,
            flow_root: None,
            sink_armed: false,
            handed: Handed::Items,
            tailor_spec_base: None,
            held_item: None,
            docs_done: 0,
            refs: 0,
            open: Vec::new(),
            tabs_checked_to: 0,
            flow_indent: -1,
            cut_from_stream: false,
            first_break: std::cell::OnceCell::new(),
        }
    }

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

    /// The 0-based (line, column) of the cursor, where a scanner error points.
    fn scan_mark(&self) -> (usize, usize) {
        (self.line, self.col())
    }

    /// Where libyaml's next token starts when it is at the cursor, which a parser error points
    /// at. At the end of input that is the stream-end token, at the start of the line after
    /// the last one (`fetch_stream_end`).
    fn token_mark(&self) -> (usize, usize) {
        if self.at_end() && self.col() != 0 {
            (self.line + 1, 0)
        } else {
            (self.line, self.col())
        }
    }

    /// Where libyaml's scanner stands when it fetches the token after the cursor: past blanks,
    /// comments and line breaks (`scan_to_next_token`), and at the end of input on the new
    /// line `fetch_stream_end` forces. A simple key found to lack its ':' is refused there.
    fn next_token_mark(&self) -> (usize, usize) {
        let (mut pos, mut line, mut start) = (self.pos, self.line, self.line_start);
        while pos < self.b.len() {
            match self.b[pos] {
                b' ' | b'\t' => pos += 1,
                b'#' => {
                    while pos < self.b.len() && !is_break(self.b[pos]) {
                        pos += 1;
                    }
                }
                b'\r' if self.b.get(pos + 1) == Some(&b'\n') => {
                    pos += 2;
                    (line, start) = (line + 1, pos);
                }
                b'\n' | b'\r' => {
                    pos += 1;
                    (line, start) = (line + 1, pos);
                }
                _ => break,
            }
        }
        if pos >= self.b.len() && pos != start {
            return (line + 1, 0);
        }
        (line, pos - start)
    }

    /// libyaml's scanner refusing what is at the cursor, while reading the token that starts
    /// at `context` (the same position for most of its errors).
    fn scan_err<T>(&self, msg: impl Into<String>, context: Mark) -> R<T> {
        Err(Error::libyaml(
            Stage::Scanner,
            msg,
            self.scan_mark(),
            Some(context.line),
        ))
    }

    /// A scanner error whose context is the cursor itself.
    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        self.scan_err(msg, self.mark())
    }

    /// libyaml's parser refusing the token at the cursor, inside the node or collection that
    /// starts at `context`.
    fn parse_err<T>(&self, msg: impl Into<String>, context: Option<Mark>) -> R<T> {
        Err(Error::libyaml(
            Stage::Parser,
            msg,
            self.token_mark(),
            context.map(|m| m.line),
        ))
    }

    /// libyaml's parser finding a token where the innermost block collection (or the
    /// document, outside any) wants its next entry.
    fn unexpected_in_collection(&self) -> Error {
        let (msg, context) = match self.open.last().map(|o| o.kind) {
            None => ("did not find expected <document start>", None),
            Some(OpenKind::Sequence) => ("did not find expected '-' indicator", self.open.last()),
            // An indentless sequence ends there; the mapping it is the value of wants a key.
            Some(_) => ("did not find expected key", self.innermost_mapping()),
        };
        Error::libyaml(
            Stage::Parser,
            msg,
            self.token_mark(),
            context.map(|o| o.line),
        )
    }

    /// "did not find expected key" inside the innermost block mapping.
    fn in_mapping_error(&self) -> Error {
        Error::libyaml(
            Stage::Parser,
            "did not find expected key",
            self.token_mark(),
            self.innermost_mapping().map(|o| o.line),
        )
    }

    fn innermost_mapping(&self) -> Option<&Open> {
        self.open.iter().rev().find(|o| o.kind == OpenKind::Mapping)
    }

    /// The mark of a token that starts at the cursor: at the end of input, that of the
    /// stream-end token (see [`Parser::token_mark`]).
    fn token_start(&self) -> Mark {
        let (line, _) = self.token_mark();
        Mark {
            line,
            ..self.mark()
        }
    }

    /// A `:` and a blank where a node should start in block context. Where libyaml allows an
    /// implicit key (at the start of a line, after `-` or `?`) it reads a value indicator with
    /// no key, which the parser refuses in the collection at that column, or in the mapping
    /// that the indicator opens further right; elsewhere (after `key:`, properties or `---`)
    /// its scanner refuses it.
    fn value_without_key(&self) -> Error {
        let before = self.src[self.line_start..self.pos].trim_end_matches(' ');
        let key_allowed = before.trim_start_matches(' ').is_empty()
            || ((before.ends_with('-') || before.ends_with('?'))
                && before[..before.len() - 1].trim_end_matches(' ').is_empty());
        if !key_allowed {
            return Error::libyaml(
                Stage::Scanner,
                "mapping values are not allowed in this context",
                self.scan_mark(),
                Some(self.line),
            );
        }
        match self.open.last() {
            Some(o) if o.col == self.col() => self.unexpected_in_collection(),
            _ => Error::libyaml(
                Stage::Parser,
                "did not find expected key",
                self.token_mark(),
                Some(self.line),
            ),
        }
    }

    /// Whether only properties precede the cursor on its line, after the indicators (`-`,
    /// `?`) that let an implicit key start: then they are where one started.
    fn only_properties_before(&self) -> bool {
        let mut words = self.src[self.line_start..self.pos]
            .split_whitespace()
            .skip_while(|w| *w == "-" || *w == "?")
            .peekable();
        words.peek().is_some() && words.all(|w| w.starts_with(['&', '!']))
    }

    /// Whether a `:` at the cursor completes an implicit key that starts at `key`: libyaml
    /// drops a possible key once the scan leaves its line or gets more than 1024 characters
    /// past its start (`yaml_simple_key_is_valid`).
    fn simple_key_reaches(&self, key: Mark) -> bool {
        self.line == key.line
            && (self.pos - key.pos <= 1024 || self.src[key.pos..self.pos].chars().count() <= 1024)
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

    /// Where the parser is, to come back to it.
    /// Whether the line holds nothing but whitespace up to the cursor. Scanned from its start,
    /// which a token usually follows right after the indentation.
    fn line_is_blank(&self) -> bool {
        let line = &self.b[self.line_start..self.pos];
        match line.iter().position(|&c| !is_blank(c)) {
            None => true,
            Some(i) if line[i].is_ascii() && !char::from(line[i]).is_whitespace() => false,
            Some(_) => self.src[self.line_start..self.pos].trim().is_empty(),
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
        }
    }

    fn reset(&mut self, m: Mark) {
        self.pos = m.pos;
        self.line = m.line;
        self.line_start = m.line_start;
    }

    fn at_boundary(&self) -> bool {
        self.col() == 0
            && (self.b[self.pos..].starts_with(b"---") || self.b[self.pos..].starts_with(b"..."))
            && self.ws_or_end_at(3)
    }

    /// A document marker, or a `%` directive in column 0, which libyaml reads as the end of
    /// the document (`fetch_directive` closes every block collection) wherever it is.
    fn at_document_break(&self) -> bool {
        self.at_boundary() || (self.col() == 0 && self.peek() == b'%')
    }

    fn rest_of_line(&self) -> &'a str {
        let end = self.b[self.pos..]
            .iter()
            .position(|&c| is_break(c))
            .map_or(self.b.len(), |i| self.pos + i);
        &self.src[self.pos..end]
    }

    /// Reads a `#` comment to the end of the line (the text keeps its `#`, and the blanks
    /// after its last word: go-yaml's scanner keeps them, and kpt writes them back).
    fn read_comment(&mut self) -> String {
        let text = self.rest_of_line().to_string();
        self.pos += self.rest_of_line().len();
        text
    }

    /// Skips spaces, tabs, comments and line breaks up to the next token, collecting comment
    /// lines. Returns whether a line break was crossed.
    ///
    /// Inline for its common case: most calls (after a plain scalar that found the next token,
    /// after each entry of a collection) are already at a token, which one look tells; the
    /// full loop's frame cost more than the look.
    #[inline]
    fn skip_to_next_token(&mut self) -> R<bool> {
        // Past the stream's start (where a byte order mark may stand) a byte that no skip
        // starts with is the next token, or the end of the input.
        if self.pos != 0 && !matches!(self.peek(), b' ' | b'\t' | b'#' | b'\n' | b'\r') {
            return Ok(false);
        }
        self.skip_to_next_token_run()
    }

    #[inline(never)]
    fn skip_to_next_token_run(&mut self) -> R<bool> {
        let mut crossed = false;
        loop {
            let line_start = self.col() == 0;
            self.pos += count_spaces(self.b, self.pos);
            if self.peek() == b'\t' {
                // At the start of a line in block context an implicit key may start, and there
                // libyaml does not skip tabs: one is refused even on a line of its own or
                // before a comment (unless a plain scalar read it as its trailing space).
                if line_start && self.pos >= self.tabs_checked_to {
                    return self.err("found character that cannot start any token");
                }
                self.skip_blanks();
                let c = self.peek();
                if !(self.at_end() || is_break(c) || c == b'#') {
                    return Ok(crossed);
                }
            }
            let c = self.peek();
            if c == b'#' {
                let col = self.col();
                let pos = self.pos;
                let text = self.read_comment();
                let blank_before = self.blank_since_token;
                self.blank_since_token = false;
                self.pending.push(PendingComment {
                    text,
                    col,
                    blank_before,
                    pos,
                    same_line: false,
                });
                continue;
            }
            if is_break(c) {
                if self.col() == 0 || self.line_is_blank() {
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
        // Most manifests are ASCII with no control but the line feed: a chunk of those is
        // told by two comparisons a byte, half the work of the exact screen below.
        let mut unusual = 0u8;
        for &c in chunk {
            unusual |= ((c.wrapping_sub(0x20) >= 0x5f) & (c != b'\n')) as u8;
        }
        if unusual == 0 {
            continue;
        }
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
