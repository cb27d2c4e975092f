//! apimachinery's strategic merge patch (`k8s.io/apimachinery/pkg/util/strategicpatch`,
//! `StrategicMergeMapPatchUsingLookupPatchMeta`, the server-side options `MergeParallelList`
//! and `IgnoreUnmatchedNulls`), over [`Node`] trees. This is the engine `kubectl patch` and the
//! API server use, and the one Fleet's yaml overlays reach through wrangler's `patch.Apply`;
//! kustomize and Flux patch with kyaml's `merge2` instead (`tailor-kustomize`), which orders
//! lists differently and knows none of the parallel-list directives.
//!
//! What it does, as apimachinery does it:
//! - maps merge key by key; `null` deletes; a key the original lacks takes the patch's value
//!   with its `null`s and `$patch` maps dropped; a value of another type replaces;
//! - `$patch: replace` / `delete` on a map, `$retainKeys`, `$setElementOrder/<list>` and
//!   `$deleteFromPrimitiveList/<list>`;
//! - lists whose field has patch strategy `merge` merge by the field's merge key (lists of
//!   maps) or as sets (lists of scalars); other lists are replaced; `$patch: replace|delete`
//!   elements;
//! - the order of a merged list: the patch's items in patch order, with the items only the
//!   original has inserted where the original had them (`normalizeElementOrder`,
//!   `mergeSortedSlice`).
//!
//! Patch metadata comes from the schema table ([`crate::schema`], Kubernetes v1.21), where
//! apimachinery reads the Go types' struct tags: the merge key is the field's first list key
//! (`patchMergeKey`). A field the table does not know merges as a map or is replaced as a list
//! (apimachinery would refuse a field its Go type lacks; the table may simply be older).
//! Scalars compare as JSON values, numbers as float64, as after `json.Unmarshal`.
//!
//! ```
//! use tailor_kube::strategicpatch::strategic_merge_patch;
//! use tailor_kube::schema::Schema;
//! let doc = |s: &str| tailor_yaml::parse_stream(s).unwrap().remove(0).root;
//! let mut dep = doc("apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers: [{name: a, image: a1}, {name: b, image: b1}]\n");
//! let patch = doc("spec:\n  template:\n    spec:\n      containers: [{name: b, image: b2}]\n");
//! strategic_merge_patch(&mut dep, &patch, Schema::for_resource("apps/v1", "Deployment")).unwrap();
//! let c = &dep.to_json().unwrap()["spec"]["template"]["spec"]["containers"];
//! assert_eq!(c, &serde_json::json!([{"name": "a", "image": "a1"}, {"name": "b", "image": "b2"}]));
//! ```

use std::collections::HashMap;

use serde_json::Value as Json;
use tailor_yaml::{Node, Pair, Value};

use crate::schema::Schema;
use keyed::{go_key, present_key, FirstIndex, GoKey, Pairs};

mod keyed;

const DIRECTIVE: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const SET_ELEMENT_ORDER: &str = "$setElementOrder";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";

/// Applies `patch` to `original` (both mappings) with `schema` as the patch metadata of the
/// original's type (`None`: no metadata, every list is replaced). Errors carry apimachinery's
/// message.
pub fn strategic_merge_patch(
    original: &mut Node,
    patch: &Node,
    schema: Option<Schema>,
) -> Result<(), String> {
    if patch.is_null() {
        // json.Unmarshal of `null` into a map leaves it empty: nothing to do.
        return Ok(());
    }
    let patch = plain(patch)?;
    if !patch.is_mapping() {
        return Err(format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_type(&patch)
        ));
    }
    if !original.is_mapping() {
        return Err(format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_type(original)
        ));
    }
    let base = plain(original)?;
    let meta = Meta {
        schema,
        name: String::new(),
    };
    *original = merge_map(base, patch, &meta)?;
    Ok(())
}

/// `node` with aliases expanded (the merge compares and moves values, which an alias would
/// make ambiguous); untouched when it has none.
fn plain(node: &Node) -> Result<Node, String> {
    if node.has_alias() {
        let json = node.to_json().map_err(|e| e.to_string())?;
        Ok(tailor_yaml::from_json(&json))
    } else {
        Ok(node.clone())
    }
}

