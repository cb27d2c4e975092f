//! Files in and out, for standalone mode (`tailor CONFIG.yaml [FILE|DIR|-]...`): plain YAML
//! files read as objects that remember their file (directories recursively, with paths
//! recorded like `kpt fn source`), and objects written back to their files under
//! `--output-dir`, where a file the run did not change is written back byte for byte.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tailor_yaml::{
    parse_stream_handing, parse_stream_with, Document, Handed, Handoff, Node, ParseOptions,
};

use super::read::{
    check_list_items, object_problem, read_input_owned, read_stream, InputForm, Prepared, Trees,
};
use super::resource::{is_list_object, HeaderKeys, Origin, Resource, SourceText};
use super::results::KrmResult;
use super::write::{
    end_document, opens_with_marker, push_file_document, stream_text_range, Rendering,
};

/// What a file holds.
pub enum FileContents {
    /// Its objects (KRM objects, and `*List`s of them), each remembering the file.
    Objects(Vec<Resource>),
    /// No KRM object: only empty documents, or documents that are not objects at all (a
    /// kustomize JSON-patch list, a `values.yaml`). Where a directory is written back it is
    /// copied as it is, as kpt keeps it; where objects are written, `problem` (the first
    /// document that is not an object) is the error.
    Other {
        text: SourceText,
        problem: Option<KrmResult>,
    },
}

/// Reads one file of a package: its objects, or the file itself when it holds none. A
/// document that looks like an object (it has `apiVersion` and `kind`) but is not a valid one
/// is an error, and so is a file mixing objects and other documents: neither is
/// ever passed on untailored. With `defer`, the objects' trees are dropped once checked
/// ([`defer_documents`]).
pub fn read_manifest_file(
    source: SourceText,
    rel_path: &str,
    opts: &ParseOptions,
    defer: Option<&mut Deferral<'_>>,
) -> Result<FileContents, KrmResult> {
    let mut objects = Vec::new();
    let mut other = None;
    for res in documents(&source, rel_path, opts)? {
        if let Err(error) = check_object(&res) {
            if is_list_object(res.node()) || looks_like_an_object(res.node()) {
                return Err(error);
            }
            other.get_or_insert(error);
            continue;
        }
        objects.push(res);
    }
    match (objects.is_empty(), other) {
        (false, Some(error)) => Err(error),
        (false, None) => {
            if let Some(defer) = defer {
                defer_documents(&mut objects, defer, opts);
            }
            Ok(FileContents::Objects(objects))
        }
        (true, problem) => Ok(FileContents::Other {
            text: source,
            problem,
        }),
    }
}

/// Every document of a file, unchecked, as resources that remember the file: a Fleet bundle
/// drops what Fleet does not deploy, by Fleet's rules, before [`check_object`].
pub fn read_documents(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    documents(&Arc::new(text), rel_path, opts)
}

fn documents(
    source: &SourceText,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    let docs = parse_stream_with(source, opts)
        .map_err(|e| KrmResult::error(format!("{rel_path}: {e}")))?;
    let docs = docs.into_iter().filter(|d| !d.empty).enumerate();
    let file: Arc<str> = Arc::from(rel_path);
    Ok(docs
        .map(|(index, doc)| {
            let origin = Origin::Document {
                source: source.clone(),
                start: doc.span.start as usize,
                end: doc.span.end as usize,
                file: Some(file.clone()),
                index,
                wide_sequences: doc.wide_sequences,
            };
            Resource::new(doc.root, origin)
        })
        .collect())
}

/// A mapping that declares a type (`apiVersion` and `kind`): meant as an object, so an
/// invalid one (no `metadata.name`) is an error rather than a file of another kind. A Helm
/// `Chart.yaml` (an `apiVersion`, no `kind`) or a ytt template is not.
fn looks_like_an_object(node: &tailor_yaml::Node) -> bool {
    node.contains_key("apiVersion") && node.contains_key("kind")
}

