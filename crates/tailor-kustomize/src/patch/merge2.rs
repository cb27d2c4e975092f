//! kyaml's `merge2` walker (kustomize's strategic merge), ported node for node.
//!
//! kustomize v5.5.0 applies a strategic-merge patch with `merge2.Merge(patch, resource,
//! {ListIncreaseDirection: Prepend})`: a walk over both trees where maps merge by key, scalars
//! and lists without a merge strategy are replaced, `null` clears, `$patch: delete|replace|merge`
//! directives apply to maps and to elements of associative lists, and lists whose schema field
//! has `x-kubernetes-patch-strategy: merge` are merged by their merge keys with kyaml's own
//! element algorithm. That algorithm has consequences that differ from apimachinery's
//! strategicpatch (see the crate docs); they are reproduced on purpose, because tailor follows
//! kustomize here.

use crate::patch::ynode::{self, Kind, Tag, N};
use tailor_kube::schema::Schema;

mod indexed;
mod keyed;

/// What a visitor returns: the node to keep, or `None` to clear the field (`walk.ClearNode`).
type Res = Result<Option<N>, String>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Directive {
    Merge,
    Replace,
    Delete,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ListKind {
    Associative,
    NonAssociative,
}

/// `merge2.Merge(src, dest, Prepend)`: merges `patch` into `dest`; `None` means the whole
/// object was deleted. Both graphs may be modified (directives are elided from the patch).
pub(crate) fn merge(patch: N, dest: N) -> Res {
    Walker {
        schema: None,
        dest: Some(dest),
        origin: Some(patch),
        path: Vec::new(),
    }
    .walk()
}

struct Walker {
    schema: Option<Schema>,
    dest: Option<N>,
    origin: Option<N>,
    path: Vec<String>,
}

fn node_kind(n: &N) -> u8 {
    match n.borrow().kind {
        Kind::Scalar(_) => 1,
        Kind::Mapping(_) => 2,
        Kind::Sequence(_) => 3,
    }
}

impl Walker {
    fn sources(&self) -> [Option<&N>; 2] {
        [self.dest.as_ref(), self.origin.as_ref()]
    }

    /// The kind of the first source that is neither missing nor null (0 when none).
    fn kind(&self) -> u8 {
        self.sources()
            .into_iter()
            .flatten()
            .find(|n| !ynode::is_null(n))
            .map_or(0, node_kind)
    }

    fn walk(mut self) -> Res {
        self.schema = self.get_schema();
        match self.kind() {
            2 => {
                self.check_kinds(2, "MappingNode")?;
                self.walk_map()
            }
            3 => {
                self.check_kinds(3, "SequenceNode")?;
                if self.schema.as_ref().is_some_and(Schema::has_merge_strategy) {
                    self.walk_associative()
                } else {
                    self.visit_list(ListKind::NonAssociative)
                }
            }
            1 => {
                self.check_kinds(1, "ScalarNode")?;
                self.visit_scalar()
            }
            _ => self.walk_map(),
        }
    }

    /// `ErrorIfAnyInvalidAndNonNull`.
    fn check_kinds(&self, kind: u8, name: &str) -> Result<(), String> {
        for n in self.sources().into_iter().flatten() {
            if ynode::is_null(n) || node_kind(n) == kind {
                continue;
            }
            return Err(format!(
                "wrong node kind for {} expected: {name} was {}: value: {{{}}}",
                self.path.join("."),
                ynode::kind_name(n),
                ynode::render(n)
            ));
        }
        Ok(())
    }

    /// `Walker.GetSchema`: the field's schema, else that of a source carrying apiVersion/kind.
    fn get_schema(&self) -> Option<Schema> {
        if self.schema.is_some() {
            return self.schema.clone();
        }
        for n in self.sources().into_iter().flatten() {
            if ynode::is_null(n) || !ynode::is_mapping(n) {
                continue;
            }
            let av = ynode::field_value(n, "apiVersion").map(|v| ynode::value_text(&v));
            let kind = ynode::field_value(n, "kind").map(|v| ynode::value_text(&v));
            let (Some(av), Some(kind)) = (av, kind) else {
                continue;
            };
            if av.is_empty() || kind.is_empty() {
                continue;
            }
            if let Some(s) = Schema::for_resource(&av, &kind) {
                return Some(s);
            }
        }
        None
    }

    // ---- maps ---------------------------------------------------------------------------

    fn walk_map(mut self) -> Res {
        let dest = self.visit_map()?;
        self.dest = dest.clone();
        let Some(dest) = dest else {
            return Ok(None);
        };
        // Every key is looked up once in each source: index them once (linear in the map's
        // size). Each key is visited once, so a key's entry is never looked up after it was
        // set, and the clears can wait until the end (one pass instead of one per key).
        let index = |n: &Option<N>| n.as_ref().map(ynode::field_index).unwrap_or_default();
        let (dest_fields, origin_fields) = (index(&self.dest), index(&self.origin));
        let mut cleared = std::collections::HashSet::new();
        for key in self.field_names() {
            let schema = self.schema.as_ref().and_then(|s| s.field(&key));
            let mut path = self.path.clone();
            path.push(key.clone());
            let existing = dest_fields.get(&key).cloned();
            let val = Walker {
                schema,
                dest: existing.clone(),
                origin: origin_fields.get(&key).cloned(),
                path,
            }
            .walk()?;
            if set_field_known(&dest, &key, existing, val)? {
                cleared.insert(key);
            }
        }
        ynode::clear_fields(&dest, &cleared);
        Ok(Some(dest))
    }

    /// The sorted union of the sources' field names.
    fn field_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .sources()
            .into_iter()
            .flatten()
            .flat_map(ynode::field_names)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn visit_map(&self) -> Res {
        self.set_comments_and_style();
        let (dest, origin) = (self.dest.as_ref(), self.origin.as_ref());
        if ynode::missing_or_null(dest) {
            let ps = directive(origin).unwrap_or(Directive::Merge);
            if ps == Directive::Delete {
                return Ok(None);
            }
            // An explicit `null`/`~` in the destination survives when the patch has nothing.
            if let (None, Some(d)) = (origin, dest) {
                let text = ynode::value_text(d);
                if !text.is_empty() {
                    let keep = ynode::scalar(&text);
                    keep.borrow_mut().extra = d.borrow().extra.clone();
                    return Ok(Some(keep));
                }
            }
            return Ok(origin.cloned());
        }
        by_directive(dest, origin)
    }

    fn visit_scalar(&self) -> Res {
        self.set_comments_and_style();
        Ok(self.origin.clone().or_else(|| self.dest.clone()))
    }

    fn visit_list(&self, kind: ListKind) -> Res {
        self.set_comments_and_style();
        let (dest, origin) = (self.dest.as_ref(), self.origin.as_ref());
        if kind == ListKind::NonAssociative {
            return Ok(origin.or(dest).cloned());
        }
        if ynode::missing_or_null(dest) {
            return Ok(origin.cloned());
        }
        by_directive(dest, origin)
    }

    /// `Merger.SetComments` and `SetStyle`: the patch's comments win; an empty destination
    /// collection takes the patch's style.
    fn set_comments_and_style(&self) {
        let (Some(dest), Some(origin)) = (&self.dest, &self.origin) else {
            return;
        };
        if std::rc::Rc::ptr_eq(dest, origin) {
            return;
        }
        let (oc, ostyle) = {
            let o = origin.borrow();
            (o.extra.as_ref().map(|e| e.comments.clone()), o.style)
        };
        let mut d = dest.borrow_mut();
        if let Some(c) = oc {
            if !c.foot.is_empty() {
                d.comments_mut().foot = c.foot;
            }
            if !c.head.is_empty() {
                d.comments_mut().head = c.head;
            }
            if !c.line.is_empty() {
                d.comments_mut().line = c.line;
            }
        }
        let empty_collection =
            matches!(&d.kind, Kind::Mapping(c) | Kind::Sequence(c) if c.is_empty());
        if empty_collection {
            d.style = match ostyle {
                tailor_yaml::Style::Flow => tailor_yaml::Style::Flow,
                _ => tailor_yaml::Style::Block,
            };
        }
    }

    // ---- associative lists --------------------------------------------------------------

    fn walk_associative(mut self) -> Res {
        let dest = self.visit_list(ListKind::Associative)?;
        self.dest = dest.clone();
        let Some(dest) = dest else {
            return Ok(None);
        };
        let keys: Vec<String> = self
            .schema
            .as_ref()
            .map(|s| s.strategy_and_keys().1.to_vec())
            .unwrap_or_default();
        let keyed = if keys.is_empty() {
            &[String::new()][..]
        } else {
            &keys[..]
        };
        if let Some(res) = self.set_elements_keyed(keyed, &dest) {
            return res;
        }
        let values = self.element_values(&keys);
        if !values.is_empty() || !keys.is_empty() {
            return self.set_elements(values, &keys, dest);
        }
        let primitive = self.element_primitive_values();
        self.set_elements(primitive, &[String::new()], dest)
    }

    /// The key values of every element, patch first (prepend), de-duplicated, in order.
    fn element_values(&self, keys: &[String]) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for src in [self.origin.as_ref(), self.dest.as_ref()]
            .into_iter()
            .flatten()
        {
            for elem in ynode::content(src) {
                let vals: Vec<String> = keys
                    .iter()
                    .map(|k| {
                        let v = if ynode::is_mapping(&elem) {
                            ynode::field_value(&elem, k)
                        } else {
                            None
                        };
                        if ynode::is_nil_or_empty(v.as_ref()) {
                            String::new()
                        } else {
                            v.map(|v| ynode::value_text(&v)).unwrap_or_default()
                        }
                    })
                    .collect();
                if vals.is_empty() || !seen.insert(vals.clone()) {
                    continue;
                }
                out.push(vals);
            }
        }
        out
    }

    /// The values of a primitive associative list (e.g. finalizers), patch first.
    fn element_primitive_values(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for src in [self.origin.as_ref(), self.dest.as_ref()]
            .into_iter()
            .flatten()
        {
            for item in ynode::content(src) {
                let v = ynode::value_text(&item);
                if seen.insert(v.clone()) {
                    out.push(vec![v]);
                }
            }
        }
        out
    }

    /// `setAssociativeSequenceElements`.
    fn set_elements(&self, mut values_list: Vec<Vec<String>>, keys: &[String], dest: N) -> Res {
        if let Some(res) = self.set_elements_indexed(&mut values_list, keys, &dest) {
            return res;
        }
        let items = ynode::empty_seq();
        let elem_schema = self.schema.as_ref().and_then(Schema::elements);
        if keys.len() > 1 {
            merge_values(&mut values_list);
        }
        let mut valid_keys: Vec<String> = Vec::new();
        for values in &values_list {
            if values.is_empty() {
                continue;
            }
            let (vk, vv) = validate_keys(&values_list, values, keys);
            valid_keys = vk.clone();
            let (ek, ev) = validate_keys(std::slice::from_ref(&vv), &vv, &vk);
            let pick = |n: &Option<N>| n.as_ref().and_then(|n| element_list(n, &ek, &ev));
            let val = Walker {
                schema: elem_schema.clone(),
                dest: pick(&Some(dest.clone())),
                origin: pick(&self.origin),
                path: self.path.clone(),
            }
            .walk()?;
            let mut exit = false;
            for (i, key) in vk.iter().enumerate() {
                match &val {
                    Some(v) if !ynode::is_empty_map(Some(v)) => {
                        let has = ynode::is_mapping(v) && ynode::field(v, key).is_some();
                        if !has && !vv[i].is_empty() {
                            if key.is_empty() {
                                set_scalar(v, &vv[i])?;
                            } else {
                                set_field_named(v, key, Some(ynode::scalar(&vv[i])))?;
                            }
                        }
                    }
                    _ => {
                        element_setter(&dest, None, &vk, &vv)?;
                        exit = true;
                    }
                }
            }
            if exit {
                continue;
            }
            if let Some(v) = val {
                element_setter(&items, Some(v), &vk, &vv)?;
            }
        }
        let dest = if values_list.is_empty() {
            dest
        } else {
            // prepend: the patch's order first, then what the destination had
            append_list_node(&items, &dest, &valid_keys)?;
            items
        };
        if ynode::is_null(&dest) {
            return Ok(None);
        }
        Ok(Some(dest))
    }
}

