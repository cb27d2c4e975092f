//! Writes the node tree the way go-yaml v3 with kyaml's settings does: indent 2, compact
//! sequences (or wide ones, per document), no line folding, each node in the style it was read
//! in, fresh strings quoted when another reader could take them for another type.

use crate::node::{Node, Pair, Style, Value};
use crate::parse::Document;
use crate::resolve::plain_is_ambiguous;
use crate::scalar_style::{
    chomping_indicator, push_spaces as spaces, select_style, Context as Ctx, Printer,
};
use scalar::{at_line_start, write_block_scalar, write_double_quoted, write_single_quoted};

mod flow;
mod scalar;

#[derive(Clone, Copy, Debug, Default)]
pub struct EmitOptions {
    /// Indent block sequences under a mapping key by two ("wide"), as kpt writes files whose
    /// `seqindent` is `wide`; otherwise `- ` sits flush with the key, as kyaml's default.
    pub wide_sequences: bool,
}

/// Emits one document's content (with its comments), ending in a newline; no `---`.
pub fn emit_document(doc: &Document, opts: EmitOptions) -> String {
    let mut out = String::new();
    if !doc.head_comment.is_empty() {
        // go-yaml does not keep the blank line that separated it from the content.
        write_comment_block(&mut out, &doc.head_comment, 0);
    }
    if !doc.empty {
        emit_node_into(&mut out, &doc.root, 0, opts);
    }
    if !doc.foot_comment.is_empty() {
        write_comment_block(&mut out, &doc.foot_comment, 0);
    }
    out
}

/// Emits a node as a block at `indent` (the first line is indented too), ending in a newline.
pub fn emit_node_into(out: &mut String, node: &Node, indent: usize, opts: EmitOptions) {
    Emitter::new(out, opts).root(node, indent);
}

/// Emits nodes as the items of a block sequence whose `-` sits at `indent`.
pub fn emit_sequence_items(out: &mut String, items: &[Node], indent: usize, opts: EmitOptions) {
    Emitter::new(out, opts).sequence(items, indent, false, true);
}

/// Emits `key:` and its value as one entry of a block mapping at `indent`.
pub fn emit_mapping_entry(out: &mut String, pair: &Pair, indent: usize, opts: EmitOptions) {
    Emitter::new(out, opts).mapping(std::slice::from_ref(pair), indent, false);
}

pub fn emit_node(node: &Node, opts: EmitOptions) -> String {
    let mut out = String::new();
    emit_node_into(&mut out, node, 0, opts);
    out
}

struct Emitter<'o> {
    out: &'o mut String,
    opts: EmitOptions,
    /// The column of the foot comment just written, until the next line starts: go-yaml's
    /// `foot_indent`. A line that starts in the same column gets a blank line above it
    /// (`yaml_emitter_write_indent`), which keeps the foot apart from what follows, or a
    /// reader takes the two comment blocks for one head comment of the next entry.
    foot_indent: Option<usize>,
    /// What is written may be read as the start of a stream, whose first line go-yaml's
    /// scanner treats apart (see [`Emitter::foot_comment`]).
    starts_stream: bool,
    /// Where the last foot comment written ends, and whether it was parted from what follows
    /// ([`Emitter::write_foot`]).
    foot_end: usize,
    foot_parted: bool,
}

impl<'o> Emitter<'o> {
    fn new(out: &'o mut String, opts: EmitOptions) -> Self {
        Emitter {
            starts_stream: out.is_empty(),
            out,
            opts,
            foot_indent: None,
            foot_end: usize::MAX,
            foot_parted: false,
        }
    }
}

/// Whether a key written as `text` reads back as one without a `?`: libyaml takes an implicit
/// key only on one line and within 1,024 characters (a flow collection or an alias written as a
/// key can be longer).
pub(super) fn fits_implicit_key(text: &str) -> bool {
    text.len() <= 1024 && !text.contains('\n')
}

