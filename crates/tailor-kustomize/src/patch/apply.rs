//! kustomize's PatchTransformer over a resource list: each `patches` entry in order, strategic
//! merge by the patch's own id or by target, JSON6902 and merge patches by target.

use tailor_yaml::{Node, Style};

use crate::patch::merge2;
use crate::patch::parse::{source_label, Patch};
use crate::patch::target::{meta_map, PatchTarget};
use crate::patch::ynode;
use crate::patch::{json6902, merge_patch, Error};
use tailor_kube::resid::ResId;

/// One `patches` entry: the parsed patch, its target, kustomize's `options`, and the text it
/// came from (quoted in messages, as kustomize does).
#[derive(Clone, Debug, PartialEq)]
pub struct PatchSpec {
    pub patch: Patch,
    pub target: Option<PatchTarget>,
    pub allow_name_change: bool,
    pub allow_kind_change: bool,
    pub source: String,
}

impl PatchSpec {
    /// A spec from patch text (inline or a file's content) and an optional target.
    /// A patch written as YAML rather than as text (tailor accepts `patch:` as a mapping or a
    /// list): a mapping is a strategic-merge patch, a list a JSON 6902 one. `source` is the
    /// text messages quote.
    pub fn from_node(
        node: &tailor_yaml::Node,
        target: Option<PatchTarget>,
        source: &str,
    ) -> Result<PatchSpec, Error> {
        Ok(PatchSpec {
            patch: crate::patch::parse::patch_from_node(node, source)?,
            target,
            allow_name_change: false,
            allow_kind_change: false,
            source: source.to_string(),
        })
    }

    pub fn from_text(text: &str, target: Option<PatchTarget>) -> Result<PatchSpec, Error> {
        Ok(PatchSpec {
            patch: crate::patch::parse_patch(text)?,
            target,
            allow_name_change: false,
            allow_kind_change: false,
            source: text.trim().to_string(),
        })
    }
}

/// What applying patches did beyond editing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Resources removed by `$patch: delete`.
    pub deleted: Vec<ResId>,
    /// Indices of the patches whose `target` selected no resource: kustomize passes over
    /// them silently, a caller may want to warn.
    pub unmatched: Vec<usize>,
    /// For each patch, how many resources it was applied to.
    pub applied: Vec<usize>,
}

/// The outcome of one strategic merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merged {
    Kept,
    /// The patch deleted the whole object (`$patch: delete` at its top).
    Deleted,
}

/// kyaml's strategic merge of `patch` into `target` (no kustomize id handling): the schema is
/// found from the target's apiVersion and kind. On `Deleted` the target is left unchanged.
pub fn strategic_merge(target: &mut Node, patch: &Node) -> Result<Merged, Error> {
    let dest = ynode::from_node(target).map_err(Error::new)?;
    let src = ynode::from_node(patch).map_err(Error::new)?;
    match merge2::merge(src, dest).map_err(Error::new)? {
        Some(n) if !ynode::is_nil_or_empty(Some(&n)) => {
            *target = ynode::to_node(&n);
            Ok(Merged::Kept)
        }
        _ => Ok(Merged::Deleted),
    }
}

/// Applies `patches` in order, as kustomize's `patches:` field does. The resources are edited
/// in place: on error they may be partly patched, and callers discard them (kustomize fails
/// the whole build).
pub fn apply_patches(resources: &mut Vec<Node>, patches: &[PatchSpec]) -> Result<Report, Error> {
    let mut report = Report::default();
    // earlier ids per resource (kustomize's previousNames/Namespaces/Kinds build annotations)
    let mut previous: Vec<Vec<ResId>> = vec![Vec::new(); resources.len()];
    for (k, spec) in patches.iter().enumerate() {
        let mut deleted = Vec::new();
        let applied = apply_one(resources, &mut previous, &mut deleted, spec)?;
        if applied == 0 {
            report.unmatched.push(k);
        }
        report.applied.push(applied);
        if deleted.is_empty() {
            continue;
        }
        deleted.sort_unstable();
        deleted.dedup();
        // A deleting merge leaves its target as it was, so these are the ids before the entry.
        for &i in &deleted {
            report.deleted.push(ResId::of(&resources[i]));
        }
        let mut i = 0;
        resources.retain(|_| {
            let keep = deleted.binary_search(&i).is_err();
            i += 1;
            keep
        });
        let mut i = 0;
        previous.retain(|_| {
            let keep = deleted.binary_search(&i).is_err();
            i += 1;
            keep
        });
    }
    Ok(report)
}