/// The patch metadata of a type (apimachinery's `LookupPatchMeta`).
#[derive(Clone)]
struct Meta {
    schema: Option<Schema>,
    /// The field path, for messages.
    name: String,
}

/// A field's patch strategy (without `retainKeys`) and merge key.
struct FieldMeta {
    strategy: String,
    merge_key: String,
}

impl Meta {
    fn child_name(&self, key: &str) -> String {
        if self.name.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.name)
        }
    }

    /// `LookupPatchMetadataForStruct`.
    fn for_struct(&self, key: &str) -> Result<(Meta, FieldMeta), String> {
        let field = self.schema.as_ref().and_then(|s| s.field(key));
        let fm = field_meta(field.as_ref())?;
        Ok((
            Meta {
                schema: field,
                name: self.child_name(key),
            },
            fm,
        ))
    }

    /// `LookupPatchMetadataForSlice`: the element schema, and the list field's own metadata.
    fn for_slice(&self, key: &str) -> Result<(Meta, FieldMeta), String> {
        let field = self.schema.as_ref().and_then(|s| s.field(key));
        let fm = field_meta(field.as_ref())?;
        Ok((
            Meta {
                schema: field.as_ref().and_then(Schema::elements),
                name: self.child_name(key),
            },
            fm,
        ))
    }
}

/// `extractRetainKeysPatchStrategy` over the field's strategies.
fn field_meta(field: Option<&Schema>) -> Result<FieldMeta, String> {
    let Some(f) = field else {
        return Ok(FieldMeta {
            strategy: String::new(),
            merge_key: String::new(),
        });
    };
    let (strategy, keys) = f.strategy_and_keys();
    let strategies: Vec<&str> = strategy.split(',').collect();
    let strategy = match strategies.as_slice() {
        [] => "",
        ["retainKeys"] => "",
        [one] => one,
        ["retainKeys", other] | [other, "retainKeys"] => other,
        _ => return Err(format!("unexpected patch strategy: {strategies:?}")),
    };
    Ok(FieldMeta {
        strategy: strategy.to_string(),
        merge_key: keys.first().cloned().unwrap_or_default(),
    })
}

// ---- values as Go sees them after json.Unmarshal ----------------------------------------

/// The Go type of a decoded JSON value (`reflect.TypeOf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Nil,
    Bool,
    Float,
    Str,
    Map,
    Slice,
}

fn kind(n: &Node) -> Kind {
    match &n.value {
        Value::Mapping(_) => Kind::Map,
        Value::Sequence(_) => Kind::Slice,
        _ => match n.to_json() {
            Ok(Json::Null) | Err(_) => Kind::Nil,
            Ok(Json::Bool(_)) => Kind::Bool,
            Ok(Json::Number(_)) => Kind::Float,
            Ok(Json::String(_)) => Kind::Str,
            Ok(Json::Array(_)) => Kind::Slice,
            Ok(Json::Object(_)) => Kind::Map,
        },
    }
}

fn json_type(n: &Node) -> &'static str {
    match kind(n) {
        Kind::Nil => "null",
        Kind::Bool => "bool",
        Kind::Float => "number",
        Kind::Str => "string",
        Kind::Map => "object",
        Kind::Slice => "array",
    }
}

/// Go's `==` on two decoded values: scalars by value (numbers as float64); maps and slices are
/// never equal (Go would panic comparing them).
fn go_eq(a: Option<&Node>, b: Option<&Node>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            if matches!(kind(a), Kind::Map | Kind::Slice)
                || matches!(kind(b), Kind::Map | Kind::Slice)
            {
                return false;
            }
            match (a.to_json(), b.to_json()) {
                (Ok(Json::Number(x)), Ok(Json::Number(y))) => x.as_f64() == y.as_f64(),
                (Ok(x), Ok(y)) => x == y,
                _ => false,
            }
        }
        // A missing key (`nil`) equals a JSON null.
        (Some(n), None) | (None, Some(n)) => kind(n) == Kind::Nil,
    }
}

