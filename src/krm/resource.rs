//! One KRM object, with what is needed to write it back exactly as it came when untouched.

use std::sync::Arc;

use tailor_yaml::Node;

use super::annotations;
use super::results::ResourceRef;

/// Where an object's text came from.
#[derive(Clone, Debug)]
pub enum Origin {
    /// Made by tailor (or its source text cannot be reused).
    None,
    /// An item of a ResourceList whose text starts right after `- ` at column 2.
    SeqItem {
        source: Arc<str>,
        start: usize,
        end: usize,
    },
    /// A document of a YAML file or stream; `start..end` covers the document and its `---`.
    Document {
        source: Arc<str>,
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
    node: Node,
    origin: Origin,
    dirty: bool,
    /// The destination this copy was tailored for, when a run fans out to several clusters.
    cluster: Option<String>,
    /// Where the object sat in the input ResourceList (`items[3]`, `items[0].items[2]`), for
    /// messages about the object as input.
    place: Option<Box<str>>,
}

impl Resource {
    pub fn new(node: Node, origin: Origin) -> Resource {
        Resource {
            node,
            origin,
            dirty: false,
            cluster: None,
            place: None,
        }
    }

    /// Where the object sat in the input ResourceList (`items[3]`), when it came from one.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    pub fn set_place(&mut self, place: &str) {
        self.place = Some(place.into());
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
        &self.node
    }

    /// Mutable access; the object is then written from the tree rather than copied verbatim.
    pub fn node_mut(&mut self) -> &mut Node {
        self.dirty = true;
        &mut self.node
    }

    pub fn into_node(self) -> Node {
        self.node
    }

    /// Moves the tree out (leaving null) for a stage that edits plain node lists and knows
    /// which trees it changed, without the clone a copy would cost. Put it back with
    /// [`Resource::put_node`], so untouched objects keep their verbatim text.
    pub fn take_node(&mut self) -> Node {
        std::mem::replace(&mut self.node, Node::null())
    }

    /// Puts back a tree moved out by [`Resource::take_node`]; `changed` decides whether the
    /// object is written from the tree or copied from its source text.
    pub fn put_node(&mut self, node: Node, changed: bool) {
        self.node = node;
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
        self.node.get_str("apiVersion").unwrap_or("")
    }

    pub fn kind(&self) -> &str {
        self.node.get_str("kind").unwrap_or("")
    }

    pub fn name(&self) -> &str {
        self.node
            .get_path(&["metadata", "name"])
            .and_then(Node::as_scalar)
            .unwrap_or("")
    }

    pub fn namespace(&self) -> Option<&str> {
        self.node
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
        self.node
            .get_path(&["metadata", "annotations", key])
            .and_then(Node::as_scalar)
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.node
            .get_path(&["metadata", "labels", key])
            .and_then(Node::as_scalar)
    }

    /// The file path kpt or `kpt fn source` recorded, or the file it was read from.
    pub fn path(&self) -> Option<&str> {
        self.annotation(annotations::PATH)
            .or_else(|| self.annotation(annotations::LEGACY_PATH))
            .or(match &self.origin {
                Origin::Document { file: Some(f), .. } => Some(f.as_str()),
                _ => None,
            })
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
    }

    /// The Kptfile and objects marked `config.kubernetes.io/local-config: "true"`, which a
    /// function leaves alone unless it targets them.
    pub fn is_meta_or_local(&self) -> bool {
        let kptfile = self.kind() == "Kptfile" && self.api_version().starts_with("kpt.dev/");
        kptfile || self.annotation(annotations::LOCAL_CONFIG) == Some("true")
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