fn apply_one(
    resources: &mut [Node],
    previous: &mut [Vec<ResId>],
    deleted: &mut Vec<usize>,
    spec: &PatchSpec,
) -> Result<usize, Error> {
    let label = source_label(&spec.source);
    match &spec.patch {
        Patch::Strategic(docs) => {
            if let Some(target) = &spec.target {
                if docs.len() > 1 {
                    return Err(Error::new(format!("Multiple Strategic-Merge Patches in one `patches` entry is not allowed to set `patches.target` field: {label}")));
                }
                let selected = select(resources, previous, deleted, target).map_err(|e| {
                    Error::new(format!(
                        "unable to find patch target {} in `resources`: {e}",
                        tailor_go::strconv::quote(&target.id_string())
                    ))
                })?;
                let matched = selected.len();
                // An empty patch selects as any other and changes nothing.
                let Some(patch) = docs.first() else {
                    return Ok(matched);
                };
                for i in selected {
                    let mut copy = patch.clone();
                    copy_merge_metadata(&mut copy);
                    // `patchCopy.SetGvk(res.GetGvk())` then the patch's own kind again
                    if let Some(av) = resources[i].get("apiVersion").cloned() {
                        copy.set("apiVersion", av);
                    }
                    smp_resource(&mut resources[i], &copy, spec, &mut previous[i], i, deleted)?;
                }
                return Ok(matched);
            }
            for patch in docs {
                let id = ResId::of(patch);
                let matches: Vec<usize> = (0..resources.len())
                    .filter(|i| !deleted.contains(i))
                    .filter(|&i| {
                        ResId::of(&resources[i]).equals(&id)
                            || previous[i].iter().any(|p| p.equals(&id))
                    })
                    .collect();
                let i = match matches.as_slice() {
                    [i] => *i,
                    [] => {
                        return Err(Error::new(format!(
                            "no resource matches strategic merge patch \"{id}\": no matches for Id {id}; failed to find unique target for patch {id}"
                        )))
                    }
                    _ => {
                        return Err(Error::new(format!(
                            "no resource matches strategic merge patch \"{id}\": multiple matches for Id {id}; failed to find unique target for patch {id}"
                        )))
                    }
                };
                smp_resource(&mut resources[i], patch, spec, &mut previous[i], i, deleted)?;
            }
            Ok(docs.len())
        }
        Patch::Json6902(ops) => {
            let Some(target) = &spec.target else {
                return Err(Error::new(format!(
                    "must specify a target for JSON patch {label}"
                )));
            };
            let selected = select(resources, previous, deleted, target)?;
            let matched = selected.len();
            for i in selected {
                store_previous_id(&mut previous[i], &resources[i]);
                let id = ResId::of(&resources[i]);
                let res = &mut resources[i];
                // During a kustomize build every resource carries internal annotations, so
                // `metadata.annotations` always exists for the patch; drop it again if unused.
                let added = add_annotations_map(res);
                json6902(res, ops).map_err(|e| Error::new(format!("{e} (patching {id})")))?;
                stringify_annotations(res);
                if added {
                    drop_empty_annotations(res);
                }
                if !res.is_mapping() {
                    return Err(Error::new(format!(
                        "json: cannot unmarshal {} into Go value of type map[string]interface {{}} (patching {id})",
                        if res.is_sequence() { "array" } else { "value" },
                    )));
                }
            }
            Ok(matched)
        }
        Patch::MergePatch(patch) => {
            let Some(target) = &spec.target else {
                return Err(Error::new(format!(
                    "must specify a target for JSON merge patch {label}"
                )));
            };
            let selected = select(resources, previous, deleted, target)?;
            let matched = selected.len();
            for i in selected {
                merge_patch(&mut resources[i], patch);
            }
            Ok(matched)
        }
    }
}

fn select(
    resources: &[Node],
    previous: &[Vec<ResId>],
    deleted: &[usize],
    target: &PatchTarget,
) -> Result<Vec<usize>, Error> {
    let compiled = target.compile()?;
    let mut out = Vec::new();
    for (i, r) in resources.iter().enumerate() {
        if deleted.contains(&i) {
            continue;
        }
        if compiled.matches(r, &previous[i])? {
            out.push(i);
        }
    }
    Ok(out)
}

/// `StorePreviousId`: remember the current id (with its effective namespace) as an old one.
fn store_previous_id(prev: &mut Vec<ResId>, res: &Node) {
    let mut id = ResId::of(res);
    id.namespace = id.effective_namespace().to_string();
    prev.push(id);
}

/// `Resource.ApplySmPatch`: merge, then put back kind, name and namespace unless allowed to
/// change.
fn smp_resource(
    res: &mut Node,
    patch: &Node,
    spec: &PatchSpec,
    prev: &mut Vec<ResId>,
    index: usize,
    deleted: &mut Vec<usize>,
) -> Result<(), Error> {
    let id = ResId::of(res);
    if spec.allow_name_change || spec.allow_kind_change {
        store_previous_id(prev, res);
    }
    let merged =
        strategic_merge(res, patch).map_err(|e| Error::new(format!("{e} (patching {id})")))?;
    if merged == Merged::Deleted {
        deleted.push(index);
        return Ok(());
    }
    // a patch element with a repeated key can land in the result, which kustomize then
    // cannot decode
    crate::patch::parse::check_duplicate_keys(res)
        .map_err(|e| Error::new(format!("{e} (patching {id})")))?;
    if !spec.allow_kind_change {
        set_top_scalar(res, "kind", &id.gvk.kind);
    }
    if !spec.allow_name_change {
        set_meta(res, "name", &id.name);
    }
    set_meta(res, "namespace", &id.namespace);
    Ok(())
}

