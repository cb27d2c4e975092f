//! Field paths: kustomize's `SmarterPathSplitter`, kyaml's `PathGetter` (sources: exact,
//! first match) and `PathMatcher` (targets: regex `[k=v]`, `*`, all matches, `create`).
//!
//! Nodes are addressed by position lists from the resource root (pair index in a mapping, item
//! index in a sequence), which stay valid while the filter only appends.

use std::collections::HashMap;

use regex::Regex;
use tailor_yaml::{emit_node, EmitOptions, Node, Pair, ScalarKind, Value};

/// kyaml node kinds, as they appear in error texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Scalar,
    Mapping,
    Sequence,
    Alias,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Scalar => "ScalarNode",
            Kind::Mapping => "MappingNode",
            Kind::Sequence => "SequenceNode",
            Kind::Alias => "AliasNode",
        }
    }
}

pub(crate) fn kind_of(n: &Node) -> Kind {
    match n.value {
        Value::Scalar(_) => Kind::Scalar,
        Value::Mapping(_) => Kind::Mapping,
        Value::Sequence(_) => Kind::Sequence,
        Value::Alias(_) => Kind::Alias,
    }
}

/// Marks a scalar kyaml would hold without a tag (created fields, `sourceValue`, elements made
/// by `[k=v]`): its text is re-typed when read. Removed before `apply` returns.
pub(crate) const UNTAGGED: &str = "";

pub(crate) fn untagged_plain(text: impl Into<tailor_yaml::Text>) -> Node {
    let mut n = Node::plain(text);
    n.set_tag(Some(UNTAGGED.to_string()));
    n
}

pub(crate) fn is_untagged(n: &Node) -> bool {
    n.tag() == Some(UNTAGGED)
}

/// kyaml's `IsMissingOrNull` on an existing node: tagged `!!null`.
pub(crate) fn is_null(n: &Node) -> bool {
    n.is_scalar() && !is_untagged(n) && n.scalar_kind() == Some(ScalarKind::Null)
}

/// go-yaml's `Node.Value`: a scalar's text, an alias's name, `""` for collections.
pub(crate) fn raw_value(n: &Node) -> &str {
    match &n.value {
        Value::Scalar(s) => s,
        Value::Alias(a) => a,
        _ => "",
    }
}

pub(crate) fn node_text(n: &Node) -> String {
    emit_node(n, EmitOptions::default())
}

fn wrong_kind(expected: Kind, n: &Node) -> String {
    format!(
        "wrong node kind: expected {} but got {}: node contents:\n{}",
        expected.name(),
        kind_of(n).name(),
        node_text(n)
    )
}

/// kustomize's `SmarterPathSplitter(path, ".")` (v5.5.0).
pub fn split_path(path: &str) -> Vec<String> {
    // PathSplitter: split on '.', drop a leading empty piece, join pieces after a '\'.
    let mut ps: Vec<&str> = path.split('.').collect();
    if ps.len() > 1 && ps[0].is_empty() {
        ps.remove(0);
    }
    let mut res: Vec<String> = vec![ps[0].to_string()];
    for p in &ps[1..] {
        let last = res.len() - 1;
        if let Some(stripped) = res[last].strip_suffix('\\') {
            res[last] = format!("{stripped}.{p}");
        } else {
            res.push((*p).to_string());
        }
    }
    let mut result = Vec::with_capacity(res.len());
    let mut i = 0;
    while i < res.len() {
        let elem = &res[i];
        if elem.starts_with('[') && !elem.ends_with(']') {
            let mut bracketed = vec![elem.as_str()];
            while i < res.len() - 1 {
                i += 1;
                bracketed.push(&res[i]);
                if res[i].ends_with(']') {
                    break;
                }
            }
            let joined = bracketed.join(".");
            if joined.contains('=') {
                result.push(joined);
            } else {
                result.push(joined.trim_matches(|c| c == '[' || c == ']').to_string());
            }
        } else {
            result.push(elem.clone());
        }
        i += 1;
    }
    result
}

pub(crate) fn is_list_index(p: &str) -> bool {
    p.starts_with('[') && p.ends_with(']')
}

fn is_idx_number(p: &str) -> bool {
    tailor_go::strconv::atoi(p.as_bytes()).is_some_and(|i| i >= 0)
}

