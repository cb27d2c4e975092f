//! Node properties (anchors and tags) and aliases. Anchors are remembered per document, since
//! go-yaml refuses an alias to an anchor not defined before it.

use super::{is_blank, Ctx, Mark, Parser, R};
use crate::error::Stage;
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
    /// A node inside a flow collection closed by this byte, which opened at the mark.
    Flow(u8, Mark),
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

    /// Inline for the common case, a node without properties: `start` is set with the first
    /// anchor or tag read, so without it there is nothing to apply.
    #[inline]
    pub(super) fn apply(self, node: &mut Node) {
        if self.start.is_some() {
            self.apply_to(node);
        }
    }

    #[inline(never)]
    fn apply_to(self, node: &mut Node) {
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
                    let mark = self.mark();
                    self.pos += 1;
                    let name = self.anchor_name(mark)?;
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
            match stray {
                // Inside a flow collection, tokens may be on separate lines.
                Stray::Flow(..) => self.skip_flow_ws(),
                _ => self.skip_blanks(),
            }
        }
    }

    /// libyaml's error at a second anchor or tag (the current position): the first ones make
    /// an empty node, and the enclosing collection finds a property where it wants its next
    /// entry.
    pub(super) fn stray_error(&self, stray: Stray) -> Error {
        let (msg, context) = match stray {
            Stray::Flow(close, open) => (
                if close == b']' {
                    "did not find expected ',' or ']'"
                } else {
                    "did not find expected ',' or '}'"
                },
                Some(open.line),
            ),
            Stray::Key | Stray::Block(Ctx::MapValue | Ctx::ExplicitKey, _) => {
                return self.in_mapping_error()
            }
            Stray::Block(Ctx::SeqItem, true) => return self.in_mapping_error(),
            // A `:` later on the line makes libyaml start a mapping before the first property.
            Stray::Block(..) if self.line_has_key_indicator() => {
                ("did not find expected key", Some(self.line))
            }
            Stray::Block(..) => return self.unexpected_in_collection(),
        };
        Error::libyaml(Stage::Parser, msg, self.token_mark(), context)
    }

    /// Whether a `:` indicator follows on the current line (only used to word an error).
    fn line_has_key_indicator(&self) -> bool {
        let rest = self.rest_of_line().as_bytes();
        rest.iter()
            .enumerate()
            .any(|(i, &c)| c == b':' && rest.get(i + 1).is_none_or(|&n| is_blank(n)))
    }

    /// The name after `&` or `*` (whose position is `start`), as go-yaml v3 scans it: ASCII
    /// letters, digits, `_` and `-` only, followed by a blank, a line break, the end or one of
    /// `?:,]}%@` and a backquote.
    fn anchor_name(&mut self, start: Mark) -> R<String> {
        let name = self.pos;
        while is_alpha(self.peek()) {
            self.pos += 1;
        }
        let follows = self.ws_or_end_at(0)
            || matches!(
                self.peek(),
                b'?' | b':' | b',' | b']' | b'}' | b'%' | b'@' | b'`'
            );
        if self.pos == name || !follows {
            return self.scan_err(
                "did not find expected alphabetic or numeric character",
                start,
            );
        }
        Ok(self.src[name..self.pos].to_string())
    }

    /// A tag as written (`!`, `!local`, `!!str`, `!e!suffix`, `!<verbatim>`), scanned as go-yaml
    /// v3's `yaml_parser_scan_tag` scans it: a handle of letters, digits, `_` and `-` between
    /// `!`s, then URI characters, which in go-yaml include `,`, `[` and `]` even inside a flow
    /// collection; a blank, a line break or the end must follow.
    fn tag(&mut self) -> R<String> {
        let start = self.mark();
        if self.peek_at(1) == b'<' {
            self.pos += 2;
            self.tag_uri(false, start)?;
            if self.peek() != b'>' {
                return self.scan_err("did not find the expected '>'", start);
            }
            self.pos += 1;
        } else {
            self.pos += 1;
            while is_alpha(self.peek()) {
                self.pos += 1;
            }
            // `!!` and `!name!` are handles that need a suffix; `!` and `!name` are the start
            // of a local tag, which may be all there is.
            let named_handle = self.peek() == b'!';
            if named_handle {
                self.pos += 1;
            }
            self.tag_uri(!named_handle, start)?;
        }
        if !self.ws_or_end_at(0) {
            return self.scan_err("did not find expected whitespace or line break", start);
        }
        Ok(self.src[start.pos..self.pos].to_string())
    }

    /// The URI characters of a tag (`%`-escaped octets checked as UTF-8). Without a `head`
    /// (the handle's text counting as the tag's start) there must be at least one.
    fn tag_uri(&mut self, head: bool, start: Mark) -> R<()> {
        let from = self.pos;
        loop {
            let c = self.peek();
            if c == b'%' {
                self.uri_escapes(start)?;
            } else if is_alpha(c) || b";/?:@&=+$,.!~*'()[]".contains(&c) {
                self.pos += 1;
            } else {
                break;
            }
        }
        if !head && self.pos == from {
            return self.scan_err("did not find expected tag URI", start);
        }
        Ok(())
    }

    /// `%XX` escapes making up one UTF-8 character.
    fn uri_escapes(&mut self, start: Mark) -> R<()> {
        let mut left = None;
        while left != Some(0) {
            let hex = |k| self.peek_at(k).is_ascii_hexdigit();
            if !(self.peek() == b'%' && hex(1) && hex(2)) {
                return self.scan_err("did not find URI escaped octet", start);
            }
            let digits = &self.src[self.pos + 1..self.pos + 3];
            let octet = u8::from_str_radix(digits, 16).unwrap_or(0);
            left = Some(match left {
                None => match octet {
                    0x00..=0x7f => 0,
                    0xc0..=0xdf => 1,
                    0xe0..=0xef => 2,
                    0xf0..=0xf7 => 3,
                    _ => return self.scan_err("found an incorrect leading UTF-8 octet", start),
                },
                Some(n) if octet & 0xc0 == 0x80 => n - 1,
                Some(_) => {
                    return self.scan_err("found an incorrect trailing UTF-8 octet", start);
                }
            });
            self.pos += 3;
        }
        Ok(())
    }

    pub(super) fn alias(&mut self) -> R<Node> {
        self.refs += 1;
        let start = self.pos;
        let mark = self.mark();
        self.pos += 1;
        let name = self.anchor_name(mark)?;
        if !self.anchors.contains(&name) {
            // go-yaml fails composing the node tree, before any decoding. It names no line;
            // tailor names the alias's.
            return Err(Error::new(
                format!("unknown anchor '{name}' referenced"),
                self.line + 1,
                start - self.line_start + 1,
            ));
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

/// go-yaml's `is_alpha`: the characters of anchor names and tag handles.
fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}