/// `determineSmpDirective`: reads and removes `$patch` from a map patch.
/// How kyaml's VisitMap and VisitList end once the destination is there: a null patch
/// deletes it; otherwise the patch's `$patch` directive decides.
fn by_directive(dest: Option<&N>, origin: Option<&N>) -> Res {
    if origin.is_some_and(ynode::is_null) {
        return Ok(None);
    }
    match directive(origin)? {
        Directive::Delete => Ok(None),
        Directive::Replace => Ok(origin.cloned()),
        Directive::Merge => Ok(dest.cloned()),
    }
}

fn directive(patch: Option<&N>) -> Result<Directive, String> {
    let Some(patch) = patch else {
        return Ok(Directive::Merge);
    };
    if ynode::is_sequence(patch) {
        return sequence_directive(patch);
    }
    if !ynode::is_mapping(patch) {
        return Err(format!(
            "no implemented strategic merge patch strategy for '{}' ('{}')",
            ynode::short_tag(patch),
            ynode::render(patch)
        ));
    }
    let Some(v) = ynode::field_value(patch, "$patch") else {
        return Ok(Directive::Merge);
    };
    let d = match ynode::value_text(&v).as_str() {
        "delete" => Directive::Delete,
        "replace" => Directive::Replace,
        "merge" => Directive::Merge,
        other => return Err(format!("unknown patch strategy '{other}'")),
    };
    ynode::clear_field(patch, "$patch");
    Ok(d)
}