/// `%v` of a value, for messages (as JSON).
fn show(n: &Node) -> String {
    n.to_json()
        .map(|j| j.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn pairs_of(n: Node) -> Vec<Pair> {
    match n.value {
        Value::Mapping(p) => p,
        _ => Vec::new(),
    }
}

fn items_of(n: Node) -> Vec<Node> {
    match n.value {
        Value::Sequence(i) => i,
        _ => Vec::new(),
    }
}

fn key_of(p: &Pair) -> &str {
    p.key.as_scalar().unwrap_or("")
}

fn get<'a>(pairs: &'a [Pair], key: &str) -> Option<&'a Node> {
    pairs.iter().find(|p| key_of(p) == key).map(|p| &p.value)
}

fn take(pairs: &mut Vec<Pair>, key: &str) -> Option<Node> {
    let i = pairs.iter().position(|p| key_of(p) == key)?;
    Some(pairs.remove(i).value)
}

fn set(pairs: &mut Vec<Pair>, key: &str, value: Node) {
    match pairs.iter_mut().find(|p| key_of(p) == key) {
        Some(p) => p.value = value,
        None => pairs.push(Pair {
            key: Node::string(key),
            value,
        }),
    }
}

/// A mapping node with `pairs`, keeping `like`'s presentation.
fn with_pairs(like: &Node, pairs: Vec<Pair>) -> Node {
    let mut n = like.clone();
    n.value = Value::Mapping(pairs);
    n
}

fn with_items(like: &Node, items: Vec<Node>) -> Node {
    let mut n = like.clone();
    n.value = Value::Sequence(items);
    n
}

// ---- mergeMap -------------------------------------------------------------------------

fn merge_map(original: Node, patch: Node, meta: &Meta) -> Result<Node, String> {
    let patch_node = patch.clone();
    let mut patch_pairs = pairs_of(patch);
    if let Some(directive) = take(&mut patch_pairs, DIRECTIVE) {
        return match directive.as_scalar() {
            // The patch is the value, directives below it included.
            Some("replace") if kind(&directive) == Kind::Str => {
                Ok(with_pairs(&patch_node, patch_pairs))
            }
            Some("delete") if kind(&directive) == Kind::Str => Ok(Node::mapping()),
            _ => Err(format!(
                "unknown patch type: {} in map: {}",
                show(&directive),
                show(&patch_node)
            )),
        };
    }
    let original_node = if original.is_mapping() {
        original
    } else {
        Node::mapping()
    };
    let mut orig = pairs_of(original_node.clone());
    apply_retain_keys(&mut orig, &mut patch_pairs)?;
    merge_set_element_order(&mut orig, &mut patch_pairs, meta)?;
    let mut orig = Pairs::new(orig);
    for p in patch_pairs {
        let raw_key = key_of(&p).to_string();
        let (key, is_delete_list) = if raw_key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            (
                extract_key(&raw_key, DELETE_FROM_PRIMITIVE_LIST)
                    .ok_or("invalid patch format of primitive list")?,
                true,
            )
        } else {
            (raw_key, false)
        };
        let patch_v = p.value;
        if kind(&patch_v) == Kind::Nil {
            orig.take(&key);
            continue;
        }
        let Some(orig_v) = orig.get(&key) else {
            if !is_delete_list {
                take_patch_value(&mut orig, &key, patch_v);
            }
            continue;
        };
        let (ok, pk) = (kind(orig_v), kind(&patch_v));
        if ok != pk {
            if !is_delete_list {
                take_patch_value(&mut orig, &key, patch_v);
            }
            continue;
        }
        let orig_v = orig_v.clone();
        let merged = match ok {
            Kind::Map => {
                let (sub, fm) = meta.for_struct(&key)?;
                if fm.strategy != "replace" {
                    merge_map(orig_v, patch_v, &sub)?
                } else {
                    patch_v
                }
            }
            Kind::Slice => {
                let (sub, fm) = meta.for_slice(&key)?;
                if fm.strategy == "merge" || is_delete_list {
                    let items = merge_slice(
                        items_of(orig_v.clone()),
                        items_of(patch_v),
                        &sub,
                        &fm.merge_key,
                        is_delete_list,
                    )?;
                    with_items(&orig_v, items)
                } else {
                    patch_v
                }
            }
            _ => match remove_directives(patch_v) {
                Some(v) => v,
                None => {
                    orig.take(&key);
                    continue;
                }
            },
        };
        orig.set(&key, merged);
    }
    Ok(with_pairs(&original_node, orig.into_pairs()))
}

