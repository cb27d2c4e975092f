//! Standalone mode for shell pipes: `tailor CONFIG.yaml [FILE|DIR|-]...` reads plain YAML
//! files (directories recursively, with paths recorded like `kpt fn source`), and writes a
//! stream, a ResourceList, or the files themselves under `--output-dir`, where a file the run
//! did not change is written back byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tailor_yaml::{parse_stream_with, ParseOptions};

use super::read::{read_input, InputForm};
use super::resource::{Origin, Resource};
use super::results::KrmResult;
use super::write::document_text;

/// Reads one file's documents as resources that remember the file.
pub fn read_file_text(
    text: String,
    rel_path: &str,
    opts: &ParseOptions,
) -> Result<Vec<Resource>, KrmResult> {
    let source: Arc<str> = Arc::from(text);
    let docs = parse_stream_with(&source, opts)
        .map_err(|e| KrmResult::error(format!("{rel_path}: {e}")))?;
    let mut out = Vec::new();
    for (index, doc) in docs.into_iter().filter(|d| !d.empty).enumerate() {
        if !doc.root.is_mapping() {
            return Err(KrmResult::error(format!(
                "{rel_path}: document {index} is not a KRM object (a mapping with apiVersion, kind and metadata)"
            )));
        }
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
    let input = read_input(text, opts)?;
    if input.form != InputForm::Stream && input.function_config.is_some() {
        // A ResourceList's own functionConfig is ignored in favour of CONFIG.
    }
    Ok(input.items)
}

/// The file each output object goes to, relative to the output directory.
fn output_path(res: &Resource) -> String {
    let base = res
        .path()
        .map(str::to_string)
        .unwrap_or_else(|| res.default_path());
    match res.cluster() {
        Some(c) if !base.starts_with(&format!("{c}/")) => format!("{c}/{base}"),
        _ => base,
    }
}

/// Writes every object to its file under `out_dir`. A file whose objects are all untouched
/// and all present is copied byte for byte; otherwise untouched documents keep their exact
/// text and changed ones are written from the tree.
pub fn write_output_dir(out_dir: &Path, items: &[Resource]) -> Result<Vec<String>, String> {
    let mut files: BTreeMap<String, Vec<&Resource>> = BTreeMap::new();
    for item in items {
        files.entry(output_path(item)).or_default().push(item);
    }
    let mut written = Vec::new();
    for (rel, docs) in files {
        if rel.split('/').any(|seg| seg == "..") || rel.starts_with('/') {
            return Err(format!(
                "refusing to write {rel:?} outside the output directory"
            ));
        }
        let text = file_text(&docs);
        let path = out_dir.join(&rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(rel);
    }
    Ok(written)
}

fn file_text(docs: &[&Resource]) -> String {
    // Whole-file copy when nothing in it changed.
    if let Some(Origin::Document { source, .. }) = docs.first().map(|d| d.origin()) {
        let all_same_source = docs.iter().all(|d| {
            !d.is_dirty()
                && matches!(d.origin(), Origin::Document { source: s, .. } if Arc::ptr_eq(s, source))
        });
        let count_in_source = parse_stream_with(source, &ParseOptions::default())
            .map(|d| d.iter().filter(|d| !d.empty).count())
            .unwrap_or(usize::MAX);
        if all_same_source && count_in_source == docs.len() {
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