/// `determineSequenceNodePatchStrategy`: the first map element with a `$patch` key is a list
/// directive when it has nothing else; it is then removed from the patch.
fn sequence_directive(patch: &N) -> Result<Directive, String> {
    let first = ynode::content(patch)
        .into_iter()
        .find(|e| ynode::is_mapping(e) && ynode::field(e, "$patch").is_some());
    let Some(elem) = first else {
        return Ok(Directive::Merge);
    };
    if ynode::content(&elem).len() > 2 {
        return Ok(Directive::Merge);
    }
    let Some(v) = ynode::field_value(&elem, "$patch") else {
        return Ok(Directive::Merge);
    };
    let text = ynode::value_text(&v);
    let d = match text.as_str() {
        "delete" => Directive::Delete,
        "replace" => Directive::Replace,
        "merge" => Directive::Merge,
        other => return Err(format!("unknown patch strategy '{other}'")),
    };
    element_setter(patch, None, &["$patch".to_string()], &[text])?;
    Ok(d)
}

/// `FieldSetter{Name, Value}` on a mapping: clear when the value is missing or null, replace
/// an existing value in place (keeping its style), or append.
fn set_field_named(map: &N, name: &str, value: Option<N>) -> Result<(), String> {
    let existing = ynode::field_value(map, name);
    if set_field_known(map, name, existing, value)? {
        ynode::clear_field(map, name);
    }
    Ok(())
}