/// An error naming the file, the line and the document when `res` (a document of a file) is
/// not a KRM object, or is a `*List` whose items are not.
pub fn check_object(res: &Resource) -> Result<(), KrmResult> {
    let (file, index, line) = match res.origin() {
        Origin::Document {
            source,
            file,
            index,
            ..
        } => {
            let at = res.node().span.start as usize;
            let line = source.get(..at).map(|t| t.matches('\n').count() + 1);
            (file.clone(), *index, line)
        }
        _ => (None, 0, None),
    };
    let problem = if is_list_object(res.node()) {
        check_list_items(res.node(), &format!("document {index}")).err()
    } else {
        object_problem(res.node()).map(|(field, message)| {
            KrmResult::error(format!("document {index}: {message}")).at_field(field)
        })
    };
    match problem {
        None => Ok(()),
        Some(error) => Err(KrmResult {
            file: file.map(|f| (f.to_string(), index)),
            line,
            ..error
        }),
    }
}

/// The functionConfig file of standalone mode: exactly one object.
/// The text comes back with the object, so results about the configuration can give the line
/// of the field they name ([`super::results::locate`]).
pub fn read_config_text(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<(tailor_yaml::Node, SourceText), KrmResult> {
    let source: SourceText = Arc::new(text);
    let root = the_one_object(parse_stream_with(&source, opts), rel_path)?;
    Ok((root, source))
}

/// [`read_config_text`] with the entries of the sequence `handed` names given to `sink` as
/// they are parsed ([`parse_stream_handing`]): what the sink takes is a `null` in the tree.
/// Errors are [`read_config_text`]'s.
pub fn read_config_handing(
    text: &str,
    rel_path: &str,
    opts: &ParseOptions,
    handed: Handed,
    sink: &mut dyn FnMut(Handoff) -> Option<Node>,
) -> Result<Node, KrmResult> {
    the_one_object(parse_stream_handing(text, opts, handed, sink), rel_path)
}

/// The root of the one document a config file must hold.
fn the_one_object(
    parsed: Result<Vec<Document>, tailor_yaml::Error>,
    rel_path: &str,
) -> Result<Node, KrmResult> {
    let docs: Vec<_> = parsed
        .map_err(|e| KrmResult::error(format!("{rel_path}: {e}")))?
        .into_iter()
        .filter(|d| !d.empty)
        .collect();
    match <[_; 1]>::try_from(docs) {
        Ok([doc]) => Ok(doc.root),
        Err(docs) => Err(KrmResult::error(format!(
            "{rel_path}: the config file must hold exactly one object, found {}",
            docs.len()
        ))),
    }
}

/// Whether `file` is a kustomization (by kustomize's file names).
pub fn is_kustomization_file(file: &Path) -> bool {
    file.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        matches!(
            n,
            "kustomization.yaml" | "kustomization.yml" | "Kustomization"
        )
    })
}

/// Every file under `dir` that `kpt fn source` reads (`*.yaml`, `*.yml`, `*.json` and
/// `Kptfile`, hidden paths included), sorted, with paths relative to `dir`.
/// A file that is no regular file, or a symlink leading out of `dir`, is an error
/// ([`tailor_kube::tree`]).
pub fn package_files(dir: &Path) -> std::io::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    let root_real = dir.canonicalize()?;
    walk(dir, &root_real, dir, &mut out)?;
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

/// Whether `kpt fn source` reads a file of this name (its default match, case-sensitive).
pub fn is_package_file(name: &str) -> bool {
    name == "Kptfile" || [".yaml", ".yml", ".json"].iter().any(|e| name.ends_with(e))
}

fn walk(
    root: &Path,
    root_real: &Path,
    dir: &Path,
    out: &mut Vec<(PathBuf, String)>,
) -> std::io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(root, root_real, &path, out)?;
        } else if is_package_file(&name) {
            let rel = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| name.clone());
            tailor_kube::tree::readable_file(root_real, &path)
                .map_err(|why| std::io::Error::other(format!("{rel}: {why}")))?;
            out.push((path, rel));
        }
    }
    Ok(())
}

