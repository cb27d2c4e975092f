//! The node tree: a go-yaml `Node`-like model that keeps what a round trip must not lose.
//!
//! Every node remembers its presentation (scalar style, flow/block, tag and anchor as written,
//! comments) and the byte span it came from, so that untouched data is written back the way it
//! was read. Values are kept as text and typed lazily (see [`crate::resolve`]), so `0644`,
//! `1_000`, big integers and `!!binary` survive.

use crate::resolve::{resolve_plain, ScalarKind};

/// How a node is presented. Scalars use the first six; collections use `Block` or `Flow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// A string created by tailor: the emitter picks plain, quoted or literal as go-yaml would.
    #[default]
    Any,
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
    Block,
    Flow,
}

/// Comments attached to a node, with the `#` kept, lines joined by `\n` (blank lines kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comments {
    pub head: String,
    pub line: String,
    pub foot: String,
}

impl Comments {
    pub fn is_empty(&self) -> bool {
        self.head.is_empty() && self.line.is_empty() && self.foot.is_empty()
    }
}

/// Rarely present properties live behind one pointer so the common node stays small.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    pub tag: Option<String>,
    pub anchor: Option<String>,
    pub comments: Comments,
}

/// A scalar's text. Most scalars of real manifests (keys, names, `f:` fields of managedFields)
/// are at most 24 bytes, which this type keeps inline: one allocation fewer per scalar is a
/// third of the tree's memory and most of the parser's allocator time.
pub type Text = compact_str::CompactString;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(Text),
    Mapping(Vec<Pair>),
    Sequence(Vec<Node>),
    Alias(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub key: Node,
    pub value: Node,
}

/// Byte offsets into the source the node was parsed from; `0..0` for nodes tailor made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub style: Style,
    pub extra: Option<Box<Extra>>,
    pub span: Span,
}

impl Node {
    /// A fresh string; the emitter quotes it if YAML 1.1 or 1.2 would read it as another type.
    pub fn string(s: impl Into<Text>) -> Node {
        Node::scalar(s, Style::Any)
    }

    pub fn scalar(s: impl Into<Text>, style: Style) -> Node {
        Node {
            value: Value::Scalar(s.into()),
            style,
            extra: None,
            span: Span::default(),
        }
    }

    /// A plain scalar whose text is already what it must be (numbers, booleans, null).
    pub fn plain(s: impl Into<Text>) -> Node {
        Node::scalar(s, Style::Plain)
    }

    pub fn null() -> Node {
        Node::plain("null")
    }

    pub fn mapping() -> Node {
        Node::from_pairs(Vec::new())
    }

    pub fn from_pairs(pairs: Vec<Pair>) -> Node {
        Node {
            value: Value::Mapping(pairs),
            style: Style::Block,
            extra: None,
            span: Span::default(),
        }
    }

    pub fn sequence(items: Vec<Node>) -> Node {
        Node {
            value: Value::Sequence(items),
            style: Style::Block,
            extra: None,
            span: Span::default(),
        }
    }

    // ---- presentation -------------------------------------------------------------------

