//! Fleet yaml overlays (`render/patch/patch.go`, `docs/semantics/fleet.md` §3): for each name
//! in `yaml.overlays`, in order, every file under `overlays/<name>/` either replaces (or adds)
//! the bundle file at the same relative path, removes it (an empty file), or, when its base name
//! contains `_patch.`, patches the file whose name has the first `_patch.` replaced by `.`.
//!
//! Fleet walks an overlay's files in Go map order, which is random. tailor decides
//! (`docs/design.md`): within one overlay, whole-file replacements and removals first, then
//! `_patch.` files, each group in sorted path order. A patch against a file with several
//! documents, an emptied file, or a missing file is an error (Fleet would keep only the first
//! document, or fail on the missing file). Later overlays see the results of earlier ones.
//!
//! [`plan_overlays`] computes the steps; [`apply_overlays`] runs them over the files, calling
//! a patch engine the caller supplies, so this crate does not depend on one.

use std::fmt;

use tailor_yaml::Node;

use crate::patch_kind::{fleet_patch_kind_for, PatchKind};

/// The annotation kpt/kustomize use for an item's file path.
pub const PATH_ANNOTATION: &str = "config.kubernetes.io/path";
/// The newer internal spelling of the same.
pub const INTERNAL_PATH_ANNOTATION: &str = "internal.config.kubernetes.io/path";

/// One file of the bundle: its path relative to the bundle root and its documents in order.
/// An overlay file with no documents is a removal.
#[derive(Debug, Clone, PartialEq)]
pub struct BundleFile {
    pub path: String,
    pub docs: Vec<Node>,
}

/// What one step does to its target file.
#[derive(Debug, Clone, PartialEq)]
pub enum OverlayOp {
    /// Replace the file's documents (or add the file).
    Replace(Vec<Node>),
    /// Fleet's empty replacement file: the file's objects are not deployed.
    Remove,
    /// Patch the file's only document. `kind` is decided against the document as the plan
    /// expects it; [`apply_overlays`] decides again against the actual document.
    Patch { kind: PatchKind, patch: Node },
}

/// One operation on one bundle file.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayStep {
    /// The overlay name (an entry of `yaml.overlays`).
    pub overlay: String,
    /// The overlay file, e.g. `overlays/scale3/frontend-deployment_patch.yaml`.
    pub source: String,
    /// The bundle file it acts on, e.g. `frontend-deployment.yaml`.
    pub target: String,
    pub op: OverlayOp,
}

/// An overlay failure, naming the overlay file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayError {
    /// The overlay file (or the bundle file, for patch engine failures).
    pub file: String,
    pub message: String,
}

impl fmt::Display for OverlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for OverlayError {}

fn err(file: &str, message: impl Into<String>) -> OverlayError {
    OverlayError {
        file: file.to_string(),
        message: message.into(),
    }
}

/// Splits `overlays/<set>/<rel>` into `(set, rel)` at the first slash after `overlays/`.
/// Overlay names may themselves contain `/`; [`plan_overlays`] matches names by prefix, so a
/// file under `overlays/a/b/` belongs to both `a` and `a/b`. Every path under `overlays/`
/// (even a lone `overlays/x.yaml`, which yields `None`) is dropped from the output by Fleet;
/// test that with [`is_under_overlays`].
pub fn is_overlay_path(path: &str) -> Option<(String, String)> {
    let clean = tailor_go::path::clean(path);
    let rest = clean.strip_prefix("overlays/")?;
    let (set, rel) = rest.split_once('/')?;
    Some((set.to_string(), rel.to_string()))
}

/// True for every path Fleet drops after applying overlays (anything under `overlays/`).
pub fn is_under_overlays(path: &str) -> bool {
    tailor_go::path::clean(path).starts_with("overlays/")
}

/// The path of an item: `internal.config.kubernetes.io/path`, else
/// `config.kubernetes.io/path`, cleaned.
pub fn item_path(item: &Node) -> Option<String> {
    let ann = item.get_path(&["metadata", "annotations"])?;
    ann.get_str(INTERNAL_PATH_ANNOTATION)
        .or_else(|| ann.get_str(PATH_ANNOTATION))
        .filter(|p| !p.is_empty())
        .map(tailor_go::path::clean)
}