/// The original lacks the key (or holds another type there): it takes the patch's value,
/// without its nulls and `$patch` maps.
fn take_patch_value(orig: &mut Pairs, key: &str, mut value: Node) {
    discard_nulls(&mut value);
    match remove_directives(value) {
        Some(v) => orig.set(key, v),
        None => {
            orig.take(key);
        }
    }
}

/// `extractKey`: the list name after `<prefix>/`.
fn extract_key(s: &str, prefix: &str) -> Option<String> {
    let (head, rest) = s.split_once('/')?;
    (head == prefix).then(|| rest.to_string())
}

/// `discardNullValuesFromPatch`.
fn discard_nulls(v: &mut Node) {
    match &mut v.value {
        Value::Mapping(pairs) => {
            pairs.retain(|p| kind(&p.value) != Kind::Nil);
            for p in pairs {
                discard_nulls(&mut p.value);
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(discard_nulls),
        _ => {}
    }
}

/// `removeDirectives`: maps holding `$patch` go (`None` for the value itself).
fn remove_directives(mut v: Node) -> Option<Node> {
    match &mut v.value {
        Value::Mapping(pairs) => {
            if pairs.iter().any(|p| key_of(p) == DIRECTIVE) {
                return None;
            }
            let taken = std::mem::take(pairs);
            *pairs = taken
                .into_iter()
                .filter_map(|mut p| {
                    let value = std::mem::replace(&mut p.value, Node::null());
                    remove_directives(value).map(|value| Pair { value, ..p })
                })
                .collect();
            Some(v)
        }
        Value::Sequence(items) => {
            let taken = std::mem::take(items);
            *items = taken.into_iter().filter_map(remove_directives).collect();
            Some(v)
        }
        _ => Some(v),
    }
}

/// `applyRetainKeysDirective` (server side): keys of the original missing from the list go;
/// every patch key must be listed.
fn apply_retain_keys(orig: &mut Vec<Pair>, patch: &mut Vec<Pair>) -> Result<(), String> {
    let Some(list) = take(patch, RETAIN_KEYS) else {
        return Ok(());
    };
    let Some(keys) = list.items() else {
        return Err("invalid patch format of retainKeys".into());
    };
    let retained = FirstIndex::of(keys, |r| present_key(Some(r)));
    let listed = |k: &str| retained.contains(Some(&GoKey::Str(k.to_string())));
    for p in patch.iter() {
        let k = key_of(p);
        if kind(&p.value) == Kind::Nil
            || k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            || k.starts_with(SET_ELEMENT_ORDER)
        {
            continue;
        }
        if !listed(k) {
            return Err("invalid patch format of retainKeys".into());
        }
    }
    orig.retain(|p| listed(key_of(p)));
    Ok(())
}

/// `mergePatchIntoOriginal`: each `$setElementOrder/<list>` with its list, merged and ordered
/// by the directive; both leave the patch.
fn merge_set_element_order(
    orig: &mut Vec<Pair>,
    patch: &mut Vec<Pair>,
    meta: &Meta,
) -> Result<(), String> {
    let directives: Vec<String> = patch
        .iter()
        .map(|p| key_of(p).to_string())
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .collect();
    for key in directives {
        let Some(order_node) = take(patch, &key) else {
            continue;
        };
        let Some(order) = order_node.items().map(<[Node]>::to_vec) else {
            return Err(format!(
                "expected a []interface {{}}, but received a {}",
                json_type(&order_node)
            ));
        };
        let list_key = extract_key(&key, SET_ELEMENT_ORDER)
            .ok_or("invalid patch format of setElementOrder list")?;
        let orig_list = get(orig, &list_key).cloned();
        let patch_list = get(patch, &list_key).cloned();
        let as_items = |n: &Option<Node>| -> Result<Vec<Node>, String> {
            match n {
                None => Ok(Vec::new()),
                Some(n) => n.items().map(<[Node]>::to_vec).ok_or_else(|| {
                    format!(
                        "expected a []interface {{}}, but received a {}",
                        json_type(n)
                    )
                }),
            }
        };
        let orig_items = as_items(&orig_list)?;
        let patch_items = as_items(&patch_list)?;
        let (sub, fm) = meta.for_slice(&list_key)?;
        validate_set_order(&patch_items, &order, &fm.merge_key)?;
        let merged = match (&orig_list, &patch_list) {
            (Some(_), None) => orig_items.clone(),
            (None, Some(p)) => match remove_directives(p.clone()) {
                Some(v) => items_of(v),
                None => continue,
            },
            (Some(_), Some(p)) => {
                if fm.strategy == "merge" {
                    merge_slice(
                        orig_items.clone(),
                        patch_items.clone(),
                        &sub,
                        &fm.merge_key,
                        false,
                    )?
                } else {
                    items_of(p.clone())
                }
            }
            (None, None) => continue,
        };
        let (in_order, server_only) = if fm.merge_key.is_empty() {
            partition_primitives(merged, &order)
        } else {
            partition_maps(merged, &order, &fm.merge_key)?
        };
        let elem = slice_element_kind(&[&orig_items, &patch_items])?;
        let both = normalize_element_order(
            in_order,
            server_only,
            &order,
            &orig_items,
            &fm.merge_key,
            elem,
        )?;
        let like = orig_list
            .or(patch_list)
            .unwrap_or_else(|| Node::sequence(Vec::new()));
        set(orig, &list_key, with_items(&like, both));
        take(patch, &list_key);
    }
    Ok(())
}

/// `validatePatchWithSetOrderList`.
fn validate_set_order(patch: &[Node], order: &[Node], merge_key: &str) -> Result<(), String> {
    if patch.is_empty() || order.is_empty() {
        return Ok(());
    }
    let non_delete: Vec<&Node> = if merge_key.is_empty() {
        patch.iter().collect()
    } else {
        let mut v = Vec::new();
        for p in patch {
            if !p.is_mapping() {
                return Err(bad_arg("map[string]interface {}", p));
            }
            if p.get_str(DIRECTIVE) != Some("delete") {
                v.push(p);
            }
        }
        v
    };
    let (mut pi, mut oi) = (0, 0);
    while pi < non_delete.len() && oi < order.len() {
        if non_delete[pi].is_mapping() && non_delete[pi].contains_key(DIRECTIVE) {
            pi += 1;
            continue;
        }
        if merge_key_equal(non_delete[pi], &order[oi], merge_key)? {
            pi += 1;
        }
        oi += 1;
    }
    if pi < non_delete.len() && oi >= order.len() {
        return Err(format!(
            "The order in patch list:\n{}\n doesn't match $setElementOrder list:\n{}\n",
            show(&Node::sequence(patch.to_vec())),
            show(&Node::sequence(order.to_vec()))
        ));
    }
    Ok(())
}

fn merge_key_equal(a: &Node, b: &Node, merge_key: &str) -> Result<bool, String> {
    if merge_key.is_empty() {
        return Ok(go_eq(Some(a), Some(b)));
    }
    let ka = key_value(a, merge_key)?;
    let kb = key_value(b, merge_key)?;
    Ok(go_eq(Some(ka), Some(kb)))
}

fn key_value<'a>(m: &'a Node, merge_key: &str) -> Result<&'a Node, String> {
    if !m.is_mapping() {
        return Err(bad_arg("map[string]interface {}", m));
    }
    m.get(merge_key).ok_or_else(|| no_merge_key(m, merge_key))
}

