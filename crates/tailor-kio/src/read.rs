//! Reading the input: a ResourceList (any `config.kubernetes.io/*` version), a `List`, or a
//! plain stream of YAML/JSON documents. A `*List` object among the items stays one object, as
//! kpt and kubectl keep it (its items are objects of their own while the stages run, see
//! `super::lists`), and every item remembers its text, so what no stage changes is copied.

use std::sync::Arc;

use tailor_yaml::{
    parse_stream_handing_items, parse_stream_with, Document, Handoff, Node, ParseOptions, Style,
    Value,
};

pub use super::resource::is_list_object;
use super::resource::{HeaderKeys, Origin, Rebuild, Resource, SourceText};
use super::results::KrmResult;
use super::write::{ListSyntax, Rendering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputForm {
    ResourceList,
    List,
    Stream,
}

#[derive(Debug)]
pub struct Input {
    pub items: Vec<Resource>,
    pub function_config: Option<Node>,
    pub form: InputForm,
    /// The ResourceList (or List) was JSON (a flow mapping): the answer is JSON too.
    pub json: bool,
    /// The whole input text, shared with the items' origins: a caller that needs the text
    /// again (to return the original items of a failed run) keeps this, not its own copy.
    pub source: SourceText,
}

/// Reads everything tailor was given. Errors name where the input is wrong.
pub fn read_input(text: &str, opts: &ParseOptions) -> Result<Input, KrmResult> {
    read_source(Arc::new(text.to_string()), opts, Trees::Keep)
}

/// What becomes of each item of a ResourceList as the parser hands it over.
pub enum Trees<'a> {
    /// Every item keeps its tree.
    Keep,
    /// Items copied verbatim when untouched keep only a header (with these annotations); their
    /// trees are built again from the source when a stage first reads them
    /// (`Resource::deferred`).
    Defer(HeaderKeys),
    /// Each item (an object, not a `*List`) is given to the hook as soon as
    /// it is read, with its origin and place set; the hook may edit it (and must then mark
    /// it changed) and says what it did. With `defer`, an item the hook looked into and left
    /// as it was keeps only a header, as with `Defer`; with `render` too, one it finished
    /// changing is held as the text it is written as there (a list item in the syntax of
    /// the sequence it was read from), and only items whose tree can be built again from the
    /// source go to the hook (it may undo what it did).
    Prepare {
        hook: &'a mut dyn FnMut(&mut Resource) -> Prepared,
        defer: Option<HeaderKeys>,
        render: Option<Rendering>,
    },
}

/// What the `Prepare` hook did with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepared {
    /// Nothing: the item is read as any other.
    Untouched,
    /// It looked into the item and left it as it was.
    Checked,
    /// It changed the item.
    Changed,
    /// It changed the item, and no stage will read or change it again: it may be held as
    /// its output text.
    Finished,
    /// Its work must not count: the item is read again from the source, as it was.
    Undo,
}

/// [`read_input`] taking the text by value: the caller's copy is freed before the trees are
/// built, so the input is held once, not twice, while the run's memory peaks.
pub fn read_input_owned(
    text: String,
    opts: &ParseOptions,
    trees: Trees<'_>,
) -> Result<Input, KrmResult> {
    read_input_or_back(text, opts, trees).map_err(|u| u.result)
}

/// An input that could not be read, with its text: a failed run answers with its items as
/// they were written ([`items_as_written`]), never with none (`kpt fn sink` would write an
/// empty directory).
#[derive(Debug)]
pub struct Unread {
    pub result: KrmResult,
    pub source: SourceText,
}

/// [`read_input_owned`], giving the text back with the error.
pub fn read_input_or_back(
    text: String,
    opts: &ParseOptions,
    trees: Trees<'_>,
) -> Result<Input, Unread> {
    let source = Arc::new(text);
    match read_source(source.clone(), opts, trees) {
        Ok(input) => {
            // The input holds the text now; a caller may want it back alone.
            drop(source);
            Ok(input)
        }
        Err(result) => Err(Unread { result, source }),
    }
}

/// The items of `text` as written, whatever they are (a ResourceList's or List's items, or
/// each document of a stream), for the answer of an input that could not be read; none when
/// the text is not YAML.
pub fn items_as_written(text: &str) -> Vec<Resource> {
    let Ok(docs) = parse_stream_with(text, &ParseOptions::default()) else {
        return Vec::new();
    };
    let mut docs: Vec<Document> = docs.into_iter().filter(|d| !d.empty).collect();
    if docs.len() == 1 && wrapper_form(&docs[0].root).is_some() {
        let mut root = docs.remove(0).root;
        return root
            .get_mut("items")
            .and_then(Node::items_mut)
            .map(std::mem::take)
            .unwrap_or_default()
            .into_iter()
            .map(|node| Resource::new(node, Origin::None))
            .collect();
    }
    docs.into_iter()
        .map(|d| Resource::new(d.root, Origin::None))
        .collect()
}

