//! A go-yaml-like node graph for the merge engine. kyaml's merge relies on pointer identity (a
//! merged element is the same node in the destination list and in the list being built, and a
//! field set to the patch's node is then walked against that same node), so the engine works on
//! shared, mutable nodes and converts from and back to [`tailor_yaml::Node`] around it. Aliases
//! are expanded on the way in, as kustomize de-anchors resources and patches when it loads them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use tailor_yaml::alias::AliasGuard;
use tailor_yaml::resolve::ScalarKind;
use tailor_yaml::{Extra, Node, Pair, Span, Style, Value};

pub(crate) type N = Rc<RefCell<YNode>>;

/// go-yaml's resolved tag, as far as merging cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    /// A node kyaml made with `NewScalarRNode`: no tag.
    None,
    Str,
    Null,
    Other,
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Scalar(tailor_yaml::Text),
    /// Keys and values alternate, as go-yaml's `Content`.
    Mapping(Vec<N>),
    Sequence(Vec<N>),
}

#[derive(Clone, Debug)]
pub(crate) struct YNode {
    pub kind: Kind,
    pub tag: Tag,
    pub style: Style,
    pub extra: Option<Box<Extra>>,
    pub span: Span,
}

impl YNode {
    pub(crate) fn comments_mut(&mut self) -> &mut tailor_yaml::Comments {
        &mut self.extra.get_or_insert_with(Default::default).comments
    }
}

pub(crate) fn new(kind: Kind, tag: Tag, style: Style) -> N {
    Rc::new(RefCell::new(YNode {
        kind,
        tag,
        style,
        extra: None,
        span: Span::default(),
    }))
}

/// `NewScalarRNode`: an untagged plain scalar.
pub(crate) fn scalar(text: &str) -> N {
    new(Kind::Scalar(text.into()), Tag::None, Style::Plain)
}

pub(crate) fn empty_seq() -> N {
    new(Kind::Sequence(Vec::new()), Tag::Other, Style::Block)
}

pub(crate) fn from_node(node: &Node) -> Result<N, String> {
    let mut c = Converter {
        anchors: HashMap::new(),
        guard: AliasGuard::new(),
        depth: 0,
    };
    c.convert(node)
}

struct Converter<'a> {
    anchors: HashMap<&'a str, &'a Node>,
    /// go-yaml's limit on alias expansion (billion laughs) and cycles.
    guard: AliasGuard<'a>,
    depth: usize,
}

impl<'a> Converter<'a> {
    fn convert(&mut self, node: &'a Node) -> Result<N, String> {
        self.guard.visit(self.depth).map_err(|e| e.to_string())?;
        if let Some(a) = node.anchor() {
            self.anchors.insert(a, node);
        }
        let (kind, tag) = match &node.value {
            Value::Alias(name) => {
                let Some(target) = self.anchors.get(name.as_str()).copied() else {
                    return Err(format!("unknown anchor '{name}' referenced"));
                };
                self.guard
                    .enter_alias(node, name)
                    .map_err(|e| e.to_string())?;
                let n = self.convert(target)?;
                self.guard.leave_alias();
                return Ok(n);
            }
            Value::Scalar(s) => {
                let tag = match node.scalar_kind() {
                    Some(ScalarKind::Null) => Tag::Null,
                    Some(ScalarKind::Str) => Tag::Str,
                    _ => Tag::Other,
                };
                (Kind::Scalar(s.clone()), tag)
            }
            Value::Mapping(pairs) => {
                let mut content = Vec::with_capacity(pairs.len() * 2);
                self.depth += 1;
                for p in pairs {
                    content.push(self.convert(&p.key)?);
                    content.push(self.convert(&p.value)?);
                }
                self.depth -= 1;
                (Kind::Mapping(content), Tag::Other)
            }
            Value::Sequence(items) => {
                let mut content = Vec::with_capacity(items.len());
                self.depth += 1;
                for i in items {
                    content.push(self.convert(i)?);
                }
                self.depth -= 1;
                (Kind::Sequence(content), Tag::Other)
            }
        };
        // De-anchoring drops the anchor itself, as kyaml's DeAnchor does.
        let extra = node.extra.as_ref().map(|e| {
            let mut e = e.clone();
            e.anchor = None;
            e
        });
        Ok(Rc::new(RefCell::new(YNode {
            kind,
            tag,
            style: node.style,
            extra,
            span: node.span,
        })))
    }
}