fn bad_arg(expected: &str, got: &Node) -> String {
    let actual = match kind(got) {
        Kind::Nil => "<nil>",
        Kind::Bool => "bool",
        Kind::Float => "float64",
        Kind::Str => "string",
        Kind::Map => "map[string]interface {}",
        Kind::Slice => "[]interface {}",
    };
    format!("expected a {expected}, but received a {actual}")
}

fn no_merge_key(m: &Node, key: &str) -> String {
    format!(
        "map: {} does not contain declared merge key: {key}",
        show(m)
    )
}

// ---- mergeSlice -----------------------------------------------------------------------

fn merge_slice(
    original: Vec<Node>,
    patch: Vec<Node>,
    meta: &Meta,
    merge_key: &str,
    is_delete_list: bool,
) -> Result<Vec<Node>, String> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let elem = slice_element_kind(&[&original, &patch])?;
    let (original, patch, merged) = if elem != Kind::Map {
        if is_delete_list {
            return Ok(delete_from_slice(original, &patch));
        }
        let both: Vec<Node> = original.iter().chain(&patch).cloned().collect();
        let merged = deduplicate_scalars(both);
        (original, patch, merged)
    } else {
        if merge_key.is_empty() {
            return Err(format!(
                "cannot merge lists without merge key for {}",
                meta.name
            ));
        }
        let (original, patch) = merge_slice_special_elements(original, patch, merge_key)?;
        let merged = merge_slice_plain_elements(original.clone(), &patch, merge_key, meta)?;
        (original, patch, merged)
    };
    let (patch_items, server_only) = if merge_key.is_empty() {
        partition_primitives(merged, &patch)
    } else {
        partition_maps(merged, &patch, merge_key)?
    };
    normalize_element_order(patch_items, server_only, &patch, &original, merge_key, elem)
}