fn read_source(
    source: SourceText,
    opts: &ParseOptions,
    trees: Trees<'_>,
) -> Result<Input, KrmResult> {
    let mut taken = Vec::new();
    // The vectorised search: `str::contains` looks a word at a time, 1% of a no-op pass.
    let has_cr = memchr::memchr(b'\r', source.as_bytes()).is_some();
    let docs = match trees {
        Trees::Keep => parse_stream_with(&source, opts),
        Trees::Defer(keys) => parse_stream_handing_items(&source, opts, &mut |h| {
            defer_item(&source, has_cr, h, &keys, &mut taken)
        }),
        Trees::Prepare {
            hook,
            defer,
            render,
        } => parse_stream_handing_items(&source, opts, &mut |h| {
            let defer = defer.as_ref();
            prepare_item(&source, has_cr, h, hook, defer, render, &mut taken)
        }),
    }
    .map_err(|e| KrmResult::error(format!("input is not valid YAML: {e}")))?;
    let docs: Vec<Document> = docs.into_iter().filter(|d| !d.empty).collect();
    if docs.len() == 1 {
        if let Some(form) = wrapper_form(&docs[0].root) {
            return read_wrapped(&source, has_cr, docs.into_iter().next(), form, taken);
        }
    }
    if !taken.is_empty() {
        // Items were handed over from a first document that is not the whole input (a stream
        // of objects after all): read it as such, with every tree.
        return read_source(source, opts, Trees::Keep);
    }
    Ok(Input {
        items: stream_items(&source, docs)?,
        function_config: None,
        form: InputForm::Stream,
        json: false,
        source,
    })
}

/// Every document of a stream as an object, the single `kind: List` or `ResourceList`
/// document included (standalone mode keeps a List read from stdin, as it keeps one read from
/// a file).
pub fn read_stream(text: &str, opts: &ParseOptions) -> Result<Vec<Resource>, KrmResult> {
    let source: SourceText = Arc::new(text.to_string());
    let docs = parse_stream_with(&source, opts)
        .map_err(|e| KrmResult::error(format!("input is not valid YAML: {e}")))?;
    stream_items(&source, docs.into_iter().filter(|d| !d.empty).collect())
}

fn stream_items(source: &SourceText, docs: Vec<Document>) -> Result<Vec<Resource>, KrmResult> {
    if docs.len() > 1 {
        if let Some(i) = docs
            .iter()
            .position(|d| wrapper_form(&d.root) == Some(InputForm::ResourceList))
        {
            // kpt and kustomize send one ResourceList alone; read as one object among
            // others, its items would be emitted untailored and its functionConfig ignored.
            return Err(KrmResult::error(format!(
                "document {i} is a ResourceList among {} documents: a ResourceList must be the whole input (its items and functionConfig); send it alone, or the objects as a stream without it",
                docs.len()
            )));
        }
    }
    let mut items = Vec::new();
    for (i, doc) in docs.into_iter().enumerate() {
        let origin = Origin::Document {
            source: source.clone(),
            start: doc.span.start as usize,
            end: doc.span.end as usize,
            file: None,
            index: i,
            wide_sequences: doc.wide_sequences,
        };
        items.push(checked_object(doc.root, origin, &format!("document {i}"))?);
    }
    Ok(items)
}

/// A single document is a ResourceList (or List) only when kyaml would read it as one.
fn wrapper_form(root: &Node) -> Option<InputForm> {
    let kind = root.get_str("kind")?;
    let has_fields = root.contains_key("items") || root.contains_key("functionConfig");
    match kind {
        "ResourceList" if has_fields => Some(InputForm::ResourceList),
        "List" if has_fields => Some(InputForm::List),
        _ => None,
    }
}

/// Takes an item whose tree can be rebuilt alone and whose text is copied verbatim while it
/// is untouched; gives back any other (it is read as before, by `push_object`).
fn defer_item(
    source: &SourceText,
    has_cr: bool,
    h: Handoff,
    keys: &HeaderKeys,
    deferred: &mut Vec<Resource>,
) -> Option<Node> {
    if !h.self_contained || !is_single_object(&h.node) || object_problem(&h.node).is_some() {
        return Some(h.node);
    }
    let origin = seq_item_origin(source, &h.node, h.flow, has_cr);
    if !matches!(origin, Origin::SeqItem { .. }) {
        return Some(h.node);
    }
    let rebuild = Rebuild::Item(h.resume);
    let mut item = Resource::deferred(&h.node, source.clone(), rebuild, origin, keys.clone());
    item.set_item_index(h.index);
    deferred.push(item);
    None
}