/// go-yaml's `writeComment`: every line gets a `#` if it lacks one; blank lines stay blank.
fn write_comment_block(out: &mut String, text: &str, indent: usize) {
    for line in text.split('\n') {
        if line.is_empty() {
            out.push('\n');
            continue;
        }
        spaces(out, indent);
        if !line.starts_with('#') {
            out.push_str("# ");
        }
        out.push_str(line);
        out.push('\n');
    }
}

pub(super) fn write_line_comment(out: &mut String, text: &str) {
    // After a block scalar the line is over: its comment was written on the header line
    // (`k: | # c`), and one written here would come back as a new foot comment each trip.
    if text.is_empty() || at_line_start(out) {
        return;
    }
    if !out.ends_with(' ') && !out.ends_with('\n') && !out.is_empty() {
        out.push(' ');
    }
    let first = text.split('\n').next().unwrap_or("");
    if !first.starts_with('#') {
        out.push_str("# ");
    }
    out.push_str(first);
}

impl Emitter<'_> {
    fn root(&mut self, node: &Node, indent: usize) {
        if let Some(c) = node.comments() {
            // A block collection's own head comment is there only above its properties.
            if !c.head.is_empty()
                && (!node.is_block_collection() || node.anchor().is_some() || node.tag().is_some())
            {
                write_comment_block(self.out, &c.head, indent);
            }
        }
        spaces(self.out, indent);
        if node.is_block_collection() {
            let props = self.props(node);
            if !props.is_empty() {
                self.out.push_str(&props);
                if let Some(c) = node.comments() {
                    write_line_comment(self.out, &c.line);
                }
                self.out.push('\n');
                spaces(self.out, indent);
            }
            match &node.value {
                Value::Mapping(pairs) => self.mapping(pairs, indent, true),
                Value::Sequence(items) => self.sequence(items, indent, true, true),
                _ => {}
            }
        } else {
            self.inline_value(node, indent, false);
            if let Some(c) = node.comments() {
                write_line_comment(self.out, &c.line);
            }
            self.end_line();
        }
        self.foot(node, indent);
    }

    fn end_line(&mut self) {
        if !at_line_start(self.out) {
            self.out.push('\n');
        }
    }

    /// `&anchor !tag` as written, or empty.
    fn props(&self, node: &Node) -> String {
        let mut s = String::new();
        if let Some(a) = node.anchor() {
            s.push('&');
            s.push_str(a);
        }
        if let Some(t) = node.tag() {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(t);
        }
        s
    }

    /// The node's `&anchor !tag` and a space, when it has either.
    fn props_and_space(&mut self, node: &Node) {
        let props = self.props(node);
        if !props.is_empty() {
            self.out.push_str(&props);
            self.out.push(' ');
        }
    }

    /// A block mapping whose first key is written at the current position when `inline`.
    fn mapping(&mut self, pairs: &[Pair], indent: usize, inline: bool) {
        for (i, pair) in pairs.iter().enumerate() {
            let first = i == 0 && inline;
            let head = pair.key.comments().map(|c| c.head.as_str());
            self.entry_start(head, indent, first, Self::first_key_head);
            self.key(&pair.key, indent);
            self.value_after_indicator(&pair.value, indent, true);
            if let Some(c) = pair.key.comments() {
                self.foot_comment(&c.foot, indent, &pair.value);
            }
        }
    }

    /// Starts a mapping entry or sequence item at `indent`: its head comment above it, then
    /// the indentation. The `first` entry is written where the cursor already is (after `- `,
    /// `? ` or at the root); `first_head` puts its comment.
    fn entry_start(
        &mut self,
        head: Option<&str>,
        indent: usize,
        first: bool,
        first_head: fn(&mut Self, &str, usize),
    ) {
        if let Some(head) = head.filter(|h| !h.is_empty()) {
            if first {
                first_head(self, head, indent);
            } else {
                self.line_start(indent);
                write_comment_block(self.out, head, indent);
            }
        }
        if !first {
            self.line_start(indent);
            spaces(self.out, indent);
        }
    }

    /// The head comment of a mapping's first key written inline: put above it.
    fn first_key_head(&mut self, head: &str, indent: usize) {
        if self.out.ends_with("- ") {
            let len = self.out.len();
            self.out.truncate(len - 2);
            self.end_line_if_needed_for_comment();
            // At the dash's column: read back as the item's head comment, which is written
            // there too (more indented it would move out next trip).
            let dash_indent = indent.saturating_sub(2);
            write_comment_block(self.out, head, dash_indent);
            spaces(self.out, dash_indent);
            self.out.push_str("- ");
        } else if self.out.ends_with("? ") {
            // An explicit key: the comment on the next line, as for items.
            self.out.pop();
            self.out.push('\n');
            write_comment_block(self.out, head, indent);
            spaces(self.out, indent);
        } else {
            let len = self.out.len();
            let trimmed = self.out.trim_end_matches(' ').len();
            self.out.truncate(trimmed.max(len - indent.min(len)));
            write_comment_block(self.out, head, indent);
            spaces(self.out, indent);
        }
    }

    /// The head comment of a sequence's first item written inline.
    fn first_item_head(&mut self, head: &str, indent: usize) {
        let trimmed = self.out.trim_end_matches(' ').len();
        self.out.truncate(trimmed);
        if self.out.ends_with('-') {
            // `- - x`: not written so by `sequence` when the inner item has a head comment.
            self.out.push(' ');
        } else {
            // After `?` the comment goes on the next line, where it is read back as this
            // item's (on the `?` line it would be the key's).
            if self.out.ends_with('?') {
                self.out.push('\n');
            }
            write_comment_block(self.out, head, indent);
            spaces(self.out, indent);
        }
    }

    /// A block collection's entries at `indent`, the first where the cursor is when `inline`.
    /// Item foot comments go under their content (see [`Emitter::sequence`]).
    fn block_collection(&mut self, node: &Node, indent: usize, inline: bool) {
        match &node.value {
            Value::Mapping(p) => self.mapping(p, indent, inline),
            Value::Sequence(s) => self.sequence(s, indent, inline, false),
            _ => {}
        }
    }

    /// The node's foot comment, if it has one, at `indent`.
    fn foot(&mut self, node: &Node, indent: usize) {
        if let Some(c) = node.comments() {
            self.foot_comment(&c.foot, indent, node);
        }
    }

    /// A foot comment at `indent`, below `prior`, the entry it closes; see
    /// [`Emitter::foot_indent`]. It is parted from what follows only where tailor-yaml reads
    /// it back as a foot ([`Emitter::reads_back_as_foot`]): elsewhere it opens the next entry
    /// when read, and the blank line would not come back. One right after another is not
    /// parted from it either: go-yaml would, but its parser gives such runs to one node where
    /// tailor-yaml's may split them at the end of a document, and a blank line there would be
    /// new.
    fn foot_comment(&mut self, text: &str, indent: usize, prior: &Node) {
        self.write_foot(text, indent, |e| {
            prior.is_block_collection() || e.reads_back_as_foot(prior.last_leaf())
        });
    }

    /// A foot comment inside a flow collection at `indent`: parted unless it is written right
    /// below the stream's first line, where the parser reads no foot.
    fn flow_foot_comment(&mut self, text: &str, indent: usize) {
        self.write_foot(text, indent, |e| {
            !(e.starts_stream && e.out.bytes().filter(|&b| b == b'\n').take(2).count() == 1)
        });
    }

    /// Writes a foot comment, parted from what follows when `parted` says so; right after
    /// another foot, as that one was: the parser reads the two as one run of comments.
    fn write_foot(&mut self, text: &str, indent: usize, parted: impl FnOnce(&Self) -> bool) {
        if text.is_empty() {
            return;
        }
        self.foot_indent = None;
        let parted = if self.out.len() == self.foot_end {
            self.foot_parted
        } else {
            parted(self)
        };
        write_comment_block(self.out, text, indent);
        self.foot_end = self.out.len();
        self.foot_parted = parted;
        if parted {
            self.foot_indent = Some(indent);
        }
    }

    /// Whether comments written now, right below `leaf` (the last node written), would be
    /// read back as closing it: parse/comments.rs's `has_foot_line` on what was written (the
    /// blank lines a block scalar keeps are its own, so none stands between). Not after an
    /// empty value, nor on the stream's first line after a token the scanner stays on (a quoted scalar, a
    /// flow collection, an alias, a line comment). A foot that is not parted reads back as the
    /// next entry's head, which is written the same.
    fn reads_back_as_foot(&self, leaf: &Node) -> bool {
        let line_comment = leaf.comments().is_some_and(|c| !c.line.is_empty());
        let reads_its_break = match &leaf.value {
            Value::Scalar(s) => match self.choose_style(leaf, Ctx::Block) {
                Style::Plain if s.is_empty() => return false,
                Style::Plain => !line_comment,
                // A folded scalar's last line break is written as an empty line (go-yaml's
                // bytes), which is not its content unless it keeps its breaks (`+`): the
                // comment is then below a blank line, and opens what follows.
                Style::Literal | Style::Folded => {
                    let chars: Vec<char> = s.chars().collect();
                    return chomping_indicator(&chars) == Some('+') || !self.out.ends_with("\n\n");
                }
                _ => false,
            },
            _ => false,
        };
        let written = self.out.strip_suffix('\n').unwrap_or(self.out);
        let on_first_line = self.starts_stream && !written.contains('\n');
        reads_its_break || !on_first_line
    }

    /// Called where a line starts at `indent`: the blank line after a foot comment written in
    /// the same column.
    fn line_start(&mut self, indent: usize) {
        if self.foot_indent.take() == Some(indent) {
            self.out.push('\n');
        }
    }

    fn end_line_if_needed_for_comment(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            // We were on the `- ` line: the dash was removed, so the line holds only spaces.
            let trimmed = self.out.trim_end_matches(' ').len();
            self.out.truncate(trimmed);
            if !self.out.ends_with('\n') && !self.out.is_empty() {
                self.out.push('\n');
            }
        }
    }

    fn key(&mut self, key: &Node, indent: usize) {
        let simple = match &key.value {
            Value::Scalar(s) => {
                !s.contains('\n')
                    && s.len() + key.anchor().map_or(0, str::len) + key.tag().map_or(0, str::len)
                        <= 128
            }
            Value::Alias(_) => true,
            Value::Mapping(p) => p.is_empty() || key.style == Style::Flow,
            Value::Sequence(i) => i.is_empty() || key.style == Style::Flow,
        };
        if simple {
            let start = self.out.len();
            self.props_and_space(key);
            match &key.value {
                Value::Alias(a) => {
                    self.out.push('*');
                    self.out.push_str(a);
                    self.out.push(' ');
                }
                Value::Scalar(_) => self.scalar(key, indent, Ctx::SimpleKey),
                _ => self.flow_on_one_line(key),
            }
            if fits_implicit_key(&self.out[start..]) {
                self.out.push(':');
                return;
            }
            self.out.truncate(start);
        }
        // Not a simple key: after a `?`, its value after a `:` at the key's column.
        self.out.push_str("? ");
        if key.is_block_collection() {
            // `? &a !t` on its own line, the collection below it (as for values).
            let props = self.props(key);
            if !props.is_empty() {
                self.out.push_str(&props);
                self.out.push('\n');
                self.block_collection(key, indent + 2, false);
                self.line_start(indent);
                spaces(self.out, indent);
                self.out.push(':');
                return;
            }
            self.block_collection(key, indent + 2, true);
        } else {
            // Scalars take their continuation indent from the mapping, as go-yaml writes
            // them: a block scalar's content two columns in, which is also where the
            // parser counts an indentation indicator (`? >2`) from.
            self.inline_value(key, indent, false);
            self.end_line();
        }
        self.line_start(indent);
        spaces(self.out, indent);
        self.out.push(':');
    }

    /// Writes a value after `key:` or `-`: inline scalars and flow collections on the same
    /// line, block collections below. Ends with a newline.
    fn value_after_indicator(&mut self, value: &Node, indent: usize, in_mapping: bool) {
        let line_comment = value.comments().map(|c| c.line.as_str()).unwrap_or("");
        if value.is_block_collection() {
            let props = self.props(value);
            if !props.is_empty() {
                self.out.push(' ');
                self.out.push_str(&props);
            }
            match &value.value {
                Value::Mapping(pairs) => {
                    if in_mapping || !props.is_empty() || !line_comment.is_empty() {
                        write_line_comment(self.out, line_comment);
                        self.out.push('\n');
                        let child = indent + 2;
                        let head = value.comments().map(|c| c.head.as_str()).unwrap_or("");
                        if !head.is_empty() {
                            write_comment_block(self.out, head, child);
                        }
                        self.mapping(pairs, child, false);
                    } else {
                        self.out.push(' ');
                        self.mapping(pairs, indent + 2, true);
                    }
                }
                Value::Sequence(items) => {
                    if in_mapping || !props.is_empty() || !line_comment.is_empty() {
                        write_line_comment(self.out, line_comment);
                        self.out.push('\n');
                        let child = if in_mapping && !self.opts.wide_sequences {
                            indent
                        } else {
                            indent + 2
                        };
                        // A compact sequence's dash sits at the key's column.
                        self.sequence(items, child, false, child == indent);
                    } else {
                        self.out.push(' ');
                        self.sequence(items, indent + 2, true, false);
                    }
                }
                _ => {}
            }
            self.foot(value, indent);
            return;
        }
        self.inline_value(value, indent, true);
        write_line_comment(self.out, line_comment);
        self.end_line();
        self.foot(value, indent);
    }

    /// A scalar, alias or flow collection on the current line (block scalars continue on the
    /// following lines). `after_indicator` means a separating space is needed.
    fn inline_value(&mut self, node: &Node, indent: usize, after_indicator: bool) {
        let props = self.props(node);
        if !props.is_empty() {
            if after_indicator {
                self.out.push(' ');
            }
            self.out.push_str(&props);
        }
        let need_space = after_indicator || !props.is_empty();
        match &node.value {
            Value::Alias(a) => {
                if need_space {
                    self.out.push(' ');
                }
                self.out.push('*');
                self.out.push_str(a);
            }
            Value::Scalar(s) => {
                // go-yaml writes nothing for an empty plain value (`key:`).
                let style = self.choose_style(node, Ctx::Block);
                if s.is_empty() && style == Style::Plain {
                    return;
                }
                if need_space {
                    self.out.push(' ');
                }
                self.scalar_styled(s, style, indent, node);
            }
            Value::Mapping(_) | Value::Sequence(_) => {
                if need_space {
                    self.out.push(' ');
                }
                self.flow(node, indent);
            }
        }
    }

    /// A block sequence whose `-` sits at `indent`. `foot_at_dash`: an item's foot comment
    /// is written at the dash's column, as go-yaml does; that is only where a top-level or
    /// compact sequence (dash at its key's column) may put it, because whatever reads it back
    /// there (the next key, the document) writes it at that column again. Anywhere else the
    /// parser would give it to an owner written further out, so it goes under the item's
    /// content, where the parser reads it back as the item's foot.
    fn sequence(&mut self, items: &[Node], indent: usize, inline: bool, foot_at_dash: bool) {
        for (i, item) in items.iter().enumerate() {
            let first = i == 0 && inline;
            let comments = item.comments();
            let head = comments.map(|c| c.head.as_str());
            self.entry_start(head, indent, first, Self::first_item_head);
            self.out.push('-');
            let line_comment = comments.map(|c| c.line.as_str()).unwrap_or("");
            if item.is_block_collection() {
                let props = self.props(item);
                // A nested sequence whose first item has a head comment starts on the next
                // line: on the `- ` line there is no place for it (`- - x`).
                let headed = matches!(&item.value, Value::Sequence(inner)
                    if inner.first().and_then(Node::comments).is_some_and(|c| !c.head.is_empty()));
                if !props.is_empty() || !line_comment.is_empty() || headed {
                    if !props.is_empty() {
                        self.out.push(' ');
                        self.out.push_str(&props);
                    }
                    write_line_comment(self.out, line_comment);
                    self.out.push('\n');
                    self.block_collection(item, indent + 2, false);
                } else {
                    self.out.push(' ');
                    self.block_collection(item, indent + 2, true);
                }
            } else {
                self.inline_value(item, indent, true);
                write_line_comment(self.out, line_comment);
                self.end_line();
            }
            if let Some(c) = comments {
                if !c.foot.is_empty() {
                    let last = i + 1 == items.len();
                    // Before another item the comment is read back as that item's head, which
                    // is written at the dash's column too; after the last one see above.
                    // Under a block scalar's content the comment would be read back as
                    // more of its text: one column short of it, it still closes the item.
                    let block_scalar = matches!(item.value, Value::Scalar(_))
                        && matches!(
                            self.choose_style(item, Ctx::Block),
                            Style::Literal | Style::Folded
                        );
                    let at = if last && !foot_at_dash {
                        indent + if block_scalar { 1 } else { 2 }
                    } else {
                        indent
                    };
                    self.foot_comment(&c.foot, at, item);
                }
            }
        }
    }

    fn scalar(&mut self, node: &Node, indent: usize, ctx: Ctx) {
        let Value::Scalar(s) = &node.value else {
            return;
        };
        let style = self.choose_style(node, ctx);
        self.scalar_styled(s, style, indent, node);
    }

    fn choose_style(&self, node: &Node, ctx: Ctx) -> Style {
        let Value::Scalar(s) = &node.value else {
            return Style::Plain;
        };
        let requested = match node.style {
            Style::Any => {
                if s.contains('\n') {
                    if matches!(ctx, Ctx::Flow | Ctx::FlowKey) {
                        Style::DoubleQuoted
                    } else {
                        Style::Literal
                    }
                } else if node.tag().is_none() && plain_is_ambiguous(s) {
                    Style::DoubleQuoted
                } else {
                    Style::Plain
                }
            }
            Style::Plain if s.contains('\n') => Style::Literal,
            Style::Block | Style::Flow => Style::Plain,
            other => other,
        };
        select_style(s, requested, ctx, Printer::GoYamlV3)
    }

    fn scalar_styled(&mut self, s: &str, style: Style, indent: usize, node: &Node) {
        match style {
            Style::Plain => self.out.push_str(s),
            Style::SingleQuoted => write_single_quoted(self.out, s, indent + 2),
            Style::DoubleQuoted => write_double_quoted(self.out, s),
            Style::Literal | Style::Folded => {
                let line_comment = node.comments().map(|c| c.line.as_str()).unwrap_or("");
                write_block_scalar(
                    self.out,
                    s,
                    style == Style::Literal,
                    indent + 2,
                    line_comment,
                );
            }
            _ => self.out.push_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style_of(s: &str) -> Style {
        let n = Node::string(s);
        let mut out = String::new();
        Emitter::new(&mut out, EmitOptions::default()).choose_style(&n, Ctx::Block)
    }

    #[test]
    fn fresh_strings_are_quoted_like_go_yaml() {
        assert_eq!(style_of("hello"), Style::Plain);
        assert_eq!(style_of("on"), Style::DoubleQuoted);
        assert_eq!(style_of("0644"), Style::DoubleQuoted);
        assert_eq!(style_of("a: b"), Style::SingleQuoted);
        assert_eq!(style_of("- x"), Style::SingleQuoted);
        assert_eq!(style_of(" lead"), Style::SingleQuoted);
        assert_eq!(style_of("tab\there"), Style::DoubleQuoted);
        assert_eq!(style_of("two\nlines"), Style::Literal);
        assert_eq!(style_of("trailing \nspace"), Style::DoubleQuoted);
        assert_eq!(style_of("https://x.y/z"), Style::Plain);
        assert_eq!(style_of("😀"), Style::DoubleQuoted);
    }

    #[test]
    fn double_quoted_escapes() {
        let mut s = String::new();
        write_double_quoted(&mut s, "a\"b\\c\t😀\u{85}");
        assert_eq!(s, r#""a\"b\\c\t\U0001F600\N""#);
    }
}