/// `sliceElementType`: every element of every slice has one type, and it is not a list.
fn slice_element_kind(slices: &[&Vec<Node>]) -> Result<Kind, String> {
    let mut prev: Option<Kind> = None;
    for s in slices {
        for v in s.iter() {
            let k = kind(v);
            match prev {
                None => {
                    if k == Kind::Slice {
                        return Err("lists of lists are not supported".into());
                    }
                    prev = Some(k);
                }
                Some(p) if p != k => {
                    return Err(format!(
                        "list element types are not identical: {}",
                        slices
                            .iter()
                            .map(|s| show(&Node::sequence(s.to_vec())))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ))
                }
                Some(_) => {}
            }
        }
    }
    prev.ok_or_else(|| "no elements in any of the given slices".to_string())
}

/// `deleteFromSlice`.
fn delete_from_slice(current: Vec<Node>, to_delete: &[Node]) -> Vec<Node> {
    let doomed = FirstIndex::of(to_delete, value_key);
    current
        .into_iter()
        .filter(|v| !doomed.contains(value_key(v).as_ref()))
        .collect()
}

/// A list item's key when the list holds scalars.
fn value_key(n: &Node) -> Option<GoKey> {
    present_key(Some(n))
}

/// `deduplicateScalars`, Go's in-place algorithm (it moves the last element into a
/// duplicate's place, so the order it leaves is its own). A value with no duplicate left is
/// not scanned for, which keeps a list with few duplicates linear.
fn deduplicate_scalars(mut s: Vec<Node>) -> Vec<Node> {
    if s.is_empty() {
        return s;
    }
    let mut copies: HashMap<GoKey, usize> = HashMap::new();
    for v in &s {
        if let Some(k) = value_key(v) {
            *copies.entry(k).or_default() += 1;
        }
    }
    let mut length = s.len() - 1;
    let mut i = 0;
    while i < length {
        let key = value_key(&s[i]);
        if key
            .as_ref()
            .and_then(|k| copies.get(k))
            .is_some_and(|&c| c > 1)
        {
            let mut j = i + 1;
            while j <= length {
                if go_eq(Some(&s[i]), Some(&s[j])) {
                    s[j] = s[length].clone();
                    s.truncate(length);
                    length -= 1;
                    if let Some(c) = key.as_ref().and_then(|k| copies.get_mut(k)) {
                        *c -= 1;
                    }
                    continue; // j-- then j++: look at the moved element
                }
                j += 1;
            }
        }
        i += 1;
    }
    s
}