/// [`set_field_named`] with the field's current value already looked up (`existing`, the
/// first value of `name` in `map`). Returns whether the caller must clear the field.
fn set_field_known(
    map: &N,
    name: &str,
    existing: Option<N>,
    value: Option<N>,
) -> Result<bool, String> {
    let value = match value {
        Some(v) if !ynode::is_null(&v) => v,
        _ => {
            if ynode::is_mapping(map) {
                return Ok(existing.is_some());
            } else if !ynode::is_null(map) {
                return Err(wrong_kind(map, "MappingNode"));
            }
            return Ok(false);
        }
    };
    if !ynode::is_mapping(map) {
        if ynode::is_null(map) {
            return Ok(false);
        }
        return Err(wrong_kind(map, "MappingNode"));
    }
    if let Some(existing) = existing {
        let style = existing.borrow().style;
        ynode::copy_style(&value, style);
        ynode::set_ynode(&existing, &value);
        return Ok(false);
    }
    let key = ynode::new(
        Kind::Scalar(name.into()),
        Tag::None,
        tailor_yaml::Style::Plain,
    );
    let mut y = map.borrow_mut();
    if let Kind::Mapping(c) = &mut y.kind {
        c.push(key);
        c.push(value);
    }
    Ok(false)
}

/// `FieldSetter{Value}` without a name: a scalar takes the new text (keeping its style).
fn set_scalar(n: &N, text: &str) -> Result<(), String> {
    if ynode::is_null(n) {
        let fresh = ynode::scalar(text);
        ynode::set_ynode(n, &fresh);
        return Ok(());
    }
    let mut y = n.borrow_mut();
    match &mut y.kind {
        Kind::Scalar(s) => {
            *s = text.into();
            y.tag = Tag::None;
            if matches!(y.style, tailor_yaml::Style::Any) {
                y.style = tailor_yaml::Style::Plain;
            }
            Ok(())
        }
        _ => {
            drop(y);
            Err(wrong_kind(n, "ScalarNode"))
        }
    }
}