fn set_top_scalar(res: &mut Node, key: &str, text: &str) {
    match res.get_mut(key) {
        Some(v) if v.as_scalar() == Some(text) && !v.is_null() => {}
        Some(v) => {
            let style = v.style;
            *v = Node::scalar(
                text,
                if matches!(style, Style::DoubleQuoted | Style::SingleQuoted) {
                    style
                } else {
                    Style::Any
                },
            );
        }
        None if !text.is_empty() => {
            res.set(key, Node::string(text));
        }
        None => {}
    }
}

/// `SetName` / `SetNamespace` (an empty namespace clears the field).
fn set_meta(res: &mut Node, key: &str, text: &str) {
    if text.is_empty() {
        if key == "namespace" {
            if let Some(m) = res.get_mut("metadata") {
                m.remove("namespace");
            }
        }
        return;
    }
    let Some(meta) = res.entry_or_insert("metadata", Node::mapping) else {
        return;
    };
    if !meta.is_mapping() {
        *meta = Node::mapping();
    }
    set_top_scalar(meta, key, text);
}

/// `CopyMergeMetaDataFieldsFrom` on the copy of a targeted patch: labels and annotations pass
/// through `map[string]string` (sorted, all strings, removed when empty), and an empty
/// namespace is removed.
fn copy_merge_metadata(patch: &mut Node) {
    if !patch.is_mapping() {
        return;
    }
    let labels = meta_map(patch, "labels");
    let annotations = meta_map(patch, "annotations");
    let Some(meta) = patch.entry_or_insert("metadata", Node::mapping) else {
        return;
    };
    if !meta.is_mapping() {
        return;
    }
    for (field, map) in [("labels", labels), ("annotations", annotations)] {
        meta.remove(field);
        if map.is_empty() {
            continue;
        }
        let mut m = Node::mapping();
        for (k, v) in map {
            m.set(&k, string_node(v));
        }
        meta.set(field, m);
    }
    let ns_empty = meta
        .get("namespace")
        .is_none_or(|n| n.is_null() || n.as_scalar() == Some(""));
    if ns_empty {
        meta.remove("namespace");
    }
}

fn add_annotations_map(res: &mut Node) -> bool {
    match res.get_mut("metadata") {
        Some(m) if m.is_mapping() && m.get("annotations").is_none_or(Node::is_null) => {
            m.set("annotations", Node::mapping());
            true
        }
        _ => false,
    }
}

fn drop_empty_annotations(res: &mut Node) {
    if let Some(m) = res.get_mut("metadata") {
        if m.get("annotations")
            .and_then(Node::pairs)
            .is_some_and(<[_]>::is_empty)
        {
            m.remove("annotations");
        }
    }
}

/// kustomize re-sets the annotations through `map[string]string` after a JSON6902 patch: every
/// value becomes a string (a collection becomes `""`), a repeated key keeps its last value, and
/// anything that is not a map is dropped.
fn stringify_annotations(res: &mut Node) {
    let Some(meta) = res.get_mut("metadata").filter(|m| m.is_mapping()) else {
        return;
    };
    let Some(ann) = meta.get("annotations") else {
        return;
    };
    let Some(pairs) = ann.pairs() else {
        meta.remove("annotations");
        return;
    };
    let mut out: Vec<tailor_yaml::Pair> = Vec::with_capacity(pairs.len());
    for p in pairs {
        let Some(key) = p.key.as_scalar() else {
            continue;
        };
        let value = match (&p.value.value, p.value.as_str()) {
            (_, Some(_)) => p.value.clone(),
            (tailor_yaml::Value::Scalar(text), None) => string_node(text.clone()),
            _ => string_node(String::new()),
        };
        out.retain(|q| q.key.as_scalar() != Some(key));
        out.push(tailor_yaml::Pair {
            key: p.key.clone(),
            value,
        });
    }
    if let Some(p) = meta.get_mut("annotations").and_then(Node::pairs_mut) {
        *p = out;
    }
}

/// `NewStringRNode`: a `!!str` that go-yaml prints double-quoted when plain text would read as
/// another type; later merges copy that quoting (kyaml keeps the destination's style).
fn string_node(text: impl Into<tailor_yaml::Text>) -> Node {
    let text = text.into();
    let ambiguous = Node::plain(text.as_str()).as_str().is_none();
    Node::scalar(
        text,
        if ambiguous {
            Style::DoubleQuoted
        } else {
            Style::Any
        },
    )
}