/// `mergeSliceWithSpecialElements`: `$patch: delete` elements remove the original's elements
/// with their key, `$patch: replace` makes the patch's other elements the list.
fn merge_slice_special_elements(
    mut original: Vec<Node>,
    patch: Vec<Node>,
    merge_key: &str,
) -> Result<(Vec<Node>, Vec<Node>), String> {
    let mut plain_elements = Vec::new();
    let mut replace = false;
    // Deleted keys are dropped in one pass at the end; a list holding a non-map takes the
    // scan, for its error.
    let all_maps = original.iter().all(Node::is_mapping);
    let mut doomed = FirstIndex::default();
    for v in patch {
        let Some(directive) = v.get(DIRECTIVE) else {
            plain_elements.push(v);
            continue;
        };
        match (kind(directive), directive.as_scalar()) {
            (Kind::Str, Some("delete")) => {
                let Some(value) = v.get(merge_key) else {
                    return Err(no_merge_key(&v, merge_key));
                };
                if all_maps {
                    doomed.add(present_key(Some(value)), 0);
                    continue;
                }
                let value = value.clone();
                while let Some(i) = find_by_key(&original, merge_key, &value)? {
                    original.remove(i);
                }
            }
            (Kind::Str, Some("replace")) => replace = true,
            (Kind::Str, Some("merge")) => {
                return Err("merging lists cannot yet be specified in the patch".into())
            }
            _ => {
                return Err(format!(
                    "unknown patch type: {} in map: {}",
                    show(directive),
                    show(&v)
                ))
            }
        }
    }
    original.retain(|o| !doomed.contains(present_key(o.get(merge_key)).as_ref()));
    if replace {
        Ok((plain_elements, Vec::new()))
    } else {
        Ok((original, plain_elements))
    }
}

/// `findMapInSliceBasedOnKeyValue`: the index of the first map whose `key` equals `value`.
fn find_by_key(list: &[Node], key: &str, value: &Node) -> Result<Option<usize>, String> {
    for (i, v) in list.iter().enumerate() {
        if !v.is_mapping() {
            return Err(format!("value for key {i} is not a map"));
        }
        if v.get(key).is_some_and(|k| go_eq(Some(k), Some(value))) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// `mergeSliceWithoutSpecialElements`: a patch element merges into the original's element
/// with its key, or is appended as it is.
fn merge_slice_plain_elements(
    mut original: Vec<Node>,
    patch: &[Node],
    merge_key: &str,
    meta: &Meta,
) -> Result<Vec<Node>, String> {
    let mut index = MapIndex::of(&original, merge_key);
    for v in patch {
        let Some(value) = v.get(merge_key) else {
            return Err(no_merge_key(v, merge_key));
        };
        match index.find(value)? {
            Some(i) => {
                let merged = merge_map(original[i].clone(), v.clone(), meta)?;
                original[i] = merged;
            }
            None => {
                index.first.add(present_key(Some(value)), original.len());
                original.push(v.clone());
            }
        }
    }
    Ok(original)
}

/// `findMapInSliceBasedOnKeyValue` over an index of a list of maps: the first map whose merge
/// key equals a value, or the scan's error when a non-map comes first.
struct MapIndex {
    first: FirstIndex,
    first_non_map: Option<usize>,
}

impl MapIndex {
    fn of(list: &[Node], merge_key: &str) -> MapIndex {
        MapIndex {
            first: FirstIndex::of(list, |n| present_key(n.get(merge_key))),
            first_non_map: list.iter().position(|n| !n.is_mapping()),
        }
    }

    fn find(&self, value: &Node) -> Result<Option<usize>, String> {
        let found = self.first.get(present_key(Some(value)).as_ref());
        match (found, self.first_non_map) {
            (Some(i), Some(j)) if j < i => Err(format!("value for key {j} is not a map")),
            (None, Some(j)) => Err(format!("value for key {j} is not a map")),
            (found, _) => Ok(found),
        }
    }
}

/// `partitionPrimitivesByPresentInList`.
fn partition_primitives(merged: Vec<Node>, by: &[Node]) -> (Vec<Node>, Vec<Node>) {
    let by = FirstIndex::of(by, value_key);
    merged
        .into_iter()
        .partition(|v| by.contains(value_key(v).as_ref()))
}

/// `partitionMapsByPresentInList`.
fn partition_maps(
    merged: Vec<Node>,
    by: &[Node],
    merge_key: &str,
) -> Result<(Vec<Node>, Vec<Node>), String> {
    let mut inside = Vec::new();
    let mut outside = Vec::new();
    let by = MapIndex::of(by, merge_key);
    for v in merged {
        let value = key_value(&v, merge_key)?;
        if by.find(value)?.is_some() {
            inside.push(v);
        } else {
            outside.push(v);
        }
    }
    Ok((inside, outside))
}

/// `index`: where an item is in a list, by merge key for maps (a missing key is `nil`), by
/// value otherwise.
struct Positions {
    first: FirstIndex,
    merge_key: String,
    elem: Kind,
}

impl Positions {
    fn of(list: &[Node], merge_key: &str, elem: Kind) -> Positions {
        let mut p = Positions {
            first: FirstIndex::default(),
            merge_key: merge_key.to_string(),
            elem,
        };
        for (i, n) in list.iter().enumerate() {
            p.first.add(p.key(n), i);
        }
        p
    }

    fn key(&self, n: &Node) -> Option<GoKey> {
        if self.elem == Kind::Map {
            go_key(n.get(&self.merge_key))
        } else {
            value_key(n)
        }
    }

    fn index_of(&self, n: &Node) -> Option<usize> {
        self.first.get(self.key(n).as_ref())
    }
}

/// `normalizeElementOrder`: each side sorted by its own order, then interleaved.
fn normalize_element_order(
    patch: Vec<Node>,
    server_only: Vec<Node>,
    patch_order: &[Node],
    server_order: &[Node],
    merge_key: &str,
    elem: Kind,
) -> Result<Vec<Node>, String> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, elem)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, elem)?;
    Ok(merge_sorted(
        server_only,
        patch,
        server_order,
        merge_key,
        elem,
    ))
}

