//! One KRM object, with what is needed to write it back exactly as it came when untouched.

use std::sync::{Arc, OnceLock};

use tailor_yaml::{Node, Pair, Resume, Value};

use super::annotations;
use super::results::ResourceRef;

/// The input text objects are copied from. An `Arc<String>` rather than an `Arc<str>`: the
/// text read from stdin moves in without a copy (a second copy of a large input would double
/// the peak memory of a pass that changes nothing).
pub type Source = Arc<String>;

/// Where an object's text came from.
#[derive(Clone, Debug)]
pub enum Origin {
    /// Made by tailor (or its source text cannot be reused).
    None,
    /// An item of a ResourceList with its own text, `start..end`: a block item whose text
    /// starts right after `- ` in column 0 (on its first key's line, or after `- ` on a line
    /// of comments, kpt's `- # comment`), or a flow item (a JSON list's object). Written after
    /// `- ` in a YAML list, as it is in a JSON one.
    SeqItem {
        source: Source,
        start: usize,
        end: usize,
    },
    /// A document of a YAML file or stream; `start..end` covers the document and its `---`.
    Document {
        source: Source,
        start: usize,
        end: usize,
        /// The file it came from in standalone mode, and its position there.
        file: Option<String>,
        index: usize,
        wide_sequences: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Resource {
    tree: Tree,
    origin: Origin,
    dirty: bool,
    /// The destination this copy was tailored for, when a run fans out to several clusters.
    cluster: Option<String>,
    /// The file an object tailor made belongs in (one a Fleet overlay file adds), when nothing
    /// in the input says.
    placed: Option<Box<str>>,
    /// Where the object sat in the input ResourceList (`items[3]`, `items[0].items[2]`), for
    /// messages about the object as input.
    place: Option<Box<str>>,
    /// Set when the built-in strip ran as the object was read: what it reported, for the strip
    /// stage to pass on in its place.
    strip_results: Option<Vec<super::results::KrmResult>>,
    /// Its part in a `*List` container while the stages run (`super::lists`).
    list: Option<Box<ListRole>>,
}

/// What an object is to a `*List` container while the stages run: the container itself (its
/// `items` moved out into the members), a member, or both (a List inside a List).
#[derive(Clone, Debug, Default)]
pub struct ListRole {
    /// This object is the container: its items are the objects that are members of `list`.
    pub shell_of: Option<Arc<ListInfo>>,
    /// This object is item `.1` of the container `.0`.
    pub member_of: Option<(Arc<ListInfo>, usize)>,
}

/// What a List's items know of their container: where it is written, and how many items it
/// had. One per container, shared by its shell and its members (and their fan-out copies), so
/// the shell and members of one container are known by pointer.
#[derive(Debug)]
pub struct ListInfo {
    pub len: usize,
    pub path: Option<String>,
    pub index: Option<usize>,
    /// The container is a local-config object: so are its items.
    pub local: bool,
    /// The destination an earlier fan-out wrote the container for.
    pub fanned_out_for: Option<String>,
}

/// An object's tree, or what stands in for it until a stage reads it.
#[derive(Clone, Debug)]
enum Tree {
    Whole(Node),
    Deferred(Box<Deferred>),
}

/// An item read while the configuration asked for no stage that reads every object: its tree
/// was dropped once parsed, so a large list is not held as trees (4x its text). What every
/// run reads of each object (the identity, kpt's and tailor's annotations, the head comment)
/// stays in `header`; the whole tree is parsed again from the source the first time anything
/// else is read.
#[derive(Clone, Debug)]
struct Deferred {
    header: Node,
    /// The annotations the header keeps besides kpt's and kustomize's bookkeeping.
    keys: HeaderKeys,
    whole: OnceLock<Node>,
    source: Source,
    resume: Resume,
}

impl Deferred {
    fn whole(&self) -> &Node {
        self.whole.get_or_init(|| self.rebuild())
    }

    fn whole_mut(&mut self) -> &mut Node {
        if self.whole.get().is_none() {
            let _ = self.whole.set(self.rebuild());
        }
        self.whole.get_mut().unwrap_or(&mut self.header)
    }

    /// The tree parsed again from the source. The source and the resume point come from a
    /// parse that succeeded, so parsing them again cannot fail; the header (every field a run
    /// reads unasked) is the closest stand-in if it ever did.
    fn rebuild(&self) -> Node {
        tailor_yaml::reparse_item(&self.source, &self.resume)
            .unwrap_or_else(|_| self.header.clone())
    }
}

/// A `*List` object holding its items: a container, whose items the stages tailor.
pub fn is_list_object(node: &Node) -> bool {
    node.get_str("kind").is_some_and(|k| k.ends_with("List"))
        && node
            .get("items")
            .is_some_and(|i| i.is_sequence() || i.is_null())
}

/// The annotations a deferred object keeps at hand besides kpt's and kustomize's bookkeeping:
/// the ones some stage decides on before reading an object (`config::Plan::header_annotations`).
pub type HeaderKeys = Arc<[&'static str]>;

/// Whether a deferred object's header keeps annotation `key`.
fn header_annotation(key: &str, keys: &[&str]) -> bool {
    key.starts_with("config.kubernetes.io/")
        || key.starts_with("internal.config.kubernetes.io/")
        || keys.contains(&key)
}

/// The header of `node`: apiVersion, kind, metadata name and namespace, the annotations
/// above, and the node's own comments and tag.
fn header_of(node: &Node, keys: &[&str]) -> Node {
    let mut pairs = Vec::new();
    for key in ["apiVersion", "kind"] {
        if let Some(p) = node
            .pairs()
            .and_then(|ps| ps.iter().find(|p| p.key.as_scalar() == Some(key)))
        {
            pairs.push(p.clone());
        }
    }
    if let Some(meta) = node
        .pairs()
        .and_then(|ps| ps.iter().find(|p| p.key.as_scalar() == Some("metadata")))
    {
        let mut kept = Vec::new();
        if let Value::Mapping(fields) = &meta.value.value {
            for f in fields {
                match f.key.as_scalar() {
                    Some("name" | "namespace") => kept.push(f.clone()),
                    Some("annotations") => kept.push(filtered(f, |k| header_annotation(k, keys))),
                    _ => {}
                }
            }
            pairs.push(Pair {
                key: meta.key.clone(),
                value: Node::from_pairs(kept),
            });
        } else {
            pairs.push(meta.clone());
        }
    }
    let mut header = Node::from_pairs(pairs);
    header.extra = node.extra.clone();
    header.span = node.span;
    header
}

/// A mapping entry with only the sub-entries whose keys `keep` accepts (a value that is not a
/// mapping is kept whole, so lookups into it fail the same way).
fn filtered(entry: &Pair, keep: impl Fn(&str) -> bool) -> Pair {
    match &entry.value.value {
        Value::Mapping(fields) => Pair {
            key: entry.key.clone(),
            value: Node::from_pairs(
                fields
                    .iter()
                    .filter(|f| f.key.as_scalar().is_some_and(&keep))
                    .cloned()
                    .collect(),
            ),
        },
        _ => entry.clone(),
    }
}

impl Resource {
    pub fn new(node: Node, origin: Origin) -> Resource {
        Resource {
            tree: Tree::Whole(node),
            origin,
            dirty: false,
            cluster: None,
            placed: None,
            place: None,
            strip_results: None,
            list: None,
        }
    }

    /// An object whose tree is dropped now and parsed again from `source` when first read
    /// (see [`Deferred`]). `resume` must come from parsing `source` into `node`.
    pub fn deferred(
        node: &Node,
        source: Source,
        resume: Resume,
        origin: Origin,
        keys: HeaderKeys,
    ) -> Resource {
        Resource {
            tree: Tree::Deferred(Box::new(Deferred {
                header: header_of(node, &keys),
                keys,
                whole: OnceLock::new(),
                source,
                resume,
            })),
            origin,
            dirty: false,
            cluster: None,
            placed: None,
            place: None,
            strip_results: None,
            list: None,
        }
    }

    /// Records that the built-in strip already ran on this object, with its results.
    pub fn set_strip_results(&mut self, results: Vec<super::results::KrmResult>) {
        self.strip_results = Some(results);
    }

    /// The results of a built-in strip that ran as the object was read (taken once).
    pub fn take_strip_results(&mut self) -> Option<Vec<super::results::KrmResult>> {
        self.strip_results.take()
    }

    /// What the accessors below read: the whole tree once built, the header until then.
    fn known(&self) -> &Node {
        match &self.tree {
            Tree::Whole(node) => node,
            Tree::Deferred(d) => d.whole.get().unwrap_or(&d.header),
        }
    }

    fn whole_mut(&mut self) -> &mut Node {
        match &mut self.tree {
            Tree::Whole(node) => node,
            Tree::Deferred(d) => d.whole_mut(),
        }
    }

    /// The comment block above the object (`# ...` lines before its `-`).
    pub fn head_comment(&self) -> Option<&str> {
        self.known()
            .comments()
            .map(|c| c.head.as_str())
            .filter(|h| !h.is_empty())
    }

    /// Where the object sat in the input ResourceList (`items[3]`), when it came from one.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    pub fn set_place(&mut self, place: &str) {
        self.place = Some(place.into());
    }

    /// Its part in a `*List` container while the stages run.
    pub fn list_role(&self) -> Option<&ListRole> {
        self.list.as_deref()
    }

    pub fn set_list_role(&mut self, role: Option<ListRole>) {
        self.list = role.map(Box::new);
    }

    /// The container this object is an item of, while the stages run.
    fn container(&self) -> Option<&ListInfo> {
        self.list
            .as_ref()
            .and_then(|l| l.member_of.as_ref())
            .map(|(info, _)| &**info)
    }

    /// Whether this is a `*List` container whose items are objects of their own while the
    /// stages run: every stage leaves it alone (see [`Resource::is_left_alone`]).
    pub fn is_list_shell(&self) -> bool {
        self.list.as_ref().is_some_and(|l| l.shell_of.is_some())
    }

    /// Whether this is a `*List` object holding its items. Never a deferred object: the reader
    /// keeps Lists whole, so this does not parse a tree again.
    pub fn is_list(&self) -> bool {
        matches!(&self.tree, Tree::Whole(node) if is_list_object(node))
    }

    /// Whether this object is an item of a `*List` container (it is written inside it).
    pub fn is_list_member(&self) -> bool {
        self.container().is_some()
    }

    pub fn cluster(&self) -> Option<&str> {
        self.cluster.as_deref()
    }

    pub fn set_cluster(&mut self, name: &str) {
        self.cluster = Some(name.to_string());
    }

    /// Sets an annotation (creating `metadata.annotations` if needed), single-quoted as
    /// kyaml's `SetAnnotation` writes it.
    pub fn set_annotation(&mut self, key: &str, value: &str) {
        let node = self.node_mut();
        let Some(meta) = node.entry_or_insert("metadata", Node::mapping) else {
            return;
        };
        let Some(annos) = meta.entry_or_insert("annotations", Node::mapping) else {
            return;
        };
        annos.set(key, Node::scalar(value, tailor_yaml::Style::SingleQuoted));
    }

    /// Sets a label (creating `metadata.labels` if needed) as kyaml's `SetLabel` writes it: a
    /// string, quoted only where YAML needs it.
    pub fn set_label(&mut self, key: &str, value: &str) {
        if self.label(key) == Some(value) {
            return;
        }
        let node = self.node_mut();
        let Some(meta) = node.entry_or_insert("metadata", Node::mapping) else {
            return;
        };
        let Some(labels) = meta.entry_or_insert("labels", Node::mapping) else {
            return;
        };
        labels.set(key, Node::string(value));
    }

    /// Where the object is written: its path (or kyaml's default), under `<cluster>/` when the
    /// run fanned out. Fan-out already prefixed paths held in annotations; a path known only
    /// from the file the object was read from gets the prefix here.
    pub fn output_path(&self) -> String {
        let annotated = self
            .annotation(annotations::PATH)
            .or_else(|| self.annotation(annotations::LEGACY_PATH));
        match (annotated, self.cluster()) {
            (Some(p), _) => p.to_string(),
            (None, Some(c)) => format!(
                "{c}/{}",
                self.path()
                    .map_or_else(|| self.default_path(), str::to_string)
            ),
            (None, None) => self
                .path()
                .map_or_else(|| self.default_path(), str::to_string),
        }
    }

    /// kyaml's default path for an object that has none: `[namespace/]kind_name.yaml`.
    pub fn default_path(&self) -> String {
        let file = format!("{}_{}.yaml", self.kind().to_lowercase(), self.name());
        match self.namespace() {
            Some(ns) => format!("{ns}/{file}"),
            None => file,
        }
    }

    pub fn node(&self) -> &Node {
        match &self.tree {
            Tree::Whole(node) => node,
            Tree::Deferred(d) => d.whole(),
        }
    }

    /// Mutable access; the object is then written from the tree rather than copied verbatim.
    pub fn node_mut(&mut self) -> &mut Node {
        self.dirty = true;
        self.whole_mut()
    }

    pub fn into_node(mut self) -> Node {
        std::mem::replace(self.whole_mut(), Node::null())
    }

    /// Moves the tree out (leaving null) for a stage that edits plain node lists and knows
    /// which trees it changed, without the clone a copy would cost. Put it back with
    /// [`Resource::put_node`], so untouched objects keep their verbatim text.
    pub fn take_node(&mut self) -> Node {
        std::mem::replace(self.whole_mut(), Node::null())
    }

    /// Puts back a tree moved out by [`Resource::take_node`]; `changed` decides whether the
    /// object is written from the tree or copied from its source text.
    pub fn put_node(&mut self, node: Node, changed: bool) {
        *self.whole_mut() = node;
        self.dirty |= changed;
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    pub fn set_origin(&mut self, origin: Origin) {
        self.origin = origin;
    }

    pub fn api_version(&self) -> &str {
        self.known().get_str("apiVersion").unwrap_or("")
    }

    pub fn kind(&self) -> &str {
        self.known().get_str("kind").unwrap_or("")
    }

    pub fn name(&self) -> &str {
        self.known()
            .get_path(&["metadata", "name"])
            .and_then(Node::as_scalar)
            .unwrap_or("")
    }

    pub fn namespace(&self) -> Option<&str> {
        self.known()
            .get_path(&["metadata", "namespace"])
            .and_then(Node::as_scalar)
            .filter(|s| !s.is_empty())
    }

    /// `group` part of apiVersion ("" for the core group).
    pub fn group(&self) -> &str {
        match self.api_version().rsplit_once('/') {
            Some((g, _)) => g,
            None => "",
        }
    }

    pub fn annotation(&self, key: &str) -> Option<&str> {
        let in_header = match &self.tree {
            Tree::Whole(_) => true,
            Tree::Deferred(d) => header_annotation(key, &d.keys),
        };
        let tree = if in_header { self.known() } else { self.node() };
        tree.get_path(&["metadata", "annotations", key])
            .and_then(Node::as_scalar)
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.node()
            .get_path(&["metadata", "labels", key])
            .and_then(Node::as_scalar)
    }

    /// The file path kpt or `kpt fn source` recorded, or the file it was read from; an item
    /// of a List has its container's.
    pub fn path(&self) -> Option<&str> {
        self.annotation(annotations::PATH)
            .or_else(|| self.annotation(annotations::LEGACY_PATH))
            .or(match &self.origin {
                Origin::Document { file: Some(f), .. } => Some(f.as_str()),
                _ => None,
            })
            .or_else(|| self.container().and_then(|c| c.path.as_deref()))
            .or(self.placed.as_deref())
    }

    /// Puts an object tailor made in `file` (without writing kpt's annotations into it: a
    /// stream or a file must not carry them; [`Resource::record_output_path`] writes them for
    /// a ResourceList).
    pub fn place_in(&mut self, file: &str) {
        self.placed = Some(file.into());
    }

    /// For a ResourceList: records the file the object goes to in kpt's path annotations when
    /// the input did not (a fanned-out copy, an object tailor made), so `kpt fn sink` writes
    /// it there. Objects whose path kpt already recorded keep it as it is.
    pub fn record_output_path(&mut self) {
        let recorded = self.annotation(annotations::PATH).is_some()
            || self.annotation(annotations::LEGACY_PATH).is_some();
        if recorded || (self.cluster.is_none() && self.placed.is_none()) {
            return;
        }
        let path = self.output_path();
        self.set_annotation(annotations::LEGACY_PATH, &path);
        self.set_annotation(annotations::PATH, &path);
    }

    pub fn index(&self) -> Option<usize> {
        self.annotation(annotations::INDEX)
            .or_else(|| self.annotation(annotations::LEGACY_INDEX))
            .and_then(|s| s.parse().ok())
            .or(match &self.origin {
                Origin::Document {
                    file: Some(_),
                    index,
                    ..
                } => Some(*index),
                _ => None,
            })
            .or_else(|| self.container().and_then(|c| c.index))
    }

    /// The Kptfile, tailor's own configuration (a `Tailor` file in a kpt package) and objects
    /// marked `config.kubernetes.io/local-config: "true"` (and the items of a List so
    /// marked), which a function leaves alone unless it targets them, and a fan-out keeps
    /// once, where they are.
    pub fn is_meta_or_local(&self) -> bool {
        let kptfile = self.kind() == "Kptfile" && self.api_version().starts_with("kpt.dev/");
        let tailor = self.kind() == "Tailor" && self.api_version().starts_with("tailor.dev/");
        kptfile
            || tailor
            || self.annotation(annotations::LOCAL_CONFIG) == Some("true")
            || self.container().is_some_and(|c| c.local)
    }

    /// What every stage leaves alone: the objects of [`Resource::is_meta_or_local`], and a
    /// `*List` container while its items are objects of their own (the stages tailor the
    /// items; the container is written back around them).
    pub fn is_left_alone(&self) -> bool {
        self.is_list_shell() || self.is_meta_or_local()
    }

    /// The destination an earlier fan-out tailored this copy for, from the
    /// `# tailor.dev/cluster: NAME` comment it wrote above it.
    /// kpt writes the comment back after the item's `-` (`- # tailor.dev/cluster: dev`), where
    /// it opens the object's first key rather than the object.
    pub fn fanned_out_for(&self) -> Option<&str> {
        let node = self.known();
        // A deferred object's header lists apiVersion and kind first, whatever the source
        // order: the comment is above one of them, or above the first key.
        let keys = node.pairs().unwrap_or_default().iter().enumerate();
        let opening = keys
            .filter(|(i, p)| *i == 0 || matches!(p.key.as_scalar(), Some("apiVersion" | "kind")))
            .filter_map(|(_, p)| p.key.comments());
        node.comments()
            .into_iter()
            .chain(opening)
            .flat_map(|c| [c.head.as_str(), c.line.as_str()])
            .flat_map(str::lines)
            .find_map(|l| l.trim().strip_prefix(annotations::CLUSTER_MARK.trim_end()))
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .or_else(|| self.container().and_then(|c| c.fanned_out_for.as_deref()))
    }

    pub fn resource_ref(&self) -> ResourceRef {
        ResourceRef {
            api_version: self.api_version().to_string(),
            kind: self.kind().to_string(),
            name: self.name().to_string(),
            namespace: self.namespace().map(str::to_string),
        }
    }

    /// `apps/v1/Deployment/ns/name` style id for messages.
    pub fn display_id(&self) -> String {
        let mut s = format!("{}/{}", self.api_version(), self.kind());
        if let Some(ns) = self.namespace() {
            s.push('/');
            s.push_str(ns);
        }
        s.push('/');
        s.push_str(self.name());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taken_trees_come_back_clean_unless_changed() {
        let docs =
            tailor_yaml::parse_stream("apiVersion: v1\nkind: A\nmetadata: {name: a}\n").unwrap();
        let mut r = Resource::new(docs[0].root.clone(), Origin::None);
        let node = r.take_node();
        assert!(r.node().is_null());
        r.put_node(node, false);
        assert!(!r.is_dirty());
        assert_eq!(r.name(), "a");
        let mut node = r.take_node();
        node.set("kind", Node::plain("B"));
        r.put_node(node, true);
        assert!(r.is_dirty());
        assert_eq!(r.kind(), "B");
    }
}
