//! kustomize v5.5.0 `replacement.Filter` over a slice of resource nodes.

use std::collections::{BTreeMap, BTreeSet};

use tailor_kube::LabelSelector;
use tailor_yaml::{resolve::resolve_plain, Node, ScalarKind, Style, Value};

use crate::replacements::path::{
    is_null, is_untagged, kind_of, lookup, node_at, node_at_mut, raw_value, split_path,
    untagged_plain, Kind, Matcher, RegexCache, UNTAGGED,
};
use crate::replacements::types::{
    FieldOptions, ResId, Selector, Source, TargetSelector, DEFAULT_FIELD_PATH,
};
use crate::replacements::{Error, Replacement};
use index::TargetIndex;

mod index;

/// The ids each resource had before earlier transformers of the same build renamed or moved
/// it (kustomize keeps them in `previousNames`/`previousKinds`/`previousNamespaces` build
/// annotations), index for index with the resources; shorter means none for the rest.
pub type EarlierIds<'a> = &'a [&'a [tailor_kube::resid::ResId]];

const PREVIOUS_NAMES: &str = "internal.config.kubernetes.io/previousNames";
const PREVIOUS_NAMESPACES: &str = "internal.config.kubernetes.io/previousNamespaces";
const PREVIOUS_KINDS: &str = "internal.config.kubernetes.io/previousKinds";

/// Applies `replacements` in order, like kustomize v5.5.0 (plus `sourceValue` and
/// `source.property`). Stops at the first error; the resources may then be partly edited and
/// must be discarded, as kustomize discards its output.
///
/// After the last replacement, scalars whose kept tag no longer fits their text (a `!!int`
/// target that received `abc`) fail the run with the error kubectl kustomize prints when it
/// writes such a resource.
pub fn apply(
    resources: &mut [Node],
    replacements: &[Replacement],
    props: &BTreeMap<String, String>,
) -> Result<(), Error> {
    apply_reporting(resources, replacements, props).map(drop)
}

/// What [`apply_reporting`] did besides its edits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The indices of the resources it wrote to.
    pub written: BTreeSet<usize>,
    /// `(replacement, target)` indices of the targets whose `select` chose no resource:
    /// kustomize passes over them silently, a caller may want to warn.
    pub unmatched: Vec<(usize, usize)>,
    /// For each replacement, how many resources it wrote to.
    pub per_replacement: Vec<usize>,
}

/// [`apply`], reporting which resources it wrote to (so that a caller can move its trees in and
/// out instead of cloning every one to find what changed) and which targets matched nothing.
/// On error some resources may be half edited: callers discard them. The error names the
/// replacement it came from ([`Error::replacement`]).
pub fn apply_reporting(
    resources: &mut [Node],
    replacements: &[Replacement],
    props: &BTreeMap<String, String>,
) -> Result<Applied, Error> {
    apply_with_earlier_ids(resources, replacements, props, &[])
}

/// [`apply_reporting`] where each resource is also known by the ids it had before earlier
/// renames (`earlier`): a source, target or reject selecting an earlier name selects it, as
/// kustomize's `MakeResIds` adds the previous ids of its build annotations.
pub fn apply_with_earlier_ids(
    resources: &mut [Node],
    replacements: &[Replacement],
    props: &BTreeMap<String, String>,
    earlier: EarlierIds<'_>,
) -> Result<Applied, Error> {
    let mut applied = Applied::default();
    let mut cache = RegexCache::default();
    let mut index = TargetIndex::new(resources, earlier);
    let mut result = Ok(());
    for (i, r) in replacements.iter().enumerate() {
        let mut unmatched = Vec::new();
        let mut written = BTreeSet::new();
        let outcome = apply_one(
            resources,
            r,
            (props, earlier, &mut index),
            &mut written,
            &mut unmatched,
            &mut cache,
        );
        applied.per_replacement.push(written.len());
        applied.written.extend(written);
        match outcome {
            Ok(()) => applied
                .unmatched
                .extend(unmatched.into_iter().map(|t| (i, t))),
            Err(e) => {
                result = Err(Error::new(e).in_replacement(i));
                break;
            }
        }
    }
    for &i in &applied.written {
        if let Some(res) = resources.get_mut(i) {
            strip_untagged(res);
        }
    }
    result?;
    for &i in &applied.written {
        if let Some(res) = resources.get(i) {
            check_tags(res).map_err(Error::new)?;
        }
    }
    Ok(applied)
}