/// `normalizeSliceOrder`: stable sort by position in `order`; `$patch: delete` maps last.
fn normalize_slice_order(
    to_sort: Vec<Node>,
    order: &[Node],
    merge_key: &str,
    elem: Kind,
) -> Result<Vec<Node>, String> {
    let mut to_sort = to_sort;
    let mut to_delete = Vec::new();
    if elem == Kind::Map {
        for v in to_sort.iter().chain(order) {
            key_value(v, merge_key)?;
        }
        let (keep, delete): (Vec<Node>, Vec<Node>) = to_sort
            .into_iter()
            .partition(|v| v.get(DIRECTIVE).and_then(Node::as_scalar) != Some("delete"));
        to_sort = keep;
        to_delete = delete;
    }
    let order = Positions::of(order, merge_key, elem);
    let mut keyed: Vec<(Option<usize>, Node)> = to_sort
        .into_iter()
        .map(|v| (order.index_of(&v), v))
        .collect();
    // Go's comparison says "less" whenever one side is not in `order`; with every item found
    // (always the case here) it is the order's position.
    keyed.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => std::cmp::Ordering::Equal,
    });
    let mut out: Vec<Node> = keyed.into_iter().map(|(_, v)| v).collect();
    out.extend(to_delete);
    Ok(out)
}

/// `mergeSortedSlice`: the server-only items (`left`) go in before the first patch item
/// (`right`) the original had after them.
fn merge_sorted(
    left: Vec<Node>,
    right: Vec<Node>,
    server_order: &[Node],
    merge_key: &str,
    elem: Kind,
) -> Vec<Node> {
    let server_order = Positions::of(server_order, merge_key, elem);
    let less = |l: &Node, r: &Node| -> bool {
        match (server_order.index_of(l), server_order.index_of(r)) {
            (Some(li), Some(ri)) => li < ri,
            _ => false,
        }
    };
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => out.extend(left.next()),
            (None, Some(_)) => out.extend(right.next()),
            (Some(l), Some(r)) => {
                if less(l, r) {
                    out.extend(left.next());
                } else {
                    out.extend(right.next());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