/// Gives an object to the `Prepare` hook as it is read; takes it when the hook changed it (or
/// left it as it was, to keep only its header when `defer` says so; or finished it, to keep
/// its output text when `render` says so), gives back any other.
fn prepare_item(
    source: &SourceText,
    has_cr: bool,
    h: Handoff,
    hook: &mut dyn FnMut(&mut Resource) -> Prepared,
    defer: Option<&HeaderKeys>,
    render: Option<Rendering>,
    taken: &mut Vec<Resource>,
) -> Option<Node> {
    let undoable = h.self_contained;
    let risky = render.is_some() && !undoable;
    if !is_single_object(&h.node) || object_problem(&h.node).is_some() || risky {
        return Some(h.node);
    }
    let origin = seq_item_origin(source, &h.node, h.flow, has_cr);
    let deferrable = h.self_contained && matches!(origin, Origin::SeqItem { .. });
    let mut item = Resource::new(h.node, origin);
    item.set_item_index(h.index);
    match (hook(&mut item), defer, render) {
        (Prepared::Finished, Some(keys), Some(rendering)) => {
            // A list item is written in the syntax of the sequence it was read from.
            let rendering = match rendering {
                Rendering::Item(_) if h.flow => Rendering::Item(ListSyntax::Json),
                Rendering::Item(_) => Rendering::Item(ListSyntax::Yaml),
                other => other,
            };
            taken.push(item.into_rendered(rendering, keys.clone()));
        }
        (Prepared::Changed | Prepared::Finished, _, _) => taken.push(item),
        (Prepared::Checked, Some(keys), _) if deferrable && !item.is_dirty() => {
            taken.push(item.into_deferred(source.clone(), Rebuild::Item(h.resume), keys.clone()))
        }
        // The item as it was read: its self-contained source parsed again, which cannot fail
        // once the parse that handed it over succeeded (deferred trees rely on the same).
        (Prepared::Undo, _, _) => {
            return Some(
                tailor_yaml::reparse_item(source, &h.resume).unwrap_or_else(|_| item.into_node()),
            )
        }
        _ => return Some(item.into_node()),
    }
    None
}

/// An object that is not a container: what a stage may read on its own. Flow items (kpt's
/// `.json` files) too: a deferred one is built again in flow style, and copied or written
/// in it as one that kept its tree.
fn is_single_object(node: &Node) -> bool {
    node.is_mapping() && !is_list_object(node)
}

/// Where the text of the functionConfig entry of a ResourceList starts, read ahead of the
/// items it usually follows (kpt and kustomize write it last): a line `functionConfig:` in
/// column 0, up to the next line that starts in column 0, with where that text starts. A guess
/// for the reader's benefit: a quoted scalar may hold such a line, so the run uses it only when
/// the functionConfig it reads sits at the same place.
pub fn function_config_ahead(text: &str) -> Option<(Node, usize)> {
    const KEY: &str = "functionConfig:";
    let at = if text.starts_with(KEY) {
        0
    } else {
        match last_function_config_line(text) {
            Some(at) => at + 1,
            None => return json_function_config_ahead(text),
        }
    };
    let rest = &text[at..];
    let b = rest.as_bytes();
    let mut end = rest.len();
    let mut cursor = 0;
    while let Some(i) = rest[cursor..].find('\n') {
        let next = cursor + i + 1;
        if next < b.len() && !matches!(b[next], b' ' | b'\t' | b'#' | b'\n' | b'\r') {
            end = next;
            break;
        }
        cursor = next;
    }
    let docs = parse_stream_with(&rest[..end], &ParseOptions::default()).ok()?;
    let fc = docs
        .into_iter()
        .next()?
        .root
        .get("functionConfig")
        .cloned()?;
    Some((fc, at))
}

/// Where the last `\nfunctionConfig:` of `text` starts. kpt and kustomize write it last, so
/// the end of the text is searched first; PyYAML's sorted keys put it first, where a backward
/// search over the whole text (`rfind`, not vectorised) cost 3% of a no-op pass: the rest is
/// searched forward (vectorised), keeping the last match (the needle cannot overlap itself).
fn last_function_config_line(text: &str) -> Option<usize> {
    const LINE: &str = "\nfunctionConfig:";
    const TAIL: usize = 64 << 10;
    let mut tail_start = text.len().saturating_sub(TAIL);
    while !text.is_char_boundary(tail_start) {
        tail_start -= 1;
    }
    if let Some(at) = text[tail_start..].rfind(LINE) {
        return Some(tail_start + at);
    }
    // The head searched reaches past the tail's start by the needle's length, for a match
    // that starts before the tail and ends inside it.
    let head_end = (tail_start + LINE.len()).min(text.len());
    memchr::memmem::find_iter(&text.as_bytes()[..head_end], LINE).last()
}

/// [`function_config_ahead`] for a JSON ResourceList: the object after the last
/// `"functionConfig":`, up to its matching brace (JSON strings skipped), with where it starts.
/// The same guess: a string may hold such a key, and the run checks where the functionConfig
/// it reads sits.
fn json_function_config_ahead(text: &str) -> Option<(Node, usize)> {
    const KEY: &str = "\"functionConfig\"";
    let after_key = text.rfind(KEY)? + KEY.len();
    let rest = &text[after_key..];
    let colon = rest.trim_start().strip_prefix(':')?;
    let value = colon.trim_start();
    let start = text.len() - value.len();
    let len = json_object_len(value)?;
    let docs = parse_stream_with(&text[start..start + len], &ParseOptions::default()).ok()?;
    let fc = docs.into_iter().next()?.root;
    fc.is_mapping().then_some((fc, start))
}

