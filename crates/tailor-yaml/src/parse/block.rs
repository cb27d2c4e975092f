//! Block collections, and what may open a block node: a `-` or `?` indicator, properties,
//! a key, or content on the lines below its indicator. Indentation is all the structure there
//! is, so each function takes the column of the collection around it.

use super::comments::{attach_head, attach_item_head, set_line, Prior};
use super::properties::{Props, Stray};
use super::{count_spaces, is_break, spanned, Ctx, Mark, Open, OpenKind, Parser, R};
use crate::error::Stage;
use crate::node::{Node, Pair, Span, Style, Value};
use crate::Error;

impl Parser<'_> {
    /// Parses the node that follows an indicator (`key:`, `- `, `? `, `---`) or starts a
    /// document. `indent` is the column of the enclosing block collection (-1 at the root).
    /// `inline` says whether we are still on the indicator's line.
    ///
    /// Most values and items are a scalar on the indicator's line (`name: web`,
    /// `- name: web`): one look at its first character takes them to it, without the
    /// properties, comments and indentation the general path prepares for.
    #[inline]
    pub(super) fn node(&mut self, indent: isize, ctx: Ctx, inline: bool) -> R<Node> {
        if inline && matches!(ctx, Ctx::MapValue | Ctx::SeqItem) {
            // The general path skips the same way first, and finds nothing more to skip.
            if ctx == Ctx::SeqItem {
                self.skip_inline_before_token()?;
            } else {
                self.skip_blanks();
            }
            // Neither properties, a comment, the end of the line, nor what may be an
            // indicator: `node_general` would go on to `block_content` as this does.
            let c = self.peek();
            let general = matches!(c, b'&' | b'!' | b'#' | b'-' | b'?') || is_break(c);
            if !general && !self.at_end() {
                return self.block_content(indent, ctx == Ctx::MapValue);
            }
            if ctx == Ctx::MapValue && c == b'\n' {
                if let Some(next) = self.word_indented_below(indent) {
                    self.reset(next);
                    return self.block_content(indent, false);
                }
            }
        }
        self.node_general(indent, ctx, inline)
    }

    /// After a key's `:` that ends its line (`metadata:`), the common start of its value: a
    /// plain word on the next line, indented past the mapping at `indent`, with no comment,
    /// blank line or tab between. `node_general` would skip to it and read it with
    /// `block_content`; where it is, if so.
    fn word_indented_below(&self, indent: isize) -> Option<Mark> {
        // The `:` right before the break: the line is not blank, which would count as a
        // blank line on the way.
        if self.pos <= self.line_start || self.b.get(self.pos - 1) != Some(&b':') {
            return None;
        }
        let line_start = self.pos + 1;
        let spaces = count_spaces(self.b, line_start);
        let at = line_start + spaces;
        let word = self.b.get(at).is_some_and(u8::is_ascii_alphanumeric);
        (word && spaces as isize > indent).then_some(Mark {
            pos: at,
            line: self.line + 1,
            line_start,
        })
    }

    /// Kept out of line: inlined into [`Parser::node`], its frame was set up for every value.
    #[inline(never)]
    fn node_general(&mut self, indent: isize, ctx: Ctx, inline: bool) -> R<Node> {
        let stray = Stray::Block(ctx, ctx == Ctx::SeqItem && self.indentless_items);
        let mut inline = inline;
        let mut line_comment = String::new();
        if inline {
            // After `key:` and `---` libyaml lets tabs separate tokens; after `-`, `?` and an
            // explicit key's `:` it does not (a simple key may start there).
            if matches!(ctx, Ctx::SeqItem | Ctx::ExplicitKey) {
                self.skip_inline_before_token()?;
            } else {
                self.skip_blanks();
            }
        }
        let mut props = Props::default();
        // Where the node's first token (possibly a property) starts: a mapping whose first key
        // carries properties is indented from there, not from the key's text.
        let mut props_col = self.col();
        if inline {
            if matches!(self.peek(), b'&' | b'!') {
                self.props(&mut props, stray)?;
                self.skip_blanks();
            }
            if self.peek() == b'#' {
                line_comment = self.read_comment();
            }
            if self.at_end() || is_break(self.peek()) {
                self.skip_to_next_token()?;
                inline = false;
            }
        }
        if !inline {
            if self.at_end() || self.at_document_break() {
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
            // A block scalar saves no implicit key, so libyaml takes one in the collection's
            // own column as the value (`k:\n|\n  text`); anything else there is the next entry.
            let block_scalar = (c == b'|' || c == b'>') && ctx != Ctx::Root;
            if col < indent || (col == indent && !block_scalar) {
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
        self.skip_blanks();
        if self.at_end() || is_break(self.peek()) || self.peek() == b'#' {
            // Properties alone on their line: the content follows below.
            if self.peek() == b'#' {
                line_comment = self.read_comment();
            }
            self.skip_to_next_token()?;
            if self.at_end() || self.at_document_break() || (self.col() as isize) < col {
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
        self.skip_blanks();
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
        // A plain word is what `scalar_or_flow` would find too.
        let (first, is_key) = if c.is_ascii_alphanumeric() {
            self.plain_block(indent, true)?
        } else {
            self.scalar_or_flow(indent, true)?
        };
        if is_key {
            if no_map {
                return self.err("mapping values are not allowed in this context");
            }
            return self.block_mapping(col, Some(first));
        }
        Ok(first)
    }

    /// Skips the spaces after `-`, `?` or an explicit key's `:`. libyaml skips no tab there,
    /// where an implicit key may start, so one is refused even before a comment or the end
    /// of the line.
    fn skip_inline_before_token(&mut self) -> R<()> {
        while self.peek() == b' ' {
            self.pos += 1;
        }
        if self.peek() == b'\t' {
            return self.err("found character that cannot start any token");
        }
        Ok(())
    }

    fn block_mapping(&mut self, col: usize, first_key: Option<Node>) -> R<Node> {
        self.enter()?;
        // The first key is on this line: an implicit key cannot span lines, and an explicit
        // one starts at the `?` under the cursor.
        self.open.push(Open {
            line: self.line,
            col,
            kind: OpenKind::Mapping,
        });
        let start = first_key
            .as_ref()
            .map_or(self.pos, |k| k.span.start as usize);
        let base = self.pair_stack.len();
        let mut first_key = first_key;
        let mut head_for_first = self.take_pending();
        loop {
            // Taken before the key is parsed: an explicit key's collection would otherwise
            // take the comments above its `?` as its first entry's.
            let head = if self.pair_stack.len() == base {
                std::mem::take(&mut head_for_first)
            } else {
                self.close_prior_entry(Prior::Pair);
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
                        (self.implicit_key(col)?, false)
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
                    spanned(Node::plain(""), self.pos, self.pos)
                }
            } else {
                self.sink_armed = self.hands_over_value_of(&key, base);
                let value = self.node(col as isize, Ctx::MapValue, true);
                self.sink_armed = false;
                value?
            };
            self.pair_stack.push(Pair { key, value });
            self.skip_to_next_token()?;
            if self.at_end() || self.at_document_break() {
                break;
            }
            let c = self.col();
            if c < col {
                break;
            }
            if c > col || (self.peek() == b'-' && self.ws_or_end_at(1)) {
                return Err(self.in_mapping_error());
            }
        }
        self.open.pop();
        let next = (!self.at_end() && !self.at_document_break()).then(|| self.col());
        let foot = self.take_pending_foot(col, col, next);
        // `split_off` moves the entries with one copy into a Vec of exactly their number;
        // `drain(..).collect()` moved them one by one.
        let mut pairs: Vec<Pair> = self.pair_stack.split_off(base);
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

    /// A key of the block mapping at column `col` that has no `?`, with the properties
    /// before it (`&a k: v` / `!!str k: v`), which belong to it. Most keys are a plain word
    /// (`name:`), which its first character tells.
    fn implicit_key(&mut self, col: usize) -> R<Node> {
        let key_start = self.mark();
        let (k, is_key) = if self.peek().is_ascii_alphanumeric() {
            self.plain_block(col as isize, true)?
        } else {
            let mut props = Props::default();
            if matches!(self.peek(), b'&' | b'!') {
                self.props(&mut props, Stray::Key)?;
                self.skip_blanks();
            }
            let (mut k, is_key) = self.scalar_or_flow(col as isize, true)?;
            props.apply(&mut k);
            (k, is_key)
        };
        if !is_key {
            // libyaml finds the missing ':' when it fetches the next token: at the end of
            // input, after `fetch_stream_end` forced a new line.
            return Err(Error::libyaml(
                Stage::Scanner,
                "could not find expected ':'",
                self.next_token_mark(),
                Some(key_start.line),
            ));
        }
        Ok(k)
    }

    /// Something other than a `-` at the column of a block sequence's items. libyaml's scanner
    /// requires an implicit key where a line starts at the indentation of the collection being
    /// read, so what could start one and is no key fails there ("could not find expected
    /// ':'", naming its line); anything else reaches the parser, which wants a `-`.
    fn not_an_item(&mut self, col: usize) -> Error {
        let start = self.mark();
        let c = self.peek();
        let indicator = matches!(c, b'-' | b'?' | b':') && self.ws_or_end_at(1);
        let never_key = matches!(c, b'|' | b'>' | b',' | b']' | b'}' | b'%' | b'@' | b'`');
        if !indicator && !never_key {
            let mut props = Props::default();
            let read = self
                .props(&mut props, Stray::Key)
                .map(|()| self.skip_blanks())
                .and_then(|()| self.scalar_or_flow(col as isize, true));
            match read {
                Ok((_, true)) => {}
                // The scanner reads the rest of the key's line before the parser sees the key.
                Err(e) if e.stage() == Stage::Scanner => return e,
                _ => {
                    self.reset(start);
                    return Error::libyaml(
                        Stage::Scanner,
                        "could not find expected ':'",
                        self.scan_mark(),
                        Some(start.line),
                    );
                }
            }
        }
        self.reset(start);
        self.unexpected_in_collection()
    }

    /// A block sequence whose `-` indicators sit at `col`; `indentless` when it is a mapping
    /// value at the key's own column.
    fn block_sequence(&mut self, col: usize, indentless: bool) -> R<Node> {
        self.enter()?;
        self.open.push(Open {
            line: self.line,
            col,
            kind: if indentless {
                OpenKind::IndentlessSequence
            } else {
                OpenKind::Sequence
            },
        });
        // Only the handed sequence itself, not a sequence nested in it.
        let handing = std::mem::take(&mut self.sink_armed) && self.depth == self.handed_depth();
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
                // The comments that close this item go with it when it is handed over.
                self.close_prior_entry(Prior::Item);
                if let Some(mut r) = resume.take() {
                    r.foot = self
                        .item_stack
                        .last()
                        .and_then(Node::comments)
                        .map(|c| c.foot.clone())
                        .unwrap_or_default();
                    self.hand_over(base, r, self_contained);
                }
                continue;
            }
            if !(self.at_end() || self.at_document_break() || self.col() <= col) {
                return Err(self.unexpected_in_collection());
            }
            if !indentless && !self.at_end() && !self.at_document_break() && self.col() == col {
                return Err(self.not_an_item(col));
            }
            // An indentless sequence opens no indentation of its own in libyaml's scanner:
            // only comments indented past it are its foot, and none when the mapping it is
            // in goes on (they open its next key, or close the key before by a blank line).
            let more = !self.at_end() && !self.at_document_break();
            let next = (!indentless && more).then(|| self.col());
            let foot = if indentless && more && self.col() == col {
                String::new()
            } else {
                self.take_pending_foot(col + 1, col, next)
            };
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
        self.open.pop();
        let items: Vec<Node> = self.item_stack.split_off(base);
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
}