    pub fn tag(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|e| e.tag.as_deref())
    }

    pub fn anchor(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|e| e.anchor.as_deref())
    }

    /// Whether this is a collection in block form (non-empty and not flow): what the emitter
    /// writes over lines of its own, and what a comment below closes whatever its last line.
    pub(crate) fn is_block_collection(&self) -> bool {
        match &self.value {
            Value::Mapping(p) => !p.is_empty() && self.style != Style::Flow,
            Value::Sequence(i) => !i.is_empty() && self.style != Style::Flow,
            _ => false,
        }
    }

    /// The node written last in this one: a block collection's last entry's value, down to a
    /// scalar, alias or flow collection. The parser asks it of what precedes comments, the
    /// emitter of what it wrote before a foot comment, so that the two agree.
    pub(crate) fn last_leaf(&self) -> &Node {
        if !self.is_block_collection() {
            return self;
        }
        match &self.value {
            Value::Mapping(pairs) => pairs.last().map_or(self, |p| p.value.last_leaf()),
            Value::Sequence(items) => items.last().map_or(self, Node::last_leaf),
            _ => self,
        }
    }

    pub fn comments(&self) -> Option<&Comments> {
        self.extra
            .as_ref()
            .map(|e| &e.comments)
            .filter(|c| !c.is_empty())
    }

    pub fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Default::default)
    }

    pub fn set_tag(&mut self, tag: Option<String>) {
        if tag.is_none() && self.extra.is_none() {
            return;
        }
        self.extra_mut().tag = tag;
    }

    pub fn comments_mut(&mut self) -> &mut Comments {
        &mut self.extra_mut().comments
    }

    /// The tag in its short form (`!!str` for `tag:yaml.org,2002:str`), if one was written.
    pub fn short_tag(&self) -> Option<String> {
        self.tag().map(short_tag)
    }

    // ---- kind and typed views -----------------------------------------------------------

    pub fn is_mapping(&self) -> bool {
        matches!(self.value, Value::Mapping(_))
    }

    pub fn is_sequence(&self) -> bool {
        matches!(self.value, Value::Sequence(_))
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self.value, Value::Scalar(_))
    }

    /// What the scalar means, following go-yaml v3: an explicit tag wins; quoted and block
    /// scalars are strings; plain text is resolved (`0644` is an int, `yes` a string). The
    /// non-specific tag `!` is no tag; any tag go-yaml cannot resolve (`!t 1`, `!Ref x`) makes
    /// a string of the text.
    pub fn scalar_kind(&self) -> Option<ScalarKind> {
        let Value::Scalar(s) = &self.value else {
            return None;
        };
        if let Some(tag) = self.short_tag().filter(|t| t != "!") {
            return Some(match tag.as_str() {
                "!!int" => ScalarKind::Int,
                "!!float" => ScalarKind::Float,
                "!!bool" => ScalarKind::Bool,
                "!!null" => ScalarKind::Null,
                "!!merge" => ScalarKind::Merge,
                _ => ScalarKind::Str,
            });
        }
        Some(match self.style {
            Style::Plain => resolve_plain(s),
            _ => ScalarKind::Str,
        })
    }

    pub fn is_null(&self) -> bool {
        self.scalar_kind() == Some(ScalarKind::Null)
    }

    /// The scalar's text, whatever its type.
    pub fn as_scalar(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The scalar's text only when it is a string (not a number, bool or null).
    pub fn as_str(&self) -> Option<&str> {
        match (&self.value, self.scalar_kind()) {
            (Value::Scalar(s), Some(ScalarKind::Str)) => Some(s),
            _ => None,
        }
    }

    pub fn pairs(&self) -> Option<&[Pair]> {
        match &self.value {
            Value::Mapping(p) => Some(p),
            _ => None,
        }
    }

    pub fn pairs_mut(&mut self) -> Option<&mut Vec<Pair>> {
        match &mut self.value {
            Value::Mapping(p) => Some(p),
            _ => None,
        }
    }

    /// Whether an alias occurs anywhere in the node: a reader that compares, moves or splits
    /// values must expand them first (or keep the tree whole), since an alias may refer to an
    /// anchor outside the part it reads.
    pub fn has_alias(&self) -> bool {
        match &self.value {
            Value::Alias(_) => true,
            Value::Scalar(_) => false,
            Value::Sequence(items) => items.iter().any(Node::has_alias),
            Value::Mapping(pairs) => pairs
                .iter()
                .any(|p| p.key.has_alias() || p.value.has_alias()),
        }
    }

    pub fn items(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Sequence(i) => Some(i),
            _ => None,
        }
    }

    pub fn items_mut(&mut self) -> Option<&mut Vec<Node>> {
        match &mut self.value {
            Value::Sequence(i) => Some(i),
            _ => None,
        }
    }

    // ---- mapping access (first match wins for duplicate keys, as kyaml) -------------------

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.pairs()?
            .iter()
            .find(|p| p.key.as_scalar() == Some(key))
            .map(|p| &p.value)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.pairs_mut()?
            .iter_mut()
            .find(|p| p.key.as_scalar() == Some(key))
            .map(|p| &mut p.value)
    }

    /// Follows a chain of mapping keys.
    pub fn get_path(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |node, key| node.get(key))
    }

    pub fn get_path_mut(&mut self, path: &[&str]) -> Option<&mut Node> {
        let mut node = self;
        for key in path {
            node = node.get_mut(key)?;
        }
        Some(node)
    }

    /// A string field, if present and a string.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Node::as_str)
    }

    /// Sets `key` to `value`, keeping the position (and the key's comments) when it exists and
    /// appending otherwise. Returns false when `self` is not a mapping.
    pub fn set(&mut self, key: &str, value: Node) -> bool {
        let Some(pairs) = self.pairs_mut() else {
            return false;
        };
        if let Some(p) = pairs.iter_mut().find(|p| p.key.as_scalar() == Some(key)) {
            let comments = p.value.extra.as_ref().map(|e| e.comments.clone());
            p.value = value;
            if let Some(c) = comments {
                if p.value.comments().is_none() && !c.is_empty() {
                    *p.value.comments_mut() = c;
                }
            }
        } else {
            pairs.push(Pair {
                key: Node::string(key),
                value,
            });
        }
        true
    }

    /// Returns the value at `key`, inserting `make()` first if absent or null.
    pub fn entry_or_insert(&mut self, key: &str, make: impl FnOnce() -> Node) -> Option<&mut Node> {
        let pairs = self.pairs_mut()?;
        let idx = match pairs.iter().position(|p| p.key.as_scalar() == Some(key)) {
            Some(i) => {
                if pairs[i].value.is_null() {
                    let comments = pairs[i].value.extra.take();
                    pairs[i].value = make();
                    if let Some(extra) = comments {
                        pairs[i].value.comments_mut().line = extra.comments.line;
                    }
                }
                i
            }
            None => {
                pairs.push(Pair {
                    key: Node::string(key),
                    value: make(),
                });
                pairs.len() - 1
            }
        };
        pairs.get_mut(idx).map(|p| &mut p.value)
    }

    /// Removes every entry with this key; returns the first removed value.
    pub fn remove(&mut self, key: &str) -> Option<Node> {
        let pairs = self.pairs_mut()?;
        let mut removed = None;
        let mut i = 0;
        while i < pairs.len() {
            if pairs[i].key.as_scalar() == Some(key) {
                let p = pairs.remove(i);
                if removed.is_none() {
                    removed = Some(p.value);
                }
            } else {
                i += 1;
            }
        }
        removed
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Replaces a scalar's text, keeping its style unless the new text could not be read back
    /// in that style with the same meaning (then the emitter re-chooses).
    pub fn set_scalar_text(&mut self, text: impl Into<Text>) {
        self.value = Value::Scalar(text.into());
        self.span = Span::default();
    }

    /// Writes a new string into a scalar the way a person editing the file would: quoted
    /// scalars stay quoted and block scalars stay blocks while they can hold the text; a plain
    /// scalar lets the emitter choose, so the new text is quoted only if it would otherwise
    /// read back as a number, boolean or null.
    pub fn set_string(&mut self, text: &str) {
        self.style = match self.style {
            Style::SingleQuoted | Style::DoubleQuoted => self.style,
            Style::Literal | Style::Folded if text.contains('\n') => self.style,
            _ => Style::Any,
        };
        self.set_scalar_text(text);
    }

    /// Converts to JSON with go-yaml v3 typing; aliases are expanded within `limits`.
    pub fn to_json(&self) -> Result<serde_json::Value, crate::Error> {
        crate::json::to_json(self)
    }
}

