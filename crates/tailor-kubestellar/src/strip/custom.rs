//! `control.kubestellar.io/v1alpha1` `CustomTransform` (`docs/semantics/kubestellar.md` §2):
//! parsing the spec, binding to objects by (group, resource), and removing the paths.
//!
//! Two path engines:
//! * every path that KubeStellar's grammar accepts ([`parse_kubestellar_query`]) is evaluated
//!   with KubeStellar's semantics (§2.4): walk member names through mappings only, stop
//!   silently at anything else, delete the last member;
//! * with [`PathSyntax::Extended`] (the default), a path KubeStellar rejects but RFC 9535
//!   accepts (`[0]`, `[*]`, `[1:3]`, `..`, `['single']`, filters `[?@.name=='x']`) is located
//!   with `jsonpath-rust` on the object's JSON view, mapped back to tree nodes, and each node is
//!   deleted from the tree (list elements from the highest index down).
//!
//! A path neither grammar accepts is an error with KubeStellar's text.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jsonpath_rust::parser::model::JpQuery;
use jsonpath_rust::parser::parse_json_path;
use jsonpath_rust::query::js_path_process;
use serde_json::Value as Json;
use tailor_yaml::{Node, ScalarKind, Value};

use crate::strip::path::parse_kubestellar_query;
use crate::strip::resources::ResourceMapper;
use crate::strip::tree::{key_text, merge_may_provide, path_key, type_name};
use crate::strip::{Diagnostic, Finding};

/// Which path languages `remove` entries may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathSyntax {
    /// Exactly KubeStellar: anything its parser rejects is an error.
    KubeStellar,
    /// KubeStellar's subset with its semantics, plus full RFC 9535 JSONPath for the rest.
    #[default]
    Extended,
}

/// One parsed `spec.remove` entry.
#[derive(Clone, Debug, PartialEq)]
pub enum RemovePath {
    /// A path in KubeStellar's grammar: member names from the root (never empty).
    Members {
        source: String,
        members: Vec<String>,
    },
    /// An RFC 9535 JSONPath that KubeStellar's grammar does not accept.
    JsonPath { source: String, query: JpQuery },
}

impl RemovePath {
    /// The path as written.
    pub fn source(&self) -> &str {
        match self {
            RemovePath::Members { source, .. } | RemovePath::JsonPath { source, .. } => source,
        }
    }
}

/// A CustomTransform: remove `remove` from every object of `api_group`/`resource`.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomTransform {
    /// `metadata.name` of the CustomTransform (or a name the caller gives a bare spec).
    pub name: String,
    /// API group only, no version; the core group is `""`.
    pub api_group: String,
    /// Lowercase plural resource name, compared exactly (`jobs`, not `Jobs`).
    pub resource: String,
    pub remove: Vec<RemovePath>,
    /// Where its spec was written (`spec`, `spec.customTransforms[2]`, `items[5].spec`), for
    /// messages about it as a whole.
    pub at: String,
}

/// Parses one `remove` entry. `Ok(None)` never happens; `$` alone is an error
/// ("it identifies the whole object"), as in KubeStellar.
pub fn parse_remove_path(src: &str, syntax: PathSyntax) -> Result<RemovePath, String> {
    match parse_kubestellar_query(src) {
        Ok(members) if members.is_empty() => Err("it identifies the whole object".into()),
        Ok(members) => Ok(RemovePath::Members {
            source: src.to_string(),
            members,
        }),
        Err(ks_err) => {
            if syntax == PathSyntax::KubeStellar {
                return Err(ks_err.0);
            }
            check_jsonpath_size(src)?;
            let depth = filter_nesting(src);
            if depth > MAX_FILTER_NESTING {
                return Err(format!(
                    "filter selectors are nested {depth} deep; at most {MAX_FILTER_NESTING} are allowed (each level multiplies the work by the size of the object)"
                ));
            }
            if !shorthands_are_rfc9535(src) {
                // jsonpath-rust reads `$.a.x y` as a member named `x y`; RFC 9535 does not.
                return Err(ks_err.0);
            }
            match catch_unwind(|| parse_json_path(src)) {
                Ok(Ok(query)) => Ok(RemovePath::JsonPath {
                    source: src.to_string(),
                    query,
                }),
                _ => Err(ks_err.0),
            }
        }
    }
}

