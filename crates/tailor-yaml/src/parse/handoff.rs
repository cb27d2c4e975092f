//! Handing over the items of a ResourceList's `items:` as each is complete (see
//! `parse_stream_handing_items`), so a reader need not hold every item's tree at once.

use super::{Handoff, Parser, Resume};
use crate::node::Node;

impl Parser<'_> {
    /// Whether the value after `key` is the `items:` whose entries go to the sink: a key of
    /// the first document's root mapping, after a `kind` of ResourceList or List.
    pub(super) fn hands_over_value_of(&self, key: &Node, base: usize) -> bool {
        self.sink.is_some()
            && self.depth == 1
            && self.docs_done == 0
            && key.as_scalar() == Some("items")
            && self.pair_stack[base..].iter().any(|p| {
                p.key.as_scalar() == Some("kind")
                    && matches!(p.value.as_scalar(), Some("ResourceList" | "List"))
            })
    }

    pub(super) fn resume_point(&self, col: usize, head: String) -> Resume {
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
    pub(super) fn hand_over(&mut self, base: usize, resume: Resume, self_contained: bool) {
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
}
