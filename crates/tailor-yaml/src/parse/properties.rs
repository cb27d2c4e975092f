//! Node properties (anchors and tags) and aliases. Anchors are remembered per document, since
//! go-yaml refuses an alias to an anchor not defined before it.

use super::{is_blank, is_flow_indicator, Ctx, Parser, R};
use crate::node::{Node, Span, Style, Value};
use crate::Error;

/// Where a node with a second anchor or tag (`&a &b x`) sits. libyaml reads the first
/// properties as an empty node and fails in the enclosing collection, so the message depends
/// on that collection.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stray {
    /// A block node; `bool`: an item of an indentless sequence (which ends at the stray
    /// property, leaving it to the mapping around it).
    Block(Ctx, bool),
    /// A key of a block mapping.
    Key,
    /// A node inside a flow collection closed by this byte.
    Flow(u8),
}

#[derive(Default)]
pub(super) struct Props {
    anchor: Option<String>,
    tag: Option<String>,
    pub(super) start: Option<usize>,
}

impl Props {
    pub(super) fn is_empty(&self) -> bool {
        self.anchor.is_none() && self.tag.is_none()
    }

    pub(super) fn apply(self, node: &mut Node) {
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

impl Parser<'_> {
    /// Reads a node's anchor and tag, in either order. A second anchor or tag is an error, as
    /// in libyaml; `stray` says where the node sits, for the message.
    pub(super) fn props(&mut self, props: &mut Props, stray: Stray) -> R<()> {
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
    pub(super) fn stray_error(&self, stray: Stray) -> Error {
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

    pub(super) fn alias(&mut self) -> R<Node> {
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
}
