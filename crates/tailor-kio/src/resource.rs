//! One KRM object, with what is needed to write it back exactly as it came when untouched.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use tailor_kube::resid::ResId;
use tailor_yaml::{Node, Pair, ParseOptions, Resume, Span, Text};

use super::annotations;
use super::results::ResourceRef;
use super::write::Rendering;

/// The input text objects are copied from. An `Arc<String>` rather than an `Arc<str>`: the
/// text read from stdin moves in without a copy (a second copy of a large input would double
/// the peak memory of a pass that changes nothing).
pub type SourceText = Arc<String>;

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
        source: SourceText,
        start: usize,
        end: usize,
    },
    /// A document of a YAML file or stream; `start..end` covers the document and its `---`.
    Document {
        source: SourceText,
        start: usize,
        end: usize,
        /// The file it came from in standalone mode (one text for all its documents), and
        /// its position there.
        file: Option<Arc<str>>,
        index: usize,
        wide_sequences: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Resource {
    /// The object's tree; a null placeholder while `deferred` stands in for it.
    tree: Node,
    /// Set while the tree is not built: what stands in for it, and how to build it.
    deferred: Option<Box<Deferred>>,
    origin: Origin,
    dirty: bool,
    /// Its index in the input ResourceList's `items` plus one (0: not one of them), kept
    /// rather than the text `items[3]`, which only messages need; any other place
    /// (`items[0].items[2]`) is `Rare::place`.
    item: u32,
    /// What few objects carry, behind one pointer: a list of 64,000 small objects read by a
    /// pass that changes nothing holds every object at once, and each byte here is 64 KB of
    /// fresh memory.
    rare: Option<Box<Rare>>,
}

/// The fields of a [`Resource`] most objects leave empty (see `Resource::rare`).
#[derive(Clone, Debug, Default)]
struct Rare {
    /// Where the object sat in the input ResourceList when it is not an item of the list
    /// itself (`items[0].items[2]`), for messages about the object as input.
    place: Option<Box<str>>,
    /// The destination this copy was tailored for, when a run fans out to several clusters.
    cluster: Option<String>,
    /// The file an object tailor made belongs in (one a Fleet overlay file adds), when nothing
    /// in the input says.
    placed: Option<Box<str>>,
    /// The stages that ran as the object was read, each with what it reported, for the stage
    /// to pass on in its place (`Stage::each` in the binary).
    read_results: ReadResults,
    /// Its part in a `*List` container while the stages run (`super::lists`).
    list: Option<ListRole>,
    /// The ids it had before this run renamed or moved it, oldest first, for the stages that
    /// select by them (replacements, as kustomize's `previousNames` build annotations serve).
    /// Kept beside the tree, never in it, so they can never be written out.
    earlier_ids: Option<Box<[ResId]>>,
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

/// An item read while the configuration asked for no stage that reads every object: its tree
/// was dropped once parsed, so a large list is not held as trees (4x its text). What every
/// run reads of each object (the identity, kpt's and tailor's annotations, the head comment)
/// stays in `header`; the whole tree is parsed again from the source the first time anything
/// else is read.
#[derive(Clone, Debug)]
struct Deferred {
    header: Header,
    /// The annotations the header keeps besides kpt's and kustomize's bookkeeping.
    keys: HeaderKeys,
    /// Boxed: most deferred objects are never built, and an empty cell then costs a pointer.
    whole: OnceLock<Box<Node>>,
    source: SourceText,
    rebuild: Rebuild,
}

/// How a deferred object's tree is built again from its source.
#[derive(Clone, Debug)]
pub enum Rebuild {
    /// An item of a ResourceList, from where the parser began it.
    Item(Resume),
    /// A document of a stream or file, from its text alone (`tailor_yaml::reparse_document`).
    Document { span: Span, opts: ParseOptions },
    /// An object rendered as it was read: its output text is this part of the source, which
    /// may hold other objects' texts too (see [`Resource::into_rendered_at`]).
    Rendered(Rendering, Range<usize>),
}

/// What the stages that ran as an object was read reported, by stage name. A boxed slice:
/// empty, it costs no allocation, and an object read in a list of thousands holds one entry
/// or two.
/// Per stage that ran as the object was read: its name, its results, and whether it has
/// nothing more to do with the object.
/// What each stage that ran on the object as it was read found, by the stage's place in its
/// job, and whether it has nothing more to do with it.
type ReadResults = Box<[(usize, Vec<super::results::KrmResult>, bool)]>;

/// What a deferred object answers without its tree: each field exactly what the accessor of
/// the same name reads from the whole tree. Flat values rather than a pruned copy of the
/// tree: a run asks every object for its kind, name and annotations several times, and a
/// small object's pruned tree cost more memory than its text and a chain of pointers per
/// question (the no-op pass over 32,000 ~430-byte objects spent a third of its time there).
/// The texts are pieces of the deferred object's source where the scalars are written as they
/// read (plain scalars, nearly all of them), else of the header's own `spill`: no allocation
/// and 8 bytes a field for most objects, where a `Text` each cost 24 (a list of 64,000 small
/// objects is held whole, all of it fresh memory).
#[derive(Clone, Debug)]
struct Header {
    /// Each field's text, by the `FIELD_*` constants; an empty one for a field that is `None`
    /// (the accessors never answer `Some("")` for them).
    pieces: [Piece; FIELDS],
    /// Bit `i` set: `pieces[i]` is a piece of `spill`, not of the source.
    spilled: u8,
    /// `spill` starts with the head comment, up to `head_comment_end`, then the name of the
    /// cluster mark, up to `mark_end`: neither is ever a scalar of the source.
    head_comment_end: u32,
    mark_end: u32,
    spill: Box<str>,
    /// The scalar annotations [`header_annotation`] keeps, in the tree's order.
    annotations: Box<[(Text, Text)]>,
}

const FIELD_API_VERSION: usize = 0;
const FIELD_KIND: usize = 1;
const FIELD_NAME: usize = 2;
const FIELD_NAMESPACE: usize = 3;
const FIELDS: usize = 4;

/// `len` bytes from `start` of a header's source or spill.
#[derive(Clone, Copy, Debug, Default)]
struct Piece {
    start: u32,
    len: u32,
}

/// Where `text` is written at `span` of `source`: the whole span, or inside its quotes (JSON's
/// strings). Bytes equal to a whole `str` in a `str` start and end on character boundaries.
fn written_at(source: &str, span: Span, text: &str) -> Option<u32> {
    let (start, end) = (span.start as usize, span.end as usize);
    let (source, text) = (source.as_bytes(), text.as_bytes());
    if source.get(start..end) == Some(text) {
        return Some(span.start);
    }
    let quoted = end.checked_sub(start)? == text.len() + 2;
    (quoted && source.get(start + 1..end - 1) == Some(text)).then_some(span.start + 1)
}

impl Header {
    /// The header of `node`, its texts pieces of `source` where they are written there. Each
    /// mapping is looked through once for all the keys read from it (this runs on every
    /// object of a list as it is read).
    fn of(node: &Node, keys: &[&str], source: &str) -> Header {
        let root = first_entries(node, ["apiVersion", "kind", "metadata"]);
        let [api_version, kind, metadata] = root;
        let meta = metadata.map(|p| &p.value);
        let [name, namespace, annotations] = meta.map_or([None; 3], |m| {
            first_entries(m, ["name", "namespace", "annotations"]).map(|p| p.map(|p| &p.value))
        });
        let annotations = annotations
            .and_then(Node::pairs)
            .unwrap_or_default()
            .iter()
            .filter_map(|p| {
                let key = p.key.as_scalar()?;
                let value = p.value.as_scalar()?;
                header_annotation(key, keys).then(|| (Text::from(key), Text::from(value)))
            })
            .collect();
        // As `node_api_version`, `node_kind`, `node_name` and `node_namespace` read them.
        let (api_version, kind) = (api_version.map(|p| &p.value), kind.map(|p| &p.value));
        fn string(n: Option<&Node>) -> &str {
            n.and_then(Node::as_str).unwrap_or("")
        }
        fn scalar(n: Option<&Node>) -> &str {
            n.and_then(Node::as_scalar).unwrap_or("")
        }
        let fields = [
            (api_version, string(api_version)),
            (kind, string(kind)),
            (name, scalar(name)),
            (namespace, scalar(namespace)),
        ];
        let written = fields.map(|(n, text)| n.and_then(|n| written_at(source, n.span, text)));
        let (head, mark) = (
            node_head_comment(node).unwrap_or(""),
            header_fanned_out_for(node, root).unwrap_or(""),
        );
        // The spill is sized once: a copy held as its rendered text (a fan-out's) spills all.
        let spilled_len: usize = fields
            .iter()
            .zip(&written)
            .filter(|(_, at)| at.is_none())
            .map(|((_, text), _)| text.len())
            .sum();
        let mut spill = String::with_capacity(head.len() + mark.len() + spilled_len);
        // The spill holds no more than texts of a tree whose spans are 32-bit.
        let end = |spill: &String| u32::try_from(spill.len()).unwrap_or(u32::MAX);
        spill.push_str(head);
        let head_comment_end = end(&spill);
        spill.push_str(mark);
        let mark_end = end(&spill);
        let mut pieces = [Piece::default(); FIELDS];
        let mut spilled = 0u8;
        for (field, ((_, text), at)) in fields.iter().zip(written).enumerate() {
            let (Ok(len), Ok(spill_end)) = (u32::try_from(text.len()), u32::try_from(spill.len()))
            else {
                // Never for a source held in memory with u32 spans; the field reads empty.
                continue;
            };
            pieces[field] = match at {
                Some(start) => Piece { start, len },
                None if text.is_empty() => continue,
                None => {
                    spill.push_str(text);
                    spilled |= 1 << field;
                    Piece {
                        start: spill_end,
                        len,
                    }
                }
            };
        }
        Header {
            pieces,
            spilled,
            head_comment_end,
            mark_end,
            spill: spill.into_boxed_str(),
            annotations,
        }
    }
}

/// The first entry of mapping `node` with each of `keys`, as [`Node::get`] finds each.
fn first_entries<'n, const N: usize>(node: &'n Node, keys: [&str; N]) -> [Option<&'n Pair>; N] {
    let mut found = [None; N];
    for pair in node.pairs().unwrap_or_default() {
        let Some(key) = pair.key.as_scalar() else {
            continue;
        };
        if let Some(i) = keys.iter().position(|k| *k == key) {
            if found[i].is_none() {
                found[i] = Some(pair);
                if found.iter().all(Option::is_some) {
                    break;
                }
            }
        }
    }
    found
}

/// A deferred object's header with the source its pieces are of.
#[derive(Clone, Copy)]
struct Fields<'a> {
    header: &'a Header,
    source: &'a str,
}