pub(crate) fn to_node(n: &N) -> Node {
    let y = n.borrow();
    let value = match &y.kind {
        Kind::Scalar(s) => Value::Scalar(s.clone()),
        Kind::Mapping(c) => Value::Mapping(
            c.chunks(2)
                .filter(|kv| kv.len() == 2)
                .map(|kv| Pair {
                    key: to_node(&kv[0]),
                    value: to_node(&kv[1]),
                })
                .collect(),
        ),
        Kind::Sequence(c) => Value::Sequence(c.iter().map(to_node).collect()),
    };
    let style = match (&value, y.style) {
        (Value::Scalar(_), Style::Block | Style::Flow) => Style::Any,
        (Value::Mapping(_) | Value::Sequence(_), Style::Flow) => Style::Flow,
        (Value::Mapping(_) | Value::Sequence(_), _) => Style::Block,
        (_, s) => s,
    };
    Node {
        value,
        style,
        extra: y.extra.clone(),
        span: y.span,
    }
}

// ---- kyaml predicates and accessors ---------------------------------------------------------

pub(crate) fn is_null(n: &N) -> bool {
    n.borrow().tag == Tag::Null
}

/// `IsMissingOrNull`.
pub(crate) fn missing_or_null(n: Option<&N>) -> bool {
    n.is_none_or(is_null)
}

pub(crate) fn is_mapping(n: &N) -> bool {
    matches!(n.borrow().kind, Kind::Mapping(_))
}

pub(crate) fn is_sequence(n: &N) -> bool {
    matches!(n.borrow().kind, Kind::Sequence(_))
}

/// `IsEmptyMap`: missing, null, or a mapping without entries.
pub(crate) fn is_empty_map(n: Option<&N>) -> bool {
    match n {
        None => true,
        Some(n) => is_null(n) || matches!(&n.borrow().kind, Kind::Mapping(c) if c.is_empty()),
    }
}

/// `IsNilOrEmpty` of a field value: missing, null, empty map or empty sequence.
pub(crate) fn is_nil_or_empty(n: Option<&N>) -> bool {
    match n {
        None => true,
        Some(n) => {
            let y = n.borrow();
            y.tag == Tag::Null
                || match &y.kind {
                    Kind::Mapping(c) | Kind::Sequence(c) => c.is_empty(),
                    Kind::Scalar(_) => false,
                }
        }
    }
}

/// go-yaml's `Node.Value`: the scalar text, empty for collections.
pub(crate) fn value_text(n: &N) -> String {
    match &n.borrow().kind {
        Kind::Scalar(s) => s.to_string(),
        _ => String::new(),
    }
}

/// `GetValue`: the text, empty for missing or null nodes.
pub(crate) fn get_value(n: Option<&N>) -> String {
    match n {
        Some(n) if !is_null(n) => value_text(n),
        _ => String::new(),
    }
}

pub(crate) fn content(n: &N) -> Vec<N> {
    match &n.borrow().kind {
        Kind::Mapping(c) | Kind::Sequence(c) => c.clone(),
        Kind::Scalar(_) => Vec::new(),
    }
}

pub(crate) fn set_content(n: &N, items: Vec<N>) {
    let mut y = n.borrow_mut();
    match &mut y.kind {
        Kind::Mapping(c) | Kind::Sequence(c) => *c = items,
        Kind::Scalar(_) => {}
    }
}