/// The base file a `_patch.` file patches: `dir(rel)/basename` with the first `_patch.`
/// replaced by `.`; `None` when `rel` is not a patch file.
pub fn patch_target(rel: &str) -> Option<String> {
    let (dir, base) = match rel.rsplit_once('/') {
        Some((d, b)) => (Some(d), b),
        None => (None, rel),
    };
    let at = base.find("_patch.")?;
    let target = format!("{}.{}", &base[..at], &base[at + "_patch.".len()..]);
    Some(match dir {
        Some(d) => format!("{d}/{target}"),
        None => target,
    })
}

/// What the planner knows about a file while it simulates the steps.
#[derive(Clone)]
struct FileState {
    path: String,
    docs: usize,
    first: Option<Node>,
}

impl FileState {
    fn of(path: String, docs: &[Node]) -> FileState {
        FileState {
            path,
            docs: docs.len(),
            first: docs.first().cloned(),
        }
    }
}

/// Can a patch be applied to this file? Errors name the patch file.
fn check_patchable(
    state: Option<&FileState>,
    source: &str,
    target: &str,
) -> Result<(), OverlayError> {
    match state {
        None => Err(err(source, format!("failed to find base file {target} to patch"))),
        Some(s) if s.docs == 0 => Err(err(
            source,
            format!("cannot patch {target}: it has no documents (removed by an overlay or empty)"),
        )),
        Some(s) if s.docs > 1 => Err(err(
            source,
            format!(
                "cannot patch {target}: it has {} documents; Fleet would patch only the first and drop the rest, tailor refuses",
                s.docs
            ),
        )),
        Some(_) => Ok(()),
    }
}

/// Plans the overlays `names` (in order, repeats applied again) over `base` files, using the
/// files under `overlays/` in `overlay_files`. Base files whose path is under `overlays/` are
/// ignored as targets' originals only if nothing names them.
pub fn plan_overlays(
    base: &[BundleFile],
    overlay_files: &[BundleFile],
    names: &[String],
) -> Result<Vec<OverlayStep>, OverlayError> {
    let mut state: Vec<FileState> = base
        .iter()
        .map(|f| FileState::of(tailor_go::path::clean(&f.path), &f.docs))
        .collect();
    let mut steps = Vec::new();
    for name in names {
        let prefix = format!("overlays/{}/", name.trim_matches('/'));
        let mut replaces: Vec<(String, String, &BundleFile)> = Vec::new();
        let mut patches: Vec<(String, String, &BundleFile)> = Vec::new();
        for f in overlay_files {
            let src = tailor_go::path::clean(&f.path);
            let Some(rel) = src.strip_prefix(&prefix) else {
                continue;
            };
            match patch_target(rel) {
                Some(target) => patches.push((src.clone(), target, f)),
                None => replaces.push((src.clone(), rel.to_string(), f)),
            }
        }
        replaces.sort_by(|a, b| a.0.cmp(&b.0));
        patches.sort_by(|a, b| a.0.cmp(&b.0));
        for (source, target, f) in replaces {
            let op = if f.docs.is_empty() {
                OverlayOp::Remove
            } else {
                OverlayOp::Replace(f.docs.clone())
            };
            let new_state = FileState::of(target.clone(), &f.docs);
            match state.iter_mut().find(|s| s.path == target) {
                Some(s) => *s = new_state,
                None => state.push(new_state),
            }
            steps.push(OverlayStep {
                overlay: name.clone(),
                source,
                target,
                op,
            });
        }
        for (source, target, f) in patches {
            let current = state.iter().find(|s| s.path == target);
            check_patchable(current, &source, &target)?;
            let patch = match f.docs.as_slice() {
                [one] => one.clone(),
                [] => return Err(err(&source, "the patch file is empty")),
                _ => {
                    return Err(err(
                        &source,
                        format!(
                            "the patch file has {} documents; a patch file holds one",
                            f.docs.len()
                        ),
                    ))
                }
            };
            let first = current.and_then(|s| s.first.as_ref());
            let kind = match first {
                Some(doc) => fleet_patch_kind_for(&patch, doc),
                None => fleet_patch_kind_for(&patch, &Node::mapping()),
            };
            steps.push(OverlayStep {
                overlay: name.clone(),
                source,
                target,
                op: OverlayOp::Patch { kind, patch },
            });
        }
    }
    Ok(steps)
}

