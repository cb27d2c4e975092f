//! Flow collections, written as go-yaml v3 writes them without a width limit: on one line
//! while no entry carries a comment; an entry's head comment on the lines above it, its line
//! comment after its `,`, its foot on the lines below, each at the collection's content
//! indentation, and the closing bracket on a line of its own after a comment
//! (`yaml_emitter_emit_flow_sequence_item`, `yaml_emitter_emit_flow_mapping_key`/`_value`).
//! Where go-yaml writes a `}` after a comment in column 0, tailor writes it where it writes a
//! `]`, at the indentation of what holds the collection: go-yaml reads both the same.

use super::{fits_implicit_key, spaces, write_comment_block, write_line_comment, Ctx, Emitter};
use crate::emit::scalar::at_line_start;
use crate::node::{Node, Pair, Style, Value};

/// What one entry of a flow collection is written from.
#[derive(Clone, Copy)]
enum Entry<'n> {
    Item(&'n Node),
    Pair(&'n Pair),
}

/// An entry's comments: the heads and feet of a pair's key and value, one line comment.
struct EntryComments<'n> {
    heads: [&'n str; 2],
    line: &'n str,
    feet: [&'n str; 2],
}

fn comments_of(n: &Node) -> (&str, &str, &str) {
    n.comments()
        .map_or(("", "", ""), |c| (&c.head, &c.line, &c.foot))
}

impl<'n> Entry<'n> {
    fn comments(self) -> EntryComments<'n> {
        match self {
            Entry::Item(n) => {
                let (head, line, foot) = comments_of(n);
                EntryComments {
                    heads: [head, ""],
                    line,
                    feet: [foot, ""],
                }
            }
            Entry::Pair(p) => {
                let (key_head, key_line, key_foot) = comments_of(&p.key);
                let (value_head, value_line, value_foot) = comments_of(&p.value);
                EntryComments {
                    heads: [key_head, value_head],
                    line: if value_line.is_empty() {
                        key_line
                    } else {
                        value_line
                    },
                    feet: [key_foot, value_foot],
                }
            }
        }
    }
}

fn entry_at(n: &Node, i: usize) -> Option<Entry<'_>> {
    match &n.value {
        Value::Mapping(pairs) => pairs.get(i).map(Entry::Pair),
        Value::Sequence(items) => items.get(i).map(Entry::Item),
        _ => None,
    }
}

/// go-yaml's `yaml_emitter_increase_indent` for a flow collection held at `outer`.
fn content_indent(outer: usize) -> usize {
    2 * ((outer + 2) / 2)
}

impl Emitter<'_> {
    /// A flow collection held at `outer`: go-yaml's `emitter.indent` there (a block mapping's
    /// key column, a block sequence's dash column, an enclosing flow collection's content
    /// column).
    pub(super) fn flow(&mut self, node: &Node, outer: usize) {
        self.flow_collection(node, Some(outer));
    }

    /// A flow collection that must stay on its line (a simple key): its comments are not
    /// written.
    pub(super) fn flow_on_one_line(&mut self, node: &Node) {
        self.flow_collection(node, None);
    }

    fn flow_collection(&mut self, node: &Node, outer: Option<usize>) {
        let (open, close) = match &node.value {
            Value::Mapping(_) => ('{', '}'),
            Value::Sequence(_) => ('[', ']'),
            _ => return self.flow_item(node, false, outer),
        };
        let inner = outer.map(content_indent);
        self.out.push(open);
        let mut trail = false;
        let mut i = 0;
        while let Some(entry) = entry_at(node, i) {
            if i > 0 && !trail {
                self.out.push(',');
            }
            let comments = match inner {
                Some(_) => entry.comments(),
                None => EntryComments {
                    heads: ["", ""],
                    line: "",
                    feet: ["", ""],
                },
            };
            self.flow_entry_start(&comments.heads, inner, i > 0);
            match entry {
                Entry::Item(n) => self.flow_item(n, false, inner),
                Entry::Pair(p) => self.flow_pair(p, inner),
            }
            trail = !comments.line.is_empty() || comments.feet.iter().any(|f| !f.is_empty());
            if trail {
                self.out.push(',');
            }
            if !comments.line.is_empty() {
                write_line_comment(self.out, comments.line);
                self.out.push('\n');
            }
            for foot in comments.feet.iter().filter(|f| !f.is_empty()) {
                if !at_line_start(self.out) {
                    self.out.push('\n');
                }
                self.flow_foot_comment(foot, inner.unwrap_or_default());
            }
            i += 1;
        }
        if let Some(outer) = outer.filter(|_| at_line_start(self.out)) {
            self.line_start(outer);
            spaces(self.out, outer);
        }
        self.out.push(close);
    }

    /// Where an entry starts: its head comments on lines of their own at `inner`, then the
    /// entry on the next line, or after `, ` on the current one.
    fn flow_entry_start(&mut self, heads: &[&str], inner: Option<usize>, after_comma: bool) {
        let Some(inner) = inner else {
            if after_comma {
                self.out.push(' ');
            }
            return;
        };
        for head in heads.iter().filter(|h| !h.is_empty()) {
            if !at_line_start(self.out) {
                self.out.push('\n');
            }
            self.line_start(inner);
            write_comment_block(self.out, head, inner);
        }
        if at_line_start(self.out) {
            self.line_start(inner);
            spaces(self.out, inner);
        } else if after_comma {
            self.out.push(' ');
        }
    }

    fn flow_pair(&mut self, p: &Pair, inner: Option<usize>) {
        let start = self.out.len();
        self.flow_item(&p.key, true, None);
        if !fits_implicit_key(&self.out[start..]) {
            self.out.insert_str(start, "? ");
        }
        self.out.push(':');
        let empty_plain = matches!(&p.value.value, Value::Scalar(s) if s.is_empty())
            && self.choose_style(&p.value, Ctx::Flow) == Style::Plain;
        if !empty_plain {
            self.out.push(' ');
            self.flow_item(&p.value, false, inner);
        }
    }

    fn flow_item(&mut self, node: &Node, key: bool, outer: Option<usize>) {
        self.props_and_space(node);
        match &node.value {
            Value::Alias(a) => {
                self.out.push('*');
                self.out.push_str(a);
                if key {
                    self.out.push(' ');
                }
            }
            Value::Scalar(_) => {
                let ctx = if key { Ctx::FlowKey } else { Ctx::Flow };
                self.scalar(node, 0, ctx);
            }
            _ => self.flow_collection(node, outer),
        }
    }
}
