//! Handing over the entries of one sequence as each is complete (see
//! `parse_stream_handing`): the items of a ResourceList's `items:`, or the clusters of a
//! `Tailor`'s `spec.clusters`, so a reader need not hold every entry's tree at once.

use super::{Handoff, Mark, Parser, Resume};
use crate::node::{Node, Pair};

/// The sequence whose entries a parse hands over, in the first document only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Handed {
    /// The root mapping's `items` (block or flow), after a `kind` of ResourceList or List or
    /// none at all.
    #[default]
    Items,
    /// The block sequence `clusters` in the block mapping that is the value of the root
    /// mapping's `spec`, when a `kind: Tailor` is written before `spec` (a fan-out's
    /// destinations: a config may list 20,000).
    TailorClusters,
}

/// Whether a root mapping whose keys so far are `pairs` may be a ResourceList or List: its
/// `kind` says so, or comes later (PyYAML and `json.dumps(sort_keys=True)` write `kind` after
/// `items`). A reader given items of a document that turns out not to be one reads it again
/// with every tree (`tailor_kio::read`).
fn may_be_wrapper(pairs: &[Pair]) -> bool {
    match pairs.iter().find(|p| p.key.as_scalar() == Some("kind")) {
        Some(p) => matches!(p.value.as_scalar(), Some("ResourceList" | "List")),
        None => true,
    }
}

/// Whether a root mapping whose keys so far are `pairs` says it is a `Tailor`.
fn is_tailor(pairs: &[Pair]) -> bool {
    pairs
        .iter()
        .any(|p| p.key.as_scalar() == Some("kind") && p.value.as_scalar() == Some("Tailor"))
}

impl Parser<'_> {
    /// Whether the value after `key` (of the block mapping whose entries start at `base` in
    /// `pair_stack`) is the sequence whose entries go to the sink: the first document root's
    /// `items` after a `kind` of ResourceList or List, or `clusters` of a `Tailor`'s `spec`.
    pub(super) fn hands_over_value_of(&mut self, key: &Node, base: usize) -> bool {
        // Only keys of the root and of its `spec` qualify: deeper ones (most keys of a
        // ResourceList) are told apart by the depth alone.
        if self.sink.is_none() || self.docs_done != 0 || self.depth > 2 {
            return false;
        }
        let key = key.as_scalar();
        match (self.handed, self.depth) {
            (Handed::Items, 1) => key == Some("items") && may_be_wrapper(&self.pair_stack[base..]),
            (Handed::TailorClusters, 1) => {
                // `spec` is not in `pair_stack` until its value is read: the mapping that
                // value opens is the only one at depth 2 whose entries start where the root's
                // end now.
                let spec = key == Some("spec") && is_tailor(&self.pair_stack[base..]);
                if spec {
                    self.tailor_spec_base = Some(self.pair_stack.len());
                }
                false
            }
            (Handed::TailorClusters, 2) => {
                key == Some("clusters") && self.tailor_spec_base == Some(base)
            }
            _ => false,
        }
    }

    /// The depth of the block sequence [`Parser::hands_over_value_of`] arms the sink for.
    pub(super) fn handed_depth(&self) -> usize {
        match self.handed {
            Handed::Items => 2,
            Handed::TailorClusters => 3,
        }
    }

    /// [`Parser::hands_over_value_of`] for a flow mapping (a JSON ResourceList): the root
    /// mapping's `items` after a `kind` of ResourceList or List, with the mark where the
    /// root opened (it decides when the root can no longer be a key, see
    /// [`Parser::may_still_be_key`]).
    pub(super) fn flow_hands_over_value_of(
        &self,
        key: &Node,
        pairs: &[Pair],
        open: Mark,
    ) -> Option<Mark> {
        let hands = self.sink.is_some()
            && self.handed == Handed::Items
            && self.depth == 1
            && self.docs_done == 0
            && key.as_scalar() == Some("items")
            && may_be_wrapper(pairs);
        hands.then_some(open)
    }

    /// Whether a flow root that opened at `root` may still turn out to be an implicit key
    /// (`{kind: List, items: [a]}: x`): libyaml gives up on a key once the scan leaves its
    /// line or gets more than 1024 characters past it, and 4,096 bytes hold more than 1,024
    /// characters whatever they are (a count of characters here would make a one-line list
    /// quadratic).
    pub(super) fn may_still_be_key(&self, root: Mark) -> bool {
        self.line == root.line && self.pos - root.pos <= 4096
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
            flow: false,
            head,
            line_comment: String::new(),
            foot: String::new(),
        }
    }

    /// Where an item of a flow `items` begins (the cursor is at its first token); the
    /// comments around it are put in when it is handed over.
    pub(super) fn flow_resume_point(&self) -> Resume {
        Resume {
            flow: true,
            ..self.resume_point(0, String::new())
        }
    }

    /// Gives the last parsed item to the sink; what it does not give back is replaced by a
    /// `null` holding the item's span (the sequence's own span depends on it).
    pub(super) fn hand_over(&mut self, base: usize, resume: Resume, self_contained: bool) {
        let Some(slot) = self.item_stack.last_mut() else {
            return;
        };
        let node = std::mem::replace(slot, Node::null());
        let index = self.item_stack.len() - 1 - base;
        let kept = self.give(index, node, resume, self_contained);
        if let Some(slot) = self.item_stack.last_mut() {
            *slot = kept;
        }
    }

    /// The sink's answer for one item (of a block sequence, or of a flow one, whose caller
    /// holds it): the node it gave back, or a `null` with its span.
    pub(super) fn give(
        &mut self,
        index: usize,
        node: Node,
        resume: Resume,
        self_contained: bool,
    ) -> Node {
        let Some(sink) = self.sink.as_mut() else {
            return node;
        };
        let span = node.span;
        let flow = resume.flow;
        let kept = sink(Handoff {
            index,
            node,
            resume,
            self_contained,
            flow,
        });
        kept.unwrap_or_else(|| {
            let mut placeholder = Node::null();
            placeholder.span = span;
            placeholder
        })
    }
}