/// Runs `steps` over `files`. Replacements of missing files are appended in step order;
/// removed files stay with no documents (so the caller can tell what was removed). Before
/// each patch the kind is decided again against the current document, then
/// `patcher(kind, doc, patch)` applies it. Patch engine errors are reported against the
/// overlay file.
pub fn apply_overlays(
    files: &mut Vec<BundleFile>,
    steps: &[OverlayStep],
    patcher: &mut dyn FnMut(PatchKind, &mut Node, &Node) -> Result<(), String>,
) -> Result<(), OverlayError> {
    for step in steps {
        let pos = files
            .iter()
            .position(|f| tailor_go::path::clean(&f.path) == step.target);
        match &step.op {
            OverlayOp::Replace(docs) => match pos {
                Some(i) => files[i].docs = docs.clone(),
                None => files.push(BundleFile {
                    path: step.target.clone(),
                    docs: docs.clone(),
                }),
            },
            OverlayOp::Remove => match pos {
                Some(i) => files[i].docs.clear(),
                None => files.push(BundleFile {
                    path: step.target.clone(),
                    docs: Vec::new(),
                }),
            },
            OverlayOp::Patch { patch, .. } => {
                let state = pos.map(|i| FileState::of(step.target.clone(), &files[i].docs));
                check_patchable(state.as_ref(), &step.source, &step.target)?;
                let Some(doc) = pos.and_then(|i| files[i].docs.first_mut()) else {
                    return Err(err(&step.source, "internal: patch target vanished"));
                };
                let kind = fleet_patch_kind_for(patch, doc);
                patcher(kind, doc, patch).map_err(|m| {
                    err(
                        &step.source,
                        format!("{} patch of {} failed: {m}", kind.as_str(), step.target),
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// Fleet reads the files overlays leave as raw YAML again (`rawyaml.ToObjects`): empty
/// documents (`{}`, `null`: what a strategic merge `$patch: delete` of the whole object leaves)
/// go, a document without `kind` drops the whole file, and objects without `apiVersion` go.
/// Applies that to the files `steps` touched; the sentences say what went and why.
pub fn reread_as_raw_yaml(files: &mut [BundleFile], steps: &[OverlayStep]) -> Vec<String> {
    let mut notes = Vec::new();
    for f in files.iter_mut() {
        let path = tailor_go::path::clean(&f.path);
        if !steps.iter().any(|s| s.target == path) {
            continue;
        }
        let empty = |s: Option<&str>| !matches!(s, Some(x) if !x.is_empty());
        f.docs
            .retain(|d| !d.is_null() && !d.pairs().is_some_and(<[_]>::is_empty));
        if let Some(i) = f.docs.iter().position(|d| empty(d.get_str("kind"))) {
            notes.push(format!(
                "{path}: not deployed after the overlays: document {i} has no kind, and Fleet skips a file with such a document"
            ));
            f.docs.clear();
            continue;
        }
        let before = f.docs.len();
        f.docs.retain(|d| !empty(d.get_str("apiVersion")));
        if f.docs.len() < before {
            notes.push(format!(
                "{path}: an object without apiVersion after the overlays is not deployed by Fleet"
            ));
        }
    }
    notes
}

/// Groups items into bundle files by [`item_path`], each file at the place of its first item,
/// documents in item order. Items without a path each become their own file with an empty
/// path (no overlay can name them).
pub fn group_by_path(items: Vec<Node>) -> Vec<BundleFile> {
    let mut files: Vec<BundleFile> = Vec::new();
    for item in items {
        match item_path(&item) {
            Some(p) => match files.iter_mut().find(|f| f.path == p) {
                Some(f) => f.docs.push(item),
                None => files.push(BundleFile {
                    path: p,
                    docs: vec![item],
                }),
            },
            None => files.push(BundleFile {
                path: String::new(),
                docs: vec![item],
            }),
        }
    }
    files
}

/// Splits files into the bundle's files and the overlay files (everything under `overlays/`,
/// which Fleet never deploys).
pub fn split_overlay_files(files: Vec<BundleFile>) -> (Vec<BundleFile>, Vec<BundleFile>) {
    files.into_iter().partition(|f| !is_under_overlays(&f.path))
}

#[cfg(test)]
mod tests;