impl<'a> Fields<'a> {
    fn text(self, field: usize) -> &'a str {
        let Piece { start, len } = self.header.pieces[field];
        let text = if self.header.spilled & (1 << field) != 0 {
            &self.header.spill
        } else {
            self.source
        };
        let (start, len) = (start as usize, len as usize);
        text.get(start..start + len).unwrap_or("")
    }

    fn some(self, field: usize) -> Option<&'a str> {
        Some(self.text(field)).filter(|t| !t.is_empty())
    }

    fn api_version(self) -> &'a str {
        self.text(FIELD_API_VERSION)
    }

    fn kind(self) -> &'a str {
        self.text(FIELD_KIND)
    }

    fn name(self) -> &'a str {
        self.text(FIELD_NAME)
    }

    fn namespace(self) -> Option<&'a str> {
        self.some(FIELD_NAMESPACE)
    }

    fn head_comment(self) -> Option<&'a str> {
        let end = self.header.head_comment_end as usize;
        self.header.spill.get(..end).filter(|t| !t.is_empty())
    }

    fn fanned_out_for(self) -> Option<&'a str> {
        let start = self.header.head_comment_end as usize;
        let end = self.header.mark_end as usize;
        self.header.spill.get(start..end).filter(|t| !t.is_empty())
    }

    /// The first annotation `key` (first match wins, as in the tree).
    fn annotation(self, key: &str) -> Option<&'a str> {
        self.header
            .annotations
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl Deferred {
    fn fields(&self) -> Fields<'_> {
        Fields {
            header: &self.header,
            source: &self.source,
        }
    }

    fn whole(&self) -> &Node {
        self.whole.get_or_init(|| Box::new(self.rebuild()))
    }

    /// The whole tree, built now if it was not.
    fn into_whole(mut self) -> Node {
        match self.whole.take() {
            Some(node) => *node,
            None => self.rebuild(),
        }
    }

    /// The tree parsed again from the source. The source and the resume point or span come
    /// from a parse that succeeded, so parsing them again cannot fail; a mapping of the
    /// header's identity is the closest stand-in if it ever did.
    fn rebuild(&self) -> Node {
        let built = match &self.rebuild {
            Rebuild::Item(resume) => tailor_yaml::reparse_item(&self.source, resume).ok(),
            Rebuild::Document { span, opts } => {
                tailor_yaml::reparse_document(&self.source, *span, opts)
                    .ok()
                    .flatten()
            }
            Rebuild::Rendered(_, span) => self.source.get(span.clone()).and_then(rendered_tree),
        };
        built.unwrap_or_else(|| self.header_tree())
    }

    fn header_tree(&self) -> Node {
        let h = self.fields();
        let pair = |k: &str, v: &str| Pair {
            key: Node::plain(k),
            value: Node::string(v),
        };
        let mut meta = vec![pair("name", h.name())];
        if let Some(ns) = h.namespace() {
            meta.push(pair("namespace", ns));
        }
        let annotations = &self.header.annotations;
        if !annotations.is_empty() {
            meta.push(Pair {
                key: Node::plain("annotations"),
                value: Node::from_pairs(annotations.iter().map(|(k, v)| pair(k, v)).collect()),
            });
        }
        Node::from_pairs(vec![
            pair("apiVersion", h.api_version()),
            pair("kind", h.kind()),
            Pair {
                key: Node::plain("metadata"),
                value: Node::from_pairs(meta),
            },
        ])
    }
}