/// Reads standard input: a ResourceList (its items) or a plain stream. A single `kind: List`
/// document is a List to keep, as a file holding one is, not a list of items. With `defer`,
/// trees are dropped as in [`read_manifest_file`] (a ResourceList's items as they are read).
pub fn read_stdin_text(
    text: String,
    opts: &ParseOptions,
    mut defer: Option<&mut Deferral<'_>>,
) -> Result<Vec<Resource>, KrmResult> {
    // A ResourceList's own functionConfig is ignored in favour of CONFIG.
    let trees = match defer.as_deref_mut() {
        None => Trees::Keep,
        Some(Deferral {
            keys,
            hook: Some(hook),
            render,
        }) => Trees::Prepare {
            hook: &mut **hook,
            defer: Some(keys.clone()),
            render: *render,
        },
        Some(Deferral {
            keys, hook: None, ..
        }) => Trees::Defer(keys.clone()),
    };
    let input = read_input_owned(text, opts, trees)?;
    let mut items = if input.form == InputForm::List {
        read_stream(&input.source, opts)?
    } else {
        input.items
    };
    if let Some(defer) = defer {
        defer_documents(&mut items, defer, opts);
    }
    Ok(items)
}

/// How standalone mode drops the trees of the objects it reads: each object keeps a header
/// with these annotations ([`Resource::defer_document`]). With a hook (what runs as objects
/// are read), only the objects it looked into and left as they were; with `render` too, an
/// object it finished is held as the text it is written as in that output.
pub struct Deferral<'a> {
    pub keys: HeaderKeys,
    pub hook: Option<&'a mut dyn FnMut(&mut Resource) -> Prepared>,
    pub render: Option<Rendering>,
}

/// Drops the trees of the documents among `items` as `defer` says.
pub fn defer_documents(items: &mut [Resource], defer: &mut Deferral<'_>, opts: &ParseOptions) {
    for item in items {
        // An item of a ResourceList read from stdin was handed over already; a `*List`
        // keeps its tree, and no stage runs on it as it is (its items are the objects).
        if item.is_deferred() || item.is_list() || !matches!(item.origin(), Origin::Document { .. })
        {
            continue;
        }
        let prepared = match defer.hook.as_deref_mut() {
            Some(hook) => hook(item),
            None => Prepared::Checked,
        };
        match (prepared, defer.render) {
            (Prepared::Checked, _) => item.defer_document(&defer.keys, opts),
            (Prepared::Finished, Some(rendering)) => {
                let finished = std::mem::replace(item, Resource::new(Node::null(), Origin::None));
                *item = finished.into_rendered(rendering, defer.keys.clone());
            }
            (Prepared::Undo, _) => item.read_again(opts),
            _ => {}
        }
    }
}

/// A file of a package none of whose objects any stage can touch under the run's
/// configuration, any more (standalone mode decides): it is held as its output text alone,
/// without an object per document. Untouched, that is its own text, written back as it is; in
/// a stream, each document as it reads. A package of small manifests is then held in little
/// more memory than its text, and one whose objects the stages finished as they were read in
/// little more than the output.
pub struct PassThrough {
    pub rel: String,
    pub text: SourceText,
    /// Where each document's text in a stream (from after its `---` line) lies in `text`, in
    /// order; none when `text` is the file written back for --output-dir from its objects.
    /// Empty once [`crate::package::Passed`] holds the file: it keeps every file's documents
    /// in one list.
    pub documents: Box<[(u32, u32)]>,
}

