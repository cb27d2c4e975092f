//! Flow collections (`[...]`, `{...}`) and the nodes inside them, where indentation does not
//! count and `,` and brackets end a plain scalar.

use super::properties::{Props, Stray};
use super::scalar::push_fold;
use super::{is_blank, is_break, is_flow_indicator, spanned, Parser, R};
use crate::node::{Node, Pair, Span, Style, Text, Value};

impl Parser<'_> {
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
    pub(super) fn flow_node(&mut self, close: u8) -> R<Node> {
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
                spanned(Node::plain(""), self.pos, self.pos)
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
            let save = self.mark();
            let Some(breaks) = self.plain_line_breaks(|p| {
                p.skip_blanks();
                Ok(())
            })?
            else {
                break;
            };
            let c = self.peek();
            if self.at_end()
                || c == b'#'
                || is_flow_indicator(c)
                || (c == b':' && (self.ws_or_end_at(1) || is_flow_indicator(self.peek_at(1))))
                || self.at_boundary()
            {
                self.reset(save);
                break;
            }
            let chunk_start = self.pos;
            end = self.plain_chunk(true);
            push_fold(&mut text, breaks);
            text.push_str(&self.src[chunk_start..end]);
            self.pos = end;
        }
        Ok(spanned(Node::plain(text), start, end))
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
            spanned(Node::plain(""), self.pos, self.pos)
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