/// The length of the JSON object `text` starts with, to its matching `}`; `None` when it
/// does not start with one or does not close.
fn json_object_len(text: &str) -> Option<usize> {
    if !text.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &c) in text.as_bytes().iter().enumerate() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

fn read_wrapped(
    source: &SourceText,
    has_cr: bool,
    doc: Option<Document>,
    form: InputForm,
    taken: Vec<Resource>,
) -> Result<Input, KrmResult> {
    let Some(doc) = doc else {
        return Err(KrmResult::error("input has no document"));
    };
    let mut root = doc.root;
    let json = root.style == Style::Flow;
    let function_config = root.remove("functionConfig").filter(|fc| !fc.is_null());
    if let Some(fc) = &function_config {
        if !fc.is_mapping() {
            return Err(KrmResult::error(format!(
                "functionConfig must be a mapping (a KRM object), found {}",
                describe(fc)
            ))
            .at_field("functionConfig"));
        }
    }
    let items_node = root.remove("items").unwrap_or_else(Node::null);
    let list = match items_node.value {
        Value::Sequence(list) => list,
        Value::Scalar(_) if items_node.is_null() => Vec::new(),
        _ => {
            return Err(KrmResult::error(format!(
                "items must be a list of KRM objects, found {}",
                describe(&items_node)
            ))
            .at_field("items"))
        }
    };
    // The reader took every item as it was handed over (the common case): they are the list.
    if taken.len() == list.len() {
        return Ok(Input {
            items: taken,
            function_config,
            form,
            json,
            source: source.clone(),
        });
    }
    let mut items = Vec::with_capacity(list.len());
    let mut taken = taken.into_iter().peekable();
    for (i, item) in list.into_iter().enumerate() {
        if let Some(resource) = taken.next_if(|r| r.item_index() == Some(i)) {
            items.push(resource);
            continue;
        }
        let origin = seq_item_origin(source, &item, json, has_cr);
        let mut object = checked_object(item, origin, &format!("items[{i}]"))?;
        object.set_item_index(i);
        items.push(object);
    }
    Ok(Input {
        items,
        function_config,
        form,
        json,
        source: source.clone(),
    })
}

/// The object of `node`; anything that is not a mapping is an error, and so is an item of a
/// `*List` that is not an object. `place` names it in messages.
fn checked_object(node: Node, origin: Origin, place: &str) -> Result<Resource, KrmResult> {
    if is_list_object(&node) {
        check_list_items(&node, place)?;
    } else {
        check_object(&node, place)?;
    }
    Ok(Resource::new(node, origin))
}

/// The items of a `*List` must be objects (a List among them, with its own items).
pub fn check_list_items(list: &Node, place: &str) -> Result<(), KrmResult> {
    for (j, item) in list
        .get("items")
        .and_then(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let at = format!("{place}.items[{j}]");
        if is_list_object(item) {
            check_list_items(item, &at)?;
        } else {
            check_object(item, &at)?;
        }
    }
    Ok(())
}

/// A pointer to `spec.destinationSelectors` for a list of `matchLabels` entries: Kratix's
/// `/kratix/metadata/destination-selectors.yaml`, which is scheduling input, not an object.
fn destination_selectors_hint(node: &Node) -> &'static str {
    let selectors = node.items().is_some_and(|items| {
        !items.is_empty() && items.iter().all(|i| i.get("matchLabels").is_some())
    });
    if selectors {
        "; this looks like Kratix's /kratix/metadata/destination-selectors.yaml: write its entries as spec.destinationSelectors of the Tailor and leave the file out of the input"
    } else {
        ""
    }
}

/// What keeps `node` from being a KRM object as kpt requires one (`kptfile/v1.IsKRM`): a
/// mapping with `apiVersion`, `kind` and a `metadata` mapping holding a `name`; kustomization
/// files are exempt, as there. The field and kpt's words for it.
pub fn object_problem(node: &Node) -> Option<(&'static str, String)> {
    if node.is_mapping() && is_kustomization(node) {
        return None;
    }
    if !node.is_mapping() {
        return Some((
            "",
            format!(
                "must be a KRM object (a mapping with apiVersion, kind and metadata), found {}{}",
                describe(node),
                destination_selectors_hint(node)
            ),
        ));
    }
    let meta = node.get("metadata");
    if meta.is_some_and(|m| !m.is_mapping() && !m.is_null()) {
        return Some((
            "metadata",
            "resource must have `apiVersion`, `kind`, and `name` (metadata is not a mapping)"
                .into(),
        ));
    }
    fn has_text(n: Option<&Node>) -> bool {
        n.and_then(Node::as_scalar).is_some_and(|s| !s.is_empty())
    }
    if !has_text(node.get("apiVersion")) {
        // KubeStellar's docs show CustomTransforms without one; name the fix.
        let hint = if node.get("kind").and_then(Node::as_scalar) == Some("CustomTransform") {
            " (a CustomTransform's is `apiVersion: control.kubestellar.io/v1alpha1`)"
        } else {
            ""
        };
        return Some((
            "apiVersion",
            format!("resource must have `apiVersion`{hint}"),
        ));
    }
    if !has_text(node.get("kind")) {
        return Some(("kind", "resource must have `kind`".into()));
    }
    if !has_text(meta.and_then(|m| m.get("name"))) {
        return Some(("metadata.name", "resource must have `metadata.name`".into()));
    }
    None
}