impl PassThrough {
    /// `objects` (every document of the file at `rel`, checked) passed through, when `inert`
    /// says no stage can touch any of them and each is untouched or finished as it was read,
    /// held as its text in `rendering`'s output (a stream, or the files of --output-dir).
    /// Untouched, the file is its own output when written back exactly as their texts (they
    /// are its only content, each taken as it is by a stream); else its output is written
    /// now, as the writers write it.
    pub fn of(
        rel: String,
        objects: &[Resource],
        inert: &mut dyn FnMut(&Resource) -> bool,
        rendering: Option<Rendering>,
    ) -> Option<PassThrough> {
        let Some(Origin::Document { source, .. }) = objects.first().map(Resource::origin) else {
            return None;
        };
        let mut documents = Vec::with_capacity(objects.len());
        let mut texts = Vec::with_capacity(objects.len());
        for o in objects {
            let Origin::Document {
                source: s,
                start,
                end,
                file: Some(file),
                ..
            } = o.origin()
            else {
                return None;
            };
            if !Arc::ptr_eq(s, source) || **file != *rel || !inert(o) {
                return None;
            }
            match o.rendered() {
                Some((r, text)) if Some(r) == rendering && !text.is_empty() => texts.push(text),
                None if !o.is_dirty() => {
                    let (from, to) = stream_text_range(source, *start, *end)?;
                    documents.push((u32::try_from(from).ok()?, u32::try_from(to).ok()?));
                    texts.push(source.get(from..to)?);
                }
                _ => return None,
            }
        }
        let refs: Vec<&Resource> = objects.iter().collect();
        let (text, documents) = if covers_source(source, &refs) {
            (source.clone(), documents)
        } else {
            written(rendering?, &refs, &texts)?
        };
        Some(PassThrough {
            rel,
            text,
            documents: documents.into_boxed_slice(),
        })
    }

    /// The texts of `documents` (where this file's documents lie in `text`) as a stream
    /// writes them.
    pub fn stream_documents<'a>(
        &'a self,
        documents: &'a [(u32, u32)],
    ) -> impl Iterator<Item = &'a str> {
        documents
            .iter()
            .map(|&(from, to)| self.text.get(from as usize..to as usize).unwrap_or(""))
    }
}

/// What `rendering`'s output writes for a file of `objects` (their documents' texts in that
/// output, `texts`): for a stream, the texts one after the other, with where each lies; for
/// --output-dir, the file as it is written back (its documents are never written one by one).
/// Held until the output is written: without spare capacity, which for many small texts adds
/// up to as much again.
fn written(
    rendering: Rendering,
    objects: &[&Resource],
    texts: &[&str],
) -> Option<(SourceText, Vec<(u32, u32)>)> {
    match rendering {
        Rendering::Stream => {
            let mut text = String::with_capacity(texts.iter().map(|t| t.len()).sum());
            let mut documents = Vec::with_capacity(texts.len());
            for t in texts {
                let from = u32::try_from(text.len()).ok()?;
                text.push_str(t);
                documents.push((from, u32::try_from(text.len()).ok()?));
            }
            Some((Arc::new(text), documents))
        }
        Rendering::File => {
            let mut text = file_text(objects).into_owned();
            text.shrink_to_fit();
            Some((Arc::new(text), Vec::new()))
        }
        Rendering::Item(_) => None,
    }
}

/// A file of the input that holds no object, written back as it is.
pub struct KeptFile {
    pub rel: String,
    pub text: SourceText,
}

/// One file of an output directory: the objects written to it, or a file's text kept as it
/// was.
pub enum OutputFile<'a> {
    Objects(Vec<&'a Resource>),
    Kept(&'a SourceText),
}

impl OutputFile<'_> {
    /// The file's text, made now. A file whose objects are all untouched and all present is
    /// its source byte for byte; otherwise untouched documents keep their exact text and
    /// changed ones are written from the tree (JSON in a `.json` file).
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            OutputFile::Objects(docs) => file_text(docs),
            OutputFile::Kept(text) => Cow::Borrowed(text.as_str()),
        }
    }
}