/// The tree of a rendered object's text (its spans are the text's): a document holding the
/// object (a JSON list's item, a document of a stream or file), or a YAML list's item, a
/// one-item sequence.
fn rendered_tree(text: &str) -> Option<Node> {
    let root = tailor_yaml::parse_stream(text)
        .ok()?
        .into_iter()
        .find(|d| !d.empty)?
        .root;
    match root.value {
        tailor_yaml::Value::Sequence(mut items) if items.len() == 1 => items.pop(),
        tailor_yaml::Value::Mapping(_) => Some(root),
        _ => None,
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
/// the ones some stage decides on before reading an object (`job::header_annotations`).
/// A `Vec` behind the `Arc`, not a slice: every deferred object holds one, and a thin
/// pointer is 8 bytes of each fewer.
pub type HeaderKeys = Arc<Vec<&'static str>>;

/// Whether a deferred object's header keeps annotation `key`.
fn header_annotation(key: &str, keys: &[&str]) -> bool {
    key.starts_with("config.kubernetes.io/")
        || key.starts_with("internal.config.kubernetes.io/")
        || keys.contains(&key)
}

fn node_api_version(node: &Node) -> &str {
    node.get_str("apiVersion").unwrap_or("")
}

fn node_kind(node: &Node) -> &str {
    node.get_str("kind").unwrap_or("")
}

fn node_name(node: &Node) -> &str {
    node.get_path(&["metadata", "name"])
        .and_then(Node::as_scalar)
        .unwrap_or("")
}

fn node_namespace(node: &Node) -> Option<&str> {
    node.get_path(&["metadata", "namespace"])
        .and_then(Node::as_scalar)
        .filter(|s| !s.is_empty())
}

fn node_annotation<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    node.get_path(&["metadata", "annotations", key])
        .and_then(Node::as_scalar)
}

fn node_head_comment(node: &Node) -> Option<&str> {
    node.comments()
        .map(|c| c.head.as_str())
        .filter(|h| !h.is_empty())
}

/// The destination named by a `# tailor.dev/cluster: NAME` comment among `node`'s own comments
/// and those of the keys listed (`opening`).
fn cluster_mark<'n>(node: &'n Node, opening: impl Iterator<Item = &'n Pair>) -> Option<&'n str> {
    node.comments()
        .into_iter()
        .chain(opening.filter_map(|p| p.key.comments()))
        .flat_map(|c| [c.head.as_str(), c.line.as_str()])
        .flat_map(str::lines)
        .find_map(|l| l.trim().strip_prefix(annotations::CLUSTER_MARK.trim_end()))
        .map(str::trim)
        .filter(|name| !name.is_empty())
}

/// [`cluster_mark`] as a whole tree answers it: the comment is above the object, above its
/// first key, or above its apiVersion or kind.
fn node_fanned_out_for(node: &Node) -> Option<&str> {
    let keys = node.pairs().unwrap_or_default().iter().enumerate();
    cluster_mark(
        node,
        keys.filter(|(i, p)| *i == 0 || matches!(p.key.as_scalar(), Some("apiVersion" | "kind")))
            .map(|(_, p)| p),
    )
}

/// [`cluster_mark`] as a deferred object's header always answered it: the header listed the
/// object's apiVersion, kind and metadata entries, in that order, whatever the source order,
/// and looked above the first of them and above apiVersion and kind. `entries` are those
/// three, as [`Header::of`] found them ([`first_entries`]).
fn header_fanned_out_for<'n>(node: &'n Node, entries: [Option<&'n Pair>; 3]) -> Option<&'n str> {
    let [api_version, kind, metadata] = entries;
    let metadata = metadata.filter(|_| api_version.is_none() && kind.is_none());
    cluster_mark(node, [api_version, kind, metadata].into_iter().flatten())
}

impl Resource {
    pub fn new(node: Node, origin: Origin) -> Resource {
        Resource {
            tree: node,
            deferred: None,
            origin,
            dirty: false,
            item: 0,
            rare: None,
        }
    }

    /// An object whose tree is dropped now and parsed again from `source` when first read
    /// (see [`Deferred`]). `rebuild` must come from parsing `source` into `node`.
    pub fn deferred(
        node: &Node,
        source: SourceText,
        rebuild: Rebuild,
        origin: Origin,
        keys: HeaderKeys,
    ) -> Resource {
        Resource {
            tree: Node::null(),
            deferred: Some(Box::new(Deferred {
                header: Header::of(node, &keys, &source),
                keys,
                whole: OnceLock::new(),
                source,
                rebuild,
            })),
            origin,
            dirty: false,
            item: 0,
            rare: None,
        }
    }

    /// This object with its tree dropped, as [`Resource::deferred`] makes one, keeping what
    /// it carries besides the tree (its place, the results of a stage that ran as it was
    /// read). `rebuild` must come from parsing `source` into its tree, which must be unchanged.
    pub fn into_deferred(self, source: SourceText, rebuild: Rebuild, keys: HeaderKeys) -> Resource {
        let mut deferred = Resource::deferred(&self.tree, source, rebuild, self.origin, keys);
        deferred.item = self.item;
        deferred.rare = self.rare.map(|r| {
            Box::new(Rare {
                place: r.place,
                read_results: r.read_results,
                ..Rare::default()
            })
        });
        deferred
    }

    /// Drops the tree of an untouched document read from a stream or file, keeping what
    /// [`Resource::deferred`] keeps; the tree is built again from the document's text when a
    /// stage reads it. A `*List` keeps its tree (its items become objects of their own), and
    /// so does an object whose text is not a document of a source.
    pub fn defer_document(&mut self, keys: &HeaderKeys, opts: &ParseOptions) {
        if self.deferred.is_some() || self.dirty || self.is_list() {
            return;
        }
        let Some((source, span)) = self.document_span() else {
            return;
        };
        self.deferred = Some(Box::new(Deferred {
            header: Header::of(&self.tree, keys, source),
            keys: keys.clone(),
            whole: OnceLock::new(),
            source: source.clone(),
            rebuild: Rebuild::Document {
                span,
                opts: opts.clone(),
            },
        }));
        self.tree = Node::null();
    }

    /// The text a document of a stream or file was read from, and its span there.
    fn document_span(&self) -> Option<(&SourceText, Span)> {
        let Origin::Document {
            source, start, end, ..
        } = &self.origin
        else {
            return None;
        };
        let (start, end) = (u32::try_from(*start).ok()?, u32::try_from(*end).ok()?);
        Some((source, Span { start, end }))
    }

    /// A document of a stream or file as it was read, what was done to it since undone: its
    /// text parsed again, which cannot fail once the parse that read it succeeded (deferred
    /// documents rely on the same). Any other object stays as it is.
    pub fn read_again(&mut self, opts: &ParseOptions) {
        let Some((source, span)) = self.document_span() else {
            return;
        };
        if let Ok(Some(node)) = tailor_yaml::reparse_document(source, span, opts) {
            *self = Resource::new(node, self.origin.clone());
        }
    }

    /// Whether the tree is not built (see [`Resource::deferred`]).
    pub fn is_deferred(&self) -> bool {
        self.deferred
            .as_ref()
            .is_some_and(|d| d.whole.get().is_none())
    }

    /// Whether a deferred object's header keeps annotations (kpt's, tailor's, those a stage
    /// decides on): an object whose header keeps none is one no stage that reads only
    /// annotated objects looks into, nor is it placed by a path annotation.
    pub fn header_annotations_empty(&self) -> bool {
        self.deferred
            .as_ref()
            .is_some_and(|d| d.header.annotations.is_empty())
    }

    /// The results of the stage at `stage` in its job when it ran as the object was read, not
    /// yet passed on.
    pub fn read_results(&self, stage: usize) -> Option<&[super::results::KrmResult]> {
        self.all_read_results()
            .iter()
            .find(|(at, ..)| *at == stage)
            .map(|(_, r, _)| r.as_slice())
    }

    /// Whether `stage` ran on the object as it was read, reported nothing, and has nothing
    /// more to do with it.
    pub fn finished_at_read(&self, stage: usize) -> bool {
        self.all_read_results()
            .iter()
            .any(|(at, r, done)| *at == stage && r.is_empty() && *done)
    }

    /// Whether some stage ran on the object as it was read.
    pub fn ran_at_read(&self) -> bool {
        !self.all_read_results().is_empty()
    }

    fn all_read_results(&self) -> &[(usize, Vec<super::results::KrmResult>, bool)] {
        self.rare.as_ref().map_or(&[], |r| &r.read_results)
    }

    /// The rare fields, to set one.
    fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    /// Records that the stage at `stage` in its job already ran on this object, with its
    /// results, and whether it has nothing more to do with it (`done`).
    pub fn set_read_results(
        &mut self,
        stage: usize,
        results: Vec<super::results::KrmResult>,
        done: bool,
    ) {
        let rare = self.rare_mut();
        let mut all = std::mem::take(&mut rare.read_results).into_vec();
        all.push((stage, results, done));
        rare.read_results = all.into_boxed_slice();
    }

    /// The results of the stage at `stage` in its job when it ran as the object was read
    /// (taken once).
    pub fn take_read_results(&mut self, stage: usize) -> Option<Vec<super::results::KrmResult>> {
        let at = self
            .all_read_results()
            .iter()
            .position(|(place, ..)| *place == stage)?;
        let rare = self.rare_mut();
        let mut all = std::mem::take(&mut rare.read_results).into_vec();
        let (_, results, _) = all.remove(at);
        rare.read_results = all.into_boxed_slice();
        Some(results)
    }

    /// The object's text as it will be written, and the output it is written as, when every
    /// stage that changes it ran as it was read ([`Resource::into_rendered`]) and nothing
    /// changed it since.
    pub fn rendered(&self) -> Option<(Rendering, &str)> {
        let d = self.deferred.as_ref()?;
        match d.rebuild {
            Rebuild::Rendered(rendering, ref span) => {
                Some((rendering, d.source.get(span.clone())?))
            }
            _ => None,
        }
    }

    /// This changed object held as the text `rendering`'s writer writes for it
    /// ([`write::rendered_text`](super::write::rendered_text)), with a header for every
    /// question the run asks; its tree is dropped. Every stage that would change it must have
    /// run: a stage that reads it gets a tree parsed from the text (the same content), one
    /// that edits it drops the text, and it is written from that tree.
    pub fn into_rendered(self, rendering: Rendering, keys: HeaderKeys) -> Resource {
        let text = super::write::rendered_text(&self, rendering);
        let span = 0..text.len();
        self.into_rendered_at(rendering, keys, Arc::new(text), span)
    }

    /// [`Resource::into_rendered`] with the text already made: `span` of `text`, which must
    /// be what [`write::rendered_text`](super::write::rendered_text) makes for it (several
    /// objects may share one text, [`write::rendered_texts`](super::write::rendered_texts)).
    pub fn into_rendered_at(
        self,
        rendering: Rendering,
        keys: HeaderKeys,
        text: SourceText,
        span: Range<usize>,
    ) -> Resource {
        let mut rendered = Resource::deferred(
            &self.tree,
            text,
            Rebuild::Rendered(rendering, span),
            self.origin,
            keys,
        );
        rendered.dirty = true;
        rendered.item = self.item;
        rendered.rare = self.rare;
        rendered
    }

    /// The tree, when it is built: the accessors below read it, or a deferred object's
    /// header until then.
    fn built(&self) -> Result<&Node, Fields<'_>> {
        match &self.deferred {
            None => Ok(&self.tree),
            Some(d) => d.whole.get().map(|n| &**n).ok_or_else(|| d.fields()),
        }
    }

    /// The tree to change: a deferred object becomes a whole one for good.
    fn whole_mut(&mut self) -> &mut Node {
        if let Some(d) = self.deferred.take() {
            self.tree = d.into_whole();
        }
        &mut self.tree
    }

    /// The comment block above the object (`# ...` lines before its `-`).
    pub fn head_comment(&self) -> Option<&str> {
        match self.built() {
            Ok(node) => node_head_comment(node),
            Err(h) => h.head_comment(),
        }
    }

    /// Where the object sat in the input ResourceList (`items[3]`), when it came from one.
    pub fn place(&self) -> Option<Cow<'_, str>> {
        match self.item_index() {
            Some(i) => Some(Cow::Owned(format!("items[{i}]"))),
            None => self
                .rare
                .as_ref()
                .and_then(|r| r.place.as_deref())
                .map(Cow::Borrowed),
        }
    }

    pub fn set_place(&mut self, place: &str) {
        self.item = 0;
        self.rare_mut().place = Some(place.into());
    }

    /// Places the object at `items[index]` of the input ResourceList.
    pub fn set_item_index(&mut self, index: usize) {
        match u32::try_from(index).ok().and_then(|i| i.checked_add(1)) {
            Some(item) => {
                self.item = item;
                if let Some(rare) = &mut self.rare {
                    rare.place = None;
                }
            }
            // More items than a source with 32-bit spans can hold: named by its text alone.
            None => self.set_place(&format!("items[{index}]")),
        }
    }

    /// Its index in the input ResourceList's `items`, when it is one of them (not an item of a
    /// `*List` among them).
    pub fn item_index(&self) -> Option<usize> {
        self.item
            .checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
    }

    /// Its part in a `*List` container while the stages run.
    pub fn list_role(&self) -> Option<&ListRole> {
        self.rare.as_ref().and_then(|r| r.list.as_ref())
    }

    pub fn set_list_role(&mut self, role: Option<ListRole>) {
        if role.is_some() || self.rare.is_some() {
            self.rare_mut().list = role;
        }
    }

    /// The container this object is an item of, while the stages run.
    fn container(&self) -> Option<&ListInfo> {
        self.list_role()
            .and_then(|l| l.member_of.as_ref())
            .map(|(info, _)| &**info)
    }

    /// Whether this is a `*List` container whose items are objects of their own while the
    /// stages run: every stage leaves it alone (see [`Resource::is_left_alone`]).
    pub fn is_list_shell(&self) -> bool {
        self.list_role().is_some_and(|l| l.shell_of.is_some())
    }

    /// Whether this is a `*List` object holding its items. Never a deferred object: the reader
    /// keeps Lists whole, so this does not parse a tree again.
    pub fn is_list(&self) -> bool {
        self.deferred.is_none() && is_list_object(&self.tree)
    }

    /// Whether this object is an item of a `*List` container (it is written inside it).
    pub fn is_list_member(&self) -> bool {
        self.container().is_some()
    }

    pub fn cluster(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.cluster.as_deref())
    }

    /// The ids this object had before the run renamed or moved it, oldest first.
    pub fn earlier_ids(&self) -> &[ResId] {
        self.rare
            .as_ref()
            .and_then(|r| r.earlier_ids.as_deref())
            .unwrap_or_default()
    }

    /// Records the ids the object had before a rename (the whole history, oldest first).
    pub fn set_earlier_ids(&mut self, ids: Vec<ResId>) {
        if !ids.is_empty() || self.rare.is_some() {
            self.rare_mut().earlier_ids = (!ids.is_empty()).then(|| ids.into_boxed_slice());
        }
    }

    pub fn set_cluster(&mut self, name: &str) {
        self.rare_mut().cluster = Some(name.to_string());
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
        match (self.recorded_path(), self.cluster()) {
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
        match &self.deferred {
            None => &self.tree,
            Some(d) => d.whole(),
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
        match self.built() {
            Ok(node) => node_api_version(node),
            Err(h) => h.api_version(),
        }
    }

    pub fn kind(&self) -> &str {
        match self.built() {
            Ok(node) => node_kind(node),
            Err(h) => h.kind(),
        }
    }

    pub fn name(&self) -> &str {
        match self.built() {
            Ok(node) => node_name(node),
            Err(h) => h.name(),
        }
    }

    pub fn namespace(&self) -> Option<&str> {
        match self.built() {
            Ok(node) => node_namespace(node),
            Err(h) => h.namespace(),
        }
    }

    /// `group` part of apiVersion ("" for the core group).
    pub fn group(&self) -> &str {
        match self.api_version().rsplit_once('/') {
            Some((g, _)) => g,
            None => "",
        }
    }

    pub fn annotation(&self, key: &str) -> Option<&str> {
        match (&self.deferred, self.built()) {
            (_, Ok(node)) => node_annotation(node, key),
            (Some(d), Err(h)) if header_annotation(key, &d.keys) => h.annotation(key),
            _ => node_annotation(self.node(), key),
        }
    }

    pub fn label(&self, key: &str) -> Option<&str> {
        self.node()
            .get_path(&["metadata", "labels", key])
            .and_then(Node::as_scalar)
    }

    /// The file path kpt or `kpt fn source` recorded, or the file it was read from; an item
    /// of a List has its container's.
    pub fn path(&self) -> Option<&str> {
        self.recorded_path()
            .or(self.source_file())
            .or_else(|| self.container().and_then(|c| c.path.as_deref()))
            .or(self.placed())
    }

    fn placed(&self) -> Option<&str> {
        self.rare.as_ref().and_then(|r| r.placed.as_deref())
    }

    /// Puts an object tailor made in `file` (without writing kpt's annotations into it: a
    /// stream or a file must not carry them; [`Resource::record_output_path`] writes them for
    /// a ResourceList).
    pub fn place_in(&mut self, file: &str) {
        self.rare_mut().placed = Some(file.into());
    }

    /// For a ResourceList: records the file the object goes to in kpt's path annotations when
    /// the input did not (a fanned-out copy, an object tailor made), so `kpt fn sink` writes
    /// it there. Objects whose path kpt already recorded keep it as it is.
    pub fn record_output_path(&mut self) {
        // Asked of every object of the answer: the fields at hand first.
        if self.cluster().is_none() && self.placed().is_none() {
            return;
        }
        let recorded = self.annotation(annotations::PATH).is_some()
            || self.annotation(annotations::LEGACY_PATH).is_some();
        if recorded {
            return;
        }
        let path = self.output_path();
        self.set_annotation(annotations::LEGACY_PATH, &path);
        self.set_annotation(annotations::PATH, &path);
    }

    pub fn index(&self) -> Option<usize> {
        let from_file = match &self.origin {
            Origin::Document {
                file: Some(_),
                index,
                ..
            } => Some(*index),
            _ => None,
        };
        from_file
            .or_else(|| {
                self.annotation(annotations::INDEX)
                    .or_else(|| self.annotation(annotations::LEGACY_INDEX))
                    .and_then(|s| s.parse().ok())
            })
            .or_else(|| self.container().and_then(|c| c.index))
    }

    /// The file (relative, as written back) this object was read from in standalone mode.
    pub fn source_file(&self) -> Option<&str> {
        match &self.origin {
            Origin::Document { file: Some(f), .. } => Some(f),
            _ => None,
        }
    }

    /// The path kpt recorded in the object's annotations, unless it was read from a file:
    /// then the file wins, as `kpt fn source` records it (a stale annotation copied into a
    /// file does not move the object).
    fn recorded_path(&self) -> Option<&str> {
        if self.source_file().is_some() {
            return None;
        }
        self.annotation(annotations::PATH)
            .or_else(|| self.annotation(annotations::LEGACY_PATH))
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
        match self.built() {
            Ok(node) => node_fanned_out_for(node),
            Err(h) => h.fanned_out_for(),
        }
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
