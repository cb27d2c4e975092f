//! Which node a comment line belongs to. The cursor keeps the comments it skips as pending;
//! the next node takes them as its head comment, a collection that ends takes those indented
//! inside it as its last entry's foot comment, as go-yaml places them.

use super::{Parser, PendingComment};
use crate::node::{Comments, Node, Style, Value};

impl Parser<'_> {
    pub(super) fn take_pending(&mut self) -> String {
        if self.pending.is_empty() {
            return String::new();
        }
        join_comments(self.pending.drain(..))
    }

    /// Takes the leading pending comments that close the block collection at column `indent`
    /// rather than open what follows it. When the next token (at column `next`) is dedented
    /// below the collection, that is go-yaml's scanner's rule (`yaml_parser_scan_comments`):
    /// the comments gathered so far become a foot of the prior content at each line (a
    /// comment's or the token's) that starts left of `indent` in another column than the
    /// first of them; what is gathered when the token comes in the first one's column is the
    /// token's head. At the end of the input (`next` is `None`), the comments indented at
    /// least `at_least`.
    pub(super) fn take_pending_foot(
        &mut self,
        at_least: usize,
        indent: usize,
        next: Option<usize>,
    ) -> String {
        if self.pending.is_empty() {
            return String::new();
        }
        let n = match next {
            Some(token) if token < indent => {
                let mut taken = 0;
                let mut first_col = self.pending[0].col;
                for (i, c) in self.pending.iter().enumerate().skip(1) {
                    if c.col < indent && c.col != first_col {
                        taken = i;
                        first_col = c.col;
                    }
                }
                if token != first_col {
                    taken = self.pending.len();
                }
                taken
            }
            _ => self
                .pending
                .iter()
                .take_while(|c| c.col >= at_least)
                .count(),
        };
        join_comments(self.pending.drain(..n))
    }

    /// Gives the last entry of the collection being read (a mapping's key, a sequence's item)
    /// the pending comments that close it ([`Parser::take_foot_parted_by_blank`]). Inline:
    /// most entries have no comment before them, and the call alone was 1% of reading small
    /// block objects.
    #[inline]
    pub(super) fn close_prior_entry(&mut self, prior: Prior) {
        if !self.pending.is_empty() {
            self.close_prior_entry_with_comments(prior);
        }
    }

    #[inline(never)]
    fn close_prior_entry_with_comments(&mut self, prior: Prior) {
        let foot = self.take_foot_parted_by_blank(prior);
        if foot.is_empty() {
            return;
        }
        let node = match prior {
            Prior::Pair => self.pair_stack.last_mut().map(|p| &mut p.key),
            Prior::Item => self.item_stack.last_mut(),
        };
        if let Some(node) = node {
            append_foot(node, foot);
        }
    }

    /// Takes the comments that close the entry before the next one of a block collection
    /// rather than open the next: go-yaml's scanner makes the comment lines right below the
    /// last content, up to the first blank line, a foot of that content
    /// (`yaml_parser_scan_comments`, at the first empty line after them). That holds unless
    /// the scanner has no foot line ([`Parser::has_foot_line`]), and always when the comments
    /// sit left of the indentation that content was in (the prior entry is a block
    /// collection: what is still pending after it closed is left of it); without a blank line
    /// after them, or with one before them, they are the next entry's head.
    fn take_foot_parted_by_blank(&mut self, prior: Prior) -> String {
        let prior = match prior {
            Prior::Pair => self.pair_stack.last().map(|p| &p.value),
            Prior::Item => self.item_stack.last(),
        };
        let Some((first, prior)) = self.pending.first().zip(prior) else {
            return String::new();
        };
        let leaf = prior.last_leaf();
        // An empty value's span is where the parser stopped, past the comments: then the
        // comment's own record (a blank since the comment before it) is what there is.
        let blank_before = match self.src.get(leaf.span.end as usize..first.pos) {
            Some(gap) => gap.bytes().filter(|&b| b == b'\n').count() > 1,
            None => first.blank_before,
        };
        if blank_before || !(prior.is_block_collection() || self.has_foot_line(leaf)) {
            return String::new();
        }
        let n = match self.pending.iter().skip(1).position(|c| c.blank_before) {
            Some(i) => i + 1,
            None if self.blank_since_token => self.pending.len(),
            None => 0,
        };
        join_comments(self.pending.drain(..n))
    }
}

/// Which entry a foot goes to: the last of the mapping or of the sequence being parsed.
#[derive(Clone, Copy)]
pub(super) enum Prior {
    Pair,
    Item,
}

impl Parser<'_> {
    /// Whether go-yaml's scanner has a foot line after `leaf`, the last content before the
    /// comments: the line below where it stopped (`foot_line` in `yaml_parser_scan_comments`).
    /// None after an empty value (the `:` or `-` is the last token), nor when it stopped on
    /// the stream's first line (`scan_mark.line` is 0 there): after a one-line quoted scalar,
    /// a flow collection or a line comment on that line. A plain or block scalar reads the
    /// line break after it looking for more of itself, so it stops on a later line.
    fn has_foot_line(&self, leaf: &Node) -> bool {
        let reads_its_break = match &leaf.value {
            Value::Scalar(s) => match leaf.style {
                Style::Plain => {
                    if s.is_empty() {
                        return false;
                    }
                    leaf.comments().is_none_or(|c| c.line.is_empty())
                }
                Style::Literal | Style::Folded => true,
                _ => false,
            },
            _ => false,
        };
        reads_its_break || !self.on_first_line(leaf.span.end as usize)
    }

    /// Whether `pos` is on the stream's first line, which go-yaml's scanner treats apart: it
    /// has no foot line for the comments below a token there.
    pub(super) fn on_first_line(&self, pos: usize) -> bool {
        let first_break = *self.first_break.get_or_init(|| {
            self.b
                .iter()
                .position(|&c| c == b'\n')
                .unwrap_or(self.b.len())
        });
        !self.cut_from_stream && pos <= first_break
    }
}

/// Comment lines joined with `\n`, a blank line kept where the source had one.
pub(super) fn join_comments(comments: impl Iterator<Item = PendingComment>) -> String {
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

/// Comments that close a node, after any it has.
pub(super) fn append_foot(n: &mut Node, foot: String) {
    if foot.is_empty() {
        return;
    }
    let c = n.comments_mut();
    c.foot = if c.foot.is_empty() {
        foot
    } else {
        format!("{}\n{foot}", c.foot)
    };
}

/// Comments above an item's `-` open it, before any of its own.
pub(super) fn attach_item_head(item: &mut Node, head: String) {
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

/// A comment after a node's indicator or properties, on their line: the node's line comment,
/// or, when the node already has a line comment, the first line of its head comment.
pub(super) fn set_line(n: &mut Node, line_comment: String) {
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

/// Puts comments taken above a node's properties where the emitter writes them back above the
/// properties: on the node when it has its own properties or is not a block collection, else
/// (the properties went to its first key) on its first entry.
pub(super) fn attach_head(n: &mut Node, head: String) {
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