/// The files of an output directory, by path relative to it: every object's file, the input
/// files that hold no object, and the files passed through, as they are. Every path is
/// checked here, before anything is written; the writer makes each file's text
/// ([`OutputFile::text`]) and writes it in turn, so the output is never held whole.
pub fn output_dir_files<'a>(
    items: &'a [Resource],
    kept: &'a [KeptFile],
    passed: &'a [PassThrough],
) -> Result<BTreeMap<String, OutputFile<'a>>, String> {
    let mut files: BTreeMap<String, OutputFile<'a>> = group_by_file(items)?
        .into_iter()
        .map(|(rel, docs)| (rel, OutputFile::Objects(docs)))
        .collect();
    for file in kept {
        if files.contains_key(&file.rel) {
            return Err(format!(
                "{}: objects would be written to this file, which holds none of its own; rename one of them",
                file.rel
            ));
        }
        files.insert(file.rel.clone(), OutputFile::Kept(&file.text));
    }
    // The files passed through are written as they are (their rels are their own: standalone
    // mode checks that no object goes to one).
    for file in passed {
        files.insert(file.rel.clone(), OutputFile::Kept(&file.text));
    }
    Ok(files)
}

/// The files the objects are written to, relative path → text, as [`output_dir_files`]
/// writes them (and `tailor diff` compares them).
pub fn output_files(items: &[Resource]) -> Result<BTreeMap<String, String>, String> {
    Ok(group_by_file(items)?
        .into_iter()
        .map(|(rel, docs)| {
            let text = file_text(&docs).into_owned();
            (rel, text)
        })
        .collect())
}

/// The objects of each output file, in order; a path that leaves the output directory is an
/// error.
fn group_by_file(items: &[Resource]) -> Result<BTreeMap<String, Vec<&Resource>>, String> {
    let mut files: BTreeMap<String, Vec<&Resource>> = BTreeMap::new();
    for item in items {
        files.entry(item.output_path()).or_default().push(item);
    }
    if let Some(rel) = files
        .keys()
        .find(|rel| rel.split('/').any(|seg| seg == "..") || rel.starts_with('/'))
    {
        return Err(format!(
            "refusing to write {rel:?} outside the output directory"
        ));
    }
    Ok(files)
}

fn file_text<'s>(docs: &[&'s Resource]) -> Cow<'s, str> {
    // Whole-file copy when nothing in it changed and nothing was dropped from it.
    if let Some(Origin::Document { source, .. }) = docs.first().map(|d| d.origin()) {
        if covers_source(source, docs) {
            return Cow::Borrowed(source.as_str());
        }
    }
    // Sized once: grown by doubling, a file's text would leave the memory it outgrew behind
    // each file held as its output.
    let guess: usize = docs.iter().map(|d| written_len(d) + "---\n\n".len()).sum();
    let mut out = String::with_capacity(guess);
    let mut open: Option<(usize, &Resource)> = None;
    for d in docs {
        if let Some((from, before)) = open {
            end_document(&mut out, from, before);
        }
        let mut text = String::new();
        push_file_document(&mut text, d);
        if open.is_some() && !opens_with_marker(&text) {
            out.push_str("---\n");
        }
        open = Some((out.len(), d));
        out.push_str(&text);
    }
    if let Some((from, last)) = open {
        if let Some(tail) = source_tail(last, docs) {
            end_document(&mut out, from, last);
            out.push_str(tail);
        }
    }
    Cow::Owned(out)
}

/// What follows the last document of `last`'s source file when that is only what an empty
/// document is made of (a final `---` line, comments, blank lines): text no object holds, kept
/// as it is when another document of the file changed. `None` when `last` is not the file's
/// last document among `docs` or nothing follows it.
fn source_tail<'s>(last: &'s Resource, docs: &[&Resource]) -> Option<&'s str> {
    let Origin::Document { source, end, .. } = last.origin() else {
        return None;
    };
    let later = docs.iter().any(|d| {
        matches!(d.origin(), Origin::Document { source: s, end: e, .. }
            if Arc::ptr_eq(s, source) && e > end)
    });
    let tail = source.get(*end..)?;
    (!later && !tail.is_empty() && only_empty_document_text(tail)).then_some(tail)
}