/// `tag:yaml.org,2002:str` → `!!str`; other tags unchanged.
pub fn short_tag(tag: &str) -> String {
    if let Some(rest) = tag.strip_prefix("tag:yaml.org,2002:") {
        return format!("!!{rest}");
    }
    if let Some(inner) = tag.strip_prefix("!<").and_then(|t| t.strip_suffix('>')) {
        return short_tag(inner);
    }
    tag.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_keeps_position_and_appends_new_keys() {
        let mut m = Node::mapping();
        m.set("a", Node::string("1"));
        m.set("b", Node::string("2"));
        m.set("a", Node::string("3"));
        let keys: Vec<_> = m
            .pairs()
            .unwrap()
            .iter()
            .map(|p| p.key.as_scalar().unwrap().to_string())
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(m.get_str("a"), Some("3"));
    }

    #[test]
    fn an_alias_is_found_at_any_depth_in_keys_and_values() {
        let doc = |text: &str| crate::parse_stream(text).unwrap().remove(0).root;
        assert!(!doc("a: [1, {b: c}]\n").has_alias());
        assert!(doc("x: &v 1\na: [1, {b: *v}]\n").has_alias());
        assert!(doc("k: &k a\n? *k\n: 1\n").has_alias());
        // An anchor alone is not an alias.
        assert!(!doc("a: &v 1\n").has_alias());
    }

    #[test]
    fn plain_scalars_are_typed_lazily() {
        assert_eq!(Node::plain("0644").scalar_kind(), Some(ScalarKind::Int));
        assert_eq!(Node::plain("yes").scalar_kind(), Some(ScalarKind::Str));
        assert_eq!(
            Node::scalar("1", Style::DoubleQuoted).scalar_kind(),
            Some(ScalarKind::Str)
        );
        let mut tagged = Node::plain("42");
        tagged.set_tag(Some("!!str".into()));
        assert_eq!(tagged.as_str(), Some("42"));
        // As go-yaml v3 decodes them: a tag it cannot resolve makes a string of plain text,
        // the non-specific `!` is no tag, a standard tag wins over the style.
        let tagged = |tag: &str, text: &str, style: Style| {
            let mut n = Node::scalar(text, style);
            n.set_tag(Some(tag.into()));
            n.scalar_kind()
        };
        assert_eq!(tagged("!t", "1", Style::Plain), Some(ScalarKind::Str));
        assert_eq!(tagged("!foo", "null", Style::Plain), Some(ScalarKind::Str));
        assert_eq!(tagged("!", "1", Style::Plain), Some(ScalarKind::Int));
        assert_eq!(tagged("!", "1", Style::DoubleQuoted), Some(ScalarKind::Str));
        assert_eq!(
            tagged("!!int", "1", Style::DoubleQuoted),
            Some(ScalarKind::Int)
        );
        assert_eq!(
            tagged("!!binary", "aGk=", Style::Plain),
            Some(ScalarKind::Str)
        );
    }

    #[test]
    fn remove_drops_duplicates_too() {
        let mut m = Node::from_pairs(vec![
            Pair {
                key: Node::plain("a"),
                value: Node::plain("1"),
            },
            Pair {
                key: Node::plain("a"),
                value: Node::plain("2"),
            },
        ]);
        assert_eq!(m.remove("a").unwrap().as_scalar(), Some("1"));
        assert!(m.pairs().unwrap().is_empty());
    }
}