fn wrong_kind(n: &N, expected: &str) -> String {
    format!(
        "wrong node kind: expected {expected} was {}: value: {{{}}}",
        ynode::kind_name(n),
        ynode::render(n)
    )
}

/// `FieldMatcher{Name, StringValue}` on one element.
fn field_matcher(elem: &N, name: &str, value: Option<&str>) -> Result<Option<N>, String> {
    let value = value.filter(|v| !v.is_empty());
    if ynode::is_null(elem) {
        return Ok(None);
    }
    if name.is_empty() {
        if !matches!(elem.borrow().kind, Kind::Scalar(_)) {
            return Err(wrong_kind(elem, "ScalarNode"));
        }
        return Ok((ynode::get_value(Some(elem)) == value.unwrap_or("")).then(|| elem.clone()));
    }
    if !ynode::is_mapping(elem) {
        return Err(wrong_kind(elem, "MappingNode"));
    }
    let y = elem.borrow();
    let Kind::Mapping(c) = &y.kind else {
        return Ok(None);
    };
    for kv in c.chunks(2).filter(|kv| kv.len() == 2) {
        if ynode::value_text(&kv[0]) != name {
            continue;
        }
        match value {
            None => return Ok(Some(kv[1].clone())),
            Some(v) if ynode::value_text(&kv[1]) == v => return Ok(Some(kv[1].clone())),
            _ => {}
        }
    }
    Ok(None)
}

/// `ElementSetter`: deletes (`element` None) or replaces the elements matching all key/value
/// pairs, appending when nothing matched; drops null and empty-map elements on the way.
fn element_setter(
    seq: &N,
    element: Option<N>,
    keys: &[String],
    values: &[String],
) -> Result<(), String> {
    let empty = [String::new()];
    let keys = if keys.is_empty() { &empty[..] } else { keys };
    if !ynode::is_null(seq) && !ynode::is_sequence(seq) {
        return Err(wrong_kind(seq, "SequenceNode"));
    }
    let mapping_setter = !keys[0].is_empty() && values.first().is_some_and(|v| !v.is_empty());
    let mut new_content = Vec::new();
    let mut matched = false;
    for elem in ynode::content(seq) {
        if ynode::is_null(&elem) || ynode::is_empty_map(Some(&elem)) {
            continue;
        }
        if !ynode::is_mapping(&elem) && mapping_setter {
            new_content.push(elem);
            continue;
        }
        let mut found = true;
        let mut val: Option<N> = None;
        for (j, key) in keys.iter().enumerate() {
            if j < values.len() {
                val = field_matcher(&elem, key, Some(&values[j]))?;
            }
            if val.is_none() {
                found = false;
                break;
            }
        }
        if !found {
            if !values.is_empty() {
                new_content.push(elem);
            }
            continue;
        }
        matched = true;
        if let Some(e) = &element {
            new_content.push(e.clone());
        }
    }
    ynode::set_content(seq, new_content);
    let Some(element) = element.filter(|e| !ynode::is_null(e)) else {
        return Ok(());
    };
    if !matched {
        let mut y = seq.borrow_mut();
        if let Kind::Sequence(c) = &mut y.kind {
            c.push(element);
        }
    }
    Ok(())
}