/// Where the value of a replacement lives: in a resource (kyaml keeps a pointer to the live
/// source node, so targets that change it change what later targets receive) or owned.
enum Val {
    Live { res: usize, path: Vec<usize> },
    Owned(Node),
}

impl Val {
    fn get<'a>(&'a self, resources: &'a [Node]) -> Option<&'a Node> {
        match self {
            Val::Live { res, path } => node_at(resources.get(*res)?, path),
            Val::Owned(n) => Some(n),
        }
    }
}

fn apply_one(
    resources: &mut [Node],
    r: &Replacement,
    (props, earlier, index): (&BTreeMap<String, String>, EarlierIds<'_>, &mut TargetIndex),
    touched: &mut BTreeSet<usize>,
    unmatched: &mut Vec<usize>,
    cache: &mut RegexCache,
) -> Result<(), String> {
    if r.source.is_some() && r.source_value.is_some() {
        return Err("value and resource selectors are mutually exclusive".into());
    }
    let Some(targets) = &r.targets else {
        return Err("replacements must specify a source and at least one target".into());
    };
    let mut value = match (&r.source, &r.source_value) {
        (_, Some(v)) => Val::Owned(untagged_plain(v.clone())),
        (Some(src), None) => source_value(resources, src, (props, earlier), index)?,
        (None, None) => {
            return Err("replacements must specify a source and at least one target".into())
        }
    };
    for (j, t) in targets.iter().enumerate() {
        if !apply_target(resources, &mut value, t, (earlier, index), (touched, cache))? {
            unmatched.push(j);
        }
    }
    Ok(())
}

fn source_value(
    resources: &[Node],
    src: &Source,
    (props, earlier): (&BTreeMap<String, String>, EarlierIds<'_>),
    index: &TargetIndex,
) -> Result<Val, String> {
    if let Some(name) = &src.property {
        if !src.id.is_empty() || !src.field_path.is_empty() {
            return Err(format!(
                "source.property {} cannot be combined with a resource selector or fieldPath",
                tailor_go::strconv::quote(name)
            ));
        }
        let Some(v) = props.get(name) else {
            if props.is_empty() {
                return Err(format!(
                    "replacement source property {} needs a destination cluster, and none is named: set spec.cluster or spec.clusters",
                    tailor_go::strconv::quote(name)
                ));
            }
            let known: Vec<&str> = props.keys().map(String::as_str).collect();
            let near = tailor_kube::json::suggest(name, &known)
                .map(|n| format!(" (did you mean {n:?}?)"))
                .unwrap_or_default();
            return Err(format!(
                "unknown cluster property {} in replacement source{near}; the destination's properties are {}",
                tailor_go::strconv::quote(name),
                known.join(", ")
            ));
        };
        let node = untagged_plain(v.clone());
        return refine(node, src.options.as_ref()).map(Val::Owned);
    }
    let mut selected: Option<usize> = None;
    let order = index
        .candidates(&src.id)
        .unwrap_or_else(|| (0..resources.len()).collect());
    for i in order {
        let res = &resources[i];
        let ids = Ids::of(res, earlier_of(earlier, i))
            .map_err(|e| format!("error getting node IDs: {e}"))?;
        if ids.any(|id| id.selected_by(&src.id)) {
            if selected.is_some() {
                return Err(format!("multiple matches for selector {src}"));
            }
            selected = Some(i);
        }
    }
    let Some(res) = selected else {
        return Err(format!("nothing selected by {src}"));
    };
    let fp = if src.field_path.is_empty() {
        DEFAULT_FIELD_PATH
    } else {
        &src.field_path
    };
    let path = lookup(&resources[res], fp)
        .map_err(|e| format!("error looking up replacement source: {e}"))?;
    let node = path.as_ref().and_then(|p| node_at(&resources[res], p));
    let Some(node) = node.filter(|n| !is_nil_or_empty(n)) else {
        return Err(format!(
            "fieldPath `{fp}` is missing for replacement source {}",
            src.id
        ));
    };
    match src.options.as_ref().filter(|o| !o.delimiter.is_empty()) {
        Some(o) => refine(node.clone(), Some(o)).map(Val::Owned),
        None => Ok(Val::Live {
            res,
            path: path.unwrap_or_default(),
        }),
    }
}

/// Source `options.delimiter` / `index`: one part of the scalar, in a copy keeping its type.
fn refine(mut node: Node, options: Option<&FieldOptions>) -> Result<Node, String> {
    let Some(o) = options.filter(|o| !o.delimiter.is_empty()) else {
        return Ok(node);
    };
    if !node.is_scalar() {
        return Err("delimiter option can only be used with scalar nodes".into());
    }
    let text = raw_value(&node).to_string();
    let parts: Vec<&str> = text.split(o.delimiter.as_str()).collect();
    let Some(part) = usize::try_from(o.index).ok().and_then(|i| parts.get(i)) else {
        return Err(format!(
            "options.index {} is out of bounds for value {text}",
            o.index
        ));
    };
    set_text_keep_type(&mut node, part.to_string());
    Ok(node)
}

fn is_nil_or_empty(n: &Node) -> bool {
    match &n.value {
        Value::Scalar(_) => is_null(n),
        Value::Mapping(p) => p.is_empty(),
        Value::Sequence(i) => i.is_empty(),
        Value::Alias(_) => false,
    }
}

/// Label/annotation selectors, parsed on first use (kustomize parses them per resource, so a
/// bad one is only reported when there is a resource to check).
struct Lazy<'a> {
    text: &'a str,
    parsed: Option<Result<LabelSelector, String>>,
}

impl<'a> Lazy<'a> {
    fn new(text: &'a str) -> Self {
        Lazy { text, parsed: None }
    }

    fn matches(&mut self, res: &Node, field: &str) -> Result<bool, String> {
        if self.text.is_empty() {
            return Ok(true);
        }
        let text = self.text;
        let sel = self
            .parsed
            .get_or_insert_with(|| LabelSelector::parse(text).map_err(|e| e.message));
        match sel {
            Ok(s) => Ok(s.matches(&meta_map(res, field))),
            Err(e) => Err(e.clone()),
        }
    }
}

struct SelectorCheck<'a> {
    sel: &'a Selector,
    annotations: Lazy<'a>,
    labels: Lazy<'a>,
}