/// kpt's `isKustomization`: a kustomization file by its path's file name, or a kustomize
/// config object by its apiVersion (or its kind, without one).
pub fn is_kustomization(node: &Node) -> bool {
    const FILE_NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];
    // Every item is asked this as it is read: the annotations are found once for both keys.
    let annotations = node.get_path(&["metadata", "annotations"]);
    let path = annotations
        .and_then(|a| a.get(super::annotations::PATH))
        .or_else(|| annotations.and_then(|a| a.get(super::annotations::LEGACY_PATH)))
        .and_then(Node::as_scalar);
    if let Some(p) = path {
        if FILE_NAMES.contains(&p.rsplit('/').next().unwrap_or(p)) {
            return true;
        }
    }
    let api_version = node.get_str("apiVersion").unwrap_or("");
    api_version.starts_with("kustomize.config.k8s.io")
        || (api_version.is_empty() && node.get_str("kind") == Some("Kustomization"))
}

/// [`object_problem`] as the error about the item at `place` (`items[3]`).
fn check_object(node: &Node, place: &str) -> Result<(), KrmResult> {
    match object_problem(node) {
        None => Ok(()),
        Some(("", message)) => Err(KrmResult::error(format!("{place} {message}")).at_field(place)),
        Some((field, message)) => {
            Err(KrmResult::error(format!("{place}: {message}"))
                .at_field(format!("{place}.{field}")))
        }
    }
}