/// Whether every dot-notation member name outside brackets is an RFC 9535
/// `member-name-shorthand` (a letter, `_` or non-ASCII character, then those or digits) and is
/// followed by the end, another segment, or blank space before one.
fn shorthands_are_rfc9535(src: &str) -> bool {
    let first = |c: char| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii();
    let chars: Vec<char> = src.chars().collect();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\'' | '"' if depth > 0 => {
                let quote = chars[i];
                i += 1;
                while i < chars.len() && chars[i] != quote {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => {
                let mut j = i + 1;
                if chars.get(j) == Some(&'.') {
                    j += 1;
                }
                match chars.get(j) {
                    Some('*') | Some('[') => {}
                    Some(&c) if first(c) => {
                        while chars
                            .get(j)
                            .is_some_and(|&c| first(c) || c.is_ascii_digit())
                        {
                            j += 1;
                        }
                        let mut k = j;
                        while chars
                            .get(k)
                            .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
                        {
                            k += 1;
                        }
                        if k > j && !matches!(chars.get(k), None | Some('.') | Some('[')) {
                            return false;
                        }
                        i = j;
                        continue;
                    }
                    _ => return false,
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// A filter inside a filter evaluates its query once per candidate of the outer one, so the
/// work is the object's size to the power of the nesting: three levels of `$..*` queries over
/// a large object never finish (found by fuzzing). Honest paths nest one or two.
pub const MAX_FILTER_NESTING: usize = 2;

/// The longest RFC 9535 path accepted. The JSONPath parser holds a parse tree of about 240
/// bytes per byte of path (`$[?@.a||@.a||...]` of 1.2 MB: 290 MB); honest paths are a few
/// dozen bytes.
pub const MAX_JSONPATH_BYTES: usize = 4096;

/// The deepest nesting of brackets and parentheses accepted in an RFC 9535 path: the parser
/// descends once per level, and a deep enough descent would exhaust the stack.
pub const MAX_JSONPATH_GROUPING: usize = 64;

/// Refuses, before parsing, an RFC 9535 path too long or too deeply grouped for the parser's
/// memory and stack: one pass over the text.
fn check_jsonpath_size(src: &str) -> Result<(), String> {
    if src.len() > MAX_JSONPATH_BYTES {
        return Err(format!(
            "the path is {} bytes long; JSONPath paths of at most {MAX_JSONPATH_BYTES} bytes are accepted",
            src.len()
        ));
    }
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut chars = src.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c {
                        break;
                    }
                }
            }
            '[' | '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ']' | ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_JSONPATH_GROUPING {
        return Err(format!(
            "brackets and parentheses are nested {deepest} deep; at most {MAX_JSONPATH_GROUPING} are allowed in a JSONPath path"
        ));
    }
    Ok(())
}

/// How deeply filter selectors (`[?...]`) nest in an RFC 9535 path, read from the text: a `?`
/// outside string literals opens a filter in the innermost bracket.
fn filter_nesting(src: &str) -> usize {
    // One flag per open bracket (whether it holds a filter), and how many are set.
    let mut frames: Vec<bool> = Vec::new();
    let mut open_filters = 0;
    let mut deepest = 0;
    let mut chars = src.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let quote = c;
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == quote {
                        break;
                    }
                }
            }
            '[' => frames.push(false),
            ']' if frames.pop() == Some(true) => open_filters -= 1,
            '?' => {
                if let Some(top) = frames.last_mut().filter(|top| !**top) {
                    *top = true;
                    open_filters += 1;
                }
                deepest = deepest.max(open_filters);
            }
            _ => {}
        }
    }
    deepest
}

/// [`parse_custom_transform_with`] with [`PathSyntax::Extended`].
pub fn parse_custom_transform(
    obj_or_spec: &Node,
    name: &str,
) -> Result<CustomTransform, Vec<Finding>> {
    parse_custom_transform_with(obj_or_spec, name, PathSyntax::Extended)
}