/// About how long `d`'s text is when written back: its output text when it is held as that,
/// else its text in the source (a changed object's may differ).
fn written_len(d: &Resource) -> usize {
    match (d.rendered(), d.origin()) {
        (Some((_, text)), _) => text.len(),
        (None, Origin::Document { start, end, .. }) => end.saturating_sub(*start),
        _ => 0,
    }
}

/// True when every object is untouched, comes from `source`, and together they cover it: what
/// lies between their spans is only what an empty document is made of (blank lines, comments,
/// `---` and `...` markers).
fn covers_source(source: &SourceText, docs: &[&Resource]) -> bool {
    let mut spans = Vec::with_capacity(docs.len());
    for d in docs {
        match d.origin() {
            Origin::Document {
                source: s,
                start,
                end,
                ..
            } if !d.is_dirty() && Arc::ptr_eq(s, source) => spans.push((*start, *end)),
            _ => return false,
        }
    }
    spans.sort_unstable();
    let mut pos = 0;
    for (start, end) in spans {
        if start < pos || !only_empty_document_text(&source[pos..start]) {
            return false;
        }
        pos = end;
    }
    only_empty_document_text(&source[pos..])
}

fn only_empty_document_text(text: &str) -> bool {
    text.lines().all(|line| {
        let t = line.trim();
        t.is_empty()
            || t.starts_with('#')
            || ((line.starts_with("---") || line.starts_with("..."))
                && line[3..]
                    .trim_start()
                    .chars()
                    .next()
                    .is_none_or(|c| c == '#'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One file's objects, as standalone mode reads them.
    fn read(text: &str) -> Vec<Resource> {
        match read_manifest_file(
            Arc::new(text.to_string()),
            "f.yaml",
            &ParseOptions::default(),
            None,
        ) {
            Ok(FileContents::Objects(objects)) => objects,
            _ => panic!("not a file of objects: {text:?}"),
        }
    }

    #[test]
    fn untouched_files_are_copied_whole_even_with_empty_documents() {
        let text = "# lead\napiVersion: v1\nkind: A\nmetadata: {name: a}\n---\n---\n# tail\n";
        let docs = read(text);
        let refs: Vec<&Resource> = docs.iter().collect();
        assert_eq!(file_text(&refs), text);
    }

    /// istio's bookinfo samples end with a `---` line; a change to one document keeps it.
    #[test]
    fn a_final_marker_stays_when_a_document_changes() {
        let text = "apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n---\n# end\n";
        let mut docs = read(text);
        docs[0].set_label("x", "y");
        let refs: Vec<&Resource> = docs.iter().collect();
        let out = file_text(&refs);
        assert!(out.ends_with("metadata: {name: b}\n---\n# end\n"), "{out}");
        // not when the last document is left out (nothing papers over it)
        let out = file_text(&refs[..1]);
        assert!(!out.contains("---"), "{out}");
    }

    #[test]
    fn a_dropped_document_is_not_papered_over() {
        let text = "apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n";
        let docs = read(text);
        let refs: Vec<&Resource> = docs.iter().take(1).collect();
        assert_eq!(
            file_text(&refs),
            "apiVersion: v1\nkind: A\nmetadata: {name: a}\n"
        );
    }

    #[test]
    fn fan_out_prefixes_file_paths_once() {
        let mut docs = read("apiVersion: v1\nkind: A\nmetadata: {name: a}\n");
        docs[0].set_cluster("prod");
        let mut named = docs[0].clone();
        named.set_origin(Origin::None);
        assert_eq!(docs[0].output_path(), "prod/f.yaml");
        assert_eq!(named.output_path(), "prod/a_a.yaml");
    }
}
