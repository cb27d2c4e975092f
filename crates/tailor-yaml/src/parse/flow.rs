//! Flow collections (`[...]`, `{...}`) and the nodes inside them, read as go-yaml v3 reads
//! them: libyaml's flow tokens (inside a flow collection `?` and `:` are always indicators, a
//! plain scalar ends at `: ` and at any of `,?[]{}`), its simple-key rule (an entry is a key
//! when a `:` follows on its line, within 1024 characters) and its parser states, whose quirks
//! decide what is refused and where.

use super::comments::{append_foot, attach_head};
use super::properties::{Props, Stray};
use super::scalar::push_fold;
use super::{is_blank, is_break, spanned, HeldItem, Mark, Parser, R};
use crate::node::{Node, Pair, Span, Style, Text, Value};

/// What libyaml's scanner finds next inside a flow collection.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tok {
    SeqEnd,
    MapEnd,
    /// `,`
    Entry,
    /// `?`
    Key,
    /// `:`
    Value,
    /// The start of a node: properties, an alias, a quoted or plain scalar, a collection, or
    /// a character no token starts with (the node's scan refuses it).
    Node,
    /// Anything a flow collection cannot hold: `-` before a blank, a document marker, the
    /// end of the input.
    Other,
}

/// The characters a plain scalar cannot start with inside a flow collection (libyaml's
/// `fetch_next_token`; `-` may, when no blank follows).
fn starts_no_plain(c: u8) -> bool {
    matches!(
        c,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// Whether a plain scalar inside a flow collection ends before `c`.
fn ends_flow_plain(c: u8) -> bool {
    matches!(c, b',' | b'?' | b'[' | b']' | b'{' | b'}')
}

impl Parser<'_> {
    /// Skips blanks, line breaks and comments to the next token. Most tokens of a flow
    /// collection follow the previous one directly (all of one-line JSON's do): that is told
    /// by one look, inline.
    #[inline]
    pub(super) fn skip_flow_ws(&mut self) {
        if matches!(self.peek(), b' ' | b'\t' | b'\n' | b'\r' | b'#') {
            self.skip_flow_ws_run();
        }
    }

    fn skip_flow_ws_run(&mut self) {
        loop {
            let c = self.peek();
            if is_blank(c) {
                self.pos += 1;
            } else if is_break(c) {
                self.newline();
            } else if c == b'#' {
                self.gather_flow_comment();
            } else {
                return;
            }
        }
    }

    /// Skips to the next token and says what it is.
    #[inline]
    fn flow_token(&mut self) -> Tok {
        self.skip_flow_ws();
        if self.at_end() || self.at_boundary() {
            return Tok::Other;
        }
        match self.peek() {
            b']' => Tok::SeqEnd,
            b'}' => Tok::MapEnd,
            b',' => Tok::Entry,
            b'?' => Tok::Key,
            b':' => Tok::Value,
            b'-' if self.ws_or_end_at(1) => Tok::Other,
            _ => Tok::Node,
        }
    }

    /// A flow collection met in block context (the cursor is at its `[` or `{`), inside the
    /// block collection at column `indent`.
    pub(super) fn flow_collection(&mut self, indent: isize) -> R<Node> {
        let outer = std::mem::replace(&mut self.flow_indent, indent);
        let n = if self.peek() == b'[' {
            self.flow_sequence()
        } else {
            self.flow_mapping()
        };
        self.flow_indent = outer;
        n
    }

    /// An item of a flow `items` again, from its resume point (`reparse_item`): the node
    /// [`Parser::flow_sequence`] read there.
    pub(super) fn flow_item(&mut self) -> R<Node> {
        let open = self.mark();
        self.flow_node(b']', open)
    }

    /// libyaml's `parse_node` inside a flow collection (closed by `close`), at a token that
    /// [`Parser::flow_token`] did not find to be an indicator.
    fn flow_node(&mut self, close: u8, open: Mark) -> R<Node> {
        // What JSON is made of (a node without properties: a string, a collection, a number
        // or a word) starts here, where the general path below would find no properties and
        // the same token: this is most of reading kpt's `.json` items.
        match self.peek() {
            b'"' => return self.double_quoted(),
            b'{' => return self.flow_mapping(),
            b'[' => return self.flow_sequence(),
            c if c.is_ascii_alphanumeric() => return self.plain_flow(),
            _ => {}
        }
        let start = self.token_start();
        if self.peek() == b'*' {
            return self.alias();
        }
        let mut props = Props::default();
        self.props(&mut props, Stray::Flow(close, open))?;
        let tok = self.flow_token();
        let mut n = match (tok, self.peek()) {
            (Tok::Node, b'[') => self.flow_sequence()?,
            (Tok::Node, b'{') => self.flow_mapping()?,
            (Tok::Node, b'"') => self.double_quoted()?,
            (Tok::Node, b'\'') => self.single_quoted()?,
            // Properties alone make an empty scalar; what follows them (an alias, a second
            // anchor or tag) is left to the collection, which refuses it.
            (Tok::Node, b'*' | b'&' | b'!') => spanned(Node::plain(""), self.pos, self.pos),
            (Tok::Node, c) if !starts_no_plain(c) || c == b'-' => self.plain_flow()?,
            (Tok::Node, _) => return self.err("found character that cannot start any token"),
            _ if !props.is_empty() => spanned(Node::plain(""), self.pos, self.pos),
            _ => return self.parse_err("did not find expected node content", Some(start)),
        };
        props.apply(&mut n);
        Ok(n)
    }

    /// libyaml's `scan_plain_scalar` inside a flow collection: lines are folded; it ends at a
    /// `:` before a blank, at `,?[]{}`, before ` #` and at a document marker. A tab may not
    /// start a continuation line left of the enclosing block collection's content.
    fn plain_flow(&mut self) -> R<Node> {
        let start = self.mark();
        let mut text = Text::default();
        let mut end = self.pos;
        let mut breaks = 0;
        loop {
            if self.at_boundary() || self.peek() == b'#' {
                break;
            }
            let chunk = self.pos;
            loop {
                let c = self.peek();
                if self.ws_or_end_at(0) || (c == b':' && self.ws_or_end_at(1)) || ends_flow_plain(c)
                {
                    break;
                }
                self.pos += 1;
            }
            if self.pos > chunk {
                if breaks > 0 {
                    push_fold(&mut text, breaks);
                } else if chunk > end {
                    text.push_str(&self.src[end..chunk]);
                }
                if text.is_empty() {
                    text = Text::from(&self.src[chunk..self.pos]);
                } else {
                    text.push_str(&self.src[chunk..self.pos]);
                }
                end = self.pos;
                breaks = 0;
            }
            if !(is_blank(self.peek()) || is_break(self.peek())) {
                break;
            }
            while is_blank(self.peek()) || is_break(self.peek()) {
                if is_break(self.peek()) {
                    self.newline();
                    breaks += 1;
                } else {
                    let tab = self.peek() == b'\t';
                    if tab && breaks > 0 && (self.col() as isize) < self.flow_indent + 1 {
                        return self
                            .scan_err("found a tab character that violates indentation", start);
                    }
                    self.pos += 1;
                }
            }
        }
        // Trailing blanks and breaks are not the scalar's: the next token starts after them.
        Ok(spanned(Node::plain(text), start.pos, end))
    }

    fn flow_sequence(&mut self) -> R<Node> {
        self.enter()?;
        // The `items` of a flow root mapping (a JSON ResourceList) go to the sink; a flow
        // sequence under a block `items:` does not (a YAML list writes its items from their
        // trees, not from their text, so there is nothing to gain).
        let root = self.flow_root.take().filter(|_| self.depth == 2);
        let open = self.mark();
        self.pos += 1;
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let mut tok = self.flow_token();
            if tok == Tok::SeqEnd {
                break;
            }
            if !first {
                if tok != Tok::Entry {
                    return self.parse_err("did not find expected ',' or ']'", Some(open));
                }
                self.pos += 1;
                tok = self.flow_token();
            }
            first = false;
            if tok == Tok::SeqEnd {
                break;
            }
            let head = self.settle_flow_gap(items.last_mut(), self.pos, false);
            self.hand_over_held(&mut items);
            match tok {
                Tok::Key => {
                    self.pos += 1;
                    let key = match self.flow_token() {
                        Tok::Value | Tok::Entry | Tok::SeqEnd => {
                            // libyaml's parser steps over this token, whichever it is: after
                            // `[? ,` or `[?]` it reads on past the `,` or the `]`.
                            let at = self.pos;
                            self.skip_one_token();
                            spanned(Node::plain(""), at, at)
                        }
                        _ => self.flow_node(b']', open)?,
                    };
                    let value = self.flow_pair_value(Tok::SeqEnd, b']', open)?;
                    items.push(self.single_pair(key, value));
                }
                _ => {
                    let key_start = self.mark();
                    let refs_before = self.refs;
                    let resume = root.map(|_| self.flow_resume_point());
                    let node = self.flow_node(b']', open)?;
                    if self.flow_token() == Tok::Value && self.simple_key_reaches(key_start) {
                        let value = self.flow_pair_value(Tok::SeqEnd, b']', open)?;
                        items.push(self.single_pair(node, value));
                    } else {
                        match (root, resume) {
                            // Only once the root can no longer turn out to be a key: a
                            // handed item cannot be put back.
                            (Some(root), Some(resume)) if !self.may_still_be_key(root) => {
                                self.held_item = Some(HeldItem {
                                    index: items.len(),
                                    resume,
                                    self_contained: self.refs == refs_before,
                                });
                                items.push(node);
                            }
                            _ => items.push(node),
                        }
                    }
                }
            }
            if let Some(item) = items.last_mut().filter(|_| !head.is_empty()) {
                attach_head(item, head);
            }
        }
        let foot = self.settle_flow_gap(items.last_mut(), self.pos, true);
        self.hand_over_held(&mut items);
        self.pos += 1;
        self.leave();
        let mut seq = Node {
            value: Value::Sequence(items),
            style: Style::Flow,
            extra: None,
            span: Span {
                start: open.pos as u32,
                end: self.pos as u32,
            },
        };
        if !foot.is_empty() {
            append_foot(&mut seq, foot);
        }
        Ok(seq)
    }

    /// Gives the sink the item held back ([`Parser::held_item`]), with the comments settled
    /// around it, which its resume point carries for a rebuild (they are outside its text).
    /// Inline: only the root `items` of a JSON ResourceList holds one back.
    #[inline]
    fn hand_over_held(&mut self, items: &mut [Node]) {
        if self.held_item.is_some() {
            self.hand_over_held_item(items);
        }
    }

    #[inline(never)]
    fn hand_over_held_item(&mut self, items: &mut [Node]) {
        let Some(HeldItem {
            index,
            mut resume,
            self_contained,
        }) = self.held_item.take()
        else {
            return;
        };
        let Some(slot) = items.get_mut(index) else {
            return;
        };
        let node = std::mem::replace(slot, Node::null());
        if let Some(c) = node.comments() {
            resume.head.clone_from(&c.head);
            resume.line_comment.clone_from(&c.line);
            resume.foot.clone_from(&c.foot);
        }
        let kept = self.give(index, node, resume, self_contained);
        if let Some(slot) = items.get_mut(index) {
            *slot = kept;
        }
    }

    /// Steps over the one-character token at the cursor (`,`, `:`, `]` or `}`).
    fn skip_one_token(&mut self) {
        if !self.at_end() {
            self.pos += 1;
        }
    }

    /// The value of a pair whose key was just read: after a `:`, a node unless the entry or
    /// the collection ends first; without one, empty.
    fn flow_pair_value(&mut self, end: Tok, close: u8, open: Mark) -> R<Node> {
        if self.flow_token() != Tok::Value {
            return Ok(spanned(Node::plain(""), self.pos, self.pos));
        }
        self.pos += 1;
        let tok = self.flow_token();
        if tok == Tok::Entry || tok == end {
            return Ok(spanned(Node::plain(""), self.pos, self.pos));
        }
        self.flow_node(close, open)
    }

    fn flow_mapping(&mut self) -> R<Node> {
        self.enter()?;
        let open = self.mark();
        self.pos += 1;
        // Entries go to `pair_stack` and move into a Vec of exactly their number at the `}`,
        // as a block mapping's do: pushed into a Vec of their own, they reallocated it as it
        // grew (three times for a mapping of five).
        let base = self.pair_stack.len();
        let mut first = true;
        loop {
            let mut tok = self.flow_token();
            if tok == Tok::MapEnd {
                break;
            }
            if !first {
                if tok != Tok::Entry {
                    return self.parse_err("did not find expected ',' or '}'", Some(open));
                }
                self.pos += 1;
                tok = self.flow_token();
            }
            first = false;
            if tok == Tok::MapEnd {
                break;
            }
            let head = self.settle_gap_after_pair(base, false);
            let (mut key, mut value) = match tok {
                Tok::Key => {
                    self.pos += 1;
                    let key = match self.flow_token() {
                        Tok::Value | Tok::Entry | Tok::MapEnd => {
                            spanned(Node::plain(""), self.pos, self.pos)
                        }
                        _ => self.flow_node(b'}', open)?,
                    };
                    (key, self.flow_pair_value(Tok::MapEnd, b'}', open)?)
                }
                _ => {
                    let key_start = self.mark();
                    let key = self.flow_node(b'}', open)?;
                    let value =
                        if self.flow_token() == Tok::Value && self.simple_key_reaches(key_start) {
                            self.flow_root =
                                self.flow_hands_over_value_of(&key, &self.pair_stack[base..], open);
                            let value = self.flow_pair_value(Tok::MapEnd, b'}', open);
                            self.flow_root = None;
                            value?
                        } else {
                            // Not a key after all: an entry without a value, and whatever follows
                            // it must be a `,` or the `}`.
                            spanned(Node::plain(""), self.pos, self.pos)
                        };
                    (key, value)
                }
            };
            self.settle_within_entry(&mut key, &mut value);
            if !head.is_empty() {
                attach_head(&mut key, head);
            }
            self.pair_stack.push(Pair { key, value });
        }
        let foot = self.settle_gap_after_pair(base, true);
        self.pos += 1;
        let pairs = self.pair_stack.split_off(base);
        self.check_unique_keys(&pairs)?;
        self.leave();
        let mut map = Node {
            value: Value::Mapping(pairs),
            style: Style::Flow,
            extra: None,
            span: Span {
                start: open.pos as u32,
                end: self.pos as u32,
            },
        };
        if !foot.is_empty() {
            append_foot(&mut map, foot);
        }
        Ok(map)
    }

    /// [`Parser::settle_flow_gap`] after the last entry of the flow mapping whose entries
    /// start at `base` in `pair_stack` (its value is the prior node), at the cursor.
    /// Inline: most entries have no comment around them.
    #[inline]
    fn settle_gap_after_pair(&mut self, base: usize, closing: bool) -> String {
        if self.flow_gap.is_empty() {
            return String::new();
        }
        self.settle_gathered_after_pair(base, closing)
    }

    #[inline(never)]
    fn settle_gathered_after_pair(&mut self, base: usize, closing: bool) -> String {
        // Taken out while the comments are settled: the settling borrows the parser.
        let mut last = (self.pair_stack.len() > base)
            .then(|| self.pair_stack.pop())
            .flatten();
        let head = self.settle_flow_gap(last.as_mut().map(|p| &mut p.value), self.pos, closing);
        if let Some(last) = last {
            self.pair_stack.push(last);
        }
        head
    }

    /// A single-pair mapping written as an entry of a flow sequence (`[a: b]`), with the
    /// comments read inside it.
    fn single_pair(&mut self, mut key: Node, mut value: Node) -> Node {
        self.settle_within_entry(&mut key, &mut value);
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
}