/// Parses a whole `CustomTransform` object (it has `spec`; its `metadata.name` wins over
/// `name`) or a bare spec `{apiGroup, resource, remove}`. Errors name the CustomTransform and
/// the field; a bad path gives `Error in spec.remove[<i>]: <KubeStellar's text>` (or
/// `Invalid spec.remove[<i>]: it identifies the whole object` for `$`).
pub fn parse_custom_transform_with(
    obj_or_spec: &Node,
    name: &str,
    syntax: PathSyntax,
) -> Result<CustomTransform, Vec<Finding>> {
    parse_custom_transform_at(obj_or_spec, name, syntax, "")
}

/// [`parse_custom_transform_with`] for a transform written at `at` in a larger document
/// (`spec.customTransforms[2]`, `items[5]`): field paths and messages name the fields from
/// there (`spec.customTransforms[2].remove[0]`, `items[5].spec.remove[0]`). With `""` they
/// read as in a CustomTransform object (`spec.remove[0]`).
pub fn parse_custom_transform_at(
    obj_or_spec: &Node,
    name: &str,
    syntax: PathSyntax,
    at: &str,
) -> Result<CustomTransform, Vec<Finding>> {
    let mut name = name.to_string();
    let (spec, prefix) = match obj_or_spec.get("spec") {
        Some(spec)
            if obj_or_spec.get("kind").is_some() || obj_or_spec.get("apiVersion").is_some() =>
        {
            if let Some(n) = obj_or_spec
                .get_path(&["metadata", "name"])
                .and_then(Node::as_str)
            {
                name = n.to_string();
            }
            let prefix = if at.is_empty() {
                "spec".to_string()
            } else {
                format!("{at}.spec")
            };
            (spec, prefix)
        }
        _ if at.is_empty() => (obj_or_spec, "spec".to_string()),
        _ => (obj_or_spec, at.to_string()),
    };
    let label = format!("CustomTransform {name:?}");
    let mut errors = Vec::new();
    let field = |f: &str| Some(format!("{prefix}.{f}"));
    if !spec.is_mapping() {
        return Err(vec![Diagnostic::error(format!(
            "{label}: spec must be a mapping, not {}",
            type_name(spec)
        ))
        .at_opt(Some(prefix.clone()))]);
    }
    let string_field = |key: &str, errors: &mut Vec<Finding>| -> String {
        match spec.get(key) {
            None => {
                errors.push(
                    Diagnostic::error(format!("{label}: {prefix}.{key} is required"))
                        .at_opt(field(key)),
                );
                String::new()
            }
            Some(v) => match v.as_str() {
                Some(s) => s.to_string(),
                None => {
                    errors.push(
                        Diagnostic::error(format!(
                            "{label}: {prefix}.{key} must be a string, not {}",
                            type_name(v)
                        ))
                        .at_opt(field(key)),
                    );
                    String::new()
                }
            },
        }
    };
    let api_group = string_field("apiGroup", &mut errors);
    let resource = string_field("resource", &mut errors);
    let mut remove = Vec::new();
    match spec.get("remove") {
        None => {}
        Some(list) if list.is_null() => {}
        Some(list) => match list.items() {
            None => errors.push(
                Diagnostic::error(format!(
                    "{label}: {prefix}.remove must be a list of strings, not {}",
                    type_name(list)
                ))
                .at_opt(field("remove")),
            ),
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    let fp = Some(format!("{prefix}.remove[{i}]"));
                    let Some(src) = item.as_str() else {
                        errors.push(
                            Diagnostic::error(format!(
                                "{label}: Error in {prefix}.remove[{i}]: must be a string, not {}",
                                type_name(item)
                            ))
                            .at_opt(fp),
                        );
                        continue;
                    };
                    match parse_remove_path(src, syntax) {
                        Ok(p) => remove.push(p),
                        Err(msg) if msg == "it identifies the whole object" => errors.push(
                            Diagnostic::error(format!(
                                "{label}: Invalid {prefix}.remove[{i}]: {msg}"
                            ))
                            .at_opt(fp),
                        ),
                        Err(msg) => errors.push(
                            Diagnostic::error(format!(
                                "{label}: Error in {prefix}.remove[{i}]: {msg}"
                            ))
                            .at_opt(fp),
                        ),
                    }
                }
            }
        },
    }
    if let Some(pairs) = spec.pairs() {
        for p in pairs {
            let k = p.key.as_scalar().unwrap_or("?");
            if !matches!(k, "apiGroup" | "resource" | "remove") {
                errors.push(
                    Diagnostic::error(format!(
                        "{label}: unknown field {prefix}.{k} (known: apiGroup, resource, remove)"
                    ))
                    .at_opt(Some(format!("{prefix}.{k}"))),
                );
            }
        }
    }
    if errors.is_empty() {
        Ok(CustomTransform {
            name,
            api_group,
            resource,
            remove,
            at: prefix,
        })
    } else {
        Err(errors)
    }
}

