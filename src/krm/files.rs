//! Files in and out, for standalone mode (`tailor CONFIG.yaml [FILE|DIR|-]...`): plain YAML
//! files read as objects that remember their file (directories recursively, with paths
//! recorded like `kpt fn source`), and objects written back to their files under
//! `--output-dir`, where a file the run did not change is written back byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tailor_yaml::{parse_stream_with, ParseOptions};

use super::read::read_input;
use super::resource::{Origin, Resource, Source};
use super::results::KrmResult;
use super::write::document_text;

/// Reads one file's documents as resources that remember the file; a document that is not a
/// KRM object is an error naming the file, its line and the document.
pub fn read_file_text(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    read_documents(text, rel_path, opts, true)
}

/// [`read_file_text`], with the KRM check left to the caller when `check_krm` is false (a
/// Fleet bundle drops what Fleet does not deploy, by Fleet's rules, before checking).
pub fn read_documents(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
    check_krm: bool,
) -> Result<Vec<Resource>, KrmResult> {
    let source: Source = Arc::new(text);
    let docs = parse_stream_with(&source, opts)
        .map_err(|e| KrmResult::error(format!("{rel_path}: {e}")))?;
    let mut out = Vec::new();
    for (index, doc) in docs.into_iter().filter(|d| !d.empty).enumerate() {
        let node = doc.root;
        let origin = Origin::Document {
            source: source.clone(),
            start: doc.span.start as usize,
            end: doc.span.end as usize,
            file: Some(rel_path.to_string()),
            index,
            wide_sequences: doc.wide_sequences,
        };
        let res = Resource::new(node, origin);
        let is_list = res.kind().ends_with("List") && res.node().get("items").is_some();
        if check_krm && !is_list {
            check_object(&res)?;
        }
        if is_list {
            // Lists are flattened the way the ResourceList reader does it.
            let text = document_text(&res);
            let input = read_input(&text, opts).map_err(|mut e| {
                e.message = format!("{rel_path}: {}", e.message);
                e
            })?;
            out.extend(input.items);
        } else {
            out.push(res);
        }
    }
    Ok(out)
}

/// An error naming the file, the line and the document when `res` (a document of a file) is
/// not a KRM object.
pub fn check_object(res: &Resource) -> Result<(), KrmResult> {
    let Some((field, message)) = super::read::object_problem(res.node()) else {
        return Ok(());
    };
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
    let r = KrmResult::error(format!("document {index}: {message}")).at_field(field);
    Err(KrmResult {
        file: file.map(|f| (f, index)),
        line,
        ..r
    })
}

/// The functionConfig file of standalone mode: exactly one object.
/// The text comes back with the object, so results about the configuration can give the line
/// of the field they name ([`super::results::locate`]).
pub fn read_config_text(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<(tailor_yaml::Node, Source), KrmResult> {
    let source: Source = Arc::new(text);
    let docs: Vec<_> = parse_stream_with(&source, opts)
        .map_err(|e| KrmResult::error(format!("{rel_path}: {e}")))?
        .into_iter()
        .filter(|d| !d.empty)
        .collect();
    match <[_; 1]>::try_from(docs) {
        Ok([doc]) => Ok((doc.root, source)),
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

/// Every `.yaml`/`.yml` file under `dir`, sorted, with paths relative to `dir`; hidden
/// entries are skipped as `kpt fn source` does.
pub fn yaml_files(dir: &Path) -> std::io::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        if e.file_type()?.is_dir() {
            walk(root, &path, out)?;
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            let rel = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| name.clone());
            out.push((path, rel));
        }
    }
    Ok(())
}

/// Reads standard input: a ResourceList (its items) or a plain stream.
pub fn read_stdin_text(text: &str, opts: &ParseOptions) -> Result<Vec<Resource>, KrmResult> {
    // A ResourceList's own functionConfig is ignored in favour of CONFIG.
    Ok(read_input(text, opts)?.items)
}

/// Writes every object to its file under `out_dir`. A file whose objects are all untouched
/// and all present is copied byte for byte; otherwise untouched documents keep their exact
/// text and changed ones are written from the tree.
pub fn write_output_dir(out_dir: &Path, items: &[Resource]) -> Result<Vec<String>, String> {
    let mut written = Vec::new();
    for (rel, text) in output_files(items)? {
        let path = out_dir.join(&rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(rel);
    }
    Ok(written)
}

/// The files the objects are written to, relative path → text, as [`write_output_dir`]
/// writes them (and `tailor diff` compares them).
pub fn output_files(items: &[Resource]) -> Result<BTreeMap<String, String>, String> {
    let mut files: BTreeMap<String, Vec<&Resource>> = BTreeMap::new();
    for item in items {
        files.entry(item.output_path()).or_default().push(item);
    }
    let mut out = BTreeMap::new();
    for (rel, docs) in files {
        if rel.split('/').any(|seg| seg == "..") || rel.starts_with('/') {
            return Err(format!(
                "refusing to write {rel:?} outside the output directory"
            ));
        }
        out.insert(rel, file_text(&docs));
    }
    Ok(out)
}

fn file_text(docs: &[&Resource]) -> String {
    // Whole-file copy when nothing in it changed and nothing was dropped from it.
    if let Some(Origin::Document { source, .. }) = docs.first().map(|d| d.origin()) {
        if covers_source(source, docs) {
            return source.to_string();
        }
    }
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        match (d.is_dirty(), d.origin()) {
            (
                false,
                Origin::Document {
                    source, start, end, ..
                },
            ) => {
                let text = &source[*start..*end];
                if i > 0 && !text.trim_start().starts_with("---") && !text.contains("\n---") {
                    out.push_str("---\n");
                }
                out.push_str(text);
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            _ => {
                if i > 0 {
                    out.push_str("---\n");
                }
                out.push_str(&document_text(d));
            }
        }
    }
    out
}

/// True when every object is untouched, comes from `source`, and together they cover it: what
/// lies between their spans is only what an empty document is made of (blank lines, comments,
/// `---` and `...` markers).
fn covers_source(source: &Source, docs: &[&Resource]) -> bool {
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

    fn read(text: &str) -> Vec<Resource> {
        read_file_text(text.to_string(), "f.yaml", &ParseOptions::default()).unwrap()
    }

    #[test]
    fn untouched_files_are_copied_whole_even_with_empty_documents() {
        let text = "# lead\napiVersion: v1\nkind: A\nmetadata: {name: a}\n---\n---\n# tail\n";
        let docs = read(text);
        let refs: Vec<&Resource> = docs.iter().collect();
        assert_eq!(file_text(&refs), text);
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