/// `RNode.Field`: the first entry with this key of a mapping, as (key, value).
pub(crate) fn field(n: &N, name: &str) -> Option<(N, N)> {
    let y = n.borrow();
    let Kind::Mapping(c) = &y.kind else {
        return None;
    };
    c.chunks(2)
        .filter(|kv| kv.len() == 2)
        .find(|kv| matches!(&kv[0].borrow().kind, Kind::Scalar(k) if k == name))
        .map(|kv| (kv[0].clone(), kv[1].clone()))
}

pub(crate) fn field_value(n: &N, name: &str) -> Option<N> {
    field(n, name).map(|(_, v)| v)
}

/// `RNode.Field` for every key at once: the first value of each key of a mapping, so that a
/// walk over a map with n keys looks each one up in constant time instead of scanning.
pub(crate) fn field_index(n: &N) -> HashMap<String, N> {
    let y = n.borrow();
    let mut index = HashMap::new();
    if let Kind::Mapping(c) = &y.kind {
        for kv in c.chunks(2).filter(|kv| kv.len() == 2) {
            if let Kind::Scalar(k) = &kv[0].borrow().kind {
                index.entry(k.to_string()).or_insert_with(|| kv[1].clone());
            }
        }
    }
    index
}

/// `FieldClearer` for several keys at once: removes the first entry of each key in `names`.
pub(crate) fn clear_fields(n: &N, names: &std::collections::HashSet<String>) {
    if names.is_empty() {
        return;
    }
    let mut y = n.borrow_mut();
    let Kind::Mapping(c) = &mut y.kind else {
        return;
    };
    let mut cleared = std::collections::HashSet::new();
    let mut kept = Vec::with_capacity(c.len());
    for kv in c.chunks(2) {
        let first = kv.len() == 2
            && matches!(&kv[0].borrow().kind, Kind::Scalar(k)
                if names.contains(k.as_str()) && cleared.insert(k.to_string()));
        if !first {
            kept.extend(kv.iter().cloned());
        }
    }
    *c = kept;
}

/// `RNode.Fields`: the key texts of a mapping.
pub(crate) fn field_names(n: &N) -> Vec<String> {
    let y = n.borrow();
    let Kind::Mapping(c) = &y.kind else {
        return Vec::new();
    };
    c.chunks(2).map(|kv| value_text(&kv[0])).collect()
}

/// `FieldClearer`: removes the first entry with this key.
pub(crate) fn clear_field(n: &N, name: &str) -> Option<N> {
    let mut y = n.borrow_mut();
    let Kind::Mapping(c) = &mut y.kind else {
        return None;
    };
    let i = (0..c.len() / 2)
        .find(|i| matches!(&c[2 * i].borrow().kind, Kind::Scalar(k) if k == name))?;
    let removed = c.remove(2 * i + 1);
    c.remove(2 * i);
    Some(removed)
}

/// A short rendering for error messages.
pub(crate) fn render(n: &N) -> String {
    let node = to_node(n);
    tailor_yaml::emit_node(&node, Default::default())
        .trim()
        .to_string()
}

pub(crate) fn kind_name(n: &N) -> &'static str {
    match n.borrow().kind {
        Kind::Scalar(_) => "ScalarNode",
        Kind::Mapping(_) => "MappingNode",
        Kind::Sequence(_) => "SequenceNode",
    }
}

/// go-yaml's `ShortTag` of a scalar, for kyaml's directive error.
pub(crate) fn short_tag(n: &N) -> &'static str {
    let y = n.borrow();
    match (&y.kind, y.tag) {
        (Kind::Mapping(_), _) => "!!map",
        (Kind::Sequence(_), _) => "!!seq",
        (_, Tag::Null) => "!!null",
        (_, Tag::Str) => "!!str",
        (Kind::Scalar(s), _) => {
            let node = Node::scalar(s.clone(), Style::Plain);
            match node.scalar_kind() {
                Some(ScalarKind::Int) => "!!int",
                Some(ScalarKind::Float) => "!!float",
                Some(ScalarKind::Bool) => "!!bool",
                Some(ScalarKind::Null) => "!!null",
                _ => "!!str",
            }
        }
    }
}