/// KubeStellar's status warning for each GroupResource named by more than one transform (its
/// text is a Go map dump, `their names are map[a:{} b:{}]`; tailor names them plainly).
pub fn duplicate_transform_warnings(transforms: &[CustomTransform]) -> Vec<Finding> {
    let mut by_gr: BTreeMap<(&str, &str), Vec<&CustomTransform>> = BTreeMap::new();
    for t in transforms {
        by_gr
            .entry((t.api_group.as_str(), t.resource.as_str()))
            .or_default()
            .push(t);
    }
    by_gr
        .into_values()
        .filter(|same| same.len() > 1)
        .map(|same| Diagnostic::warning(multiple_message(&same)).at_opt(None))
        .collect()
}

fn multiple_message(same: &[&CustomTransform]) -> String {
    let mut names: Vec<String> = same
        .iter()
        .map(|t| {
            if t.at.is_empty() || t.at == "spec" {
                format!("{:?}", t.name)
            } else {
                format!("{:?} ({})", t.name, t.at)
            }
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    let group = if same[0].api_group.is_empty() {
        "the core group".to_string()
    } else {
        format!("group {:?}", same[0].api_group)
    };
    format!(
        "several CustomTransforms name resource {:?} of {group}: {}; all of them apply, in order",
        same[0].resource,
        names.join(", ")
    )
}

/// A warning for each transform whose (group, resource) no object of the run has (`present`,
/// as `mapper` resolves the objects): it removes nothing. A resource that is not a lowercase
/// plural tailor knows (`PersistentVolumeClaim`, `pvc`, `deployment`) gets the one it
/// probably meant; KubeStellar compares the name exactly and would silently skip it too.
pub fn unmatched_transform_warnings(
    transforms: &[CustomTransform],
    present: &std::collections::BTreeSet<(String, String)>,
    mapper: &ResourceMapper,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in transforms {
        if present.contains(&(t.api_group.clone(), t.resource.clone())) {
            continue;
        }
        let field = if t.at.is_empty() {
            "spec.resource".to_string()
        } else {
            format!("{}.resource", t.at)
        };
        let group = if t.api_group.is_empty() {
            "the core group".to_string()
        } else {
            format!("group {:?}", t.api_group)
        };
        let message = match mapper.suggest_resource(&t.api_group, &t.resource) {
            Some(meant) if meant != t.resource => format!(
                "CustomTransform {:?}: resource {:?} is not a resource of {group} (resources are lowercase plurals, compared exactly; did you mean {meant:?}?); it removes nothing",
                t.name, t.resource
            ),
            _ => format!(
                "CustomTransform {:?}: no object of resource {:?} of {group} among the input; it removes nothing",
                t.name, t.resource
            ),
        };
        out.push(Diagnostic::warning(message).at_opt(Some(field)));
    }
    out
}

/// Applies every transform bound to the object's (group, resource), in the order given.
///
/// The resource comes from `mapper` (apiVersion + kind). When it cannot be determined and
/// there are transforms, a warning says so (the object is left as it is). When several
/// transforms match, all apply, with KubeStellar's "multiple CustomTransform" warning.
pub fn apply_custom_transforms(
    obj: &mut Node,
    transforms: &[CustomTransform],
    mapper: &ResourceMapper,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if transforms.is_empty() {
        return findings;
    }
    let api_version = obj.get_str("apiVersion").unwrap_or_default().to_string();
    let kind = obj.get_str("kind").unwrap_or_default().to_string();
    let Some((group, resource)) = mapper.resource_for(&api_version, &kind) else {
        let name = obj
            .get_path(&["metadata", "name"])
            .and_then(Node::as_str)
            .unwrap_or("");
        findings.push(Diagnostic::warning(format!(
                "cannot determine the resource of {api_version:?} {kind:?} {name:?}: no built-in mapping and no CustomResourceDefinition for it; CustomTransforms not applied to it"
            )).at_opt(None));
        return findings;
    };
    let matching: Vec<&CustomTransform> = transforms
        .iter()
        .filter(|t| t.api_group == group && t.resource == resource)
        .collect();
    if matching.len() > 1 {
        findings.push(Diagnostic::warning(multiple_message(&matching)).at_opt(None));
    }
    for t in matching {
        for p in &t.remove {
            apply_remove_path(obj, p, &t.name, &mut findings);
        }
    }
    findings
}

fn apply_remove_path(obj: &mut Node, path: &RemovePath, ct: &str, findings: &mut Vec<Finding>) {
    match path {
        RemovePath::Members { members, source } => {
            remove_members(obj, members, ct, source, findings)
        }
        RemovePath::JsonPath { query, source } => remove_jsonpath(obj, query, ct, source, findings),
    }
}

/// §2.4: walk mappings by name, stop silently at anything else, delete the last member.
fn remove_members(
    obj: &mut Node,
    members: &[String],
    ct: &str,
    source: &str,
    findings: &mut Vec<Finding>,
) {
    let Some((last, parents)) = members.split_last() else {
        return;
    };
    let mut node = obj;
    let mut fp = String::new();
    for name in parents {
        if let Some(note) = shared_node_note(node) {
            findings.push(alias_finding(ct, source, &fp, note));
            return;
        }
        if !node.is_mapping() {
            return;
        }
        let has_merge = merge_may_provide(node, name);
        fp = path_key(&fp, name);
        match node.get_mut(name) {
            Some(next) => node = next,
            None => {
                if has_merge {
                    findings.push(alias_finding(ct, source, &fp, "a `<<` merge key"));
                }
                return;
            }
        }
    }
    if let Some(note) = shared_node_note(node) {
        findings.push(alias_finding(ct, source, &fp, note));
        return;
    }
    if !node.is_mapping() {
        return;
    }
    if node.remove(last).is_none() && merge_may_provide(node, last) {
        findings.push(alias_finding(
            ct,
            source,
            &path_key(&fp, last),
            "a `<<` merge key",
        ));
    }
}

fn shared_node_note(node: &Node) -> Option<&'static str> {
    match node.value {
        Value::Alias(_) => Some("a YAML alias"),
        _ => None,
    }
}

fn alias_finding(ct: &str, source: &str, fp: &str, what: &str) -> Finding {
    Diagnostic::warning(format!(
            "CustomTransform {ct:?}: path {source:?} reaches into {what}; tailor does not edit through shared YAML nodes, so nothing was removed there"
        )).at_opt(if fp.is_empty() { None } else { Some(fp.to_string()) })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// Index of the pair in a mapping.
    Pair(usize),
    /// Index of the item in a sequence.
    Item(usize),
}

/// RFC 9535 removal: locate on the JSON view, map located values back to tree positions by
/// identity, delete in the tree from the last position backwards.
fn remove_jsonpath(
    obj: &mut Node,
    query: &JpQuery,
    ct: &str,
    source: &str,
    findings: &mut Vec<Finding>,
) {
    let json = match obj.to_json() {
        Ok(j) => j,
        Err(e) => {
            findings.push(
                Diagnostic::error(format!(
                    "CustomTransform {ct:?}: cannot evaluate {source:?}: {e}"
                ))
                .at_opt(None),
            );
            return;
        }
    };
    let mut index: std::collections::HashMap<usize, Vec<Step>> = std::collections::HashMap::new();
    index_positions(&json, obj, &mut Vec::new(), &mut index, 0);
    let located = catch_unwind(AssertUnwindSafe(|| js_path_process(query, &json)));
    let refs = match located {
        Ok(Ok(refs)) => refs,
        Ok(Err(e)) => {
            findings.push(
                Diagnostic::error(format!(
                    "CustomTransform {ct:?}: cannot evaluate {source:?}: {e}"
                ))
                .at_opt(None),
            );
            return;
        }
        Err(_) => {
            findings.push(
                Diagnostic::error(format!(
                    "CustomTransform {ct:?}: the JSONPath engine failed on {source:?}"
                ))
                .at_opt(None),
            );
            return;
        }
    };
    let mut targets: Vec<Vec<Step>> = Vec::new();
    let mut unmapped = 0usize;
    for r in refs {
        let addr = r.val as *const Json as usize;
        match index.get(&addr) {
            Some(steps) if steps.is_empty() => {
                findings.push(Diagnostic::error(format!("CustomTransform {ct:?}: {source:?} identifies the whole object; not removed")).at_opt(None));
            }
            Some(steps) => targets.push(steps.clone()),
            None => unmapped += 1,
        }
    }
    if unmapped > 0 {
        findings.push(alias_finding(
            ct,
            source,
            "",
            "a YAML alias or `<<` merge key",
        ));
    }
    targets.sort();
    targets.dedup();
    for t in targets.iter().rev() {
        delete_at(obj, t);
    }
}

/// Records, for every JSON value that has its own place in the tree, the steps to it.
/// Aliased content and keys that come from `<<` merges are not recorded.
fn index_positions(
    json: &Json,
    node: &Node,
    steps: &mut Vec<Step>,
    index: &mut std::collections::HashMap<usize, Vec<Step>>,
    depth: usize,
) {
    index.insert(json as *const Json as usize, steps.clone());
    if depth > 1000 {
        return;
    }
    match (&node.value, json) {
        (Value::Mapping(pairs), Json::Object(map)) => {
            for (k, v) in map {
                let pos = pairs.iter().position(|p| {
                    key_text(&p.key) == Some(k.as_str())
                        && p.key.scalar_kind() != Some(ScalarKind::Merge)
                });
                if let Some(i) = pos {
                    if let Some(p) = pairs.get(i) {
                        steps.push(Step::Pair(i));
                        index_positions(v, &p.value, steps, index, depth + 1);
                        steps.pop();
                    }
                }
            }
        }
        (Value::Sequence(items), Json::Array(arr)) => {
            for (i, (item, v)) in items.iter().zip(arr.iter()).enumerate() {
                steps.push(Step::Item(i));
                index_positions(v, item, steps, index, depth + 1);
                steps.pop();
            }
        }
        _ => {}
    }
}

/// Deletes the node at `steps` (a mapping entry, with every duplicate of its key, or a list
/// item). Does nothing if the position no longer exists.
fn delete_at(root: &mut Node, steps: &[Step]) {
    let Some((last, parents)) = steps.split_last() else {
        return;
    };
    let mut node = root;
    for s in parents {
        let next = match (s, &mut node.value) {
            (Step::Pair(i), Value::Mapping(pairs)) => pairs.get_mut(*i).map(|p| &mut p.value),
            (Step::Item(i), Value::Sequence(items)) => items.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => return,
        }
    }
    match (last, &mut node.value) {
        (Step::Pair(i), Value::Mapping(pairs)) => {
            let Some(key) = pairs
                .get(*i)
                .and_then(|p| key_text(&p.key))
                .map(str::to_owned)
            else {
                return;
            };
            // Later duplicates of the key (invisible in the JSON view) go too.
            let mut j = pairs.len();
            while j > *i {
                j -= 1;
                if pairs.get(j).and_then(|p| key_text(&p.key)) == Some(key.as_str()) {
                    pairs.remove(j);
                }
            }
        }
        (Step::Item(i), Value::Sequence(items)) if *i < items.len() => {
            items.remove(*i);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