pub fn describe(n: &Node) -> String {
    match &n.value {
        Value::Scalar(s) if n.is_null() => "null".to_string(),
        Value::Scalar(s) => format!("the scalar {:?}", truncate(s)),
        Value::Sequence(_) => "a list".to_string(),
        Value::Mapping(_) => "a mapping".to_string(),
        Value::Alias(a) => format!("the alias *{a}"),
    }
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Where an item's own text is, when it can be copied verbatim: a flow item (`- {...}`, a
/// JSON list's object) is exactly its span; a block item starts right after `- ` in column 0
/// (the layout kpt and kustomize write), on its first key's line or on a line of comments
/// (kpt writes an object that starts with a comment as `- # comment`), and its region must
/// end cleanly. Every look stays within the item's own lines, so a list on one long line
/// costs no more per item than a list with a line per object. `has_cr`: whether the source
/// holds a carriage return anywhere (an item holding one is not copied; most inputs have
/// none, and looking once saves a pass over every item).
fn seq_item_origin(source: &SourceText, item: &Node, json: bool, has_cr: bool) -> Origin {
    let start = item.span.start as usize;
    let end = item.span.end as usize;
    if end <= start || end > source.len() || !item.is_mapping() {
        return Origin::None;
    }
    let b = source.as_bytes();
    let verbatim = |start: usize, end: usize| Origin::SeqItem {
        source: source.clone(),
        start,
        end,
    };
    if json {
        return if item.style == Style::Flow {
            verbatim(start, end)
        } else {
            Origin::None
        };
    }
    let after_dash =
        |at: usize| at >= 2 && &b[at - 2..at] == b"- " && (at == 2 || b[at - 3] == b'\n');
    let region_start = if after_dash(start) {
        start
    } else {
        match dash_comment_start(source, start) {
            Some(at) => at,
            None => return Origin::None,
        }
    };
    match item_region_end(source, region_start, end) {
        Some(region_end) if !(has_cr && source[region_start..region_end].contains('\r')) => {
            verbatim(region_start, region_end)
        }
        _ => Origin::None,
    }
}

/// For an item whose first key starts a line in column 2, after lines of comments the first of
/// which follows the item's `- ` (`- # comment`): where that comment starts. Only the lines
/// between the dash and the key are looked at.
fn dash_comment_start(source: &str, key: usize) -> Option<usize> {
    let b = source.as_bytes();
    if key < 3 || &b[key - 2..key] != b"  " || b[key - 3] != b'\n' {
        return None;
    }
    let mut line_end = key - 3;
    loop {
        let line_start = source[..line_end].rfind('\n').map_or(0, |i| i + 1);
        let line = &source[line_start..line_end];
        if let Some(comment) = line.strip_prefix("- ") {
            return comment.starts_with('#').then_some(line_start + 2);
        }
        let blank = line.trim_matches([' ', '\t']).is_empty();
        let indented_comment = line.starts_with("  ") && line.trim_start().starts_with('#');
        if !(blank || indented_comment) || line_start == 0 {
            return None;
        }
        line_end = line_start - 1;
    }
}

/// The end of an item's text: the end of the line holding its last token, plus the following
/// lines up to the next line that starts in column 0: comments indented past the `-` that
/// close the item, and blank lines (a block scalar keeping its final line breaks holds them,
/// and a list that separates its items by them gets them back).
fn item_region_end(src: &str, start: usize, node_end: usize) -> Option<usize> {
    let b = src.as_bytes();
    let line_end = |from: usize| src[from..].find('\n').map_or(src.len(), |i| from + i);
    // The item's own lines are indented; a line starting in column 0 belongs to what follows
    // the list. A node that seems to reach it (an empty value's span placed at the next token)
    // cannot be trusted for a verbatim copy: the item is written from its tree instead.
    // One pass over the item's bytes, each line break looked at with the byte after it,
    // without branches, so the compiler checks many bytes at a time.
    let body = &b[start.min(b.len())..(node_end + 1).min(b.len())];
    let (this, next) = match body.split_first() {
        Some((_, rest)) => (&body[..rest.len()], rest),
        None => (body, body),
    };
    let column_zero = this.iter().zip(next).fold(0u8, |seen, (&c, &d)| {
        seen | u8::from((c == b'\n') & !((d == b' ') | (d == b'\n') | (d == b'\r')))
    });
    if column_zero != 0 {
        return None;
    }
    let mut end = line_end(node_end);
    while end < b.len() {
        let next = end + 1;
        // A line that starts with a character other than whitespace (the next item's `-`)
        // ends the text: told without finding that line's end, which would read the next
        // item twice when it is one long line (a flow item).
        if b.get(next)
            .is_some_and(|&c| c.is_ascii() && !char::from(c).is_whitespace())
        {
            break;
        }
        let next_end = line_end(next);
        let line = &src[next..next_end];
        let blank = line.trim().is_empty();
        // The line break that ends the text is the writer's; so is what follows it.
        if !(line.starts_with(' ') || blank) || (blank && next_end >= b.len()) {
            break;
        }
        end = next_end;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::super::resource::HeaderKeys;
    use super::*;

    fn read(s: &str) -> Result<Input, KrmResult> {
        read_input(s, &ParseOptions::default())
    }

    /// Found by fuzzing: an item ending in an empty value, followed by a top-level key, was
    /// copied together with that key's lines (the empty value's span sits at the next token).
    /// The last `functionConfig:` line, wherever it sits: first (PyYAML), last (kpt), across
    /// the start of the tail searched first, or twice.
    #[test]
    fn the_last_function_config_line_is_found_anywhere() {
        let pad = "- a: b\n".repeat(20_000);
        let fc = "\nfunctionConfig:";
        let cases = [
            format!("x: 1{fc} a\n{pad}"),
            format!("x: 1\n{pad}{fc} a\n"),
            format!("x: 1{fc} a\n{pad}{fc} b\n{pad}"),
            format!("x: 1{fc} a\n{pad}{fc} b\n"),
            format!("x: 1\n{pad}"),
        ];
        for text in &cases {
            assert_eq!(last_function_config_line(text), text.rfind(fc));
        }
        // A match inside the tail searched first, across its start, and before it.
        let tail = 64 << 10;
        let head = "y".repeat(tail);
        for after in tail - fc.len() - 2..tail + 2 {
            let text = format!("{head}{fc}{}", "z".repeat(after));
            assert_eq!(last_function_config_line(&text), Some(tail), "{after}");
        }
    }

    #[test]
    fn an_item_region_stops_before_column_zero() {
        let src = "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n  spec:\n    template:\nother:\n  a: b\n";
        let input = read(src).unwrap();
        let mut out = String::new();
        for item in &input.items {
            out.push_str(&crate::write::document_text(item));
        }
        assert!(!out.contains("other"), "{out}");
    }

    #[test]
    fn resource_list_items_keep_their_text() {
        let src = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: A # c\n  metadata:\n    name: a\n  # trailing\n- apiVersion: v1\n  kind: B\n  metadata: {name: b}\n";
        let input = read(src).unwrap();
        assert_eq!(input.form, InputForm::ResourceList);
        assert_eq!(input.items.len(), 2);
        match input.items[0].origin() {
            Origin::SeqItem { source, start, end } => assert_eq!(
                &source[*start..*end],
                "apiVersion: v1\n  kind: A # c\n  metadata:\n    name: a\n  # trailing"
            ),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn lists_stay_whole_and_bad_items_are_named() {
        let src = "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMapList\n  items:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n";
        let input = read(src).unwrap();
        assert_eq!(input.items.len(), 1);
        assert!(input.items[0].is_list());
        assert_eq!(input.items[0].place().as_deref(), Some("items[0]"));
        // Stream documents are not ResourceList items: they have no place.
        let stream = read("apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n").unwrap();
        assert!(stream.items[1].place().is_none());
        let err = read("kind: ResourceList\nitems:\n- a\n").unwrap_err();
        assert!(
            err.message.contains("items[0] must be a KRM object"),
            "{}",
            err.message
        );
        let err = read("kind: ResourceList\nitems: 3\n").unwrap_err();
        assert_eq!(err.field_path.as_deref(), Some("items"));
        let err = read("kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - {apiVersion: v1, kind: A, metadata: {}}\n").unwrap_err();
        assert_eq!(
            err.field_path.as_deref(),
            Some("items[0].items[0].metadata.name")
        );
    }

    /// kpt writes an object that starts with a comment as `- # comment`; a flow item is its
    /// span; either is copied from there. A one-line list is read in linear time, and its
    /// items are copied too.
    #[test]
    fn comment_first_flow_and_json_items_keep_their_text() {
        let src = "kind: ResourceList\nitems:\n- # first   \n  # second\n\n  apiVersion: v1\n  kind: A\n  metadata: {name: a}\n- {\"apiVersion\": \"v1\", \"kind\": \"B\", metadata: {name: b}} # c\n- &x # anchored\n  apiVersion: v1\n  kind: C\n  metadata: {name: c}\n";
        let input = read(src).unwrap();
        let text = |i: usize| match input.items[i].origin() {
            Origin::SeqItem { source, start, end } => Some(source[*start..*end].to_string()),
            _ => None,
        };
        assert_eq!(
            text(0).as_deref(),
            Some("# first   \n  # second\n\n  apiVersion: v1\n  kind: A\n  metadata: {name: a}")
        );
        assert_eq!(
            text(1).as_deref(),
            Some("{\"apiVersion\": \"v1\", \"kind\": \"B\", metadata: {name: b}} # c")
        );
        // Properties start the node's span: they are after the dash, and copied with it.
        assert_eq!(
            text(2).as_deref(),
            Some("&x # anchored\n  apiVersion: v1\n  kind: C\n  metadata: {name: c}")
        );
        let json = r#"{"kind":"ResourceList","items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"B","metadata":{"name":"b"}}]}"#;
        let input = read(json).unwrap();
        assert!(input.json);
        match input.items[1].origin() {
            Origin::SeqItem { source, start, end } => assert_eq!(
                &source[*start..*end],
                r#"{"apiVersion":"v1","kind":"B","metadata":{"name":"b"}}"#
            ),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn owned_text_reads_the_same() {
        let src =
            "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n";
        let a = read(src).unwrap();
        let b = read_input_owned(src.to_string(), &ParseOptions::default(), Trees::Keep).unwrap();
        assert_eq!(&*b.source, src);
        assert_eq!(a.items.len(), b.items.len());
        assert_eq!(a.items[0].node(), b.items[0].node());
        assert!(Arc::ptr_eq(
            &b.source,
            match b.items[0].origin() {
                Origin::SeqItem { source, .. } => source,
                o => panic!("{o:?}"),
            }
        ));
    }

    /// Blank lines after an item are part of its text: a keep-chomping block scalar holds
    /// them, and a list written with blank lines between items gets them back.
    #[test]
    fn blank_lines_between_items() {
        let src = "kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\n  data: |+\n    x\n\n- apiVersion: v1\n  kind: B\n  metadata: {name: b}\n\n- apiVersion: v1\n  kind: C\n  metadata: {name: c}\n\n";
        let input = read(src).unwrap();
        for (i, text) in [
            "apiVersion: v1\n  kind: A\n  metadata: {name: a}\n  data: |+\n    x\n",
            "apiVersion: v1\n  kind: B\n  metadata: {name: b}\n",
            "apiVersion: v1\n  kind: C\n  metadata: {name: c}\n",
        ]
        .iter()
        .enumerate()
        {
            match input.items[i].origin() {
                Origin::SeqItem { source, start, end } => assert_eq!(&source[*start..*end], *text),
                o => panic!("{o:?}"),
            }
        }
        assert_eq!(
            crate::write::write_resource_list(&input.items, None, &[]),
            format!("apiVersion: config.kubernetes.io/v1\n{src}")
        );
    }

    #[test]
    fn json_and_streams() {
        let input = read(r#"{"kind":"ResourceList","items":[{"apiVersion":"v1","kind":"A","metadata":{"name":"x"}}]}"#).unwrap();
        assert_eq!(input.items[0].name(), "x");
        let input = read("apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n").unwrap();
        assert_eq!(input.form, InputForm::Stream);
        assert_eq!(input.items.len(), 2);
    }

    /// A `kind` written after `items` (PyYAML's and `kubectl get -o yaml | yq`'s sorted keys)
    /// still defers the items; a root with `items` that turns out to be no list is read again
    /// as one object of a stream.
    #[test]
    fn a_kind_after_the_items_defers_them_or_reads_again() {
        let keys: HeaderKeys = Arc::from(Vec::<&str>::new());
        let opts = ParseOptions::default();
        let src = "apiVersion: config.kubernetes.io/v1\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\nkind: ResourceList\n";
        let input = read_input_owned(src.to_string(), &opts, Trees::Defer(keys.clone())).unwrap();
        assert_eq!(input.form, InputForm::ResourceList);
        assert_eq!(input.items.len(), 1);
        assert!(input.items[0].is_deferred());
        assert_eq!(input.items[0].name(), "a");
        let src = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: A\n  metadata: {name: a}\nkind: Thing\nmetadata: {name: t}\n";
        let input = read_input_owned(src.to_string(), &opts, Trees::Defer(keys)).unwrap();
        assert_eq!(input.form, InputForm::Stream);
        assert_eq!(input.items.len(), 1);
        assert_eq!(input.items[0].kind(), "Thing");
        assert_eq!(input.items[0].node(), read(src).unwrap().items[0].node());
    }

    /// A deferred item's header answers every question the run asks unasked exactly as its
    /// tree does: identity, kept annotations (scalars only), head comment, cluster mark; and
    /// the item keeps its index in the list. Flow items are deferred too.
    #[test]
    fn deferred_headers_answer_as_trees() {
        let src = "kind: ResourceList\nitems:\n# head\n- apiVersion: !!str apps/v1\n  kind: Deployment\n  metadata:\n    name: 12\n    namespace: ''\n    annotations:\n      config.kubernetes.io/path: a/b.yaml\n      config.kubernetes.io/index: {x: 1}\n      tailor.dev/kept: k\n      other: o\n- # tailor.dev/cluster: dev\n  kind: A\n  apiVersion: v1\n  metadata: {name: a, namespace: ns}\n- {\"apiVersion\": \"v1\", \"kind\": \"B\", \"metadata\": {\"name\": \"b\"}}\n- # tailor.dev/cluster: x\n  metadata:\n    name: c\n  apiVersion: v1\n  kind: C\n";
        let keys: HeaderKeys = Arc::from(vec!["tailor.dev/kept"]);
        let opts = ParseOptions::default();
        let kept = read(src).unwrap().items;
        let deferred = read_input_owned(src.to_string(), &opts, Trees::Defer(keys))
            .unwrap()
            .items;
        assert_eq!(kept.len(), 4);
        for (i, (k, d)) in kept.iter().zip(&deferred).enumerate() {
            assert_eq!(d.item_index(), Some(i));
            assert_eq!(k.place(), d.place());
            assert_eq!(k.api_version(), d.api_version(), "{i}");
            assert_eq!(k.kind(), d.kind(), "{i}");
            assert_eq!(k.name(), d.name(), "{i}");
            assert_eq!(k.namespace(), d.namespace(), "{i}");
            assert_eq!(k.head_comment(), d.head_comment(), "{i}");
            assert_eq!(k.fanned_out_for(), d.fanned_out_for(), "{i}");
            for key in [
                super::super::annotations::PATH,
                super::super::annotations::LEGACY_PATH,
                super::super::annotations::LEGACY_INDEX,
                "tailor.dev/kept",
            ] {
                assert_eq!(k.annotation(key), d.annotation(key), "{i} {key}");
            }
        }
        assert_eq!(deferred[0].name(), "12");
        assert_eq!(deferred[0].namespace(), None);
        assert_eq!(deferred[0].head_comment(), Some("# head"));
        assert_eq!(deferred[0].annotation("tailor.dev/kept"), Some("k"));
        assert_eq!(deferred[1].fanned_out_for(), Some("dev"));
        assert_eq!(deferred[3].fanned_out_for(), Some("x"));
        // An annotation the header does not keep is read from the tree, built for it.
        assert_eq!(deferred[0].annotation("other"), Some("o"));
    }

    /// A header's texts are pieces of the source where the scalar is written as it reads
    /// (plain, or inside the quotes of a JSON string), else copies: escapes, doubled quotes,
    /// tags, block scalars and head comments answer as the tree does.
    #[test]
    fn deferred_header_texts_as_written_or_copied() {
        let src = "kind: ResourceList\nitems:\n# a head\n# two lines\n- apiVersion: \"v\\u0031\"\n  kind: 'It''s'\n  metadata:\n    name: !!str n1\n    namespace: |-\n      ns\n- {\"apiVersion\": \"v1\", \"kind\": \"B\", \"metadata\": {\"name\": \"b\", \"namespace\": \"x\"}}\n- # tailor.dev/cluster: dev\n  apiVersion: v1\n  kind: C\n  metadata: {name: 'c', namespace: \"\"}\n";
        let keys: HeaderKeys = Arc::new(Vec::new());
        let kept = read(src).unwrap().items;
        let deferred = read_input_owned(
            src.to_string(),
            &ParseOptions::default(),
            Trees::Defer(keys),
        )
        .unwrap()
        .items;
        assert_eq!(deferred.len(), 3);
        for (i, (k, d)) in kept.iter().zip(&deferred).enumerate() {
            assert!(d.is_deferred(), "{i}");
            assert_eq!(
                (d.api_version(), d.kind(), d.name(), d.namespace()),
                (k.api_version(), k.kind(), k.name(), k.namespace()),
                "{i}"
            );
            assert_eq!(d.head_comment(), k.head_comment(), "{i}");
            assert_eq!(d.fanned_out_for(), k.fanned_out_for(), "{i}");
        }
        assert_eq!(
            (deferred[0].api_version(), deferred[0].kind()),
            ("v1", "It's")
        );
        assert_eq!(deferred[0].head_comment(), Some("# a head\n# two lines"));
        assert_eq!(
            (deferred[1].name(), deferred[1].namespace()),
            ("b", Some("x"))
        );
        assert_eq!(deferred[2].fanned_out_for(), Some("dev"));
        assert_eq!(deferred[2].namespace(), None);
    }
}
