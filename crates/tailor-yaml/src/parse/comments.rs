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
}

/// Comment lines joined with `\n`, a blank line kept where the source had one.
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