impl<'a> SelectorCheck<'a> {
    fn new(sel: &'a Selector) -> Self {
        SelectorCheck {
            sel,
            annotations: Lazy::new(&sel.annotation_selector),
            labels: Lazy::new(&sel.label_selector),
        }
    }

    fn has_meta_selectors(&self) -> bool {
        !self.sel.annotation_selector.is_empty() || !self.sel.label_selector.is_empty()
    }

    /// `matchesAnnoAndLabelSelector`: annotations first, then labels.
    fn meta_matches(&mut self, res: &Node) -> Result<bool, String> {
        let a = self.annotations.matches(res, "annotations")?;
        let l = self.labels.matches(res, "labels")?;
        Ok(a && l)
    }
}

fn apply_target(
    resources: &mut [Node],
    value: &mut Val,
    t: &TargetSelector,
    (earlier, index): (EarlierIds<'_>, &mut TargetIndex),
    (touched, cache): (&mut BTreeSet<usize>, &mut RegexCache),
) -> Result<bool, String> {
    let Some(select) = &t.select else {
        return Err("target must specify resources to select".into());
    };
    let default_paths = [DEFAULT_FIELD_PATH.to_string()];
    let field_paths: &[String] = if t.field_paths.is_empty() {
        &default_paths
    } else {
        &t.field_paths
    };
    let split: Vec<Vec<String>> = field_paths.iter().map(|p| split_path(p)).collect();
    let mut select_check = SelectorCheck::new(select);
    let mut rejects: Vec<SelectorCheck> = t.reject.iter().map(SelectorCheck::new).collect();
    let mut matched = false;
    // Label and annotation selectors are checked (and parsed, with their errors) on every
    // resource before the ids: with one, every resource is looked at.
    let by_id_only =
        !select_check.has_meta_selectors() && !rejects.iter().any(|r| r.has_meta_selectors());
    let order = by_id_only
        .then(|| index.candidates(&select.id))
        .flatten()
        .unwrap_or_else(|| (0..resources.len()).collect());
    for i in order {
        let res = &resources[i];
        let ids = Ids::of(res, earlier_of(earlier, i))?;
        if !select_check.meta_matches(res)? {
            continue;
        }
        let mut rejected = false;
        for r in rejects.iter_mut() {
            if !r.has_meta_selectors() {
                continue;
            }
            if r.meta_matches(res)? {
                rejected = true;
                break;
            }
        }
        if rejected {
            continue;
        }
        if !ids.any(|id| id.selected_by(&select.id)) {
            continue;
        }
        if t.reject
            .iter()
            .any(|r| !r.id.is_empty() && ids.any(|id| id.selected_by(&r.id)))
        {
            continue;
        }
        drop(ids);
        matched = true;
        for (fp, segs) in field_paths.iter().zip(&split) {
            copy_to_target(
                resources,
                i,
                value,
                fp,
                segs,
                t.options.as_ref(),
                touched,
                cache,
            )?;
        }
        // An error ends the run (the resources are discarded), so the index is refreshed
        // only after writes that succeeded.
        index.refresh(i, &resources[i], earlier);
    }
    Ok(matched)
}

#[allow(clippy::too_many_arguments)]
fn copy_to_target(
    resources: &mut [Node],
    i: usize,
    value: &mut Val,
    fp: &str,
    segs: &[String],
    options: Option<&FieldOptions>,
    touched: &mut BTreeSet<usize>,
    cache: &mut RegexCache,
) -> Result<(), String> {
    let create = options.is_some_and(|o| o.create);
    let what = if create {
        format!(
            "unable to find or create field {} in replacement target",
            tailor_go::strconv::quote(fp)
        )
    } else {
        format!(
            "unable to find field {} in replacement target",
            tailor_go::strconv::quote(fp)
        )
    };
    let create_kind = if create {
        Some(value.get(resources).map(kind_of).unwrap_or(Kind::Scalar))
    } else {
        None
    };
    let found = Matcher::new(create_kind, cache)
        .find_all(&mut resources[i], segs)
        .map_err(|e| format!("{what}: {e}"))?;
    if found.is_empty() {
        return Err(what);
    }
    for f in found {
        let Some(v) = value.get(resources).cloned() else {
            return Err("replacement source vanished".into());
        };
        if let Some(mut scratch) = f.phantom {
            // Written under a null: kyaml writes into a node that is not part of the output.
            write(&mut scratch, v, options)?;
            continue;
        }
        if let Val::Live { res, path } = value {
            if *res == i && f.path.len() < path.len() && path.starts_with(&f.path) {
                // The source is inside the node being replaced: kyaml keeps the detached node.
                *value = Val::Owned(v.clone());
            }
        }
        let Some(target) = node_at_mut(&mut resources[i], &f.path) else {
            continue;
        };
        write(target, v, options)?;
        touched.insert(i);
    }
    Ok(())
}

/// kustomize's `setFieldValue`.
fn write(target: &mut Node, value: Node, options: Option<&FieldOptions>) -> Result<(), String> {
    let mut text: Option<String> = None;
    if let Some(o) = options.filter(|o| !o.delimiter.is_empty()) {
        if !target.is_scalar() {
            return Err("delimiter option can only be used with scalar nodes".into());
        }
        let current = raw_value(target).to_string();
        let mut parts: Vec<&str> = current.split(o.delimiter.as_str()).collect();
        let v = raw_value(&value);
        match usize::try_from(o.index) {
            Err(_) => parts.insert(0, v),
            Ok(i) if i >= parts.len() => parts.push(v),
            Ok(i) => parts[i] = v,
        }
        text = Some(parts.join(&o.delimiter));
    }
    if target.is_scalar() {
        let text = text.unwrap_or_else(|| raw_value(&value).to_string());
        set_text_keep_type(target, text);
    } else {
        *target = value;
    }
    Ok(())
}

/// Replaces a scalar's text the way kyaml does (`node.Value = text`): the node keeps its tag,
/// so a plain `8080` that becomes `abc` keeps `!!int` (and is written with it), and a string
/// that becomes `true` is quoted.
pub(crate) fn set_text_keep_type(n: &mut Node, text: String) {
    if n.tag().is_some() {
        n.set_scalar_text(text);
        return;
    }
    if matches!(n.style, Style::Plain | Style::Any) {
        match n.scalar_kind() {
            Some(ScalarKind::Str) | None => n.style = Style::Any,
            Some(kind) => {
                if resolve_plain(&text) != kind {
                    n.set_tag(Some(tag_name(kind).to_string()));
                }
            }
        }
    }
    n.set_scalar_text(text);
}

fn tag_name(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::Null => "!!null",
        ScalarKind::Bool => "!!bool",
        ScalarKind::Int => "!!int",
        ScalarKind::Float => "!!float",
        ScalarKind::Str => "!!str",
        ScalarKind::Timestamp => "!!timestamp",
        ScalarKind::Merge => "!!merge",
    }
}

