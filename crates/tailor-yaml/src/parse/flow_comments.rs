//! Comments inside flow collections, placed where go-yaml places them, so that an object
//! written from its tree keeps them (tekton's `args: [` lists, each flag group under its own
//! comment). Every rule here was read off `kpt fn source` (go-yaml v3's reading and writing);
//! `tests/flow_comments.rs` holds the cases:
//!
//! - a comment on the line an entry ends on, or on the line of the `,` after it, is the
//!   entry's line comment;
//! - comment lines right below an entry, when a blank line follows them, close it (its foot);
//!   the scanner's rule for block content too (`yaml_parser_scan_comments`), which has no
//!   foot line below the stream's first line;
//! - the other comment lines before an entry open it (its head), blank lines between them
//!   kept;
//! - before the closing bracket, they close the last entry.
//!
//! go-yaml drops a comment after the opening bracket and the comments of an empty
//! collection; tailor keeps them, as the first entry's head and the collection's foot. Before
//! the closing bracket go-yaml gives a second run, after a blank line, to the collection
//! rather than the last entry, and writes it after the bracket; tailor keeps it with the
//! first, so that what it writes it reads back the same (go-yaml reads both texts alike).

use super::comments::{append_foot, attach_head, join_comments};
use super::{is_blank, is_break, Parser, PendingComment};
use crate::node::Node;

impl Parser<'_> {
    /// Reads the comment at the cursor into the gap between two flow entries.
    pub(super) fn gather_flow_comment(&mut self) {
        let pos = self.pos;
        let (same_line, blank_before) = self.layout_before(pos);
        let col = self.col();
        let text = self.read_comment();
        self.flow_gap.push(PendingComment {
            text,
            col,
            blank_before,
            pos,
            same_line,
        });
    }

    /// Whether the comment at `pos` shares its line with the token before it, and whether a
    /// blank line parts it from that token or comment. Looks back over white space alone, so
    /// each byte is looked at twice at the most.
    fn layout_before(&self, pos: usize) -> (bool, bool) {
        let mut breaks = 0;
        for &c in self.b[..pos].iter().rev() {
            if c == b'\n' {
                breaks += 1;
            } else if !(is_blank(c) || is_break(c)) {
                break;
            }
        }
        (breaks == 0, breaks > 1)
    }

    /// Whether the line `pos` is on comes right after the stream's first line.
    fn below_first_line(&self, pos: usize) -> bool {
        let line_break = self.b[..pos].iter().rposition(|&c| c == b'\n');
        line_break.is_some_and(|at| at == 0 || self.on_first_line(at - 1))
    }

    /// Gives the comments gathered since the entry `prior` (none before the first entry) to
    /// it and answers those that open the next entry, or, when `closing` and the collection is
    /// empty, those that close the collection. `next` is where the next token starts.
    /// Inline: most flow entries have no comment before them (all of JSON's), and the call
    /// alone was 3% of reading small flow objects.
    #[inline]
    pub(super) fn settle_flow_gap(
        &mut self,
        prior: Option<&mut Node>,
        next: usize,
        closing: bool,
    ) -> String {
        if self.flow_gap.is_empty() {
            return String::new();
        }
        self.settle_gathered(prior, next, closing)
    }

    #[inline(never)]
    fn settle_gathered(
        &mut self,
        mut prior: Option<&mut Node>,
        next: usize,
        closing: bool,
    ) -> String {
        let mut own = Vec::with_capacity(self.flow_gap.len());
        for c in self.flow_gap.drain(..) {
            match prior.as_deref_mut() {
                Some(p) if c.same_line && line_free(p) => {
                    p.comments_mut().line = c.text;
                }
                _ => own.push(c),
            }
        }
        let Some(prior) = prior else {
            if closing {
                // An empty collection's: written below it, where a blank line among them
                // would part them again when read (the first run would close what precedes).
                own.iter_mut().for_each(|c| c.blank_before = false);
            }
            return join_comments(own.into_iter());
        };
        if closing {
            append_foot(prior, join_comments(own.into_iter()));
            return String::new();
        }
        // The run right below the entry, up to the first blank line, when one follows it
        // (and the entry's line is not the stream's first, where the scanner has no foot
        // line).
        let closes = match own.first() {
            Some(first) if !first.blank_before && !self.below_first_line(first.pos) => own
                .iter()
                .skip(1)
                .position(|c| c.blank_before)
                .map(|i| i + 1)
                .or_else(|| {
                    let last = own.last()?;
                    let end = (last.pos + last.text.len()).min(next);
                    let gap = self.b.get(end..next)?;
                    (gap.iter().filter(|&&c| c == b'\n').count() > 1).then_some(own.len())
                })
                .unwrap_or(0),
            _ => 0,
        };
        let rest: Vec<_> = own.drain(closes..).collect();
        append_foot(prior, join_comments(own.into_iter()));
        join_comments(rest.into_iter())
    }

    /// The comments inside one entry (between `?`, key, `:` and value): the first on a line
    /// of the entry is the value's line comment, as go-yaml gives it; the others open the
    /// entry, so that none is lost.
    #[inline]
    pub(super) fn settle_within_entry(&mut self, key: &mut Node, value: &mut Node) {
        if !self.flow_gap.is_empty() {
            self.settle_within_gathered(key, value);
        }
    }

    #[inline(never)]
    fn settle_within_gathered(&mut self, key: &mut Node, value: &mut Node) {
        let mut own = Vec::new();
        for c in self.flow_gap.drain(..) {
            if c.same_line && own.is_empty() && line_free(value) {
                value.comments_mut().line = c.text;
            } else {
                own.push(c);
            }
        }
        attach_head(key, join_comments(own.into_iter()));
    }
}

fn line_free(n: &Node) -> bool {
    n.comments().is_none_or(|c| c.line.is_empty())
}