pub(crate) fn split_index_name_value(p: &str) -> Result<(&str, &str), String> {
    let elem = p.strip_suffix(']').unwrap_or(p);
    let elem = elem.strip_prefix('[').unwrap_or(elem);
    elem.split_once('=').ok_or_else(|| {
        "list path element must contain fieldName=fieldValue for element to match".to_string()
    })
}

/// Follows a position list.
pub(crate) fn node_at<'a>(root: &'a Node, path: &[usize]) -> Option<&'a Node> {
    let mut n = root;
    for &p in path {
        n = match &n.value {
            Value::Mapping(pairs) => &pairs.get(p)?.value,
            Value::Sequence(items) => items.get(p)?,
            _ => return None,
        };
    }
    Some(n)
}

pub(crate) fn node_at_mut<'a>(root: &'a mut Node, path: &[usize]) -> Option<&'a mut Node> {
    let mut n = root;
    for &p in path {
        n = match &mut n.value {
            Value::Mapping(pairs) => &mut pairs.get_mut(p)?.value,
            Value::Sequence(items) => items.get_mut(p)?,
            _ => return None,
        };
    }
    Some(n)
}

// ---- source lookup: kyaml PathGetter ---------------------------------------------------------

/// Looks `path` up like kyaml's `PathGetter`; `Ok(None)` when missing.
pub(crate) fn lookup(root: &Node, path: &str) -> Result<Option<Vec<usize>>, String> {
    let segs: Vec<String> = split_path(path)
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let mut node = root;
    let mut out = Vec::with_capacity(segs.len());
    for seg in &segs {
        let found: Option<usize> = if let Some(idx) = tailor_go::strconv::atoi(seg.as_bytes()) {
            if idx < 0 {
                return Err(format!("array index {idx} cannot be negative"));
            }
            seq_items(node)?
                .and_then(|items| usize::try_from(idx).ok().filter(|&i| i < items.len()))
        } else if seg == "-" {
            // kustomize panics on an empty list; here it is missing.
            seq_items(node)?.and_then(|items| items.len().checked_sub(1))
        } else if seg == "*" {
            return Err("wildcard is not supported in PathGetter".into());
        } else if is_list_index(seg) {
            let (k, v) = split_index_name_value(seg)?;
            match seq_items(node)? {
                None => None,
                Some(items) if k.is_empty() => items.iter().position(|e| raw_value(e) == v),
                Some(items) => items.iter().position(|e| {
                    !is_null(e)
                        && e.pairs().is_some_and(|ps| {
                            ps.iter()
                                .any(|p| p.key.as_scalar() == Some(k) && raw_value(&p.value) == v)
                        })
                }),
            }
        } else {
            if is_null(node) {
                return Ok(None);
            }
            let Some(pairs) = node.pairs() else {
                return Err(wrong_kind(Kind::Mapping, node));
            };
            pairs
                .iter()
                .position(|p| p.key.as_scalar() == Some(seg.as_str()))
        };
        let Some(pos) = found else {
            return Ok(None);
        };
        out.push(pos);
        node = match node_at(node, &[pos]) {
            Some(n) => n,
            None => return Ok(None),
        };
    }
    Ok(Some(out))
}

/// `rn.Elements()`: a null node has none; another non-sequence is an error.
fn seq_items(node: &Node) -> Result<Option<&[Node]>, String> {
    if is_null(node) {
        return Ok(None);
    }
    match node.items() {
        Some(items) => Ok(Some(items)),
        None => Err(wrong_kind(Kind::Sequence, node)),
    }
}

// ---- target lookup: kyaml PathMatcher --------------------------------------------------------

/// One matched target node: a position list, or a node created under a `null` (kyaml appends
/// it to the null scalar's content, where it is never written out).
pub(crate) struct Found {
    pub path: Vec<usize>,
    pub phantom: Option<Node>,
}

#[derive(Default)]
pub(crate) struct RegexCache {
    map: HashMap<String, Result<Regex, String>>,
}

impl RegexCache {
    fn get(&mut self, pat: &str) -> Result<&Regex, String> {
        if !self.map.contains_key(pat) {
            self.map
                .insert(pat.to_string(), tailor_go::regexp::compile(pat));
        }
        match self.map.get(pat) {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err(e.clone()),
            None => Err("regexp cache".into()),
        }
    }
}