fn strip_untagged(n: &mut Node) {
    if is_untagged(n) {
        n.set_tag(None);
        if n.extra.as_ref().is_some_and(|e| **e == Default::default()) {
            n.extra = None;
        }
    }
    match &mut n.value {
        Value::Mapping(pairs) => {
            for p in pairs {
                strip_untagged(&mut p.key);
                strip_untagged(&mut p.value);
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(strip_untagged),
        _ => {}
    }
    let _ = UNTAGGED;
}

/// What go-yaml says when kustomize turns a resource with `!!int abc` into a map.
fn check_tags(n: &Node) -> Result<(), String> {
    match &n.value {
        Value::Scalar(s) => {
            let Some(tag) = n.short_tag() else {
                return Ok(());
            };
            if !matches!(n.style, Style::Plain | Style::Any) {
                return Ok(());
            }
            let r = resolve_plain(s);
            let ok = match tag.as_str() {
                "!!int" => r == ScalarKind::Int,
                "!!float" => matches!(r, ScalarKind::Float | ScalarKind::Int),
                "!!bool" => r == ScalarKind::Bool,
                "!!null" => r == ScalarKind::Null,
                "!!timestamp" => r == ScalarKind::Timestamp,
                _ => true,
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "map[string]interface {{}}(nil): yaml: cannot decode {} `{s}` as a {tag}",
                    tag_name(r)
                ))
            }
        }
        Value::Mapping(pairs) => pairs.iter().try_for_each(|p| check_tags(&p.value)),
        Value::Sequence(items) => items.iter().try_for_each(check_tags),
        Value::Alias(_) => Ok(()),
    }
}

