//! Keys: whether a node in block context is an implicit key (a `:` follows on its line), and
//! go-yaml's refusal of a key defined twice in one mapping, in go-yaml's words.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::{is_break, line_col, spanned, Parser, R};
use crate::node::{Node, Pair, Value};
use crate::Error;

impl Parser<'_> {
    /// Parses a scalar, alias or flow collection in block context and reports whether it is
    /// followed by `:` (an implicit key); the `:` is consumed then.
    pub(super) fn scalar_or_flow(&mut self, indent: isize, may_be_key: bool) -> R<(Node, bool)> {
        let start = self.token_start();
        let c = self.peek();
        let mut node = match c {
            b'[' | b'{' => self.flow_collection(indent)?,
            b'"' => self.double_quoted()?,
            b'\'' => self.single_quoted()?,
            b'*' => self.alias()?,
            b'|' | b'>' => return Ok((self.block_scalar(indent)?, false)),
            // No plain scalar starts with these (`%` only starts a directive, in column 0).
            b'@' | b'`' | b'%' => return self.err("found character that cannot start any token"),
            b':' if self.ws_or_end_at(1) => {
                if may_be_key && self.only_properties_before() {
                    // `&a : v`: the properties were the implicit key's start, so they make
                    // an empty key.
                    let at = self.pos;
                    self.pos += 1;
                    return Ok((spanned(Node::plain(""), at, at), true));
                }
                return Err(self.value_without_key());
            }
            b'-' | b'?' if self.ws_or_end_at(1) => {
                return self.err(if c == b'-' {
                    "block sequence entries are not allowed in this context"
                } else {
                    "mapping keys are not allowed in this context"
                })
            }
            b',' | b']' | b'}' | b'#' => {
                return self.parse_err("did not find expected node content", Some(start));
            }
            _ => {
                let (n, key) = self.plain_block(indent, may_be_key)?;
                return Ok((n, key));
            }
        };
        // After a non-plain node, `:` makes it a key when it is on the same line and a blank
        // follows: in block context go-yaml v3 reads `"a":b` as a scalar and then `:b`.
        self.skip_blanks();
        let colon = self.peek() == b':' && self.ws_or_end_at(1);
        if colon && may_be_key && self.simple_key_reaches(start) {
            self.pos += 1;
            return Ok((node, true));
        }
        if self.peek() == b'#' {
            let text = self.read_comment();
            node.comments_mut().line = text;
        } else if !(self.at_end() || is_break(self.peek())) {
            if colon {
                return self.err("mapping values are not allowed in this context");
            }
            return Err(self.unexpected_in_collection());
        }
        Ok((node, false))
    }

    /// go-yaml's "mapping key already defined" (see
    /// [`parse_stream_with`](super::parse_stream_with)).
    pub(super) fn check_unique_keys(&self, pairs: &[Pair]) -> R<()> {
        if !self.unique_keys {
            return Ok(());
        }
        let Some((i, j)) = first_duplicate_key(pairs) else {
            return Ok(());
        };
        let (first_line, _) = line_col(self.b, pairs[i].key.span.start as usize);
        let again = &pairs[j].key;
        let (line, column) = line_col(self.b, again.span.start as usize);
        Err(Error::new(
            format!(
                "mapping key {} already defined at line {first_line}",
                tailor_go::strconv::quote(key_id(again).1)
            ),
            line,
            column,
        ))
    }
}

/// go-yaml's identity of a mapping key in `decoder.mapping`: the node kind and its `Value`,
/// which is the decoded text of a scalar (so `a` and `"a"`, or `1` and `"1"`, are the same
/// key; tags do not count), the name of an alias, and empty for a collection (so any two
/// collection keys of one kind clash, as they do in go-yaml).
fn key_id(key: &Node) -> (u8, &str) {
    match &key.value {
        Value::Scalar(s) => (0, s.as_str()),
        Value::Alias(a) => (1, a.as_str()),
        Value::Mapping(_) => (2, ""),
        Value::Sequence(_) => (3, ""),
    }
}

/// `a < b`, told by the first bytes when they differ (as they do between most neighbouring
/// keys of a sorted mapping) without the call to `memcmp` a string comparison makes.
fn key_id_less(a: (u8, &str), b: (u8, &str)) -> bool {
    if a.0 != b.0 {
        return a.0 < b.0;
    }
    match (a.1.as_bytes().first(), b.1.as_bytes().first()) {
        (Some(x), Some(y)) if x != y => x < y,
        _ => a.1 < b.1,
    }
}

/// Mappings up to this many keys are checked for duplicates pair by pair: cheaper than
/// hashing for the small mappings that make up nearly all of a manifest.
const LINEAR_KEY_CHECK: usize = 16;

/// The first duplicate key of a mapping in go-yaml's order (the earliest key that is defined
/// again, and its first repetition), as `(first, again)` indexes.
pub(super) fn first_duplicate_key(pairs: &[Pair]) -> Option<(usize, usize)> {
    if pairs.len() < 2 {
        return None;
    }
    // Keys in strictly increasing order hold no duplicate: one comparison per key settles the
    // sorted mappings PyYAML and `kubectl get -o yaml` write.
    if pairs
        .windows(2)
        .all(|w| key_id_less(key_id(&w[0].key), key_id(&w[1].key)))
    {
        return None;
    }
    if pairs.len() <= LINEAR_KEY_CHECK {
        for (i, p) in pairs.iter().enumerate() {
            let id = key_id(&p.key);
            if let Some(j) = pairs[i + 1..].iter().position(|q| key_id(&q.key) == id) {
                return Some((i, i + 1 + j));
            }
        }
        return None;
    }
    let mut first: HashMap<(u8, &str), usize> = HashMap::with_capacity(pairs.len());
    let mut found: Option<(usize, usize)> = None;
    for (j, p) in pairs.iter().enumerate() {
        match first.entry(key_id(&p.key)) {
            Entry::Occupied(e) => {
                let i = *e.get();
                if found.is_none_or(|(fi, _)| i < fi) {
                    found = Some((i, j));
                }
            }
            Entry::Vacant(e) => {
                e.insert(j);
            }
        }
    }
    found
}