pub(crate) struct Matcher<'c> {
    create: Option<Kind>,
    cache: &'c mut RegexCache,
    /// Where the walk is: the positions from the root to the current node.
    path: Vec<usize>,
    /// The matches so far.
    found: Vec<Found>,
}

fn make_node(kind: Kind) -> Node {
    match kind {
        Kind::Mapping => Node::mapping(),
        Kind::Sequence => Node::sequence(Vec::new()),
        Kind::Scalar | Kind::Alias => untagged_plain(""),
    }
}

impl<'c> Matcher<'c> {
    /// A matcher that creates missing nodes of kind `create` (when given) on its way.
    pub(crate) fn new(create: Option<Kind>, cache: &'c mut RegexCache) -> Matcher<'c> {
        Matcher {
            create,
            cache,
            path: Vec::new(),
            found: Vec::new(),
        }
    }

    /// Every node matching `segs` under `root`.
    pub(crate) fn find_all(
        &mut self,
        root: &mut Node,
        segs: &[String],
    ) -> Result<Vec<Found>, String> {
        self.path.clear();
        self.found.clear();
        self.find(root, segs, false)?;
        Ok(std::mem::take(&mut self.found))
    }

    fn part_kind(&self, next: Option<&String>) -> Kind {
        let create = self.create.unwrap_or(Kind::Scalar);
        match next {
            Some(n) if is_list_index(n) || is_idx_number(n) => Kind::Sequence,
            None => create,
            Some(n) if n.is_empty() => create,
            Some(_) => Kind::Mapping,
        }
    }

    /// Every node matching `segs` under `node`, added to `found`.
    fn find(&mut self, node: &mut Node, segs: &[String], phantom: bool) -> Result<(), String> {
        let Some(seg) = segs.first() else {
            self.found.push(Found {
                path: if phantom {
                    Vec::new()
                } else {
                    self.path.clone()
                },
                phantom: phantom.then(|| node.clone()),
            });
            return Ok(());
        };
        let rest = &segs[1..];
        if let Some(idx) = tailor_go::strconv::atoi(seg.as_bytes()).filter(|i| *i >= 0) {
            return self.index(node, idx, rest, phantom);
        }
        if is_list_index(seg) {
            let (field, pat) = split_index_name_value(seg)?;
            return self.seq(node, seg, field, pat, rest, phantom);
        }
        if seg == "*" {
            if is_null(node) {
                return Ok(());
            }
            let Some(items) = node.items_mut() else {
                return Err(wrong_kind(Kind::Sequence, node));
            };
            for (i, item) in items.iter_mut().enumerate() {
                self.path.push(i);
                self.find(item, rest, phantom)?;
                self.path.pop();
            }
            return Ok(());
        }
        self.field(node, seg, rest, phantom)
    }

    fn phantom_child(&mut self, kind: Kind, rest: &[String]) -> Result<(), String> {
        let mut child = make_node(kind);
        self.find(&mut child, rest, true)
    }

    fn index(
        &mut self,
        node: &mut Node,
        idx: i64,
        rest: &[String],
        phantom: bool,
    ) -> Result<(), String> {
        if is_null(node) {
            if self.create.is_some() && idx == 0 {
                let kind = self.part_kind(rest.first());
                return self.phantom_child(kind, rest);
            }
            return Err(format!("index {idx} specified but only 0 elements found"));
        }
        let create = self.create.is_some();
        let kind = self.part_kind(rest.first());
        let Some(items) = node.items_mut() else {
            return Err(wrong_kind(Kind::Sequence, node));
        };
        if create && usize::try_from(idx).is_ok_and(|i| i == items.len()) {
            items.push(make_node(kind));
        }
        let len = items.len();
        let Some(i) = usize::try_from(idx).ok().filter(|&i| i < len) else {
            return Err(format!(
                "index {idx} specified but only {len} elements found"
            ));
        };
        self.path.push(i);
        let r = self.find(&mut items[i], rest, phantom);
        self.path.pop();
        r
    }

    fn seq(
        &mut self,
        node: &mut Node,
        seg: &str,
        field: &str,
        pat: &str,
        rest: &[String],
        phantom: bool,
    ) -> Result<(), String> {
        let new_elem = || {
            let value = untagged_plain(pat);
            if field.is_empty() {
                value
            } else {
                Node::from_pairs(vec![Pair {
                    key: Node::plain(field),
                    value,
                }])
            }
        };
        if is_null(node) {
            if self.create.is_none() {
                return Ok(());
            }
            // kyaml appends to the null scalar's content: a list nobody will write out.
            let mut scratch = Node::sequence(vec![new_elem()]);
            let before = self.found.len();
            self.visit_seq(&mut scratch, field, pat, rest, true)?;
            if self.found.len() == before {
                return Err(self_mismatch(seg));
            }
            return Ok(());
        }
        if !node.is_sequence() {
            return Err(wrong_kind(Kind::Sequence, node));
        }
        let mut appended = false;
        loop {
            let before = self.found.len();
            self.visit_seq(node, field, pat, rest, phantom)?;
            if self.found.len() > before || self.create.is_none() {
                return Ok(());
            }
            if appended {
                // kustomize would append and re-match forever.
                return Err(self_mismatch(seg));
            }
            if let Some(items) = node.items_mut() {
                items.push(new_elem());
            }
            appended = true;
        }
    }

    fn visit_seq(
        &mut self,
        node: &mut Node,
        field: &str,
        pat: &str,
        rest: &[String],
        phantom: bool,
    ) -> Result<(), String> {
        let Some(items) = node.items_mut() else {
            return Ok(());
        };
        for (i, elem) in items.iter_mut().enumerate() {
            let re = self.cache.get(pat)?;
            if field.is_empty() {
                let text = node_text(elem);
                if re.is_match(text.trim()) {
                    // kyaml returns the element itself, ignoring any further path.
                    self.path.push(i);
                    self.found.push(Found {
                        path: if phantom {
                            Vec::new()
                        } else {
                            self.path.clone()
                        },
                        phantom: phantom.then(|| elem.clone()),
                    });
                    self.path.pop();
                }
                continue;
            }
            let Some(value) = elem.pairs().and_then(|ps| {
                ps.iter()
                    .find(|p| p.key.as_scalar() == Some(field))
                    .map(|p| &p.value)
            }) else {
                continue;
            };
            let text = node_text(value);
            if !re.is_match(text.trim()) {
                continue;
            }
            self.path.push(i);
            let r = self.find(elem, rest, phantom);
            self.path.pop();
            r?;
        }
        Ok(())
    }

    fn field(
        &mut self,
        node: &mut Node,
        seg: &str,
        rest: &[String],
        phantom: bool,
    ) -> Result<(), String> {
        if is_null(node) {
            if self.create.is_some() {
                let kind = self.part_kind(rest.first());
                return self.phantom_child(kind, rest);
            }
            return Ok(());
        }
        if seg.is_empty() {
            // FieldMatcher with no name: a scalar whose value is "" matches itself.
            if !node.is_scalar() {
                return Err(wrong_kind(Kind::Scalar, node));
            }
            if raw_value(node).is_empty() {
                return self.find(node, rest, phantom);
            }
            if self.create.is_some() {
                let kind = self.part_kind(rest.first());
                return self.phantom_child(kind, rest);
            }
            return Ok(());
        }
        let create = self.create.is_some();
        let kind = self.part_kind(rest.first());
        let Some(pairs) = node.pairs_mut() else {
            return Err(wrong_kind(Kind::Mapping, node));
        };
        let pos = match pairs.iter().position(|p| p.key.as_scalar() == Some(seg)) {
            Some(p) => p,
            None if create => {
                pairs.push(Pair {
                    key: Node::plain(seg),
                    value: make_node(kind),
                });
                pairs.len() - 1
            }
            None => return Ok(()),
        };
        self.path.push(pos);
        let r = self.find(&mut pairs[pos].value, rest, phantom);
        self.path.pop();
        r
    }
}

fn self_mismatch(seg: &str) -> String {
    format!(
        "the element created for {} does not match {} itself (kustomize would loop forever)",
        tailor_go::strconv::quote(seg),
        seg
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(p: &str) -> Vec<String> {
        split_path(p)
    }

    #[test]
    fn splitter() {
        assert_eq!(sp("a.b.c"), ["a", "b", "c"]);
        assert_eq!(sp(".data.a"), ["data", "a"]);
        assert_eq!(sp("a\\.b/c.d"), ["a.b/c", "d"]);
        assert_eq!(
            sp("spec.containers.[name=com.foo.app].image"),
            ["spec", "containers", "[name=com.foo.app]", "image"]
        );
        assert_eq!(
            sp("metadata.annotations.[a.b.c/d-e]"),
            ["metadata", "annotations", "a.b.c/d-e"]
        );
        assert_eq!(sp("a.[b.c"), ["a", "b.c"]);
        assert_eq!(sp("a.[foo]"), ["a", "[foo]"]);
        assert_eq!(sp(""), [""]);
        assert_eq!(sp("."), [""]);
        assert_eq!(sp("a..b"), ["a", "", "b"]);
    }

    fn doc(s: &str) -> Node {
        tailor_yaml::parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn getter() {
        let n =
            doc("a:\n  l:\n  - name: x\n    v: 1\n  - name: y\n    v: 2\n  s: [p, q]\n  n: ~\n");
        assert_eq!(
            lookup(&n, "a.l.[name=y].v").unwrap(),
            Some(vec![0, 0, 1, 1])
        );
        assert_eq!(lookup(&n, "a.l.-.v").unwrap(), Some(vec![0, 0, 1, 1]));
        assert_eq!(lookup(&n, " a . s . [=q] ").unwrap(), Some(vec![0, 1, 1]));
        assert_eq!(lookup(&n, "a.l.[name=.].v").unwrap(), None);
        assert_eq!(lookup(&n, "a.n.x").unwrap(), None);
        assert_eq!(lookup(&n, "a.l.5").unwrap(), None);
        assert_eq!(
            lookup(&n, "a.l.-1").unwrap_err(),
            "array index -1 cannot be negative"
        );
        assert_eq!(
            lookup(&n, "a.l.*").unwrap_err(),
            "wildcard is not supported in PathGetter"
        );
        assert!(lookup(&n, "a.l.x")
            .unwrap_err()
            .starts_with("wrong node kind: expected MappingNode but got SequenceNode"));
        assert_eq!(
            lookup(&n, "a.[foo]").unwrap_err(),
            "list path element must contain fieldName=fieldValue for element to match"
        );
    }

    fn find(n: &mut Node, p: &str, create: Option<Kind>) -> Result<Vec<Vec<usize>>, String> {
        let mut cache = RegexCache::default();
        let found = Matcher::new(create, &mut cache).find_all(n, &split_path(p))?;
        Ok(found.into_iter().map(|f| f.path).collect())
    }

    #[test]
    fn matcher() {
        let mut n = doc("l:\n- name: app\n- name: myapp\n- name: other\n- x: 1\nm: {}\n");
        assert_eq!(
            find(&mut n, "l.[name=app]", None).unwrap(),
            [vec![0, 0], vec![0, 1]]
        );
        assert_eq!(find(&mut n, "l.[name=^app$]", None).unwrap(), [vec![0, 0]]);
        assert_eq!(find(&mut n, "l.*.name", None).unwrap().len(), 3);
        assert_eq!(
            find(&mut n, "l.9", None).unwrap_err(),
            "index 9 specified but only 4 elements found"
        );
        assert!(find(&mut n, "m.*", None)
            .unwrap_err()
            .starts_with("wrong node kind: expected SequenceNode but got MappingNode"));
        assert!(find(&mut n, "l..x", None)
            .unwrap_err()
            .starts_with("wrong node kind: expected ScalarNode but got SequenceNode"));
        assert!(find(&mut n, "m..x", None)
            .unwrap_err()
            .starts_with("wrong node kind: expected ScalarNode but got MappingNode"));
        assert_eq!(
            find(&mut n, "m.-1", Some(Kind::Scalar)).unwrap(),
            [vec![1, 0]]
        );
        assert_eq!(
            find(&mut n, "l.[name=(]", None).unwrap_err(),
            "error parsing regexp: missing closing ): `(`"
        );
        assert!(find(&mut n, "l.[name=^z$]", Some(Kind::Scalar))
            .unwrap_err()
            .contains("loop forever"));
        assert_eq!(
            find(&mut n, "l.[name=zz]", Some(Kind::Scalar)).unwrap(),
            [vec![0, 5]]
        );
        assert_eq!(
            find(&mut n, "new.0.x", Some(Kind::Scalar)).unwrap(),
            [vec![2, 0, 0]]
        );
    }
}