// ---- resource ids ----------------------------------------------------------------------------

struct Id<'a> {
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    name: &'a str,
    namespace: &'a str,
}

fn effective_ns(ns: &str) -> &str {
    if ns.is_empty() {
        "default"
    } else {
        ns
    }
}

impl Id<'_> {
    /// `ResId.IsSelectedBy`: literal fields, empty = wildcard, `""` ≡ `default` namespace.
    fn selected_by(&self, s: &ResId) -> bool {
        (s.name.is_empty() || s.name == self.name)
            && (s.namespace.is_empty()
                || effective_ns(&s.namespace) == effective_ns(self.namespace))
            && (s.gvk.group.is_empty() || s.gvk.group == self.group)
            && (s.gvk.version.is_empty() || s.gvk.version == self.version)
            && (s.gvk.kind.is_empty() || s.gvk.kind == self.kind)
    }
}

fn earlier_of<'a>(earlier: EarlierIds<'a>, i: usize) -> &'a [tailor_kube::resid::ResId] {
    earlier.get(i).copied().unwrap_or_default()
}

/// The current id and the previous ids (`MakeResIds`).
struct Ids<'a> {
    current: Id<'a>,
    previous: Vec<Id<'a>>,
}

impl<'a> Ids<'a> {
    /// The ids of `res`: its current one, those of its build annotations, then `extra`
    /// (earlier ids kept beside it; group and version are the current ones, as kustomize
    /// rebuilds previous ids).
    fn of(res: &'a Node, extra: &'a [tailor_kube::resid::ResId]) -> Result<Ids<'a>, String> {
        let field = |k: &str| res.get(k).map(raw_value).unwrap_or("");
        let (group, version) = match field("apiVersion").split_once('/') {
            Some((g, v)) => (g, v),
            None => ("", field("apiVersion")),
        };
        let meta = res.get("metadata").filter(|m| m.is_mapping());
        let meta_str = |k: &str| {
            meta.and_then(|m| m.get(k))
                .filter(|v| !is_nil_or_empty(v))
                .map(raw_value)
                .unwrap_or("")
        };
        let current = Id {
            group,
            version,
            kind: field("kind"),
            name: meta_str("name"),
            namespace: meta_str("namespace"),
        };
        let mut previous = Vec::new();
        let annotations = meta.and_then(|m| m.get("annotations"));
        let anno = |k: &str| -> Option<&'a str> {
            annotations?
                .pairs()?
                .iter()
                .rev()
                .find(|p| raw_value(&p.key) == k)
                .map(|p| raw_value(&p.value))
        };
        if let Some(names) = anno(PREVIOUS_NAMES) {
            let names: Vec<&str> = names.split(',').collect();
            let nss: Vec<&str> = anno(PREVIOUS_NAMESPACES).unwrap_or("").split(',').collect();
            let kinds: Vec<&str> = anno(PREVIOUS_KINDS).unwrap_or("").split(',').collect();
            if names.len() != nss.len() || names.len() != kinds.len() {
                return Err("number of previous names, number of previous namespaces, number of previous kinds not equal".into());
            }
            for ((name, namespace), kind) in names.into_iter().zip(nss).zip(kinds) {
                previous.push(Id {
                    group,
                    version,
                    kind,
                    name,
                    namespace,
                });
            }
        }
        previous.extend(extra.iter().map(|p| Id {
            group,
            version,
            kind: &p.gvk.kind,
            name: &p.name,
            namespace: &p.namespace,
        }));
        Ok(Ids { current, previous })
    }

    fn any(&self, f: impl Fn(&Id) -> bool) -> bool {
        f(&self.current) || self.previous.iter().any(f)
    }
}