/// go-yaml's style 0 covers tailor's `Any`, `Plain` and `Block`.
fn is_default_style(s: Style) -> bool {
    matches!(s, Style::Any | Style::Plain | Style::Block)
}

/// Gives `target` the go-yaml style of `from`, translated to tailor's styles so that the value
/// keeps the type go-yaml would print it with (a `!!str` in default style stays a string).
pub(crate) fn copy_style(target: &N, from: Style) {
    let mut y = target.borrow_mut();
    if is_default_style(y.style) == is_default_style(from)
        && (is_default_style(from) || y.style == from)
    {
        return;
    }
    let scalar = matches!(y.kind, Kind::Scalar(_));
    y.style = if is_default_style(from) || (scalar && from == Style::Flow) {
        match (scalar, y.tag) {
            (true, Tag::Str) => Style::Any,
            (true, _) => Style::Plain,
            (false, _) => Style::Block,
        }
    } else if scalar {
        from
    } else if from == Style::Flow {
        Style::Flow
    } else {
        Style::Block
    };
}

/// `field.SetYNode(value)`: the existing node takes the value's contents (children shared).
pub(crate) fn set_ynode(target: &N, value: &N) {
    if Rc::ptr_eq(target, value) {
        return;
    }
    let mut v = value.borrow().clone();
    // kyaml drops the destination's comments here; keeping them changes no data.
    let had = target.borrow().extra.clone();
    if let Some(old) = had {
        if v.extra.as_ref().is_none_or(|e| e.comments.is_empty()) && !old.comments.is_empty() {
            v.extra.get_or_insert_with(Default::default).comments = old.comments;
        }
    }
    *target.borrow_mut() = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use tailor_yaml::parse_stream;

    #[test]
    fn round_trip_keeps_presentation_and_expands_aliases() {
        let src = "a: &x {b: 1}\nc: *x\nd: \"8080\"  # note\ne: ~\n";
        let doc = parse_stream(src).unwrap().remove(0).root;
        let n = from_node(&doc).unwrap();
        let back = to_node(&n);
        assert_eq!(
            back.get("c").unwrap().get("b").unwrap().as_scalar(),
            Some("1")
        );
        assert!(back.get("a").unwrap().anchor().is_none());
        assert_eq!(back.get("d").unwrap().as_str(), Some("8080"));
        assert!(back.get("e").unwrap().is_null());
        assert!(is_null(&field_value(&n, "e").unwrap()));
    }

    #[test]
    fn self_referencing_alias_is_an_error() {
        let mut n = Node::mapping();
        let mut alias = Node::scalar("", Style::Plain);
        alias.value = Value::Alias("nope".into());
        n.set("a", alias);
        assert!(from_node(&n).is_err());
    }

    #[test]
    fn alias_cycles_and_bombs_are_refused() {
        // `&s [*s]` recursed until the stack overflowed.
        let doc = parse_stream("a: &s [x, {k: *s}]\n").unwrap().remove(0).root;
        assert_eq!(
            from_node(&doc).err().as_deref(),
            Some("yaml: anchor 's' value contains itself")
        );
        let mut src = String::from("l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n");
        for i in 1..8 {
            let refs = vec![format!("*l{}", i - 1); 10].join(", ");
            src.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        let doc = parse_stream(&src).unwrap().remove(0).root;
        assert_eq!(
            from_node(&doc).err().as_deref(),
            Some("yaml: document contains excessive aliasing")
        );
    }

    #[test]
    fn copy_style_keeps_string_type() {
        let v = new(Kind::Scalar("8080".into()), Tag::Str, Style::DoubleQuoted);
        copy_style(&v, Style::Plain);
        assert_eq!(v.borrow().style, Style::Any);
        let i = new(Kind::Scalar("8080".into()), Tag::Other, Style::Plain);
        copy_style(&i, Style::DoubleQuoted);
        assert_eq!(i.borrow().style, Style::DoubleQuoted);
    }
}