/// `ElementList` / `ElementMatcher`: the first element whose keys all have these values.
fn element_list(seq: &N, keys: &[String], values: &[String]) -> Option<N> {
    if !ynode::is_sequence(seq) {
        return None;
    }
    let empty = [String::new()];
    let keys = if keys.is_empty() { &empty[..] } else { keys };
    let values = if values.is_empty() {
        &empty[..]
    } else {
        values
    };
    let content = ynode::content(seq);
    if keys[0].is_empty() {
        return content
            .into_iter()
            .find(|i| ynode::value_text(i) == values[0]);
    }
    for elem in content {
        if !ynode::is_mapping(&elem) {
            continue;
        }
        if keys.len() != values.len() {
            return None;
        }
        let all = keys.iter().zip(values).all(|(k, v)| {
            ynode::field_value(&elem, k).is_some_and(|f| ynode::value_text(&f) == *v)
        });
        if all {
            return Some(elem);
        }
    }
    None
}

/// `appendListNode(dst, src, keys)`: each element of `src` replaces its match in `dst` or is
/// appended.
fn append_list_node(dst: &N, src: &N, keys: &[String]) -> Result<(), String> {
    for elem in ynode::content(src) {
        if keys.first().is_none_or(|k| k.is_empty()) {
            let v = ynode::value_text(&elem);
            element_setter(dst, Some(elem.clone()), &[String::new()], &[v])?;
            continue;
        }
        let mut v = Vec::new();
        for key in keys {
            match field_matcher(&elem, key, None)? {
                None => {
                    if !ynode::is_null(dst) && !ynode::is_sequence(dst) {
                        return Err(wrong_kind(dst, "SequenceNode"));
                    }
                    let mut y = dst.borrow_mut();
                    if let Kind::Sequence(c) = &mut y.kind {
                        c.push(elem.clone());
                    }
                }
                Some(n) => v.push(ynode::value_text(&n)),
            }
        }
        if keys.len() > 1 {
            element_setter(dst, None, keys, &v)?;
        }
        element_setter(dst, Some(elem.clone()), keys, &v)?;
    }
    Ok(())
}

/// `validateKeys`: drop secondary keys that no element has a value for.
fn validate_keys(
    values_list: &[Vec<String>],
    values: &[String],
    keys: &[String],
) -> (Vec<String>, Vec<String>) {
    let mut valid: Vec<&String> = Vec::new();
    for vals in values_list {
        for (i, v) in vals.iter().enumerate() {
            if !v.is_empty() {
                if let Some(k) = keys.get(i) {
                    if !valid.contains(&k) {
                        valid.push(k);
                    }
                }
            }
        }
    }
    if valid.is_empty() {
        return (keys.to_vec(), values.to_vec());
    }
    let vk = keys.iter().filter(|k| valid.contains(k)).cloned().collect();
    let vv = values
        .iter()
        .enumerate()
        .filter(|(i, v)| !v.is_empty() || keys.get(*i).is_some_and(|k| valid.contains(&k)))
        .map(|(_, v)| v.clone())
        .collect();
    (vk, vv)
}

/// `mergeValues`: key tuples that agree where both have a value are the same element.
fn merge_values(list: &mut [Vec<String>]) {
    for i in 0..list.len() {
        let v1 = list[i].clone();
        for j in 0..list.len() {
            if let Some(m) = match_values(&v1, &list[j]) {
                list[i] = m.clone();
                list[j] = m;
            }
        }
    }
}

fn match_values(a: &[String], b: &[String]) -> Option<Vec<String>> {
    if a.len() != b.len() {
        return None;
    }
    let mut common = false;
    let mut res = Vec::with_capacity(a.len());
    for (x, y) in a.iter().zip(b) {
        if x == y {
            common = true;
            res.push(x.clone());
        } else if !x.is_empty() && !y.is_empty() {
            return None;
        } else if !x.is_empty() {
            res.push(x.clone());
        } else {
            res.push(y.clone());
        }
    }
    common.then_some(res)
}