/// `metadata.labels` or `metadata.annotations` as strings (later duplicates win, as a Go map).
fn meta_map(res: &Node, field: &str) -> BTreeMap<String, String> {
    crate::metadata_entries(res, field)
        .iter()
        .map(|p| {
            (
                raw_value(&p.key).to_string(),
                raw_value(&p.value).to_string(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(s: &str) -> Node {
        tailor_yaml::parse_stream(s).unwrap().remove(0).root
    }

    #[test]
    fn keep_type_on_write() {
        let mut n = doc("a: 8080\nb: x\nc: 'q'\nd: ~\n");
        let get = |n: &mut Node, k: &str| n.get_mut(k).unwrap().clone();
        let mut a = get(&mut n, "a");
        set_text_keep_type(&mut a, "abc".into());
        assert_eq!(a.tag(), Some("!!int"));
        assert!(check_tags(&a)
            .unwrap_err()
            .contains("cannot decode !!str `abc` as a !!int"));
        let mut b = get(&mut n, "b");
        set_text_keep_type(&mut b, "8080".into());
        assert_eq!(b.to_json().unwrap(), serde_json::json!("8080"));
        let mut c = get(&mut n, "c");
        set_text_keep_type(&mut c, "true".into());
        assert_eq!(c.style, Style::SingleQuoted);
        let mut d = get(&mut n, "d");
        set_text_keep_type(&mut d, "abc".into());
        assert_eq!(d.tag(), Some("!!null"));
    }

    #[test]
    fn ids_and_selection() {
        let n = doc("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  annotations:\n    internal.config.kubernetes.io/previousNames: a,b\n    internal.config.kubernetes.io/previousNamespaces: default,x\n    internal.config.kubernetes.io/previousKinds: Deployment,Deployment\n");
        let ids = Ids::of(&n, &[]).unwrap();
        let sel = |name: &str, ns: &str| ResId {
            name: name.into(),
            namespace: ns.into(),
            ..Default::default()
        };
        assert!(ids.any(|id| id.selected_by(&sel("a", ""))));
        assert!(ids.any(|id| id.selected_by(&sel("d", "default"))));
        assert!(ids.any(|id| id.selected_by(&sel("b", "x"))));
        assert!(!ids.any(|id| id.selected_by(&sel("b", "default"))));
        let bad = doc("metadata:\n  name: d\n  annotations:\n    internal.config.kubernetes.io/previousNames: a,b\n");
        assert!(Ids::of(&bad, &[]).is_err());
    }
}
